"""The race engine shared by Tawula and Track Gammon: turns, chance, the end, views.

A game class names its geometry, seats and options; everything else is here. An action is a
whole turn (a tuple of sub-moves, ``()`` for ``pass``), ``("roll", a, b)`` for chance, or
``RESIGN``. The listed turns are one sequence of sub-moves per reachable position; a typed turn
keeps the sub-moves as the player typed them, in their order and along their path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN, Game, Option, Outcome, SeatResult
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.race import encoding, notation, view
from gametool.games.race.check import explain_rejection, follow
from gametool.games.race.geometry import Geometry
from gametool.games.race.rules import Table
from gametool.games.race.state import RaceState, initial, replace_at
from gametool.games.race.turns import (
    Key,
    courtesy_ok,
    courtesy_start,
    generate,
    has_submove,
    hit_spaces,
    reach,
)

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

ROLLS_ORDERED = [("roll", a, b) for a in range(1, 7) for b in range(1, 7)]
ROLLS = [("roll", a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


class RaceGame(Game[RaceState, Any]):
    """Rules common to the race games; subclasses give the geometry and the options."""

    geometry: ClassVar[Geometry]
    prefix_output: ClassVar[bool] = False
    space_word: ClassVar[str] = "space"
    """What the rules file calls a place on the board, for messages."""
    start_word: ClassVar[str] = "start point"
    citations: ClassVar[dict[str, str]] = {}
    """Where the game's rules file has Tawula's decision of that number (messages cite it)."""
    names_seats = True
    names_seats_in_actions = False  # turns name colours (B: ...), never seats
    chance = "two dice"
    hidden = ""
    draws = True

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.geo = self.geometry
        self.bar_all = self.settings["bar_priority"] == "all"
        self.courtesy = self.settings["courtesy"] == "on"
        self.placings = self.settings.get("placings", "off") == "on"
        self.opening_roll = self.settings.get("opening", "black") == "roll"
        self.cap = self.settings["max_plies"]
        # The last typed turn found legal, (state, turn, key): applying it needs no table.
        self._checked: tuple[RaceState, Any, Key] | None = None
        # The bound on plies (chance rolls included) grows with the option's bound on actions.
        default = int(next(o.default for o in self.options if o.name == "max_plies"))
        self.max_plies = -(-type(self).max_plies * self.cap // default)  # type: ignore[misc]
        self._last: tuple[RaceState, Table] | None = None
        self._views: dict[RaceState, dict[str, Any]] = {}
        self._renders: dict[tuple[RaceState, tuple[str, ...]], str] = {}

    # -- positions and turns ---------------------------------------------------------------

    def initial_state(self, nseats: int) -> RaceState:
        return initial(self.geo, self.opening_roll)

    def to_move(self, state: RaceState) -> int | None:
        if state.ended is not None:
            return None
        return CHANCE if state.dice is None else state.seat

    def table(self, state: RaceState) -> Table:
        """The legal turns of the seat to move, computed once per position."""
        last = self._last
        if last is not None and (last[0] is state or last[0] == state):
            return last[1]
        assert state.dice is not None
        seat, geo = state.seat, self.geo
        results, best = generate(geo, state, seat, state.dice, self.bar_all, self.courtesy)
        entries = results
        if self.courtesy:  # D9: the courtesy filter comes before the use-of-dice rule
            before = courtesy_start(geo, state, seat)
            entries = {k: e for k, e in results.items()
                       if courtesy_ok(geo, state, seat, k, before)}
            best = max(e[1] for e in entries.values())
        chosen = [(k, e) for k, e in entries.items() if e[1] == best]
        if best == 1 and state.dice[0] != state.dice[1] and any(e[2] for _, e in chosen):
            chosen = [(k, e) for k, e in chosen if e[2]]  # D5: the higher die
        key_of = {e[0]: k for k, e in chosen}
        table = Table(list(key_of), key_of, frozenset(key_of.values()), results, best)
        self._last = (state, table)
        return table

    def legal_actions(self, state: RaceState) -> list[Any]:
        if self.to_move(state) in (None, CHANCE):
            return []
        return list(self.table(state).actions)

    def chance_outcomes(self, state: RaceState) -> list[Any] | None:
        return list(ROLLS_ORDERED if state.opening else ROLLS)

    def sample_chance(self, state: RaceState, rng: SeedRng) -> Any:
        a, b = rng.die(), rng.die()
        if state.opening:  # D3: the first die is Black's, the second White's
            return ("roll", a, b)
        return ("roll", a, b) if a >= b else ("roll", b, a)

    def apply(self, state: RaceState, action: Any) -> RaceState:
        if action == RESIGN:
            return self._resign(state)
        if action and action[0] == "roll":
            a, b = action[1], action[2]
            high = (a, b) if a >= b else (b, a)
            if not state.opening:
                return state._replace(dice=high, last_roll=(a, b))
            if a == b:  # D3: a tied opening roll is void
                return state._replace(last_roll=(a, b))
            return state._replace(seat=0 if a > b else 1, dice=high, opening=False,
                                  last_roll=(a, b))
        checked = self._checked
        if checked is not None and checked[0] is state and checked[1] == action:
            return self._after(self._place(state, state.seat, checked[2]), state.seat)
        table = self.table(state)
        key = table.key_of.get(action)
        if key is None:  # a typed turn: another path to a listed position
            key = reach(self.geo, state, state.seat, action)
            if key not in table.chosen:
                raise IllegalAction(f"not a legal turn here: {action!r}")
        return self._after(self._place(state, state.seat, key), state.seat)

    def _place(self, state: RaceState, seat: int, key: Key) -> RaceState:
        """The position with the mover's figures at ``key`` and the hit figures on their bars."""
        geo = self.geo
        mine, hand, bar, off, hits = key
        counts = list(state.counts)
        bars = list(state.bar)
        for s in hit_spaces(geo, seat, hits):
            for q, row in enumerate(counts):
                if q != seat and row[s] == 1:
                    counts[q] = replace_at(row, s, 0)
                    bars[q] += 1
                    break
        counts[seat] = mine if seat == 0 else tuple([mine[r] for r in geo.rel[seat]])
        bars[seat] = bar
        return state._replace(counts=tuple(counts), hand=replace_at(state.hand, seat, hand),
                              bar=tuple(bars), off=replace_at(state.off, seat, off))

    def _after(self, state: RaceState, seat: int) -> RaceState:
        """End of a player's turn: a finish, then the next seat, dead position and ply cap."""
        if state.off[seat] != self.geo.figures and self.geo.seats == 2 and not any(state.out):
            return self._go_on_two(state, seat)
        state = state._replace(plies=state.plies + 1, dice=None)
        if state.off[seat] == self.geo.figures and not state.places[seat]:
            places = list(state.places)
            if not self.placings:  # the first to bear off all figures wins at once
                places[seat] = 1
                return state._replace(places=tuple(places), ended="borne off")
            places[seat] = self._free_places(state)[0]  # D11: the others play on
            state = state._replace(places=tuple(places))
        return self._go_on(state, seat, "borne off")

    def _resign(self, state: RaceState) -> RaceState:
        """D12: the resigner leaves with all their figures; play goes on with the others."""
        seat = state.seat
        places = list(state.places)
        if self.placings:
            places[seat] = self._free_places(state)[-1]  # the lowest place not yet taken
        if self.geo.seats > 2:  # Track Gammon D12; in Tawula the game simply ends
            empty = (0,) * self.geo.spaces
            counts = tuple(empty if q == seat else row for q, row in enumerate(state.counts))
            state = state._replace(counts=counts, bar=replace_at(state.bar, seat, 0),
                                   hand=replace_at(state.hand, seat, 0))
        state = state._replace(out=replace_at(state.out, seat, True), places=tuple(places),
                               plies=state.plies + 1, dice=None)
        return self._go_on(state, seat, "resignation")

    def _go_on(self, state: RaceState, seat: int, termination: str) -> RaceState:
        """Hand the turn on; the game ends with one player left, a dead position or the cap."""
        left = [q for q in range(self.geo.seats) if state.in_game(q)]
        if len(left) <= 1:  # the last player takes the best place still free
            places = list(state.places)
            for q in left:
                places[q] = self._free_places(state)[0]
            return state._replace(places=tuple(places), ended=termination)
        state = state._replace(seat=self._next_seat(state, seat))
        if not any(has_submove(self.geo, state, q, self.bar_all)
                   for q in self._in_game_from(state, state.seat)):
            return state._replace(ended="dead position")  # D14
        if state.plies >= self.cap:
            return state._replace(ended="max_plies")  # D13
        return state

    def _go_on_two(self, state: RaceState, seat: int) -> RaceState:
        """The common two-player case of :meth:`_go_on`, in one step (the hot path)."""
        plies = state.plies + 1
        state = state._replace(plies=plies, dice=None, seat=1 - seat)
        if not (has_submove(self.geo, state, 1 - seat, self.bar_all)
                or has_submove(self.geo, state, seat, self.bar_all)):
            return state._replace(ended="dead position")  # D14
        if plies >= self.cap:
            return state._replace(ended="max_plies")  # D13
        return state

    def _free_places(self, state: RaceState) -> list[int]:
        taken = set(state.places)
        return [p for p in range(1, self.geo.seats + 1) if p not in taken]

    def _next_seat(self, state: RaceState, seat: int) -> int:
        n = self.geo.seats
        for k in range(1, n + 1):
            q = (seat + k) % n
            if state.in_game(q):
                return q
        return seat

    def _in_game_from(self, state: RaceState, seat: int) -> list[int]:
        n = self.geo.seats
        return [q for q in ((seat + k) % n for k in range(n)) if state.in_game(q)]

    def race(self, state: RaceState) -> list[int]:
        """The pip count of every seat: the points each of its figures still has to travel to
        bear off, one point past the last track position (r = spaces - 1). A figure at track
        position r has ``spaces - r`` to go; one in hand enters as at r = 0 and one on the bar
        as at r = -1 (D: entry goes to r = d, re-entry to r = d - 1)."""
        geo = self.geo
        n = geo.spaces
        pips = []
        for seat in range(geo.nseats):
            rel = geo.rel[seat]
            on_board = sum(count * (n - rel[space])
                           for space, count in enumerate(state.counts[seat]) if count)
            pips.append(on_board + state.hand[seat] * n + state.bar[seat] * (n + 1))
        return pips

    def encode_position(self, state: RaceState) -> str:
        return encoding.encode(self, state)

    def decode_position(self, text: str, nseats: int) -> RaceState:
        return encoding.decode(self, text)

    # -- the end ---------------------------------------------------------------------------

    def ranks(self, state: RaceState) -> list[int]:
        """Each seat's place at the end: fixed places, then shared best free place, else 2."""
        free = self._free_places(state)
        best = free[0] if free else 1
        out = []
        for q in range(self.geo.seats):
            if state.places[q]:
                out.append(state.places[q])
            elif state.in_game(q):
                out.append(best)  # D13/D14: those still playing share the best free place
            else:
                out.append(max(2, best))  # a resigner without a place cannot win
        return out

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.ended is None:
            return None
        ranks = self.ranks(state)
        firsts = ranks.count(1)
        results = tuple(
            SeatResult("loss" if r != 1 else "win" if firsts == 1 else "draw", r)
            for r in ranks)
        return Outcome(state.ended, results)

    # -- text ------------------------------------------------------------------------------

    def cite(self, decision: str) -> str:
        """The decision as this game's rules file names it (Tawula's numbering by default)."""
        return self.citations.get(decision, decision)

    def format_action(self, state: RaceState, action: Any) -> str:
        if action and action[0] == "roll":
            return f"roll {action[1]}-{action[2]}"
        text = RESIGN if action == RESIGN else notation.format_turn(self.geo, state.seat, action)
        if self.prefix_output:
            return f"{self.geo.letters[state.seat]}: {text}"
        return text

    def parse_action(self, state: RaceState, text: str) -> Any:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver("the game is over: no more actions")
        if seat == CHANCE:
            return self._parse_roll(state, text)
        if notation.read_roll(text) is not None:
            raise IllegalAction(f"{text.strip()!r}: it is {self.geo.colours[seat]}'s turn to "
                                "move, not a roll")
        parsed = notation.read_action(text, self.geo.spaces, self.space_word)
        letters = self.geo.letters
        if parsed.player is not None and parsed.player != letters[seat]:
            if parsed.player not in letters:
                raise MalformedAction(f"malformed action {text.strip()!r}: no player "
                                      f"{parsed.player!r} (players: {', '.join(letters)})")
            raise IllegalAction(f"{text.strip()!r}: it is {self.geo.colours[seat]}'s turn, not "
                                f"{self.geo.colours[letters.index(parsed.player)]}'s")
        if parsed.word == RESIGN:
            return RESIGN
        if parsed.word != "pass":
            key, used, dice_used, played = follow(self, state, parsed.specs)
            if used == 4 - 2 * (state.dice[0] != state.dice[1]) and (  # type: ignore[index]
                    not self.courtesy or courtesy_ok(self.geo, state, state.seat, key,
                                                     courtesy_start(self.geo, state, state.seat))):
                # Every die is played (none can do better) and the courtesy rule allows the
                # result: the turn is legal without listing the others (D5, D9).
                self._checked = (state, played, key)
                return played
        table = self.table(state)
        if parsed.word == "pass":
            if table.actions == [()]:
                return ()
            example = self.format_action(state, table.actions[0])
            raise IllegalAction(f"'pass' is only legal when no sub-move can be played "
                                f"({self.cite('D11')}); "
                                f"for example {example!r} can")
        if used >= table.best and key in table.chosen:
            # D5: fewer dice never make a turn, whatever they reach. The turn stays as typed.
            return played
        raise IllegalAction(explain_rejection(self, state, table, key, used, dice_used))

    def _parse_roll(self, state: RaceState, text: str) -> Any:
        dice = notation.read_roll(text)
        if dice is None:
            try:
                notation.read_action(text, self.geo.spaces, self.space_word)
            except MalformedAction:
                raise MalformedAction(f"malformed action {text.strip()!r}: expected a roll "
                                      "such as 'roll 6-4'") from None
            raise IllegalAction(f"{text.strip()!r}: chance is to roll the dice first")
        a, b = dice
        if state.opening:
            return ("roll", a, b)
        return ("roll", a, b) if a >= b else ("roll", b, a)

    def describe_action(self, state: RaceState, action: Any) -> str | None:
        if action and action[0] == "roll" and state.opening:
            a, b = action[1], action[2]
            if a == b:
                return "opening roll tied: roll again"
            return f"{self.geo.colours[0 if a > b else 1]} begins with {max(a, b)}-{min(a, b)}"
        return None

    # -- views -----------------------------------------------------------------------------

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        """Everything is public, so every seat sees the same (computed once per position)."""
        cached = self._views.get(state)
        if cached is None:
            if len(self._views) > 64:
                self._views.clear()
            cached = self._views[state] = view.position(self, state)
        return cached

    def board_rows(self, state: RaceState) -> list[list[str]]:
        """The board as rows of cells with space numbers on the edges."""
        raise NotImplementedError

    def render(self, state: RaceState, seat: int | None, names: Sequence[str]) -> str:
        """The board, the seats' hands, bars and borne-off figures, and the dice."""
        key = (state, tuple(names))
        cached = self._renders.get(key)
        if cached is None:
            if len(self._renders) > 64:
                self._renders.clear()
            cached = self._renders[key] = view.draw(self, state, names)
        return cached

    def diagram(self, state: RaceState, seat: int | None, names: Sequence[str]) -> Diagram:
        return view.diagram(self, state, names)


def common_options(max_plies: int, bar: str = "D6", courtesy: str = "D9") -> tuple[Option, ...]:
    return (
        Option("bar_priority", "all", ("all", "board"),
               help="all: re-enter before any other sub-move; board: hand entries may come "
                    f"first ({bar})"),
        Option("courtesy", "off", ("off", "on"),
               help=f"forbid newly shutting out an opponent on the bar ({courtesy})"),
        Option("max_plies", str(max_plies), kind=int, minimum=1, maximum=1_000_000,
               help="player actions before the game is drawn (D13)"),
    )
