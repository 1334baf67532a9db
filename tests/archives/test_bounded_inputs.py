"""Bounded on any input: a decompression bomb of empty lines and a line without end, each a
few kilobytes compressed, cost bounded memory (measured in the process, getrusage) and work in
proportion to what they hold (counted: the bytes joined where lines span blocks)."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

MEASURED = """\
import atexit, resource, sys
from gametool import sources
def report():
    # The high-water mark of this program's memory: /proc's (getrusage's keeps the peak of
    # the process that forked before the exec), else getrusage's.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    except OSError:
        pass
    sys.stderr.write(f"\\nmeasured: {peak} KiB, {sources.joined[0]} joined\\n")
atexit.register(report)
sys.argv = ["gametool", *sys.argv[1:]]
from gametool.__main__ import run
run()
"""
LIMIT_KIB = 150 * 1024
GAME = b'[Event "before"]\n[Result "*"]\n\n1. e4 e5 *\n\n'


def measured(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], int, int]:
    done = subprocess.run([sys.executable, "-c", MEASURED, *args], capture_output=True,
                          text=True, check=False, cwd=cwd)
    line = done.stderr.rsplit("measured: ", 1)[1]
    peak, joined = line.split(" KiB, ")
    return done, int(peak), int(joined.split()[0])


@pytest.mark.parametrize("command", [("validate",), ("import", "-o", "out.gtn"),
                                     ("split", "-o", "parts")])
def test_a_gzip_bomb_of_empty_lines_is_read_in_bounded_memory(tmp_path: Path,
                                                              command: tuple[str, ...]) -> None:
    (tmp_path / "bomb.pgn.gz").write_bytes(gzip.compress(b"\n" * (4 << 20) + GAME, 9))
    done, peak, _ = measured(command[0], "bomb.pgn.gz", *command[1:], cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-500:]
    assert peak < LIMIT_KIB, peak


@pytest.mark.slow
@pytest.mark.parametrize("command", [("validate",), ("stats",), ("filter", "-o", "out.gtn"),
                                     ("import", "-o", "out.gtn"), ("split", "-o", "parts"),
                                     ("export", "--pgn")])
def test_a_game_followed_by_a_bomb_is_an_error_in_bounded_memory(
        tmp_path: Path, command: tuple[str, ...]) -> None:
    (tmp_path / "bomb.pgn.gz").write_bytes(gzip.compress(GAME + b"\n" * (48 << 20) + GAME, 9))
    done, peak, _ = measured(command[0], "bomb.pgn.gz", *command[1:], cwd=tmp_path)
    assert done.returncode == 1
    assert "a game of more than 33,554,432" in done.stderr, done.stderr[-500:]
    assert peak < LIMIT_KIB, peak
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bomb.pgn.gz"]


def long_line(folder: Path, size: int) -> Path:
    zstandard = pytest.importorskip("zstandard")
    path = folder / f"line-{size}.pgn.zst"
    text = GAME + b'[Event "long"]\n\n1. e4 {' + b"a" * size + b"} *\n"
    path.write_bytes(zstandard.ZstdCompressor(level=19).compress(text))
    return path


def test_a_long_line_costs_work_in_proportion_to_its_length(tmp_path: Path) -> None:
    """A line of N bytes and one of 4N: the bytes joined grow four times, not sixteen."""
    counts = []
    for size in (200_000, 800_000):
        path = long_line(tmp_path, size)
        done, peak, joined = measured("stats", path.name, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-500:]
        assert peak < LIMIT_KIB
        counts.append(joined)
    assert 200_000 <= counts[0] and counts[1] <= 4.5 * counts[0], counts


@pytest.mark.parametrize("command", [("import", "-o", "out.gtn"), ("split", "-o", "parts"),
                                     ("filter", "-o", "out.gtn")])
def test_a_line_without_end_is_an_error_in_bounded_memory(tmp_path: Path,
                                                          command: tuple[str, ...]) -> None:
    path = long_line(tmp_path, 24 << 20)
    path.write_bytes(path.read_bytes())
    done, peak, joined = measured(command[0], path.name, *command[1:], cwd=tmp_path)
    assert done.returncode == 1
    assert "a line of more than 8,388,608 bytes with no end" in done.stderr, done.stderr[-500:]
    assert peak < LIMIT_KIB and joined == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
