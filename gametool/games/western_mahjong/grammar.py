"""The Western Mahjong action grammar, built once from the shared tile tokens on first need,
and the fast reader of actions as the tool writes them."""

from __future__ import annotations

from functools import cache
from typing import Any

from gametool.core.errors import MalformedAction
from gametool.games.western_mahjong.tiles import INDEX
from notation.errors import NotationError
from notation.fast import FastReader


@cache
def _action():  # noqa: ANN202 (a pyparsing element, built on first need)
    """The full grammar, for the spellings the fast reader does not take (it names the error)."""
    import pyparsing as pp

    from notation.tokens import keyword, tile

    tile_el = tile()
    tile_el.add_parse_action(lambda t: INDEX[t[0].lower()])
    seat = pp.Regex(r"[pP][12]").set_name("seat p1 or p2")
    seat.set_parse_action(lambda t: int(t[0][1]) - 1)
    number = pp.Regex(r"[0-9]+").set_name("table meld number")
    number.set_parse_action(lambda t: int(t[0]))
    group = pp.Group(tile_el + pp.OneOrMore(tile_el)).set_name("group of tiles")
    draw = (keyword("draw") - (keyword("wall") | keyword("discard"))
            .set_name("'wall' or 'discard'")("source"))
    meld = keyword("meld") - pp.Group(group + pp.ZeroOrMore(pp.Suppress("/") - group))("groups")
    add = (keyword("add") - pp.Group(pp.OneOrMore(tile_el))("tiles")
           - keyword("to").suppress() - number("number"))
    discard = keyword("discard") - tile_el("tile")
    deal = (keyword("deal") - seat("seat") - pp.Suppress(":").set_name("':'")
            - pp.Group(pp.OneOrMore(tile_el))("tiles"))
    drawn = keyword("drawn") - tile_el("tile")
    word = keyword("out") | keyword("resign")
    return (drawn | draw | meld | add | discard | deal | word).set_name(
        "action (draw wall, draw discard, meld, add, discard, out, resign, deal, drawn)")


def _tiles(words: list[str]) -> tuple[int, ...] | None:
    out = tuple(INDEX.get(w.lower(), -1) for w in words)
    return None if not out or -1 in out else out


def _fast(text: str) -> tuple[str, Any] | None:
    """An action as the tool writes it, read without the grammar exactly as the grammar reads
    it; None for any other spelling."""
    words = text.split()
    if not words:
        return None
    word = words[0].lower()
    rest = words[1:]
    if word in ("out", "resign"):
        return (word, None) if not rest else None
    if word == "draw":
        return (word, rest[0].lower()) if len(rest) == 1 and rest[0].lower() in (
            "wall", "discard") else None
    if word in ("discard", "drawn"):
        tiles = _tiles(rest) if len(rest) == 1 else None
        return (word, tiles[0]) if tiles else None
    if word == "meld":
        groups = []
        current: list[str] = []
        for item in [*rest, "/"]:
            if item != "/":
                current.append(item)
                continue
            tiles = _tiles(current) if len(current) >= 2 else None
            if tiles is None:
                return None
            groups.append(tiles)
            current = []
        return word, groups
    if word == "add":
        if len(rest) < 3 or rest[-2].lower() != "to" or not rest[-1].isdigit():
            return None
        tiles = _tiles(rest[:-2])
        return (word, (tiles, int(rest[-1]))) if tiles else None
    if word == "deal":
        if not rest or rest[0].lower() not in ("p1:", "p2:"):
            return None
        tiles = _tiles(rest[1:])
        return (word, (int(rest[0][1]) - 1, tiles)) if tiles else None
    return None


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(
        f"malformed action {text.strip()!r}: {exc.message} (column {exc.column})")


def _from_tokens(parsed: Any, _text: str) -> tuple[str, Any]:
    """An action read by the grammar, as ``_fast`` gives it."""
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


read = FastReader(_fast, _action, _from_tokens, _refused)
"""The action's keyword and its parsed parts; MalformedAction quoting the input."""
