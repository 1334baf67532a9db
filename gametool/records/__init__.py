"""The record layer, seen from above: read a record strictly, play actions on it, write it back.

It has three parts along its seams, each a module:

- :mod:`gametool.records.reading`: the records of a text, one record of a file, whole files
  checked;
- :mod:`gametool.records.session`: a :class:`Session`, one record with its game, seats, seed and
  every state from the start, built from a parsed record (checking every header, seat, ply
  number, action and chance value) or from nothing; actions played on it are appended to its
  record;
- :mod:`gametool.records.writing`: the canonical form of a session's record, a seat's export,
  its text.

Below them, :mod:`gametool.records.header` reads the tags and :mod:`gametool.records.resync`
guesses how to read on after a rejected action. This module names what the commands use from
all of them, and changes one record of a file (:func:`rewrite_one`).

It imports :mod:`notation`, :mod:`gametool.core` and :mod:`gametool.games`, never a folder
above them: inputs of every kind (folders, stdin, compressed streams, PGN) come through the
input door, :mod:`gametool.sources`, above it.
"""


from collections.abc import Callable
from typing import Any

from gametool.records.header import (
    CHANCE_NAME,
    check_names,
    parse_contributions,
    parse_options,
    parse_players,
)
from gametool.records.reading import Checked, check_lines, check_text, load_one, pick, read_text
from gametool.records.resync import RESYNC_BREADTH
from gametool.records.session import OFF_THE_BOARD, Branch, Session, Step
from gametool.records.writing import write_record
from notation import record as gtn

__all__ = ["CHANCE_NAME", "OFF_THE_BOARD", "RESYNC_BREADTH", "Branch", "Checked", "Session",
           "Step", "check_lines", "check_names", "check_text", "load_one",
           "parse_contributions", "parse_options", "parse_players", "pick", "read_text",
           "replace_one", "rewrite_one", "write_record"]


def rewrite_one(text: str, file: str | None, number: int | None,
                change: Callable[[Session], Any]) -> str:
    """The file's text after ``change`` has played on record ``number`` (or the only one).

    The chosen record is written in canonical form; the other records keep their text byte
    for byte.
    """
    records = read_text(text, file)
    session = Session.load(pick(records, file, number), file)
    change(session)
    if number is None:
        return session.text()
    return replace_one(text, records, number, session.text())


def replace_one(text: str, records: list[gtn.Record], number: int, new: str) -> str:
    """The file's ``text`` with its record ``number`` (of ``records``, as read from it)
    replaced by the text ``new``; the rest byte for byte as it was."""
    record = records[number - 1]
    lines = text.splitlines(keepends=True)
    start = record.line - 1
    end = records[number].line - 1 if number < len(records) else len(lines)
    blank = 0
    while end - blank > start and not lines[end - blank - 1].strip():
        blank += 1
    separator = "".join(lines[end - blank:end]) or ("\n" if end < len(lines) else "")
    return "".join(lines[:start]) + new + separator + "".join(lines[end:])
