"""A collector's journey over real games: the games of bench/data, several copies of them in
one file, imported on two workers and on one, validated, queried, treed, counted and exported,
every answer compared with python-chess's reading of the same games, computed here.

Compressed dumps are the collector's usual input: the cases below named ``.gz``, ``.bz2`` and
``.xz`` read the same games compressed, as a stream (never unpacked to disk).
"""

from __future__ import annotations

import bz2
import collections
import gzip
import io
import json
import lzma
import re
import subprocess
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from conftest import made_once

DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"
COPIES = 2
"""Whether gametool reads .gz, .bz2 and .xz files as the games they hold."""
WHERE = "WhiteElo >= 2700 and game.winner = white"
OPENING = "e4 c5"


def gametool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True, check=False)


def real_games() -> bytes:
    """The real games of bench/data, each file once. Four games of one file follow the game
    before without an empty line, which python-chess reads as games without tags: an empty
    line is put before them, so that both readers read the same file."""
    out = []
    for path in sorted(DATA.glob("*.pgn.xz")):
        data = lzma.decompress(path.read_bytes()).rstrip(b"\r\n")
        out.append(re.sub(rb"([^\r\n])(\r?\n)(\[Event )", rb"\1\2\2\3", data))
    return b"\n\n".join(out) + b"\n"


COMPRESSORS = {".pgn": lambda data: data,
               ".pgn.gz": lambda data: gzip.compress(data, compresslevel=1),
               ".pgn.bz2": lambda data: bz2.compress(data, compresslevel=1),
               ".pgn.xz": lambda data: lzma.compress(data, preset=1)}
"""Each compression at its fastest level (xz's default takes seconds more on these 6 MB): the
level changes the bytes, not what the reader must find in them."""


def dumps(folder: Path) -> tuple[dict[str, Path], Path, str]:
    """The dump, plain and compressed each way; the plain one imported on one worker (what
    every other reading must give) and what that import said."""
    data = b"\n".join([real_games()] * COPIES)
    files = {}
    for suffix, compress in COMPRESSORS.items():
        files[suffix] = folder / f"dump{suffix}"
        files[suffix].write_bytes(compress(data))
    alone = folder / "alone.gtn"
    done = gametool("import", str(files[".pgn"]), "-o", str(alone), "--force")
    assert done.returncode == 0, done.stderr[-2000:]
    return files, alone, done.stderr


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    files, alone, said = made_once(tmp_path_factory, "journey", dumps)  # for every worker
    folder = tmp_path_factory.mktemp("journey")
    one = real_games()
    games = []
    handle = io.StringIO(one.decode("utf-8", errors="replace"))
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        games.append(game)
    # The copies are the same games: python-chess reads one of them.
    return {"folder": folder, "files": files, "games": games * COPIES, "alone": (alone, said)}


def python_chess_tree(games: list[chess.pgn.Game]) -> dict[str, list[int]]:
    """Per move from the position after OPENING: [games, white wins, draws, black wins]."""
    board = chess.Board()
    for san in OPENING.split():
        board.push_san(san)
    key = board._transposition_key()  # noqa: SLF001 - the position without the clocks
    out: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    for game in games:
        board = game.board()
        line = list(game.mainline_moves())
        for ply in range(len(line) + 1):
            if board._transposition_key() == key:  # noqa: SLF001
                if ply < len(line):
                    counts = out[board.san(line[ply])]
                    counts[0] += 1
                    result = game.headers.get("Result")
                    column = {"1-0": 1, "1/2-1/2": 2, "0-1": 3}.get(result)
                    if column:
                        counts[column] += 1
                break
            if ply < len(line):
                board.push(line[ply])
    return dict(out)


@pytest.fixture(scope="module")
def imported(archive: dict[str, Any]) -> Path:
    """The plain dump imported on one worker: what every other reading must give."""
    alone, said = archive["alone"]
    assert f"{len(archive['games'])} games imported" in said
    return alone


@pytest.mark.parametrize("suffix", [".pgn.gz", ".pgn.bz2", ".pgn.xz"])
def test_a_compressed_dump_imports_on_two_workers_as_the_plain_one_on_one(
        archive: dict[str, Any], imported: Path, suffix: str) -> None:
    spread = archive["folder"] / f"spread{suffix}.gtn"
    done = gametool("import", str(archive["files"][suffix]), "-o", str(spread), "--jobs", "2",
                    "--force")
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"{len(archive['games'])} games imported" in done.stderr
    assert spread.read_bytes() == imported.read_bytes()


def test_import_on_two_workers_and_one_is_python_chess_s_reading(archive: dict[str, Any],
                                                                 imported: Path) -> None:
    folder: Path = archive["folder"]
    games = archive["games"]
    spread, alone = folder / "spread.gtn", imported
    done = gametool("import", str(archive["files"][".pgn"]), "-o", str(spread), "--jobs", "2",
                    "--force")
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"{len(games)} games imported" in done.stderr
    assert spread.read_bytes() == alone.read_bytes()
    plies = sum(len(list(g.mainline_moves())) for g in games)
    checked = gametool("validate", str(alone), "--jobs", "2")
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert f"ok ({len(games)} records, {plies} plies)" in checked.stdout

    # Exported back to PGN, python-chess reads the same games: tags and main lines.
    exported = folder / "export.pgn"
    done = gametool("export", str(alone), "--pgn", "-o", str(exported), "--force")
    assert done.returncode == 0, done.stderr[-2000:]
    # The copies are exported alike, so python-chess reads the first of them back.
    text = exported.read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    assert len(starts) == len(games)
    one = len(games) // COPIES
    copies = [text[starts[i * one]:starts[(i + 1) * one] if i + 1 < COPIES else len(text)]
              for i in range(COPIES)]
    assert all(copy.rstrip("\n") == copies[0].rstrip("\n") for copy in copies)
    back = []
    handle = io.StringIO(copies[0])
    while (game := chess.pgn.read_game(handle)) is not None:
        back.append(game)
    for before, after in zip(games[:one], back, strict=True):
        assert list(after.mainline_moves()) == list(before.mainline_moves())
        for tag in ("Event", "White", "Black", "Result", "WhiteElo", "ECO"):
            # A backslash is written "\\" as the standard has it; python-chess reads that
            # as it is, not as one backslash.
            value = after.headers.get(tag)
            value = value.replace("\\\\", "\\") if value is not None else None
            assert value == before.headers.get(tag), tag


def test_queries_trees_and_stats_of_a_compressed_dump_agree_with_python_chess(
        archive: dict[str, Any]) -> None:
    source = str(archive["files"][".pgn.xz"])  # every compression is imported above
    games = archive["games"]

    def elo(game: chess.pgn.Game) -> int:
        value = game.headers.get("WhiteElo", "")
        return int(value) if value.isdigit() else 0

    wanted = [g for g in games if elo(g) >= 2700 and g.headers["Result"] == "1-0"]
    # On two workers, as a collector runs them; each answer is python-chess's.
    done = gametool("filter", source, "--where", WHERE, "--json", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    records = json.loads(done.stdout)
    assert len(records) == len(wanted) > 0
    assert f"{len(wanted)} of {len(games)} records kept" in done.stderr
    assert [len(r["plies"]) for r in records] == [len(list(g.mainline_moves()))
                                                  for g in wanted]

    expected = python_chess_tree(games)
    done = gametool("tree", source, "--moves", OPENING, "--json", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    got = {m["move"]: m for m in json.loads(done.stdout)["moves"]}
    assert set(got) == set(expected)
    for move, (count, white, draw, black) in expected.items():
        assert got[move]["games"] == count
        assert got[move]["white"] == round(100 * white / count, 1)
        assert got[move]["draw"] == round(100 * draw / count, 1)
        assert got[move]["black"] == round(100 * black / count, 1)

    done = gametool("stats", source, "--json", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    chess_stats = json.loads(done.stdout)["chess"]
    assert chess_stats["games"] == len(games)
    assert chess_stats["plies"] == sum(len(list(g.mainline_moves())) for g in games)
    results = collections.Counter(g.headers["Result"] for g in games)
    first = chess_stats["positions"]["1"]
    assert (first["win"], first["draw"], first["loss"]) == (
        results["1-0"], results["1/2-1/2"], results["0-1"])
