"""The vocabulary shared by the Gami games: cards, colours, swap relations, Gami combinations.

A game declares its deck, its relations and its combinations as data (:class:`Relations`,
:class:`Deck`); :class:`Cards` turns them into the precomputed tables the engine uses. Cards are
numbered in deck order and a set of cards (a hand, the table, a Gami) is a bit mask of them, so
that "holds a Gami" is one ``&`` per combination.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RED_SUITS = frozenset("HD")
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}


def colour(suit: str) -> str:
    return "red" if suit in RED_SUITS else "black"


@dataclass(frozen=True)
class Relations:
    """Which two cards may be swapped for each other (the relation is symmetric).

    - numbered cards of one suit whose ranks differ by 1;
    - with ``wrap``, the ace and the top rank of one suit;
    - cards of one rank (even ranks only when ``even_ranks_only``) whose two suits form one of
      ``suit_pairs`` (each pair written as two suit letters, e.g. ``"HC"``);
    - the ``queen`` card and each of its ``queen_partners``.
    """

    wrap: bool
    even_ranks_only: bool
    suit_pairs: tuple[str, ...]
    queen: str | None = None
    queen_partners: tuple[str, ...] = ()

    def allows_pair(self, a: str, b: str) -> bool:
        return f"{a}{b}" in self.suit_pairs or f"{b}{a}" in self.suit_pairs


@dataclass(frozen=True)
class Deck:
    """The numbered cards (every rank in every suit, in suit order) plus named extra cards."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    extras: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        return tuple(f"{r}{s}" for s in self.suits for r in self.ranks) + self.extras


class Cards:
    """A deck with its relation and combinations, precomputed as bit masks.

    ``related[i]`` is the mask of the cards card ``i`` may be swapped with; ``combos`` the masks
    of the Gami sets; ``combos_with[i]`` the Gami sets that contain card ``i``.
    """

    def __init__(self, deck: Deck, relations: Relations,
                 combinations: Sequence[tuple[str, Sequence[str]]]) -> None:
        self.deck = deck
        self.relations = relations
        self.names: tuple[str, ...] = deck.names()
        self.count = len(self.names)
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.full = (1 << self.count) - 1
        self.related: tuple[int, ...] = tuple(
            sum(1 << j for j, other in enumerate(self.names) if self.is_related(name, other))
            for name in self.names
        )
        self.kinds: tuple[str, ...] = tuple(kind for kind, _ in combinations)
        self.combos: tuple[int, ...] = tuple(self.mask(cards) for _, cards in combinations)
        self.set_names: dict[int, tuple[str, ...]] = {
            self.mask(cards): tuple(cards) for _, cards in combinations}
        self.combos_with: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in self.combos if c >> i & 1) for i in range(self.count)
        )

    # -- cards and masks ------------------------------------------------------------------------

    def mask(self, cards: Iterable[str]) -> int:
        """The mask of some cards given by name; KeyError for a card not in the deck."""
        out = 0
        for name in cards:
            out |= 1 << self.index[name.strip().upper()]
        return out

    def cards(self, mask: int) -> list[str]:
        """The names of the cards in a mask, in deck order."""
        return [name for i, name in enumerate(self.names) if mask >> i & 1]

    def text(self, mask: int) -> str:
        return " ".join(self.cards(mask))

    def rank_of(self, name: str) -> int | None:
        """A numbered card's rank (A = 1); None for an extra card such as the queen."""
        if name in self.deck.extras:
            return None
        return self.deck.ranks.index(name[:-1]) + 1

    # -- the swap relation ----------------------------------------------------------------------

    def is_related(self, x: str, y: str) -> bool:
        return x != y and self.why_not(x, y) is None

    def why_not(self, x: str, y: str) -> str | None:
        """None when X and Y may be swapped, else the reason they may not (quoting the rule)."""
        rel = self.relations
        if x == y:
            return "a card cannot be swapped for itself"
        if rel.queen in (x, y):
            other = y if x == rel.queen else x
            if other in rel.queen_partners:
                return None
            return (f"{rel.queen} relates only to {', '.join(rel.queen_partners)}, "
                    f"not to {other}")
        rx, ry = self.rank_of(x), self.rank_of(y)
        sx, sy = x[-1], y[-1]
        top = len(self.deck.ranks)
        if rx is None or ry is None:
            return f"{x} and {y} are not related"
        if sx == sy:
            if abs(rx - ry) == 1:
                return None
            if rel.wrap and {rx, ry} == {1, top}:
                return None
            link = (f", nor A and {self.deck.ranks[-1]}" if rel.wrap
                    else f" (there is no A-{self.deck.ranks[-1]} link)")
            return f"{x} and {y}: same suit but ranks not 1 apart{link}"
        if rx == ry:
            if rel.even_ranks_only and rx % 2:
                return f"{x} and {y}: only even ranks swap across suits"
            if rel.allows_pair(sx, sy):
                return None
            if colour(sx) == colour(sy):
                return f"{x} and {y} are the same colour ({colour(sx)})"
            return f"{x} and {y}: {SUIT_NAMES[sx]} and {SUIT_NAMES[sy]} are never swapped"
        return f"{x} and {y} differ in both suit and rank"

    # -- Gami -----------------------------------------------------------------------------------

    def formed(self, hand: int, taken: int) -> bool:
        """Whether ``hand`` holds a Gami set that includes card ``taken`` (a new Gami)."""
        for combo in self.combos_with[taken]:
            if hand & combo == combo:
                return True
        return False

    def held(self, hand: int) -> list[int]:
        """Every Gami set ``hand`` holds."""
        return [combo for combo in self.combos if hand & combo == combo]

    def formed_sets(self, hand: int, taken: int) -> list[int]:
        return [combo for combo in self.combos_with[taken] if hand & combo == combo]

    def can_swap(self, hand: int, table: int) -> bool:
        """Whether some card of ``hand`` is related to some card of ``table`` (a legal swap)."""
        related = self.related
        while table:
            low = table & -table
            if related[low.bit_length() - 1] & hand:
                return True
            table ^= low
        return False

    def set_cards(self, combo: int) -> list[str]:
        """The cards of a Gami set in the order the rules write them."""
        return list(self.set_names.get(combo) or self.cards(combo))

    def set_text(self, combo: int) -> str:
        return "{" + ", ".join(self.set_cards(combo)) + "}"
