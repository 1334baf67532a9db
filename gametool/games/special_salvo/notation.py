"""The action grammar of Special Salvo, built once from the shared tokens, and the report codes.

Results of a shot are small numbers: ``MISS``, ``HIT`` (no ship named), ``HIT_SHIP + k`` (a hit
naming ship k, with ``report=ships``) and ``SUNK + k``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from gametool.core.errors import IllegalAction, MalformedAction
from gametool.games.special_salvo.fleet import (
    DIRECTIONS,
    FILES,
    REVERSED,
    SHIPS,
    SIZE,
    SQUARE_NAMES,
    canonical,
)
from notation import values as tokens
from notation.errors import NotationError
from notation.fast import FastReader

MISS, HIT, HIT_SHIP, SUNK = 0, 1, 2, 2 + len(SHIPS)


def result_text(code: int) -> str:
    if code == MISS:
        return "miss"
    if code == HIT:
        return "hit"
    if code < SUNK:
        return f"hit {SHIPS[code - HIT_SHIP]}"
    return f"sunk {SHIPS[code - SUNK]}"


def format_results(pairs: Any) -> str:
    return ", ".join(f"{SQUARE_NAMES[sq]} {result_text(code)}" for sq, code in pairs)


@cache
def grammar():  # noqa: ANN201 (a pyparsing element, built on first need)
    """``place``, ``fire``, ``report``, ``commit``, ``reveal`` and ``resign``: for the texts the
    fast reader does not take (it names the error)."""
    import pyparsing as pp

    from notation import tokens

    def _choice(words: tuple[str, ...], name: str) -> pp.ParserElement:
        ordered = sorted(words, key=len, reverse=True)
        return pp.MatchFirst([pp.CaselessKeyword(w) for w in ordered]).set_name(name)

    square = tokens.square()
    # Any word is read as a ship code, so that an unknown code is an illegal placement (as
    # the rules file says), not an unreadable one; _ship() checks it.
    ship = pp.Regex(r"[A-Za-z]+\b").set_name("ship code (cv, bb, cr, sub, pt)")
    direction = _choice(("e", "s", "se", "ne", *REVERSED), "direction (e, s, se, ne, w, n, "
                                                           "nw, sw)")
    ship_pos = pp.Group(ship - square - direction).set_name("ship position")
    comma = pp.Suppress(",")
    fleet = pp.Group(ship_pos + pp.ZeroOrMore(comma - ship_pos)).set_name("ships")
    place = tokens.keyword("place") - fleet
    fire = tokens.keyword("fire") - pp.Group(pp.OneOrMore(square)).set_name("squares")
    outcome = (_choice(("miss",), "miss")
               | _choice(("hit",), "hit") + pp.Optional(ship)
               | _choice(("sunk",), "sunk") - ship).set_name("miss, hit or sunk SHIP")
    result = pp.Group(square + pp.Group(outcome)).set_name("shot result")
    report = tokens.keyword("report") - pp.Group(result + pp.ZeroOrMore(comma - result))
    hexword = pp.Regex(r"[0-9A-Fa-f]+").set_name("hexadecimal")
    commit = tokens.keyword("commit") - hexword
    reveal = tokens.keyword("reveal") - fleet - tokens.keyword("salt") - hexword
    resign = tokens.keyword("resign")
    return (place | fire | report | commit | reveal | resign).set_name("special-salvo action")


def square_index(square: tokens.Square, text: str) -> int:
    """The index of a square; a square off the ocean is illegal (rules: 'fire k1 ...' is
    illegal, because k1 is off the board)."""
    if not (0 <= square.file < SIZE and 1 <= square.rank <= SIZE):
        raise IllegalAction(f"{text.strip()!r}: {square} is off the ocean (files a-j, ranks "
                            "1-10)")
    return (square.rank - 1) * SIZE + square.file


def _ship(code: str, text: str) -> int:
    if code.lower() not in SHIPS:
        raise IllegalAction(f"{text.strip()!r}: {code!r} is no ship of the fleet (cv, bb, cr, "
                            "sub, pt)")
    return SHIPS.index(code.lower())


_SQUARES = {f"{file}{rank}": tokens.Square(f, rank)
            for f, file in enumerate(FILES) for rank in range(1, SIZE + 1)}
_FAST_SQUARE = "(?:[a-j](?:10|[1-9]))"
_FAST_SHIP = f"(?:{'|'.join(SHIPS)})"
_FAST_SHIP_POS = rf"{_FAST_SHIP} {_FAST_SQUARE} (?:{'|'.join(DIRECTIONS)})"
_FAST_FLEET = rf"{_FAST_SHIP_POS}(?:, {_FAST_SHIP_POS})*"
_FAST_RESULT = rf"{_FAST_SQUARE} (?:miss|hit(?: {_FAST_SHIP})?|sunk {_FAST_SHIP})"
_FAST_ACTION = re.compile(
    rf"fire {_FAST_SQUARE}(?: {_FAST_SQUARE})*|report {_FAST_RESULT}(?:, {_FAST_RESULT})*"
    rf"|place {_FAST_FLEET}|commit [0-9a-f]{{64}}|reveal {_FAST_FLEET} salt [0-9a-f]+|resign")


def _fast_tokens(text: str) -> list[Any] | None:
    """The tokens of an action written as the tool writes it (lower case, squares on the
    ocean, the fleet's codes, canonical directions, one blank between words), read without the
    grammar, exactly as :func:`grammar` reads them; None for any other spelling, which the
    grammar reads (and explains)."""
    if _FAST_ACTION.fullmatch(text) is None:
        return None
    kind, _, rest = text.partition(" ")
    if kind == "fire":
        return [kind, [_SQUARES[word] for word in rest.split(" ")]]
    if kind == "report":
        results = (result.partition(" ") for result in rest.split(", "))
        return [kind, [[_SQUARES[square], outcome.split(" ")] for square, _, outcome in results]]
    if kind == "place":
        return [kind, _fast_fleet(rest)]
    if kind == "commit":
        return [kind, rest]
    if kind == "reveal":
        fleet, _, salt = rest.rpartition(" salt ")
        return [kind, _fast_fleet(fleet), "salt", salt]
    return [kind]


def _fast_fleet(text: str) -> list[list[Any]]:
    return [[ship, _SQUARES[square], direction]
            for ship, square, direction in (part.split(" ") for part in text.split(", "))]


def read(text: str) -> tuple[str, Any]:
    """The kind of an action and its pieces (see :func:`_read`), remembered per text."""
    return _read(text.strip())


@lru_cache(maxsize=8192)
def _read(text: str) -> tuple[str, Any]:
    """The kind of an action and its pieces, as numbers; MalformedAction if it is not one.

    Squares off the ocean, ship positions running off it and unknown ship codes raise
    IllegalAction (the text is well formed but breaks a rule).
    """
    parsed = _fast_tokens(text)
    if parsed is not None:
        return _pieces(parsed, text)
    text = text.lower()  # the grammar reads lower case
    if "?" in text:
        raise MalformedAction(f"hidden value '?' in {text.strip()!r}: this record was exported "
                              "for one seat and cannot be replayed; use the master record")
    return _pieces(_TOKENS(text), text)


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: {exc.message}")


_TOKENS = FastReader(_fast_tokens, lambda: grammar(), refuse=_refused)
"""The tokens of an action in lower case."""


def _pieces(parsed: Any, text: str) -> tuple[str, Any]:
    """The kind and pieces of an action from its tokens (of the grammar or the fast reader)."""
    kind = parsed[0].lower()
    if kind == "resign":
        return kind, None
    if kind in ("commit", "reveal"):
        salt = parsed[-1].lower()
        if kind == "commit" and len(salt) != 64:
            raise MalformedAction(f"malformed action {text.strip()!r}: a commitment is 64 "
                                  "hexadecimal digits (SHA-256)")
        if kind == "commit":
            return kind, salt
        return kind, (_placements(parsed[1], text), salt)
    if kind == "place":
        return kind, _placements(parsed[1], text)
    if kind == "fire":
        return kind, tuple(square_index(sq, text) for sq in parsed[1])
    pairs = []
    for square, words in parsed[1]:
        sq = square_index(square, text)
        word = words[0].lower()
        if word == "miss":
            pairs.append((sq, MISS))
        elif word == "sunk":
            pairs.append((sq, SUNK + _ship(words[1], text)))
        elif len(words) > 1:
            pairs.append((sq, HIT_SHIP + _ship(words[1], text)))
        else:
            pairs.append((sq, HIT))
    return kind, tuple(pairs)


def _placements(groups: Any, text: str) -> tuple[tuple[int, int, int], ...]:
    out = []
    for code, square, word in groups:
        ship = _ship(code, text)
        out.append(canonical(ship, square_index(square, text), word.lower()))
    return tuple(out)
