"""Special Salvo: Salvo with a diagonal submarine, refereed by the engine or by commit-reveal.

Referee mode (``referee=on``): each seat places its fleet (hidden), then the seats fire salvos
and the engine, as the referee, answers each salvo with one ``report`` action of the pseudo-seat
``chance`` (it holds no randomness: the answer follows from the fleets). Commit-reveal mode
(``referee=off``): each seat commits to its fleet with a hash, the defender reports on every
salvo, and at the end both seats reveal fleet and salt; the reveal is checked against the
commitment, the placement rules and every report that seat made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, REFEREE, RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo import reports as rp
from gametool.games.special_salvo.fleet import ALL_SUNK, FLEET_SQUARES, SHIPS, SQUARE_NAMES
from gametool.games.special_salvo.search import GaveUp, consistent_fleet, sample_fleet
from gametool.games.special_salvo.state import (
    FIRE,
    OVER,
    PLACE,
    REPORT,
    REVEAL,
    SalvoState,
    pair_with,
    replace,
)
from gametool.games.special_salvo.texts import NOTATION, SUMMARY
from gametool.games.special_salvo.views import diagram_state, render_state, view_state

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

FIRE_ACTIONS = tuple(("fire", (sq,)) for sq in range(100))
Action = Any
"""("place", placements) | ("fire", squares) | ("report", ((square, code), ...)) |
("commit", hex) | ("reveal", (placements, salt)) | RESIGN"""


class SpecialSalvo(Game[SalvoState, Action]):
    """Special Salvo (and, with fleet=classic, plain Salvo), after Milton Bradley's Battleship."""

    id = "special-salvo"
    aliases = ("salvo",)
    names_seats = True  # seats in texts and terminations are written p1, p2 (record names shown)
    notation_words = frozenset("place fire report commit reveal salt miss hit sunk resign cv bb "
                               "cr sub pt e s se ne w n nw sw".split())
    notation_tokens = r"[a-j](10|[1-9])|[0-9a-f]{8,}"
    name = "Special Salvo"
    min_players = 2
    max_players = 2
    # No randomness: the pseudo-seat chance only writes the referee's reports (so that the tool
    # writes them itself, as it does chance actions in a record with a seed).
    chance = "none (referee reports)"
    hidden = "fleets"
    draws = True
    options: ClassVar[tuple[Option, ...]] = (
        Option("fleet", "special", ("special", "classic"),
               help="D2: the submarine runs diagonally (special) or straight (classic Salvo)"),
        Option("shots", "ships", ("ships", "squares", "fixed5"),
               help="D5: shots per salvo: ships afloat, squares not hit, or always 5"),
        Option("report", "sunk", ("sunk", "ships"),
               help="D7: name a ship only when sunk, or on every hit"),
        Option("rounds", "off", ("off", "on"),
               help="D10: end as soon as a fleet is sunk, or complete the round (a tie "
                    "possible)"),
        Option("referee", "on", ("on", "off"),
               help="on: the engine holds both fleets and reports; off: commit-reveal, each "
                    "seat keeps its fleet in a private file and reports itself"),
    )
    summary = SUMMARY
    notation = NOTATION
    # 10 ship placements + 200 shots + 200 reports (one per shot at most) + 2 reveals.
    max_plies = 412

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.classic: bool = self.settings["fleet"] == "classic"
        self.referee: bool = self.settings["referee"] == "on"
        self.name_hits: bool = self.settings["report"] == "ships"
        self.rounds: bool = self.settings["rounds"] == "on"
        self.shots: str = self.settings["shots"]
        self.table = fl.placement_table(self.classic)

    # -- turn order ------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> SalvoState:
        return SalvoState()

    def to_move(self, state: SalvoState) -> int | None:
        return state.turn

    def perft_refusal(self, state: SalvoState) -> str | None:
        # A turn is a whole fleet (some 10^10 placements) or a salvo of up to 100 choose 5
        # shot orders: far too many sequences to count.
        return ("a Special Salvo turn (a whole fleet or a salvo of several shots) has too many "
                "action sequences to count")

    def legal_actions(self, state: SalvoState) -> list[Action]:
        phase, turn = state.phase, state.turn
        if turn is None or turn == CHANCE:
            return []
        if phase == FIRE:
            free = ~(state.fired[turn] | fl.mask_of(state.salvo))
            return [FIRE_ACTIONS[sq] for sq in range(100) if free >> sq & 1]
        if phase == PLACE and self.referee:
            occupied, done = state.occupied(turn), {p[0] for p in state.placed[turn]}
            return [("place", (p,)) for ship, rows in enumerate(self.table) if ship not in done
                    for mask, p in rows if not mask & occupied]
        if phase == REPORT:
            return [("report", ((state.salvo[len(state.answers)], code),))
                    for code in self._claims(state)]
        return []  # commit and reveal come from the seat's private file (gametool commit/answer)

    def next_step(self, state: SalvoState) -> str | None:
        """Commit-reveal: the commitment and the reveals come from the seat's private file."""
        if self.referee or state.turn in (None, CHANCE):
            return None
        who = seat_text(state.turn)
        if state.phase == PLACE:
            return (f"{who} commits to a fleet: gametool commit FILE --as SEAT --private MINE "
                    '--fleet "cv a1 e, ..."')
        if state.phase == REPORT:
            return (f"{who} answers the salvo: gametool answer FILE --as SEAT --private MINE "
                    "(or type one of the reports listed)")
        if state.phase == REVEAL:
            return (f"{who} reveals the fleet and salt: gametool answer FILE --as SEAT "
                    "--private MINE (a reveal that breaks the commitment or a report loses; "
                    "resign is accepted too)")
        return None

    def _tally(self, state: SalvoState) -> tuple[int, int, list[int], int]:
        """Commit-reveal, for the next shot of the salvo: the defender's ships reported sunk,
        squares reported hit, hits reported per ship, and the squares the attacker can still
        fire at after this shot."""
        attacker = state.attacker
        sunk, hits, named = rp.tally(state.sunk[1 - attacker],
                                     state.hits[1 - attacker].bit_count(),
                                     rp.named_hits(state.log[attacker]), state.answers)
        later = (100 - state.fired[attacker].bit_count()
                 + len(state.salvo) - len(state.answers) - 1)
        return sunk, hits, named, later

    def _claims(self, state: SalvoState) -> list[int]:
        """Commit-reveal: the results the defender may claim for the next shot of the salvo."""
        sunk, hits, named, later = self._tally(state)
        return rp.claims(sunk, hits, named, later, self.name_hits)

    def chance_outcomes(self, state: SalvoState) -> list[Action] | None:
        if state.turn != CHANCE:
            return None
        return [self._true_report(state, state.placed[1 - state.attacker])]

    def sample_chance(self, state: SalvoState, rng: SeedRng) -> Action:
        """The referee's report on the salvo: no randomness, it follows from the fleet."""
        return self._true_report(state, state.placed[1 - state.attacker])

    def true_report(self, state: SalvoState, placements: Sequence[fl.Placement]) -> Action:
        """The report a defender with this fleet owes on the rest of the salvo under way."""
        return self._true_report(state, placements)

    def _true_report(self, state: SalvoState, placements: Sequence[fl.Placement]) -> Action:
        done = len(state.answers)
        pending = state.salvo[done:]
        before = state.fired[state.attacker] & ~fl.mask_of(pending)
        return ("report", rp.true_results(placements, before, pending, self.name_hits))

    # -- playing -----------------------------------------------------------------------------

    def apply(self, state: SalvoState, action: Action) -> SalvoState:
        return replace(self._apply(state, action), ply=state.ply + 1)

    def _apply(self, state: SalvoState, action: Action) -> SalvoState:
        if action == RESIGN:
            return replace(state, phase=OVER, turn=None, ending="resignation",
                           winner=1 - state.turn)
        kind, data = action
        if kind == "fire":
            seat = state.turn
            salvo = state.salvo + data
            fired = pair_with(state.fired, seat, state.fired[seat] | fl.mask_of(data))
            if len(salvo) < state.due:
                return replace(state, salvo=salvo, fired=fired)
            return replace(state, salvo=salvo, fired=fired, phase=REPORT, attacker=seat,
                           answers=(), answered=(), turn=CHANCE if self.referee else 1 - seat)
        if kind == "report":
            return self._report(state, tuple(code for _sq, code in data), state.ply + 1)
        if kind == "place":
            seat = state.turn
            placed = pair_with(state.placed, seat, tuple(sorted(state.placed[seat] + data)))
            state = replace(state, placed=placed)
            if len(placed[seat]) < len(SHIPS):
                return state
            return self._after_placement(state, seat)
        if kind == "commit":
            seat = state.turn
            commits = pair_with(state.commits, seat, data)
            return self._after_placement(replace(state, commits=commits), seat)
        # reveal
        seat = state.turn
        fault = self.reveal_fault(state, seat, data[0], data[1])
        state = replace(state, placed=pair_with(state.placed, seat, tuple(sorted(data[0]))),
                        revealed=pair_with(state.revealed, seat, True))
        if fault is not None:  # the lie decides the game, whatever the reports said
            return replace(state, phase=OVER, turn=None, winner=1 - seat,
                           ending=f"{fault[0]} by {seat_text(seat)} at ply {fault[1]}")
        if seat == 0:
            return replace(state, turn=1)
        return replace(state, phase=OVER, turn=None)

    def _after_placement(self, state: SalvoState, seat: int) -> SalvoState:
        if seat == 0:
            return replace(state, turn=1)
        return self._start_salvo(state, 0)  # D9: Player 1 fires first

    def _count(self, state: SalvoState, seat: int) -> int:
        """D5: the shots ``seat`` is owed now, before the cap."""
        if self.shots == "ships":
            return len(SHIPS) - state.sunk[seat].bit_count()
        if self.shots == "squares":
            return FLEET_SQUARES - state.hits[seat].bit_count()
        return 5

    def _start_salvo(self, state: SalvoState, seat: int) -> SalvoState:
        due = self._count(state, seat)
        reserve = state.reserve
        if self.rounds:
            if seat == 0:  # D10: Player 2's count is fixed before Player 1's salvo
                reserve = self._count(state, 1)
            else:
                due = reserve
        due = min(due, 100 - state.fired[seat].bit_count())  # D6: capped by squares left
        return replace(state, phase=FIRE, turn=seat, salvo=(), answers=(), due=due,
                       reserve=reserve)

    def _report(self, state: SalvoState, codes: tuple[int, ...], ply: int) -> SalvoState:
        answers = state.answers + codes
        answered = state.answered + (ply,) * len(codes)
        if len(answers) < len(state.salvo):
            return replace(state, answers=answers, answered=answered)
        attacker, defender = state.attacker, 1 - state.attacker
        hits, sunk = state.hits[defender], state.sunk[defender]
        number = state.salvos[attacker] + 1
        entries = []
        for sq, code in zip(state.salvo, answers, strict=True):
            if code != nt.MISS:
                hits |= 1 << sq
            if code >= nt.SUNK:
                sunk |= 1 << (code - nt.SUNK)
            entries.append((sq, code, number))
        state = replace(state, hits=pair_with(state.hits, defender, hits),
                        sunk=pair_with(state.sunk, defender, sunk),
                        log=pair_with(state.log, attacker, state.log[attacker] + tuple(entries)),
                        said=pair_with(state.said, attacker, state.said[attacker] + answered),
                        salvos=pair_with(state.salvos, attacker, number), answers=answers)
        if not self.rounds:
            if sunk == ALL_SUNK:
                return self._finish(state, "fleet sunk", attacker)
            return self._start_salvo(state, defender)
        if attacker == 0:
            return self._start_salvo(state, 1)  # the reply, even if Player 2's fleet is sunk
        gone = [s for s in (0, 1) if state.sunk[s] == ALL_SUNK]
        if len(gone) == 2:
            return self._finish(state, "both fleets sunk", None)
        if gone:
            return self._finish(state, "fleet sunk", 1 - gone[0])
        return self._start_salvo(state, 0)

    def _finish(self, state: SalvoState, ending: str, winner: int | None) -> SalvoState:
        if self.referee:
            return replace(state, phase=OVER, turn=None, ending=ending, winner=winner)
        return replace(state, phase=REVEAL, turn=0, ending=ending, winner=winner)

    def outcome(self, state: SalvoState) -> Outcome | None:
        if state.turn is not None:
            return None
        if state.winner is None:
            return Outcome.draw(2, state.ending or "both fleets sunk")
        return Outcome.win(2, state.winner, state.ending or "fleet sunk")

    # -- reading and writing actions -------------------------------------------------------

    def format_action(self, state: SalvoState, action: Action) -> str:
        if action == RESIGN:
            return RESIGN
        kind, data = action
        if kind == "fire":
            return "fire " + " ".join(SQUARE_NAMES[sq] for sq in data)
        if kind == "report":
            return "report " + nt.format_results(data)
        if kind == "place":
            return "place " + fl.format_fleet(data)
        if kind == "commit":
            return f"commit {data}"
        return f"reveal {fl.format_fleet(data[0])} salt {data[1]}"

    def parse_action(self, state: SalvoState, text: str) -> Action:
        if state.turn is None:
            raise GameOver("the game is over: no more actions")
        kind, data = nt.read(text)
        said = text.strip()
        if kind == "resign":
            if state.turn == CHANCE:
                raise IllegalAction("'resign': the referee is to report, not a player")
            return RESIGN  # also in the reveal phase: a seat may always give up
        expected = self._expected(state)
        if kind != expected:
            raise IllegalAction(f"{said!r}: {self._why_not(state, kind)}")
        if kind == "fire":
            return self._parse_fire(state, said, data)
        if kind == "report":
            return self._parse_report(state, said, data)
        if kind == "place":
            seat = state.turn
            occupied = state.occupied(seat)
            done = fl.mask_of(p[0] for p in state.placed[seat])
            fl.check_placements(data, self.classic, occupied, done)
            named = done | fl.mask_of(p[0] for p in data)
            if len(data) > 1 and named != fl.ALL_SUNK:
                missing = ", ".join(SHIPS[k] for k in range(len(SHIPS)) if not named >> k & 1)
                raise IllegalAction(f"{said!r}: the placement lacks the {missing}; a placement "
                                    "names the whole fleet, or one ship at a time (D4)")
            return ("place", tuple(sorted(data)))
        if kind == "commit":
            if data == state.commits[1 - state.turn]:
                # Copied, it would be opened by the other seat's reveal, which comes first.
                raise IllegalAction(f"{said!r}: this is {seat_text(1 - state.turn)}'s commitment; "
                                    "a seat commits to its own fleet and salt")
            return ("commit", data)
        return self._parse_reveal(state, data)

    def _expected(self, state: SalvoState) -> str:
        if state.phase == PLACE:
            return "place" if self.referee else "commit"
        return {FIRE: "fire", REPORT: "report", REVEAL: "reveal"}[state.phase]

    def _why_not(self, state: SalvoState, kind: str) -> str:
        if kind in ("commit", "reveal") and self.referee:
            return f"{kind} belongs to commit-reveal play (referee=off)"
        if kind == "place" and not self.referee:
            return "with referee=off a fleet is committed ('gametool commit'), not placed"
        if state.phase == PLACE:
            return "the fleets are placed first, Player 1 then Player 2 (D4)"
        if state.phase == REPORT:
            return "the salvo is being reported"
        if state.phase == REVEAL:
            return "the game is decided; both seats now reveal their fleets"
        if kind == "place":
            return "this seat's fleet is already placed (D4)"
        return f"it is time to fire (a salvo of {state.due} shots)"

    def _parse_fire(self, state: SalvoState, said: str, squares: tuple[int, ...]) -> Action:
        seat = state.turn
        left = state.due - len(state.salvo)
        if len(squares) > left or 1 < len(squares) < left:
            raise IllegalAction(f"{said!r}: {len(squares)} shots, but the salvo has "
                                f"{left} left of {state.due}; name them all, or one at a "
                                "time (D5, D6)")
        if len(set(squares)) != len(squares):
            twice = next(sq for sq in squares if squares.count(sq) > 1)
            raise IllegalAction(f"{said!r}: {SQUARE_NAMES[twice]} is named twice (D6)")
        fired = state.fired[seat] | fl.mask_of(state.salvo)
        for sq in squares:
            if fired >> sq & 1:
                raise IllegalAction(f"{said!r}: {SQUARE_NAMES[sq]} was fired at before (D6)")
        return ("fire", squares)

    def _parse_report(self, state: SalvoState, said: str, pairs: tuple[Any, ...]) -> Action:
        done = len(state.answers)
        pending = state.salvo[done:]
        if self.referee:
            truth = self._true_report(state, state.placed[1 - state.attacker])
            if [sq for sq, _ in pairs] != list(pending):
                raise IllegalAction(f"{said!r}: the report answers the salvo "
                                    f"{' '.join(SQUARE_NAMES[s] for s in pending)} in that "
                                    "order (D8)")
            for (sq, code), (_sq, right) in zip(pairs, truth[1], strict=True):
                if code != right:
                    raise IllegalAction(
                        f"{said!r}: wrong call {SQUARE_NAMES[sq]} {nt.result_text(code)}; the "
                        f"fleet gives {SQUARE_NAMES[sq]} {nt.result_text(right)} (D11)")
            return truth
        if [sq for sq, _ in pairs] != list(pending[:len(pairs)]) or 1 < len(pairs) < len(pending):
            raise IllegalAction(f"{said!r}: the report answers the salvo "
                                f"{' '.join(SQUARE_NAMES[s] for s in pending)} in that order (D8)")
        probe = state
        for sq, code in pairs:
            if (code == nt.HIT) == self.name_hits and code < nt.SUNK and code != nt.MISS:
                raise IllegalAction(f"{said!r}: {SQUARE_NAMES[sq]} {nt.result_text(code)}: "
                                    + self._claim_rule(probe, code))
            if code not in self._claims(probe):
                raise IllegalAction(
                    f"{said!r}: a false report by {seat_text(1 - state.attacker)}: "
                    f"{SQUARE_NAMES[sq]} {nt.result_text(code)} fits no fleet: "
                    + self._claim_rule(probe, code))
            probe = replace(probe, answers=probe.answers + (code,))
        return ("report", tuple(pairs))

    def _claim_rule(self, state: SalvoState, code: int) -> str:
        """Why the defender may not claim ``code`` for the next shot (commit-reveal)."""
        sunk, hits, named, later = self._tally(state)
        ship = (code - nt.SUNK if code >= nt.SUNK
                else code - nt.HIT_SHIP if code >= nt.HIT_SHIP else None)
        if code == nt.HIT and self.name_hits:
            return "report=ships names the ship on every hit (D7)"
        if nt.HIT_SHIP <= code < nt.SUNK and not self.name_hits:
            return "report=sunk names a ship only when it is sunk (D7)"
        if ship is not None and sunk >> ship & 1:
            return f"the {SHIPS[ship]} was reported sunk already"
        left = fl.FLEET_SQUARES - hits
        if code == nt.MISS or left - 1 > later:
            return (f"the ships afloat have {left} squares not yet reported hit, and only "
                    f"{later} shots are left after this one to find them")
        length = fl.LENGTHS[ship] if ship is not None else 0
        if code >= nt.SUNK:
            return (f"the {SHIPS[ship]} ({length} squares) is sunk by the hit on its last "
                    f"square, after {length - 1} hits reported on it")
        if ship is not None:
            return (f"the {SHIPS[ship]} has {named[ship]} of its {length} squares reported "
                    "hit; the hit on its last square sinks it")
        return ("every ship afloat has all but its last square reported hit; the next hit "
                "sinks one")

    def _parse_reveal(self, state: SalvoState, data: Any) -> Action:
        """Any reveal is accepted and recorded: one that breaks the commitment, the placement
        rules or a report ends the game against its seat when played (see reveal_fault)."""
        placements, salt = data
        return ("reveal", (tuple(sorted(placements)), salt))

    def reveal_fault(self, state: SalvoState, seat: int, placements: Any,
                     salt: str) -> tuple[str, int] | None:
        """What is wrong with ``seat``'s reveal, as (the lie, the ply it was told at), or None.

        The commitment is checked first (a reveal that does not open it proves nothing, and
        the lie is the reveal itself, this ply); then the placement rules (the lie is the
        commitment); then every report the seat made, in order (the lie is the first false
        one, at the ply of its report)."""
        if fl.commitment(placements, salt) != state.commits[seat]:
            return "broken commitment", state.ply + 1
        try:
            fl.check_fleet(placements, self.classic)
        except IllegalAction:
            return "fleet against the rules", self._commit_ply(state, seat)
        false = rp.first_false_report(state.log[1 - seat], placements, self.name_hits)
        if false is not None:
            return "false report", state.said[1 - seat][false[0]]
        return None

    @staticmethod
    def _commit_ply(state: SalvoState, seat: int) -> int:
        """The ply of ``seat``'s commitment: Player 1 commits first, Player 2 second."""
        return seat + 1

    def mask_action(self, before: SalvoState, action: Action, final: SalvoState,
                    seat: int | None) -> str:
        """A placement is hidden from everyone but its owner (D4)."""
        if action != RESIGN and action[0] == "place" and seat != before.turn:
            return "place " + ", ".join("?" * len(action[1]))  # one '?' a ship
        return self.format_action(before, action)

    def guess_hidden_action(self, state: SalvoState, seat: int | None, text: str,
                            rng: SeedRng) -> Action:
        """A hidden placement of several ships at once ('place ?, ?, ?, ?, ?') is read as a
        random fleet of the ships still to place, of one ship ('place ?') as any placement
        allowed; later reports redraw them if they must. A '?' anywhere else is refused at
        once (only placements are hidden)."""
        words = text.replace(",", " ").split()
        if words and words[0].lower() == "place" and seat is not None and seat == state.turn:
            # a placement is hidden from the other seat only: no guess of the other fleet
            # makes the placer's own file write it with '?'
            raise MalformedAction(f"{text.strip()!r}: a placement is written in full in its "
                                  "own player's file ('?' hides it from the other player only)")
        hidden = [word for word in words[1:] if word == "?"]
        if (state.phase != PLACE or state.turn in (None, CHANCE) or not words
                or words[0].lower() != "place" or len(hidden) != len(words) - 1 or not hidden):
            raise MalformedAction(f"{text.strip()!r}: '?' hides only a ship the other player "
                                  "placed ('place ?', or 'place ?, ?, ...' with one '?' a ship)")
        if len(hidden) > 1:
            done = {p[0] for p in state.placed[state.turn]}
            ships = [k for k in range(len(SHIPS)) if k not in done]
            if len(ships) != len(hidden):
                raise IllegalAction(f"{text.strip()!r}: {len(hidden)} ships hidden, but "
                                    f"{len(ships)} are left to place")
            fleet = sample_fleet(self.table, ships, (), self.name_hits, rng)
            return ("place", tuple(sorted(fleet)))
        return super().guess_hidden_action(state, seat, text, rng)

    def assume_action(self, state: SalvoState, seat: int | None, text: str,
                      rng: SeedRng) -> tuple[SalvoState, Action]:
        """In a player's file only a referee's report on a fleet the seat cannot see depends on
        what it cannot see: every other action is read as in the master record (no guesses),
        and such a report, if the fleet guessed so far does not give it, is read after one
        complete search for a fleet that gives it and every result reported before; when no
        fleet does, the first result that none gives is refused at once. A hidden placement
        ('?') is read once: no guess of the other fleet changes where a ship may go."""
        if self.to_move(state) is None:
            return super().assume_action(state, seat, text, rng)
        if "?" in text:
            return state, self.guess_hidden_action(state, seat, text, rng)
        try:
            return state, self.parse_action(state, text)
        except IllegalAction:
            arranged = self._fleet_for_report(state, seat, text, rng)
            if arranged is None:
                raise
        return arranged, self.parse_action(arranged, text)

    def _fleet_for_report(self, state: SalvoState, seat: int | None, text: str,
                          rng: SeedRng) -> SalvoState | None:
        """``state`` with the hidden fleet placed afresh to give the report ``text`` too, or
        None when ``text`` is no referee's report of the salvo on a fleet ``seat`` cannot see;
        IllegalAction when no fleet gives it."""
        kind, data = nt.read(text)
        if (kind != "report" or not self.referee or state.phase != REPORT
                or state.attacker is None):
            return None
        owner = 1 - state.attacker
        if self.visible_fleet(state, owner, seat) or not state.placed[owner]:
            return None
        if [sq for sq, _code in data] != list(state.salvo[len(state.answers):]):
            return None  # not the salvo's squares: the report's own reading says so
        ships = sorted(p[0] for p in state.placed[owner])
        before = _reported(state, owner)
        results = tuple((sq, code, 0) for sq, code in data)
        said, whose = text.strip(), f"{seat_text(owner)}'s fleet"
        try:
            fleet = consistent_fleet(self.table, ships, before + results, rng)
            if fleet is None:
                k = next((k for k in range(1, len(results)) if consistent_fleet(
                    self.table, ships, before + results[:k], rng) is None), len(results))
                sq, code, _ = results[k - 1]
                raise IllegalAction(
                    f"{said!r}: no placement of {whose} gives {SQUARE_NAMES[sq]} "
                    f"{nt.result_text(code)} after the {len(before) + k - 1} results reported "
                    "before it (a hit needs a ship there, a miss none, a sunk ship every square "
                    "of it hit)")
        except GaveUp as exc:
            raise IllegalAction(
                f"{said!r}: no placement of {whose} giving every result reported so far was "
                f"found in {exc.tried} layouts tried (check this report against the master "
                "record)") from None
        placed = list(state.placed)
        placed[owner] = fleet
        return replace(state, placed=(placed[0], placed[1]))

    def arrange_hidden(self, state: SalvoState, seat: int | None, text: str,
                       rng: SeedRng) -> SalvoState:
        """For a referee's report on a fleet ``seat`` cannot see: that fleet placed afresh so
        that it gives this report too, besides every result reported before."""
        kind, data = nt.read(text)
        if kind != "report" or state.phase != REPORT or state.attacker is None:
            return state
        owner = 1 - state.attacker
        if self.visible_fleet(state, owner, seat) or not state.placed[owner]:
            return state
        ships = sorted(p[0] for p in state.placed[owner])
        log = _reported(state, owner) + tuple((sq, code, 0) for sq, code in data)
        placed = list(state.placed)
        placed[owner] = sample_fleet(self.table, ships, log, self.name_hits, rng)
        return replace(state, placed=(placed[0], placed[1]))

    # -- views -------------------------------------------------------------------------------

    def view(self, state: SalvoState, seat: int | None) -> dict[str, Any]:
        return view_state(self, state, seat)

    def render(self, state: SalvoState, seat: int | None, names: Sequence[str]) -> str:
        return render_state(self, state, seat, names)

    def diagram(self, state: SalvoState, seat: int | None, names: Sequence[str]) -> Diagram:
        return diagram_state(self, state, seat, names)

    def visible_fleet(self, state: SalvoState, owner: int, seat: int | None) -> bool:
        """Whether ``seat`` sees ``owner``'s ships: its own, every fleet for the referee of a
        refereed game (in commit-reveal play the record holds a fleet only once revealed), and
        a fleet once revealed."""
        return (owner == seat or (seat == REFEREE and self.referee)
                or state.revealed[owner])

    def randomize_hidden(self, state: SalvoState, seat: int | None,
                         rng: SeedRng) -> SalvoState:
        """Other seats' unrevealed ships are placed afresh (the same ships), agreeing with every
        result reported about them: misses, hits, named hits and sinks, in the order reported.

        Only those results (every seat sees every shot's result) and the ships count, so the
        sample depends on what ``seat`` sees and ``rng`` alone.
        """
        placed = list(state.placed)
        for owner in (0, 1):
            if self.visible_fleet(state, owner, seat) or not placed[owner]:
                continue
            ships = sorted(p[0] for p in placed[owner])
            placed[owner] = sample_fleet(self.table, ships, _reported(state, owner),
                                         self.name_hits, rng)
        return replace(state, placed=(placed[0], placed[1]))


def _reported(state: SalvoState, owner: int) -> tuple[tuple[int, int, int], ...]:
    """Every (square, result, salvo) reported about ``owner``'s ocean, in order: the attacker's
    log, then the answers so far to a salvo under way (salvo number 0)."""
    attacker = 1 - owner
    log = state.log[attacker]
    if state.phase == REPORT and state.attacker == attacker and state.answers:
        log = log + tuple((sq, code, 0) for sq, code in zip(state.salvo, state.answers,
                                                              strict=False))
    return log
