"""A command imports only what it uses: the modules loaded by common commands, checked in a
fresh interpreter (``sys.modules`` after the command has run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gametool import games

PROBE = """
import json, sys
from gametool.cli import cli
try:
    cli.main(args=sys.argv[1:], prog_name="gametool", standalone_mode=False)
finally:
    sys.__stderr__.write("\\n" + json.dumps(sorted(sys.modules)) + "\\n")
"""


def loaded(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def game_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("gametool.games.")}


@pytest.fixture(scope="module")
def colors_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("imports") / "c.gtn"
    subprocess.run([sys.executable, "-m", "gametool", "start", "colors", "-o", str(path)],
                   check=True)
    subprocess.run([sys.executable, "-m", "gametool", "move", str(path), "d4=R"], check=True)
    return path


@pytest.mark.parametrize("command", [["moves"], ["move", "e4=B"], ["validate"]])
def test_commands_on_a_colors_record_load_only_colors(command: list[str],
                                                     colors_record: Path, tmp_path: Path) -> None:
    path = tmp_path / "c.gtn"
    path.write_bytes(colors_record.read_bytes())
    modules = loaded(command[0], str(path), *command[1:])
    assert "tabulate" not in modules
    assert not {m for m in modules if m == "email" or m.startswith("email.")}
    assert not {m for m in modules if m.startswith(("smtplib", "mailbox", "xml", "dask"))}
    assert game_modules(modules) <= {"gametool.games.colors"}, game_modules(modules)
    assert "gametool.referee.referee" not in modules


def test_version_loads_no_game(colors_record: Path) -> None:
    modules = loaded("--version")
    assert not game_modules(modules)
    assert "tabulate" not in modules


def test_show_of_a_chess_record_loads_no_other_game(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    subprocess.run([sys.executable, "-m", "gametool", "start", "chess", "-o", str(path)],
                   check=True)
    modules = loaded("moves", str(path))
    other = {m for m in game_modules(modules)
             if not m.startswith("gametool.games.chess")}
    assert not other, other
    assert "gametool.games.chess.horse" not in modules
    assert "tabulate" not in modules
    # Moves in their common spellings are read without the grammars: no pyparsing at all.
    subprocess.run([sys.executable, "-m", "gametool", "move", str(path), "e4"], check=True)
    subprocess.run([sys.executable, "-m", "gametool", "move", str(path), "Nf6"], check=True)
    for command in ("show", "moves", "validate"):
        assert "pyparsing" not in loaded(command, str(path)), command


def test_every_game_module_imports_alone() -> None:
    """Each game's module loads without any other game's (checked for every registered id)."""
    for gid, where in games.GAMES.items():
        module = where.partition(":")[0]
        code = (f"import sys, importlib; importlib.import_module({module!r}); "
                "print(' '.join(m for m in sys.modules if m.startswith('gametool.games.')))")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True)
        package = module.rsplit(".", 1)[0] if module.count(".") > 2 else module
        others = {m for m in done.stdout.split()
                  if not m.startswith(package) and m != "gametool.games"}
        assert not others, (gid, others)


def test_the_roots_table_names_every_command_of_each_group() -> None:
    """The root names each group's commands without importing it: the names must be the
    commands the group's module holds, and listing the root's commands loads them all."""
    from importlib import import_module

    from gametool.cli import GROUPS, Commands

    for group, names in GROUPS.items():
        module = import_module(f"gametool.cli.commands.{group}")
        assert tuple(command.name for command in module.COMMANDS) == names, group
    commands = Commands(GROUPS)
    assert "validate" in commands and "nosuch" not in commands
    assert commands.get("nosuch") is None
    assert commands["stats"].name == "stats"
    assert sorted(commands) == sorted(name for names in GROUPS.values() for name in names)


@pytest.mark.parametrize(("command", "group"), [(["validate"], "records_group"),
                                                (["stats"], "archives_group"),
                                                (["show"], "viewing_group")])
def test_a_command_loads_its_own_group_only(command: list[str], group: str,
                                            colors_record: Path, tmp_path: Path) -> None:
    path = tmp_path / "c.gtn"
    path.write_bytes(colors_record.read_bytes())
    modules = loaded(command[0], str(path))
    groups = {m.rsplit(".", 1)[1] for m in modules
              if m.startswith("gametool.cli.commands.") and m != "gametool.cli.commands.common"}
    assert groups == {group}, groups
