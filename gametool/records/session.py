"""Records joined to the engine: read a record strictly, play actions on it, write it back.

A :class:`Session` is one record with its game, seats, seed and every state from the start. It is
built either from a parsed record (:meth:`Session.load`, which checks every header, seat, ply
number, action and chance value) or from nothing (:meth:`Session.start`). Actions played on it
are appended to its record, which is then written in canonical form.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as _dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gametool import games
from gametool.core.chance import SeedRng, check_contribution, joint_seed, seed_hash
from gametool.core.engine import CHANCE, HIDDEN_VALUE, Game, Outcome
from gametool.core.errors import (
    GameError,
    GameOver,
    IllegalAction,
    MalformedAction,
    RecordError,
    Where,
)
from gametool.core.seatnames import with_names
from gametool.records import writing
from gametool.records.header import (
    CHANCE_NAME,
    check_names,
    parse_contributions,
    parse_options,
    parse_players,
)
from gametool.records.resync import RESYNC_LOOKAHEAD, Items, nothing_ahead
from notation import record as gtn

OFF_THE_BOARD = "ended off the board"
"""The termination of an ending off the board whose reason the record does not give."""


@dataclass
class Branch:
    """A variation as checked: where it branches, its states and steps, how deep it is."""

    variation: gtn.Variation
    start: int
    """The ply its first action replaces; ``states[0]`` is the position before it."""
    states: list[Any]
    steps: list[Step]
    depth: int


_new = object.__new__


class Step:
    """One applied action: who acted, the action, its canonical text, where it was written.

    The canonical text may be left to be written on first need: given ``before`` (the state the
    action was played in) and ``game`` instead of ``text``, it is formatted when read. Checking
    a record never needs it; writing one does."""

    __slots__ = ("_before", "_game", "_text", "action", "column", "line", "seat")

    def __init__(self, seat: int, action: Any, text: str | None, line: int | None = None,
                 column: int | None = None, before: Any = None, game: Game | None = None
                 ) -> None:
        self.seat, self.action, self._text = seat, action, text
        self.line, self.column = line, column
        self._before, self._game = before, game

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            assert self._game is not None
            text = self._text = self._game.format_action(self._before, self.action)
            self._before = self._game = None
        return text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value
        self._before = self._game = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Step) and (self.seat, self.action, self.text, self.line,
                                            self.column) == (other.seat, other.action,
                                                             other.text, other.line,
                                                             other.column)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Step(seat={self.seat!r}, action={self.action!r}, text={self.text!r}, "
                f"line={self.line!r}, column={self.column!r})")


class Session:
    """One record: its game, seat names, seed, actions and every state they lead through."""

    def __init__(self, game: Game, names: list[str], record: gtn.Record,
                 seed: str | None, initial: Any, file: str | None = None,
                 contributions: list[str | None] | None = None) -> None:
        self.game = with_names(game, names)
        self.names = names
        self.record = record
        # ``secret`` is the Seed tag, the value the SeedHash commits to. In a jointly drawn
        # record (one with a Contributions tag) the seed that chance draws from is the hash of
        # the secret and every seat's contribution, unknown until the last one arrives.
        self.secret = seed
        self.contributions = contributions
        self.seed = seed if contributions is None else self._joint()
        self.file = file
        self.states: list[Any] = [initial]
        self.steps: list[Step] = []
        self.ending: Outcome | None = None
        """How the game ended off the board (agreement, time forfeit, ...), if it did."""
        self.branches: list[Branch] = []
        self.guessed = 0
        """Actions put in place of rejected ones to read on (validate --all); not valid plies."""
        self.player_file = False
        """True for a record exported for one seat (its View tag): hidden values are '?'."""
        self.viewer: int | None = None
        """The seat a player's file was exported for (None: a spectator)."""
        self.hidden_values = 0
        """How many actions with hidden values a player's file holds (read, not checked)."""
        self.keep = True
        """False while a record is only checked: no :class:`Step` is kept (``states`` is)."""
        self.chance_acted = False
        """Whether some chance action was played (kept when the steps are not)."""
        self._seats: dict[str, int] = {name: seat for seat, name in enumerate(names)}
        """Seat names as written, read before (see :meth:`seat_index`)."""

    # -- reading -----------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def ply(self) -> int:
        """The number of actions played so far; the next action is ply ``ply + 1``."""
        return len(self.states) - 1

    def seat_name(self, seat: int | None) -> str | None:
        if seat is None:
            return None
        return CHANCE_NAME if seat == CHANCE else self.names[seat]

    def seat_index(self, name: str) -> int:
        known = self._seats.get(name)
        if known is not None:
            return known
        key = name.strip().lower()
        if key in (CHANCE_NAME, "spectator"):  # who sees only what all see
            return CHANCE
        for i, seat in enumerate(self.names):
            if seat.lower() == key:
                if len(self._seats) < 64:
                    self._seats[name] = i
                return i
        # A game's own seat names (colours: white, black) name its seats whatever the
        # players' names; no player may take another seat's one (see check_names).
        colours = [c.lower() for c in type(self.game).seat_names[:len(self.names)]]
        if len(colours) == len(self.names) and key in colours:
            return colours.index(key)
        from gametool.core.suggest import hint

        raise GameError(f"no seat {name!r} in this game{hint(name, [*self.names, *colours])} "
                        f"(seats: {', '.join(self.names)})")

    def to_move(self) -> int | None:
        if self.ending is not None:
            return None
        return self.game.to_move(self.state)

    def outcome(self) -> Outcome | None:
        """The result: by the rules, or by the record's ending off the board."""
        return self._named(self.game.outcome(self.state)) or self.ending

    def outcome_at(self, ply: int) -> Outcome | None:
        if ply == self.ply and self.ending is not None:
            return self.ending
        return self._named(self.game.outcome(self.states[ply]))

    def _named(self, outcome: Outcome | None) -> Outcome | None:
        """The outcome with the record's seat names in its termination ("false report by ann")
        where the game names seats in its texts."""
        names = getattr(self.game, "_seat_names", None)
        if outcome is None or names is None:
            return outcome
        termination = names.outward(outcome.termination)
        if termination == outcome.termination:
            return outcome
        return dataclasses.replace(outcome, termination=termination)

    def to_move_at(self, ply: int) -> int | None:
        if ply == self.ply and self.ending is not None:
            return None
        return self.game.to_move(self.states[ply])

    # -- a jointly drawn seed ----------------------------------------------------------------------

    def _joint(self) -> str | None:
        parts = self.contributions or []
        if self.secret is None or any(part is None for part in parts):
            return None
        return joint_seed(self.secret, [part for part in parts if part is not None])

    def is_waiting_for_seed(self) -> bool:
        """Whether chance is to draw and cannot until every contribution has arrived."""
        if self.seed is not None or self.secret is None or self.to_move() != CHANCE:
            return False
        outcomes = self.game.chance_outcomes(self.state)
        return outcomes is None or len(outcomes) != 1

    def waiting_for(self) -> list[str]:
        """The seats whose contribution to the joint seed has not arrived yet."""
        return [name for name, part in zip(self.names, self.contributions or [], strict=True)
                if part is None]

    def contribute(self, as_seat: str, value: str) -> list[Step]:
        """Record a seat's contribution to the joint seed; once every seat has sent one, draw
        the chance actions that were waiting for it. Returns the steps drawn."""
        if self.contributions is None or self.secret is None:
            raise GameError("this record's seed is not drawn jointly: no contribution is needed")
        seat = self.seat_index(as_seat)
        if seat == CHANCE:
            raise GameError("the chance seat sends no contribution")
        try:
            value = check_contribution(value)
        except ValueError as exc:
            raise GameError(str(exc)) from None
        if self.contributions[seat] is not None:
            raise GameError(f"{self.names[seat]} has already sent its contribution")
        self.contributions[seat] = value
        self.record.set("Contributions", "; ".join(p or "?" for p in self.contributions))
        self.seed = self._joint()
        drawn = self.draw_chance()
        self.update_result_tags()
        return drawn

    def branch_view(self, branch: Branch) -> Session:
        """A copy of this session that follows ``branch`` instead of the main line (for
        display; the record is shared, not changed)."""
        view = copy.copy(self)
        view.states, view.steps, view.ending = branch.states, branch.steps, None
        return view

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def start(cls, game_id: str, names: list[str] | None = None,
              options: dict[str, str] | None = None, seed: str | None = None,
              position: str | None = None, date: str | None = None,
              joint: bool = False, game: Game | None = None) -> Session:
        """A new record, with the opening chance actions already drawn when there is a seed.

        With ``joint``, ``seed`` is the referee's secret and chance waits for every seat's
        contribution (see :meth:`contribute`). ``game`` may be the game of an earlier session
        of the same game, options and seat names, made again otherwise (a game never changes;
        the caller keeps the sessions from sharing it at once, as a named game's views track
        the call they are in)."""
        game_cls = games.playable_class(game_id)
        if names is None:
            names = game_cls.default_seat_names(game_cls.players_default())
        check_names(game_cls, names)
        if game is None:
            game = game_cls(options or {})
        initial = (game.decode_position(position, len(names)) if position is not None
                   else game.initial_state(len(names)))
        # A new record's tags, each named once: in this order.
        tags = [gtn.Tag("Game", game_cls.id), gtn.Tag("Players", "; ".join(names))]
        extra = game.non_default_options()
        if extra:
            tags.append(gtn.Tag("Options", "; ".join(f"{k}={v}" for k, v in extra)))
        contributions: list[str | None] | None = None
        if seed is not None:
            tags.append(gtn.Tag("Seed", seed))
            if joint:
                contributions = [None] * len(names)
                tags.append(gtn.Tag("Contributions", "; ".join("?" for _ in names)))
        if position is not None:
            tags.append(gtn.Tag("Position", game.encode_position(initial)))
        tags.append(gtn.Tag("Date", date or _dt.date.today().strftime("%Y.%m.%d")))
        tags.append(gtn.Tag("Result", "*"))
        record = gtn.Record(tags=tags)
        session = cls(game, names, record, seed, initial, contributions=contributions)
        if session.draw_chance() or session.outcome() is not None:
            session.update_result_tags()  # else they stand as made: '*' and no Termination
        return session

    @classmethod
    def load(cls, record: gtn.Record, file: str | None = None,
             errors: list[GameError] | None = None) -> Session:
        """Replay a parsed record, checking everything.

        With ``errors`` None the first error is raised. Otherwise every error is appended to it
        and reading goes on past bad actions (they are skipped), as ``validate --all`` wants.
        """
        session = cls._from_header(record, file)
        session._replay_body(errors)
        session._check_result_tags(errors)
        return session

    @classmethod
    def _from_header(cls, record: gtn.Record, file: str | None,
                     starts: dict[Any, Any] | None = None,
                     header: dict[str, str] | None = None) -> Session:
        """The session of a record's header, before its first action. ``starts`` keeps what
        was made to give it again: the games speaking the seat names (by Game, Options and
        Players tags: a game never changes, and the records of one stream are checked one
        after another) and the initial states (by game, options and seats). ``header`` holds
        the record's tag values by name in lower case, when the reader has them already."""
        def fail(tag_name: str, message: str) -> RecordError:
            tag = record.find(tag_name)
            line = tag.line if tag is not None else record.line
            return RecordError(message, Where(file, line, 1))

        if header is None:
            header = {}
            for tag in record.tags:  # the first of a name, as Record.get gives
                header.setdefault(tag.name.lower(), tag.value)
        get = header.get  # by lower-case name

        game_tag = get("game")
        if game_tag is None:
            raise fail("Game", "the record has no Game tag")
        options, players = get("options"), get("players")
        made = None if starts is None else starts.get((game_tag, options, players))
        if made is not None:
            game_cls, game, names = made[0], made[1], list(made[2])
        else:
            try:
                game_cls = games.playable_class(game_tag)
            except GameError as exc:
                raise fail("Game", exc.message) from None
            if players is None:
                raise fail("Players", "the record has no Players tag")
            names = parse_players(players)
            try:
                check_names(game_cls, names)
            except GameError as exc:
                raise fail("Players", exc.message) from None
            try:
                game = game_cls(parse_options(options) if options else {})
            except GameError as exc:
                raise fail("Options", exc.message) from None
        seed = get("seed")
        hashed = get("seedhash")
        if seed is not None and hashed is not None and seed_hash(seed) != hashed.lower():
            raise fail("SeedHash", "SeedHash does not match the Seed: the seed was changed")
        contributions = None
        parts = get("contributions")
        if parts is not None:
            try:
                contributions = parse_contributions(parts, len(names))
            except GameError as exc:
                raise fail("Contributions", exc.message) from None
        position = get("position") or get("fen")
        try:
            if position is not None:
                initial = game.decode_position(position, len(names))
            elif starts is None:
                initial = game.initial_state(len(names))
            else:
                # The same class and Options tag make the same game: its initial state is
                # the one made before.
                key = (game_cls, options, len(names))
                initial = starts.get(key)
                if initial is None:
                    if len(starts) >= 16:
                        starts.clear()
                    initial = starts[key] = game.initial_state(len(names))
        except GameError as exc:
            raise fail("Position" if get("position") else "FEN", exc.message) from None
        session = cls(game, names, record, seed, initial, file, contributions)
        if made is None and starts is not None:
            if len(starts) >= 16:
                starts.clear()
            starts[game_tag, options, players] = (game_cls, session.game, tuple(names))
        view = get("view")
        if view is not None:
            session.player_file = True
            if view.strip().lower() != "spectator":
                try:
                    seat = session.seat_index(view)
                except GameError as exc:
                    raise fail("View", exc.message) from None
                session.viewer = None if seat == CHANCE else seat
        return session

    def _replay_body(self, errors: list[GameError] | None) -> None:
        items = Items(self.record.body)
        self._begin_replay(errors, items.ahead)
        for item in items:
            self._replay_item(item)
            if self._stopped:
                break
        self._end_replay()

    # The body is read item by item (:meth:`_replay_item`), from a parsed record or as a stream
    # (see check_lines); ``ahead(i)`` gives the item ``i`` places after the one being read, or
    # None past the record's end or RESYNC_WINDOW items on.

    def _begin_replay(self, errors: list[GameError] | None,
                      ahead: Callable[[int], gtn.Item | None]) -> None:
        self._errors = errors
        self._ahead = ahead
        # Written actions not applied so far (only when collecting every error) less the
        # actions put in their place: the record's own numbering is ahead by that much.
        self._offset = 0
        # An action was rejected: the seat written on the next line is trusted, and the turn
        # the rejected action belonged to is completed by a guess (see _resynchronise).
        self._resync = False
        self._rejected = ""
        # Chance actions with a single possible outcome (a referee's report that follows from
        # what was played) may be left out of a record: the reader adds them, and the written
        # ply numbers may count them or not.
        self._implied = 0
        # The body as read, with the chance actions it leaves out (kept with the steps).
        self._body: list[gtn.Item] = []
        self._stopped = False
        self._new_body = True

    def _report(self, exc: GameError) -> None:
        if self._errors is None:
            raise exc
        self._errors.append(exc)

    def _stop(self, new_body: bool) -> None:
        """Read no further item of the body (the rest cannot be checked)."""
        self._stopped, self._new_body = True, new_body

    def _end_replay(self) -> None:
        if not self._stopped:
            # At the end, only a record that says the game is over lacks its last forced
            # action; an unfinished one waits for it to be typed or drawn.
            if (self.record.get("Result") or "*").strip() != "*":
                added = self._forced_chance()
                if self.keep:
                    self._body += [gtn.TurnLine(self.ply, CHANCE_NAME, [gtn.Action(step.text)])
                                   for step in added]
        if self.keep and self._new_body:
            self.record.body = self._body
        self._ahead = nothing_ahead  # the source of the items, and what it holds, goes

    def _replay_item(self, line: gtn.Item) -> None:
        keep = self.keep
        if isinstance(line, gtn.CommentLine):
            if keep:
                self._body.append(line)
            return
        if isinstance(line, gtn.Variation):
            if keep:
                self._body.append(line)
            self._check_branch(line, self.states, self.steps if keep else None, 1,
                               self._report)
            return
        if isinstance(line, gtn.EndingLine):
            if keep:
                self._body.append(line)
            self._end_line(line, self._report)
            return
        report = self._report
        if self.ending is not None:
            self._stop(False)
            report(GameOver("a turn after the ending off the board",
                            Where(self.file, line.line, line.column, self.ply + 1)))
            return
        if line.seat.lower() != CHANCE_NAME:
            added = self._forced_chance()
            if added:
                if keep:
                    self._body += [gtn.TurnLine(self.ply, CHANCE_NAME, [gtn.Action(step.text)])
                                   for step in added]
                self._implied += len(added)
        if keep:
            self._body.append(line)
        offset = self._offset
        if line.ply > self.game.max_plies:
            self._stop(False)
            report(RecordError(f"ply {line.ply} is beyond the {self.game.max_plies:,} plies "
                               f"a game of {self.game.id} can last",
                               Where(self.file, line.line, line.column, self.ply + 1 + offset)))
            return
        if line.ply not in (self.ply + 1 + offset, self.ply + 1 + offset - self._implied):
            report(RecordError(f"wrong ply number {line.ply}: this is ply "
                               f"{self.ply + 1 + offset}",
                               Where(self.file, line.line, line.column, self.ply + 1 + offset)))
        try:
            seat = self.seat_index(line.seat)
        except GameError as exc:
            report(RecordError(exc.message, Where(self.file, line.line, line.seat_column,
                                                  self.ply + 1 + offset)))
            self._offset += len(line.actions)
            self._resync = True
            self._rejected = line.actions[0].text if line.actions else ""
            return
        if self._resync:
            self._resync = False
            played, forced = self._resynchronise(seat, self._rejected, self._upcoming(line))
            self._offset -= played
            self._implied += forced
        failed = False
        for done, written in enumerate(line.actions):
            ply_here = self.ply + 1 + self._offset
            try:
                self._apply_text(written.text, seat, line.line, written.column)
            except GameError as exc:
                where = Where(self.file, line.line, written.column, ply_here)
                if failed:
                    # One typo, one error: after an error the rest of its line is read as
                    # far as it goes, and the first action that does not apply ends it.
                    self._offset += len(line.actions) - done
                    break
                if isinstance(exc, GameOver):
                    self._stop(True)
                report(exc.located(**where.__dict__))
                if isinstance(exc, GameOver):
                    return
                failed = True
                self._offset += 1
                self._resync, self._rejected = True, written.text

    def _upcoming(self, line: gtn.TurnLine) -> list[tuple[int, str]]:
        """The next few written actions (seat, text) from ``line`` on, for judging a
        resynchronisation."""
        out: list[tuple[int, str]] = []
        item: gtn.Item | None = line
        index = 0
        while item is not None:
            if isinstance(item, gtn.EndingLine):
                break  # no action follows it
            if isinstance(item, gtn.TurnLine):  # a variation replaces a ply: the line reads on
                try:
                    seat = self.seat_index(item.seat)
                except GameError:
                    break
                out += [(seat, a.text) for a in item.actions]
                if len(out) >= RESYNC_LOOKAHEAD:
                    break
            item = self._ahead(index)
            index += 1
        return out[:RESYNC_LOOKAHEAD]

    def _resynchronise(self, seat: int, rejected: str, upcoming: list[tuple[int, str]]
                       ) -> tuple[int, int]:
        """After a rejected action, bring ``seat`` (written on the next line) to move, by the
        actions :func:`gametool.records.resync.completion` guesses in place of the ``rejected`` one
        (applied with no record line, counted in :attr:`guessed`); returns how many are a
        player's and how many are chance's forced outcomes."""
        if self.game.to_move(self.state) == seat:
            return 0, 0
        from gametool.records.resync import completion

        return self._guessed(completion(self.game, self.state, seat, rejected, upcoming))

    def _guessed(self, best: list[tuple[int, Any]]) -> tuple[int, int]:
        """Apply the actions guessed in place of a rejected one (see _resynchronise)."""
        for mover, action in best:
            self._push(mover, action, self.game.format_action(self.state, action))
        self.guessed += len(best)
        chance = sum(1 for mover, _a in best if mover == CHANCE)
        return len(best) - chance, chance

    def _forced_before(self, text: str, seat: int | None) -> None:
        """Add the forced chance actions due before a player's typed action (as the reader
        does for a record that leaves them out), unless ``text`` is that chance action."""
        if self.game.to_move(self.state) != CHANCE or seat == CHANCE:
            return
        if seat is None:
            # Typed with no seat: the forced actions come first only if the text reads as an
            # action of the position after them; otherwise it is read as the chance action.
            state = self.state
            while self.game.to_move(state) == CHANCE:
                outcomes = self.game.chance_outcomes(state)
                if outcomes is None or len(outcomes) != 1:
                    break
                state = self.game.apply(state, outcomes[0])
            if state is self.state or self.game.to_move(state) == CHANCE:
                return
            try:
                self.game.parse_action(state, text)
            except GameError:
                return
        for step in self._forced_chance():
            self._append_to_body(step)

    def _forced_chance(self) -> list[Step]:
        """Apply the chance actions that are due and have one possible outcome; return them."""
        added = []
        while self.game.to_move(self.state) == CHANCE:
            outcomes = self.game.chance_outcomes(self.state)
            if outcomes is None or len(outcomes) != 1:
                break
            action = outcomes[0]
            added.append(self._push(CHANCE, action,
                                    self.game.format_action(self.state, action)))
        return added

    def _end_line(self, line: gtn.EndingLine, report: Callable[[GameError], None]) -> None:
        """Read an ending off the board (agreement, adjudication, time forfeit, ...)."""
        where = Where(self.file, line.line, line.column, self.ply + 1)
        if self.ending is not None:
            report(RecordError("a second ending off the board", where))
            return
        try:
            self._set_ending(line.result, line.reason)
        except GameError as exc:
            report(exc.located(**where.__dict__))

    def _set_ending(self, result: str, reason: str) -> None:
        over = self.game.outcome(self.state)
        if over is not None:
            raise GameOver(f"the game is already over ({over.result_tag()}, "
                           f"{over.termination}): it cannot also end off the board")
        self.ending = Outcome.from_tag(result, len(self.names), reason or OFF_THE_BOARD)

    def end_off_board(self, result: str, reason: str) -> None:
        """End the game off the board with ``result`` (as the Result tag writes it)."""
        self._set_ending(result, reason)
        self.record.body.append(gtn.EndingLine(result, reason))
        self.update_result_tags()

    def _check_branch(self, variation: gtn.Variation, line_states: list[Any],
                      line_steps: list[Step] | None, depth: int,
                      report: Callable[[GameError], None]) -> None:
        """Check a variation against the line it branches from; its actions are rewritten in
        canonical form. One error ends the check of that variation. Without ``line_steps``
        (a record only checked) no step is kept, and no :class:`Branch`."""
        turns = variation.turns
        if not turns:
            report(RecordError("an empty variation", Where(self.file, variation.line,
                                                             variation.column)))
            return
        start = turns[0].ply
        played = len(line_states) - 1
        if not 1 <= start <= played:
            report(RecordError(
                f"a variation must replace a ply already played (1 to {played}), "
                f"not ply {start}", Where(self.file, turns[0].line, turns[0].column, start)))
            return
        states = line_states[:start]
        steps = line_steps[:start - 1] if line_steps is not None else None
        if steps is not None:
            self.branches.append(Branch(variation, start, states, steps, depth))
        for item in variation.body:
            if isinstance(item, gtn.Variation):
                self._check_branch(item, states, steps, depth + 1, report)
                continue
            if isinstance(item, gtn.EndingLine):
                report(RecordError("an ending off the board belongs to the main line",
                                   Where(self.file, item.line, item.column)))
                return
            if not isinstance(item, gtn.TurnLine):
                continue
            ply = len(states)
            if item.ply != ply:
                report(RecordError(f"wrong ply number {item.ply}: this is ply {ply}",
                                   Where(self.file, item.line, item.column, ply)))
                return
            try:
                seat = self.seat_index(item.seat)
            except GameError as exc:
                report(RecordError(exc.message, Where(self.file, item.line, item.seat_column,
                                                      ply)))
                return
            for written in item.actions:
                try:
                    state = states[-1]
                    to_move = self.game.to_move(state)
                    if to_move is None:
                        raise GameOver("the game is over in this variation: no more actions")
                    if to_move != seat:
                        raise IllegalAction(f"it is not {self.seat_name(seat)}'s turn: "
                                            f"{self.seat_name(to_move)} is to move")
                    action = self.game.parse_action(state, written.text)
                    if steps is not None:  # kept: the text is written back canonical
                        written.text = self.game.format_action(state, action)
                except GameError as exc:
                    report(exc.located(file=self.file, line=item.line, column=written.column,
                                       ply=len(states)))
                    return
                states.append(self.game.apply(state, action))
                if steps is not None:
                    steps.append(Step(seat, action, written.text, item.line, written.column))

    def _check_result_tags(self, errors: list[GameError] | None) -> None:
        outcome = self.outcome()
        expected = outcome.result_tag() if outcome else "*"
        problems = []
        tag = self.record.find("Result")
        if tag is not None and tag.value.strip() != expected:
            problems.append(RecordError(
                f"Result tag says {tag.value!r} but the game's result is {expected!r}",
                Where(self.file, tag.line, 1)))
        term = self.record.find("Termination")
        if term is not None and (outcome is None
                                 or term.value.strip().lower() != outcome.termination.lower()):
            actual = outcome.termination if outcome else "the game is not over"
            problems.append(RecordError(
                f"Termination tag says {term.value!r} but {actual!r}",
                Where(self.file, term.line, 1)))
        for problem in problems:
            if errors is None:
                raise problem
            errors.append(problem)

    # -- playing ---------------------------------------------------------------------------------

    def _apply_text(self, text: str, seat: int, line: int | None = None,
                    column: int | None = None) -> None:
        """Check and apply one action of ``seat`` given as text."""
        state = self.state
        to_move = self.to_move()
        if to_move is None:
            outcome = self.outcome()
            result = f" ({outcome.result_tag()}, {outcome.termination})" if outcome else ""
            raise GameOver(f"the game is over{result}: no more actions")
        if seat != to_move:
            raise IllegalAction(
                f"it is not {self.seat_name(seat)}'s turn: {self.seat_name(to_move)} is to move")
        if self.player_file:
            self._apply_seen(text, seat, line, column)
            return
        game = self.game
        try:
            action = game.parse_action(state, text)
        except MalformedAction as exc:
            if HIDDEN_VALUE in text:
                raise RecordError(
                    f"hidden value '{HIDDEN_VALUE}' in a record with no View tag: a record "
                    "exported for one seat names that seat in its View tag") from None
            raise exc
        if to_move == CHANCE and self.seed is None and self.secret is not None:
            raise RecordError(
                "chance acts before every seat has sent its contribution to the joint seed "
                f"(missing: {', '.join(self.waiting_for())})")
        if to_move == CHANCE and self.seed is not None:
            expected = game.sample_chance(state, SeedRng(self.seed, self.ply + 1))
            if expected != action:
                raise RecordError(
                    f"chance action {game.format_action(state, action)!r} contradicts the "
                    f"seed, which gives {game.format_action(state, expected)!r}")
        # The canonical text is written when first read (a check of the record never reads
        # it): the state it is written in is kept in ``states`` anyway.
        self.states.append(game.apply(state, action))
        if self.keep:
            self.steps.append(Step(seat, action, None, line, column, state, game))
        if seat == CHANCE:
            self.chance_acted = True

    def _chance_step(self, state: Any, text: str) -> Any:
        """The state after chance's ``text`` in ``state`` (the last of ``states``) when
        :meth:`_apply_text` would take it without a word (the seed's action where there is a
        seed); None otherwise, and the general way says what is wrong."""
        game = self.game
        if game.to_move(state) != CHANCE:
            return None
        try:
            action = game.parse_action(state, text)
        except Exception:  # noqa: BLE001 - read again the general way, which says what
            return None
        seed = self.seed
        if seed is None:
            if self.secret is not None:
                return None
        elif game.sample_chance(state, SeedRng(seed, len(self.states))) != action:
            return None
        self.chance_acted = True
        return game.apply(state, action)

    def _apply_seen(self, text: str, seat: int, line: int | None,
                    column: int | None) -> None:
        """Apply an action of a player's file: the game guesses what the seat cannot see, and
        the position so far is replaced by a guess in which the action is possible."""
        rng = SeedRng(f"view:{self.seat_name(self.viewer) or 'spectator'}", self.ply + 1)
        state, action = self.game.assume_action(self.state, self.viewer, text, rng)
        self.states[-1] = state
        if HIDDEN_VALUE in text:
            self.hidden_values += 1
            written = " ".join(text.split())
        else:
            written = self.game.format_action(state, action)
        self._push(seat, action, written, line, column)

    def view_as(self, as_seat: str | None) -> str | None:
        """The seat whose view to show for ``--as``: a player's file shows its own seat's view
        (or a spectator's, as 'chance'), never another seat's."""
        if not self.player_file:
            return as_seat
        own = self.seat_name(self.viewer) if self.viewer is not None else CHANCE_NAME
        if as_seat is None:
            return own
        if self.seat_index(as_seat) not in (self.viewer, CHANCE):
            raise GameError(f"this record was exported for {own}: it shows {own}'s view only "
                            "(other views come from the master record)")
        return as_seat

    def unchecked(self) -> list[str]:
        """What reading this record could not check (a player's file holds less than the
        master record)."""
        out = []
        if self.hidden_values:
            out.append(f"{self.hidden_values} action{'s' * (self.hidden_values != 1)} with "
                       f"hidden values ('{HIDDEN_VALUE}'), read as any value the seat cannot "
                       "see")
        if self.seed is None and self.record.get("SeedHash") is not None and (
                self.chance_acted or any(step.seat == CHANCE for step in self.steps)):
            out.append("the chance actions against the seed (the record holds only its "
                       "SeedHash: validate the published master record with --seed-hash)")
        return out

    def _push(self, seat: int, action: Any, text: str, line: int | None = None,
              column: int | None = None) -> Step:
        self.states.append(self.game.apply(self.state, action))
        step = Step(seat, action, text, line, column)
        if self.keep:
            self.steps.append(step)
        if seat == CHANCE:
            self.chance_acted = True
        return step

    def draw_chance(self) -> list[Step]:
        """Play every chance action that is due now: drawn from the seed, or without a seed
        only those with one possible outcome (a forced referee's report); return them."""
        drawn = []
        while self.game.to_move(self.state) == CHANCE:
            if self.seed is None:
                outcomes = self.game.chance_outcomes(self.state)
                if outcomes is None or len(outcomes) != 1:
                    break
                action = outcomes[0]
            else:
                action = self.game.sample_chance(self.state, SeedRng(self.seed, self.ply + 1))
            text = self.game.format_action(self.state, action)
            self._push(CHANCE, action, text)
            self._append_to_body(self.steps[-1])
            drawn.append(self.steps[-1])
        return drawn

    def play(self, texts: Sequence[str], as_seat: str | None = None,
             expect_ply: int | None = None, draw: bool = True) -> list[Step]:
        """Check and apply actions typed by a user, then the chance actions that follow.

        ``expect_ply`` is the ply number the first action must get (a guard against a record
        that moved on meanwhile). Returns the steps added. On error nothing is kept.

        No peeking: a submission ends where chance acts. Actions typed after an action that
        chance follows are refused, with the whole submission, before anything is drawn, so
        that no answer depends on a value nobody may see yet (see :meth:`stops_at_chance`).
        With ``draw`` False (a dry run) no chance action is drawn or added at all.

        A player's file takes the actions of its own seat only.
        """
        if expect_ply is not None and expect_ply != self.ply + 1:
            raise RecordError(
                f"stale --expect-ply {expect_ply}: the next ply of this record is {self.ply + 1}")
        seat = self.seat_index(as_seat) if as_seat is not None else None
        start = len(self.steps)
        if draw:
            self.draw_chance()
        for index, text in enumerate(texts):
            if seat != CHANCE and self.is_waiting_for_seed():
                raise RecordError(
                    "chance is waiting for every seat's contribution to the joint seed "
                    f"(missing: {', '.join(self.waiting_for())})", Where(ply=self.ply + 1))
            if draw:
                self._forced_before(text, seat)
            acting = self.game.to_move(self.state) if seat is None else seat
            if acting is None:
                acting = 0
            if self.player_file and acting != self.viewer:
                own = self.seat_name(self.viewer) or "a spectator"
                raise IllegalAction(
                    f"{text.strip()!r}: this record was exported for {own} and takes "
                    f"{own}'s actions only; {self.seat_name(acting)} is to move",
                    Where(ply=self.ply + 1))
            try:
                self._apply_text(text, acting)
            except GameError as exc:
                raise exc.located(ply=self.ply + 1) from None
            self._append_to_body(self.steps[-1])
            if index + 1 < len(texts) and self.stops_at_chance():
                raise IllegalAction(
                    f"{texts[index + 1].strip()!r} comes after {text.strip()!r}, which chance "
                    "follows: a move ends where chance acts, so nothing was played; send the "
                    "actions after it once chance has acted", Where(ply=self.ply + 1))
            if draw:
                self.draw_chance()
        self.update_result_tags()
        return self.steps[start:]

    def stops_at_chance(self) -> bool:
        """Whether chance acts next and tells something: a draw from the seed, or, in a game
        with hidden information, a forced action (a report may tell what a seat hides). A
        submission stops there. Without a seed the chance actions are typed: nothing is told."""
        if self.game.to_move(self.state) != CHANCE:
            return False
        outcomes = self.game.chance_outcomes(self.state)
        if outcomes is not None and len(outcomes) == 1:
            return self.game.hidden not in ("", "none")
        return self.seed is not None

    def push(self, action: Any) -> Step:
        """Apply a legal action object of the seat to move (no text to read), then chance."""
        seat = self.game.to_move(self.state)
        if seat is None:
            raise GameOver("the game is over: no more actions")
        text = self.game.format_action(self.state, action)
        self._push(seat, action, text)
        self._append_to_body(self.steps[-1])
        self.draw_chance()
        self.update_result_tags()
        return self.steps[-1]

    def append_checked(self, seat: int, action: Any, text: str | None = None,
                       after: Any = None) -> gtn.TurnLine:
        """Append an action that the game has already read as legal for ``seat``, on a turn
        line of its own, as a converter does for many actions: no chance is drawn, and the
        result tags wait for :meth:`update_result_tags`. ``text`` and ``after`` (the action's
        canonical text and the next state) may be given when the caller knows them already."""
        states, steps = self.states, self.steps
        if text is None or after is None:
            text, after = self._text_after(action, text, after)
        states.append(after)
        step = _new(Step)  # Step(seat, action, text), made field by field (for every action)
        step.seat, step.action, step._text = seat, action, text
        step.line = step.column = step._before = step._game = None
        steps.append(step)
        # gtn.one_turn(len(steps), self.names[seat], text), written out (a call less).
        turn = _new(gtn.Action)
        turn.text, turn.column = text, 0
        line = _new(gtn.TurnLine)
        line.ply, line.seat, line.actions, line.comment = len(steps), self.names[seat], [turn], None
        line.comment_style, line.line, line.column, line.seat_column = "{", 0, 1, 0
        line.nags = []
        self.record.body.append(line)
        return line

    def append_to_run(self, run: gtn.TurnRun, seat: int, action: Any, text: str | None = None,
                      after: Any = None) -> int:
        """What :meth:`append_checked` does for a record that is only written: the line added
        as texts to ``run`` (the TurnRun that ends the body), and no step kept. Such a session
        knows its states, outcome and tags, and is written with ``text(as_built=True)``; its
        steps stay empty. Returns the line's index in ``run``."""
        if text is None or after is None:
            text, after = self._text_after(action, text, after)
        self.states.append(after)
        run.seats.append(self.names[seat])
        texts = run.texts
        texts.append(text)
        return len(texts) - 1

    def _text_after(self, action: Any, text: str | None, after: Any) -> tuple[str, Any]:
        """The canonical text of ``action`` in the last state, and the state after it (those
        given are kept)."""
        state = self.states[-1]
        return (self.game.format_action(state, action) if text is None else text,
                self.game.apply(state, action) if after is None else after)

    def _append_to_body(self, step: Step) -> None:
        name = self.seat_name(step.seat) or ""
        body = self.record.body
        last = body[-1] if body else None
        if (step.seat != CHANCE and isinstance(last, gtn.TurnLine) and last.seat == name
                and last.comment is None and len(self.steps) >= 2
                and self.steps[-2].seat == step.seat):
            last.actions.append(gtn.Action(step.text))
            return
        body.append(gtn.TurnLine(self.ply, name, [gtn.Action(step.text)]))

    def update_result_tags(self) -> None:
        outcome = self.outcome()
        self.record.set("Result", outcome.result_tag() if outcome else "*")
        self.record.set("Termination", outcome.termination if outcome else None)

    # -- writing (see gametool.records.writing) ------------------------------------------

    def canonical_record(self, shared: bool = False, as_built: bool = False) -> gtn.Record:
        """The record with canonical tags, seat names and action texts, turns merged per line
        (with ``shared``, for writing only, and ``as_built``: see
        :func:`gametool.records.writing.canonical_record`)."""
        return writing.canonical_record(self, shared, as_built)

    def text(self, as_built: bool = False) -> str:
        """The canonical text of the record (``as_built``: the caller vouches that the body
        is canonical as it stands, see :func:`gametool.records.writing.canonical_record`)."""
        return writing.write_record(self.canonical_record(shared=True, as_built=as_built))

    def exported(self, seat: int | None) -> gtn.Record:
        """The record as ``seat`` may see it: hidden values as ``?``, SeedHash for Seed."""
        return writing.exported(self, seat)
