"""Johari Bones positions and the state of a game: who sees which bone, whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass

from gametool.core.engine import REFEREE, seat_text
from gametool.games.johari_bones.scoring import Bone

POSITIONS = ("up", "down", "in", "out")
UP, DOWN, IN, OUT = range(4)
ALL_BONES: tuple[Bone, ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
HANDS = 10  # D1
ROUNDS = 3
HIDDEN = "?"


def bone_text(bone: Bone) -> str:
    return f"{bone[0]}-{bone[1]}"


def seat_label(seat: int) -> str:
    return seat_text(seat)


def sees(owner: int, position: int, seat: int | None, revealed: bool) -> bool:
    """The visibility table: who sees the bone in ``owner``'s ``position`` (the referee sees
    every bone the master record holds)."""
    if revealed or position == UP or seat == REFEREE:
        return True
    if seat is None or position == DOWN:
        return False
    return (seat == owner) == (position == IN)


@dataclass(frozen=True)
class JohariState:
    """One moment of the game; ``positions[s]`` is None until seat s is dealt."""

    nseats: int
    hand: int = 0
    positions: tuple[tuple[Bone, ...] | None, ...] = ()
    pile: tuple[Bone, ...] = ALL_BONES
    aside: tuple[Bone, ...] = ()
    dealt: int = 0
    turn: int = 0
    drawing: bool = False
    drawn: Bone | None = None
    scored: int = 0
    sheets: tuple[tuple[int | None, ...], ...] = ()
    resigned: int | None = None

    @property
    def first(self) -> int:
        """D10: hand 1 is dealt by the last seat, so p1 starts; both rotate each hand.

        Once the game is over (``hand`` is HANDS) they stay those of the last hand.
        """
        return min(self.hand, HANDS - 1) % self.nseats

    @property
    def dealer(self) -> int:
        return (self.first - 1) % self.nseats

    @property
    def revealed(self) -> bool:
        """After the third round every bone in every position is shown."""
        return self.dealt == self.nseats and self.turn >= ROUNDS * self.nseats

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.hand >= HANDS

    def mover(self) -> int:
        """The player whose turn (or score) it is, once the deal is done."""
        count = self.scored if self.revealed else self.turn
        return (self.first + count) % self.nseats
