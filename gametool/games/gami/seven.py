"""Gami: Seven: seven picks each with returns on a new Gami, then swaps with claims."""

from __future__ import annotations

from typing import ClassVar

from gametool.games.gami.base import GamiGame, claim_option, max_plies_option
from gametool.games.gami.cards import Cards, Deck, Relations

SUITS = ("H", "D", "C")

COMBINATIONS: list[tuple[str, tuple[str, ...]]] = [
    *((f"A-2-3 {s}", (f"A{s}", f"2{s}", f"3{s}")) for s in SUITS),
    *((f"3-4-5 {s}", (f"3{s}", f"4{s}", f"5{s}")) for s in SUITS),
    *((f"5-6-A {s}", (f"5{s}", f"6{s}", f"A{s}")) for s in SUITS),
    *((f"all {r}s", tuple(f"{r}{s}" for s in SUITS)) for r in "246"),
]

CARDS = Cards(
    Deck(ranks=tuple("A23456"), suits=SUITS),
    # D1: even ranks swap club <-> heart or club <-> diamond, never heart <-> diamond.
    Relations(wrap=True, even_ranks_only=True, suit_pairs=("HC", "DC")),
    COMBINATIONS,
)


class GamiSeven(GamiGame):
    id = "gami-seven"
    name = "Gami: Seven"
    chance = ""
    hidden = ""
    cards = CARDS
    total_picks = 14  # D4: seven picks each, whatever returns happen
    pick_gami = "return"  # D5: compulsory
    swap_gami = "claim"  # D6
    two_card_loss = True  # D7: checked after the 14th pick, then in phase 2
    rule: ClassVar[dict[str, str]] = {"new": "D2", "one": "D3", "claim": "D6", "return": "D5"}
    options = (claim_option(), max_plies_option("moves (picks and swaps)"))
    max_plies = 200
    summary = """\
Two players, p1 and p2, and 18 cards: A 2 3 4 5 6 of hearts (H), diamonds (D) and clubs (C),
all face up on the table; hands start empty. Hearts and diamonds are red, clubs black; there
are no spades. Nothing is hidden and nothing is left to chance.

The Gami sets (12): A-2-3, 3-4-5 and 5-6-A of one suit; the three cards of an even rank (2, 4
or 6). A player forms a new Gami when, after receiving a card by a pick or a swap, their hand
holds a Gami set that includes that card (a card given away no longer counts; re-taking a card
that completes a set held before counts as new; a claimed card never forms one).

Phase 1 (picking): exactly 14 picks, alternating from p1. The picker takes one table card; if
that forms a new Gami, the same move returns one card of the opponent's hand to the table
(compulsory, exactly one, chosen by the picker). Returned cards may be picked again. After the
14th pick a player holding 2 cards or fewer loses (a draw if both do); otherwise phase 2 begins
with p1 to move.

Phase 2 (swapping): a turn is one swap of a hand card X for a related table card Y: one suit
with ranks 1 apart, or the A and the 6 of one suit, or one even rank with one club and one red
card (hearts and diamonds never swap with each other). A swap forming a new Gami claims one
card of the opponent's hand into the mover's hand (compulsory unless claim=optional; exactly
one). Before p1's first swap and after every swap, for the player now to move: holding 2 cards
or fewer loses; otherwise having no legal swap loses; otherwise the third occurrence of the
same phase-2 position (both hands, the table, the player to move) is a draw; otherwise the game
is a draw once max_plies moves (picks and swaps) have been played. A player may resign on their
turn."""
    notation = """\
Cards are rank then suit (AH, 6C), read in any case.

  pick X              phase 1: take X from the table
  pick X return Z     ... forming a new Gami: Z goes from the opponent's hand to the table
  swap X>Y            phase 2: give X, take Y
  swap X>Y claim Z    ... forming a new Gami: Z comes from the opponent's hand
  resign

Examples:
  p1: pick 3H return 4D
  p1: swap 4H>3H claim 2C"""
