"""The Western Mahjong position: points, the round's hands, wall, table melds and discards."""

from __future__ import annotations

from typing import NamedTuple

from gametool.games.western_mahjong.tiles import NFACES

EMPTY: tuple[int, ...] = (0,) * NFACES
FULL: tuple[int, ...] = (4,) * NFACES

# Phases of a round.
DEAL = "deal"  # chance deals the two hands
DRAW = "draw"  # the seat to move draws from the wall or takes the discard
DRAWN = "drawn"  # chance names the tile drawn from the wall
PLAY = "play"  # the seat melds, adds, then discards or goes out


class MahjongState(NamedTuple):
    """One position. Hands and the wall are tuples of 34 counts (the wall's order is chance's).

    A named tuple: immutable, and ``_replace`` is cheap on the hot path.
    """

    points: tuple[int, int] = (3, 3)
    round: int = 1
    leader: int = 0
    hands: tuple[tuple[int, ...], tuple[int, ...]] = (EMPTY, EMPTY)
    sizes: tuple[int, int] = (0, 0)
    wall: tuple[int, ...] = FULL
    wall_size: int = 136
    dealt: int = 0
    seat: int = 0
    phase: str = DEAL
    discard: int | None = None
    """The face discarded at the end of the opponent's last turn, while it may be taken (D2)."""
    pile: tuple[tuple[int, int, bool], ...] = ()
    """Every discard of the round: (seat, face, taken)."""
    melds: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Table melds in the order laid: (owner, faces); meld N is ``melds[N - 1]``."""
    opened: tuple[bool, bool] = (False, False)
    taken: int | None = None
    """The face taken with ``draw discard`` this turn (D3)."""
    drawn: int | None = None
    """The face drawn from the wall this turn, seen by the drawer only."""
    plies: int = 0
    """Player actions so far (D12)."""
    history: tuple[tuple[int, int | None, str], ...] = ()
    """Finished rounds: (round, winner or None for a void round, how it ended)."""
    result: tuple[str, int | None] | None = None
    """(termination, winner or None for a draw) once the game is over."""
