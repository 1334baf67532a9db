"""The notation of a Super Horse Chess turn: the chess move, then the horse action.

Grammars are built once; each part of a turn is read apart and memoised, since the same texts
recur in every position.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from gametool.core.errors import MalformedAction
from gametool.games.chess.horses import HMOVE, NAME_ORDER, PLACES, REMOVE
from gametool.games.chess.san import MoveText, parse_move_text
from notation import values as tokens
from notation.errors import NotationError
from notation.fast import FastReader


@cache
def grammars() -> dict[str, Any]:
    """The full grammars (pyparsing), built on first need: a turn as the tool writes it is read
    by the fast readers without them. ``horse`` tail and whole ``action``."""
    import pyparsing as pp

    from gametool.games.chess.san_grammar import MOVE
    from notation import tokens

    def _adj(el: pp.ParserElement) -> pp.ParserElement:
        return el.leave_whitespace()

    sq = tokens.square(8, 8)
    place = pp.Literal("@").set_name("'@'") + _adj(sq.copy())
    place.set_parse_action(lambda t: ("place", t[1]))
    remove = (pp.Literal("-").set_name("'-'") + _adj(sq.copy())
              + pp.Opt(pp.Literal("-").set_name("'-'") + _adj(sq.copy())))
    remove.set_parse_action(lambda t: ("remove", *(x for x in t if x != "-")))
    promo = pp.Opt(pp.Opt(_adj(pp.Literal("=")).suppress())
                   + _adj(pp.Char("NBRQnbrq").set_name("promotion piece")))
    hmove = (pp.Literal("H").set_name("'H'") + _adj(sq.copy()) + _adj(pp.Literal("-"))
             + _adj(sq.copy()) + promo)
    hmove.set_parse_action(lambda t: ("move", t[1], t[3], t[-1] if len(t) > 4 else ""))
    horse = (place | remove | hmove).set_name("horse action")
    suffix = pp.Opt(pp.Regex(r"[+#]+[!?]*|[!?]+").set_name("check mark")).suppress()
    turn = (MOVE + pp.Opt(pp.Group(horse)) + suffix).set_name("turn")
    claim_word = pp.CaselessKeyword("claim-draw").set_name("'claim-draw'")
    claim_word.set_parse_action(lambda: "claim")
    return {"horse": (horse + suffix).set_name("horse action"),
            "action": ((claim_word + pp.Opt(turn)) | turn).set_name("super horse chess action")}


def __getattr__(name: str) -> Any:
    if name == "HORSE_TAIL":  # the grammar of a horse action, for the tests
        return grammars()["horse"]
    raise AttributeError(name)


def horse_value(written: Any) -> Any:
    """A parsed horse action as the engine's tuple (position-independent)."""
    kind = written[0]
    if kind == "place":
        return PLACES[square_index(written[1])]
    if kind == "remove":
        squares = sorted((square_index(s) for s in written[1:]), key=NAME_ORDER.__getitem__)
        return (REMOVE, squares[0], squares[1] if len(squares) > 1 else -1)
    promo = " NBRQ".index(written[3].upper()) if written[3] else 0
    return (HMOVE, square_index(written[1]), square_index(written[2]), promo)


_SQ = r"([a-h])([1-8])"
_FAST_HORSE = re.compile(rf"@{_SQ}|-{_SQ}(?: ?-{_SQ})?|H{_SQ}-{_SQ}(?:=?([NBRQnbrq]))?")
_FAST_SUFFIX = re.compile(r"(?:[+#]+[!?]*|[!?]+)?")


def fast_horse(text: str) -> Any:
    """A horse action written as the tool writes it (lower-case squares, one blank at most), read
    without the grammar, as ``HORSE_TAIL`` reads it; None for any other spelling."""
    text = text.strip()
    match = _FAST_HORSE.match(text)
    if match is None or _FAST_SUFFIX.fullmatch(text, match.end()) is None:
        return None
    g = match.groups()

    def square(i: int) -> tokens.Square:
        return tokens.Square(ord(g[i]) - 97, int(g[i + 1]))

    if g[0]:
        return ("place", square(0))
    if g[2]:
        return ("remove", square(2), square(4)) if g[4] else ("remove", square(2))
    return ("move", square(6), square(8), g[10] or "")


_HORSES = FastReader(fast_horse, lambda: grammars()["horse"], lambda tokens, _text: tokens[0])
"""A horse action as written (its kind and squares)."""


@lru_cache(maxsize=1 << 15)
def horse_part(text: str) -> Any:
    return horse_value(_HORSES(text))


@lru_cache(maxsize=1 << 16)
def read_turn(text: str) -> tuple[bool, MoveText | None, Any]:
    """(claim?, chess move, horse action or None) from the text of an action.

    The chess move and the horse action are read apart (each memoised: few distinct texts
    recur in every position); anything unusual is read again by the whole-turn grammar, whose
    error gives the column."""
    words = text.split()
    claim = bool(words) and words[0].lower() == "claim-draw"
    rest = words[1:] if claim else words
    try:
        if claim and not rest:
            return True, None, None
        movetext = parse_move_text(rest[0])
        return claim, movetext, horse_part(" ".join(rest[1:])) if len(rest) > 1 else None
    except (MalformedAction, NotationError, IndexError):
        pass
    import pyparsing as pp

    from notation.tokens import parse_whole

    try:
        parts = parse_whole(grammars()["action"], text)
    except NotationError as exc:
        raise MalformedAction(f"malformed turn {text!r} (column {exc.column}): "
                              f"{exc.message}") from None
    movetext = next((p for p in parts if isinstance(p, MoveText)), None)
    written = parts[-1][0] if isinstance(parts[-1], pp.ParseResults) else None
    return parts[0] == "claim", movetext, None if written is None else horse_value(written)


def square_index(t: tokens.Square) -> int:
    if t.file > 7 or not 1 <= t.rank <= 8:
        raise MalformedAction(f"square {t} is off the board")
    return (t.rank - 1) * 8 + t.file
