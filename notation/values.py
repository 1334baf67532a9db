"""The values tokens read into (squares, cards, dominoes, dice) and the alphabets they use.

Kept apart from ``notation.tokens`` so that a fast reader (a regular expression) can build them
without loading the grammars and pyparsing.
"""

from __future__ import annotations

from typing import NamedTuple

FILES = "abcdefghijklmnopqrstuvwxyz"
CARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_SUITS = ("H", "D", "C", "S")
SPACE_SUITS = ("U", "M", "T")
TILE_SUITS = ("b", "c", "k")
HONOURS = ("EW", "SW", "WW", "NW", "RD", "GD", "WD")


class Square(NamedTuple):
    """A board square: file index from 0 (``a``) and rank from 1."""

    file: int
    rank: int

    def __str__(self) -> str:
        return f"{FILES[self.file]}{self.rank}"


class Card(NamedTuple):
    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


class Domino(NamedTuple):
    """A domino as written: the two halves in the order given."""

    left: int
    right: int

    def __str__(self) -> str:
        return f"{self.left}-{self.right}"


class Dice(NamedTuple):
    values: tuple[int, ...]

    def __str__(self) -> str:
        return "-".join(str(v) for v in self.values)
