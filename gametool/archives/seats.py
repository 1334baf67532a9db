"""Exact results per seat name for ``stats``, in memory that stays flat however many players.

A server's monthly dump has millions of distinct players: their counts are kept in a dict up
to :data:`IN_MEMORY` names, and past that in an SQLite database on disk (the standard
library's, in a temporary file removed at the end), the dict emptied into it each time it
fills. Nothing is dropped and nothing is estimated: the counts are exact either way, and the
names come out in the same order (most games first, then the name, compared by code point as
SQLite compares UTF-8 text).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterator

RESULTS = ("win", "draw", "loss", "unfinished")
IN_MEMORY = int(os.environ.get("GAMETOOL_SEATS_IN_MEMORY", "50000"))
"""Names counted in memory before the counts go to disk (the environment's
``GAMETOOL_SEATS_IN_MEMORY`` may set it lower, to see the disk at work on a small archive)."""


class SeatCounts:
    """Each seat name's wins, draws, losses and unfinished games."""

    def __init__(self, in_memory: int | None = None) -> None:
        self.limit = IN_MEMORY if in_memory is None else in_memory
        self.counts: dict[str, list[int]] = {}
        self.database: sqlite3.Connection | None = None
        self.path = ""

    def add(self, name: str, result: str) -> None:
        entry = self.counts.get(name)
        if entry is None:
            if len(self.counts) >= self.limit:
                self._spill()
            entry = self.counts[name] = [0, 0, 0, 0, 0]
        entry[RESULTS.index(result) if result in RESULTS else 4] += 1  # 4: any other

    def _spill(self) -> None:
        if self.database is None:
            handle, self.path = tempfile.mkstemp(prefix="gametool-seats-", suffix=".sqlite3")
            os.close(handle)
            self.database = sqlite3.connect(self.path)
            self.database.execute("PRAGMA journal_mode = OFF")
            self.database.execute("PRAGMA synchronous = OFF")
            self.database.execute("CREATE TABLE seats (name TEXT PRIMARY KEY, win INTEGER, "
                                  "draw INTEGER, loss INTEGER, unfinished INTEGER, other INTEGER)")
        with self.database:
            self.database.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                "win = win + excluded.win, draw = draw + excluded.draw, "
                "loss = loss + excluded.loss, unfinished = unfinished + excluded.unfinished, "
                "other = other + excluded.other",
                ((name, *entry) for name, entry in self.counts.items()))
        self.counts = {}

    def __len__(self) -> int:
        if self.database is None:
            return len(self.counts)
        self._spill()
        return int(self.database.execute("SELECT COUNT(*) FROM seats").fetchone()[0])

    def ranked(self, top: int | None = None) -> Iterator[tuple[str, dict[str, int]]]:
        """The names, most games first (then by name), with their counts; the first ``top``."""
        if self.database is None:
            ranked = sorted(self.counts.items(), key=lambda item: (-sum(item[1]), item[0]))
            rows: Iterator[tuple[str, list[int]]] = iter(ranked[:top] if top else ranked)
        else:
            self._spill()
            query = ("SELECT name, win, draw, loss, unfinished, other FROM seats ORDER BY "
                     "win + draw + loss + unfinished + other DESC, name")
            cursor = (self.database.execute(query + " LIMIT ?", (top,)) if top
                      else self.database.execute(query))
            rows = ((row[0], list(row[1:])) for row in cursor)
        for name, entry in rows:
            yield name, {"games": sum(entry), **dict(zip(RESULTS, entry[:4], strict=True))}

    def close(self) -> None:
        if self.database is not None:
            self.database.close()
            self.database = None
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def __del__(self) -> None:
        self.close()
