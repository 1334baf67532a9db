"""Gami Plus: a dealt hand each and seven cards on the table; swap, claim on a new Gami."""

from __future__ import annotations

from typing import ClassVar

from gametool.games.gami.base import GamiGame, claim_option, max_plies_option
from gametool.games.gami.cards import Cards, Deck, Relations

SUITS = ("H", "C", "D")

COMBINATIONS: list[tuple[str, tuple[str, ...]]] = [
    *((f"A-2-3 {s}", (f"A{s}", f"2{s}", f"3{s}")) for s in SUITS),
    *((f"3-4-5 {s}", (f"3{s}", f"4{s}", f"5{s}")) for s in SUITS),
    *((f"5-6-7 {s}", (f"5{s}", f"6{s}", f"7{s}")) for s in SUITS),
    *((f"7-8-A {s}", (f"7{s}", f"8{s}", f"A{s}")) for s in SUITS),
    *((f"all {r}s", tuple(f"{r}{s}" for s in SUITS)) for r in "2468"),  # D3
    ("queen", ("AH", "5H", "QH")),
    ("queen", ("3H", "7H", "QH")),
]

CARDS = Cards(
    Deck(ranks=tuple("A2345678"), suits=SUITS, extras=("QH",)),
    # D1: even ranks swap club <-> heart or club <-> diamond; D2: the queen relates to odd hearts.
    Relations(wrap=True, even_ranks_only=True, suit_pairs=("HC", "DC"),
              queen="QH", queen_partners=("AH", "3H", "5H", "7H")),
    COMBINATIONS,
)


class GamiPlus(GamiGame):
    id = "gami-plus"
    name = "Gami Plus"
    chance = "deal"
    hidden = "none"
    cards = CARDS
    deals = (9, 9, 7)
    swap_gami = "claim"
    two_card_loss = True
    rule: ClassVar[dict[str, str]] = {"new": "D4", "one": "D5", "claim": "D6"}
    options = (claim_option(), max_plies_option("swaps"))
    max_plies = 201
    summary = """\
Two players, p1 and p2, and 25 cards: A 2 3 4 5 6 7 8 of hearts (H), clubs (C) and diamonds
(D), plus the queen of hearts QH. Hearts and diamonds are red, clubs black; there are no
spades. Chance deals 9 cards to each player and 7 face up on the table; every card is visible
to everyone at all times. A Gami held right after the deal earns nothing.

A turn is one swap: a card X of the mover's hand goes to the table and a related card Y of the
table comes into the hand. X and Y are related when they are numbered cards of one suit whose
ranks differ by 1, or the A and the 8 of one suit, or of the same even rank with one club and
one red card (hearts and diamonds never swap with each other), or the queen QH and one of AH,
3H, 5H, 7H. The queen relates to nothing else.

The Gami sets (18): A-2-3, 3-4-5, 5-6-7 and 7-8-A of one suit; the three cards of an even rank
(2, 4, 6 or 8); {AH, 5H, QH} and {3H, 7H, QH}. A swap forms a new Gami when the hand after it
holds a Gami set that includes Y, the card just taken (X no longer counts). Then the same move
claims one card of the opponent's hand into the mover's hand: exactly one claim however many
sets formed, chosen by the mover, compulsory unless claim=optional. A claimed card never earns
a claim itself.

After every move, for the player now to move: holding 2 cards or fewer loses; otherwise having
no legal swap loses (p1 included, right after the deal); otherwise the third occurrence of the
same position (both hands, the table, the player to move; the position after the deal counts)
is a draw; otherwise the game is a draw once max_plies swaps have been played. A player may
resign on their turn."""
    notation = """\
Cards are rank then suit (AH, 8C, QH), read in any case.

  deal p1: <9 cards> p2: <9 cards> table: <7 cards>    the chance deal
  deal p1: <9 cards>, then deal p2: <9 cards>          the deal typed hand by hand at a
                                                         table; the table gets the rest
  swap X>Y                                               give X, take Y
  swap X>Y claim Z                                       ... and claim Z from the opponent
  resign

Examples (the deal is one line in a record):
  chance: deal p1: AH 2H 4H 5C 6C 2D 5D 8D QH p2: 3H 6H 8H AC 3C 7C 3D 4D 6D
          table: 5H 7H 2C 4C 8C AD 7D
  p1: swap 4H>5H claim 3H
  p2: swap 8H>8C claim QH
  p1: swap 2D>AD"""
