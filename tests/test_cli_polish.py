"""One language across the commands: '-o -', --json, did-you-mean, seeds named apart, what
'move' and 'show' print, 'undo', 'validate' on folders, file modes and symbolic links."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli

RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SCRIPT = [sys.executable, "-m", "gametool"]


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None
        ) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), input=input, catch_exceptions=False, env=env)
    return result.exit_code, result.stdout, result.stderr


def start(tmp_path: Path, *args: str, name: str = "g.gtn") -> Path:
    path = tmp_path / name
    code, _out, err = run("start", *args, "-o", str(path))
    assert code == 0, err
    return path


# -- '-o -' is stdout ----------------------------------------------------------------------------


def test_start_with_output_dash_writes_stdout_not_a_file(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("start", "colors", "-o", "-")
    assert code == 0 and out.startswith('[Game "colors"]')
    assert not (tmp_path / "-").exists()


def test_import_from_stdin_to_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pgn = '[Event "x"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 *\n'
    code, out, err = run("import", "-", "-o", "-", input=pgn)
    assert code == 0, err
    assert "1. white: e4" in out.lower() or "e4" in out
    assert not (tmp_path / "-").exists()


def test_export_and_selfplay_take_output(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "s1")
    code, _out, err = run("export", str(path), "--as", "red", "-o", str(tmp_path / "red.gtn"),
                          "--weak-seed-ok")
    assert code == 0, err
    assert "SeedHash" in (tmp_path / "red.gtn").read_text()
    code, _out, err = run("selfplay", "colors", "-n", "2", "-o", str(tmp_path / "corpus"),
                          "--seed", "c")
    assert code == 0, err
    assert len(list((tmp_path / "corpus").glob("*.gtn"))) == 2
    # the old spelling still works
    code, _out, err = run("selfplay", "colors", "-n", "1", "--out", str(tmp_path / "old"))
    assert code == 0, err


# -- the README's Special Salvo example ------------------------------------------------------------


def readme_block(heading: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_the_readme_special_salvo_example_runs(tmp_path: Path) -> None:
    for line in readme_block("Special Salvo with no referee"):
        argv = shlex.split(line, comments=True)
        assert argv[0] == "gametool"
        done = subprocess.run(SCRIPT + argv[1:], cwd=tmp_path, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, f"{line}: {done.stderr}"


# -- did you mean -------------------------------------------------------------------------------


def test_a_lowercase_san_move_gets_a_hint(tmp_path: Path) -> None:
    path = start(tmp_path, "chess")
    run("move", str(path), "e4", "e5")
    before = path.read_bytes()
    code, _out, err = run("move", str(path), "qh5")
    assert code == 1 and "did you mean 'Qh5'" in err
    assert path.read_bytes() == before


def test_an_unknown_game_gets_a_suggestion() -> None:
    code, _out, err = run("start", "chesss")
    assert code == 1 and "did you mean chess" in err


def test_aliases_are_accepted_and_listed() -> None:
    code, out, err = run("rules", "mahjong")
    assert code == 0, err
    assert out.startswith("Western Mahjong")
    listing = run("list")[1]
    row = next(line for line in listing.splitlines() if line.startswith("western-mahjong"))
    assert "mahjong" in row.split("western-mahjong", 1)[1].lower().replace("western mahjong", "")
    data = {g["id"]: g for g in json.loads(run("list", "--json")[1])}
    assert "mahjong" in data["western-mahjong"]["aliases"]


def test_unknown_seat_and_option_names_get_suggestions(tmp_path: Path) -> None:
    path = start(tmp_path, "chess")
    code, _out, err = run("show", str(path), "--as", "whitte")
    assert code == 1 and "did you mean 'white'" in err
    code, _out, err = run("start", "belemmer", "--option", "scor=tops")
    assert code == 1 and "did you mean 'score'" in err


# -- file modes and symbolic links --------------------------------------------------------------


def test_created_files_honour_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = start(tmp_path, "colors")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_move_through_a_symbolic_link_updates_the_target(tmp_path: Path) -> None:
    target = start(tmp_path, "colors", name="real.gtn")
    link = tmp_path / "link.gtn"
    link.symlink_to(target)
    code, _out, err = run("move", str(link), "d4=R")
    assert code == 0, err
    assert link.is_symlink()
    assert "d4=R" in target.read_text()


# -- --json everywhere data is printed -----------------------------------------------------------


def test_rules_json() -> None:
    data = json.loads(run("rules", "belemmer", "--json")[1])
    assert data["id"] == "belemmer" and "score" in data["options"]
    assert "Notation" not in data["summary"] and data["notation"]


def test_perft_json(tmp_path: Path) -> None:
    path = start(tmp_path, "chess")
    assert json.loads(run("perft", str(path), "2", "--json")[1]) == {"depth": 2, "nodes": 400}
    data = json.loads(run("perft", str(path), "1", "--divide", "--json")[1])
    assert data["nodes"] == 20 and data["divide"]["e4"] == 1


def test_move_json_and_export_json(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    data = json.loads(run("move", str(path), "d4=R", "--json")[1])
    assert data == [{"ply": 1, "seat": "p1", "action": "d4=R"}]
    exported = json.loads(run("export", str(path), "--as", "p2", "--json")[1])
    assert exported["tags"]["Game"] == "colors"
    assert exported["plies"] == [{"ply": 1, "seat": "p1", "action": "d4=R"}]


def test_selfplay_json(tmp_path: Path) -> None:
    code, out, err = run("selfplay", "colors", "-n", "2", "-o", str(tmp_path / "c"), "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["seat"] for r in rows] == ["p1", "p2"] and rows[0]["games"] == 2


# -- seeds named apart ---------------------------------------------------------------------------


def test_player_seed_is_apart_from_the_chance_seed(tmp_path: Path) -> None:
    texts = []
    for name, pseed in (("a", "1"), ("b", "2")):
        code, _out, err = run("selfplay", "tawula", "-n", "1", "-o", str(tmp_path / name),
                              "--seed", "same", "--player-seed", pseed)
        assert code == 0, err
        texts.append((tmp_path / name / "tawula-0001.gtn").read_text())
    first_rolls = [re.search(r"1\. chance: (.*)", t).group(1) for t in texts]  # type: ignore
    assert first_rolls[0] == first_rolls[1]
    assert texts[0] != texts[1]


def test_move_auto_takes_player_seed_and_the_old_spelling(tmp_path: Path) -> None:
    a = start(tmp_path, "colors", name="a.gtn")
    b = start(tmp_path, "colors", name="b.gtn")
    assert run("move", str(a), "--auto", "random", "--player-seed", "9")[0] == 0
    assert run("move", str(b), "--auto", "random", "--seed", "9")[0] == 0
    assert a.read_text() == b.read_text()


# -- what move, show and undo print --------------------------------------------------------------


def test_move_prints_each_ply_added_and_quiet_silences_it(tmp_path: Path) -> None:
    path = start(tmp_path, "tawula", "--seed", "m1")
    code, out, _ = run("move", str(path), "--auto", "greedy", "--player-seed", "1")
    lines = out.splitlines()
    assert code == 0 and re.fullmatch(r"2\. (White|Black): .+", lines[0])
    assert re.fullmatch(r"3\. chance: roll \d-\d", lines[1])
    code, out, _ = run("move", str(path), "--auto", "greedy", "--quiet")
    assert code == 0 and out == ""


def test_move_prints_chance_as_the_mover_may_see_it(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "b2")
    code, out, _ = run("move", str(path), "place a1")
    assert code == 0
    assert out.startswith("3. red: place a1")
    assert "?" not in out.splitlines()[0]


def test_show_names_the_last_turn_of_every_seat(tmp_path: Path) -> None:
    path = start(tmp_path, "tawula", "--seed", "s3")
    run("move", str(path), "--auto", "random", "--player-seed", "1")
    run("move", str(path), "--auto", "random", "--player-seed", "1")
    record = path.read_text().splitlines()
    black = next(line for line in record if re.match(r"\d+\. Black:", line))
    out = run("show", str(path))[1]
    assert black.split(": ", 1)[1] in out
    data = json.loads(run("show", str(path), "--json")[1])
    assert [t.split(":")[0] for t in data["last_turns"]] == ["chance", "Black", "chance"]


def test_undo_takes_back_a_finished_game_and_clears_the_result(tmp_path: Path) -> None:
    path = start(tmp_path, "chess")
    run("move", str(path), "f3", "e5", "g4", "Qh4#")
    assert '[Result "0-1"]' in path.read_text()
    code, out, err = run("undo", str(path))
    assert code == 0, err
    text = path.read_text()
    assert '[Result "*"]' in text and "Termination" not in text and "Qh4" not in text
    assert "Qh4#" in out
    code, _out, err = run("undo", str(path), "--plies", "2")
    assert code == 0, err
    assert "e5" not in path.read_text() and "f3" in path.read_text()
    assert run("validate", str(path))[0] == 0


def test_undo_takes_back_a_dice_turn_with_its_roll(tmp_path: Path) -> None:
    path = start(tmp_path, "tawula", "--seed", "u1")
    before = path.read_text()
    run("move", str(path), "--auto", "random")
    run("undo", str(path))
    assert path.read_text() == before


def test_undo_is_refused_on_an_exported_record(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "u2")
    run("move", str(path), "place a1")
    exported = tmp_path / "red.gtn"
    run("export", str(path), "--as", "red", "-o", str(exported), "--weak-seed-ok")
    before = exported.read_bytes()
    code, _out, err = run("undo", str(exported))
    assert code == 1 and "master record" in err
    assert exported.read_bytes() == before


# -- validate ------------------------------------------------------------------------------------


def test_validate_takes_folders_errors_on_stderr(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    start(folder, "colors", name="a.gtn")
    bad = start(folder, "colors", name="b.gtn")
    bad.write_text(bad.read_text() + "1. p1: z9=R\n")
    code, out, err = run("validate", str(folder))
    assert code == 1
    verdicts = out.splitlines()
    assert len(verdicts) == 2
    assert verdicts[0].startswith(f"{folder / 'a.gtn'}: ok")
    assert verdicts[1].startswith(f"{folder / 'b.gtn'}: invalid: ")
    assert f"{folder / 'b.gtn'}:" in err and "a.gtn" not in err


# -- rules wraps ---------------------------------------------------------------------------------


def test_rules_wraps_to_the_terminal_width() -> None:
    for game in ("western-mahjong", "special-salvo", "belemmer"):
        out = run("rules", game, env={"COLUMNS": "60"})[1]
        assert max(len(line) for line in out.splitlines()) <= 60, game


# -- manual pages --------------------------------------------------------------------------------

DECISION = re.compile(r"\(D\d+[),;:]|\bD\d+:\s|[,;]\s*D\d+\)")


def test_every_command_page_has_examples_and_no_empty_entries() -> None:
    from gametool.cli.manpages import pages

    written = pages(cli)
    for name, command in cli.commands.items():
        assert f"gametool-{name}.1" in written
        for sub in getattr(command, "commands", {}):
            assert f"gametool-{name}-{sub}.1" in written
    assert {"gametool-referee-new.1", "gametool-referee-inbox.1"} <= set(written)
    for name, text in written.items():
        if name.endswith(".1"):
            assert ".SH EXAMPLES" in text, name
        # an entry with a name and no text (an argument without help) says nothing
        assert not re.search(r"^\.TP\n\\fB[^\n]*\\fR\n(\.TP|\.SH|$)", text, re.M), name


def test_no_decision_numbers_in_pages_rules_or_help() -> None:
    from gametool import games
    from gametool.cli.manpages import pages

    for name, text in pages(cli).items():
        assert not DECISION.search(text), (name, DECISION.search(text))
    for gid in games.GAMES:
        assert not DECISION.search(run("rules", gid)[1]), gid
        assert not DECISION.search(json.dumps(json.loads(run("rules", gid, "--json")[1]))), gid


def test_pip_install_puts_the_pages_where_man_finds_them(tmp_path: Path) -> None:
    pytest.importorskip("wheel")
    if not shutil.which("man"):
        pytest.skip("no man on this system")
    source, prefix = tmp_path / "source", tmp_path / "prefix"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("gametool", "notation", "man"):
        shutil.copytree(ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    # --ignore-installed: never uninstall the gametool already installed in this environment
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--ignore-installed",
                           "--no-build-isolation", "--prefix", str(prefix), str(source)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (prefix / "share/man/man1/gametool.1").is_file()
    assert (prefix / "share/man/man1/gametool-referee-new.1").is_file()
    assert (prefix / "share/man/man6/gametool-belemmer.6").is_file()
    env = dict(os.environ, PATH=f"{prefix / 'bin'}:{os.environ['PATH']}")
    env.pop("MANPATH", None)
    for page in ("gametool", "gametool-play", "gametool-belemmer"):
        found = subprocess.run(["man", "-w", page], env=env, capture_output=True, text=True)
        assert found.stdout.strip().startswith(str(prefix)), (page, found.stdout, found.stderr)


def test_undo_before_any_player_has_played_says_so(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "u3")
    before = path.read_bytes()
    code, _out, err = run("undo", str(path))
    assert code == 1 and "no player has played yet" in err
    assert path.read_bytes() == before
