"""The manual pages in man/ are generated from the Click help and the games' own text."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from gametool import games
from gametool.cli import cli
from gametool.cli.manpages import pages

MAN = Path(__file__).resolve().parent.parent / "man"


def test_every_command_and_every_game_has_a_page() -> None:
    names = set(pages(cli))
    assert "gametool.1" in names
    assert {f"gametool-{c}.1" for c in cli.commands} <= names
    assert {f"gametool-{g}.6" for g in games.GAMES} <= names


def test_the_pages_on_disk_are_up_to_date() -> None:
    stale = [name for name, text in pages(cli).items()
             if not (MAN / name).exists() or (MAN / name).read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {stale}; run: python tests/regenerate.py"
    extra = {p.name for p in MAN.iterdir()} - set(pages(cli))
    assert not extra, f"pages of nothing: {sorted(extra)}"


def test_a_game_page_holds_rules_notation_and_options() -> None:
    text = pages(cli)["gametool-belemmer.6"]
    for section in (".SH RULES", ".SH NOTATION", ".SH OPTIONS"):
        assert section in text


def test_every_subcommand_of_a_group_has_a_page_with_examples() -> None:
    import click

    written = pages(cli)
    for name, command in cli.commands.items():
        if isinstance(command, click.Group):
            for sub in command.commands:
                page = written[f"gametool-{name}-{sub}.1"]
                assert f"gametool {name} {sub}" in page
                assert ".SH EXAMPLES" in page, f"{name} {sub} has no examples"
            assert ".SH COMMANDS" in written[f"gametool-{name}.1"]


@pytest.mark.parametrize("editable", [False, True], ids=["pip-install", "pip-install-e"])
def test_man_finds_the_pages_after_either_install(tmp_path: Path, editable: bool) -> None:
    """After 'pip install .' and after 'pip install -e .' (then 'gametool man --install', as
    the README says), 'man gametool' finds the pages, and 'gametool man PAGE' opens them."""
    if shutil.which("man") is None:
        pytest.skip("no man on this system")
    pytest.importorskip("wheel")  # setuptools builds an editable install as a wheel
    root = MAN.parent
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, source / name)
    for name in ("gametool", "notation", "man"):
        shutil.copytree(root / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    # The new environment borrows this one's packages (click, setuptools, ...), not its gametool.
    site = subprocess.run([str(env_dir / "bin" / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(env_dir / "bin/python"),
                           "install", "-q", "--no-deps", "--no-build-isolation",
                           *(["-e"] if editable else []), str(source)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    env = {**os.environ, "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}", "MANPAGER": "cat",
           "PAGER": "cat", "MANWIDTH": "80"}
    env.pop("MANPATH", None)
    gametool = str(env_dir / "bin" / "gametool")
    where = subprocess.run([str(env_dir / "bin/python"), "-c",
                            "import gametool; print(gametool.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path).stdout
    assert where.startswith(str(source if editable else env_dir)), where
    shown = subprocess.run([gametool, "man", "play"], capture_output=True, text=True, env=env)
    assert shown.returncode == 0 and "GAMETOOL-PLAY(1)" in shown.stdout, shown.stderr
    if editable:
        installed = subprocess.run([gametool, "man", "--install"], capture_output=True,
                                   text=True, env=env)
        assert installed.stdout.strip() == str(env_dir / "share" / "man"), installed.stderr
    for page, title in (("gametool", "GAMETOOL(1)"), ("gametool-referee-new",
                                                       "GAMETOOL-REFEREE-NEW(1)"),
                        ("gametool-belemmer", "GAMETOOL-BELEMMER(6)")):
        found = subprocess.run(["man", "-w", page], env=env, capture_output=True, text=True)
        assert found.stdout.strip().startswith(str(env_dir)), (page, found.stdout, found.stderr)
        read = subprocess.run(["man", page], env=env, capture_output=True, text=True)
        assert title in read.stdout, page
