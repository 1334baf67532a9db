"""The position of a game of Special Salvo: an immutable record of both oceans' history."""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Protocol

from gametool.games.special_salvo import fleet as fl

PLACE, FIRE, REPORT, REVEAL, OVER = "place", "fire", "report", "reveal", "over"


@dataclass(frozen=True, slots=True)
class SalvoState:
    """One position; every pair is indexed by seat (0 = Player 1).

    ``placed`` holds each seat's ship placements (in commit-reveal mode only once revealed);
    ``hits`` the squares of each seat's ocean reported hit; ``sunk`` the bit set of each seat's
    ships reported sunk; ``fired`` the squares each seat has fired at; ``log`` each seat's shots
    with their results and salvo number, and ``said`` the ply of the report of each of those
    results. ``salvo``, ``answers`` and ``answered`` (the ply of each answer) belong to the salvo
    under way; ``ply`` counts the actions played.
    """

    phase: str = PLACE
    turn: int | None = 0
    placed: tuple[tuple[fl.Placement, ...], tuple[fl.Placement, ...]] = ((), ())
    commits: tuple[str | None, str | None] = (None, None)
    revealed: tuple[bool, bool] = (False, False)
    hits: tuple[int, int] = (0, 0)
    sunk: tuple[int, int] = (0, 0)
    fired: tuple[int, int] = (0, 0)
    log: tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]] = ((), ())
    said: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    salvos: tuple[int, int] = (0, 0)
    attacker: int = 0
    salvo: tuple[int, ...] = ()
    answers: tuple[int, ...] = ()
    answered: tuple[int, ...] = ()
    due: int = 0
    reserve: int = 0
    ending: str | None = None
    winner: int | None = None
    ply: int = 0

    def occupied(self, seat: int) -> int:
        return fl.mask_of(sq for p in self.placed[seat]
                          for sq in fl.ship_squares(*p) or ())


def pair_with(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    """``pair`` with the entry of ``seat`` replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


class Sight(Protocol):
    """What the views ask of the rules (the game object): whether the engine referees, and
    whether a seat sees a fleet."""

    referee: bool

    def visible_fleet(self, state: SalvoState, owner: int, seat: int | None) -> bool: ...


_NAMES = tuple(f.name for f in fields(SalvoState))
_VALUES = attrgetter(*_NAMES)
_INDEX = {name: index for index, name in enumerate(_NAMES)}


def replace(state: SalvoState, **changes: Any) -> SalvoState:
    """``state`` with the fields named changed, as :func:`dataclasses.replace` makes it (every
    field of a SalvoState is set by its constructor), without looking its fields up again."""
    values = list(_VALUES(state))
    index = _INDEX
    for name, value in changes.items():
        values[index[name]] = value
    return SalvoState(*values)
