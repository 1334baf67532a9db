"""filter --position FEN --side on real games, and [%emt] move times kept, exported, shown and
queried, each checked against python-chess's reading."""

from __future__ import annotations

import io
import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from gametool.sources import boundaries

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402, F811

GAMETOOL = str(Path(sys.executable).parent / "gametool")
DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GAMETOOL, *args], cwd=cwd, capture_output=True, text=True)


def keys(tags: dict[str, str]) -> tuple[str, ...]:
    return tuple(tags.get(name, "") for name in ("White", "Black", "Date", "Round", "Event"))


def test_games_that_reach_a_placement_with_either_side_to_move(tmp_path: Path) -> None:
    whole = tmp_path / "all.pgn"
    whole.write_bytes(lzma.decompress((DATA / "hlotze-pgn2tex-examples.pgn.xz").read_bytes()))
    games = tmp_path / "some.pgn"
    games.write_bytes(b"\n".join(list(boundaries.split_bytes(str(whole)))[:150]))
    # After 1. e4 e5 2. Nf3 Nc6 (White to move), and after 1. e4 e5 2. Nf3 (Black to move).
    italian = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R"
    knight = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R"
    expected: dict[tuple[str, str | None], list[tuple[str, ...]]] = {}
    with open(games, encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            seen = [(board.board_fen(), board.turn)]
            for move in game.mainline_moves():
                board.push(move)
                seen.append((board.board_fen(), board.turn))
            for placement in (italian, knight):
                for side, turn in ((None, None), ("white", chess.WHITE), ("black", chess.BLACK)):
                    if any(fen == placement and (turn is None or moved == turn)
                           for fen, moved in seen):
                        expected.setdefault((placement, side), []).append(keys(game.headers))
    found = 0
    for placement in (italian, knight):
        for side in (None, "white", "black"):
            args = ["filter", str(games), "--json", "--position",
                    placement + " w KQkq - 0 1"]  # the fields after the placement do not count
            if side is not None:
                args += ["--side", side]
            done = run(*args, cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            kept = [keys(record["tags"]) for record in json.loads(done.stdout)]
            assert kept == expected.get((placement, side), []), (placement, side)
            found += len(kept)
    assert expected[(italian, "white")] and expected[(knight, "black")] and found > 20
    assert not expected.get((italian, "black"))
    for args, message in ((["--side", "white"], "--side: with --position"),
                          (["--position", italian, "--side", "red"],
                           "--side red: a seat of chess: white or black"),
                          (["--position", "8/8/8"], "--position: FEN piece field '8/8/8'")):
        done = run("filter", str(games), *args, cwd=tmp_path)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(f"gametool: {message}"), done.stderr


TIMED = """\
[Event "Blitz"]
[Site "?"]
[Date "2024.01.02"]
[Round "1"]
[White "Ann"]
[Black "Ben"]
[Result "1-0"]

1. e4 {[%clk 0:03:00] [%emt 0:00:02]} 1... e5 {[%clk 0:02:58] [%emt 0:00:04.5]}
2. Qh5 {a bold start [%emt 0:00:31]} 2... Nc6 {[%emt 0:00:01]} 3. Bc4 {[%emt 0:00:07]}
3... Nf6 {[%eval 4.2] [%emt 0:01:02]} 4. Qxf7# {[%emt 0:00:01]} 1-0

[Event "Blitz"]
[Site "?"]
[Date "2024.01.02"]
[Round "2"]
[White "Ben"]
[Black "Ann"]
[Result "0-1"]

1. f3 {[%emt 0:00:09]} 1... e5 {[%emt 0:00:03]} 2. g4 {[%emt 0:00:20]} 2... Qh4# 0-1
"""


def test_move_times_kept_exported_shown_and_queried(tmp_path: Path) -> None:
    (tmp_path / "timed.pgn").write_text(TIMED)
    assert run("import", "timed.pgn", "-o", "timed.gtn", cwd=tmp_path).returncode == 0
    exported = run("export", "timed.gtn", "--pgn", cwd=tmp_path)
    assert exported.returncode == 0

    def move_times(text: str) -> list[list[float | None]]:
        out = []
        handle = io.StringIO(text)
        while (game := chess.pgn.read_game(handle)) is not None:
            out.append([node.emt() for node in game.mainline()])
        return out

    assert move_times(exported.stdout) == move_times(TIMED)
    assert move_times(TIMED)[0][:2] == [2.0, 4.5]
    assert "{[%clk 0:02:58] [%emt 0:00:04.5]}" in exported.stdout  # as written
    shown = run("show", "timed.gtn", "--record", "1", "--ply", "6", cwd=tmp_path).stdout
    assert "move time 0:01:02, evaluation +4.20" in shown
    data = json.loads(run("show", "timed.gtn", "--record", "1", "--ply", "2", "--json",
                          cwd=tmp_path).stdout)
    assert data["note"] == {"clock": "0:02:58", "move_time": "0:00:04.5"}
    replayed = run("replay", "timed.gtn", "--record", "2", cwd=tmp_path).stdout
    assert "move time 0:00:20" in replayed
    page = run("export", "timed.gtn", "--record", "1", "--html", cwd=tmp_path).stdout
    assert 'title="move time">0:01:02<' in page
    for query, rounds in (("game.max_move_time > 60", ["1"]),
                          ("game.max_move_time_white >= 20", ["1", "2"]),
                          ("game.max_move_time_black < 5", ["2"]),
                          ("game.max_move_time_black = 3", ["2"]),
                          ("game.max_move_time_white = 31 and game.max_move_time_black = 62",
                           ["1"])):
        done = run("filter", "timed.gtn", "--json", "--where", query, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert [r["tags"]["Round"] for r in json.loads(done.stdout)] == rounds, query
