"""``filter --where``: the query language on the real games of bench/data, judged against
python-chess's reading of the same games; a query on tags never reads the moves."""

from __future__ import annotations

import io
import json
import lzma
import re
import subprocess
from pathlib import Path

import chess.pgn
import pytest

DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"


def gametool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def human(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[chess.pgn.Game]]:
    data = lzma.decompress((DATA / "hlotze-pgn2tex-examples.pgn.xz").read_bytes())
    # Four games follow the last line of moves of the game before without an empty line:
    # python-chess reads them with no tags (gametool and pgn-extract with theirs). An empty
    # line before each makes the file one that both read alike.
    data = re.sub(rb"([^\r\n])(\r?\n)(\[Event )", rb"\1\2\2\3", data)
    path = tmp_path_factory.mktemp("real") / "human.pgn"
    path.write_bytes(data)
    handle = io.StringIO(data.decode("utf-8", errors="replace"))
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return path, games


def kept(path: Path, where: str, *more: str) -> tuple[list[str], str]:
    """The Round and White of each record kept, and stderr."""
    done = gametool("filter", str(path), "--where", where, *more)
    assert done.returncode == 0, done.stderr
    pairs = re.findall(r'^\[Round "([^"]*)"\]\n(?:\[[^\n]*\n)*?\[White "([^"]*)"\]', done.stdout,
                       re.MULTILINE)
    return [f"{r}|{w}" for r, w in pairs], done.stderr


def ident(game: chess.pgn.Game) -> str:
    return f"{game.headers.get('Round')}|{game.headers.get('White')}"


def elo(game: chess.pgn.Game, tag: str) -> int | None:
    value = game.headers.get(tag, "")
    return int(value) if value.isdigit() else None


def test_tags_numbers_regular_expressions_and_parentheses(human: tuple[Path, list]) -> None:
    path, games = human
    got, err = kept(path, 'WhiteElo >= 2750 and (ECO ~ "^d" or Opening ~ "slav")')
    expected = [ident(g) for g in games
                if (elo(g, "WhiteElo") or 0) >= 2750
                and (re.search("^d", g.headers.get("ECO", ""), re.I)
                     or re.search("slav", g.headers.get("Opening", ""), re.I))]
    assert got == expected and expected
    assert f"{len(expected)} of {len(games)} records kept" in err


def year(game: chess.pgn.Game) -> int | None:
    value = game.headers.get("Date", "")[:4]
    return int(value) if value.isdigit() else None


def test_not_or_and_text_comparisons(human: tuple[Path, list]) -> None:
    path, games = human
    got, _ = kept(path, 'not Result = "1/2-1/2" and (Date < "1902" or White = '
                        '"Carlsen, Magnus")')
    expected = [ident(g) for g in games
                if g.headers.get("Result") != "1/2-1/2"
                and ((year(g) is not None and year(g) < 1902)
                     or g.headers.get("White") == "Carlsen, Magnus")]
    assert got == expected and expected


def test_derived_fields_read_the_moves(human: tuple[Path, list]) -> None:
    path, games = human
    got, _ = kept(path, "game.winner = black and game.plies < 40")
    expected = [ident(g) for g in games if g.headers["Result"] == "0-1"
                and len(list(g.mainline_moves())) < 40]
    assert got == expected and expected
    spread, _ = kept(path, "game.winner = black and game.plies < 40", "--jobs", "2")
    assert spread == got


def test_a_missing_tag_is_unknown_and_unknown_is_never_kept(human: tuple[Path, list]) -> None:
    path, games = human
    rated = sum(1 for g in games if elo(g, "BlackElo") is not None)
    assert 0 < rated < len(games)
    for where in ("BlackElo != 0", "BlackElo > 0", "not BlackElo = 0"):
        got, _ = kept(path, where)
        assert len(got) == rated, where
    got, _ = kept(path, "not BlackElo > 0")
    assert got == []
    got, _ = kept(path, 'not exists(BlackElo) or BlackElo = "?"')
    assert got == [ident(g) for g in games if elo(g, "BlackElo") is None]
    got, _ = kept(path, "exists(BlackElo)")
    assert len(got) == sum(1 for g in games if "BlackElo" in g.headers)


def test_the_rated_query_agrees_with_python_chess_on_real_games(
        human: tuple[Path, list]) -> None:
    """The query of a rated, decisive game: python-chess's headers, read as numbers."""
    path, games = human
    where = 'WhiteElo >= 2400 and not Result = "1/2-1/2" and not Result = "*"'
    got, _ = kept(path, where)
    expected = [ident(g) for g in games if (elo(g, "WhiteElo") or 0) >= 2400
                and g.headers.get("Result") not in ("1/2-1/2", "*")]
    assert got == expected and expected
    engine = DATA / "tcec-cup-10-round32.pgn.xz"
    done = gametool("filter", str(engine), "--where", "WhiteElo >= 3000 or BlackElo < 3000",
                    "--json")
    handle = io.StringIO(lzma.decompress(engine.read_bytes()).decode())
    count = 0
    while (game := chess.pgn.read_headers(handle)) is not None:
        white, black = game.get("WhiteElo", ""), game.get("BlackElo", "")
        count += (white.isdigit() and int(white) >= 3000) or (black.isdigit()
                                                               and int(black) < 3000)
    assert done.returncode == 0 and len(json.loads(done.stdout)) == count


UNKNOWNS = """\
[Event "rated"]
[WhiteElo "2450"]
[Date "2020.06.01"]
[Result "1-0"]

1. e4 1-0

[Event "unrated"]
[WhiteElo "?"]
[Date "????.??.??"]
[Result "1-0"]

1. e4 1-0

[Event "empty"]
[WhiteElo ""]
[Date "2020.??.??"]
[Result "*"]

1. e4 *

[Event "missing"]
[Date "2019.??.??"]
[Result "0-1"]

1. e4 0-1

[Event "text"]
[WhiteElo "unrated"]
[Date "2021.01.??"]
[Result "1/2-1/2"]

1. e4 1/2-1/2
"""


@pytest.mark.parametrize(("where", "events"), [
    ("WhiteElo >= 2400", ["rated"]),
    ("not WhiteElo >= 2400", []),
    ("WhiteElo < 2400", []),
    ("WhiteElo != 2450", []),
    ('WhiteElo = "?"', ["unrated", "empty", "missing"]),
    ('WhiteElo != "?"', ["rated", "text"]),
    ("exists(WhiteElo)", ["rated", "unrated", "empty", "text"]),
    ("not exists(WhiteElo)", ["missing"]),
    ('WhiteElo >= 2400 or Result = "1/2-1/2"', ["rated", "text"]),
    ('not (WhiteElo >= 2400 and Result = "1-0")', ["empty", "missing", "text"]),
    ('not (WhiteElo >= 2400 or Result = "1-0")', []),
    ('Date >= "2020"', ["rated", "empty", "text"]),
    ('Date < "2020"', ["missing"]),
    ('Date = "2020"', ["rated", "empty"]),
    ('Date >= "2020.06"', ["rated", "text"]),
    ('Date < "2020.06"', ["missing"]),
    ('Date >= "2021.01.02"', []),
    ('Date < "2021.01.02"', ["rated", "empty", "missing"]),
    ('Date = "?"', ["unrated"]),
    ('WhiteElo ~ "un"', ["text"]),
    ('Result = "*"', ["empty"]),
    ('Result = "1-0" and game.plies = 1', ["rated", "unrated"]),
])
def test_unknown_values_never_satisfy_a_comparison(tmp_path: Path, where: str,
                                                   events: list[str]) -> None:
    path = tmp_path / "unknown.pgn"
    path.write_text(UNKNOWNS)
    for more in ([], ["--jobs", "2"]):
        done = gametool("filter", str(path), "--where", where, *more)
        assert done.returncode == 0, done.stderr
        assert re.findall(r'^\[Event "([^"]*)"\]', done.stdout, re.MULTILINE) == events, more


@pytest.mark.parametrize(("where", "words"), [
    ("plies > 3", "'plies' is read from the moves: write game.plies"),
    ("game.moves > 3", "'game.moves' is no field of the game"),
    ("white.elo > 3", "'white.elo' is no tag"),
])
def test_a_field_of_the_moves_is_named_after_game(tmp_path: Path, where: str,
                                                  words: str) -> None:
    path = tmp_path / "g.pgn"
    path.write_text('[White "a"]\n[Result "*"]\n\n1. e4 *\n')
    done = gametool("filter", str(path), "--where", where)
    assert done.returncode == 2 or done.returncode == 1
    assert done.stdout == "" and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("where", "column", "words"), [
    ("WhiteElo >= and x", 13, "expected a value"),
    ('White = "Carlsen" or', 21, "expected a comparison, 'not' or '('"),
    ("(White = x", 11, "expected ')'"),
    ('White "Carlsen"', 7, "expected an operator"),
    ('ECO ~ "("', 1, "is not a regular expression"),
])
def test_a_bad_query_is_one_line_with_its_column(tmp_path: Path, where: str, column: int,
                                                 words: str) -> None:
    path = tmp_path / "g.pgn"
    path.write_text('[White "a"]\n[Result "*"]\n\n1. e4 *\n')
    done = gametool("filter", str(path), "--where", where)
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert f"--where: column {column}: " in lines[0] and words in lines[0], lines[0]


def test_a_query_on_tags_never_reads_the_moves(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text('[White "Kept"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# '
                    '1-0\n\n[White "Other"]\n[Result "*"]\n\n1. e4 Ke5 *\n\n'
                    '[White "Other"]\n[Result "*"]\n\n1. e4 {unclosed *\n')
    for args in (["--where", 'White = "Kept"'], ["--tag", "White=Kept"],
                 ["--player", "kept"]):
        done = gametool("filter", str(path), *args)
        assert done.returncode == 0, (args, done.stderr)
        assert "1 of 3 records kept" in done.stderr
    # A query on the moves reads them all, and reports the games it cannot read.
    done = gametool("filter", str(path), "--where", 'White = "Kept" or game.plies > 100')
    assert done.returncode == 1
    assert "game 2: move 1... Ke5" in done.stderr


CLOCKS = """\
[Event "Rated Bullet game"]
[White "Abbot"]
[Black "Costello"]
[Result "0-1"]
[Termination "Time forfeit"]

1. e4 { [%eval 0.17] [%clk 0:01:00] } 1... c5 { [%eval 0.19] [%clk 0:01:00] }
2. Nf3 { [%eval 0.25] [%clk 0:00:59] } 2... Nc6 { [%eval 0.33] [%clk 0:00:58] }
3. Bb5 { [%eval -0.1] [%clk 0:00:07] } 3... g6 { [%eval #4] [%clk 0:00:50] } 0-1

[Event "Rated Blitz game"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:58] } 1-0

[Event "No clocks"]
[Result "*"]

1. d4 *
"""


@pytest.mark.parametrize(("where", "events"), [
    ("game.min_clock < 10", ["Rated Bullet game"]),
    ("game.min_clock_black > 100", ["Rated Blitz game"]),
    ("game.min_clock_white >= 7 and game.min_clock_white <= 7", ["Rated Bullet game"]),
    ("game.max_eval > 50", ["Rated Bullet game"]),
    ("game.min_eval < 0", ["Rated Bullet game"]),
    ("game.min_clock != 0", ["Rated Bullet game", "Rated Blitz game"]),
    ("not exists(game.min_clock)", ["No clocks"]),
    ("not game.min_clock >= 0", []),
])
def test_clock_and_evaluation_comments_in_queries(tmp_path: Path, where: str,
                                                  events: list[str]) -> None:
    path = tmp_path / "clocks.pgn"
    path.write_text(CLOCKS)
    done = gametool("filter", str(path), "--where", where)
    assert done.returncode == 0, done.stderr
    assert re.findall(r'^\[Event "([^"]*)"\]', done.stdout, re.MULTILINE) == events


def test_clock_and_evaluation_comments_are_kept_and_written_back(tmp_path: Path) -> None:
    path = tmp_path / "clocks.pgn"
    path.write_text(CLOCKS)
    record = tmp_path / "clocks.gtn"
    assert gametool("import", str(path), "-o", str(record)).returncode == 0
    out = gametool("export", "--pgn", str(record)).stdout
    before = [g.mainline() for g in [chess.pgn.read_game(io.StringIO(CLOCKS))]][0]
    after = [g.mainline() for g in [chess.pgn.read_game(io.StringIO(out))]][0]
    assert [(n.clock(), n.eval()) for n in after] == [(n.clock(), n.eval()) for n in before]
    assert [n.clock() for n in after] == [60, 60, 59, 58, 7, 50]


def test_stats_report_time_use_per_side_where_clocks_exist(tmp_path: Path) -> None:
    path = tmp_path / "clocks.pgn"
    path.write_text(CLOCKS.replace('[Result "0-1"]', '[Result "0-1"]\n[TimeControl "60+1"]', 1))
    done = gametool("stats", "--json", str(path))
    assert done.returncode == 0, done.stderr
    use = json.loads(done.stdout)["chess"]["time_use"]
    # White's clock: 60, 59, 7 over two moves, one second given back each; Black's 60, 58, 50.
    assert use == {"1": {"games": 1, "seconds": 55.0, "moves": 2, "seconds_per_move": 27.5},
                   "2": {"games": 1, "seconds": 12.0, "moves": 2, "seconds_per_move": 6.0}}
    table = gametool("stats", str(path)).stdout
    assert "time use per side (from [%clk] comments)" in table


def python_chess_material(game: chess.pgn.Game, white: str, black: str) -> bool:
    board = game.board()
    want = (sorted(white), sorted(black))

    def now() -> tuple[list[str], list[str]]:
        pieces = [p.symbol() for p in board.piece_map().values()]
        return (sorted(p for p in pieces if p.isupper()),
                sorted(p.upper() for p in pieces if p.islower()))

    if now() == want:
        return True
    for move in game.mainline_moves():
        # material changes only by a capture or a promotion
        changes = move.promotion is not None or board.is_capture(move)
        board.push(move)
        if changes and now() == want:
            return True
    return False


@pytest.mark.parametrize("material", ["KRP v KR"])
def test_material_is_python_chess_s(human: tuple[Path, list], material: str) -> None:
    path, games = human
    white, _, black = material.partition(" v ")
    got, _ = kept(path, "game.plies >= 0", "--material", material)
    expected = [ident(g) for g in games if python_chess_material(g, white, black)]
    assert got == expected


COUNTED = """\
import atexit, sys
from gametool.pgn import reader
calls = [0]
original = reader._read_game
def counted(*args, **kwargs):
    calls[0] += 1
    return original(*args, **kwargs)
reader._read_game = counted
atexit.register(lambda: sys.stderr.write(f"moves read: {calls[0]}\\n"))
sys.argv = ["gametool", *sys.argv[1:]]
from gametool.__main__ import run
run()
"""


@pytest.mark.parametrize("where", ['Result = "1-0" and Opening ~ "^(Ruy|QGD)"',
                                   'result = "0-1" or WhiteElo >= 2700'])
def test_a_query_of_result_and_opening_reads_no_move_of_a_game_left_out(
        human: tuple[Path, list], where: str) -> None:
    """Result and Opening are the tags: the moves of a game are read only when it is kept
    (to write it), counted where the PGN reader reads a game's moves."""
    import sys

    path, games = human
    done = subprocess.run([sys.executable, "-c", COUNTED, "filter", str(path), "--where", where,
                           "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    kept_count = len(json.loads(done.stdout))
    assert 0 < kept_count < len(games) / 2
    assert f"moves read: {kept_count}\n" in done.stderr
    # The result of the moves is read from them: every game's moves.
    moved = re.sub(r"\bresult\b", "game.result", where, flags=re.IGNORECASE)
    done = subprocess.run([sys.executable, "-c", COUNTED, "filter", str(path), "--where", moved,
                           "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert int(re.search(r"moves read: (\d+)", done.stderr)[1]) >= len(games)
