"""Shared token grammars, built bottom-up from named pieces.

Each element has a name so that errors read "Expected square", and a parse action that turns the
text into a small typed value (lower-case squares, upper-case cards, ...). The parse actions
return the value inside a list, so that a results name (``square("to")``) keeps the whole value
rather than its first field. Games combine these into
their own move grammars. :func:`parse_whole` runs a grammar over a whole string and turns
pyparsing's error into a :class:`~notation.errors.NotationError` with the column.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import pyparsing as pp

from notation.errors import NotationError
from notation.values import (  # noqa: F401 (the values are part of this module's names)
    CARD_RANKS,
    CARD_SUITS,
    FILES,
    HONOURS,
    SPACE_SUITS,
    TILE_SUITS,
    Card,
    Dice,
    Domino,
    Square,
)


def _caseless_choice(words: tuple[str, ...], name: str) -> pp.ParserElement:
    # Longest first so that "10" wins over "1".
    ordered = sorted(words, key=len, reverse=True)
    return pp.MatchFirst([pp.CaselessLiteral(w) for w in ordered]).set_name(name)


def file_letter(width: int = 26) -> pp.ParserElement:
    return pp.Char(FILES[:width] + FILES[:width].upper()).set_name("file")


def square(width: int = 26, height: int = 99) -> pp.ParserElement:
    """A square such as ``d4``; any case. Bounds are checked by the game, not the grammar."""
    el = pp.Regex(r"[A-Za-z][1-9][0-9]?").set_name("square")
    el.set_parse_action(lambda t: [Square(ord(t[0][0].lower()) - 97, int(t[0][1:]))])
    return el


def card(suits: tuple[str, ...] = CARD_SUITS) -> pp.ParserElement:
    """A card, rank then suit: ``10H``, ``QS``, ``7T``; any case, written upper case."""
    rank = _caseless_choice(CARD_RANKS, "card rank")
    suit = _caseless_choice(suits, "suit")
    el = pp.Combine(rank("rank") + suit("suit")).set_name("card")
    el.set_parse_action(lambda t: [Card(t[0][:-1].upper(), t[0][-1].upper())])
    return el


def domino(max_pip: int = 6) -> pp.ParserElement:
    """Two halves joined by a dash, ``5-1``; 0 is the blank."""
    el = pp.Regex(rf"[0-{max_pip}]-[0-{max_pip}]").set_name("domino")
    el.set_parse_action(lambda t: [Domino(int(t[0][0]), int(t[0][2]))])
    return el


def dice(count: int = 2, sides: int = 6) -> pp.ParserElement:
    """Dice values joined by dashes, ``6-4``."""
    die = f"[1-{sides}]" if sides <= 9 else r"[1-9][0-9]?"
    el = pp.Regex("-".join([die] * count)).set_name(f"{count} dice")
    el.set_parse_action(lambda t: [Dice(tuple(int(v) for v in t[0].split("-")))])
    return el


def roll(count: int = 2, sides: int = 6) -> pp.ParserElement:
    """The chance action ``roll 6-4``."""
    return (pp.CaselessKeyword("roll").suppress() - dice(count, sides)).set_name("roll")


def tile() -> pp.ParserElement:
    """A mahjong tile: ``1b``-``9b``, ``1c``-``9c``, ``1k``-``9k``, winds and dragons."""
    suited = pp.Regex(r"[1-9][bckBCK]")
    suited.set_parse_action(lambda t: t[0].lower())
    honour = _caseless_choice(HONOURS, "honour")
    honour.set_parse_action(lambda t: t[0].upper())
    return (suited | honour).set_name("tile")


def keyword(word: str) -> pp.ParserElement:
    return pp.CaselessKeyword(word).set_name(repr(word))


@cache
def _anchored(grammar: pp.ParserElement) -> pp.ParserElement:
    return grammar + pp.StringEnd().set_name("end of action")


def parse_whole(grammar: pp.ParserElement, text: str) -> Any:
    """Parse all of ``text`` with ``grammar``; raise NotationError with the column on failure.

    Syntax alone decides the result, so the tokens of a text are kept (for the most recent
    texts of each grammar) and shared between calls: callers read them and never change them.
    """
    return _parse_cached(grammar, text.strip())


@lru_cache(maxsize=8192)
def _parse_cached(grammar: pp.ParserElement, text: str) -> Any:
    try:
        return _anchored(grammar).parse_string(text)
    except pp.ParseBaseException as exc:
        raise NotationError(_describe(exc), 1, exc.column) from None


def _describe(exc: pp.ParseBaseException) -> str:
    msg = exc.msg
    rest = exc.line[exc.column - 1:] if exc.line else ""
    if not rest:
        return f"{msg}, found end of text"
    if rest[0].isspace():
        return f"{msg}, found a blank"
    return f"{msg}, found {rest.split()[0]!r}"
