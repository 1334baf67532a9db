"""A progress line on stderr for the long runs over archives: games done, games per second,
how far into the input and the time left.

A command that reads archives (import, validate, filter, stats, split, export, tree) opens one
:class:`Meter` for its run (:func:`shown`). The games are counted where they are read: in this
process one by one (:func:`game`), and from the results of the parts other processes read
(:func:`part_done`). How far the run is comes from the bytes of the inputs: the files already
left behind, and the place reached in the current one (for a compressed file its place in the
compressed bytes, so that the share is of the file's size on disk). Standard input has no
known size: the line then shows the games and their rate alone.

The line is drawn only on a terminal, at most :data:`REFRESH` times a second, and erased at
the end; in a pipe, a log, or with ``--quiet`` nothing at all is written.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

from gametool import sources

REFRESH = 4
"""Redraws a second at most."""

T = TypeVar("T")

_meter: Meter | None = None
"""The run's line in this process (None in a worker, or with no line)."""


class Meter:
    """The progress of one run over ``paths``, shown on ``stream`` when it is a terminal."""

    def __init__(self, label: str, paths: Sequence[str], stream: TextIO | None = None,
                 quiet: bool = False, clock: Callable[[], float] = time.monotonic,
                 games_total: int | None = None) -> None:
        self.label = label
        self.games_total = games_total
        """The games of the whole run when they are known (counted before): the share done
        is then of the games rather than of the bytes."""
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.sizes: dict[str, int] = {}
        known = True
        for path in paths:
            try:
                self.sizes[path] = os.path.getsize(path) if path != "-" else -1
            except OSError:
                self.sizes[path] = 0
            known = known and self.sizes[path] >= 0
        self.total = sum(self.sizes.values()) if known else None
        self.settled = 0
        """The games of the parts done."""
        self.running = 0
        """The games counted one by one since the last part done."""
        self.left_behind = 0
        """The bytes of the files the run has left."""
        self.current: str | None = None
        self.reached = 0
        """The place the run has reached in the current file, as the parts done tell it."""
        self.began = clock()
        self.drawn_at = -1.0
        self.shown = False
        try:
            self.enabled = not quiet and bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.enabled = False

    @property
    def games(self) -> int:
        return self.settled + self.running

    def game(self, count: int = 1) -> None:
        self.running += count
        self._maybe_draw()

    def part_done(self, part: Any, games: int | None = None) -> None:
        """The part ``part`` (a :class:`gametool.sources.distribute.Part`) is done, with ``games``
        games when they were counted elsewhere (in a worker)."""
        if games is not None:
            self.settled += games
            self.running = 0
        self._enter(part.path)
        if part.text is None:
            end = (part.offset + part.length if part.offset >= 0
                   else max(self.sizes.get(part.path, 0), 0))
            self.reached = max(self.reached, end)
        self._maybe_draw()

    def _enter(self, path: str) -> None:
        if path != self.current:
            if self.current is not None:
                self.left_behind += max(self.sizes.get(self.current, 0), 0)
            self.current, self.reached = path, 0

    def done_bytes(self) -> int:
        """The bytes of the inputs read so far."""
        live = sources.reading_position()
        if live is not None and live[0] in self.sizes:
            self._enter(live[0])
            self.reached = max(self.reached, live[1])
        if self.current is None:
            return 0
        return self.left_behind + min(self.reached, max(self.sizes.get(self.current, 0), 0))

    def line(self) -> str:
        elapsed = self.clock() - self.began
        games = self.games
        text = f"{self.label}: {games:,}"
        if self.games_total:
            text += f" of {self.games_total:,}"
        text += f" game{'s' * ((self.games_total or games) != 1)}"
        rate = games / elapsed if elapsed > 0 else 0.0
        if games and elapsed > 0:
            text += f", {rate:,.0f} games/s" if rate >= 10 else f", {rate:.1f} games/s"
        share = None
        if self.games_total:
            share = min(games / self.games_total, 1.0)
        elif self.total:
            share = min(self.done_bytes() / self.total, 1.0)
            text += f", {share:.0%} read"
        if share is not None and 0 < share < 1 and elapsed >= 1:
            text += f", about {clock_text(elapsed * (1 - share) / share)} left"
        return text

    def _maybe_draw(self) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.drawn_at < 1 / REFRESH:
            return
        self.drawn_at = now
        self.stream.write("\r" + self.line() + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the line (the terminal's line is left as it was before the run)."""
        if self.enabled and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def clock_text(seconds: float) -> str:
    """A duration as 42s, 3m07s or 2h05m."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


@contextmanager
def shown(label: str, paths: Sequence[str], quiet: bool = False,
          games_total: int | None = None) -> Iterator[Meter]:
    """The run's progress line for the inputs ``paths``, from here to the end of the block."""
    global _meter
    meter = Meter(label, paths, quiet=quiet, games_total=games_total)
    # A line that is not drawn counts nothing: the counting costs nothing then.
    outer, _meter = _meter, (meter if meter.enabled else None)
    try:
        yield meter
    finally:
        _meter = outer
        meter.close()


def clear() -> None:
    """Erase the line before another message is written to stderr (the next update draws it
    again)."""
    if _meter is not None:
        _meter.close()


def stdout_shown(output: str | None) -> bool:
    """Whether what a run writes to ``output`` (None or '-': stdout) goes to a terminal as it
    comes: a progress line on the same screen would be mixed into it, so there is none."""
    if output not in (None, "-"):
        return False
    try:
        return bool(sys.stdout.isatty())
    except (AttributeError, ValueError):
        return False


def active() -> bool:
    """Whether a progress line is drawn in this process (else counting is not needed)."""
    return _meter is not None


def game(count: int = 1) -> None:
    """``count`` more games read in this process."""
    if _meter is not None:
        _meter.game(count)


def part_done(part: Any, games: int | None = None) -> None:
    """A part done (see :meth:`Meter.part_done`)."""
    if _meter is not None:
        _meter.part_done(part, games)


def counting(items: Iterable[T]) -> Iterator[T]:
    """``items`` as they come, each counted as a game read in this process."""
    if _meter is None:
        yield from items
        return
    for item in items:
        if _meter is not None:
            _meter.game()
        yield item


def through(pairs: Iterable[tuple[Any, T]], count: Callable[[T], int] | None = None
            ) -> Iterator[tuple[Any, T]]:
    """(part, result) pairs as they come, each part marked done, with its games counted by
    ``count`` (for parts read in other processes)."""
    for part, result in pairs:
        part_done(part, None if count is None else count(result))
        yield part, result
