"""The one door for every input: a path, a folder, standard input or a compressed stream, read
as record text or as lines, with `.gtn` or PGN chosen by what the text holds.

Every command that reads records or games comes through here:

- :func:`expand` turns folders into the record and PGN files they hold (compressed ones too);
- :func:`open_input` opens a file or standard input as bytes, unpacking gzip, bzip2, xz or
  zstd as it reads (chosen by the first bytes, never by the name, and never unpacked to disk);
- :func:`is_pgn` tells a PGN file from a record file by its first tags;
- :func:`lines`, :func:`read_file` and :func:`read_records` give the text.

Standard input can be read only once: its first bytes are kept, so that it is looked at (is
it compressed? PGN?) and then read whole, as a file is.
"""

from __future__ import annotations

import io
import os
import sys
import weakref
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import IO, Any

from gametool.core.errors import GameError
from gametool.sources import packed
from notation.patterns import lazy

PLAIN_SUFFIXES = (".gtn", ".pgn")
PACKED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")
SUFFIXES = PLAIN_SUFFIXES + tuple(plain + packed for plain in PLAIN_SUFFIXES
                                  for packed in PACKED_SUFFIXES)
"""The files a folder given as input contributes (searched recursively)."""

MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"),
         (b"\x28\xb5\x2f\xfd", "zstd"))
"""The first bytes of each compressed format read."""

SNIFF_BYTES = 1 << 16
"""How much of a file's (unpacked) beginning is looked at to tell PGN from a record."""

_TAG = lazy(r"\[\s*([A-Za-z0-9_]+)\s")
_SEAT_TURN = lazy(r"[0-9]{1,9}\.\s*[A-Za-z0-9_.'+@-]+:\s")


def expand(inputs: Iterable[str]) -> list[str]:
    """Files as given; each folder replaced by its record and PGN files (``.gtn``, ``.pgn``,
    and those compressed), recursively, in sorted order."""
    out: list[str] = []
    for name in inputs:
        if name != "-" and os.path.isdir(name):
            found = []
            for folder, subfolders, files in os.walk(name):
                subfolders.sort()
                found += [os.path.join(folder, f) for f in files
                          if f.lower().endswith(SUFFIXES)]
            if not found:
                raise GameError(f"{name}: no .gtn or .pgn file in this folder")
            out += sorted(found)
        else:
            out.append(name)
    return out


def compression(head: bytes) -> str | None:
    """The compressed format whose first bytes ``head`` are, or None for plain text."""
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name
    return None


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


class _Joined(io.RawIOBase):
    """The bytes already read from a stream, then the rest of the stream."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self.head = head
        self.rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.head:
            size = min(len(buffer), len(self.head))
            buffer[:size] = self.head[:size]
            self.head = self.head[size:]
            return size
        data = self.rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


_stdin: IO[bytes] | None = None
"""Standard input as it is read by every caller: unpacked, its first bytes kept to look at."""
_stdin_head = b""
_stdin_source: object = None
"""The stream ``_stdin`` reads (a new one, as a test runner gives each command, starts over)."""


def _unpacked(raw: IO[bytes], kind: str | None, path: str) -> IO[bytes]:
    if kind is None:
        return raw
    if kind == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if kind == "bzip2":
        import bz2

        return bz2.BZ2File(raw, "rb")  # type: ignore[return-value]
    if kind == "xz":
        import lzma

        return lzma.LZMAFile(raw, "rb")  # type: ignore[return-value]
    try:
        import zstandard
    except ImportError:
        raise GameError(f"{_name(path)}: a zstd-compressed file: reading it needs the "
                        "zstandard package (pip install 'gametool[zstd]')") from None
    checked = packed.ZstdChecked(raw, _name(path))
    reader = zstandard.ZstdDecompressor().stream_reader(checked, read_across_frames=True)
    return io.BufferedReader(reader, buffer_size=1 << 16)  # type: ignore[arg-type]


def _standard_input() -> IO[bytes]:
    global _stdin, _stdin_head, _stdin_source
    if _stdin is None or _stdin_source is not sys.stdin.buffer:
        raw = _stdin_source = sys.stdin.buffer
        first = raw.read(6)
        short = packed.cut_magic(first, len(first) < 6, MAGIC, "<stdin>")
        if short is not None:
            raise short
        kind = compression(first)
        stream = _unpacked(io.BufferedReader(_Joined(first, raw)), kind, "-")
        if kind is not None:
            stream = _Checked(stream, "-", stream)  # type: ignore[assignment]
        _stdin_head = _read_some(stream, SNIFF_BYTES, "-")
        _stdin = io.BufferedReader(_Joined(_stdin_head, stream), buffer_size=1 << 16)
    return _stdin


def _read_some(stream: IO[bytes], size: int, path: str) -> bytes:
    try:
        return stream.read(size)
    except GameError:
        raise
    except EOFError as exc:
        raise packed.cut(_name(path), _kind_of(exc), str(exc).rstrip(".").lower()) from None
    except (OSError, ValueError) as exc:
        raise _unreadable(path, exc) from None
    except Exception as exc:  # zstandard's and the decompressors' own errors
        if type(exc).__module__.startswith(("zstandard", "zlib", "_lzma", "_bz2", "gzip")):
            raise _unreadable(path, exc) from None
        raise


def _kind_of(exc: BaseException) -> str:
    """The compression whose reader raised ``exc``, from its traceback's modules."""
    trace = exc.__traceback__
    kinds = {"gzip": "gzip", "bz2": "bzip2", "lzma": "xz", "_compression": None}
    found = "compressed"
    while trace is not None:
        module = trace.tb_frame.f_globals.get("__name__", "")
        if kinds.get(module):
            found = kinds[module]  # type: ignore[assignment]
        trace = trace.tb_next
    return found


def _unreadable(path: str, exc: BaseException) -> GameError:
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return GameError(f"{_name(path)}: cannot read: {reason}")


def open_input(path: str) -> IO[bytes]:
    """A file (or standard input for ``-``) as a stream of bytes, unpacked as it is read when
    it is compressed. The caller closes it (closing standard input's stream does nothing)."""
    if path == "-":
        return _Unclosed(_standard_input())
    global _reading
    try:
        raw = _Raw(io.FileIO(path, "rb"))
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror or exc}") from None
    _reading = raw.place = _Place(path, weakref.ref(raw))
    try:
        head = raw.peek(6)[:6]
        kind = compression(head)
        if kind is None and len(head) < 6:
            short = packed.cut_magic(head, os.fstat(raw.fileno()).st_size == len(head), MAGIC,
                                     path)
            if short is not None:
                raise short
        return _Checked(_unpacked(raw, kind, path), path, raw) if kind else raw
    except BaseException:
        raw.close()
        raise


class _Place:
    """How far a file opened by :func:`open_input` has been read."""

    def __init__(self, path: str, raw: weakref.ref[_Raw]) -> None:
        self.path, self.raw = path, raw
        self.last = 0
        """Where it was when it was closed."""


class _Raw(io.BufferedReader):
    """A file's bytes as read from the disk, which remember where they were when closed."""

    place: _Place | None = None

    def close(self) -> None:
        if not self.closed and self.place is not None:
            try:
                self.place.last = self.tell()
            except (OSError, ValueError):
                pass
        super().close()


_reading: _Place | None = None
"""The file opened last by :func:`open_input`, to tell how far it has been read."""


def reading_position() -> tuple[str, int] | None:
    """The file opened last to be read, and how many of its bytes have been read (of a
    compressed file, its compressed bytes): where it is, or where it was when closed."""
    if _reading is None:
        return None
    raw = _reading.raw()
    if raw is None or raw.closed:
        return _reading.path, _reading.last
    try:
        return _reading.path, raw.tell()
    except (OSError, ValueError):
        return _reading.path, _reading.last


class _Unclosed(io.BufferedIOBase):
    """Standard input's stream, which every reader shares and none closes."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        return self.stream.read(size)

    def readline(self, size: int | None = -1) -> bytes:
        return self.stream.readline(size)

    def close(self) -> None:
        pass


class _Checked(io.BufferedIOBase):
    """A compressed file's unpacked stream whose damage is a one-line error naming the file."""

    def __init__(self, stream: IO[bytes], path: str, raw: IO[bytes]) -> None:
        self.stream = stream
        self.path = path
        self.raw = raw

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        return _read_some(self.stream, -1 if size is None else size, self.path)

    def readline(self, size: int | None = -1) -> bytes:
        try:
            return self.stream.readline(-1 if size is None else size)
        except GameError:
            raise
        except EOFError as exc:
            raise packed.cut(_name(self.path), _kind_of(exc), str(exc).rstrip(".").lower()) \
                from None
        except Exception as exc:
            raise _unreadable(self.path, exc) from None

    def close(self) -> None:
        self.stream.close()
        self.raw.close()  # the unpacking stream leaves the file it was given open
        super().close()


def is_compressed(path: str) -> bool:
    """Whether the file is compressed (read as a stream: it is not cut by byte ranges); a file
    shorter than the first bytes of the compression it begins is an error (it is cut)."""
    if path == "-":
        return True  # standard input is a stream whatever it holds
    try:
        with open(path, "rb") as handle:
            head = handle.read(6)
    except OSError:
        return False
    if len(head) < 6:
        short = packed.cut_magic(head, True, MAGIC, path)
        if short is not None:
            raise short
    return compression(head) is not None


_kinds: dict[tuple[str, int, int], bool] = {}


def is_pgn(path: str) -> bool:
    """Whether a file (or standard input) holds PGN games rather than gametool records: by its
    first tags (a record has a ``Game`` tag, PGN has not) or, with no tag, by its first turn
    (a record's turn names its seat: ``1. p1: d4=R``); an empty or unreadable file by its
    name."""
    if path == "-":
        _standard_input()
        return sniff(_stdin_head, path)
    try:
        status = os.stat(path)
    except OSError:
        return _by_name(path)
    key = (path, status.st_mtime_ns, status.st_size)
    if key not in _kinds:
        try:
            with open_input(path) as stream:
                head = stream.read(SNIFF_BYTES)
        except GameError:
            return _by_name(path)
        if len(_kinds) > 4096:
            _kinds.clear()
        _kinds[key] = sniff(head, path)
    return _kinds[key]


def _plain_name(path: str) -> str:
    """The name of a file, in lower case, without the suffix of its compression."""
    name = path.lower()
    for suffix in PACKED_SUFFIXES:
        name = name.removesuffix(suffix)
    return name


def _by_name(path: str) -> bool:
    return _plain_name(path).endswith(".pgn")


def sniff(head: bytes, path: str) -> bool:
    """Whether the first bytes of a file are PGN (see :func:`is_pgn`).

    A ``Game`` tag in the first header makes a record, and a turn that names its seat
    (``1. p1: d4=R``). Otherwise a file named ``.gtn`` is a record (its errors are a record's),
    and any other holding tags or numbered moves is PGN."""
    record_name = _plain_name(path).endswith(".gtn")
    tags = False
    for line in head.decode("latin-1").replace("\xef\xbb\xbf", "", 1).splitlines():
        line = line.strip()
        if not line:
            if tags:
                break  # the end of the first header
            continue
        if line.startswith(("%", ";", "{")):
            continue
        tag = _TAG.match(line)
        if tag is not None:
            if tag.group(1).lower() == "game":
                return False
            tags = True
            continue
        if _SEAT_TURN.match(line):
            return False
        if not tags and not line[0].isdigit():
            return _by_name(path)
        break  # the moves of a game whose header named no game
    if record_name:
        return False
    return tags or _by_name(path) or (bool(head.strip()) and _starts_with_moves(head))


def _starts_with_moves(head: bytes) -> bool:
    return any(line.strip()[:1].isdigit() for line in head.decode("latin-1").splitlines()
               if line.strip() and not line.lstrip().startswith(("%", ";", "{")))


def pgn_line(raw: bytes) -> str:
    """One line of a PGN file as text: UTF-8 when it is UTF-8, else Latin-1 (as other tools
    read files that mix them), with a Windows line end made a newline."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        line = raw.decode("latin-1")
    return line.replace("\r\n", "\n")


def lines(path: str) -> Iterator[str]:
    """The lines of a file (or stdin) read one by one: a PGN file's line by line as UTF-8 or
    else Latin-1, a record file's as UTF-8."""
    blocks = line_blocks(path)
    try:
        yield from chain.from_iterable(blocks)
    finally:
        blocks.close()  # the file closed when the lines are (a reader that stops early)


def line_blocks(path: str) -> Iterator[list[str]]:
    """The lines of :func:`lines`, a list of them at a time (decoded a block of the file at
    once): a reader of many lines loops over each list itself."""
    pgn = is_pgn(path)
    handle = open_input(path)
    try:
        yield from (_pgn_lines if pgn else _record_lines)(handle, path)
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror}") from None
    finally:
        handle.close()


BLOCK = 1 << 16
"""Bytes of a file decoded at once (the lines are the same as read one by one)."""

MAX_LINE_BYTES = 8 << 20
"""The longest line read (no record's or PGN game's line comes near it): a longer one is an
error as soon as that many bytes without a newline have arrived, so that an endless line
costs bounded memory and time in proportion to what was read."""

joined = [0]
"""Bytes copied to join the pieces of lines that spanned blocks: the work of
:func:`_blocks` beyond reading, in proportion to the input (counted for the tests)."""


def _blocks(handle: IO[bytes], path: str = "-") -> Iterator[bytes]:
    """A file's bytes about :data:`BLOCK` at a time, each block of whole lines (the last one
    perhaps without its newline). A line longer than :data:`MAX_LINE_BYTES` is an error: the
    pieces of a line are kept apart, and counted, until its newline comes."""
    pieces: list[bytes] = []  # the start of a line no newline has ended yet
    held = 0
    lines = 0
    while True:
        data = handle.read(BLOCK)
        if not data:
            if pieces:
                joined[0] += held
                yield b"".join(pieces)
            return
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            pieces.append(data)
            held += len(data)
            if held > MAX_LINE_BYTES:
                raise GameError(f"{_name(path)}:{lines + 1}: a line of more than "
                                f"{MAX_LINE_BYTES:,} bytes with no end: not a record's nor a "
                                "PGN file's")
            continue
        if pieces:
            pieces.append(data[:cut])
            joined[0] += held + cut
            block = b"".join(pieces)
            pieces, held = [], 0
        else:
            block = data[:cut] if cut < len(data) else data
        lines += block.count(b"\n")
        if cut < len(data):
            pieces, held = [data[cut:]], len(data) - cut
        yield block


def raw_lines(handle: IO[bytes], path: str) -> Iterator[bytes]:
    """The lines of an open input as bytes, each with its line end (the last perhaps
    without), as iterating over it gives them, but no line longer than
    :data:`MAX_LINE_BYTES`."""
    for block in _blocks(handle, path):
        found = block.split(b"\n")
        last = found.pop()
        for raw in found:
            yield raw + b"\n"
        if last:
            yield last


def _split(text: str) -> list[str]:
    """The lines of a decoded block, each with its newline (the last one perhaps without),
    cut at newlines only, as a file's lines are read one by one."""
    found = text.splitlines(keepends=True)
    if len(found) == text.count("\n") + (text[-1:] != "\n"):
        return found  # no other line break in it
    found = [line + "\n" for line in text.split("\n")]
    found[-1] = found[-1][:-1]
    if not found[-1]:
        found.pop()
    return found


def _pgn_lines(handle: IO[bytes], path: str) -> Iterator[list[str]]:
    """The lines of a PGN file as :func:`pgn_line` reads each, a block of them at a time: a
    block that is UTF-8 throughout is decoded at once (each of its lines is UTF-8 then), any
    other line by line."""
    first = True
    for text, lines in _pgn_decoded(handle, path):
        found = lines if lines is not None else _split(text)
        if first:
            found[0] = found[0].lstrip("\ufeff")
            first = False
        yield found


def pgn_texts(path: str) -> Iterator[str]:
    """The text of a PGN file (or stdin, compressed or not) in pieces of whole lines, each
    line read as :func:`pgn_line` reads it: what :func:`lines` gives, joined a block at a
    time (a reader that finds its own boundaries needs no lines)."""
    handle = open_input(path)
    first = True
    try:
        for text, lines in _pgn_decoded(handle, path):
            text = text if lines is None else "".join(lines)
            if first:
                text = text.lstrip("\ufeff")
                first = False
            yield text
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror}") from None
    finally:
        handle.close()


def _pgn_decoded(handle: IO[bytes], path: str = "-"
                 ) -> Iterator[tuple[str, list[str] | None]]:
    """Each block of a PGN file decoded: as one text when it is UTF-8 throughout (its lines
    not cut yet: None), else line by line (UTF-8 or Latin-1 each, the text left empty)."""
    for block in _blocks(handle, path):
        try:
            yield block.decode("utf-8").replace("\r\n", "\n"), None
        except UnicodeDecodeError:
            raws = block.split(b"\n")
            lines = [pgn_line(raw + b"\n") for raw in raws[:-1]]
            if raws[-1]:
                lines.append(pgn_line(raws[-1]))
            yield "", lines


def _record_lines(handle: IO[bytes], path: str) -> Iterator[list[str]]:
    """The lines of a record file as UTF-8, each ending with its newline (the last one
    perhaps without), a block of them at a time: decoded at once, as a file's lines read one
    by one."""
    number = 0  # lines before the block
    for block in _blocks(handle, path):
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            good, error = _up_to_not_utf8(block, number, path)
            yield good
            raise error from None
        found = _split(text)
        if number == 0:
            found[0] = found[0].lstrip("\ufeff")
        number += len(found)
        yield found


def _up_to_not_utf8(block: bytes, number: int, path: str) -> tuple[list[str], GameError]:
    """The lines of ``block`` (after ``number`` lines) before the first that is not UTF-8,
    and the error that this one is."""
    good = []
    for index, raw in enumerate(block.split(b"\n"), start=number + 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return good, GameError(f"{path}: not UTF-8 text (line {index}, byte "
                                   f"{exc.start + 1} of the line)")
        good.append((line.lstrip("\ufeff") if index == 1 else line) + "\n")
    raise AssertionError("a block that is not UTF-8 has a line that is not")


def read_bytes(path: str) -> bytes:
    """The bytes of a record file (or of standard input), unpacked, at most the largest record
    file the tool reads."""
    from gametool.core import storage

    if path != "-" and not is_compressed(path):
        return storage.read_bytes(path)
    with open_input(path) as stream:
        data = stream.read(storage.MAX_FILE_BYTES + 1)
    if len(data) > storage.MAX_FILE_BYTES:
        raise GameError(f"{_name(path)}: more than {storage.MAX_FILE_BYTES:,} bytes: a record "
                        f"file holds at most {storage.MAX_FILE_BYTES:,} bytes")
    return data


def read_file(path: str) -> str:
    """The text of a record file (UTF-8), or of a PGN file (UTF-8 or else Latin-1)."""
    if not is_pgn(path):
        from gametool.core import storage

        return storage.decode(read_bytes(path), _name(path))
    return "".join(lines(path))  # line by line, as the parts of a large file are read


def read_records(path: str) -> str:
    """The record text of ``path`` for a command that reads records: a PGN file is read as
    'validate' reads it, its games turned into chess records."""
    if not is_pgn(path):
        return read_file(path)
    from gametool.pgn import reader as pgn

    return pgn.import_text(read_file(path), path)


def records_of(part: Any, fix_results: bool = False) -> Iterator[tuple[int, int, Any]]:
    """Each record of a part of a file (:class:`gametool.sources.distribute.Part`) as (index
    in the part from 1, line, session or the error that stopped its reading): a PGN part's
    games imported as chess records, a record file's records loaded. The one place where
    the choice "PGN or record" is made for the records a command reads."""
    try:
        text = part.read()
    except GameError as exc:
        yield 1, 1, exc
        return
    file = None if part.path == "-" else part.path
    if part.is_pgn():
        from gametool.core.errors import RecordError, Where
        from gametool.pgn import reader as pgn

        for item, _messages in pgn.imports(text, file, keep=True, first_line=part.first_line,
                                           fix_results=fix_results):
            if isinstance(item, pgn.Refusal):
                yield item.index, item.line, RecordError(
                    f"game {item.index}: {item.message}", Where(file, item.line, item.column))
            elif item.session is not None:
                yield item.index, 0, item.session
        return
    from gametool.records import Session, read_text

    try:
        records = read_text(text, file, part.first_line)
    except GameError as exc:
        yield 1, exc.where.line or part.first_line, exc
        return
    del text
    for index, record in enumerate(records, start=1):
        try:
            yield index, record.line, Session.load(record, file)
        except GameError as exc:
            yield index, record.line, exc


def refuse_record_for_import(path: str) -> None:
    """'import' reads PGN: a gametool record given to it is refused with that reason."""
    if path != "-" and not os.path.isfile(path):
        return  # the import says why it cannot read the file
    if not is_pgn(path):
        raise GameError(f"{path}: a gametool record, not PGN: import reads PGN files; every "
                        "command reads the record as it is (gametool validate, show, "
                        "export --pgn)")


def refuse_change(path: str) -> None:
    """A PGN file or a compressed file is read, never changed."""
    if path == "-":
        return
    if _by_name(path) or (os.path.isfile(path) and is_pgn(path)):
        raise GameError(f"{path}: a PGN file is read, never changed: make a record of it first "
                        f"(gametool import {path} -o GAME.gtn)")
    if is_compressed(path):
        raise GameError(f"{path}: a compressed file is read, never changed: unpack it first")
