"""Johari Bones: four positions per player, each seen by a different set of players.

Positions are held in the order ``up, down, in, out``. A bone is a pair ``(low, high)``. The
pile is kept as a sorted tuple: its order is never fixed in advance, because each draw is a
chance action of its own (``drawn a-b``), uniform over the bones left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN, Game, Option, Outcome, SeatResult
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.johari_bones import views
from gametool.games.johari_bones.scoring import BOXES, best_score, ends_of
from gametool.games.johari_bones.state import (
    HANDS,
    HIDDEN,
    IN,
    OUT,
    POSITIONS,
    UP,
    JohariState,
    bone_text,
    seat_label,
    sees,
)
from notation.errors import NotationError
from notation.fast import FastReader
from notation.values import Domino

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram


@cache
def _grammar():  # noqa: ANN202 (a pyparsing element, built on first need)
    """The full grammar, for the spellings the fast reader does not take (it names the error)."""
    import pyparsing as pp

    from notation.tokens import domino, keyword

    bone = domino(6)
    seat = pp.Regex(r"[pP][1-4]").set_name("seat p1-p4")
    seat.set_parse_action(lambda t: t[0].lower())
    position = pp.one_of(" ".join(POSITIONS), caseless=True).set_name("position")
    target = (pp.CaselessKeyword("me") | seat).set_name("me or a seat")
    deal = keyword("deal") - seat + pp.Suppress(":") + bone + bone + bone + bone
    drawn = keyword("drawn") - bone
    place = (pp.CaselessLiteral("draw>") - target + pp.Suppress(".") + position)
    swap = keyword("swap") - position + seat
    score = keyword("score") - pp.one_of(" ".join(BOXES), caseless=True).set_name("box")
    actions = (place.set_name("draw>PLACE") | deal.set_name("deal") | drawn.set_name("drawn")
               | keyword("draw") | swap.set_name("swap") | score.set_name("score")
               | keyword(RESIGN))
    return actions.set_name("Johari Bones action")


_BONE = r"([0-6])-([0-6])"
_FAST = re.compile(
    rf"(deal) (p[1-4]): {_BONE} {_BONE} {_BONE} {_BONE}|(drawn) {_BONE}"
    rf"|(draw>)(me|p[1-4])\.({'|'.join(POSITIONS)})|(swap) ({'|'.join(POSITIONS)}) (p[1-4])"
    rf"|(score) ({'|'.join(BOXES)})|(draw|{RESIGN})", re.IGNORECASE)


def _fast_read(text: str) -> list[Any] | None:
    """The tokens of an action in the common spellings, read without the grammar, exactly as
    the grammar reads them; None for any other."""
    match = _FAST.fullmatch(text.strip())
    if match is None:
        return None
    g = [None if x is None else x.lower() for x in match.groups()]
    if g[0]:
        return ["deal", g[1], *(Domino(int(g[i]), int(g[i + 1])) for i in range(2, 10, 2))]
    if g[10]:
        return ["drawn", Domino(int(g[11]), int(g[12]))]
    if g[13]:
        return ["draw>", g[14], g[15]]
    if g[16]:
        return ["swap", g[17], g[18]]
    if g[19]:
        return ["score", g[20]]
    return [g[21]]


_read = FastReader(_fast_read, _grammar, lambda tokens, _text: list(tokens))
"""The tokens of an action."""


class JohariBones(Game[JohariState, Any]):
    id = "johari-bones"
    aliases = ("johari",)
    name = "Johari Bones"
    names_seats = True
    notation_words = frozenset(
        "deal draw drawn swap score resign me up down in out ones twos threes fours fives sixes "
        "fullhouse run4 run5 chance".split())
    notation_tokens = r"[0-9]+(-[0-9]+)?"
    min_players = 2
    max_players = 4
    default_players = 3
    chance = "deal, draws"
    hidden = "face down / in / out bones, the pile"
    options = (
        Option("wild_scores_face", "on", ("on", "off"),
               help="a wild (two blank ends) scores the value it stands for (D7)"),
    )
    # Per hand: N deals, 3N turns of at most 3 entries (draw, drawn, place), N scores.
    max_plies = HANDS * 11 * 4 + 1
    summary = """
Two to four players, a double-six set of 28 bones and a ten-box scorecard each (ones, twos,
threes, fours, fives, sixes, fullhouse, run4, run5, chance). The game is 10 hands.

Each hand the bones are shuffled and each player is dealt four bones straight into four
positions: face up (seen by everyone), face down (seen by nobody), face in (seen only by its
owner) and face out (seen by everyone but its owner). The rest form the face-down pile. Hand 1
is dealt by the last seat and started by p1; dealer and first player move one seat on each hand.

Starting with the first player, each player takes 3 turns in seat order. A turn is a draw (the
top bone of the pile is shown to the drawer alone, who places it in their own up or in position
or in another player's up or out position; the bone there is set aside face down until the next
hand), a swap of one's up bone with another player's up bone, or a swap of one's in bone with
another player's out bone. Down bones never move.

After the third round all bones are shown and, from the first player on, each player names an
open box; the best score that the 8 ends of their four bones allow for that box is written in
(0 if nothing fits). Blank ends are wilds, two blanks making one wild of any value 1-6 (scoring
that value, or 0 with wild_scores_face=off). Full house: a pair and a triple of different
values; runs: 4 or 5 consecutive values from 1 to 6; chance: all number ends plus wilds (6 each).

After 10 hands the highest total wins; tied highest totals share the win. A player who resigns
ends the game and ranks last.
"""
    notation = """\
draw             choose to draw: chance then shows the drawer the bone (drawn a-b)
draw>me.up       place the drawn bone in one's own up (or me.in), or another's
draw>p2.out        up or out (draw>p2.up, draw>p2.out)
swap up p2       exchange one's up bone with p2's up bone
swap in p2       exchange one's in bone with p2's out bone
score run4       name an open box: ones twos threes fours fives sixes fullhouse run4
                   run5 chance; the engine writes in the best score
resign

Chance (typed only in records without a seed):
deal p1: 2-4 4-5 1-1 3-6   the four bones of p1 into up, down, in, out
drawn 5-5                  the bone the drawer takes from the pile

Seats are written p1..p4 in turn order whatever the players' names. The deal entries of a
hand come in seat order from the first player.

A drawing turn is three record entries, since every entry belongs to one seat or to chance:
  3. p1: draw               p1 chooses to draw (nothing else is revealed)
  4. chance: drawn 5-5      the bone from the pile, shown to p1 alone
  5. p1: draw>me.in         p1 places it; the bone it replaces is set aside
This is the rules' two-entry form (chance: drawn 5-5, p1: draw>me.in) with the player's
choice to draw written out. After draw only chance's drawn bone is accepted, and after it only
draw>PLACE. In a record exported for a seat, the bones of a deal entry that the seat could not
see are written ?, and so is every drawn bone but its own.
"""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.wild_face: bool = self.settings["wild_scores_face"] == "on"

    # -- the flow of play -----------------------------------------------------------------------

    def initial_state(self, nseats: int) -> JohariState:
        return JohariState(nseats, positions=(None,) * nseats,
                           sheets=((None,) * len(BOXES),) * nseats)

    def to_move(self, state: JohariState) -> int | None:
        if state.over:
            return None
        if state.dealt < state.nseats or (state.drawing and state.drawn is None):
            return CHANCE
        return state.mover()

    def legal_actions(self, state: JohariState) -> list[Any]:
        seat = self.to_move(state)
        if seat is None or seat == CHANCE:
            return []
        if state.revealed:
            return [("score", box) for box, value in zip(BOXES, state.sheets[seat], strict=True)
                    if value is None]
        others = [k for k in range(state.nseats) if k != seat]
        if state.drawn is not None:
            return ([("place", seat, UP), ("place", seat, IN)]
                    + [("place", k, pos) for k in others for pos in (UP, OUT)])
        out: list[Any] = [("draw",)] if state.pile else []  # D11
        out += [("swap", UP, k) for k in others] + [("swap", IN, k) for k in others]
        return out

    def chance_outcomes(self, state: JohariState) -> list[Any] | None:
        if self.to_move(state) != CHANCE or state.dealt < state.nseats:
            return None  # a deal has too many outcomes to list
        return [("drawn", bone) for bone in state.pile]

    def dealt_seat(self, state: JohariState) -> int:
        """The seat the next deal entry is for: from the first player on, in seat order."""
        return (state.first + state.dealt) % state.nseats

    def sample_chance(self, state: JohariState, rng: SeedRng) -> Any:
        if state.dealt < state.nseats:
            return ("deal", self.dealt_seat(state), tuple(rng.shuffled(state.pile)[:4]))
        return ("drawn", rng.choice(state.pile))

    def apply(self, state: JohariState, action: Any) -> JohariState:
        if action == RESIGN:
            return replace(state, resigned=self.to_move(state))
        kind = action[0]
        if kind == "deal":
            _, seat, bones = action
            positions = list(state.positions)
            positions[seat] = tuple(bones)
            pile = tuple(b for b in state.pile if b not in bones)
            return replace(state, positions=tuple(positions), pile=pile, dealt=state.dealt + 1)
        if kind == "draw":
            return replace(state, drawing=True)
        if kind == "drawn":
            pile = tuple(b for b in state.pile if b != action[1])
            return replace(state, pile=pile, drawn=action[1])
        if kind == "place":
            _, owner, pos = action
            positions = [list(p) if p else p for p in state.positions]
            replaced = positions[owner][pos]
            positions[owner][pos] = state.drawn
            return replace(state, positions=tuple(tuple(p) if p else p for p in positions),
                           aside=(*state.aside, replaced), drawing=False, drawn=None,
                           turn=state.turn + 1)  # D4: the old bone is set aside
        if kind == "swap":
            _, which, other = action
            me = state.mover()
            positions = [list(p) if p else p for p in state.positions]
            theirs = UP if which == UP else OUT
            positions[me][which], positions[other][theirs] = (
                positions[other][theirs], positions[me][which])
            return replace(state, positions=tuple(tuple(p) if p else p for p in positions),
                           turn=state.turn + 1)
        if kind == "score":
            return self._score(state, action[1])
        raise ValueError(f"not a Johari Bones action: {action!r}")

    def _score(self, state: JohariState, box: str) -> JohariState:
        seat = state.mover()
        points = self.box_score(state, seat, box)
        sheet = list(state.sheets[seat])
        sheet[BOXES.index(box)] = points
        sheets = tuple(tuple(sheet) if i == seat else s for i, s in enumerate(state.sheets))
        if state.scored + 1 < state.nseats:
            return replace(state, sheets=sheets, scored=state.scored + 1)
        if state.hand + 1 >= HANDS:
            return replace(state, sheets=sheets, scored=state.scored + 1, hand=HANDS)
        return JohariState(state.nseats, hand=state.hand + 1,
                           positions=(None,) * state.nseats, sheets=sheets)

    def box_score(self, state: JohariState, seat: int, box: str) -> int:
        """D6: the best score the seat's 8 ends allow for the box."""
        return best_score(ends_of(state.positions[seat] or ()), box, self.wild_face)

    # -- results --------------------------------------------------------------------------------

    def totals(self, state: JohariState) -> list[int]:
        return [sum(v for v in sheet if v is not None) for sheet in state.sheets]

    def scores(self, state: JohariState) -> list[int | float]:
        return list(self.totals(state))

    def outcome(self, state: JohariState) -> Outcome | None:
        if not state.over:
            return None
        totals = self.totals(state)
        if state.resigned is not None:  # D12: the resigner ranks last, the others by totals
            keys = [(-1 if i == state.resigned else t) for i, t in enumerate(totals)]
            return _ranked(keys, totals, "resignation")
        return _ranked(totals, totals, f"{HANDS} hands")

    # -- notation -------------------------------------------------------------------------------

    def format_action(self, state: JohariState, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        kind = action[0]
        if kind == "deal":
            return f"deal {seat_label(action[1])}: " + " ".join(bone_text(b) for b in action[2])
        if kind == "drawn":
            return f"drawn {bone_text(action[1])}"
        if kind == "draw":
            return "draw"
        if kind == "place":
            owner = "me" if owner_is_mover(state, action[1]) else seat_label(action[1])
            return f"draw>{owner}.{POSITIONS[action[2]]}"
        if kind == "swap":
            return f"swap {POSITIONS[action[1]]} {seat_label(action[2])}"
        return f"score {action[1]}"

    def parse_action(self, state: JohariState, text: str) -> Any:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver("the game is over: no more actions")
        try:
            tokens = _read(text)
        except NotationError as exc:
            raise MalformedAction(
                f"malformed action {text.strip()!r}: {exc.message}; expected e.g. draw, "
                "draw>me.in, swap up p2, score run4 or drawn 5-5") from None
        word = str(tokens[0]).lower()
        if word == RESIGN:
            if seat == CHANCE:
                raise IllegalAction("chance is to move: it cannot resign")
            return RESIGN
        if word in ("deal", "drawn"):
            return self._parse_chance(state, text, word, tokens)
        if seat == CHANCE:
            raise IllegalAction(f"{text.strip()!r}: chance is to move (a deal or a drawn bone)")
        action = self._player_action(state, text, word, tokens)
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{text.strip()!r}: not allowed here")
        return action

    def _seat(self, state: JohariState, text: str, label: str) -> int:
        index = int(label[1:]) - 1
        if index >= state.nseats:
            raise IllegalAction(f"{text.strip()!r}: there is no seat {label} in a "
                                f"{state.nseats}-player game")
        return index

    def _player_action(self, state: JohariState, text: str, word: str, tokens: list[Any]
                       ) -> Any:
        me = state.mover()
        quoted = text.strip()
        if word == "score":
            if not state.revealed:
                raise IllegalAction(f"{quoted!r}: boxes are scored after the third round")
            box = str(tokens[1]).lower()
            if state.sheets[me][BOXES.index(box)] is not None:
                raise IllegalAction(f"{quoted!r}: the box {box} is already filled")
            return ("score", box)
        if state.revealed:
            raise IllegalAction(f"{quoted!r}: each player has had 3 turns this hand; "
                                "now only score is accepted")
        if word == "draw>":
            if state.drawn is None:
                raise IllegalAction(f"{quoted!r}: no bone has been drawn: play 'draw' first")
            target = str(tokens[1]).lower()
            pos = POSITIONS.index(str(tokens[2]).lower())
            if target == "me":
                if pos not in (UP, IN):
                    raise IllegalAction(f"{quoted!r}: a drawn bone goes in one's own up or in "
                                        "position only")
                return ("place", me, pos)
            owner = self._seat(state, text, target)
            if owner == me:
                raise IllegalAction(f"{quoted!r}: write me.{POSITIONS[pos]} for your own "
                                    "position")
            if pos not in (UP, OUT):
                raise IllegalAction(f"{quoted!r}: a drawn bone goes in another player's up or "
                                    "out position only")
            return ("place", owner, pos)
        if state.drawn is not None:
            raise IllegalAction(f"{quoted!r}: place the drawn bone first (draw>...)")
        if word == "draw":
            if not state.pile:
                raise IllegalAction(f"{quoted!r}: the pile is empty (D11)")
            return ("draw",)
        which = POSITIONS.index(str(tokens[1]).lower())
        other = self._seat(state, text, str(tokens[2]))
        if which not in (UP, IN):
            raise IllegalAction(f"{quoted!r}: only 'swap up' and 'swap in' exist; "
                                "down bones never move (D5)")
        if other == me:
            raise IllegalAction(f"{quoted!r}: nobody can swap with themselves (D5)")
        return ("swap", which, other)

    def _parse_chance(self, state: JohariState, text: str, word: str, tokens: list[Any]
                      ) -> Any:
        quoted = text.strip()
        seat = self.to_move(state)
        if seat != CHANCE:
            if word == "drawn" and not state.revealed and state.drawn is None:
                raise IllegalAction(f"{quoted!r}: {seat_label(seat)} is to move; a bone is "
                                    f"drawn only after {seat_label(seat)}: draw")
            raise IllegalAction(f"{quoted!r}: only chance deals and draws, and "
                                f"{seat_label(seat)} is to move")
        bones = [tuple(sorted((d.left, d.right))) for d in tokens[2 if word == "deal" else 1:]]
        if word == "deal":
            if state.dealt >= state.nseats:
                raise IllegalAction(f"{quoted!r}: the deal of this hand is over")
            seat = self._seat(state, text, str(tokens[1]))
            expected = self.dealt_seat(state)
            if seat != expected:
                raise IllegalAction(f"{quoted!r}: the next deal is for {seat_label(expected)}")
            if len(set(bones)) != 4:
                raise IllegalAction(f"{quoted!r}: the four bones must differ")
            action: Any = ("deal", seat, tuple(bones))
        else:
            if state.dealt < state.nseats:
                raise IllegalAction(f"{quoted!r}: the hand is being dealt")
            action = ("drawn", bones[0])
        missing = [b for b in bones if b not in state.pile]
        if missing:
            raise IllegalAction(f"{quoted!r}: {bone_text(missing[0])} is not in the pile")
        return action

    # -- hidden information -----------------------------------------------------------------

    def mask_action(self, before: JohariState, action: Any, final: JohariState,
                    seat: int | None) -> str:
        if action == RESIGN or action[0] not in ("deal", "drawn"):
            return self.format_action(before, action)
        if action[0] == "drawn":  # D3: only the drawer sees the bone
            drawer = before.mover()
            return self.format_action(before, action) if seat == drawer else f"drawn {HIDDEN}"
        _, owner, bones = action
        shown = [bone_text(b) if sees(owner, p, seat, False) else HIDDEN
                 for p, b in enumerate(bones)]
        return f"deal {seat_label(owner)}: " + " ".join(shown)

    def mask_record(self, states: Sequence[JohariState], actions: Sequence[Any],
                    seat: int | None) -> list[str]:
        """A bone stays shown where it entered the hand (its deal or draw) once the seat has
        seen it anywhere: bones move only by public swaps and placements, so it knows."""
        seen = views.seen_bones(states, seat)
        out = []
        for before, action in zip(states, actions, strict=False):
            if action == RESIGN or action[0] not in ("deal", "drawn"):
                out.append(self.format_action(before, action))
            elif action[0] == "drawn":
                shown = seat == before.mover() or (before.hand, action[1]) in seen
                out.append(self.format_action(before, action) if shown else f"drawn {HIDDEN}")
            else:
                _, owner, bones = action
                words = [bone_text(b) if sees(owner, p, seat, False) or (before.hand, b) in seen
                         else HIDDEN for p, b in enumerate(bones)]
                out.append(f"deal {seat_label(owner)}: " + " ".join(words))
        return out

    def arrange_hidden(self, state: JohariState, seat: int | None, text: str,
                       rng: SeedRng) -> JohariState:
        """A bone a deal or draw shows must still be in the pile."""
        words = text.replace(":", " ").split()
        if not words or words[0].lower() not in ("deal", "drawn"):
            return state
        shown = [(int(w[0]), int(w[2])) for w in words
                 if len(w) == 3 and w[1] == "-" and w[0].isdigit() and w[2].isdigit()]
        return views.to_pile(state, seat, [(min(b), max(b)) for b in shown], rng)

    def describe_action(self, state: JohariState, action: Any) -> str | None:
        if action != RESIGN and action[0] == "score":
            # The line it annotates names the player already (by name, not seat label).
            return f"scores {self.box_score(state, state.mover(), action[1])}"
        return None

    # -- presentation -----------------------------------------------------------------------

    def randomize_hidden(self, state: JohariState, seat: int | None, rng: SeedRng
                         ) -> JohariState:
        return views.randomize_hidden(state, seat, rng)

    def view(self, state: JohariState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.to_move(state))

    def diagram(self, state: JohariState, seat: int | None, names: Sequence[str]) -> Diagram:
        # the view in default seat names, as the drawing reads it (the names come from names)
        return views.diagram(views.view(state, seat, self.to_move(state)), state, names)

    scores_in_render = True  # the score sheet ends with the totals

    def render(self, state: JohariState, seat: int | None, names: Sequence[str]) -> str:
        return views.render(self.view(state, seat), state, names)


def owner_is_mover(state: JohariState, owner: int) -> bool:
    return owner == state.mover()


def _ranked(keys: list[int], totals: list[int], termination: str) -> Outcome:
    """Rank by key (higher is better); tied best keys share the win, all tied is a draw."""
    best = max(keys)
    everyone = all(k == best for k in keys)
    results = []
    for i, key in enumerate(keys):
        rank = 1 + sum(1 for other in keys if other > key)
        kind = "draw" if everyone else ("win" if key == best else "loss")
        results.append(SeatResult(kind, rank, totals[i]))
    return Outcome(termination, tuple(results))
