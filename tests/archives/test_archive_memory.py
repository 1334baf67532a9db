"""Memory stays flat on real games: each archive command's peak on N and on 4N distinct real
games (bench/data) is about the same; an output killed on the way leaves no temporary file
that a later run keeps."""

from __future__ import annotations

import json
import lzma
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gametool.core import storage
from gametool.sources import boundaries

DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"
N = 240

_LAUNCH = """\
import os, sys
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_pid, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def peak_mb(*args: str) -> float:
    """The peak resident memory of one gametool command, from the kernel (wait4), taken by a
    small launcher so that the test's own memory does not count."""
    done = subprocess.run([sys.executable, "-S", "-c", _LAUNCH, "gametool", *args],
                          capture_output=True, text=True, check=True)
    kilobytes, status = done.stdout.split()
    assert status in ("0", "1"), args
    return int(kilobytes) / 1024


@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("memory")
    whole = folder / "all.pgn"
    whole.write_bytes(lzma.decompress((DATA / "hlotze-pgn2tex-examples.pgn.xz").read_bytes()))
    games = list(boundaries.split_bytes(str(whole)))
    assert len(games) >= 4 * N
    out = {}
    for count in (N, 4 * N):
        path = folder / f"g{count}.pgn"
        path.write_bytes(b"\n".join(games[:count]))
        out[count] = path
    return out


def test_every_command_stays_flat_from_n_to_4n_distinct_games(sizes: dict[int, Path],
                                                              tmp_path: Path) -> None:
    peaks: dict[str, list[float]] = {}
    for count, source in sizes.items():
        records = tmp_path / f"g{count}.gtn"
        commands = {
            "import": ["import", str(source), "-o", str(records), "--force"],
            "validate": ["validate", str(records)],
            "export": ["export", str(records), "--pgn", "-o", os.devnull],
            "filter": ["filter", str(source), "--where", "game.plies > 60", "-o", os.devnull],
            "stats": ["stats", str(source)],
            "tree": ["tree", str(source), "--moves", "e4", "--depth", "2"],
            # One record of a large file: read up to it, the records before it not kept.
            "show": ["show", str(records), "--record", str(count // 2)],
            "moves": ["moves", str(source), "--record", "2"],
        }
        for name, args in commands.items():
            peaks.setdefault(name, []).append(peak_mb(*args))
    for name, (small, large) in peaks.items():
        assert large < 150, (name, peaks)
        # The chess engine's caches (remembered moves and checks, position.LINK_LIMIT and
        # CHECK_LIMIT; the SAN memo) are bounded but still filling between N and 4N games:
        # some 20 MB at most, which a command that kept the games would pass at once.
        assert large <= small * 1.25 + 12, (name, peaks)


def test_one_record_is_read_without_reading_past_it(sizes: dict[int, Path],
                                                    tmp_path: Path) -> None:
    """show and moves --record N stop at the end of record N: bytes after it that cannot be
    read (not UTF-8 in a record file, a broken xz stream) are never reached."""
    records = tmp_path / "some.gtn"
    subprocess.run(["gametool", "import", str(sizes[N]), "-o", str(records)], check=True,
                   capture_output=True)
    good = records.read_bytes()
    records.write_bytes(good + b"\n[Game \"chess\"]\n\xff\xfe broken\n")
    shown = subprocess.run(["gametool", "show", str(records), "--record", "3", "--json"],
                           capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    whole = subprocess.run(["gametool", "show", str(records), "--record", str(N + 1)],
                           capture_output=True, text=True)
    assert whole.returncode == 1 and "not UTF-8" in whole.stderr  # read to there: refused
    packed = tmp_path / "cut.pgn.xz"
    data = lzma.compress(sizes[N].read_bytes())
    packed.write_bytes(data[:len(data) // 2])  # the stream breaks off halfway
    listed = subprocess.run(["gametool", "moves", str(packed), "--record", "2", "--json"],
                            capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["actions"] == []  # the game is over
    late = subprocess.run(["gametool", "moves", str(packed), "--record", str(N)],
                          capture_output=True, text=True)
    assert late.returncode == 1 and late.stderr.count("\n") == 1, late.stderr


def test_a_killed_import_leaves_no_temporary_file_a_later_run_keeps(sizes: dict[int, Path],
                                                                    tmp_path: Path) -> None:
    out = tmp_path / "out.gtn"

    def temporaries() -> list[str]:
        return [n for n in os.listdir(tmp_path) if n.startswith(storage.TEMP_PREFIX)]

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        for _attempt in range(3):
            # SIGINT as at a terminal, even where the suite runs in the background
            process = subprocess.Popen(["gametool", "import", str(sizes[4 * N]), "-o", str(out),
                                        "--force"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, preexec_fn=lambda: signal.signal(
                                           signal.SIGINT, signal.SIG_DFL))
            for _ in range(600):
                if temporaries() or process.poll() is not None:
                    break
                time.sleep(0.05)
            assert process.poll() is None, "the import ended before it could be interrupted"
            process.send_signal(sig)
            if process.wait(timeout=60) != 0:
                break
            # On a busy machine the import may finish before the signal reaches it.
            out.unlink()
        assert process.returncode != 0, "every import finished before the signal reached it"
        assert not out.exists()
        if sig != signal.SIGKILL:
            assert temporaries() == [], sig  # an interrupted command removes what it began
    assert len(temporaries()) == 1  # kill -9 could not be caught
    time.sleep(storage.STALE_SECONDS + 0.5)
    done = subprocess.run(["gametool", "filter", str(sizes[N]), "--where", "game.plies > 500",
                           "-o", str(tmp_path / "other.gtn")], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert temporaries() == []  # its lock free: a dead write's, removed
