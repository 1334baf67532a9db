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
