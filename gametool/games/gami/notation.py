"""Notation and display of the Gami games: parsing, formatting, views and the drawn position.

:class:`GamiText` is mixed into :class:`~gametool.games.gami.base.GamiGame`; it reads the same
class data (cards, picks, what a Gami earns) as the rules do. Grammars are pyparsing, built once
per shape of game from the shared card token; the hot path (legal actions, apply, format) never
uses them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core.engine import CHANCE, RESIGN, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.core.tables import tabulate
from gametool.games.gami.cards import Cards
from gametool.games.gami.state import NONE, Action, GamiState, mask_of
from notation import values as tokens
from notation.errors import NotationError
from notation.fast import FastReader

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram


class GamiText:
    """Reading and writing actions, and showing positions, for a Gami game."""

    name: ClassVar[str]
    cards: ClassVar[Cards]
    deals: ClassVar[tuple[int, int, int]]
    total_picks: ClassVar[int]
    pick_gami: ClassVar[str]
    swap_gami: ClassVar[str]
    rule: ClassVar[dict[str, str]]
    claim_required: bool
    limit: int

    if TYPE_CHECKING:  # provided by the rules class this is mixed into

        def to_move(self, state: GamiState) -> int | None: ...

        def phase(self, state: GamiState) -> str: ...

    @classmethod
    def grammar(cls):  # noqa: ANN206 (a pyparsing element, built on first need)
        return _grammar(bool(any(cls.deals)), cls.total_picks > 0,
                        cls.pick_gami == "return", cls.swap_gami == "claim")

    def format_action(self, state: GamiState, action: Action) -> str:
        if action == RESIGN:
            return RESIGN
        names = self.cards.names
        kind = action[0]
        if kind == "deal":
            text = self.cards.text
            return (f"deal {seat_text(0)}: {text(action[1])} {seat_text(1)}: {text(action[2])} "
                    f"table: {text(action[3])}")
        if kind == "hand":
            return f"deal {seat_text(action[1])}: {self.cards.text(action[2])}"
        if kind == "pick":
            out = f"pick {names[action[1]]}"
            return out if action[2] == NONE else f"{out} return {names[action[2]]}"
        out = f"swap {names[action[1]]}>{names[action[2]]}"
        return out if action[3] == NONE else f"{out} claim {names[action[3]]}"

    def parse_action(self, state: GamiState, text: str) -> Action:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver(f"{text.strip()!r}: the game is over")
        parsed = _reader(bool(any(self.deals)), self.total_picks > 0,
                         self.pick_gami == "return", self.swap_gami == "claim")(text)
        words = [self._card(text, item) if isinstance(item, tokens.Card) else item
                 for item in parsed]
        kind = words[0]
        if seat == CHANCE and kind != "deal":
            raise IllegalAction(f"{text.strip()!r}: the cards must be dealt first (chance deals)")
        if kind == "resign":
            return RESIGN
        if kind == "deal":
            return self._parse_deal(state, words)
        if kind == "pick":
            return self._parse_pick(state, words)
        return self._parse_swap(state, words)

    def _card(self, text: str, card: tokens.Card) -> int:
        name = str(card)
        if name not in self.cards.index:
            raise MalformedAction(f"malformed action {text.strip()!r}: {name} is not a card "
                                  f"of {self.name}")
        return self.cards.index[name]

    def _where(self, state: GamiState, card: int) -> str:
        bit = 1 << card
        if state.table & bit:
            return "on the table"
        return "in your hand" if state.hands[state.seat] & bit else "in your opponent's hand"

    def _parse_deal(self, state: GamiState, words: list[Any]) -> Action:
        if state.seat != CHANCE:
            raise IllegalAction("deal: the cards are dealt once, before the first swap")
        labels_read = [w for w in words[1:] if isinstance(w, str)]
        if len(labels_read) == 1:
            return self._parse_hand(state, labels_read[0].rstrip(":"), words[2:])
        if labels_read != ["p1:", "p2:", "table:"]:
            raise IllegalAction("deal: write 'deal p1: ... p2: ... table: ...', or one hand at "
                                "a time ('deal p1: ...', then 'deal p2: ...')")
        if state.hands[0]:
            raise IllegalAction("deal: p1's hand is dealt already; deal p2's hand next")
        names = self.cards.names
        groups: list[list[int]] = [[], [], []]
        current = -1
        for word in words[1:]:
            if isinstance(word, str):
                current += 1
            else:
                groups[current].append(word)
        labels = (seat_text(0), seat_text(1), "table")
        for label, group, wanted in zip(labels, groups, self.deals, strict=True):
            if len(group) != wanted:
                raise IllegalAction(f"deal: {label} gets {wanted} cards, not {len(group)}")
        dealt = [card for group in groups for card in group]
        repeated = [names[i] for i in range(self.cards.count) if dealt.count(i) > 1]
        missing = [names[i] for i in range(self.cards.count) if i not in dealt]
        if repeated or missing:  # with the right counts, a repeated card means a missing one
            problems = [f"{', '.join(repeated)} dealt more than once"] if repeated else []
            problems += [f"{', '.join(missing)} missing"] if missing else []
            raise IllegalAction(f"deal: {' and '.join(problems)}")
        return ("deal", mask_of(groups[0]), mask_of(groups[1]), mask_of(groups[2]))

    def _parse_hand(self, state: GamiState, label: str, cards: list[int]) -> Action:
        """One hand of a deal typed hand by hand at a table: p1's, then p2's; the cards left
        go to the table."""
        names = self.cards.names
        due = 1 if state.hands[0] else 0
        if label != seat_text(due):
            raise IllegalAction(f"deal {label}: {seat_text(due)}'s hand is dealt next "
                                f"({seat_text(0)}, then {seat_text(1)}; the table gets the "
                                "cards left)")
        wanted = self.deals[due]
        if len(cards) != wanted:
            raise IllegalAction(f"deal {label}: {label} gets {wanted} cards, not {len(cards)}")
        repeated = sorted({names[c] for c in cards if cards.count(c) > 1})
        if repeated:
            raise IllegalAction(f"deal {label}: {', '.join(repeated)} dealt more than once")
        taken = [names[c] for c in cards if state.hands[0] >> c & 1]
        if taken:
            raise IllegalAction(f"deal {label}: {', '.join(taken)} went to {seat_text(0)} already")
        return ("hand", due, mask_of(cards))

    def _parse_pick(self, state: GamiState, words: list[Any]) -> Action:
        names = self.cards.names
        if state.picks >= self.total_picks:
            raise IllegalAction(f"pick {names[words[1]]}: picking is over after "
                                f"{self.total_picks} picks; swap a card instead")
        y = words[1]
        if not state.table >> y & 1:
            raise IllegalAction(f"pick {names[y]}: {names[y]} is {self._where(state, y)}, "
                                "not on the table")
        returns = [w for w in words[2:] if not isinstance(w, str)]
        hand, opp = state.hands[state.seat] | 1 << y, state.hands[1 - state.seat]
        formed = self.pick_gami == "return" and bool(opp) and self.cards.formed(hand, y)
        r = self._extra(state, f"pick {names[y]}", y, returns, formed, "return", required=True)
        return ("pick", y, r)

    def _parse_swap(self, state: GamiState, words: list[Any]) -> Action:
        names = self.cards.names
        x, y = words[1], words[3]
        head = f"swap {names[x]}>{names[y]}"
        if state.picks < self.total_picks:
            raise IllegalAction(f"{head}: swapping starts after the {self.total_picks} picks "
                                f"of phase 1 ({state.picks} made); pick a card instead")
        if not state.hands[state.seat] >> x & 1:
            raise IllegalAction(f"{head}: {names[x]} is {self._where(state, x)}, "
                                "not in your hand")
        if not state.table >> y & 1:
            raise IllegalAction(f"{head}: {names[y]} is {self._where(state, y)}, "
                                "not on the table")
        reason = self.cards.why_not(names[x], names[y])
        if reason is not None:
            raise IllegalAction(f"{head}: not a legal swap: {reason}")
        claims = [w for w in words[4:] if not isinstance(w, str)]
        hand = state.hands[state.seat] ^ 1 << x | 1 << y
        opp = state.hands[1 - state.seat]
        formed = self.swap_gami == "claim" and bool(opp) and self.cards.formed(hand, y)
        c = self._extra(state, head, y, claims, formed, "claim", required=self.claim_required)
        return ("swap", x, y, c)

    def _cite(self, topic: str) -> str:
        """The decision of the rules file behind a message, as " (Dn)"."""
        number = self.rule.get(topic)
        return f" ({number})" if number else ""

    def _extra(self, state: GamiState, head: str, y: int, given: list[int], formed: bool,
               word: str, required: bool) -> int:
        """Check the return or claim of a pick or swap (``head``, as in "swap 4H>5H").

        The card it names, or NONE.
        """
        names = self.cards.names
        taken = names[y]
        if len(given) > 1:
            named = " ".join(f"{word} {names[card]}" for card in given)
            raise IllegalAction(f"{head} {named}: at most one {word} per move"
                                f"{self._cite('one')}")
        if not given:
            if formed and required:
                raise IllegalAction(
                    f"{head}: taking {taken} forms a new Gami, so the move must {word} a card "
                    f"of your opponent's hand{self._cite(word)}")
            return NONE
        card = given[0]
        head = f"{head} {word} {names[card]}"
        if not formed:
            raise IllegalAction(f"{head}: taking {taken} forms no new Gami including it"
                                f"{self._cite('new')}")
        if not state.hands[1 - state.seat] >> card & 1:
            raise IllegalAction(f"{head}: {names[card]} is {self._where(state, card)}, "
                                "not in your opponent's hand")
        return card

    def describe_action(self, state: GamiState, action: Action) -> str | None:
        """Name the Gami sets a pick or swap formed."""
        if action == RESIGN or action[0] in ("deal", "hand"):
            return None
        seat = state.seat
        y = action[1] if action[0] == "pick" else action[2]
        hand = state.hands[seat] | 1 << y
        if action[0] == "swap":
            hand ^= 1 << action[1]
        formed = self.cards.formed_sets(hand, y)
        if not formed:
            return None
        return "forms " + " and ".join(self.cards.set_text(c) for c in formed)

    # -- views ----------------------------------------------------------------------------------

    def view(self, state: GamiState, seat: int | None) -> dict[str, Any]:
        """Everything is face up: every seat sees the whole position."""
        c = self.cards
        data: dict[str, Any] = {
            "phase": self.phase(state),
            "hands": {seat_text(i): c.cards(h) for i, h in enumerate(state.hands)},
            "table": c.cards(state.table),
            "gami": {seat_text(i): [c.set_cards(s) for s in c.held(h)]
                     for i, h in enumerate(state.hands)},
            "plies": state.plies,
            "max_plies": self.limit,
        }
        if self.total_picks:
            data["picks"] = state.picks
        if state.history:
            data["occurrences"] = state.history.count(state.history[-1])
        return data

    def render(self, state: GamiState, seat: int | None, names: Sequence[str]) -> str:
        c = self.cards
        phase = self.phase(state)
        head = {"deal": "before the deal", "over": "game over"}.get(phase, f"{phase} phase")
        if self.total_picks:
            head += f", picks {state.picks}/{self.total_picks}"
        head += f", moves {state.plies}/{self.limit}"
        if state.history:
            head += f", this position seen {state.history.count(state.history[-1])}x"
        rows = []
        for i, hand in enumerate(state.hands):
            held = " ".join(c.set_text(s) for s in c.held(hand)) or "-"
            rows.append([names[i], hand.bit_count(), c.text(hand) or "-", held])
        rows.append(["table", state.table.bit_count(), c.text(state.table) or "-", ""])
        hands = tabulate(rows, headers=["", "cards", "", "Gami held"], tablefmt="simple")
        return f"{head}\n\n{hands}\n\n{self._grid(state, names)}\n"

    def diagram(self, state: GamiState, seat: int | None, names: Sequence[str]) -> Diagram:
        """Each hand and the table as rows of cards, the Gami held, and where every card lies
        (suits down, ranks across; each hand's mark shaped and lettered by its seat)."""
        from gametool.core.diagram import Diagram, Grid, Note, Piece, Row, playing_card, seat_piece

        view = self.view(state, seat)
        hands, gami = list(view["hands"].values()), list(view["gami"].values())  # seat order
        parts: list[Any] = []
        for i, hand in enumerate(hands):
            held = ", ".join("{" + " ".join(cards) + "}" for cards in gami[i])
            parts.append(Row(names[i], tuple(playing_card(card) for card in hand),
                             f"Gami held: {held}" if held else ""))
        parts.append(Row("table", tuple(playing_card(card) for card in view["table"])))
        deck = self.cards.deck
        ranks = tuple(deck.ranks) + tuple(e[:-1] for e in deck.extras)
        cells: dict[tuple[int, int], Piece] = {}
        places = [(seat_piece(i, str(i + 1)), hand) for i, hand in enumerate(hands)]
        places.append((Piece("", "neutral", "ring"), view["table"]))
        for piece, cards in places:
            for card in cards:
                cells[(ranks.index(card[:-1]), tuple(deck.suits).index(card[-1]))] = piece
        parts.append(Grid(ranks, tuple(deck.suits), cells, "where each card lies"))
        parts.append(Note((self.render(state, seat, names).split("\n", 1)[0],)))
        legend = (("seat0", f"1 = {names[0]}"), ("seat1", f"2 = {names[1]}"))
        return Diagram(tuple(parts), legend=legend)

    def _grid(self, state: GamiState, names: Sequence[str]) -> str:
        """Where each card lies: suits down, ranks across; 1 and 2 for the hands, . the table."""
        c = self.cards
        ranks = list(c.deck.ranks) + [e[:-1] for e in c.deck.extras]
        rows = []
        for suit in c.deck.suits:
            row = [suit]
            for rank in ranks:
                i = c.index.get(f"{rank}{suit}")
                if i is None:
                    row.append("")
                elif state.hands[0] >> i & 1:
                    row.append("1")
                elif state.hands[1] >> i & 1:
                    row.append("2")
                elif state.table >> i & 1:
                    row.append(".")
                else:
                    row.append("-")  # not dealt yet
            rows.append(row)
        grid = tabulate(rows, headers=["", *ranks], tablefmt="simple", disable_numparse=True)
        legend = f"1 = {names[0]}, 2 = {names[1]}, . = table"
        if state.seat == CHANCE and state.result is None:
            legend += ", - = not dealt yet"
        return f"{grid}\n{legend}"


_CARD = r"(A|[2-9]|10|J|Q|K)([HDCS])"
_FAST = re.compile(rf"(swap) {_CARD}(>){_CARD}(?: (claim) {_CARD})?|(pick) {_CARD}(?: (return) "
                   rf"{_CARD})?")
_LABELS = ("p1:", "p2:", "table:")
_FAST_CARD = re.compile(_CARD)


def _fast_words(text: str, deal: bool, pick: bool, returns: bool, claims: bool
                ) -> list[Any] | None:
    """The words of an action written as the tool writes it (upper-case cards, one blank
    between words), read without the grammar, exactly as the game's grammar reads them; None
    for anything else, which the grammar reads."""
    text = text.strip()
    if text.lower() == "resign":
        return ["resign"]
    if text.startswith("deal "):
        return _fast_deal(text) if deal else None
    match = _FAST.fullmatch(text)
    if match is None:
        return None
    g = match.groups()
    if g[0]:
        words: list[Any] = ["swap", tokens.Card(g[1], g[2]), ">", tokens.Card(g[4], g[5])]
        if g[6]:
            if not claims:
                return None
            words += ["claim", tokens.Card(g[7], g[8])]
        return words
    if not pick:
        return None
    words = ["pick", tokens.Card(g[10], g[11])]
    if g[12]:
        if not returns:
            return None
        words += ["return", tokens.Card(g[13], g[14])]
    return words


def _fast_deal(text: str) -> list[Any] | None:
    """The words of a deal (``deal p1: AH 2H ... table: ...``) as the tool writes it."""
    words: list[Any] = ["deal"]
    for word in text.split(" ")[1:]:
        if word in _LABELS:
            words.append(word)
            continue
        match = _FAST_CARD.fullmatch(word)
        if match is None or len(words) == 1:
            return None
        words.append(tokens.Card(match[1], match[2]))
    return words


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(
        f"malformed action {text.strip()!r}: {exc.message} (column {exc.column})")


@cache
def _reader(deal: bool, pick: bool, returns: bool, claims: bool) -> FastReader[list[Any]]:
    """The reader of the actions of one shape of Gami game."""
    return FastReader(lambda text: _fast_words(text, deal, pick, returns, claims),
                      lambda: _grammar(deal, pick, returns, claims), refuse=_refused)


@cache
def _grammar(deal: bool, pick: bool, returns: bool, claims: bool):  # noqa: ANN202
    """The action grammar of one Gami game (pyparsing), built once per shape on first need.

    Cards of every suit and rank are read, so that a card outside the game's deck (``4S`` in a
    game without spades, like ``9H``) is reported by name as not a card of the game.
    """
    import pyparsing as pp

    from notation import tokens

    card = tokens.card()
    choices = [tokens.keyword("resign")]
    if deal:
        labels = [pp.CaselessLiteral(f"{w}:").set_name(f"'{w}:'") for w in ("p1", "p2", "table")]
        # The whole deal (p1: ... p2: ... table: ...), or one hand of it typed at a table.
        label = pp.MatchFirst(labels).set_name("'p1:', 'p2:' or 'table:'")
        choices.append((tokens.keyword("deal") - label - pp.ZeroOrMore(label | card))
                       .set_name("deal"))
    if pick:
        body = tokens.keyword("pick") - card
        if returns:
            body = body + pp.ZeroOrMore(tokens.keyword("return") - card)
        choices.append(body.set_name("pick"))
    swap = tokens.keyword("swap") - card - pp.Literal(">").set_name("'>'") - card
    if claims:
        swap = swap + pp.ZeroOrMore(tokens.keyword("claim") - card)
    choices.append(swap.set_name("swap"))
    action = pp.MatchFirst(choices).set_name("action")
    action.set_parse_action(lambda t: [w.lower() if isinstance(w, str) else w for w in t])
    return action
