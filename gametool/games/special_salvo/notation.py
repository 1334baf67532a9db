"""The action grammar of Special Salvo, built once from the shared tokens, and the report codes.

Results of a shot are small numbers: ``MISS``, ``HIT`` (no ship named), ``HIT_SHIP + k`` (a hit
naming ship k, with ``report=ships``) and ``SUNK + k``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import pyparsing as pp

from gametool.errors import IllegalAction, MalformedAction
from gametool.games.special_salvo.fleet import REVERSED, SHIPS, SIZE, SQUARE_NAMES, canonical
from notation import tokens
from notation.errors import NotationError

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


def _choice(words: tuple[str, ...], name: str) -> pp.ParserElement:
    ordered = sorted(words, key=len, reverse=True)
    return pp.MatchFirst([pp.CaselessKeyword(w) for w in ordered]).set_name(name)


@cache
def grammar() -> pp.ParserElement:
    """``place``, ``fire``, ``report``, ``commit``, ``reveal`` and ``resign``."""
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


def read(text: str) -> tuple[str, Any]:
    """The kind of an action and its pieces (see :func:`_read`), remembered per text."""
    return _read(text.strip().lower())


@lru_cache(maxsize=8192)
def _read(text: str) -> tuple[str, Any]:
    """The kind of an action and its pieces, as numbers; MalformedAction if it is not one.

    Squares off the ocean, ship positions running off it and unknown ship codes raise
    IllegalAction (the text is well formed but breaks a rule).
    """
    if "?" in text:
        raise MalformedAction(f"hidden value '?' in {text.strip()!r}: this record was exported "
                              "for one seat and cannot be replayed; use the master record")
    try:
        parsed = tokens.parse_whole(grammar(), text)
    except NotationError as exc:
        raise MalformedAction(f"malformed action {text.strip()!r}: {exc.message}") from None
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
