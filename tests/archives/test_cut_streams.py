"""A compressed file cut short (an interrupted download) is an error naming the file, for every
command and every compression, at any point of the cut: one line on stderr, exit 1, no file
written. An input shorter than its compression's first bytes is cut as well."""

from __future__ import annotations

import bz2
import gzip
import lzma
import subprocess
from pathlib import Path

import pytest

zstandard = pytest.importorskip("zstandard")

DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"
CODECS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress,
          ".zst": lambda data: zstandard.ZstdCompressor(level=3).compress(data)}
KIND = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}


def gametool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True, check=False,
                          cwd=cwd)


@pytest.fixture(scope="module")
def games() -> bytes:
    """Real games, a few MiB unpacked: far more than a block of the reader, so that a cut
    falls after games already read."""
    data = lzma.decompress((DATA / "tcec-cup-10-round32.pgn.xz").read_bytes())
    return data[:data.find(b"\n[Event ", 600_000) + 1]


def expect_cut(done: subprocess.CompletedProcess[str], name: str, kind: str,
               where: Path) -> None:
    lines = [line for line in done.stderr.splitlines() if ": warning: " not in line]
    assert done.returncode == 1, done.stderr[-500:]
    assert len(lines) in (1, 2) and "Traceback" not in done.stderr, done.stderr[-800:]
    assert f"{name}: cut: the {kind} stream ends too soon" in lines[0], lines
    assert sorted(p.name for p in where.iterdir()) == [name]  # nothing written


COMMANDS = (("validate",), ("stats",), ("filter", "-o", "out.gtn"),
            ("filter", "--jobs", "2", "-o", "out.gtn"), ("import", "-o", "out.gtn"),
            ("export", "--pgn", "-o", "out.pgn"), ("split", "-o", "parts"),
            ("tree", "--json"), ("stats", "--json", "--jobs", "2"))


@pytest.mark.parametrize("suffix", CODECS)
def test_a_cut_stream_is_an_error_for_every_command(tmp_path: Path, games: bytes,
                                                    suffix: str) -> None:
    packed = CODECS[suffix](games)
    name = f"games.pgn{suffix}"
    path = tmp_path / name
    path.write_bytes(packed[:len(packed) * 6 // 10])
    for command in COMMANDS:
        done = gametool(command[0], name, *command[1:], cwd=tmp_path)
        expect_cut(done, name, KIND[suffix], tmp_path)
        assert done.stdout == "", command


@pytest.mark.parametrize("suffix", CODECS)
def test_a_stream_cut_anywhere_is_an_error(tmp_path: Path, games: bytes, suffix: str) -> None:
    packed = CODECS[suffix](games[:games.find(b"\n[Event ", 200_000) + 1])
    name = f"games.pgn{suffix}"
    path = tmp_path / name
    for end in (1, 3, 20, len(packed) // 3, len(packed) - 1):
        path.write_bytes(packed[:end])
        for command in (("validate",), ("filter", "-o", "out.gtn"))[:1 + (end == 20)]:
            expect_cut(gametool(command[0], name, *command[1:], cwd=tmp_path), name,
                       KIND[suffix], tmp_path)
    path.write_bytes(packed)
    done = gametool("validate", name, cwd=tmp_path)
    assert done.returncode == 0 and ": ok (" in done.stdout, done.stderr


@pytest.mark.parametrize("suffix", CODECS)
def test_a_cut_stream_on_standard_input(tmp_path: Path, games: bytes, suffix: str) -> None:
    packed = CODECS[suffix](games[:games.find(b"\n[Event ", 200_000) + 1])
    for end in ((1, len(packed) // 2) if suffix in (".gz", ".xz") else (len(packed) // 2,)):
        done = subprocess.run(["gametool", "stats", "-"], input=packed[:end],
                              capture_output=True, check=False, cwd=tmp_path)
        assert done.returncode == 1
        assert f"<stdin>: cut: the {KIND[suffix]} stream ends too soon" in done.stderr.decode()


def test_two_zstd_frames_and_a_skippable_one_are_whole(tmp_path: Path, games: bytes) -> None:
    middle, end = games.find(b"\n[Event ", 100_000) + 1, games.find(b"\n[Event ", 250_000) + 1
    one, two = games[:middle], games[middle:end]
    skippable = (0x184D2A53).to_bytes(4, "little") + (5).to_bytes(4, "little") + b"hello"
    compressor = zstandard.ZstdCompressor(write_checksum=True)
    data = compressor.compress(one) + skippable + compressor.compress(two)
    (tmp_path / "two.pgn.zst").write_bytes(data)
    (tmp_path / "plain.pgn").write_bytes(one + two)
    whole = gametool("stats", "two.pgn.zst", "--json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert whole.stdout == gametool("stats", "plain.pgn", "--json", cwd=tmp_path).stdout
    alone = tmp_path / "alone"
    alone.mkdir()
    for end in (len(data) - 2, len(data) - len(compressor.compress(two)) + 2):
        (alone / "two.pgn.zst").write_bytes(data[:end])  # in the checksum; in a header
        expect_cut(gametool("stats", "two.pgn.zst", cwd=alone), "two.pgn.zst", "zstd", alone)


def test_text_too_short_to_be_compressed_is_text(tmp_path: Path) -> None:
    (tmp_path / "b.pgn").write_bytes(b"B")  # the first letter of bzip2's marker, as text
    done = gametool("validate", "b.pgn", cwd=tmp_path)
    assert "cut" not in done.stderr
