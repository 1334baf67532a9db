"""Whole-number values on the command line, bounded before any work is done with them.

``click.INT`` and ``click.IntRange`` read a number of any length and echo it back whole in an
error; a count given as thousands of digits would be printed back in full, and one within
Python's digit limit would be used. :class:`Whole` reads at most a few digits, names the bounds
of the value in its error, and shows a long value cut short.
"""

from __future__ import annotations

import re
from typing import Any

import click

from gametool.core.engine import OPTION_MAXIMUM
from notation.patterns import lazy
from notation.record import MAX_PLY_DIGITS

PLY_MAXIMUM = 10 ** MAX_PLY_DIGITS - 1
"""The largest ply number a record can hold."""
_NUMBER = lazy(r"[+-]?[0-9]+")


def shown(text: str) -> str:
    """``text`` for an error message: cut short past 24 characters."""
    return text if len(text) <= 24 else f"{text[:20]}... ({len(text):,} characters)"


class Whole(click.IntRange):
    """A whole number from ``minimum`` to ``maximum`` (help shows the range, as IntRange)."""

    def __init__(self, minimum: int, maximum: int) -> None:
        super().__init__(minimum, maximum)
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if _NUMBER.fullmatch(text) is None:
                self.fail(f"{shown(text)!r} is not a whole number", param, ctx)
            # Past 18 digits the number is out of every range: it is not even converted.
            number = int(text) if len(text) <= 19 else None
        if number is None or not self.minimum <= number <= self.maximum:
            self.fail(f"{shown(str(value).strip())} is not in the range {self.minimum:,} to "
                      f"{self.maximum:,}", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"Whole({self.minimum}, {self.maximum})"


PLY = Whole(0, PLY_MAXIMUM)
"""A ply number (the command checks it against the record's plies)."""
COUNT = Whole(1, OPTION_MAXIMUM)
"""A count of one or more (games, search iterations, plies to take back)."""
RECORD = Whole(1, PLY_MAXIMUM)
"""The number of a record in a file (from 1)."""

record_option = click.option("--record", "number", type=RECORD, metavar="N",
                             help="In a file of several records, use record N (from 1).")


class Seconds(click.ParamType):
    """A time in seconds, from 0 to ``maximum`` (a decimal number: 0.5, 2, 0.05)."""

    name = "seconds"

    def __init__(self, maximum: float = 3600.0) -> None:
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        text = str(value).strip()
        if re.fullmatch(r"[0-9]{1,6}(\.[0-9]{0,6})?|\.[0-9]{1,6}", text) is None:
            self.fail(f"{shown(text)!r} is not a number of seconds (such as 0.5)", param, ctx)
        number = float(text)
        if number > self.maximum:
            self.fail(f"{text} is not in the range 0 to {self.maximum:g}", param, ctx)
        return number


THINK = Seconds()
"""The time a computer player may think per action."""
