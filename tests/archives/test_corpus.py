"""Archives: several records in a file, directories as inputs, filter, stats, split, and
``validate --all`` reading on after an error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.records import Session

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
    assert code == 1 and out == (f"{path}: invalid: 7:11: ply 3: malformed chess action 'Nf9' "
                                 "(column 4): Expected square (to), found end of text\n")
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
    from gametool.records import check_text

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
    from gametool import sources

    club = archive(tmp_path)
    assert [Path(p).relative_to(club).as_posix() for p in sources.expand([str(club)])] == [
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
    # Without --game the position is a chess FEN: the records of other games never reach it.
    assert [k[0] for k in kept(run("filter", club, "--fen", fen)[1])] == [
        "cy; ann", "ben; cy", "dan; eve"]
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


# -- results and endings as the records have them ------------------------------------------

ENDINGS_PGN = '''\
[Event "Match"]
[Date "1972.07.11"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1-0"]
[WhiteElo "2785"]
[BlackElo "2660"]
[ECO "D59"]

1. c4 e6 2. Nf3 d5 3. d4 Nf6 4. Nc3 Be7 1-0

[Event "Match"]
[Date "1972.??.??"]
[White "Spassky, Boris V."]
[Black "Fischer, Robert J."]
[Result "1/2-1/2"]
[WhiteElo "2660"]
[BlackElo "2785"]
[ECO "B92"]

1. e4 c5 2. Nf3 d6 1/2-1/2

[Event "Blitz"]
[Date "1970.05.??"]
[White "Fischer, Robert J."]
[Black "Tal, Mikhail"]
[Result "0-1"]
[Termination "Time forfeit"]

1. e4 e5 2. Nf3 Nc6 0-1

[Event "Simul"]
[Date "????.??.??"]
[White "Amateur"]
[Black "Fischer, Robert J."]
[Result "0-1"]
[WhiteElo "1500"]
[BlackElo "2785"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Training"]
[Date "1992.11.04"]
[White "Spassky, Boris V."]
[Black "Tal, Mikhail"]
[Result "*"]
[WhiteElo "2000"]
[BlackElo "2100"]

1. d4 d5 *

[Event "Match"]
[Date "1972.08.31"]
[White "Fischer, Robert J."]
[Black "Petrosian, Tigran"]
[Result "0-1"]
[WhiteElo "2785"]
[BlackElo "2600"]
[ECO "C00"]
[Termination "normal"]

1. e4 e6 0-1
'''
"""Six games worked by hand: a resignation with no Termination tag (1), an agreed draw (2),
a time forfeit (3), a mate (4), an unfinished game (5) and a resignation written "normal"
(6). Fischer plays 1, 2, 3, 4, 6: won 1 and 4, drew 2, lost 3 and 6."""


def endings(tmp_path: Path) -> Path:
    path = tmp_path / "endings.pgn"
    path.write_text(ENDINGS_PGN, encoding="utf-8")
    return path


def events(out: str) -> list[str]:
    """The (Date, White) of each record written."""
    dates = re.findall(r'^\[Date "(.*)"\]$', out, re.MULTILINE)
    whites = re.findall(r'^\[White "(.*)"\]$', out, re.MULTILINE)
    return [f"{d} {w}" for d, w in zip(dates, whites, strict=True)]


def test_stats_take_results_and_endings_from_the_records(tmp_path: Path) -> None:
    code, out, err = run("stats", str(endings(tmp_path)), "--json")
    assert code == 0, err
    chess = json.loads(out)["chess"]
    assert chess["games"] == 6 and chess["plies"] == 8 + 4 + 4 + 4 + 2 + 2
    assert chess["terminations"] == {"resignation": 2, "agreement": 1, "checkmate": 1,
                                     "time forfeit": 1, "unfinished": 1}
    fischer = chess["seats"]["Fischer_Robert_J."]
    assert fischer == {"games": 5, "win": 2, "draw": 1, "loss": 2, "unfinished": 0}
    assert chess["positions"]["1"] == {"games": 6, "win": 1, "draw": 1, "loss": 3,
                                       "unfinished": 1}
    assert chess["mean_plies"] == 4.0 and chess["median_plies"] == 4
    assert all(" " not in key for key in chess)
    code, out, _err = run("stats", str(endings(tmp_path)))
    assert re.search(r"^resignation\s+2$", out, re.MULTILINE), out
    assert re.search(r"^Fischer_Robert_J\.\s+5\s+2\s+1\s+2\s+0$", out, re.MULTILINE), out


def test_filter_terminations_as_records_and_tags_write_them(tmp_path: Path) -> None:
    path = str(endings(tmp_path))
    expect = {"resignation": ["1972.07.11 Fischer, Robert J.", "1972.08.31 Fischer, Robert J."],
              "agreement": ["1972.??.?? Spassky, Boris V."],
              "time forfeit": ["1970.05.?? Fischer, Robert J."],
              "Time forfeit": ["1970.05.?? Fischer, Robert J."],
              "checkmate": ["????.??.?? Amateur"], "stalemate": []}
    for word, games in expect.items():
        code, out, err = run("filter", path, "--termination", word)
        assert code == 0 and events(out) == games, (word, err)
    assert events(run("filter", path, "--result", "*")[1]) == ["1992.11.04 Spassky, Boris V."]


def test_filter_player_as_the_tags_write_it(tmp_path: Path) -> None:
    path = str(endings(tmp_path))
    for name in ("Fischer, Robert J.", "fischer, robert j.", "fischer", "Fischer_Robert_J."):
        assert len(events(run("filter", path, "--player", name)[1])) == 5, name
    assert events(run("filter", path, "--player", "Tal, Mikhail")[1]) == [
        "1970.05.?? Fischer, Robert J.", "1992.11.04 Spassky, Boris V."]
    assert events(run("filter", path, "--player", "Fisch")[1]) == []


def test_filter_by_elo_date_and_eco(tmp_path: Path) -> None:
    path = str(endings(tmp_path))

    def dates(*options: str) -> list[str]:
        code, out, err = run("filter", path, *options)
        assert code == 0, err
        return [e.split()[0] for e in events(out)]

    assert dates("--elo-min", "2700") == ["1972.07.11", "1972.??.??", "????.??.??",
                                          "1972.08.31"]
    assert dates("--elo-max", "2050") == ["????.??.??", "1992.11.04"]
    assert dates("--elo-min", "2000", "--elo-max", "2100") == ["1992.11.04"]
    assert dates("--white-elo", "2700-") == ["1972.07.11", "1972.08.31"]
    assert dates("--black-elo", "-2650") == ["1992.11.04", "1972.08.31"]
    assert dates("--date-from", "1972", "--date-to", "1972.??.??") == [
        "1972.07.11", "1972.??.??", "1972.08.31"]
    assert dates("--date-from", "1972.08") == ["1972.??.??", "1992.11.04", "1972.08.31"]
    assert dates("--date-to", "1971") == ["1970.05.??"]
    # Tags D59, B92, C00; games 3, 4, 5 are classified by the table: C44, A00, D00.
    assert dates("--eco", "A00-B99") == ["1972.??.??", "????.??.??"]
    assert dates("--eco", "C") == ["1970.05.??", "1972.08.31"]
    assert dates("--eco", "D00") == ["1992.11.04"]
    assert dates("--limit", "2") == ["1972.07.11", "1972.??.??"]
    code, _out, err = run("filter", path, "--date-from", "May 1972")
    assert code == 2 or code == 1
    assert "--date-from May 1972: write a date as YYYY.MM.DD" in err
    code, _out, err = run("filter", path, "--white-elo", "high")
    assert code == 1 and "--white-elo high: write a rating or a range" in err


def test_duplicates_by_position_and_against_another_file(tmp_path: Path) -> None:
    games = tmp_path / "games.pgn"
    games.write_text('[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event "b"]\n\n'
                     '1. Nf3 Nc6 2. e4 e5 *\n\n[Event "c"]\n\n1. d4 d5 *\n')
    old = tmp_path / "old.pgn"
    old.write_text('[Event "z"]\n\n1. d4 d5 *\n\n[Event "y"]\n\n1. e4 e5 2. Nf3 Nc6 *\n')

    def names(*options: str) -> list[str]:
        code, out, err = run("filter", str(games), *options)
        assert code == 0, err
        return re.findall(r'^\[Event "(.*)"\]$', out, re.MULTILINE)

    assert names("--duplicates") == []
    assert names("--duplicates", "position") == ["b"]
    assert names("--unique", "position") == ["a", "c"]
    assert names("--against", str(old)) == ["a", "c"]
    assert names("--against", str(old), "--duplicates", "position") == ["b"]


def test_the_archive_commands_read_a_large_file_part_by_part(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gametool.pgn import reader as pgn_format
    from gametool.sources import distribute

    data = Path(__file__).parent.parent / "data"
    text = "\n".join([(data / "famous.pgn").read_text(encoding="utf-8"),
                      (data / "archive.pgn").read_text(encoding="utf-8"), ENDINGS_PGN] * 3)
    path = tmp_path / "big.pgn"
    path.write_text(text, encoding="utf-8")
    commands = [("stats", str(path), "--json"), ("filter", str(path), "--unique"),
                ("filter", str(path), "--termination", "resignation"),
                ("import", str(path)), ("validate", str(path)), ("split", str(path), "-o",
                                                                 str(tmp_path / "whole"))]
    whole = [run(*command) for command in commands]
    monkeypatch.setattr(distribute, "PART_BYTES", 1500)
    monkeypatch.setattr(pgn_format, "PIECE", 1500)  # import's pieces, cut by the reader
    from gametool.sources import distribute  # noqa: F811

    assert len(list(distribute.stream_parts(str(path)))) > 5
    commands[-1] = ("split", str(path), "-o", str(tmp_path / "parts"))
    parts = [run(*command) for command in commands]
    assert parts[:-1] == whole[:-1]
    assert parts[-1][1].replace("parts", "whole") == whole[-1][1]
    assert json.loads(whole[0][1])["chess"]["games"] == 3 * 18


def test_split_gives_a_game_with_tags_and_no_moves_a_file(tmp_path: Path) -> None:
    path = tmp_path / "tags.pgn"
    path.write_text('[Event "one"]\n[Result "1-0"]\n\n[Event "two"]\n[Result "0-1"]\n\n'
                    '[Event "three"]\n[Result "*"]\n\n1. e4 *\n')
    code, out, err = run("split", str(path), "-o", str(tmp_path / "games"))
    assert code == 0, err
    files = out.split()
    assert len(files) == 3
    assert Path(files[1]).read_text() == '[Event "two"]\n[Result "0-1"]\n'
