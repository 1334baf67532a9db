"""The header of a record: seats, rule options and seed contributions as the tags write them,
and the checks of seat names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from gametool.core.chance import check_contribution
from gametool.core.engine import Game
from gametool.core.errors import GameError
from notation import record as gtn
from notation.patterns import lazy

CHANCE_NAME = "chance"
"""The name the record gives the chance pseudo-seat."""


def parse_players(value: str) -> list[str]:
    separator = ";" if ";" in value else ","
    return [name.strip() for name in value.split(separator) if name.strip()]


def parse_options(value: str) -> dict[str, str]:
    """``k=v; k=v`` (commas or spaces also separate) into a dict; RecordError if malformed."""
    out: dict[str, str] = {}
    for piece in value.replace(";", " ").replace(",", " ").split():
        name, eq, setting = piece.partition("=")
        if not eq or not name or not setting:
            raise GameError(f"option {piece!r} is not NAME=VALUE (no blanks around '=')")
        key = name.strip().lower()
        if key in out:
            raise GameError(f"option {key} is given twice ({key}={out[key]} and "
                            f"{key}={setting.strip()})")
        out[key] = setting.strip()
    return out


def parse_contributions(value: str, seats: int) -> list[str | None]:
    """The ``Contributions`` tag: one part per seat in seat order, ``?`` for one not yet sent."""
    parts = [part.strip() for part in value.split(";")]
    if len(parts) != seats:
        raise GameError(f"Contributions holds {len(parts)} parts for {seats} seats")
    out: list[str | None] = []
    for part in parts:
        if part == "?":
            out.append(None)
            continue
        try:
            out.append(check_contribution(part))
        except ValueError as exc:
            raise GameError(f"Contributions: {exc}") from None
    return out


_DEFAULT_NAME = lazy(r"p[0-9]+")
_SEAT_NAME = lazy(gtn.SEAT_PATTERN)
"""A seat name: one or more of the characters a record writes in one."""


def check_names(game_cls: type[Game], names: Sequence[str]) -> None:
    """Seat names: the right number, distinct, and writable in a record."""
    key = (game_cls, tuple(names))
    if key in _NAMES_CHECKED:
        return
    _check_names(game_cls, names)
    if len(_NAMES_CHECKED) >= 256:
        _NAMES_CHECKED.clear()
    _NAMES_CHECKED.add(key)


_NAMES_CHECKED: set[tuple[type[Game], tuple[str, ...]]] = set()
"""The game classes and seat names found right (many records of one archive name the same)."""


def _check_names(game_cls: type[Game], names: Sequence[str]) -> None:
    n = len(names)
    if not game_cls.min_players <= n <= game_cls.max_players:
        span = (f"{game_cls.min_players}" if game_cls.min_players == game_cls.max_players
                else f"{game_cls.min_players}-{game_cls.max_players}")
        raise GameError(f"{game_cls.id} is for {span} players, not {n}")
    seen: set[str] = set()
    for number, name in enumerate(names, start=1):
        if not _SEAT_NAME.fullmatch(name):
            raise GameError(
                f"seat name {name!r}: use letters, digits and _ - . ' + @ only (no spaces)"
            )
        key = name.lower()
        if game_cls.names_seats and game_cls.names_seats_in_actions and (
                key in game_cls.notation_words or (game_cls.notation_tokens and re.fullmatch(
                    game_cls.notation_tokens, name, re.IGNORECASE))):
            raise GameError(f"seat name {name!r} is also a word of the actions of "
                            f"{game_cls.name}, which name seats: choose another name")
        if _DEFAULT_NAME.fullmatch(key) and key != f"p{number}":
            raise GameError(f"seat name {name!r} for seat {number}: a name p1, p2, ... is the "
                            f"default name of that seat (write p{number} or another name)")
        if key == CHANCE_NAME:
            raise GameError("'chance' is the name of the chance seat, not a player")
        if key in seen:
            raise GameError(f"seat name {name!r} is used twice")
        seen.add(key)


