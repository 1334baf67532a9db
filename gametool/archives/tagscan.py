"""Queries on tags alone over PGN files: the moves of a game whose tags fail are never read.

A PGN part is cut into games line by line (:class:`gametool.sources.boundaries.Starts`, as ``split``
cuts them), each game's tags are read from its tag lines, and only a game whose tags pass the
criteria's tests on tags (game, tags, players, ratings, dates) is read and replayed, to be
judged on the rest and written. A game left out on its tags is counted, never reported: its
moves are not read, so whether they are legal is not known.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gametool.core.errors import GameError, RecordError, Where
from gametool.sources.boundaries import Starts
from gametool.sources.distribute import Part

_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_UNESCAPE = re.compile(r"\\([\\\"])")


class _Game:
    id = "chess"


class _Tags:
    """A game's tags as a record's, for the tests on tags (the last of a name counts)."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get(self, name: str) -> str | None:
        return self.values.get(name.lower())


class Header:
    """What the tests on tags look at of a record, from a PGN game's tag lines alone: its
    game, tags and seat names as the import makes them."""

    game = _Game()

    def __init__(self, values: dict[str, str]) -> None:
        from gametool.pgn.reader import _seat_name

        self.record = _Tags(values)
        if "date" not in values:
            values["date"] = "????.??.??"
        white = _seat_name(values.get("white"), "white")
        black = _seat_name(values.get("black"), "black")
        if white.lower() == black.lower():
            white, black = f"{white}-white", f"{black}-black"
        self.names = [white, black]


def games(text: str, starts: tuple[tuple[int, int], ...] | None = None
          ) -> Iterator[tuple[int, str]]:
    """Each game of a PGN text as (the line it starts on, counted from 0; its text): where
    ``starts`` says (see :attr:`gametool.sources.distribute.Part.starts`), or as the lines show."""
    if starts is not None:
        line = place = 0
        for next_line, next_place in starts:
            yield line, text[place:next_place]
            line, place = next_line, next_place
        if place < len(text):
            yield line, text[place:]
        return
    found = Starts(True).starts
    lines = text.splitlines(keepends=True)
    first = 0
    for number, line_text in enumerate(lines):
        if found(line_text) and number > first:
            yield first, "".join(lines[first:number])
            first = number
    if first < len(lines):
        yield first, "".join(lines[first:])


def _lines(text: str) -> Iterator[str]:
    """The lines of a game's text, cut at newlines, one by one (a reader of the first few
    does not cut the rest)."""
    place, size = 0, len(text)
    while place < size:
        end = text.find("\n", place)
        if end < 0:
            end = size
        yield text[place:end]
        place = end + 1


def header(text: str) -> Header:
    """The tags of a game's text: the tag pairs of its lines up to its first line of moves."""
    values: dict[str, str] = {}
    for line in _lines(text):
        stripped = line.strip()
        if not stripped or stripped[0] == "%":
            continue
        if stripped[0] != "[":
            break
        for name, value in _TAG.findall(stripped):
            values[name.lower()] = _UNESCAPE.sub(r"\1", value) if "\\" in value else value
    return Header(values)


def sessions(part: Part, criteria: Any) -> Iterator[tuple[int, int, Any]]:
    """Each game of a PGN part whose tags pass ``criteria.keeps_header`` as (index in the
    part from 1, line, session or the error that stopped its reading); the others as (index,
    line, None), unread."""
    from gametool.pgn import reader as pgn

    try:
        text = part.read()
    except GameError as exc:
        yield 1, 1, exc
        return
    file = None if part.path == "-" else part.path
    index = 0
    for first, piece in games(text, part.starts):
        if all(not line.strip() or line.startswith("%") for line in _lines(piece)):
            continue  # no game: empty lines and escaped ones
        if not criteria.keeps_header(header(piece)):
            index += 1
            yield index, part.first_line + first, None
            continue
        for item, _messages in pgn.imports(piece, file, keep=True,
                                           first_line=part.first_line + first, base=index):
            index = item.index
            if isinstance(item, pgn.Refusal):
                yield item.index, item.line, RecordError(
                    f"game {item.index}: {item.message}", Where(file, item.line, item.column))
            elif item.session is not None:
                yield item.index, 0, item.session
