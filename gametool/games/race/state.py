"""The immutable position of a race game."""

from __future__ import annotations

from typing import NamedTuple

from gametool.games.race.geometry import Geometry


class RaceState(NamedTuple):
    """One position. Figures are counted per seat on the 0-based spaces of the board.

    ``seat`` is the player whose turn it is (or will be once ``chance`` has rolled); ``dice`` is
    the roll that player plays, None while chance is to roll. ``places`` holds each seat's
    finishing place once it is fixed (0 while the seat still plays); ``out`` marks seats that
    resigned and left. ``ended`` is the termination once the game is over.
    """

    counts: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    bar: tuple[int, ...]
    off: tuple[int, ...]
    seat: int = 0
    dice: tuple[int, int] | None = None
    opening: bool = False
    plies: int = 0
    places: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    ended: str | None = None
    last_roll: tuple[int, int] | None = None

    def in_game(self, seat: int) -> bool:
        """Whether ``seat`` still plays (has neither finished nor left)."""
        return not self.out[seat] and not self.places[seat]


def initial(geo: Geometry, opening: bool) -> RaceState:
    """Each seat with 2 figures on its start point and the rest in hand (D2)."""
    n = geo.seats
    counts = []
    for seat in range(n):
        row = [0] * geo.spaces
        row[geo.starts[seat]] = 2
        counts.append(tuple(row))
    return RaceState(
        counts=tuple(counts), hand=(geo.figures - 2,) * n, bar=(0,) * n, off=(0,) * n,
        seat=0, dice=None, opening=opening, plies=0, places=(0,) * n, out=(False,) * n,
    )


def replace_at(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]
