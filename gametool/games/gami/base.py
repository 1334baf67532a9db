"""The rules shared by the Gami games: turn order, moves, end checks.

Each game declares its cards (:class:`~gametool.games.gami.cards.Cards`) and its flow as class
data: whether chance deals (Gami Plus), how many picks phase 1 has and what a Gami formed by a
pick does (win or return a card), what a Gami formed by a swap does (win or claim a card), and
whether holding two cards or fewer loses. Notation and display come from
:class:`~gametool.games.gami.notation.GamiText`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN, Game, Option, Outcome
from gametool.games.gami.cards import Cards
from gametool.games.gami.state import NONE, Action, GamiState, mask_of
from gametool.games.gami.notation import GamiText


def claim_option() -> Option:
    return Option("claim", "required", ("required", "optional"),
                  help="whether a swap forming a new Gami must claim an opponent's card")


def max_plies_option(what: str) -> Option:
    return Option("max_plies", "200", kind=int, minimum=1, help=f"draw after this many {what}")


class GamiGame(GamiText, Game[GamiState, Action]):
    """The rules common to Gami Plus, Gami: Four and Gami: Seven, driven by class data."""

    seat_names = ("p1", "p2")
    draws = True
    names_seats = True  # deals and messages write p1, p2 (the record's names are shown)
    notation_words = frozenset("deal table swap claim pick return resign".split())
    notation_tokens = r"(a|10|[2-9]|j|q|k)[hdcs]|[0-9]+"
    cards: ClassVar[Cards]
    deals: ClassVar[tuple[int, int, int]] = (0, 0, 0)
    """Cards dealt to p1, p2 and the table by chance; all zero when nothing is dealt."""
    total_picks: ClassVar[int] = 0
    pick_gami: ClassVar[str] = ""
    """What a Gami formed by a pick does: "win" or "return" (an opponent card to the table)."""
    swap_gami: ClassVar[str] = "claim"
    """What a Gami formed by a swap does: "win" or "claim" (an opponent card into the hand)."""
    two_card_loss: ClassVar[bool] = False
    rule: ClassVar[dict[str, str]] = {}
    """Decision numbers quoted by error messages: new (Gami), one (claim), claim, return."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.limit: int = self.settings["max_plies"]
        self.claim_required: bool = self.settings.get("claim", "required") == "required"
        # The conformance bound counts every record ply, the chance deal included (two plies
        # when it is typed hand by hand).
        self.max_plies = self.limit + (2 if any(self.deals) else 0)  # type: ignore[misc]

    # -- positions ------------------------------------------------------------------------------

    def key(self, hands: tuple[int, int], seat: int) -> int:
        """The repetition key: both hands and the seat to move (the table is the rest)."""
        n = self.cards.count
        return hands[0] | hands[1] << n | seat << 2 * n

    def phase(self, state: GamiState) -> str:
        if state.result is not None:
            return "over"
        if state.seat == CHANCE:
            return "deal"
        return "picking" if state.picks < self.total_picks else "swapping"

    def initial_state(self, nseats: int) -> GamiState:
        if any(self.deals):
            return GamiState((0, 0), 0, CHANCE, 0, 0, (), None)
        return self.settle(GamiState((0, 0), self.cards.full, 0, 0, 0, (), None), "start")

    def position(self, p1: Sequence[str] | str, p2: Sequence[str] | str,
                 table: Sequence[str] | str | None = None, to_move: int = 0,
                 picks: int | None = None, plies: int | None = None) -> GamiState:
        """A set-up position from card names (the table defaults to every other card).

        It starts the repetition count afresh and applies the turn-start checks, so a position
        in which the player to move has already lost is returned as finished.
        """
        c = self.cards

        def mask(cards: Sequence[str] | str) -> int:
            names = cards.split() if isinstance(cards, str) else list(cards)
            unknown = [n for n in names if n.strip().upper() not in c.index]
            if unknown or len(set(names)) != len(names):
                raise ValueError(f"not cards of {self.name}, or repeated: {names}")
            return c.mask(names)

        hands = (mask(p1), mask(p2))
        rest = c.full & ~(hands[0] | hands[1])
        if hands[0] & hands[1] or (table is not None and mask(table) != rest):
            raise ValueError("every card must be in exactly one hand or on the table")
        picks = self.total_picks if picks is None else picks
        plies = picks if plies is None else plies
        state = GamiState(hands, rest, to_move, picks, plies, (), None)
        return self.settle(state, "start" if picks < self.total_picks else "phase")

    # -- turn order and the end of the game -----------------------------------------------------

    def to_move(self, state: GamiState) -> int | None:
        return None if state.result is not None else state.seat

    def settle(self, state: GamiState, event: str) -> GamiState:
        """Apply the end checks that follow a move; ``event`` says what just happened.

        "pick" and "start" (picking goes on), "phase" (the swapping phase begins: after the deal
        or the last pick), "swap".
        """
        seat = state.seat
        if event == "phase":
            state = state._replace(history=(self.key(state.hands, seat),))
            if self.two_card_loss and self.total_picks:
                # D7 (Seven): after the last pick both hands are checked at once.
                short = [h.bit_count() <= 2 for h in state.hands]
                if all(short):
                    return state._replace(result=("two cards", -1))
                if any(short):
                    return state._replace(result=("two cards", 1 - short.index(True)))
        elif event == "swap":
            state = state._replace(history=(*state.history, self.key(state.hands, seat)))
        if event in ("phase", "swap"):
            hand = state.hands[seat]
            if self.two_card_loss and hand.bit_count() <= 2:
                return state._replace(result=("two cards", 1 - seat))
            if not self.cards.can_swap(hand, state.table):
                return state._replace(result=("no swap", 1 - seat))
            if state.history.count(state.history[-1]) >= 3:
                return state._replace(result=("repetition", -1))
        if state.plies >= self.limit:
            return state._replace(result=("max plies", -1))
        return state

    def outcome(self, state: GamiState) -> Outcome | None:
        if state.result is None:
            return None
        termination, winner = state.result
        if winner < 0:
            return Outcome.draw(2, termination)
        return Outcome.win(2, winner, termination)

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, state: GamiState) -> list[Action]:
        if state.result is not None or state.seat == CHANCE:
            return []
        seat = state.seat
        hand, opp, table = state.hands[seat], state.hands[1 - seat], state.table
        cards = self.cards
        out: list[Action] = []
        if state.picks < self.total_picks:
            returns = self.pick_gami == "return"
            free = table
            while free:  # the table's cards, lowest first
                bit = free & -free
                free ^= bit
                y = bit.bit_length() - 1
                if returns and opp and cards.formed(hand | bit, y):
                    out.extend([("pick", y, r) for r in range(cards.count) if opp >> r & 1])
                else:
                    out.append(("pick", y, NONE))
            return out
        claims = self.swap_gami == "claim"
        related = cards.related
        victims: list[int] | None = None  # the opponent's cards, listed once when first needed
        gives = hand
        while gives:  # the hand's cards, lowest first
            bit = gives & -gives
            gives ^= bit
            x = bit.bit_length() - 1
            takes = related[x] & table
            base = hand ^ bit
            while takes:
                low = takes & -takes
                y = low.bit_length() - 1
                takes ^= low
                if claims and opp and cards.formed(base | low, y):
                    if not self.claim_required:
                        out.append(("swap", x, y, NONE))
                    if victims is None:
                        victims = [c for c in range(cards.count) if opp >> c & 1]
                    out.extend([("swap", x, y, c) for c in victims])
                else:
                    out.append(("swap", x, y, NONE))
        return out

    # -- chance ---------------------------------------------------------------------------------

    def sample_chance(self, state: GamiState, rng: SeedRng) -> Action:
        order = rng.shuffled(range(self.cards.count))
        a, b, _ = self.deals
        return ("deal", mask_of(order[:a]), mask_of(order[a:a + b]), mask_of(order[a + b:]))

    # -- applying -------------------------------------------------------------------------------

    def apply(self, state: GamiState, action: Action) -> GamiState:
        seat = state.seat
        if action == RESIGN:
            return state._replace(result=("resignation", 1 - seat))
        kind = action[0]
        if kind == "deal":
            dealt = state._replace(hands=(action[1], action[2]), table=action[3], seat=0)
            return self.settle(dealt, "phase")
        if kind == "hand":  # one hand of a deal typed at a table; the table gets what is left
            if action[1] == 0:
                return state._replace(hands=(action[2], 0))
            first = state.hands[0]
            rest = self.cards.full & ~(first | action[2])
            return self.settle(state._replace(hands=(first, action[2]), table=rest, seat=0),
                               "phase")
        hands = list(state.hands)
        table = state.table
        if kind == "pick":
            _, y, r = action
            hands[seat] |= 1 << y
            table ^= 1 << y
            if r != NONE:  # the returned card goes back to the table
                hands[1 - seat] ^= 1 << r
                table |= 1 << r
            picks = state.picks + 1
            after = GamiState((hands[0], hands[1]), table, 1 - seat, picks, state.plies + 1,
                              state.history, None)
            if self.pick_gami == "win" and self.cards.formed(hands[seat], y):
                return after._replace(result=("gami", seat))
            return self.settle(after, "phase" if picks == self.total_picks else "pick")
        _, x, y, c = action
        hands[seat] ^= 1 << x | 1 << y
        table ^= 1 << x | 1 << y
        if c != NONE:  # the claimed card joins the mover's hand
            hands[1 - seat] ^= 1 << c
            hands[seat] |= 1 << c
        after = GamiState((hands[0], hands[1]), table, 1 - seat, state.picks, state.plies + 1,
                          state.history, None)
        if self.swap_gami == "win" and self.cards.held(hands[seat]):
            return after._replace(result=("gami", seat))
        return self.settle(after, "swap")
