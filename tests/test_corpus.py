"""Archives: several records in a file, directories as inputs, filter, stats, split, and
``validate --all`` reading on after an error."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gametool.cli import cli
from gametool.record import Session

RUNNER = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


CHESS_ONE_TYPO = """\
[Game "chess"]
[Players "white; black"]
[Result "*"]

1. white: e4
2. black: e5
3. white: Nf9
4. black: Nc6
5. white: Bb5
6. black: a6
7. white: Ba4
8. black: Nf6
9. white: O-O
10. black: Be7
"""


# -- validate --all reads on after an error ---------------------------------------------------


def test_validate_all_one_typo_gives_one_error(tmp_path: Path) -> None:
    # The typo at ply 3 is White's; the next line is Black's, so White's turn is completed by a
    # guess (a knight move, since O-O follows) and Black's Nc6 is read as Black's, not White's.
    path = tmp_path / "typo.gtn"
    path.write_text(CHESS_ONE_TYPO)
    code, out, err = run("validate", "--all", str(path))
    assert code == 1 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{path}:7:11: ply 3: malformed chess action 'Nf9'")


def test_validate_all_json_counts_the_valid_plies(tmp_path: Path) -> None:
    path = tmp_path / "typo.gtn"
    path.write_text(CHESS_ONE_TYPO)
    (record,) = json.loads(run("validate", "--all", "--json", str(path))[1])[0]["records"]
    assert record["plies"] == 9 and [e["ply"] for e in record["errors"]] == [3]
    # Without --all, the plies read before the first error.
    (record,) = json.loads(run("validate", "--json", str(path))[1])[0]["records"]
    assert record["plies"] == 2


def test_validate_all_two_typos_give_two_errors(tmp_path: Path) -> None:
    path = tmp_path / "two.gtn"
    path.write_text(CHESS_ONE_TYPO.replace("Nc6", "Nc9").replace("Ba4", "Bz4"))
    data = json.loads(run("validate", "--all", "--json", str(path))[1])
    (record,) = data[0]["records"]
    assert [e["ply"] for e in record["errors"]] == [3, 4, 7]  # Nf9 and Nc9 are two typos
    assert record["plies"] == 7


def test_validate_all_wrong_seat_gives_one_error(tmp_path: Path) -> None:
    path = tmp_path / "seat.gtn"
    path.write_text(CHESS_ONE_TYPO.replace("3. white: Nf9", "3. black: Nf3"))
    data = json.loads(run("validate", "--all", "--json", str(path))[1])
    (record,) = data[0]["records"]
    assert [e["ply"] for e in record["errors"]] == [3]
    assert "not black's turn" in record["errors"][0]["message"]


def test_validate_all_resynchronises_with_seeded_dice() -> None:
    # Tawula: each player's move is followed by a seeded roll. After an illegal move the rolls
    # that follow still match the seed and the later moves are read for the right seat.
    session = Session.start("tawula", seed="5")
    for _ in range(12):
        game, state = session.game, session.state
        session.play([game.format_action(state, game.legal_actions(state)[0])])
    lines = session.text().splitlines()
    target = next(i for i, line in enumerate(lines)
                  if line.startswith("12. ") and "pass" not in line)
    lines[target] = lines[target].split(": ")[0] + ": pass"
    text = "\n".join(lines) + "\n"
    from gametool.record import check_text

    (verdict,) = check_text(text, "t.gtn", all_errors=True)
    assert [e.where.ply for e in verdict.errors] == [12]
    assert verdict.plies == session.ply - 1


# -- several records in a file: --record N ------------------------------------------------------


def three_records(tmp_path: Path) -> Path:
    """colors, chess, colors: a file of three records, the second one a chess game."""
    texts = []
    for args in (("colors", "--players", "ann,ben"), ("chess",), ("colors",)):
        code, out, err = run("start", *args)
        assert code == 0, err
        texts.append(out)
    path = tmp_path / "three.gtn"
    path.write_text("\n".join(texts))
    return path


def test_a_file_of_several_records_needs_record(tmp_path: Path) -> None:
    path = three_records(tmp_path)
    for command in (["show"], ["moves"], ["replay"], ["export", "--as", "p1"], ["perft"],
                    ["move", "--auto", "random"]):
        args = [command[0], str(path), *(["1"] if command[0] == "perft" else []), *command[1:]]
        code, out, err = run(*args)
        assert code == 1 and out == "", command
        assert err.startswith(f"gametool: {path}:6:1: the file holds 3 records: choose one "
                              "with --record N (1 to 3)"), err


def test_record_picks_one_record_for_every_reading_command(tmp_path: Path) -> None:
    path = three_records(tmp_path)
    assert run("moves", str(path), "--record", "2")[1].splitlines()[:2] == ["Nc3", "Na3"]
    assert json.loads(run("show", str(path), "--record", "1", "--json")[1])["players"] == [
        "ann", "ben"]
    assert run("perft", str(path), "2", "--record", "2")[1] == "400\n"
    assert len(json.loads(run("replay", str(path), "--record", "3", "--json")[1])) == 1
    assert '[Players "p1; p2"]' in run("export", str(path), "--record", "3", "--as", "p1")[1]
    code, _out, err = run("show", str(path), "--record", "4")
    assert code == 1 and err == f"gametool: {path}: --record 4: the file holds 3 records\n"
    assert run("show", str(path), "--record", "0")[0] == 2


def test_move_with_record_rewrites_that_record_only(tmp_path: Path) -> None:
    path = three_records(tmp_path)
    before = path.read_text().split("\n[Game")
    code, _out, err = run("move", str(path), "e4", "e5", "--record", "2")
    assert code == 0, err
    after = path.read_text().split("\n[Game")
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1].endswith("1. white: e4\n2. black: e5\n")
    assert run("moves", str(path), "--record", "2", "--json")[1].count('"ply": 3') == 1
    # A rejected move leaves the whole file as it was.
    text = path.read_text()
    assert run("move", str(path), "Ke3", "--record", "2")[0] == 1
    assert path.read_text() == text
    # undo takes back the last turn of that record only.
    assert run("undo", str(path), "--record", "2")[0] == 0
    after = path.read_text().split("\n[Game")
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1].endswith("1. white: e4\n")
