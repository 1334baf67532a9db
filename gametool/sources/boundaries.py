"""Where the games of a PGN file (or the records of a ``.gtn`` file) start, found line by line.

The archive commands cut large files into parts at game boundaries, and ``split`` writes each
game to a file of its own; both must find the games the PGN reader finds, without reading the
moves. A line is judged by what is outside comments: a ``{...}`` comment may span lines and
holds any character (a ``;``, a ``[``, a ``{``: PGN comments do not nest); a ``;`` outside one
comments out the rest of its line; a ``%`` in the first column escapes its line. A game starts
at a tag line after moves, at the first line after a result that ends the main line (files of
games without tags), and at a tag line after an empty line that follows tags when that tag
repeats one of them (a game of tags alone before the next one; a blank line in the middle of
one game's tags, as ChessBase writes after ``[Event]``, does not end it). In a record file a
tag line that repeats one of its record's tags starts the next record, empty line or not, as
the record reader has it.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator

from gametool.core.errors import GameError
from notation.patterns import lazy

_SPECIAL = lazy(r"[{}();]")
_BRACES = lazy(r"\{[^}]*\}?|\}")
"""A comment (perhaps left open at the end of the line), or a ``}`` outside one."""
_TAG_NAME = lazy(r"\[[ \t]*([A-Za-z0-9_]+)")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def ends_with_result(text: str) -> bool:
    """Whether ``text`` ends with a game's result (then white space only), the result a word of
    its own: at the start, or after white space, a move number's dot or a variation's end."""
    tail = text.rstrip(" \t\r\n")
    for result in _RESULTS:
        if tail.endswith(result):
            before = tail[-len(result) - 1:-len(result)]
            return not before or before.isspace() or before in ".)"
    return False


class Starts:
    """Finds, line by line, where a record (or a PGN game) surely starts (see the module)."""

    def __init__(self, pgn: bool) -> None:
        self.pgn = pgn
        self.movetext = False
        """Moves (or anything but tags) were read since the last tag line."""
        self.ended = False
        """The last line of moves ended with the game's result."""
        self.comment = False
        """Inside a ``{...}`` comment."""
        self.parens = 0
        self.after = ""
        """What the last lines were: "tag", "blank" (after a tag line) or ""."""
        self.tag_lines: list[str] = []
        """The tag lines of the current game (their names are read when needed)."""

    def starts(self, line: str) -> bool:
        # The common lines take the first tests: a tag line from its first column, an empty
        # line, a line of moves with no comment, variation or result in it.
        if not self.comment:
            first = line[:1]
            if first == "[":
                return self._tag_line(line)
            if first == "%" and self.pgn:
                return False  # an escaped line: nothing of any game
        stripped = line.strip()
        if not stripped:
            if self.after == "tag":
                self.after = "blank"
            return False
        if not self.comment and stripped[0] == "[":
            return self._tag_line(stripped)
        start = self.pgn and self.ended and not self.comment
        if start:
            self._new_game()
        self.movetext = True
        self.after = ""
        outside = self._scan(stripped)
        if self.pgn and not self.comment and not self.parens:
            self.ended = stripped[-1] in "012*" and ends_with_result(outside)
        return start

    def _tag_line(self, line: str) -> bool:
        stripped = line.rstrip()
        start = self.movetext or self.ended
        if not start and (self.after == "blank" or not self.pgn):
            # A tag after an empty line that follows tags: the next game's when this game
            # has a tag of that name already (in a record file, as its reader has it, after
            # no empty line too).
            found = _TAG_NAME.match(stripped.lstrip())
            name = found.group(1).lower() if found else ""
            start = name in {n.lower() for n in self._names()}
        if start:
            self._new_game()
        self.tag_lines.append(stripped)
        if stripped.endswith("]") or not self.pgn:
            self.movetext = self.ended = False
            self.after = "tag"
            return start
        moves = stripped[stripped.rfind('"]') + 2:].strip()
        # Tags and moves on one line: the next tag line starts another game.
        self.movetext = bool(moves)
        self.after = "" if moves else "tag"
        outside = self._scan(moves)
        self.ended = not self.comment and not self.parens and ends_with_result(outside)
        return start

    def _names(self) -> list[str]:
        return [found.group(1) for line in self.tag_lines
                for found in [_TAG_NAME.match(line.lstrip())] if found]

    def _new_game(self) -> None:
        self.ended = False
        self.parens = 0
        self.tag_lines = []

    def _scan(self, text: str) -> str:
        """Follow the comments and variations of a line; its text outside comments."""
        if not self.comment:
            if not _SPECIAL.search(text):
                return text
            if "(" not in text and ")" not in text and ";" not in text:  # comments alone
                pieces = _BRACES.split(text)
                if text.rfind("{") > text.rfind("}"):
                    self.comment = True
                    pieces.pop()  # the open comment's
                return " ".join(pieces)
        out = []
        pos = 0
        while True:
            if self.comment:
                end = text.find("}", pos)
                if end < 0:
                    break
                self.comment = False
                pos = end + 1
                continue
            found = _SPECIAL.search(text, pos)
            if found is None:
                out.append(text[pos:])
                break
            out.append(text[pos:found.start()])
            char = found.group()
            pos = found.end()
            if char == "{":
                self.comment = True
            elif char == ";":
                break
            elif char == "(":
                self.parens += 1
            elif char == ")" and self.parens:
                self.parens -= 1
        return " ".join(out)


def split_bytes(path: str) -> Iterator[bytes]:
    """The bytes of each game of a PGN file (each record of a ``.gtn`` file), as written: its
    line ends and its encoding kept; the empty lines between games (and a byte-order mark)
    left out. A line of its own holds ``%`` escapes before the first game: they go with it."""
    from gametool import sources

    starts = Starts(sources.is_pgn(path))
    piece: list[bytes] = []
    blanks: list[bytes] = []  # the empty lines since the last that was not
    runs: list[bytes] = []  # and those before them, joined 4,096 at a time
    run_size = 0
    with sources.open_input(path) as handle:
        for number, raw in enumerate(sources.raw_lines(handle, path), start=1):
            line = raw[3:] if number == 1 and raw.startswith(b"\xef\xbb\xbf") else raw
            if not line.strip() and not starts.comment:
                starts.starts("\n")  # an empty line ends a game's tags
                if piece:  # an empty line before any game is left out at once
                    blanks.append(line)
                    if len(blanks) > 4096:  # a long run: joined a piece at a time
                        runs.append(b"".join(blanks))
                        run_size += len(runs[-1])
                        blanks = []
                        _bounded(run_size, piece, path, number)
                continue
            if starts.starts(line.decode("latin-1")) and piece:
                done = _piece(piece)
                if done:
                    yield done
                piece, blanks, runs, run_size = [], [], [], 0
            if blanks or runs:
                piece.append(b"".join(runs + blanks))
                blanks, runs, run_size = [], [], 0
            piece.append(line)
    done = _piece(piece)
    if done:
        yield done


MAX_GAME_BYTES = 32 << 20
"""The most bytes one game (or record) of a file may hold, empty lines within it counted."""


def _bounded(blanks: int, piece: list[bytes], path: str, number: int) -> None:
    if blanks + sum(map(len, piece)) > MAX_GAME_BYTES:
        raise GameError(f"{'<stdin>' if path == '-' else path}:{number}: a game of more than "
                        f"{MAX_GAME_BYTES:,} bytes (empty lines counted): not a PGN game")


def _piece(lines: list[bytes]) -> bytes:
    """A game's lines as one text that ends with its own line end (CRLF or LF)."""
    text = b"".join(lines).rstrip(b"\r\n \t")
    if not text.strip():
        return b""
    return text + (b"\r\n" if lines[0].endswith(b"\r\n") else b"\n")


def write_files(pieces: Iterator[bytes], names: list[str]) -> Iterator[str]:
    """Write each piece to its file (made new, or replaced), yielding each name when written.
    Each file is written under a temporary name then renamed; the folder is synced once at
    the end, not after every file, so that writing many files takes time in proportion."""
    from gametool.core import storage

    folders: set[str] = set()
    for name, data in zip(names, pieces, strict=False):
        folder = os.path.dirname(os.path.abspath(name))
        if folder not in folders:
            storage.clean_stale_temporaries(folder)
            folders.add(folder)
        temp = os.path.join(folder, f"{storage.TEMP_PREFIX}{os.path.basename(name)}"
                                    f"{storage.TEMP_SUFFIX}")
        try:
            with open(temp, "wb") as handle:
                # Locked until the rename: no other writer takes it for a stale one.
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
                handle.write(data)
                handle.flush()
                os.replace(temp, name)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
        yield name
    for folder in folders:
        try:
            fd = os.open(folder, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)
