"""Belemmer: two colour piles, a 4x4 grid, and stacks that capture by rank (rules/belemmer.md).

Cards are whole numbers 0-51: suit ``c // 13`` in the order H, D, C, S and rank ``c % 13`` from
the Ace (0) to the King (12). Red owns the hearts and diamonds, Black the clubs and spades. The
grid is a tuple of 16 stacks (square index ``4 * (rank - 1) + file``), each a tuple of cards from
bottom to top. A pile is a tuple of cards, top card first.

A game recorded at a real table (no seed) may reveal each pile card by card as it is turned up
(``reveal red KH``) instead of typing its whole order at once: the pile then holds only the cards
seen so far, and ``unseen`` counts the cards below them that nobody has seen yet. Whenever a pile's
top card is taken and an unseen card lies below, chance reveals the new top card before anyone acts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, REFEREE, RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from notation import values as tokens
from notation.errors import NotationError
from notation.fast import FastReader

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

RED, BLACK = 0, 1
COLOURS = ("red", "black")
SUITS = tokens.CARD_SUITS
RANKS = tokens.CARD_RANKS
CARD_NAMES = tuple(f"{RANKS[c % 13]}{SUITS[c // 13]}" for c in range(52))
CARD_INDEX = {name: c for c, name in enumerate(CARD_NAMES)}
CARD_COLOUR = tuple(RED if c // 13 < 2 else BLACK for c in range(52))
# D9: A = 1, 2-10 face value, J = Q = K = 10.
CARD_VALUE = tuple(min(c % 13 + 1, 10) for c in range(52))
PILE_CARDS = (tuple(range(26)), tuple(range(26, 52)))
PILE_SIZE = 26
SETUP_PLACEMENTS = 16
FILES = "abcd"
SQUARE_NAMES = tuple(f"{FILES[i % 4]}{i // 4 + 1}" for i in range(16))
NEIGHBOURS = tuple(
    tuple(j for j in range(16)
          if abs(i % 4 - j % 4) + abs(i // 4 - j // 4) == 1)
    for i in range(16)
)


def _rank_beats(x: int, y: int) -> bool:
    """D3: the beats relation on ranks 0 (Ace) to 12 (King)."""
    if x == 0:
        return y >= 10  # the Ace beats the faces only
    if x <= 9:
        return y < x  # 2-10 beat the Ace and smaller numbers
    return 1 <= y < x  # faces beat 2-10 and lower faces, never the Ace


RANK_BEATS = tuple(tuple(_rank_beats(x, y) for y in range(13)) for x in range(13))
BEATS = tuple(tuple(RANK_BEATS[x % 13][y % 13] for y in range(52)) for x in range(52))
# D4: CAPTURES[x][y]: a stack topped by x may land on one topped by y (opponent's and weaker).
CAPTURES = tuple(
    tuple(CARD_COLOUR[x] != CARD_COLOUR[y] and BEATS[x][y] for y in range(52)) for x in range(52)
)
# The move actions from each square, built once: (target, ("move", source, target)).
STEPS = tuple(tuple((j, ("move", i, j)) for j in NEIGHBOURS[i]) for i in range(16))

# ("place", sq) | ("move", from, to) | ("shuffle", colour, cards) | ("reveal", colour, card)
# | ("toss", 0 or 1) | RESIGN
Action = Any


def beats(x: str, y: str) -> bool:
    """Whether the card named ``x`` beats the card named ``y`` (D3)."""
    return BEATS[CARD_INDEX[x.upper()]][CARD_INDEX[y.upper()]]


@dataclass(frozen=True, slots=True)
class BelemmerState:
    """One position. ``turn`` is the seat to move, ``CHANCE`` or None once the game is over."""

    grid: tuple[tuple[int, ...], ...] = ((),) * 16
    piles: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    shuffled: int = 0
    placed: int = 0
    first: int | None = None
    moves: int = 0
    turn: int | None = CHANCE
    ending: str | None = None
    loser: int | None = None
    unseen: tuple[int, int] = (0, 0)
    """Cards of each pile not yet revealed (a pile revealed card by card)."""
    resume: int | None = None
    """While chance reveals a pile's new top card: the seat (or chance) to move after it."""

    def reveal_due(self) -> int | None:
        """The colour whose pile must show its next card before play goes on, if any."""
        if self.turn != CHANCE or self.shuffled < 2:
            return None
        for colour in (RED, BLACK):
            if not self.piles[colour] and self.unseen[colour]:
                return colour
        return None

    @property
    def phase(self) -> str:
        if self.turn is None:
            return "over"
        if self.shuffled < 2:
            return "shuffle"
        if self.placed < SETUP_PLACEMENTS:
            return "setup"
        if self.first is None:
            return "toss"
        return "play"


def stack_moves(grid: Sequence[tuple[int, ...]], seat: int) -> list[tuple[str, int, int]]:
    """D4: every capture of ``seat``: own-topped stack onto an adjacent weaker opponent top."""
    out = []
    for i in range(16):
        stack = grid[i]
        if stack:
            top = stack[-1]
            if CARD_COLOUR[top] == seat:
                row = CAPTURES[top]
                for j, action in STEPS[i]:
                    target = grid[j]
                    if target and row[target[-1]]:
                        out.append(action)
    return out


def has_move(grid: Sequence[tuple[int, ...]], seat: int) -> bool:
    """D6: whether ``seat`` has any capture at all."""
    for i in range(16):
        stack = grid[i]
        if stack:
            top = stack[-1]
            if CARD_COLOUR[top] == seat:
                row = CAPTURES[top]
                for j in NEIGHBOURS[i]:
                    target = grid[j]
                    if target and row[target[-1]]:
                        return True
    return False


def grid_scores(grid: Sequence[tuple[int, ...]], tops_only: bool) -> list[int]:
    """D8: the value of every stack topped by each colour (only its top card with ``tops``)."""
    totals = [0, 0]
    for stack in grid:
        if stack:
            owner = CARD_COLOUR[stack[-1]]
            totals[owner] += CARD_VALUE[stack[-1]] if tops_only else sum(
                CARD_VALUE[c] for c in stack)
    return totals


def _square_name(square: tokens.Square, text: str) -> int:
    if not (0 <= square.file < 4 and 1 <= square.rank <= 4):
        raise MalformedAction(
            f"malformed action {text.strip()!r}: no square {square} on the 4x4 grid "
            "(files a-d, ranks 1-4)")
    return 4 * (square.rank - 1) + square.file


# A shuffle as the tool writes it (26 cards for one pile), read by regular expressions.
_FAST_SHUFFLE = re.compile(r"\s*shuffle\s+(red|black)((?:\s+(?:10|[2-9AJQK])[HDCS])+)\s*",
                           re.IGNORECASE)
_CARD = re.compile(r"(10|[2-9AJQK])([HDCS])", re.IGNORECASE)
# The other actions as the tool writes them (and as the grammar reads them), one expression.
_FAST_OTHER = re.compile(r"\s*(?:place\s+(?P<p>[a-z][1-9][0-9]?)"
                         r"|(?P<f>[a-z][1-9][0-9]?)-(?P<t>[a-z][1-9][0-9]?)"
                         r"|reveal\s+(?P<rc>red|black)\s+(?P<card>(?:10|[2-9AJQK])[HDCS])"
                         r"|toss\s+(?P<side>heads|tails)|(?P<resign>resign))\s*", re.IGNORECASE)


def _square_token(name: str) -> tokens.Square:
    return tokens.Square(ord(name[0].lower()) - 97, int(name[1:]))


def _fast_words(text: str) -> list[Any] | None:
    """The tokens the grammar reads from a common spelling, without the grammar; else None."""
    match = _FAST_OTHER.fullmatch(text)
    if match is None:
        return None
    g = match.group
    if g("p"):
        return ["place", _square_token(g("p"))]
    if g("f"):
        return [_square_token(g("f")), _square_token(g("t"))]
    if g("rc"):
        card = g("card").upper()
        return ["reveal", g("rc").lower(), tokens.Card(card[:-1], card[-1])]
    if g("side"):
        return ["toss", g("side").lower()]
    return [RESIGN]


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: {exc.message}")


_read = FastReader(_fast_words, lambda: _grammar(), refuse=_refused)
"""The tokens of an action other than a whole pile's shuffle."""


@cache
def _grammar():  # noqa: ANN202 (a pyparsing element, loaded on first need)
    """The action grammar, built once from the shared tokens, for the spellings the fast
    readers do not take (it names the error)."""
    import pyparsing as pp

    from notation import tokens

    square = tokens.square()
    place = (tokens.keyword("place") - square).set_name("place")
    # A move is written without blanks: "d3-d4", never "d3 - d4".
    dash = pp.Literal("-").leave_whitespace().suppress()
    move = (square + dash - tokens.square().leave_whitespace()).set_name("move")
    colour = (tokens.keyword("red") | tokens.keyword("black")).set_name("colour")
    shuffle = (tokens.keyword("shuffle") - colour
               - pp.Group(pp.OneOrMore(tokens.card()))).set_name("shuffle")
    reveal = (tokens.keyword("reveal") - colour - tokens.card()).set_name("reveal")
    side = (tokens.keyword("heads") | tokens.keyword("tails")).set_name("heads or tails")
    toss = (tokens.keyword("toss") - side).set_name("toss")
    resign = tokens.keyword(RESIGN)
    return (place | shuffle | reveal | toss | resign | move).set_name("belemmer action")


SUMMARY = """\
Two players, Red and Black, each own half of a 52-card deck: Red the 26 hearts and diamonds,
Black the 26 clubs and spades. Each pile is shuffled and lies face up, so only its top card and
its size are known. The board is a 4x4 grid, files a-d and ranks 1-4.

Setup: Red first, the players alternately lay the top card of their own pile on any empty
square, 16 placements in all (18 cards stay in each pile). A coin toss then decides who moves
first: heads Red, tails Black.

A turn: move one of your stacks (a square whose top card is yours) onto an orthogonally adjacent
stack topped by an opponent card that your top card beats; the whole stack moves and stays in
order. Then refill the square you left with the top card of your own pile (it stays empty once
your pile is exhausted). The faces J < Q < K beat every 2-10; 2-10 beat smaller numbers and the
Ace; the Ace beats only the faces. Equal ranks never beat each other.

A player with no legal move at the start of a turn loses. Otherwise the game ends after the move
that empties the second pile (move 36) and is scored: each player adds the values (A = 1, 2-10
face value, J = Q = K = 10) of every card in the stacks topped by their colour; the higher score
wins, equal scores draw. Option score=tops counts only the top cards. Option
after_piles=play_on plays on with the piles empty (vacated squares stay empty) until a player is
blocked, who then loses, unless both are blocked, when the game is scored.
"""

NOTATION = """\
place b3                 setup: lay the top card of your own pile on the empty square b3
d3-d4                    move the stack on d3 onto the adjacent stack on d4 (a capture)
resign                   give up the game
shuffle red KH 3D ...    chance: the order of a pile, top card first, all 26 cards of the colour
reveal red KH            chance, at a real table: the card turned up on top of a pile, one at a
                         time (instead of the whole shuffle): first as the pile's top card,
                         then each time its top card is taken
toss heads               chance: heads Red moves first, tails Black

Squares are a1-d4 (a1 at Red's bottom left); cards are rank then suit (10H, QD, AS); any case
is accepted. The engine shows the cards involved, e.g. "d3-d4  (QD takes JS; refill 5H)".
"""


class Belemmer(Game[BelemmerState, Action]):
    """Belemmer (Kumberdak, 2005): obstruct the opponent on a 4x4 grid of card stacks."""

    id = "belemmer"
    name = "Belemmer"
    min_players = 2
    max_players = 2
    seat_names = COLOURS
    names_seats = True
    names_seats_in_actions = False
    chance = "shuffles, coin toss"
    hidden = "pile order"
    draws = True
    options: ClassVar[tuple[Option, ...]] = (
        Option("after_piles", "score", ("score", "play_on"),
               help="D7: score the game once both piles are empty, or play on"),
        Option("score", "stacks", ("stacks", "tops"),
               help="D8: count every card of the stacks a colour tops, or only the top cards"),
    )
    summary = SUMMARY
    notation = NOTATION
    # 52 reveals (or 2 shuffles) + 16 placements + toss + 36 moves + at most 15 moves with the
    # piles empty.
    max_plies = 120

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.tops_only: bool = self.settings["score"] == "tops"
        self.play_on: bool = self.settings["after_piles"] == "play_on"

    # -- turn order --------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> BelemmerState:
        return BelemmerState()

    def to_move(self, state: BelemmerState) -> int | None:
        return state.turn

    def legal_actions(self, state: BelemmerState) -> list[Action]:
        turn = state.turn
        if turn is None or turn == CHANCE:
            return []
        if state.placed < SETUP_PLACEMENTS:
            return [("place", i) for i in range(16) if not state.grid[i]]
        return stack_moves(state.grid, turn)

    def chance_outcomes(self, state: BelemmerState) -> list[Action] | None:
        colour = state.reveal_due()
        if colour is not None:
            return [("reveal", colour, c) for c in self._unseen_cards(state, colour)]
        if state.turn != CHANCE or state.shuffled < 2:
            return None  # 26! orders of a pile: too many to list
        return [("toss", 0), ("toss", 1)]

    def _unseen_cards(self, state: BelemmerState, colour: int) -> list[int]:
        """The cards of ``colour`` seen nowhere yet: neither on the grid nor in its pile."""
        seen = {c for stack in state.grid for c in stack} | set(state.piles[colour])
        return [c for c in PILE_CARDS[colour] if c not in seen]

    def sample_chance(self, state: BelemmerState, rng: SeedRng) -> Action:
        colour = state.reveal_due()
        if colour is not None:
            return ("reveal", colour, rng.choice(self._unseen_cards(state, colour)))
        if state.shuffled < 2:
            colour = state.shuffled  # red is shuffled first, then black
            return ("shuffle", colour, tuple(rng.shuffled(PILE_CARDS[colour])))
        return ("toss", rng.randbelow(2))

    # -- playing -----------------------------------------------------------------------------

    def apply(self, state: BelemmerState, action: Action) -> BelemmerState:
        if action == RESIGN:
            return replace(state, turn=None, ending="resignation", loser=state.turn)
        kind = action[0]
        if kind == "move":
            return self._move(state, action[1], action[2])
        if kind == "place":
            seat = state.turn
            pile = state.piles[seat]
            grid = list(state.grid)
            grid[action[1]] = (pile[0],)
            piles = (pile[1:], state.piles[1]) if seat == RED else (state.piles[0], pile[1:])
            placed = state.placed + 1
            # D1: Red places 1st, 3rd, ...; the toss follows the 16th placement.
            turn = CHANCE if placed == SETUP_PLACEMENTS else 1 - seat
            return self._reveal_next(BelemmerState(tuple(grid), piles, 2, placed, None, 0, turn,
                                                   unseen=state.unseen))
        if kind == "reveal":
            return self._reveal(state, action[1], action[2])
        if kind == "shuffle":
            colour, cards = action[1], action[2]
            piles = (cards, state.piles[1]) if colour == RED else (state.piles[0], cards)
            shuffled = state.shuffled + 1
            return replace(state, piles=piles, shuffled=shuffled,
                           turn=RED if shuffled == 2 else CHANCE)
        # D2: the toss after setup; heads Red, tails Black. D6 applies to the very first move.
        first = action[1]
        turn, ending, loser = self._next_turn(state.grid, state.piles, first, state.unseen)
        return BelemmerState(state.grid, state.piles, 2, SETUP_PLACEMENTS, first, 0, turn,
                             ending, loser, state.unseen)

    def _move(self, state: BelemmerState, source: int, target: int) -> BelemmerState:
        seat = state.turn
        grid = list(state.grid)
        grid[target] = grid[target] + grid[source]  # D4: the whole stack moves, order kept
        pile = state.piles[seat]
        if pile:  # D5: refill from the mover's own pile, or leave the square empty
            grid[source] = (pile[0],)
            pile = pile[1:]
        else:
            grid[source] = ()
        piles = (pile, state.piles[1]) if seat == RED else (state.piles[0], pile)
        after = tuple(grid)
        turn, ending, loser = self._next_turn(after, piles, 1 - seat, state.unseen)
        return self._reveal_next(BelemmerState(after, piles, 2, SETUP_PLACEMENTS, state.first,
                                               state.moves + 1, turn, ending, loser,
                                               state.unseen))

    def _reveal(self, state: BelemmerState, colour: int, card: int) -> BelemmerState:
        """A pile's new top card turned up at a real table."""
        piles = list(state.piles)
        piles[colour] = (card,)
        unseen = list(state.unseen)
        if state.shuffled <= colour:  # the first card of a pile shuffled face up
            unseen[colour] = PILE_SIZE - 1
            shuffled = state.shuffled + 1
            return replace(state, piles=tuple(piles), unseen=tuple(unseen), shuffled=shuffled,
                           turn=RED if shuffled == 2 else CHANCE)
        unseen[colour] -= 1
        after = replace(state, piles=tuple(piles), unseen=tuple(unseen), turn=state.resume,
                        resume=None)
        return after

    def _reveal_next(self, state: BelemmerState) -> BelemmerState:
        """If a pile's top card was taken and unseen cards lie below, chance reveals one next."""
        if state.turn is None:
            return state
        if any(not state.piles[c] and state.unseen[c] for c in (RED, BLACK)):
            return replace(state, resume=state.turn, turn=CHANCE)
        return state

    def _next_turn(self, grid: tuple[tuple[int, ...], ...],
                   piles: tuple[tuple[int, ...], tuple[int, ...]],
                   seat: int, unseen: tuple[int, int] = (0, 0)
                   ) -> tuple[int | None, str | None, int | None]:
        """Who moves next and, if the game ends, why and who lost (D6 blocked, D7 piles)."""
        exhausted = not piles[0] and not piles[1] and not any(unseen)
        if exhausted and not self.play_on:
            return None, "piles exhausted", None
        if has_move(grid, seat):
            return seat, None, None
        if exhausted and not has_move(grid, 1 - seat):
            return None, "both blocked", None
        return None, "blocked", seat

    def outcome(self, state: BelemmerState) -> Outcome | None:
        if state.turn is not None:
            return None
        if state.loser is not None:
            return Outcome.win(2, 1 - state.loser, state.ending or "blocked")
        return Outcome.by_scores(self.scores(state), state.ending or "scored")

    def scores(self, state: BelemmerState) -> list[int | float] | None:
        return list(grid_scores(state.grid, self.tops_only))

    # -- notation ----------------------------------------------------------------------------

    def format_action(self, state: BelemmerState, action: Action) -> str:
        if action == RESIGN:
            return RESIGN
        kind = action[0]
        if kind == "move":
            return f"{SQUARE_NAMES[action[1]]}-{SQUARE_NAMES[action[2]]}"
        if kind == "place":
            return f"place {SQUARE_NAMES[action[1]]}"
        if kind == "shuffle":
            return f"shuffle {COLOURS[action[1]]} " + " ".join(CARD_NAMES[c] for c in action[2])
        if kind == "reveal":
            return f"reveal {COLOURS[action[1]]} {CARD_NAMES[action[2]]}"
        return f"toss {'tails' if action[1] else 'heads'}"

    def parse_action(self, state: BelemmerState, text: str) -> Action:
        if state.turn is None:
            raise GameOver("the game is over: no more actions")
        fast = _FAST_SHUFFLE.fullmatch(text)
        if fast is not None:  # a whole pile, as the tool writes it: read without the grammar
            cards = [tokens.Card(c[1].upper(), c[2].upper()) for c in _CARD.finditer(fast[2])]
            return self._parse_shuffle(state, text, fast[1].lower(), cards)
        parsed = _read(text)
        # Positional: the square and card tokens are tuples, which results names would split.
        words = list(parsed)
        kind = words[0].lower() if isinstance(words[0], str) else "move"
        if kind == RESIGN:
            if state.turn == CHANCE:
                raise IllegalAction("'resign': chance is to move, not a player")
            return RESIGN
        if kind == "shuffle":
            return self._parse_shuffle(state, text, words[1], list(words[2]))
        if kind == "reveal":
            return self._parse_reveal(state, text, words[1], str(words[2]))
        if kind == "toss":
            due = state.reveal_due()
            if due is not None:
                raise IllegalAction(f"{text.strip()!r}: the {COLOURS[due]} pile shows its next "
                                    "card first")
            if state.phase != "toss":
                raise IllegalAction(f"{text.strip()!r}: the coin is tossed once, after the 16th "
                                    "placement (D2)")
            return ("toss", 0 if words[1].lower() == "heads" else 1)
        if kind != "place":
            return self._parse_move(state, text, _square_name(words[0], text),
                                    _square_name(words[1], text))
        square = _square_name(words[1], text)
        if state.placed >= SETUP_PLACEMENTS:
            raise IllegalAction(f"{text.strip()!r}: setup is over; placements are made only "
                                "in the 16 setup turns (D1)")
        if state.turn == CHANCE:
            raise IllegalAction(f"{text.strip()!r}: chance is to move ({self._chance_due(state)})")
        if state.grid[square]:
            raise IllegalAction(f"{text.strip()!r}: {SQUARE_NAMES[square]} is occupied; a "
                                "card is placed on an empty square (D1)")
        return ("place", square)

    def _before_play(self, state: BelemmerState) -> str:
        """What still comes before the first move: shuffles, placements, the toss."""
        if state.shuffled < 2:
            return f"the {COLOURS[state.shuffled]} pile is shuffled next"
        left = SETUP_PLACEMENTS - state.placed
        if left:
            return (f"{left} setup placement{'s' if left > 1 else ''} and the coin toss come "
                    "first (D1, D2)")
        return "the coin toss decides who moves first (D2)"

    def _chance_due(self, state: BelemmerState) -> str:
        if state.shuffled < 2:
            return f"the {COLOURS[state.shuffled]} pile is shuffled next"
        due = state.reveal_due()
        if due is not None:
            return f"the {COLOURS[due]} pile shows its next card ('reveal {COLOURS[due]} CARD')"
        return "the coin toss is next"

    def _parse_shuffle(self, state: BelemmerState, text: str, colour_word: str,
                       cards_read: list[tokens.Card]) -> Action:
        colour = COLOURS.index(colour_word.lower())
        names = [str(card) for card in cards_read]
        if len(names) != PILE_SIZE:
            raise MalformedAction(f"malformed action {text.strip()!r}: {PILE_SIZE} cards needed, "
                                  f"{len(names)} given")
        if state.turn != CHANCE or state.shuffled >= 2:
            raise IllegalAction(f"{text.strip()!r}: both piles are shuffled once, before setup")
        if colour != state.shuffled:
            raise IllegalAction(f"{text.strip()!r}: the {COLOURS[state.shuffled]} pile is "
                                "shuffled next (red first, then black)")
        cards = tuple(CARD_INDEX[name] for name in names)
        for card, name in zip(cards, names, strict=True):
            if CARD_COLOUR[card] != colour:
                raise IllegalAction(f"shuffle {COLOURS[colour]}: {name} is not a "
                                    f"{COLOURS[colour]} card")
        if len(set(cards)) != PILE_SIZE:
            twice = next(n for n in names if names.count(n) > 1)
            raise IllegalAction(f"shuffle {COLOURS[colour]}: {twice} is listed twice; a shuffle "
                                f"lists each of the {PILE_SIZE} cards once")
        return ("shuffle", colour, cards)

    def _parse_reveal(self, state: BelemmerState, text: str, colour_word: str,
                      name: str) -> Action:
        said = text.strip()
        colour = COLOURS.index(colour_word.lower())
        card = CARD_INDEX[name.upper()]
        if state.turn != CHANCE:
            raise IllegalAction(f"{said!r}: a card is turned up only when a pile shows its first "
                                "card or its top card has been taken")
        due = state.reveal_due()
        if state.shuffled < 2:
            if colour != state.shuffled:
                raise IllegalAction(f"{said!r}: the {COLOURS[state.shuffled]} pile is "
                                    "shuffled next (red first, then black)")
        elif due is None:
            raise IllegalAction(f"{said!r}: no pile shows a new card now; "
                                f"{self._chance_due(state)}")
        elif colour != due:
            raise IllegalAction(f"{said!r}: the {COLOURS[due]} pile shows its next card now")
        if CARD_COLOUR[card] != colour:
            raise IllegalAction(f"{said!r}: {CARD_NAMES[card]} is not a {COLOURS[colour]} card")
        if state.shuffled > colour and card not in self._unseen_cards(state, colour):
            raise IllegalAction(f"{said!r}: {CARD_NAMES[card]} has been seen already; the "
                                f"{COLOURS[colour]} pile still hides "
                                f"{state.unseen[colour]} other cards")
        return ("reveal", colour, card)

    def _parse_move(self, state: BelemmerState, text: str, source: int, target: int) -> Action:
        said = text.strip()
        if state.phase != "play":
            raise IllegalAction(f"{said!r}: play has not started; {self._before_play(state)}")
        seat = state.turn
        if target not in NEIGHBOURS[source]:
            dx, dy = abs(source % 4 - target % 4), abs(source // 4 - target // 4)
            why = "diagonal" if dx and dy else ("no move" if not dx + dy else "two squares or more")
            raise IllegalAction(f"{said!r}: {why}; a stack moves to an orthogonally adjacent "
                                "square (D4)")
        stack, under = state.grid[source], state.grid[target]
        if not stack or CARD_COLOUR[stack[-1]] != seat:
            holds = f"is topped by {CARD_NAMES[stack[-1]]}" if stack else "is empty"
            raise IllegalAction(f"{said!r}: {SQUARE_NAMES[source]} {holds}; {COLOURS[seat]} "
                                f"moves a {COLOURS[seat]}-topped stack (D4)")
        if not under:
            raise IllegalAction(f"{said!r}: {SQUARE_NAMES[target]} is empty; every move "
                                "captures an opponent stack (D4)")
        if CARD_COLOUR[under[-1]] == seat:
            raise IllegalAction(f"{said!r}: {SQUARE_NAMES[target]} is topped by your own "
                                "colour (D4)")
        if not BEATS[stack[-1]][under[-1]]:
            raise IllegalAction(f"{said!r}: {CARD_NAMES[stack[-1]]} does not beat "
                                f"{CARD_NAMES[under[-1]]} (D3)")
        return ("move", source, target)

    def describe_action(self, state: BelemmerState, action: Action) -> str | None:
        if action == RESIGN:
            return None
        kind = action[0]
        if kind == "place":
            return CARD_NAMES[state.piles[state.turn][0]]
        if kind == "move":
            mover, taken = state.grid[action[1]][-1], state.grid[action[2]][-1]
            pile = state.piles[state.turn]
            refill = f"refill {CARD_NAMES[pile[0]]}" if pile else "no refill: pile empty"
            return f"{CARD_NAMES[mover]} takes {CARD_NAMES[taken]}; {refill}"
        if kind == "toss":
            return f"{COLOURS[action[1]].capitalize()} moves first"
        return None

    def mask_action(self, before: BelemmerState, action: Action, final: BelemmerState,
                    seat: int | None) -> str:
        """D10: a shuffle shows the cards that have left the pile and its top card, else ``?``."""
        if action == RESIGN or action[0] != "shuffle":
            return self.format_action(before, action)
        colour, cards = action[1], action[2]
        left = len(final.piles[colour])
        seen = PILE_SIZE - left + (1 if left else 0)
        words = [CARD_NAMES[c] if i < seen else "?" for i, c in enumerate(cards)]
        return f"shuffle {COLOURS[colour]} " + " ".join(words)

    # -- views -------------------------------------------------------------------------------

    def randomize_hidden(self, state: BelemmerState, seat: int | None,
                         rng: SeedRng) -> BelemmerState:
        """D10: every seat sees the top of each pile; the order below it is redrawn."""
        piles = tuple(pile[:1] + tuple(rng.shuffled(sorted(pile[1:]))) for pile in state.piles)
        return replace(state, piles=piles)  # type: ignore[arg-type]

    def view(self, state: BelemmerState, seat: int | None) -> dict[str, Any]:
        piles = {}
        for colour, pile in enumerate(state.piles):
            unshuffled = state.shuffled <= colour
            piles[seat_text(colour)] = {
                "cards": PILE_SIZE if unshuffled else len(pile) + state.unseen[colour],
                "top": None if unshuffled or not pile else CARD_NAMES[pile[0]],
            }
            if seat == REFEREE and not unshuffled:  # the master record holds the order
                piles[seat_text(colour)]["order"] = [CARD_NAMES[c] for c in pile]
        return {
            "phase": state.phase,
            "grid": {SQUARE_NAMES[i]: [CARD_NAMES[c] for c in stack]
                     for i, stack in enumerate(state.grid) if stack},
            "colours": {seat_text(colour): name for colour, name in enumerate(COLOURS)},
            "piles": piles,
            "first": None if state.first is None else seat_text(state.first),
            "moves": state.moves,
        }

    board_in_text = True

    def render(self, state: BelemmerState, seat: int | None, names: Sequence[str]) -> str:
        """What follows the board (drawn from :meth:`diagram`): stacks and piles."""
        lines = []
        stacks = [f"  {SQUARE_NAMES[i]}: " + " ".join(CARD_NAMES[c] for c in stack)
                  for i, stack in enumerate(state.grid) if len(stack) > 1]
        if stacks:
            lines += ["stacks (bottom to top):", *stacks, ""]
        piles = list(self.view(state, seat)["piles"].values())  # in seat order
        for colour, name in enumerate(names[:2]):
            pile = piles[colour]
            owner = name if name == COLOURS[colour] else f"{name} ({COLOURS[colour]})"
            if state.shuffled <= colour:
                lines.append(f"{owner} pile: {PILE_SIZE} cards, not shuffled")
            else:
                top = f", top {pile['top']}" if pile["top"] else ""
                if len(pile.get("order", ())) > 1:
                    top = f", from the top {' '.join(pile['order'])}"
                lines.append(f"{owner} pile: {pile['cards']} cards{top}")
        return "\n".join(lines) + "\n"

    def diagram(self, state: BelemmerState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The 4x4 grid of stacks (top card, height) and each pile: its top card face up when
        it is shown, the rest as backs."""
        from gametool.core.diagram import Diagram, Grid, Note, Piece, Row, back, playing_card

        view = self.view(state, seat)
        cells = {}
        for name, stack in view["grid"].items():
            card = playing_card(stack[-1])
            cells[(FILES.index(name[0]), 4 - int(name[1]))] = Piece(
                card.label + card.symbol, card.style, "card", len(stack), text=stack[-1])
        parts: list[Any] = [Grid(tuple(FILES), ("4", "3", "2", "1"), cells)]
        piles = list(view["piles"].values())  # in seat order
        for colour, name in enumerate(names[:2]):
            pile = piles[colour]
            shown = pile.get("order") or ([pile["top"]] if pile["top"] else [])
            items = [playing_card(card) for card in shown] + (
                [back(pile["cards"] - len(shown))] if pile["cards"] > len(shown) else [])
            owner = name if name == COLOURS[colour] else f"{name} ({COLOURS[colour]})"
            parts.append(Row(f"{owner} pile", tuple(items), f"{pile['cards']} cards"))
        stacks = [f"{square}: {' '.join(stack)}" for square, stack in view["grid"].items()
                  if len(stack) > 1]
        if stacks:
            parts.append(Note(("stacks (bottom to top):", *stacks)))
        return Diagram(tuple(parts))

    def score_table(self, state: BelemmerState,
                    seat: int | None) -> tuple[list[str], list[list[Any]]] | None:
        totals = grid_scores(state.grid, self.tops_only)
        rows = []
        for colour in (RED, BLACK):
            owned = [s for s in state.grid if s and CARD_COLOUR[s[-1]] == colour]
            rows.append([COLOURS[colour], len(owned), sum(len(s) for s in owned),
                         totals[colour]])
        return ["colour", "stacks", "cards", f"score ({self.settings['score']})"], rows
