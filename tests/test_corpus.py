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


# -- a small archive -----------------------------------------------------------------------------


def chess_record(moves: list[str], white: str = "ann", black: str = "ben",
                 **tags: str) -> str:
    session = Session.start("chess", [white, black], date="2026.01.01")
    for name, value in tags.items():
        session.record.set(name, value)
    session.play(moves)
    return session.text()


FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]                                  # 0-1, 4 plies
SCHOLARS_MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]         # 1-0, 7 plies
RESIGNED = ["e4", "e5", "resign"]                                         # 0-1, 3 plies


def archive(tmp_path: Path) -> Path:
    """club/2025.gtn: fool's mate (ann-ben) and scholar's mate (cy-ann);
    club/old/resigned.gtn: e4 e5 and White resigns (ben-cy); club/colors.gtn: a colors game
    (p1-p2, unfinished); club/notes.txt (not a record); club/open.pgn: two PGN games."""
    club = tmp_path / "club"
    (club / "old").mkdir(parents=True)
    (club / "2025.gtn").write_text(
        chess_record(FOOLS_MATE, Event="Club championship") + "\n"
        + chess_record(SCHOLARS_MATE, "cy", "ann", Event="Club blitz"))
    (club / "old" / "resigned.gtn").write_text(chess_record(RESIGNED, "ben", "cy",
                                                            Event="Open"))
    session = Session.start("colors", date="2026.01.01")
    session.play(["d4=R", "e4=R"])
    (club / "colors.gtn").write_text(session.text())
    (club / "notes.txt").write_text("not a record\n")
    (club / "open.pgn").write_text(
        '[Event "Open"]\n[White "dan"]\n[Black "eve"]\n[Result "1-0"]\n\n'
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
        '[Event "Open"]\n[White "eve"]\n[Black "dan"]\n[Result "*"]\n\n1. d4 d5 *\n')
    return club


def test_folders_are_searched_for_records_and_pgn(tmp_path: Path) -> None:
    from gametool import corpus

    club = archive(tmp_path)
    assert [Path(p).relative_to(club).as_posix() for p in corpus.expand([str(club)])] == [
        "2025.gtn", "colors.gtn", "old/resigned.gtn", "open.pgn"]


def test_validate_takes_folders(tmp_path: Path) -> None:
    club = archive(tmp_path)
    code, out, err = run("validate", str(club))
    assert code == 0, err
    assert out.splitlines() == [
        f"{club}/2025.gtn: ok (2 records, 11 plies)", f"{club}/colors.gtn: ok (1 record, 2 plies)",
        f"{club}/old/resigned.gtn: ok (1 record, 3 plies)",
        f"{club}/open.pgn: ok (2 records, 9 plies)"]


def kept(out: str) -> list[tuple[str, str, str]]:
    """(players, result, first move line) of each record written by filter."""
    from notation.record import parse

    return [(r.get("Players") or "", r.get("Result") or "",
             f"{r.turns[0].seat}: {r.turns[0].actions[0].text}" if r.turns else "")
            for r in parse(out)]


def test_filter_by_game_result_termination_and_length(tmp_path: Path) -> None:
    club = str(archive(tmp_path))
    assert len(kept(run("filter", club, "--game", "chess")[1])) == 5
    assert [k[0] for k in kept(run("filter", club, "--result", "0-1")[1])] == [
        "ann; ben", "ben; cy"]
    assert [k[0] for k in kept(run("filter", club, "--termination", "checkmate")[1])] == [
        "ann; ben", "cy; ann", "dan; eve"]
    assert [k[0] for k in kept(run("filter", club, "--min-plies", "4", "--max-plies",
                                   "6")[1])] == ["ann; ben"]
    assert [k[0] for k in kept(run("filter", club, "--game", "colours")[1])] == ["p1; p2"]


def test_filter_by_tag_and_player(tmp_path: Path) -> None:
    club = str(archive(tmp_path))
    assert [k[0] for k in kept(run("filter", club, "--tag", "event=^club")[1])] == [
        "ann; ben", "cy; ann"]
    assert [k[0] for k in kept(run("filter", club, "--tag", "Event=open",
                                   "--player", "EVE")[1])] == ["dan; eve", "eve; dan"]
    assert [k[0] for k in kept(run("filter", club, "--player", "cy")[1])] == [
        "cy; ann", "ben; cy"]
    (Path(club) / "named.gtn").write_text(chess_record(["e4"], "Carlsen_Magnus", "cyril"))
    assert [k[0] for k in kept(run("filter", club, "--player", "carlsen")[1])] == [
        "Carlsen_Magnus; cyril"]
    assert [k[0] for k in kept(run("filter", club, "--player", "cy")[1])] == [
        "cy; ann", "ben; cy"]                         # not cyril
    code, out, err = run("filter", club, "--tag", "Event=(")
    assert code == 1 and out == "" and err.startswith("gametool: --tag Event=(: not a regular")


def test_filter_by_position_reached(tmp_path: Path) -> None:
    club = str(archive(tmp_path))
    # After 1. e4 e5 (the clocks and the en-passant square do not count).
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 7 30"
    assert [k[0] for k in kept(run("filter", club, "--game", "chess", "--fen", fen)[1])] == [
        "cy; ann", "ben; cy", "dan; eve"]
    after_f3 = "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1"
    assert [k[0] for k in kept(run("filter", club, "--game", "chess", "--position",
                                   after_f3)[1])] == ["ann; ben"]
    assert run("filter", club, "--fen", fen)[0] == 1                  # needs --game
    code, _out, err = run("filter", club, "--game", "chess", "--fen", "8/8 w")
    assert code == 1 and err.count("\n") == 1


def test_filter_duplicates_and_unique(tmp_path: Path) -> None:
    club = archive(tmp_path)
    copy = club / "copy.gtn"
    copy.write_text(chess_record(FOOLS_MATE, "zed", "yan", Event="Copied"))
    # The same moves, other players: the same game for --duplicates and --unique (the PGN
    # game of dan and eve repeats the scholar's mate of cy and ann).
    assert [k[0] for k in kept(run("filter", str(club), "--duplicates")[1])] == [
        "zed; yan", "dan; eve"]
    unique = [k[0] for k in kept(run("filter", str(club), "--unique")[1])]
    assert unique == ["ann; ben", "cy; ann", "p1; p2", "ben; cy", "eve; dan"]


def test_filter_writes_to_a_file_and_keeps_going_past_bad_records(tmp_path: Path) -> None:
    club = archive(tmp_path)
    (club / "bad.gtn").write_text(CHESS_ONE_TYPO + "\n" + chess_record(FOOLS_MATE))
    out = tmp_path / "mates.gtn"
    code, stdout, err = run("filter", str(club), "--termination", "checkmate", "-o", str(out))
    assert code == 1 and stdout == ""
    assert err == (f"{club}/bad.gtn:7:11: ply 3: malformed chess action 'Nf9' (column 4): "
                   "Expected square (to), found end of text\n"
                   "4 of 8 records kept\n")
    assert len(kept(out.read_text())) == 4
    assert run("validate", str(out))[0] == 0
    code, _out, err = run("filter", str(club), "-o", str(out))
    assert code == 1 and "already exists" in err


def test_stats_tables_and_json(tmp_path: Path) -> None:
    club = str(archive(tmp_path))
    code, out, _ = run("stats", club, "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["chess", "colors"]
    chess = data["chess"]
    assert chess["games"] == 5 and chess["plies"] == 4 + 7 + 3 + 7 + 2
    assert chess["length"] == {"min": 2, "median": 4, "max": 7, "mean": 4.6}
    assert chess["positions"]["1"] == {"games": 5, "win": 2, "draw": 0, "loss": 2,
                                       "unfinished": 1}
    assert chess["positions"]["2"] == {"games": 5, "win": 2, "draw": 0, "loss": 2,
                                       "unfinished": 1}
    assert chess["seats"]["ann"] == {"games": 2, "win": 0, "draw": 0, "loss": 2,
                                     "unfinished": 0}
    assert chess["seats"]["cy"] == {"games": 2, "win": 2, "draw": 0, "loss": 0,
                                    "unfinished": 0}
    assert chess["terminations"] == {"checkmate": 3, "resignation": 1, "unfinished": 1}
    assert chess["first_turns"][:2] == [{"turn": "e4", "games": 3}, {"turn": "d4", "games": 1}]
    assert data["colors"]["terminations"] == {"unfinished": 1}
    code, text, _ = run("stats", club)
    assert code == 0
    for heading in ("results by seat position", "results by seat", "terminations",
                    "most common first turns (3 of 3, in 5 of 5 games)", "median plies"):
        assert heading in text
    assert "1st" in text and "2nd" in text


def test_split_writes_one_file_per_record(tmp_path: Path) -> None:
    club = archive(tmp_path)
    source = club / "2025.gtn"
    out = tmp_path / "parts"
    code, stdout, err = run("split", str(source), "-o", str(out))
    assert code == 0, err
    names = [out / "2025-0001.gtn", out / "2025-0002.gtn"]
    assert stdout.splitlines() == [str(n) for n in names]
    first, second = source.read_text().split("\n\n[Game")
    assert names[0].read_text() == first + "\n"
    assert names[1].read_text() == "[Game" + second
    assert run("validate", str(names[0]))[0] == 0
    code, _out, err = run("split", str(source), "-o", str(out))
    assert code == 1 and err.startswith(f"gametool: {names[0]}: already exists")
    assert run("split", str(source), "-o", str(out), "--force")[0] == 0
    code, stdout, _ = run("split", str(club / "open.pgn"), "-o", str(out))
    assert code == 0 and [Path(p).name for p in stdout.split()] == ["open-0001.pgn",
                                                                    "open-0002.pgn"]
    assert (out / "open-0002.pgn").read_text().startswith('[Event "Open"]\n[White "eve"]')
