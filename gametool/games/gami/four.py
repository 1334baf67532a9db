"""Gami: Four: pick five cards each from a face-up table, then swap; the first Gami wins."""

from __future__ import annotations

from typing import ClassVar

from gametool.games.gami.base import GamiGame, max_plies_option
from gametool.games.gami.cards import Cards, Deck, Relations

SUITS = ("H", "D", "C", "S")

COMBINATIONS: list[tuple[str, tuple[str, ...]]] = [
    *((f"suit {s}", tuple(f"{r}{s}" for r in "A234")) for s in SUITS),
    *((f"rank {r}", tuple(f"{r}{s}" for s in SUITS)) for r in "A234"),
    ("mixed", ("AH", "2C", "3D", "4S")),
    ("mixed", ("AS", "2D", "3C", "4H")),
    ("mixed", ("2H", "3C", "4D")),
    ("mixed", ("AC", "2D", "3S")),
    ("mixed", ("2S", "3D", "4C")),
    ("mixed", ("AD", "2C", "3H")),
]

CARDS = Cards(
    Deck(ranks=tuple("A234"), suits=SUITS),
    # D1: no A-4 link; D2: any rank swaps across colours, except hearts with spades.
    Relations(wrap=False, even_ranks_only=False, suit_pairs=("HC", "DC", "DS")),
    COMBINATIONS,
)


class GamiFour(GamiGame):
    id = "gami-four"
    name = "Gami: Four"
    chance = ""
    hidden = ""
    cards = CARDS
    total_picks = 10  # D3: five picks each
    pick_gami = "win"  # D4
    swap_gami = "win"  # D6, D7: no claims, no two-card rule
    rule: ClassVar[dict[str, str]] = {}  # D7: no claims, so no claim messages
    options = (max_plies_option("moves (picks and swaps)"),)
    max_plies = 200
    summary = """\
Two players, p1 and p2, and 16 cards: A 2 3 4 of hearts (H), diamonds (D), clubs (C) and
spades (S), all face up on the table; hands start empty. Hearts and diamonds are red, clubs and
spades black. Nothing is hidden and nothing is left to chance.

The Gami sets (14): a whole suit (4 cards); a whole rank (4 cards); {AH, 2C, 3D, 4S} and
{AS, 2D, 3C, 4H}; {2H, 3C, 4D}, {AC, 2D, 3S}, {2S, 3D, 4C} and {AD, 2C, 3H}.

Phase 1 (picking): the players alternately take one card from the table, p1 first. A picker
whose hand then holds a Gami wins at once. After 10 picks (five each) with no Gami, phase 2
begins with p1 to move.

Phase 2 (swapping): a turn is one swap of a hand card X for a related table card Y. X and Y are
related when they are of one suit with ranks 1 apart (no A-4 link), or of one rank and of
different colours, except that a heart and a spade never swap: the allowed suit pairs are
hearts-clubs, diamonds-clubs and diamonds-spades, for every rank. A mover whose hand then holds
a Gami wins. Otherwise the player now to move loses if they have no legal swap (p1 too, at
the start of phase 2); otherwise the third occurrence of the same position (both hands, the
table, the player to move) is a draw; otherwise the game is a draw once max_plies moves (picks
and swaps) have been played. A player may resign on their turn."""
    notation = """\
Cards are rank then suit (AH, 4S), read in any case.

  pick X       phase 1: take X from the table
  swap X>Y     phase 2: give X, take Y
  resign

Examples:
  p1: pick 2H   p2: pick AS   p1: pick 3C   p2: pick 2S   p1: pick 4D   (p1 wins: {2H, 3C, 4D})
  p1: swap 4C>4H"""
