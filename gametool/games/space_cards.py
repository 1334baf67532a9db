"""Space Cards: deal six cards from a fresh 53-card deck, trade up to twice, fill one category.

Cards are numbers 0..52 in run order (A, 2, ..., 7, K), suits H S C D U M T within a rank, so a
sorted tuple of card numbers is the canonical order of a hand, a trade or a draw. Chance deals
and draws by a seeded shuffle of the undealt cards; the state never holds a deck order, so no
view can show one before the cards are dealt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from gametool.core.chance import SeedRng
from gametool.core.engine import (
    CHANCE,
    RESIGN,
    Game,
    Option,
    Outcome,
    SeatResult,
    expect_word,
    seat_text,
)
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.core.tables import tabulate
from notation.errors import NotationError
from notation.fast import FastReader

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

SUITS = ("H", "S", "C", "D", "U", "M", "T")
SUIT_NAMES = ("hearts", "spades", "clubs", "diamonds", "suns", "moons", "stars")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "K")

# The deck in run order: every suit for A..7, then the four kings (no king of U, M, T).
DECK: tuple[tuple[str, int], ...] = tuple(
    (rank, suit) for rank in RANKS for suit in range(7 if rank != "K" else 4))
CARD_TEXT = tuple(f"{rank}{SUITS[suit]}" for rank, suit in DECK)
CARD_ID = {text: index for index, text in enumerate(CARD_TEXT)}
SUIT_OF = tuple(suit for _rank, suit in DECK)
VALUE = tuple(10 if rank == "K" else 1 if rank == "A" else int(rank) for rank, _ in DECK)
POSITION = tuple(RANKS.index(rank) + 1 for rank, _ in DECK)  # A = 1 ... 7 = 7, K = 8 (D5)
HAND_SIZE = 6
TURNS = 15

CATEGORIES = ("hearts", "spades", "clubs", "diamonds", "suns", "moons", "stars", "red", "black",
              "astronomy", "sevenplus", "run4", "run5", "run6", "luck")
CATEGORY_NAMES = ("Hearts", "Spades", "Clubs", "Diamonds", "Suns", "Moons", "Stars", "Red",
                  "Black", "Astronomy", "Seven Plus", "Run of Four", "Run of Five", "Run of Six",
                  "Luck")


def _longest(mask: int) -> int:
    best = length = 0
    for bit in range(1, 9):
        length = length + 1 if mask >> bit & 1 else 0
        best = max(best, length)
    return best


LONGEST = tuple(_longest(mask) for mask in range(1 << 9))
"""The longest run of consecutive run positions (bits 1..8) in a position mask."""

TRADE_SIZES = range(1, HAND_SIZE + 1)
"""A trade names 1 to 6 cards of the hand (D2)."""


def category_scores(hand: Sequence[int]) -> tuple[int, ...]:
    """What the hand scores in each of the 15 categories, in table order."""
    sums = [0] * 7
    masks = [0] * 7
    every = 0
    for c in hand:
        suit = SUIT_OF[c]
        sums[suit] += VALUE[c]
        bit = 1 << POSITION[c]
        masks[suit] |= bit
        every |= bit
    # D6: a run needs distinct consecutive positions; tiers are checked from the top.
    any_run = LONGEST[every]
    suited = max(LONGEST[m] for m in masks)
    h, s, c, d, u, m, t = sums
    return (h, s, c, d, u, m, t, h + d, c + s, u + m + t,
            5 * sum(1 for x in sums if x >= 7),  # D7: all seven suits
            15 if suited >= 4 else 4 if any_run >= 4 else 0,
            20 if suited >= 5 else 5 if any_run >= 5 else 0,
            30 if suited >= 6 else 6 if any_run >= 6 else 0,
            sum(sums))


def cards_text(cards: Sequence[int]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards)


# -- notation ---------------------------------------------------------------------------------


@cache
def _grammars():  # noqa: ANN202 (pyparsing elements, built on first need)
    """(an action, a card): the full grammars, for the spellings the fast readers do not take.
    An action's card words are read one by one with the card grammar (see read_card)."""
    import pyparsing as pp

    from notation.tokens import card, keyword

    cards = pp.Group(pp.ZeroOrMore(pp.Word(pp.alphanums).set_name("card")))("cards")
    count = pp.Word(pp.nums).set_name("count")
    count.set_parse_action(lambda t: int(t[0]))
    listed = count("count") - pp.Suppress(pp.Literal(":").set_name("':'")) - cards
    action = (
        (keyword("deal")("kind") - listed)
        | (keyword("draw")("kind") - listed)
        | (keyword("trade")("kind") - cards)
        | (keyword("score")("kind") - pp.Word(pp.alphanums).set_name("category")("category"))
    ).set_name("Space Cards action")
    return action, card(SUITS)

Tokens = tuple[str, int | None, tuple[str, ...], str | None]
"""What an action reads as: its kind, count, card words and category (absent ones None)."""

_FAST_CARD = r"(?:[A2-7][HSCDUMT]|K[HSCD])"
_FAST_CARDS = rf"({_FAST_CARD}(?: {_FAST_CARD}){{0,5}})"
_FAST_ACTION = re.compile(rf"(deal|draw) ([1-6]): {_FAST_CARDS}|trade {_FAST_CARDS}"
                          rf"|score ({'|'.join(CATEGORIES)})")


def _fast_action(text: str) -> Tokens | None:
    """The tokens of an action written as the tool writes it (cards of the deck in upper case,
    one blank between words), read without the grammar, exactly as the grammar reads them; None
    for any other spelling, which the grammar reads (and explains)."""
    match = _FAST_ACTION.fullmatch(text)
    if match is None:
        return None
    kind, count, listed, traded, category = match.groups()
    if kind:
        return kind, int(count), tuple(listed.split(" ")), None
    if traded:
        return "trade", None, tuple(traded.split(" ")), None
    return "score", None, (), category


def _from_tokens(parsed: Any, _text: str) -> Tokens:
    """An action read by the grammar, as ``_fast_action`` gives it."""
    kind = parsed["kind"]
    if kind == "score":
        return kind, None, (), parsed["category"]
    return kind, parsed.get("count"), tuple(parsed["cards"]), None


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: expected deal 6: CARDS, trade "
                           f"CARDS, draw N: CARDS or score CATEGORY ({exc.message})")


_read = FastReader(_fast_action, lambda: _grammars()[0], _from_tokens, _refused)
"""The tokens of an action: (kind, count, card words, category)."""


def _grammar_action(text: str) -> Tokens:
    """The tokens of an action read by the full grammar; NotationError if it is not one."""
    return _from_tokens(_read.grammar_reads(text), text)


@lru_cache(maxsize=512)
def read_card(word: str) -> str:
    """The card written ``word`` in canonical text; NotationError if it is not a card at all."""
    if word in CARD_ID:  # as the tool writes it
        return word
    from notation.tokens import parse_whole

    return str(parse_whole(_grammars()[1], word)[0])


DEAL, PLAY, DRAW, OVER = range(4)


@dataclass(frozen=True)
class SpaceState:
    """Score cards (None = open box), whose turn and where in it, and the cards of the turn."""

    cards: tuple[tuple[int | None, ...], ...]
    seat: int = 0
    phase: int = DEAL
    hand: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()
    trades: int = 0
    resigned: tuple[int, ...] = ()

    @property
    def pending(self) -> int:
        """Cards to be drawn after a trade."""
        return HAND_SIZE - len(self.hand) if self.phase == DRAW else 0


class SpaceCards(Game[SpaceState, Any]):
    """Space Cards for 1 to 4 players, each filling 15 categories in 15 turns."""

    id = "space-cards"
    name = "Space Cards"
    min_players = 1
    max_players = 4
    default_players = 2
    names_seats = True
    names_seats_in_actions = False
    chance = "shuffles"
    hidden = "deck order"
    options = (Option("trades", "2", ("0", "1", "2"),
                      help="trades allowed per turn (D1)"),)
    max_plies = TURNS * 4 * (2 + 2 * 2)
    summary = """\
A dice-less 'yacht' with cards. The deck has 53 cards: A 2 3 4 5 6 7 in seven suits - hearts H,
spades S, clubs C, diamonds D, suns U, moons M, stars T - plus the kings KH KS KC KD. Values:
A = 1, 2-7 face value, K = 10. Run positions: A = 1 ... 7 = 7, K = 8 (no wrap-around).

Each turn the whole deck is shuffled and chance deals the player to move 6 cards face up. The
player may trade up to twice (option trades, default 2): name 1 to 6 hand cards, which are set
aside for the rest of the turn, and chance deals as many replacements from the undealt cards.
Then the player fills one open category of their score card with what the six cards score
there (zero allowed), and the next seat plays. Categories: hearts, spades, clubs, diamonds,
suns, moons, stars (the value sum of that suit); red (H + D); black (C + S); astronomy
(U + M + T); sevenplus (5 per suit whose sum is at least 7); run4 (15 for a same-suited run of
4, else 4 for any run of 4); run5 (20, else 5); run6 (30 if the six cards are a same-suited
run, else 6 if they are a run); luck (the sum of all six values). A run is cards of distinct,
consecutive run positions.

After 15 turns each the highest total wins; players tied for it share the win. Everything
dealt is public; only the order of the undealt cards is unknown. 'resign' puts the player last
and the others play on (with one player left, the game ends)."""
    notation = """\
deal 6: AH 3M 5U 6U 7U KD       chance deals the hand (cards in any order)
trade AH 3M                     set 1 to 6 hand cards aside
draw 2: 4U 2T                   chance deals the replacements (count = cards traded)
score run4                      fill a category: hearts spades clubs diamonds suns moons stars
                                red black astronomy sevenplus run4 run5 run6 luck
resign
Cards are rank then suit (A 2-7 in H S C D U M T; K in H S C D), read in any case, written
upper case in run order."""

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.trade_limit = int(self.settings["trades"])

    # -- the rules ------------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> SpaceState:
        return SpaceState(cards=((None,) * len(CATEGORIES),) * nseats)

    def to_move(self, state: SpaceState) -> int | None:
        phase = state.phase
        if phase == PLAY:
            return state.seat
        return None if phase == OVER else CHANCE

    def legal_actions(self, state: SpaceState) -> list[Any]:
        if state.phase != PLAY:
            return []
        actions: list[Any] = [("score", k) for k, box in enumerate(state.cards[state.seat])
                              if box is None]
        if state.trades < self.trade_limit:  # D1
            # D2: every 1- to 6-card subset of the sorted hand, each a sorted tuple.
            hand = state.hand
            for size in TRADE_SIZES:
                actions += [("trade", cards) for cards in combinations(hand, size)]
        return actions

    def sample_chance(self, state: SpaceState, rng: SeedRng) -> Any:
        """The first cards of a seeded shuffle of the undealt cards (D3: a fresh deck a turn)."""
        if state.phase == DEAL:
            kind, count, pool = "deal", HAND_SIZE, list(range(len(DECK)))
        else:
            used = set(state.hand) | set(state.aside)
            kind, count, pool = "draw", state.pending, [c for c in range(len(DECK))
                                                        if c not in used]
        size = len(pool)
        for i in range(count):  # partial Fisher-Yates: the top of a shuffled deck
            j = i + rng.randbelow(size - i)
            pool[i], pool[j] = pool[j], pool[i]
        return (kind, tuple(sorted(pool[:count])))

    def apply(self, state: SpaceState, action: Any) -> SpaceState:
        if action == RESIGN:
            return self._next_turn(state, state.cards, (*state.resigned, state.seat))
        kind, arg = action
        if kind == "deal":
            return SpaceState(state.cards, state.seat, PLAY, arg, (), 0, state.resigned)
        if kind == "draw":
            return SpaceState(state.cards, state.seat, PLAY, tuple(sorted(state.hand + arg)),
                              state.aside, state.trades, state.resigned)
        if kind == "trade":
            # D2: traded cards stay aside for the rest of the turn.
            return SpaceState(state.cards, state.seat, DRAW,
                              tuple(c for c in state.hand if c not in arg),
                              tuple(sorted(state.aside + arg)), state.trades + 1, state.resigned)
        seat = state.seat
        box = list(state.cards[seat])
        box[arg] = category_scores(state.hand)[arg]  # D4: one category a turn, zero allowed
        cards = state.cards[:seat] + (tuple(box),) + state.cards[seat + 1:]
        return self._next_turn(state, cards, state.resigned)

    def _next_turn(self, state: SpaceState, cards: tuple[tuple[int | None, ...], ...],
                   resigned: tuple[int, ...]) -> SpaceState:
        """The next active seat with open boxes deals (D8), or the game is over."""
        nseats = len(cards)
        active = nseats - len(resigned)
        # D11: the others play on, while there is someone left to play against.
        if active >= min(2, nseats):
            for step in range(1, nseats + 1):
                seat = (state.seat + step) % nseats
                if seat not in resigned and None in cards[seat]:
                    return SpaceState(cards, seat, DEAL, (), (), 0, resigned)
        return SpaceState(cards, state.seat, OVER, (), (), 0, resigned)

    def outcome(self, state: SpaceState) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals = self.scores(state)
        active = [i for i in range(len(totals)) if i not in state.resigned]
        finished = bool(active) and all(None not in state.cards[i] for i in active)
        termination = "all categories filled" if finished else "resignation"
        best = max((totals[i] for i in active), default=None)
        results = []
        for i, total in enumerate(totals):
            if i in state.resigned:  # D11: last whatever the total
                results.append(SeatResult("loss", len(active) + 1, total))
            else:  # D9: ties for the best total share the win
                rank = 1 + sum(1 for j in active if totals[j] > total)
                results.append(SeatResult("win" if total == best else "loss", rank, total))
        return Outcome(termination, tuple(results))

    def scores(self, state: SpaceState) -> list[int | float]:
        return [sum(box for box in card if box is not None) for card in state.cards]

    # -- notation -------------------------------------------------------------------------------

    def parse_action(self, state: SpaceState, text: str) -> Any:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver(f"{text.strip()!r}: the game is over (every player has scored "
                           "15 turns or resigned)")
        if expect_word(text, (RESIGN,)):
            if seat == CHANCE:
                raise IllegalAction(f"'resign': chance is to {self._chance_verb(state)}")
            return RESIGN
        kind, count, words, category = _read(text)
        if category is not None:
            return self._parse_score(state, text, category.lower())
        cards = self._card_ids(text, words)
        if kind == "trade":
            return self._parse_trade(state, text, cards)
        return self._parse_chance(state, text, kind, count, cards)

    def _chance_verb(self, state: SpaceState) -> str:
        return "deal" if state.phase == DEAL else f"draw {state.pending}"

    @staticmethod
    def _card_ids(text: str, words: Any) -> list[int]:
        ids = []
        for word in words:
            try:
                name = read_card(word)
            except NotationError as exc:
                raise MalformedAction(f"malformed action {text.strip()!r}: {word!r} is not a "
                                      f"card such as AH, 7T or KD ({exc.message})") from None
            if name not in CARD_ID:
                raise IllegalAction(f"{text.strip()!r}: {name} is not in the Space Cards deck "
                                    "(A-7 of H S C D U M T, kings of H S C D only)")
            ids.append(CARD_ID[name])
        if len(set(ids)) != len(ids):
            repeated = next(CARD_TEXT[c] for c in ids if ids.count(c) > 1)
            raise IllegalAction(f"{text.strip()!r}: {repeated} is listed twice")
        return ids

    def _parse_score(self, state: SpaceState, text: str, name: str) -> Any:
        if name not in CATEGORIES:
            raise MalformedAction(f"malformed action {text.strip()!r}: no category {name!r} "
                                  f"(categories: {' '.join(CATEGORIES)})")
        if state.phase != PLAY:
            raise IllegalAction(f"{text.strip()!r}: chance is to {self._chance_verb(state)}")
        k = CATEGORIES.index(name)
        if state.cards[state.seat][k] is not None:
            raise IllegalAction(f"{text.strip()!r}: {name} is already filled with "
                                f"{state.cards[state.seat][k]} (each category once, D4)")
        return ("score", k)

    def _parse_trade(self, state: SpaceState, text: str, cards: list[int]) -> Any:
        if state.phase != PLAY:
            raise IllegalAction(f"{text.strip()!r}: chance is to {self._chance_verb(state)}")
        if state.trades >= self.trade_limit:
            raise IllegalAction(f"{text.strip()!r}: no trade left this turn "
                                f"(trades={self.trade_limit}, D1)")
        if not cards:
            raise IllegalAction(f"{text.strip()!r}: a trade names 1 to 6 cards of the hand (D2)")
        missing = [CARD_TEXT[c] for c in cards if c not in state.hand]
        if missing:
            raise IllegalAction(f"{text.strip()!r}: {missing[0]} is not in the hand "
                                f"({cards_text(state.hand)})")
        return ("trade", tuple(sorted(cards)))

    def _parse_chance(self, state: SpaceState, text: str, kind: str, count: int,
                      cards: list[int]) -> Any:
        if state.phase == PLAY:
            raise IllegalAction(f"{text.strip()!r}: {kind} is an action of chance, and "
                                "a player is to move")
        expected = "deal" if state.phase == DEAL else "draw"
        if kind != expected:
            raise IllegalAction(f"{text.strip()!r}: chance is to {self._chance_verb(state)}")
        wanted = HAND_SIZE if kind == "deal" else state.pending
        if count != wanted:
            raise IllegalAction(f"{text.strip()!r}: chance is to {kind} {wanted} cards, "
                                f"not {count}")
        if len(cards) != count:
            raise IllegalAction(f"{text.strip()!r}: {count} cards announced, "
                                f"{len(cards)} listed")
        for c in cards:
            if c in state.aside:
                raise IllegalAction(f"{text.strip()!r}: {CARD_TEXT[c]} was set aside this turn "
                                    "and cannot come back (D2)")
            if c in state.hand:
                raise IllegalAction(f"{text.strip()!r}: {CARD_TEXT[c]} is already in the hand")
        return (kind, tuple(sorted(cards)))

    def format_action(self, state: SpaceState, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        kind, arg = action
        if kind == "score":
            return f"score {CATEGORIES[arg]}"
        if kind == "trade":
            return f"trade {cards_text(arg)}"
        return f"{kind} {len(arg)}: {cards_text(arg)}"

    def describe_action(self, state: SpaceState, action: Any) -> str | None:
        if action != RESIGN and action[0] == "score":
            k = action[1]
            return f"{CATEGORIES[k]} scores {category_scores(state.hand)[k]}"
        return None

    # -- views (D10: everything dealt is public; the deck order is never stored) ---------------

    def view(self, state: SpaceState, seat: int | None) -> dict[str, Any]:
        used = len(state.hand) + len(state.aside)
        data: dict[str, Any] = {
            "turn_of": None if state.phase == OVER else seat_text(state.seat),
            "phase": ("deal", "play", "draw", "over")[state.phase],
            "hand": [CARD_TEXT[c] for c in state.hand],
            "set_aside": [CARD_TEXT[c] for c in state.aside],
            "trades_left": self.trade_limit - state.trades if state.phase != OVER else 0,
            "to_draw": state.pending,
            "undealt": len(DECK) - used,
            "resigned": [seat_text(i) for i in state.resigned],
            "score_cards": {seat_text(i): dict(zip(CATEGORIES, card, strict=True))
                            for i, card in enumerate(state.cards)},
            "totals": {seat_text(i): total for i, total in enumerate(self.scores(state))},
        }
        if state.phase == PLAY:
            now = category_scores(state.hand)
            data["would_score"] = {CATEGORIES[k]: now[k]
                                   for k, box in enumerate(state.cards[state.seat])
                                   if box is None}
        return data

    def diagram(self, state: SpaceState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The hand, the cards set aside and the undealt deck (backs), then the score cards."""
        from gametool.core.diagram import Card, Diagram, Note, Panel, Row, back, playing_card

        view = self.view(state, seat)
        signs = {"U": "\u263c", "M": "\u263e", "T": "\u2605"}

        def face(text: str) -> Card:
            card = playing_card(text)
            if text[-1] in signs:
                return Card(card.label, "blue", symbol=signs[text[-1]], name=text)
            return card

        parts: list[Any] = []
        if view["turn_of"] is not None:
            parts.append(Note((self._turn_line(state, names),)))
            parts.append(Row(f"hand of {names[state.seat]}",
                             tuple(face(c) for c in view["hand"]),
                             "to be dealt" if view["phase"] == "deal" else ""))
            if view["set_aside"]:
                parts.append(Row("set aside", tuple(face(c) for c in view["set_aside"])))
        parts.append(Row("deck", (back(view["undealt"]),) if view["undealt"] else (),
                         f"{view['undealt']} cards, order unknown"))
        cards = view["score_cards"].values()  # in seat order
        rows = tuple((category, *("-" if card[category] is None else str(card[category])
                                  for card in cards))
                     for category in CATEGORIES)
        totals = ("total", *(str(t) for t in view["totals"].values()))
        parts.append(Panel(("category", *names), (*rows, totals), "score cards (- open)"))
        return Diagram(tuple(parts))

    scores_in_render = True  # the score sheet ends with the totals

    def _turn_line(self, state: SpaceState, names: Sequence[str]) -> str:
        """Whose turn, which of the seat's turns, and the trades left."""
        turn = sum(1 for box in state.cards[state.seat] if box is not None) + 1
        return (f"turn {turn} of {TURNS} for {names[state.seat]}; trades left: "
                f"{self.trade_limit - state.trades}")

    def render(self, state: SpaceState, seat: int | None, names: Sequence[str]) -> str:
        lines = []
        if state.phase != OVER:
            lines.append(self._turn_line(state, names))
            if state.phase == DEAL:
                lines.append("hand: (to be dealt)")
            else:
                lines.append(f"hand: {cards_text(state.hand) or '-'}"
                             + (f"  (drawing {state.pending})" if state.phase == DRAW else ""))
            if state.aside:
                lines.append(f"set aside: {cards_text(state.aside)}")
            lines.append("")
        now = (category_scores(state.hand) if state.phase == PLAY else None)
        headers = ["category", *(f"{name} (resigned)" if i in state.resigned else name
                                 for i, name in enumerate(names))]
        if now is not None:
            headers.append(f"now ({names[state.seat]})")
        rows: list[list[Any]] = []
        for k, label in enumerate(CATEGORIES):
            row: list[Any] = [label, *("-" if card[k] is None else card[k]
                                       for card in state.cards)]
            if now is not None:
                row.append(now[k] if state.cards[state.seat][k] is None else "")
            rows.append(row)
        rows.append(["total", *self.scores(state), *([""] if now is not None else [])])
        lines.append(tabulate(rows, headers=headers, tablefmt="simple",
                              colalign=("left", *["right"] * (len(headers) - 1))))
        lines.append("(- is an open category)")
        return "\n".join(lines) + "\n"
