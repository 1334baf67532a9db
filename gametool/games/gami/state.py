"""A position of a Gami game and the shape of its actions.

Actions are small tuples of card numbers: ``("deal", p1, p2, table)`` (masks), ``("pick", card,
returned)``, ``("swap", give, take, claimed)`` with ``NONE`` for no return or claim, and
``"resign"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

Action = Any
NONE = -1


class GamiState(NamedTuple):
    """One position. Hands and table are card masks; every card is in exactly one of them."""

    hands: tuple[int, int]
    table: int
    seat: int
    """The seat to move (``CHANCE`` before the deal); meaningless once ``result`` is set."""
    picks: int
    plies: int
    """Player moves made: picks and swaps (the deal and a resignation are not counted)."""
    history: tuple[int, ...]
    """Position keys of the swapping phase so far, oldest first (for the repetition rule)."""
    result: tuple[str, int] | None
    """(termination, winning seat or -1 for a draw) once the game is over."""


def mask_of(cards: Sequence[int]) -> int:
    """The mask of some card numbers."""
    out = 0
    for card in cards:
        out |= 1 << card
    return out
