"""The Western Mahjong action grammar, built once from the shared tile tokens."""

from __future__ import annotations

from typing import Any

import pyparsing as pp

from gametool.errors import MalformedAction
from gametool.games.western_mahjong.tiles import INDEX
from notation.errors import NotationError
from notation.tokens import keyword, parse_whole, tile

_TILE = tile()
_TILE.add_parse_action(lambda t: INDEX[t[0].lower()])
_SEAT = pp.Regex(r"[pP][12]").set_name("seat p1 or p2")
_SEAT.set_parse_action(lambda t: int(t[0][1]) - 1)
_NUMBER = pp.Regex(r"[0-9]+").set_name("table meld number")
_NUMBER.set_parse_action(lambda t: int(t[0]))

_GROUP = pp.Group(_TILE + pp.OneOrMore(_TILE)).set_name("group of tiles")
_DRAW = (keyword("draw") - (keyword("wall") | keyword("discard")).set_name("'wall' or 'discard'")
         ("source"))
_MELD = keyword("meld") - pp.Group(_GROUP + pp.ZeroOrMore(pp.Suppress("/") - _GROUP))("groups")
_ADD = (keyword("add") - pp.Group(pp.OneOrMore(_TILE))("tiles") - keyword("to").suppress()
        - _NUMBER("number"))
_DISCARD = keyword("discard") - _TILE("tile")
_DEAL = (keyword("deal") - _SEAT("seat") - pp.Suppress(":").set_name("':'")
         - pp.Group(pp.OneOrMore(_TILE))("tiles"))
_DRAWN = keyword("drawn") - _TILE("tile")
_WORD = keyword("out") | keyword("resign")

ACTION = (_DRAWN | _DRAW | _MELD | _ADD | _DISCARD | _DEAL | _WORD).set_name(
    "action (draw wall, draw discard, meld, add, discard, out, resign, deal, drawn)")


def read(text: str) -> tuple[str, Any]:
    """The action's keyword and its parsed parts; MalformedAction quoting the input."""
    try:
        parsed = parse_whole(ACTION, text)
    except NotationError as exc:
        raise MalformedAction(
            f"malformed action {text.strip()!r}: {exc.message} (column {exc.column})") from None
    word = parsed[0].lower()
    if word == "draw":
        return word, parsed["source"].lower()
    if word == "meld":
        return word, [tuple(g) for g in parsed["groups"]]
    if word == "add":
        return word, (tuple(parsed["tiles"]), parsed["number"])
    if word in ("discard", "drawn"):
        return word, parsed["tile"]
    if word == "deal":
        return word, (parsed["seat"], tuple(parsed["tiles"]))
    return word, None
