"""Every input through one door: records and PGN games read from files, folders and standard
input, plain or compressed (gzip, bzip2, xz, zstd), told apart by what they hold, through the
installed command."""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
GAMETOOL = shutil.which("gametool")
RECORD = ROOT / "sample_games" / "belemmer" / "points.gtn"
PGN = ROOT / "docs" / "collection.pgn"

PACKERS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}
try:
    import zstandard

    PACKERS["zst"] = lambda data: zstandard.ZstdCompressor().compress(data)
except ImportError:  # the zstd extra is not installed: its files are refused in one line
    pass

pytestmark = pytest.mark.skipif(GAMETOOL is None, reason="gametool is not installed")


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    assert GAMETOOL is not None
    done = subprocess.run([GAMETOOL, *args], input=stdin, capture_output=True, cwd=cwd,
                          check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


@cache
def plain(*args: str) -> subprocess.CompletedProcess[str]:
    """A command run on the plain files (RECORD, PGN) that the compressed ones are compared
    with: the same answer for every compression, so run once a worker."""
    return run(*args)


def packed(tmp_path: Path, source: Path, suffix: str, name: str | None = None) -> Path:
    path = tmp_path / (name or f"{source.name}.{suffix}")
    path.write_bytes(PACKERS[suffix](source.read_bytes()))
    return path


@pytest.mark.parametrize("suffix", sorted(PACKERS))
def test_a_compressed_record_reads_as_the_plain_one(tmp_path: Path, suffix: str) -> None:
    path = packed(tmp_path, RECORD, suffix)
    for command in (["show"], ["validate"], ["replay", "--from", "60"], ["moves"],
                    ["export", "--as", "ann", "--weak-seed-ok"]):
        original, compressed = plain(*command, str(RECORD)), run(*command, str(path))
        assert compressed.returncode == original.returncode == 0, compressed.stderr
        assert (compressed.stdout.replace(str(path), "F")
                == original.stdout.replace(str(RECORD), "F"))


@pytest.mark.parametrize("suffix", sorted(PACKERS))
def test_a_compressed_pgn_file_imports_and_validates_as_the_plain_one(tmp_path: Path,
                                                                      suffix: str) -> None:
    path = packed(tmp_path, PGN, suffix)
    original = plain("import", str(PGN), "-o", "-")
    compressed = run("import", str(path), "-o", "-")
    assert original.returncode == compressed.returncode == 0, compressed.stderr
    assert compressed.stdout == original.stdout
    assert run("validate", str(path)).returncode == plain("validate", str(PGN)).returncode == 0
    assert run("stats", str(path)).stdout == plain("stats", str(PGN)).stdout


def test_compressed_standard_input_is_unpacked(tmp_path: Path) -> None:
    data = gzip.compress(PGN.read_bytes())
    assert run("import", "-", "-o", "-", stdin=data).stdout == plain("import", str(PGN), "-o",
                                                                    "-").stdout
    assert run("validate", "-", stdin=data).returncode == 0
    record = bz2.compress(RECORD.read_bytes())
    assert run("show", "-", stdin=record).stdout == plain("show", str(RECORD)).stdout


def test_pgn_is_told_by_its_content_not_its_name(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_bytes(PGN.read_bytes())
    assert run("stats", str(games)).stdout == plain("stats", str(PGN)).stdout
    record = tmp_path / "record.txt"
    record.write_bytes(RECORD.read_bytes())
    assert run("show", str(record)).stdout == plain("show", str(RECORD)).stdout
    refused = run("import", str(record), "-o", "-")
    assert refused.returncode == 1
    assert "a gametool record, not PGN" in refused.stderr


def test_a_folder_contributes_its_compressed_files(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    packed(folder, PGN, "gz", "a.pgn.gz")
    packed(folder, RECORD, "xz", "b.gtn.xz")
    (folder / "notes.txt.gz").write_bytes(gzip.compress(b"not a game"))
    done = run("validate", str(folder))
    assert done.returncode == 0, done.stderr
    assert "a.pgn.gz" in done.stdout and "b.gtn.xz" in done.stdout
    assert "notes" not in done.stdout


def test_a_damaged_compressed_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.pgn.gz"
    path.write_bytes(gzip.compress(PGN.read_bytes())[:300])
    for command in (["validate"], ["import", "-o", "-"], ["stats"], ["show"]):
        done = run(command[0], str(path), *command[1:])
        assert done.returncode == 1, (command, done.stderr)
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
        assert str(path) in done.stderr


def test_a_compressed_record_is_read_never_changed(tmp_path: Path) -> None:
    path = packed(tmp_path, RECORD, "gz", "game.gtn.gz")
    before = path.read_bytes()
    done = run("undo", str(path))
    assert done.returncode == 1
    assert done.stderr.strip() == (f"gametool: {path}: a compressed file is read, never "
                                   "changed: unpack it first")
    assert path.read_bytes() == before


def test_a_large_compressed_record_file_is_checked_as_a_stream(tmp_path: Path) -> None:
    records = RECORD.read_text(encoding="utf-8")
    many = (records.rstrip("\n") + "\n\n") * 400  # well past one part of a file
    path = tmp_path / "many.gtn.bz2"
    path.write_bytes(bz2.compress(many.encode("utf-8")))
    done = run("validate", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{path}: ok (400 records, 28000 plies)\n"
    broken = tmp_path / "broken.gtn.xz"
    broken.write_bytes(lzma.compress(many.replace("70. ", "70. nobody: ", 1).encode("utf-8")))
    done = run("validate", str(broken))
    assert done.returncode == 1
    assert f"{broken}:" in done.stderr


@pytest.mark.parametrize("suffix", sorted(PACKERS))
def test_output_named_so_is_written_compressed(tmp_path: Path, suffix: str) -> None:
    unpack = {"gz": gzip.decompress, "bz2": bz2.decompress, "xz": lzma.decompress}
    if suffix == "zst":
        unpack["zst"] = lambda data: zstandard.ZstdDecompressor().decompressobj().decompress(data)
    original = plain("import", str(PGN), "-o", "-").stdout
    out = tmp_path / f"games.gtn.{suffix}"
    assert run("import", str(PGN), "-o", str(out)).returncode == 0
    assert unpack[suffix](out.read_bytes()).decode("utf-8") == original
    started = tmp_path / f"new.gtn.{suffix}"
    assert run("start", "colors", "-o", str(started)).returncode == 0
    assert run("validate", str(started)).returncode == 0
    assert unpack[suffix](started.read_bytes()).startswith(b'[Game "colors"]')


LINE_BITS = [b"\n", b"\r\n", b"\r", b"1. e4 ", "é".encode(), "é".encode("latin-1"),
             b"\xef\xbb\xbf", "\u2028".encode(), b"\x85", b"\x1c", b"\f", b'[Event "x"]\n']


@given(st.lists(st.sampled_from(LINE_BITS), max_size=60),
       st.sampled_from([1, 2, 7, 64, 1 << 16]))
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_lines_read_a_block_at_a_time_are_those_read_one_by_one(
        tmp_path: Path, bits: list[bytes], block: int) -> None:
    """A file's lines are decoded a block at a time: the same lines as each line of the file
    read by itself (a PGN line as UTF-8 or else Latin-1 with CRLF made LF, a record line as
    UTF-8), cut at newlines only, a byte-order mark dropped, whatever the block's size."""
    from gametool import sources

    data = b"".join(bits)
    for name, utf8_only in (("games.pgn", False), ("games.gtn", True)):
        if utf8_only:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
        path = tmp_path / name
        path.write_bytes(data)
        expected = []
        for number, raw in enumerate(data.split(b"\n")[:-1] + [data.rsplit(b"\n", 1)[-1]]):
            raw = raw + b"\n" if number < data.count(b"\n") else raw
            if not raw:
                continue
            line = raw.decode("utf-8") if utf8_only else sources.pgn_line(raw)
            expected.append(line.lstrip("\ufeff") if number == 0 else line)
        saved = sources.BLOCK
        sources.BLOCK = block
        try:
            assert list(sources.lines(str(path))) == expected
        finally:
            sources.BLOCK = saved
