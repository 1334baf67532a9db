"""The command-line contract of design.md section 4, through Click's CliRunner and, where the
installed script matters (locking, exit codes, no tracebacks), through subprocesses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli

RUNNER = CliRunner()
GAMETOOL = shutil.which("gametool")
SCRIPT = [GAMETOOL] if GAMETOOL else [sys.executable, "-m", "gametool"]


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def start(tmp_path: Path, *args: str, name: str = "g.gtn") -> Path:
    path = tmp_path / name
    code, _out, err = run("start", *args, "-o", str(path))
    assert code == 0, err
    return path


# -- list, rules, help ---------------------------------------------------------------------------


def test_list_shows_every_game_with_its_status() -> None:
    code, out, _ = run("list")
    assert code == 0
    for gid in ("colors", "colors-8x8", "belemmer", "po-go"):
        assert gid in out
    assert "rules unavailable" in out


def test_list_json() -> None:
    code, out, _ = run("list", "--json")
    data = {g["id"]: g for g in json.loads(out)}
    assert data["belemmer"]["chance"] and data["belemmer"]["hidden"]
    assert data["po-go"]["status"] == "rules unavailable"
    assert data["colors"]["min_players"] == 2


def test_rules_prints_summary_notation_and_options() -> None:
    code, out, _ = run("rules", "belemmer")
    assert code == 0
    assert "Notation" in out and "after_piles" in out


@pytest.mark.parametrize("command", ["list", "rules", "start", "move", "moves", "show",
                                     "validate", "replay", "export", "perft"])
def test_every_command_has_help(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "Usage:" in out and len(out) > 200


# -- start ----------------------------------------------------------------------------------------


def test_start_writes_a_record_to_stdout() -> None:
    code, out, _ = run("start", "colors")
    assert code == 0
    assert out.startswith('[Game "colors"]\n[Players "p1; p2"]\n')
    assert '[Result "*"]' in out


def test_start_with_players_options_and_seed(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--players", "ann,ben", "--option", "score=tops",
                 "--seed", "s1")
    text = path.read_text()
    assert '[Players "ann; ben"]' in text
    assert '[Options "score=tops"]' in text
    assert '[Seed "s1"]' in text
    assert "1. chance: shuffle red" in text and "2. chance: shuffle black" in text


def test_start_without_seed_leaves_chance_to_the_user(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--no-seed")
    assert "chance:" not in path.read_text()
    code, out, err = run("moves", str(path))
    assert code == 1 and "chance is to move" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchgame"], "unknown game"),
        (["colors", "--players", "a,b,c"], "2 players"),
        (["colors", "--players", "a,a"], "used twice"),
        (["colors", "--option", "size=9"], "no option"),
        (["belemmer", "--option", "score=all"], "expected one of"),
        (["colors", "--position", "zz"], "position"),
    ],
)
def test_start_rejects_bad_requests_with_one_line(args: list[str], message: str) -> None:
    code, out, err = run("start", *args)
    assert code == 1
    assert message in err
    assert err.count("\n") == 1 and not out


def test_start_refuses_to_overwrite(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    code, _, err = run("start", "colors", "-o", str(path))
    assert code == 1 and "already exists" in err


def test_seed_and_no_seed_together_is_a_usage_error() -> None:
    code, _, _ = run("start", "belemmer", "--seed", "x", "--no-seed")
    assert code == 2


# -- PO-GO ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--option", "anything=1"]])
def test_po_go_cannot_be_started(tmp_path: Path, extra: list[str]) -> None:
    target = tmp_path / "p.gtn"
    code, out, err = run("start", "po-go", *extra, "-o", str(target))
    assert code == 1
    assert "rules unavailable" in err
    assert not target.exists() and not out


def test_a_po_go_record_cannot_be_replayed(tmp_path: Path) -> None:
    path = tmp_path / "p.gtn"
    path.write_text('[Game "po-go"]\n[Players "a; b"]\n\n1. a: x\n')
    for command in ("replay", "show", "moves", "validate"):
        code, out, err = run(command, str(path))
        assert code == 1
        assert "rules unavailable" in out + err


def test_pogo_is_not_po_go() -> None:
    code, _, err = run("start", "pogo")
    assert code == 1 and "unknown game" in err


# -- move, moves, show -----------------------------------------------------------------------------


def test_move_appends_in_canonical_form(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    assert run("move", str(path), "D4=r")[0] == 0
    assert run("move", str(path), "e4=R", "--as", "p2", "--expect-ply", "2")[0] == 0
    text = path.read_text()
    assert "1. p1: d4=R\n2. p2: e4=R\n" in text
    code, out, _ = run("show", str(path), "--json")
    data = json.loads(out)
    assert data["ply"] == 2 and data["to_move"] == "p1" and data["scores"] == {"p1": 6, "p2": 0}
    assert data["over"] is False and data["result"] is None


def test_rejected_move_leaves_the_file_byte_for_byte(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R")
    before = path.read_bytes()
    for bad in (["d4=G"], ["pass"], ["d4"], ["e5=B", "e5=R"], ["--as", "p1", "a1=B"],
                ["--expect-ply", "1", "a1=B"]):
        code, _out, err = run("move", str(path), *bad)
        assert code == 1, bad
        assert err.startswith("gametool: ") and err.count("\n") == 1
        assert path.read_bytes() == before


def test_move_errors_name_the_ply_and_the_rule(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R")
    code, _, err = run("move", str(path), "d4=G")
    assert code == 1 and "ply 2" in err and "occupied" in err
    code, _, err = run("move", str(path), "--expect-ply", "7", "a1=B")
    assert code == 1 and "stale --expect-ply 7" in err


def test_move_with_stdin_writes_stdout(tmp_path: Path) -> None:
    _, record, _ = run("start", "colors")
    code, out, _ = run("move", "-", "a1=B", input=record)
    assert code == 0 and out.endswith("1. p1: a1=B\n")


def test_moves_lists_every_legal_action(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    code, out, _ = run("moves", str(path))
    lines = out.split()
    assert code == 0 and len(lines) == 49 * 5 and "a1=B" in lines
    assert run("moves", str(path), "--as", "p2")[1] == ""
    data = json.loads(run("moves", str(path), "--json")[1])
    assert data["to_move"] == "p1" and data["ply"] == 1 and len(data["actions"]) == 245


def test_show_draws_board_and_score_table(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R", "e4=R")
    code, out, _ = run("show", str(path))
    assert code == 0 and "ply 2, p1 to move" in out and "R" in out
    assert run("show", str(path), "--ply", "0", "--json")[0] == 0
    assert run("show", str(path), "--ply", "9")[0] == 1


def test_a_game_over_refuses_more_moves(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "resign")
    assert '[Result "0-1"]' in path.read_text()
    code, _, err = run("move", str(path), "a1=B")
    assert code == 1 and "game is over" in err
    assert run("moves", str(path))[1] == ""


# -- validate ------------------------------------------------------------------------------------


def test_validate_reports_file_line_column_and_ply(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R", "e4=R", "f4=R")
    text = path.read_text().replace("2. p2: e4=R", "2. p2: d4=B")
    path.write_text(text)
    line = text.splitlines().index("2. p2: d4=B") + 1
    code, out, err = run("validate", str(path))
    assert code == 1 and out.startswith(f"{path}: invalid: {line}:8: ply 2: ")  # its verdict
    assert err.startswith(f"{path}:{line}:8: ply 2: ")


def test_validate_all_reports_every_error(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R", "e4=R", "f4=R", "g4=R")
    text = path.read_text().replace("e4=R", "d4=B").replace("g4=R", "z9=R")
    path.write_text(text)
    assert run("validate", str(path))[2].count("\n") == 1
    code, _out, err = run("validate", "--all", str(path))
    assert code == 1 and err.count("\n") == 2
    data = json.loads(run("validate", "--all", "--json", str(path))[1])
    assert [e["ply"] for e in data[0]["records"][0]["errors"]] == [2, 4]


def test_validate_checks_ply_numbers_seats_and_result(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R", "e4=R")
    good = path.read_text()
    cases = {
        "wrong ply number": good.replace("2. p2", "3. p2"),
        "not p1's turn": good.replace("2. p2", "2. p1"),
        "no seat": good.replace("2. p2", "2. zed"),
        "Result tag": good.replace('[Result "*"]', '[Result "1-0"]'),
        "no Players tag": good.replace('[Players "p1; p2"]\n', ""),
    }
    for words, text in cases.items():
        path.write_text(text)
        code, out, err = run("validate", str(path))
        assert code == 1 and words in out + err, words


def test_validate_several_files_and_records(tmp_path: Path) -> None:
    a = start(tmp_path, "colors", name="a.gtn")
    b = start(tmp_path, "belemmer", "--seed", "x", name="b.gtn")
    both = tmp_path / "both.gtn"
    both.write_text(a.read_text() + "\n" + b.read_text())
    code, out, _ = run("validate", str(a), str(b), str(both))
    assert code == 0
    assert f"{both}: ok (2 records" in out


def test_validate_rejects_a_chance_action_that_contradicts_the_seed(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "s")
    lines = path.read_text().splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("1. chance: shuffle red"))
    cards = lines[i].split()
    cards[4], cards[5] = cards[5], cards[4]
    lines[i] = " ".join(cards)
    path.write_text("\n".join(lines) + "\n")
    code, _out, err = run("validate", str(path))
    assert code == 1 and "contradicts the seed" in err


# -- replay, export, perft -----------------------------------------------------------------------


def test_replay_shows_every_position(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    run("move", str(path), "d4=R", "e4=R", "d5=R")
    code, out, _ = run("replay", str(path))
    assert code == 0 and out.count("Colors (colors)") == 4
    frames = json.loads(run("replay", str(path), "--from", "1", "--to", "2", "--json")[1])
    assert [f["ply"] for f in frames] == [1, 2]
    assert [f["scores"]["p1"] for f in frames] == [0, 6]
    code, out, _ = run("replay", str(path), "--from", "2", "--to", "9")  # --to stops at the end
    assert code == 0 and out.count("Colors (colors)") == 2
    assert run("replay", str(path), "--from", "9")[0] == 1
    code, _, err = run("replay", str(path), "--from", "3", "--to", "2")
    assert code == 2 and err == ("gametool: usage: --from 3 comes after --to 2 "
                                 "(see 'gametool replay --help')\n")


def test_export_replaces_the_seed_by_its_hash(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "secret")
    code, out, _ = run("export", str(path), "--as", "red", "--weak-seed-ok")
    assert code == 0 and "secret" not in out and "[SeedHash" in out
    assert "?" in out  # the unseen pile cards
    assert run("export", str(path))[0] == 2


def test_an_exported_record_validates_and_says_what_it_could_not_check(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--seed", "secret")
    exported = tmp_path / "e.gtn"
    exported.write_text(run("export", str(path), "--as", "black", "--weak-seed-ok")[1])
    code, out, _err = run("validate", str(exported))
    # The player's file reads on its own, and says what only the master record can prove.
    assert code == 0 and "not checked" in out and "SeedHash" in out


def test_perft_counts_turn_sequences(tmp_path: Path) -> None:
    path = start(tmp_path, "colors")
    assert run("perft", str(path), "1")[1].strip() == "245"
    assert run("perft", str(path), "2")[1].strip() == str(245 * 240)
    code, out, _ = run("perft", str(path), "1", "--divide")
    assert code == 0 and out.strip().endswith("total: 245")


def test_perft_is_refused_where_chance_acts(tmp_path: Path) -> None:
    path = start(tmp_path, "belemmer", "--no-seed")
    code, _, err = run("perft", str(path), "1")
    assert code == 1 and "chance" in err


# -- the installed script ------------------------------------------------------------------------


def script(*args: str, cwd: Path | None = None, input: str | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SCRIPT, *args], capture_output=True, text=True, cwd=cwd,
                          input=input, timeout=60)


def test_the_script_runs_and_never_shows_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    assert script("start", "colors", "-o", str(path)).returncode == 0
    junk = tmp_path / "junk.gtn"
    for content in (b"\xff\xfe garbage", b"[Game \"colors\"]\n1. p1: a1=B\n", b"", b"[[[",
                    b'[Game "colors"]\n[Players "a; b"]\n1. a: \x00'):
        junk.write_bytes(content)
        for command in (["validate"], ["show"], ["moves"], ["replay"], ["move", "-"]):
            args = [*command, str(junk)] if command != ["move", "-"] else ["move", "-", "a1=B"]
            done = script(*args, input=content.decode("latin-1"))
            assert done.returncode in (1, 2), (command, content)
            assert "Traceback" not in done.stderr
            assert done.stderr.count("\n") <= 1


def test_usage_errors_exit_2_with_one_line() -> None:
    for args, line in [
            (["move"], "gametool: usage: missing argument 'FILE' (see 'gametool move --help')"),
            (["frobnicate"],
             "gametool: usage: no such command 'frobnicate' (see 'gametool --help')"),
            (["perft", "x.gtn", "deep"], "gametool: usage: invalid value for 'DEPTH': 'deep' is "
             "not a whole number (see 'gametool perft --help')"),
            (["shw"], "gametool: usage: no such command 'shw': did you mean 'show'? "
             "(see 'gametool --help')"),
            (["referee", "send", "--outbox", "x"], "gametool: usage: give --sendmail or --smtp "
             "(see 'gametool referee send --help')")]:
        done = script(*args)
        assert (done.returncode, done.stderr, done.stdout) == (2, line + "\n", ""), args


def test_eight_concurrent_moves_with_the_same_expected_ply(tmp_path: Path) -> None:
    path = tmp_path / "race.gtn"
    assert script("start", "colors", "-o", str(path)).returncode == 0
    squares = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "a7"]
    procs = [subprocess.Popen([*SCRIPT, "move", str(path), f"{sq}=B", "--expect-ply", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for sq in squares]
    codes = [p.wait(timeout=60) for p in procs]
    assert sorted(codes) == [0] + [1] * 7
    assert script("validate", str(path)).returncode == 0
    text = path.read_text()
    assert text.count("1. p1:") == 1 and "2. " not in text
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
