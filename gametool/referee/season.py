"""The referee's season: a clock per game, the commands players mail, games started by mail.

A part the referee (:class:`gametool.referee.referee.Referee`) holds, kept apart from the
reading of mail and its security; what it needs of the referee is :class:`RefereeCore`.

The clock (``gametool.referee.clock``): every game refereed by mail gives each seat ``MoveDays``
days per move. ``tick`` (run from cron) mails the seat to move a reminder once half its time is
gone and, when the time is up, ends the game by time forfeit (an ``end:`` line), or, in a game
of three or more seats whose rules let a seat leave, makes the late seat leave so that the
others play on. A game that has not begun (an invitation not accepted, a contribution to the
seed missing) lapses instead: nobody played, nobody is rated. Each change ``tick`` makes is
journaled as ``inbox``'s are (``gametool.referee.mail.journal``, under the same lock): its mails
are written only once the record holds it, and a tick killed anywhere, or that could not keep a
change, is finished once by the next run.

Commands (``gametool.referee.mail.directives``): a draw is offered and accepted by every seat; a
turn is taken back when every other seat accepts, never past a chance action that told anybody
anything (no peeking); an offer or a request lapses with the next move and is kept until then in
the record's ``DrawOffer`` and ``UndoRequest`` tags (``PLY; SEAT; SEAT...``: the ply it was made
at, then the seats that agree). ``#show``, ``#moves``, ``#games``, ``#standings`` and ``#help``
answer the sender only, from its own view.

Games started by mail: ``referee allow`` gives a player a key of its own (its salted hash is in
``GAME_DIR/players.keys``); with it, the player mails ``#new GAME vs ADDRESS...`` with no game
in the subject. The others are invited (``Invited`` tag: the seats yet to accept) and accept with
``#join``; an invitation not accepted within the game's days per move lapses, and its record
moves to ``GAME_DIR/lapsed/``.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from gametool.core import storage
from gametool.core.engine import CHANCE, Outcome
from gametool.core.errors import GameError
from gametool.records import Session, load_one, notes
from gametool.referee import clock, conditional, forfeit, leave, roster, standings
from gametool.referee import daily_mail as digests
from gametool.referee.clock import Clock
from gametool.referee.mail import MailRejected
from gametool.referee.mail import directives as commands
from gametool.referee.mail.body import PLY_LINE, _ply_number, find_instructions, find_join, find_key
from gametool.referee.mail.journal import SEND_LOCK, Journal, digest, finish, settle
from gametool.referee.mail.keys import Keyring
from gametool.referee.mail.outgoing import Outgoing, Unkept
from gametool.referee.sidefiles import Sides
from gametool.referee.tournaments import tournament
from gametool.views import render

DRAW_TAG = "DrawOffer"
UNDO_TAG = "UndoRequest"
INVITED_TAG = "Invited"
PLAYERS_FILE = "players.keys"
LAPSED = "lapsed"


def _outgoing(to: str, subject: str, body: str) -> Outgoing:
    return Outgoing(to, subject, body)


def _days(count: int | None) -> str:
    return "1 day" if count == 1 else f"{count} days"


def _allowed(name: str, key: str) -> Outgoing:
    return Outgoing(name, "[gametool] you may start games",
                    f"Your player key: {key}\n"
                    "Keep it to yourself. With it you may start games and ask for your games "
                    "and the standings:\nmail the referee with the word 'gametool' in brackets "
                    "in the subject, and in the text\nyour key line ('#key' and this key), then, "
                    "for example, the line\n'#new chess vs ben@example.net'.\n\n"
                    + commands.HELP)


def invited(session: Session) -> list[str]:
    """The seats that have not accepted their invitation yet."""
    value = session.record.get(INVITED_TAG)
    return [n for n in (value or "").split("; ") if n]


def is_invited(session: Session, name: str) -> bool:
    """Whether seat ``name`` has yet to accept its invitation."""
    return name.lower() in (seat.lower() for seat in invited(session))


def _offer(session: Session, tag: str) -> list[str]:
    """The seats that agree to the pending offer (draw) or request (undo) made at this ply;
    an offer made at an earlier ply has lapsed."""
    parts = (session.record.get(tag) or "").split("; ")
    if len(parts) < 2 or parts[0] != str(session.ply):
        return []
    return [p for p in parts[1:] if p]


def _set_offer(session: Session, tag: str, seats: list[str] | None) -> None:
    session.record.set(tag, "; ".join([str(session.ply), *seats]) if seats else None)


def _told(session: Session, ply: int) -> bool:
    """Whether the chance action at index ``ply`` told anybody something: a draw, or a forced
    report in a game with hidden information."""
    outcomes = session.game.chance_outcomes(session.states[ply])
    if outcomes is not None and len(outcomes) == 1:
        return session.game.hidden not in ("", "none")
    return True


@dataclass
class TickReport:
    """What one ``tick`` did, for the line the CLI prints."""

    reminded: list[str] = field(default_factory=list)
    forfeited: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    lapsed: list[str] = field(default_factory=list)
    digests: int = 0  # daily digests sent
    messages: int = 0
    errors: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, list[str]]:
        return {"reminded": self.reminded, "forfeited": self.forfeited, "left": self.left,
                "lapsed": self.lapsed}

    @classmethod
    def from_json(cls, value: object) -> TickReport:
        """The counts a journal entry keeps (anything else counts nothing)."""
        kept = cls()
        if isinstance(value, dict):
            for name in ("reminded", "forfeited", "left", "lapsed"):
                items = value.get(name)
                if isinstance(items, list):
                    getattr(kept, name).extend(str(item) for item in items)
        return kept

    def add(self, kept: TickReport, messages: int) -> None:
        """Count what one game's change did, once it is kept."""
        self.reminded += kept.reminded
        self.forfeited += kept.forfeited
        self.left += kept.left
        self.lapsed += kept.lapsed
        self.messages += messages


class RefereeCore(Protocol):
    """What the season needs of the referee that holds it: its folders and clock, the views
    it mails, the contributions to the seed, the outbox, and new games."""

    game_dir: Path
    outbox: Path
    clock_now: str | None

    def messages(self, match: str, session: Session, opening: bool = False,
                 keys: dict[str, str] | None = None, rekeyed: bool = False
                 ) -> list[Outgoing]: ...

    def record_join(self, session: Session, seat: int, lines: list[str]) -> bool: ...

    def join_reply(self, match: str, session: Session, name: str) -> Outgoing: ...

    def write(self, messages: list[Outgoing]) -> list[Path]: ...

    def write_files(self, files: list[tuple[str, str]]) -> list[Path]: ...

    def render_files(self, messages: list[Outgoing]) -> list[tuple[str, str]]: ...

    def new(self, *args: Any, **kwargs: Any) -> tuple[str, list[Outgoing]]: ...


class Season:
    """Clock, commands and games by mail, for the referee that holds it
    (:class:`~gametool.referee.referee.Referee`)."""

    def __init__(self, ref: RefereeCore) -> None:
        self.ref = ref

    @property
    def game_dir(self) -> Path:
        return self.ref.game_dir

    @property
    def outbox(self) -> Path:
        return self.ref.outbox

    @property
    def clock_now(self) -> str | None:
        return self.ref.clock_now

    def _sending(self, deliver: bool = True) -> contextlib.AbstractContextManager[None]:
        """The send lock while messages that carry keys are written (none sent meanwhile)."""
        if not deliver:
            return contextlib.nullcontext()
        return Journal(self.outbox).locked(SEND_LOCK)

    # -- the clock ------------------------------------------------------------------------------

    def now(self) -> datetime:
        return clock.now(self.clock_now)

    def _start_clock(self, session: Session, days: int | None) -> None:
        Clock(session.record).start(session.game.mail_days if days is None else days,
                                    self.now())

    def _moved(self, session: Session) -> None:
        """After a change by mail: a new turn on the clock; offers lapse; an end is dated."""
        leave.spend(session, self.game_dir, self.now())  # a late move spends the time bank
        Clock(session.record).restart(self.now())
        session.record.set(DRAW_TAG, None)
        session.record.set(UNDO_TAG, None)
        if session.outcome() is not None:
            Clock(session.record).mark_ended(self.now())

    def _respond(self, session: Session, sides: Sides) -> list[tuple[str, str]]:
        """Once a mail is wholly checked: the answers prepared in advance ('#if') that its
        change calls for, played in turn (an answer can call for the other seat's); each a new
        turn on the clock, and any offer lapses. Returns (seat, action) for each played."""
        played: list[tuple[str, str]] = []
        for _ in range(4):
            before = session.ply
            got = conditional.respond(session, sides)
            if not got:
                break
            played.append((session.names[session.steps[before].seat], got[0]))
            self._moved(session)
        return played

    def _deadline_text(self, session: Session) -> str | None:
        """The line that tells the seat to move when its time runs out: the same moment
        ``tick`` forfeits at (``leave.deadline_of``: its leave not counted, its bank spent)."""
        seat = session.to_move()
        if seat is None or seat == CHANCE:
            return None
        name = session.names[seat]
        deadline = leave.deadline_of(session, self.game_dir, name, with_bank=False)
        if deadline is None:
            return None
        days = _days(Clock(session.record).days)
        text = f"Your time for this move runs to {clock.write_time(deadline)} (UTC, {days} a move"
        if leave.periods(self.game_dir, name) and deadline != Clock(session.record).deadline():
            text += ", your leave not counted"
        text += ")"
        left = leave.bank(session).get(name)
        final = leave.deadline_of(session, self.game_dir, name) if left else None
        if final is not None:
            return (f"{text}; then your time bank, {(left or 0) / 86400:.1f} days left, runs to "
                    f"{clock.write_time(final)}: a reminder comes at half time, and a move not "
                    f"made by {clock.write_time(final)} loses the game by time forfeit.")
        return (f"{text}: a reminder comes at half time, and a move not made in time loses the "
                "game by time forfeit.")

    def tick(self) -> TickReport:
        """Remind the seats past half their time, forfeit those out of time, let invitations
        lapse; write the messages to the outbox.

        Under the journal's lock (``gametool.referee.mail.journal``), as ``inbox`` runs: the work a
        run left unfinished is finished first; then each game's change is journaled, the
        record replaced (or its files moved, for a lapse), and only then are its messages
        written. A game whose change cannot be kept gets one line in the report and no
        message, and stops no other game; the next run finishes it, once. Last, the daily
        digests (``gametool.referee.daily_mail``), journaled the same way."""
        report = TickReport()
        moment = self.now()
        journal = Journal(self.outbox)
        with journal.locked():
            finished: list[dict] = []
            stuck = settle(self.game_dir, journal, self.ref.write_files, finished)
            report.errors.extend(stuck.values())
            for entry in finished:  # the work of a run cut short, counted now that it is done
                report.add(TickReport.from_json(entry.get("report")), len(entry["files"]))
            held = {Path(record).name for record in stuck}
            try:  # a digest a run cut short, before today's are looked at
                finished_digests = digests.finish_pending(self.ref, journal)
                report.digests += finished_digests
                report.messages += finished_digests
            except GameError as exc:
                report.errors.append(str(exc))
            for path in sorted(self.game_dir.glob("*.gtn")):
                if path.name in held:
                    continue
                try:
                    self._tick_game(path, journal, moment, report)
                except GameError as exc:  # one game's trouble stops no other game's clock
                    report.errors.append(str(exc))
            try:
                sent, written, errors = digests.send(self.ref, journal, moment)
            except GameError as exc:  # the digest file does not read: no digest is sent
                sent, written, errors = 0, 0, [str(exc)]
            report.digests += sent
            report.messages += written
            report.errors.extend(errors)
        return report

    def _tick_game(self, path: Path, journal: Journal, moment: datetime,
                   report: TickReport) -> None:
        match = path.stem
        draft = TickReport()  # counted once kept
        pending: list[tuple[str, dict]] = []

        def change(text: str) -> str:
            try:
                session = load_one(text, str(path))
            except GameError:
                return text  # a record that does not read is left to the referee
            lapse: list[bool] = []
            try:
                out = self._tick_one(match, session, moment, draft, lapse)
            except OverflowError:
                raise GameError(f"{path}: its clock cannot be read (a time beyond the year "
                                "9999)") from None
            if not out:
                return text
            new = text if lapse else session.text()
            entry: dict[str, Any] = {
                "tick": True, "record": str(path), "before": digest(text.encode()),
                "after": digest(new.encode()), "text": new, "applied": True, "reason": None,
                "files": self.ref.render_files(out), "report": draft.as_json()}
            if lapse:
                entry["moves"] = [[str(self.game_dir / f"{match}{ext}"),
                                   str(self.game_dir / LAPSED / f"{match}{ext}")]
                                  for ext in (".gtn", ".keys")
                                  if (self.game_dir / f"{match}{ext}").exists()]
            key = digest(f"tick\n{path}\n{text}".encode())
            journal.write(key, entry)
            pending.append((key, entry))
            return new

        try:
            storage.update(str(path), change, storage.PRIVATE_FILE)
        except GameError as exc:
            if pending:  # the journal holds the change: the next run finishes it
                raise Unkept(f"{exc} (game {match}: its messages wait for the next run)"
                             ) from None
            raise
        if not pending:
            return
        key, entry = pending[0]
        if not finish(self.game_dir, entry):
            journal.remove(key)
            raise Unkept(f"{path}: changed by hand meanwhile; its clock runs again next time")
        files = [(a, b) for a, b in entry["files"]]
        self.ref.write_files(files)
        journal.remove(key)
        report.add(draft, len(files))

    def _tick_one(self, match: str, session: Session, moment: datetime, report: TickReport,
                  lapse: list[bool]) -> list[Outgoing]:
        if session.outcome() is not None:
            return []
        timer = Clock(session.record)
        deadline, half, days = timer.deadline(), timer.half_time(), timer.days
        if deadline is None or half is None:
            return []
        name = session.game.name
        pending = invited(session)
        if pending or session.is_waiting_for_seed():
            # Nothing is played before every seat has accepted and sent its contribution: a
            # game that does not begin in time lapses, and rates nobody.
            waiting = pending or session.waiting_for()
            if moment >= deadline:
                lapse.append(True)
                report.lapsed.append(match)
                return [_outgoing(seat, f"[gametool {match}] {name}: the game lapsed",
                                  f"Game {match}: {name}, seats {', '.join(session.names)}.\n\n"
                                  f"The game lapsed: {', '.join(waiting)} did not answer "
                                  f"within {_days(days)}. It will not be played, and counts "
                                  "for nobody's standings.\n")
                        for seat in session.names]
            if moment >= half and not timer.reminded():
                timer.mark_reminded()
                report.reminded.extend(waiting)
                if pending:
                    return [_outgoing(seat, f"[gametool {match}] {name}: reminder, an invitation",
                                      f"Game {match}: you are invited to a game of {name} by "
                                      f"{session.names[0]}. Accept it by replying with your key "
                                      "line and the line '#join' (in a game with chance, the "
                                      f"line 'gametool join' prints) by "
                                      f"{clock.write_time(deadline)} (UTC), or it lapses.\n")
                            for seat in pending]
                return [_outgoing(seat, f"[gametool {match}] {name}: reminder, send #join",
                                  f"Game {match}: {name}, seats {', '.join(session.names)}.\n\n"
                                  "The game waits for your contribution to the seed. Send it by "
                                  "replying with your key line and the line 'gametool join' "
                                  f"prints ('#join' and 32 random hex digits) by "
                                  f"{clock.write_time(deadline)} (UTC), or the game lapses.\n")
                        for seat in waiting]
            return []
        seat = session.to_move()
        if seat is None or seat == CHANCE:
            return []
        late = [session.names[seat]]
        # The seat's leave does not count, and its time bank does.
        deadline = leave.deadline_of(session, self.game_dir, late[0]) or deadline
        half = leave.deadline_of(session, self.game_dir, late[0], half=True) or half
        if moment >= deadline:
            return self._forfeit(match, session, late, moment, report)
        if moment >= half and not timer.reminded():
            timer.mark_reminded()
            report.reminded.extend(late)
            note = (f"Reminder: half of your time for this move is gone. Move by "
                    f"{clock.write_time(deadline)} (UTC), or you lose game {match} by time "
                    "forfeit." + leave.bank_text(session, late[0]))
            return [self._with_note(m, note, "reminder, your move")
                    for m in self.ref.messages(match, session) if m.to in late]
        return []

    def _forfeit(self, match: str, session: Session, late: list[str], moment: datetime,
                 report: TickReport) -> list[Outgoing]:
        days = Clock(session.record).days
        leave = session.game.leave_action
        if leave and len(session.names) >= 3 and len(late) == 1:
            try:
                session.play([leave], late[0], session.ply + 1)
            except GameError:
                pass  # the rules do not let the seat leave now: the game ends instead
            else:
                self._moved(session)
                if session.outcome() is not None:  # the last seat but one left: it is over
                    report.forfeited.append(f"{match} {late[0]}")
                    note = (f"{late[0]} did not move within {_days(days)} and leaves the game "
                            f"('{leave}', as the rules let a seat leave); that ends the game.")
                    return [self._with_note(m, note, "time forfeit")
                            for m in self.ref.messages(match, session)]
                report.left.append(f"{match} {late[0]}")
                note = (f"{late[0]} did not move within {_days(days)} and leaves the game "
                        f"('{leave}', as the rules let a seat leave); the others play on.")
                return [self._with_note(m, note, "a seat ran out of time")
                        for m in self.ref.messages(match, session)]
        why = forfeit.lateness(session, self.game_dir, late[0], moment)
        reason = f"time forfeit: {', '.join(late)} {why}"
        forfeit.end_by_forfeit(session, late, reason, moment)
        report.forfeited.append(f"{match} {', '.join(late)}")
        note = f"The game ends by time forfeit: {', '.join(late)} {why}."
        if len(session.names) - len(late) >= 2:
            note += (f" {', '.join(late)} {'loses' if len(late) == 1 else 'lose'} against every "
                     "other seat; nothing is decided among the others, and the standings count "
                     "no result between them.")
        return [self._with_note(m, note, "time forfeit") for m in self.ref.messages(match, session)]

    @staticmethod
    def _with_note(message: Outgoing, note: str, what: str | None = None) -> Outgoing:
        subject = message.subject
        if what is not None:
            subject = subject.split("]", 1)[0] + f"] {what}"
        return _outgoing(message.to, subject, f"{note}\n\n{message.body}")

    # -- commands in a game's mail -------------------------------------------------------------

    def _season_mail(self, match: str, session: Session, name: str, lines: list[str],
                     joined: bool = False, sides: Sides | None = None, seen: int | None = None
                     ) -> tuple[Session, list[Outgoing]] | None:
        """Answer a game's mail that holds a command or accepts an invitation (the key is
        checked already, and the seat's contribution to the seed, if the mail holds one,
        recorded: ``joined``). None: the mail holds neither, for the referee's usual
        reading.

        One transaction: every line is checked first, against the position the sender saw
        (``seen``, the ply index the mail began at) and what the mail itself did; the side
        files it changes (leave, digest, prepared moves) are kept in ``sides``, written only
        with the mail; an answer the opponent prepared is played only once nothing in the
        mail can be refused any more, so that no refusal depends on it."""
        sides = sides if sides is not None else Sides()
        said, rest = commands.split(lines)
        pending = invited(session)
        changes = [c for c in said if c.word in commands.CHANGING]
        if pending and name.lower() in (p.lower() for p in pending):
            if said:
                raise MailRejected("accept the invitation first, in a mail of its own: your key "
                                   "line and '#join'")
            return self._accept_invitation(match, session, name, rest)
        if pending and (changes or any(PLY_LINE.fullmatch(line) for line in rest)):
            raise MailRejected(f"the game waits for {', '.join(pending)} to accept the "
                               "invitation: nothing can be played before")
        if not said:
            return None
        if any(c.word == "new" for c in said):
            raise MailRejected("'#new' starts a game: send it with no game in the subject "
                               "(write just 'gametool'), with your own key from the referee")
        prepared = [c.argument for c in said if c.word == "if"]
        if prepared:  # what needs no position, before anything is played
            conditional.check_lines(session, prepared)
        notes: list[str] = []
        notes_private: list[Outgoing] = []  # '#leave': to the sender and the others once
        moved = joined
        guard = self._guard(session, rest, required=bool(changes))
        if guard is not None and any(line and not PLY_LINE.fullmatch(line)
                                     and not line.lower().startswith(("#key", "#join"))
                                     for line in rest[rest.index(guard) + 1:]):
            instructions = find_instructions(rest, session.game.max_plies)
            session.play(instructions.actions, name, instructions.ply)
            self._moved(session)
            moved = True
        for command in changes:
            session, note, changed = self._change(session, name, command)
            notes.append(note)
            moved = moved or changed
        for command in (c for c in said if c.word == "leave"):
            told = leave.grant(self.game_dir, name, int(command.argument), self.now(),
                               getattr(self.ref, "leave_days", leave.DEFAULT_DAYS), sides)
            notes_private.extend(_outgoing(*message) for message in told)
        for command in (c for c in said if c.word == "say"):  # notes to the other seats
            notes_private.extend(self._say(match, session, name, command.argument))
        private, kept = (conditional.prepare(session, name, prepared, seen) if prepared
                         else (None, {}))
        asked = [c for c in said if c.word in commands.ANSWERING]
        for command in asked:
            if command.word == "show" and command.argument \
                    and int(command.argument) > session.ply:
                raise MailRejected(f"'#show {int(command.argument)}': the game is at ply "
                                   f"{session.ply}")
        # Every line is checked: now what the mail calls for, in order.
        played = self._respond(session, sides) if moved else []
        if kept:
            conditional.keep(session, kept, sides)
            mine = self._respond(session, sides)
            if mine:
                private = (f"Your conditional move was played at once: {played[-1][0]}'s "
                           f"answer was prepared too, and yours to it is {mine[0][1]}.")
            elif played:
                private = (f"Your conditional moves are dropped: {played[-1][0]}'s answer was "
                           "prepared too, and none of your lines is for it.")
            played += mine
        for who, action in played:
            notes.append(f"Prepared in advance: {who} answers with {action}"
                         + (" (a draw offer or a request to take back lapses with it)."
                            if changes else "."))
        moved = moved or bool(played)
        replies: list[Outgoing] = []
        if joined and session.is_waiting_for_seed() and not changes:
            replies = [self.ref.join_reply(match, session, name)]
        elif moved:  # a move, a turn taken back, a draw agreed: every seat's new view
            replies = [self._with_note(m, "\n".join(notes)) if notes else m
                       for m in self.ref.messages(match, session)]
        elif notes:
            pending = _offer(session, DRAW_TAG) or _offer(session, UNDO_TAG)
            prompt = (f"\n\nAnswer with your key line, '#ply {session.ply + 1}' and the word, "
                      "each on a line of its own." if pending else "")
            replies = [_outgoing(seat, f"[gametool {match}] {session.game.name}: "
                                       f"{notes[-1].split(':')[0][:60]}",
                                 "\n".join(notes) + f"{prompt}\n") for seat in session.names]
        if private is not None:  # for the sender only: the opponent never sees it
            replies.append(_outgoing(name, f"[gametool {match}] {session.game.name}: your #if",
                                     private + "\n"))
        if asked:
            answers = [self._answer(match, session, name, c) for c in asked]
            words = ", ".join(f"#{c.word}" for c in asked)
            replies.append(_outgoing(name, f"[gametool {match}] {session.game.name}: your {words}",
                                     "\n\n".join(answers) + "\n"))
        for command in (c for c in said if c.word == "digest"):  # the sender's, every game
            digests.set_mode(self.game_dir, name, command.argument, sides)
            notes_private.append(digests.told(command.argument, name))
        return session, replies + notes_private

    @staticmethod
    def _say(match: str, session: Session, name: str, argument: str) -> list[Outgoing]:
        """'#say': the note kept in the record, and a mail to every other seat."""
        try:
            line, public, text = notes.make(name, argument)
        except ValueError as exc:
            raise MailRejected(str(exc)) from None
        session.record.body.append(line)
        kept = "kept in the record for every seat" if public else "kept in the record for you"
        return [_outgoing(seat, f"[gametool {match}] {session.game.name}: a note from {name}",
                          f"{name} says: {text}\n" if seat != name else
                          f"Your note went to the other seats ({kept}): {text}\n")
                for seat in session.names]

    def _guard(self, session: Session, rest: list[str], required: bool) -> str | None:
        """The guard line, checked against the next ply; None when there is none."""
        for line in rest:
            match = PLY_LINE.fullmatch(line)
            if match is None:
                continue
            ply = _ply_number(match.group(1), session.game.max_plies)
            if ply != session.ply + 1:
                raise MailRejected(f"'#ply {ply}' is stale: the next ply of this game is "
                                   f"{session.ply + 1} (an old or repeated mail is not applied)")
            return line
        if required:
            raise MailRejected(f"'#draw', '#accept', '#decline' and '#undo' change the game: "
                               f"write '#ply {session.ply + 1}' above them, after your key line")
        return None

    def _change(self, session: Session, name: str, command: commands.Command
                ) -> tuple[Session, str, bool]:
        """Apply one changing command; return the session, a note for every seat and whether
        the position changed."""
        if session.outcome() is not None:
            raise MailRejected("the game is over")
        word = command.word
        if word == "draw":
            if not session.game.draws:
                raise MailRejected(f"a game of {session.game.name} cannot end drawn: there is no "
                                   "draw to offer")
            if _offer(session, DRAW_TAG):
                raise MailRejected("a draw is offered already: answer it with '#accept' or "
                                   "'#decline'")
            _set_offer(session, DRAW_TAG, [name])
            return session, (f"Draw offered: {name} offers a draw. Every other seat answers "
                             "'#accept' or '#decline'; the offer lapses with the next move."), False
        if word == "undo":
            start = self._undo_start(session, name)
            if _offer(session, UNDO_TAG):
                raise MailRejected("a request to take back is pending: answer it first")
            _set_offer(session, UNDO_TAG, [name])
            return session, (f"Take back asked: {name} asks to take back their last turn (from "
                             f"ply {start + 1}). Every other seat answers '#accept' or "
                             "'#decline'; the request lapses with the next move."), False
        tag = self._answered(session, command)
        agreed = _offer(session, tag)
        what = "draw offer" if tag == DRAW_TAG else "request to take back"
        if name in agreed:
            raise MailRejected(f"you have agreed to this {what} already"
                               if agreed[0] != name else f"the {what} is your own")
        if word == "decline":
            _set_offer(session, tag, None)
            return session, (f"Declined: {name} declines {agreed[0]}'s {what}; nothing "
                             "changes."), False
        agreed.append(name)
        missing = [seat for seat in session.names if seat not in agreed]
        if missing:
            _set_offer(session, tag, agreed)
            return session, (f"Accepted by {name}: {agreed[0]}'s {what} waits for "
                             f"{', '.join(missing)}."), False
        if tag == DRAW_TAG:
            reason = "draw by agreement"
            session.end_off_board(Outcome.draw(len(session.names), reason).result_tag(), reason)
            self._moved(session)
            return session, "Drawn: every seat accepted the draw; the game is drawn by " \
                            "agreement.", True
        return self._take_back(session, agreed[0])

    @staticmethod
    def _answered(session: Session, command: commands.Command) -> str:
        if command.argument:
            tag = DRAW_TAG if command.argument == "draw" else UNDO_TAG
            if not _offer(session, tag):
                raise MailRejected(f"no {command.argument} is pending at this ply")
            return tag
        pending = [tag for tag in (DRAW_TAG, UNDO_TAG) if _offer(session, tag)]
        if not pending:
            raise MailRejected(f"nothing to {command.word}: no draw offer nor request to take "
                               "back is pending at this ply")
        if len(pending) > 1:
            raise MailRejected(f"a draw offer and a request to take back are pending: write "
                               f"'#{command.word} draw' or '#{command.word} undo'")
        return pending[0]

    @staticmethod
    def _undo_start(session: Session, name: str) -> int:
        """Where the sender's last turn begins (its first ply's index); refused past chance
        that told something."""
        seat = session.seat_index(name)
        steps = session.steps
        last = max((i for i, step in enumerate(steps) if step.seat == seat), default=None)
        if last is None:
            raise MailRejected("you have not played yet: there is nothing to take back")
        start = last
        while start > 0 and steps[start - 1].seat == seat:
            start -= 1
        for ply in range(start, session.ply):
            if steps[ply].seat == CHANCE and _told(session, ply):
                raise MailRejected(f"your last turn cannot be taken back: chance acted after it "
                                   f"(ply {ply + 1}), and what it drew has been seen")
        return start

    def _take_back(self, session: Session, name: str) -> tuple[Session, str, bool]:
        from gametool.records.undo import take_back

        start = self._undo_start(session, name)
        try:
            after = take_back(session, session.ply - start)
        except GameError as exc:
            raise MailRejected(f"the turn cannot be taken back: {exc}") from None
        self._moved(after)
        return after, (f"Taken back: every other seat accepted; {name}'s last turn (from ply "
                       f"{start + 1}) is taken back."), True

    def _answer(self, match: str, session: Session, name: str,
                command: commands.Command) -> str:
        word = command.word
        if word == "show":
            ply = min(int(command.argument), session.ply) if command.argument else None
            return render.show_text(session, ply=ply, as_seat=name).rstrip()
        if word == "moves":
            seat = session.to_move()
            if seat is not None and seat != CHANCE and session.names[seat] == name \
                    and not invited(session) and not session.is_waiting_for_seed():
                game, state = session.game, session.state
                legal = [game.format_action(state, a) for a in game.legal_actions(state)]
                return (f"Your legal actions at ply {session.ply + 1}:\n" + "\n".join(legal))
            if session.outcome() is not None:
                return "The game is over: no more actions."
            who = ("chance" if seat == CHANCE else session.names[seat] if seat is not None
                   else "nobody")
            return f"You are not to move: {who} is."
        if word == "games":
            return self._games_text(name)
        if word == "standings":
            return (standings.as_text(standings.standings(self.game_dir)).rstrip()
                    + tournament.mail_text(self.game_dir, name))
        return commands.HELP.rstrip()

    def _games_text(self, name: str) -> str:
        from tabulate import tabulate

        rows = []
        for path, session in roster.games(self.game_dir, name):
            outcome = session.outcome()
            pending = invited(session)
            if outcome is not None:
                state = f"over: {outcome.result_tag()} ({outcome.termination})"
            elif pending:
                state = f"invited: {', '.join(pending)}"
            elif session.is_waiting_for_seed():
                state = f"waiting for the seed parts of {', '.join(session.waiting_for())}"
            else:
                seat = session.to_move()
                mover = session.seat_name(seat) or "nobody"
                state = "your turn" if mover.lower() == name.lower() else f"{mover} to move"
            rows.append([path.stem, session.game.name, session.ply, state])
        if not rows:
            return "You have no games."
        return "Your games:\n" + tabulate(rows, headers=["game", "of", "ply", "now"])

    # -- invitations and games started by mail ---------------------------------------------------

    def _accept_invitation(self, match: str, session: Session, name: str, rest: list[str]
                           ) -> tuple[Session, list[Outgoing]]:
        value = find_join(rest)
        if value is None:
            raise MailRejected(f"{session.names[0]} invites you to this game: accept by replying "
                               "with your key line and the line '#join'")
        if any(PLY_LINE.fullmatch(line) for line in rest):
            raise MailRejected("accept the invitation first, in a mail of its own: your key "
                               "line and '#join'")
        if session.contributions is not None:
            if not value:
                raise MailRejected("this game's seed is drawn jointly: accept with the line "
                                   "'gametool join' prints ('#join' and 32 random hex digits)")
            self.ref.record_join(session, session.seat_index(name), rest)
        elif value:
            raise MailRejected("this game's seed is not drawn jointly: write '#join' alone to "
                               "accept")
        left = [seat for seat in invited(session) if seat.lower() != name.lower()]
        session.record.set(INVITED_TAG, "; ".join(left) if left else None)
        self._moved(session)
        if left or session.is_waiting_for_seed():
            waiting = left or session.waiting_for()
            return session, [_outgoing(name, f"[gametool {match}] {session.game.name}, "
                                             "invitation accepted",
                                       f"Game {match}: you have accepted. The game begins once "
                                       f"{', '.join(waiting)} "
                                       f"{'has' if len(waiting) == 1 else 'have'} answered too.\n")]
        return session, [self._with_note(m, "Every seat has accepted: the game begins.")
                         for m in self.ref.messages(match, session)]

    def players_path(self) -> Path:
        return self.game_dir / PLAYERS_FILE

    def is_allowed(self, sender: str) -> bool:
        """Whether ``sender`` is on the list of players who may start games by mail."""
        return sender in self._players().entries

    def _players(self) -> Keyring:
        path = self.players_path()
        if not path.exists():
            return Keyring()
        return Keyring.from_text(storage.read(str(path)), path.name)

    def allow(self, addresses: list[str], deliver: bool = False,
              digest: str | None = None) -> list[Outgoing]:
        """Let these players start games by mail: each gets a key of its own, by mail.

        With ``deliver`` the messages are written to the outbox before the new keys are saved,
        under the send lock, and removed again if the keys cannot be saved: a key changes
        only when its message is in the outbox, and no message goes out with a key not saved.
        A failure leaves ``players.keys`` as it was (or none, when there was none).
        ``digest`` (daily or off): each player's digest is set too, before the keys, and set
        back if they cannot be saved; the key's mail says which it is."""
        from gametool.referee.mail.message import addresses as checked_addresses

        names = checked_addresses(addresses)
        made = storage.private_folder(self.game_dir)
        before = {}
        if digest is not None:
            for name in names:
                before[name] = digests.set_mode(self.game_dir, name, digest)
        path = self.players_path()
        created = False
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            created = True
        except FileExistsError:
            pass
        except OSError as exc:
            storage.undo_folders(made)
            raise GameError(f"{path}: cannot create: {exc.strerror}") from None
        out: list[Outgoing] = []
        written: list[Path] = []

        def change(text: str) -> str:
            ring = Keyring.from_text(text, path.name) if text.strip() else Keyring()
            for name in names:
                key = ring.issue(name)
                message = _allowed(name, key)
                if digest is not None:
                    message = Outgoing(name, message.subject, message.body + "\n"
                                       + digests.told(digest, name).body)
                out.append(message)
            if deliver:
                for message in out:
                    written.extend(self.ref.write([message]))
            return ring.text()

        try:
            with self._sending(deliver):
                storage.update(str(path), change, storage.PRIVATE_FILE)
        except GameError:
            for item in [*written, *([path] if created else [])]:
                try:
                    os.unlink(item)
                except OSError:
                    pass
            for name, mode in before.items():
                with contextlib.suppress(GameError):
                    digests.set_mode(self.game_dir, name, mode)
            storage.undo_folders(made)
            raise
        return out

    def _account_mail(self, lines: list[str], sender: str, sides: Sides
                      ) -> tuple[list[Outgoing], Any] | None:
        """A mail that names no game: '#new', '#games', '#standings', '#help' under the
        player's own key. None when it holds no command. Returns the replies and, for '#new',
        the arguments of the game to start."""
        said, rest = commands.split(lines)
        if not said:
            return None
        ring = self._players()
        if sender not in ring.entries:
            raise MailRejected(f"{sender} has no player key: commands outside a game are for "
                               "the players the referee allows ('referee allow'); inside a "
                               "game, name the game in the subject")
        if not ring.matches(sender, find_key(rest)):
            raise MailRejected("the key is not your player key: copy the '#key' line from the "
                               "referee's mail that allowed you exactly")
        replies: list[Outgoing] = []
        answers = []
        start = None
        for command in said:
            if command.word == "leave":  # for every game of the player
                replies += [_outgoing(*message) for message in leave.grant(
                    self.game_dir, sender, int(command.argument), self.now(),
                    getattr(self.ref, "leave_days", leave.DEFAULT_DAYS), sides)]
                continue
            if command.word == "digest":
                continue  # set last, once nothing else in the mail can be refused
            if command.word in commands.CHANGING or command.word in ("show", "moves", "if",
                                                                      "say"):
                raise MailRejected(f"'#{command.word}' is about one game: name it in the "
                                   "subject ([gametool MATCH-ID]) and use that game's key")
            if command.word == "new":
                if start is not None:
                    raise MailRejected("one '#new' per mail")
                start = commands.parse_new(command.argument)
            elif command.word == "games":
                answers.append(self._games_text(sender))
            elif command.word == "standings":
                answers.append(standings.as_text(standings.standings(self.game_dir)).rstrip()
                               + tournament.mail_text(self.game_dir, sender))
            else:
                answers.append(commands.HELP.rstrip())
        if answers:
            replies.append(_outgoing(sender, "[gametool] your "
                                     + ", ".join(f"#{c.word}" for c in said
                                                 if c.word not in ("new", "leave", "digest")),
                                     "\n\n".join(answers) + "\n"))
        digest = [c for c in said if c.word == "digest"]
        if digest and start is not None:  # the game's own checks come later
            raise MailRejected("'#digest' and '#new' in one mail: send them in two mails")
        for command in digest:
            digests.set_mode(self.game_dir, sender, command.argument, sides)
            replies.append(digests.told(command.argument, sender))
        return replies, start

    def _start_by_mail(self, sender: str, wanted: commands.NewGame, before: list[Outgoing],
                       on_commit: Any = None, sides: Sides | None = None) -> list[Outgoing]:
        """Start the game '#new' asks for; return ``before`` and the opening messages, the
        others' as invitations. ``on_commit`` sees them all before the record is written."""
        from gametool.referee.mail import MailDropped
        from gametool.referee.mail.message import one_address

        others = []
        for given in wanted.others:
            try:
                others.append(one_address(given))
            except MailDropped:
                raise MailRejected(f"{given[:80]!r} is not one email address") from None
        if sender in others or len(set(others)) != len(others):
            raise MailRejected("every seat must be a different address (yours is the first)")
        done: list[Outgoing] = []

        def invitations(path: Path, old: str, new: str, opening: list[Outgoing]) -> None:
            session = load_one(new, str(path))
            days = Clock(session.record).days
            for message in opening:
                if message.to == sender:
                    note = (f"Your game {path.stem} is started; it begins once "
                            f"{', '.join(others)} {'has' if len(others) == 1 else 'have'} "
                            "accepted.")
                else:
                    note = (f"{sender} invites you to this game. Accept by replying with your "
                            "key line and the line '#join' (in a game with chance, the line "
                            f"'gametool join' prints) within {_days(days)}; otherwise the "
                            "invitation lapses.")
                done.append(self._with_note(message, note))
            if on_commit is not None:
                if sides is not None and sides.writes:
                    on_commit(path, old, new, before + done, sides=sides.as_json())
                else:
                    on_commit(path, old, new, before + done)

        try:
            self.ref.new(wanted.game, [sender, *others], wanted.options, days=wanted.days,
                     invited=others, on_create=invitations)
        except (MailRejected, Unkept):
            raise
        except GameError as exc:
            raise MailRejected(str(exc)) from None
        return before + done
