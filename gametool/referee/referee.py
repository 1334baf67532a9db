"""A play-by-email referee: reads one mail message, applies its actions, writes the replies.

Each game is a master record ``GAME_DIR/MATCH.gtn`` whose seats are the players' email
addresses; its match id (``colors-1a2b3c4d``) travels in the subject as ``[gametool MATCH]``.
Beside it, ``MATCH.keys`` holds a salted hash of each seat's secret key; the key itself is sent
once, in that seat's opening mail (or by ``rekey``). A player's mail must come from the seat's
registered address (one ``From`` header, one address) and carry, in the player's own text,
``#key KEY``, then the guard ``#ply N``, then one action per line
(``gametool.referee.mail.body``). The referee applies the actions as that seat with
``expect_ply=N`` under the record's lock, then writes one message per seat into the outbox: that
seat's view, and its legal actions when it is to move. A rejected mail changes nothing and gets
one reply, to the seat's registered address, saying what was wrong. A mail with no single
readable sender, or whose sender holds no seat in the game it names (or that names no known
game), is dropped unanswered with its reason: no backscatter to a forged sender, and nothing
that tells which games exist. When the game ends every seat receives the master record, seed
included, to check against the SeedHash it was sent.

In a game with chance nobody chooses the seed. The record's ``Seed`` is the referee's secret,
committed to by the ``SeedHash`` in every opening message; each seat's first mail carries
``#join HEX``, a random contribution of its own (``gametool join`` prints one), and chance draws
from the SHA-256 of the secret and every contribution in seat order (``Contributions`` tag).
Chance waits until the last contribution has arrived: one round of mail after the opening.
A contribution read from an authenticated mail is kept whatever the rest of the mail holds, and
the draw it completes is made before the mail's actions are read, so nobody can grind the deal
by sending the same mail again with other contributions.

Secrets at rest: the game folder and the outbox are mode 0700, and every file written here
(records, key files, outbox messages, the journal) mode 0600, whatever the umask.

The referee's word: a reply tells only what the record on disk holds. ``receive`` hands the new
text and the replies to ``on_commit`` (the journal, ``gametool.referee.mail.journal``) before
the record is replaced; a record that cannot be replaced is ``Unkept`` (the referee's failure,
never a reply), and the journal lets the next run finish the change with the same deal. A seat
gets at most one refusal an hour (``bounded``): a flood of forged mail draws one reply, not
thousands.

Reading mail (``gametool.referee.mail``) is apart from how it arrives and leaves: ``receive``
takes the raw bytes and returns the messages to send; ``write`` puts them in the outbox folder.

The season (``gametool.referee.season``, a part the referee holds): a clock per game that
``tick`` runs, the commands players mail besides actions (draw offers, take-backs, status), and
games started by mail by the players the referee allows.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

from gametool.core import storage
from gametool.core.chance import new_seed, seed_hash, weak_seed_reason
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.core.hints import typed_action, with_hint
from gametool.records import Session, load_one
from gametool.referee import clock, leave, sidefiles
from gametool.referee import daily_mail as digests
from gametool.referee.mail import MailDropped, MailRejected
from gametool.referee.mail import directives as mail_commands
from gametool.referee.mail.body import find_instructions, find_join, find_key, has_guard, own_lines
from gametool.referee.mail.keys import Keyring
from gametool.referee.mail.message import DEFAULT_MAX_BYTES, Letter, one_address
from gametool.referee.mail.message import addresses as checked_addresses
from gametool.referee.mail.outgoing import OUTBOX_NAME, Outgoing, Unkept
from gametool.referee.season import INVITED_TAG, Season, TickReport, invited, is_invited
from gametool.referee.sidefiles import Sides
from gametool.views import render

MATCH_TAG = re.compile(r"\[gametool\s+([^\]\s]*)\s*\]", re.IGNORECASE)
MATCH_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
MAX_REASON = 1000
REFUSALS = "refusals.json"
REFUSAL_SPACING = timedelta(hours=1)


class _Stranger(MailDropped):
    """The sender holds no seat in the game the mail names."""


class _Unkept(Exception):
    """The outcome of a mail could not be kept (a full disk): not the sender's fault."""

    def __init__(self, failure: GameError) -> None:
        super().__init__(str(failure))
        self.failure = failure


__all__ = ["OUTBOX_NAME", "Outgoing", "Receipt", "Referee", "Unkept"]


DRAWN_REFUSAL = ("this mail completed the draw, so the reason is not given (it could tell what "
                 "was drawn): read your view, then send your actions again in a new mail")


@dataclass(frozen=True)
class Receipt:
    """What became of one incoming mail (unpacked as applied, messages, reason)."""

    applied: bool
    messages: list[Outgoing]
    reason: str | None = None  # why it was not applied (rejected, or dropped when no messages)
    sides: list | None = None  # the side files a mail that names no game changes (journaled)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.applied, self.messages, self.reason))


class Referee:
    """The referee's folders: the master records with their key files, and the outbox."""

    def __init__(self, game_dir: str | Path, outbox: str | Path,
                 address: str = "referee@localhost", max_bytes: int = DEFAULT_MAX_BYTES,
                 now: str | None = None) -> None:
        self.clock_now = now  # the clock's time (None: GAMETOOL_NOW, else the real time)
        self.game_dir = Path(game_dir)
        self.outbox = Path(outbox)
        self.address = address
        self.max_bytes = max_bytes
        self.held = 0  # refusals not sent in this run (at most one an hour to a seat)
        self.leave_days = leave.DEFAULT_DAYS  # the allowance '#leave' takes from
        self.season = Season(self)  # the clock, the mail commands, games started by mail

    # -- the season's part, as the commands call it ------------------------------------------

    def now(self) -> datetime:
        return clock.now(self.clock_now)

    def tick(self) -> TickReport:
        """Remind, forfeit, let invitations lapse, send the digests (``Season.tick``)."""
        return self.season.tick()

    def allow(self, addresses: list[str], deliver: bool = False,
              digest: str | None = None) -> list[Outgoing]:
        """Let these players start games by mail (``Season.allow``)."""
        return self.season.allow(addresses, deliver, digest)

    def is_allowed(self, sender: str) -> bool:
        return self.season.is_allowed(sender)

    def players_path(self) -> Path:
        return self.season.players_path()

    def master(self, match: str) -> Path:
        return self.game_dir / f"{match}.gtn"

    def keys_path(self, match: str) -> Path:
        return self.game_dir / f"{match}.keys"

    # -- starting ---------------------------------------------------------------------------

    def new(self, game_id: str, addresses: list[str], options: dict[str, str] | None = None,
            seed: str | None = None, weak_seed_ok: bool = False, days: int | None = None,
            invited: list[str] | None = None, deliver: bool = False, bank: int | None = None,
            on_create: Callable[[Path, str, str, list[Outgoing]], None] | None = None
            ) -> tuple[str, list[Outgoing]]:
        """Start a game among ``addresses``; return its match id and the opening messages.

        Every seat gets a fresh key, named only in its own opening message. ``seed`` is the
        referee's secret (random by default); one that can be guessed is refused unless
        ``weak_seed_ok``, since its SeedHash goes to every player. ``days``: the days per move
        (the game's own default when None); ``invited``: the seats that must accept first.
        With ``deliver`` the opening messages are written to the outbox too. ``on_create`` is
        called as ``receive``'s ``on_commit`` before the record is written. All of it is
        written or none: on any failure (a folder that cannot be made, a full disk) no record,
        key file or message is left.
        """
        reason = weak_seed_reason(seed) if seed is not None else None
        if reason is not None and not weak_seed_ok:
            raise GameError(f"the seed can be guessed ({reason}), and its SeedHash goes to every "
                            "player: leave --seed out for a random one, or add --weak-seed-ok")
        names = checked_addresses(addresses)
        from gametool import games

        joint = _draws_chance(games.playable_class(game_id))
        session = Session.start(game_id, names, options, seed or new_seed(), joint=joint,
                                date=self.now().strftime("%Y.%m.%d"))
        _playable_by_mail(session)
        self.season._start_clock(session, days)
        if bank:  # a reserve of days past the deadline for every seat
            leave.start_bank(session, bank)
        if invited:
            session.record.set(INVITED_TAG, "; ".join(one_address(a) for a in invited))
        match = f"{session.game.id}-{secrets.token_hex(4)}"
        ring = Keyring()
        keys = {name: ring.issue(name) for name in names}
        messages = self.messages(match, session, opening=True, keys=keys)
        files = self.render_files(messages) if deliver else []
        made: list[str] = []
        written: list[Path] = []
        try:
            made += storage.private_folder(self.game_dir)
            if deliver:
                made += storage.private_folder(self.outbox)
            self._save_keys(match, ring, fresh=True, made=written)
            if on_create is not None:
                on_create(self.master(match), "", session.text(), messages)
            storage.create(str(self.master(match)), session.text(), mode=storage.PRIVATE_FILE)
            written.append(self.master(match))
            for name, text in files:
                path = self._outbox_file(name)
                storage.write_atomic(str(path), text, storage.PRIVATE_FILE)
                written.append(path)
        except GameError as exc:
            for path in reversed(written):
                try:
                    os.unlink(path)
                except OSError:
                    pass
            storage.undo_folders(made)
            raise Unkept(str(exc)) from None
        return match, messages

    def rekey(self, match: str, seat: str, deliver: bool = False) -> list[Outgoing]:
        """Issue ``seat`` a new key (the old one stops working at once); return its message.

        With ``deliver`` the message is written to the outbox before the new key is saved, and
        removed again if it cannot be: the key changes only when its message is in the outbox.
        """
        path = self._known(match)
        holder: list[Outgoing] = []

        def change(text: str) -> str:
            # Under the master record's lock, so no mail is checked against a half-made change.
            session = load_one(text, str(path))
            index = session.seat_index(seat)
            if index == CHANCE:
                raise GameError("chance holds no key")
            name = session.names[index]
            # A game started before seats had keys gets its key file here, one seat at a time.
            ring = self._keyring(match) if self.keys_path(match).exists() else Keyring()
            key = ring.issue(name)
            (message,) = [m for m in self.messages(match, session, keys={name: key},
                                                   rekeyed=True) if m.to == name]
            written = self.write([message]) if deliver else []
            try:
                self._save_keys(match, ring)
            except GameError:
                for item in written:
                    try:
                        os.unlink(item)
                    except OSError:
                        pass
                raise
            holder.append(message)
            return text

        with self.season._sending(deliver):
            storage.update(str(path), change)
        return holder

    # -- receiving ------------------------------------------------------------------------------

    def receive(self, raw: bytes, size: int | None = None,
                on_commit: Callable[..., None] | None = None,
                waiting: set[str] | None = None) -> Receipt:
        """Read and apply one incoming mail (``size``: its full size when ``raw`` was cut).

        ``waiting``: the master records whose last change is not kept yet (a journal entry
        waits for the next run); a mail to one of these games is not read now (Unkept), so
        that mails are applied in the order they came.

        ``on_commit(path, old, new, replies, reason=None)`` is called under the record's lock
        once the new text and the replies are known and before the record is replaced (a
        journal keeps them there, so a crash after it neither loses the replies nor applies
        the mail again); ``reason`` says why the mail's actions were refused when its
        contribution to the seed was kept all the same.

        Nothing is answered until the sender is known to hold a seat of the game the mail
        names: mail from anyone else, or naming no known game, is dropped unanswered with the
        same reason whichever it was (a forged From gets no reply, and an outsider cannot tell
        which match ids exist).
        """
        letter = Letter.parse(raw, self.max_bytes, size)
        try:
            sender = letter.sender()
        except MailDropped as exc:
            return Receipt(False, [], f"dropped: {exc}")
        stranger = Receipt(False, [], f"dropped: {sender} holds no seat in a game this mail "
                                      "names; no reply is sent")
        match = self._named_game(letter)
        if match is None:
            return (self._mail_without_game(letter, sender, on_commit)
                    or self._unnamed_reply(letter, sender) or stranger)
        path = self.master(match)
        seat: list[str] = []
        holder: list[tuple[list[Outgoing], str | None]] = []
        later: list[list] = []  # with no journal: the side files, once the record is kept

        def change(text: str) -> str:
            session = load_one(text, str(path))
            name = self._seat_of(session, sender)
            if name is None:
                raise _Stranger(sender)
            seat.append(name)
            if waiting and str(path) in waiting:
                raise _Unkept(GameError(f"{path}: the outcome of an earlier mail is not kept "
                                        "yet; this mail waits for the next run"))
            letter.check()
            lines = own_lines(letter.text())
            self._authenticate(match, name, lines)
            sides = Sides()
            new, replies, refused = self._apply(match, session, name, lines, sides)
            if refused is not None:
                replies.append(self._actions_refused(name, match, refused, letter.message_id()))
                refused = f"contribution recorded, actions not applied: {refused}"
            changed = sides.as_json()
            if on_commit is not None:
                extra: dict = {"sides": changed} if changed else {}
                if refused is not None:
                    extra["reason"] = refused
                try:
                    on_commit(path, text, new, replies, **extra)
                except Unkept:
                    raise
                except GameError as exc:
                    raise _Unkept(exc) from None
            elif changed:
                later.append(changed)
            holder.append((replies, refused))
            return new

        try:
            storage.update(str(path), change, storage.PRIVATE_FILE)
        except _Stranger:
            return stranger
        except _Unkept as exc:  # the journal could not be written: the referee's failure
            raise Unkept(str(exc.failure)) from None
        except Unkept:
            raise
        except GameError as exc:
            if holder:  # the outcome is known, but the record could not be replaced
                raise Unkept(str(exc)) from None
            reason = _short(str(exc))
            if not seat:  # the record could not be read: nobody known to answer
                return Receipt(False, [], f"dropped: {reason}")
            return Receipt(False, [self._rejection(seat[0], match, reason,
                                                   letter.message_id())], reason)
        for changed in later:
            sidefiles.apply(self.game_dir, changed)
        replies, refused = holder[0]
        if refused is not None:
            return Receipt(False, replies, refused)
        return Receipt(True, replies)

    def _apply(self, match: str, session: Session, name: str, lines: list[str], sides: Sides
               ) -> tuple[str, list[Outgoing], str | None]:
        """Apply an authenticated seat's mail to ``session``: its contribution to the seed
        first, then its commands or actions. Returns the new text, the replies, and why the
        rest was refused when the contribution is kept all the same.

        A contribution, once read from an authenticated mail, is kept whatever happens to the
        rest of the mail, and the draw it completes is made before anything else is read: a
        seat cannot send the same mail again with another contribution to see another deal.
        When this mail completed the draw, a refusal gives no reason, since the reason could
        name what was drawn.
        """
        if is_invited(session, name):  # accepting an invitation: read as a whole
            season = self.season._season_mail(match, session, name, lines, sides=sides)
            assert season is not None
            return season[0].text(), season[1], None
        seen = session.ply  # the position the sender saw
        joined = self.record_join(session, session.seat_index(name), lines)
        completed = joined and session.seed is not None
        if joined:
            self.season._moved(session)
        kept = session.text()
        refused: str | None = None
        try:
            season = self.season._season_mail(match, session, name, lines, joined=joined,
                                       sides=sides, seen=seen)
            if season is not None:  # commands
                return season[0].text(), season[1], None
            if not joined or has_guard(lines):
                self._play(session, name, lines)
                self.season._moved(session)
                self.season._respond(session, sides)  # the opponent's answer prepared in advance
        except Unkept:
            raise
        except GameError as exc:
            if not joined:
                raise
            refused = DRAWN_REFUSAL if completed else _short(str(exc))
            session = load_one(kept, session.file)
            sides.writes.clear()
        replies = (self.messages(match, session) if not session.is_waiting_for_seed()
                   else [self.join_reply(match, session, name)])
        return session.text(), replies, refused

    @staticmethod
    def _play(session: Session, name: str, lines: list[str]) -> None:
        instructions = find_instructions(lines, session.game.max_plies)
        if instructions.ply != session.ply + 1:
            raise MailRejected(
                f"'#ply {instructions.ply}' is stale: the next ply of this game is "
                f"{session.ply + 1} (an old or repeated mail is not applied)")
        first = session.ply
        try:
            session.play(instructions.actions, name, instructions.ply)
        except GameError as exc:  # the same hint as 'gametool move' gives
            raise with_hint(exc, session, typed_action(exc, instructions.actions, first), name,
                            shell=False) from None

    def _actions_refused(self, to: str, match: str, reason: str,
                         in_reply_to: str | None) -> Outgoing:
        return Outgoing(to, f"[gametool {match}] your actions were not applied",
                        "Your contribution to the seed is recorded and can no longer change; "
                        "the actions in your mail were not applied.\n\n"
                        f"Reason: {reason}\n", in_reply_to)

    def _mail_without_game(self, letter: Letter, sender: str,
                           on_commit: Callable[..., None] | None) -> Receipt | None:
        """A mail that names no game of this referee but holds commands ('#new', '#games',
        ...) under a player's own key (see 'referee allow'). None, so that nothing is
        answered, unless the sender is an allowed player and the subject names no game."""
        if not self.season.is_allowed(sender):
            return None
        try:
            if MATCH_TAG.search(letter.subject()) is not None:
                return None
            text = letter.text()
        except MailRejected:
            return None
        named = {m.group(1).lower() for m in MATCH_TAG.finditer(text)}
        if MATCH_TAG.search("\n".join(own_lines(text))) is not None or len(named) == 1:
            return None  # the text names a game, not one of this referee's
        sides = Sides()
        try:
            answered = self.season._account_mail(own_lines(text), sender, sides)
            if answered is None:
                return None
            replies, wanted = answered
            if wanted is not None:
                replies = self.season._start_by_mail(sender, wanted, replies, on_commit, sides)
        except Unkept:
            raise
        except GameError as exc:
            reason = _short(str(exc))
            return Receipt(False, [self._rejection(sender, None, reason, letter.message_id())],
                           reason)
        if on_commit is None or wanted is not None:  # no journal, or journaled with the game
            if on_commit is None:
                sidefiles.apply(self.game_dir, sides.as_json())
            return Receipt(True, replies)
        return Receipt(True, replies, sides=sides.as_json())

    def record_join(self, session: Session, seat: int, lines: list[str]) -> bool:
        """Record the seat's contribution to the joint seed if the mail holds one; refuse a
        seat's first mail without one. Returns whether a contribution was recorded."""
        value = find_join(lines)
        if session.contributions is None:
            if value is not None:
                raise MailRejected("this game's seed is not drawn jointly: leave out '#join'")
            return False
        if value is None:
            if session.contributions[seat] is None:
                raise MailRejected("your first mail must carry your contribution to the seed: "
                                   "the line that 'gametool join' prints ('#join' and 32 random "
                                   "hex digits), after your key line")
            return False
        if session.contributions[seat] is not None:
            raise MailRejected("your contribution to the seed has already arrived; leave out "
                               "'#join' from now on")
        session.contribute(session.names[seat], value)
        return True

    def join_reply(self, match: str, session: Session, name: str) -> Outgoing:
        waiting = ", ".join(session.waiting_for())
        return Outgoing(name, f"[gametool {match}] {session.game.name}, contribution received",
                        f"Game {match}: your contribution to the seed is recorded.\n\n"
                        f"Chance waits for the contribution of: {waiting}. Every seat gets "
                        "its view as soon as the last one arrives.\n")

    @staticmethod
    def _seat_of(session: Session, sender: str) -> str | None:
        """The registered address of the sender's seat; None when the sender holds none."""
        for name in session.names:
            if name.lower() == sender:
                return name
        return None

    def _authenticate(self, match: str, name: str, lines: list[str]) -> None:
        """Refuse the mail unless its key line holds seat ``name``'s current key."""
        if not self._keyring(match).matches(name, find_key(lines)):
            raise MailRejected(f"the key is not {name}'s key: copy the '#key' line from your "
                               "opening message exactly, or ask the referee for a new key")

    def _save_keys(self, match: str, ring: Keyring, fresh: bool = False,
                   made: list[Path] | None = None) -> None:
        """Replace the key file (``fresh``: make it, never replace one), readable by the
        referee only; a file it makes is added to ``made``."""
        path = self.keys_path(match)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, storage.PRIVATE_FILE))
            if made is not None:
                made.append(path)
        except FileExistsError:
            if fresh:
                raise GameError(f"{path}: already exists") from None
            # otherwise replaced below
        except OSError as exc:
            raise GameError(f"{path}: cannot create: {exc.strerror}") from None
        storage.write_atomic(str(path), ring.text(), storage.PRIVATE_FILE)

    def _keyring(self, match: str) -> Keyring:
        path = self.keys_path(match)
        try:
            text = storage.read(str(path))
        except GameError:
            raise MailRejected(f"game {match} has no seat keys; the referee must give each "
                               "seat one with 'gametool referee rekey'") from None
        return Keyring.from_text(text, path.name)

    def _known(self, match: str) -> Path:
        if not MATCH_ID.fullmatch(match) or not self.master(match).exists():
            raise MailRejected(f"unknown game {match[:70]!r}")
        return self.master(match)

    def _named_game(self, letter: Letter) -> str | None:
        """The match id the mail names ([gametool MATCH-ID] in the subject, else in the
        player's own text, else in a quoted text that names no other game), when it is a game
        of this referee; None otherwise (no game, an unknown one, or a head
        that cannot be read: the sender is not yet known to hold a seat, so nothing is said)."""
        try:
            found = MATCH_TAG.search(letter.subject())
            if found is None:  # the player's own text first (a reply to a digest names one)
                text = letter.text()
                own = "\n".join(own_lines(text))
                if len({m.group(1).lower() for m in MATCH_TAG.finditer(own)}) > 1:
                    return None  # two games in one's own text: ambiguous, never a guess
                found = MATCH_TAG.search(own)
                if found is None:  # a quoted mail that names one game, never several
                    named = {m.group(1).lower() for m in MATCH_TAG.finditer(text)}
                    found = MATCH_TAG.search(text) if len(named) == 1 else None
        except MailRejected:
            return None
        if found is None:
            return None
        match = found.group(1).lower()
        if not MATCH_ID.fullmatch(match) or not self.master(match).is_file():
            return None
        return match

    def _unnamed_reply(self, letter: Letter, sender: str) -> Receipt | None:
        """A reply that quotes a mail naming several games (a digest) and names none in the
        player's own text: refused with the reason, when the sender holds a seat in one of
        them (to that seat's address); None otherwise, and nothing is answered."""
        try:
            text = letter.text()
        except MailRejected:
            return None
        own = list(dict.fromkeys(m.group(1).lower()
                                 for m in MATCH_TAG.finditer("\n".join(own_lines(text)))))
        named = own if len(own) > 1 else list(dict.fromkeys(
            m.group(1).lower() for m in MATCH_TAG.finditer(text)))
        if len(named) < 2 or len(own) == 1:
            return None
        for match in named[:50]:
            if not MATCH_ID.fullmatch(match) or not self.master(match).is_file():
                continue
            try:
                name = self._seat_of(load_one(storage.read(str(self.master(match)))), sender)
            except GameError:
                continue
            if name is not None:
                where = ("your own text names several games" if own
                         else "your own text names no game, and the mail you answer names "
                              "several")
                reason = (f"{where}: write the tag of the one game you answer ('gametool' and "
                          "its id in square brackets, as the digest shows it) on a line of its "
                          "own above your key line")
                return Receipt(False, [self._rejection(name, None, reason, letter.message_id())],
                               reason)
        return None

    def _rejection(self, to: str, match: str | None, reason: str,
                   in_reply_to: str | None) -> Outgoing:
        subject = (f"[gametool {match}] your mail was not applied" if match
                   else "gametool: your mail was not applied")
        return Outgoing(to, subject, "Your message was not applied; nothing has changed.\n\n"
                                     f"Reason: {reason}\n", in_reply_to, refusal=True)

    def bounded(self, messages: list[Outgoing]) -> list[Outgoing]:
        """The messages with at most one refusal an hour to each address: the others are
        counted (``self.held``), and the next refusal sent says how many there were. Called
        under the journal's lock (the counts are kept in it)."""
        if not any(m.refusal for m in messages):
            return messages
        path = self.outbox / ".journal" / REFUSALS
        try:
            state = json.loads(storage.read(str(path))) if path.exists() else {}
        except (GameError, ValueError):
            state = {}
        if not isinstance(state, dict):
            state = {}
        moment = self.now()
        out = []
        for message in messages:
            if not message.refusal:
                out.append(message)
                continue
            seat = message.to.lower()
            last, held = _refused(state.get(seat))
            if last is not None and last <= moment < last + REFUSAL_SPACING:
                state[seat] = [clock.write_time(last), held + 1]
                self.held += 1
                continue
            if held:
                message = Outgoing(message.to, message.subject, message.body
                                   + f"\n{held} more mail{'s' * (held != 1)} of yours "
                                   f"{'were' if held != 1 else 'was'} refused since "
                                   f"{clock.write_time(last or moment)} (UTC) without a reply: "
                                   "the referee answers at most one refused mail an hour.\n",
                                   message.in_reply_to, refusal=True)
            state[seat] = [clock.write_time(moment), 0]
            out.append(message)
        storage.private_folder(path.parent)
        storage.write_atomic(str(path), json.dumps(state), storage.PRIVATE_FILE)
        return out

    # -- writing ----------------------------------------------------------------------------------

    def messages(self, match: str, session: Session, opening: bool = False,
                 keys: dict[str, str] | None = None, rekeyed: bool = False) -> list[Outgoing]:
        """One message per seat: its view, and its legal actions when it is to move.

        ``keys`` (seat name to key) puts each seat's key in that seat's message only. No line
        of any message reads as a key line or a guard line, so a reply that sends a message
        back unchanged is refused rather than applied.
        """
        out = []
        over = session.outcome() is not None  # by the rules, or ended off the board
        for seat, name in enumerate(session.names):
            parts = [f"Game {match}: {session.game.name}, seats {', '.join(session.names)}.",
                     f"You play {name}."]
            key = (keys or {}).get(name)
            if key is not None:
                parts.append(_key_text(key, rekeyed))
            if opening and session.secret is not None and session.contributions is not None:
                parts.append(_join_text(session.secret))
            elif opening and session.secret is not None:
                parts.append(f"SeedHash: {seed_hash(session.secret)}\n(the SHA-256 of the seed; "
                             "the master record published at the end must match it)")
            if session.is_waiting_for_seed():
                parts.append("Chance waits for the contribution of: "
                             + ", ".join(session.waiting_for()) + ".")
            parts.append(render.show_text(session, as_seat=name).rstrip())
            if opening:
                parts.append(mail_commands.OPENING)
            turn = not over and session.to_move() == seat and not invited(session)
            if turn:
                game, state = session.game, session.state
                legal = [game.format_action(state, a) for a in game.legal_actions(state)]
                parts.append(_prompt(session.ply + 1) + "\n\nLegal actions:\n"
                             + "\n".join(legal))
                deadline = self.season._deadline_text(session)
                if deadline is not None:
                    parts.append(deadline)
            if over:
                parts.append("The game is over. The master record, with its seed:\n\n"
                             + session.text())
            out.append(Outgoing(name, f"[gametool {match}] {session.game.name}, ply "
                                      f"{session.ply}", "\n\n".join(parts) + "\n",
                                turn=turn and not opening and key is None))
        return out

    def render(self, item: Outgoing) -> str:
        """One message as RFC 5322 text, from the referee's address."""
        mail = EmailMessage()
        mail["From"] = self.address
        mail["To"] = item.to
        mail["Subject"] = item.subject
        mail["Date"] = formatdate(localtime=False)
        mail["Message-ID"] = make_msgid(domain="gametool.invalid")
        if item.in_reply_to:
            mail["In-Reply-To"] = item.in_reply_to
        mail.set_content(item.body)
        return mail.as_string()

    def write(self, messages: list[Outgoing]) -> list[Path]:
        """Write each message as an .eml file in the outbox; return the paths."""
        return self.write_files(self.render_files(messages))

    def write_files(self, files: list[tuple[str, str]]) -> list[Path]:
        """Write rendered messages (name, text) into the outbox, mode 0600 in a folder of mode
        0700 (they hold keys and hands); the same again is harmless."""
        paths = [self._outbox_file(name) for name, _text in files]
        storage.private_folder(self.outbox)
        for path, (_name, text) in zip(paths, files, strict=True):
            if (self.outbox / "sent" / path.name).exists():
                continue  # written by a run that was cut short, and sent since
            storage.write_atomic(str(path), text, storage.PRIVATE_FILE)
        return paths

    def _outbox_file(self, name: str) -> Path:
        """The path of the outbox file ``name``, which must be a plain .eml name (a journal
        entry names its files: none may lead out of the outbox)."""
        if not OUTBOX_NAME.fullmatch(name):
            raise GameError(f"{str(name)[:80]!r} is not the name of an outbox message")
        return self.outbox / name

    def render_files(self, messages: list[Outgoing]) -> list[tuple[str, str]]:
        """Each message as an .eml file name and text. Names sort in the order written. A
        mail whose only news is a move waiting for a player who takes the daily digest is not
        written: the digest tells it (``gametool.referee.daily_mail``)."""
        return [(f"{time.time_ns():020d}-{os.getpid()}-{secrets.token_hex(4)}.eml",
                 self.render(item)) for item in digests.keep(self.game_dir, messages)]


def _playable_by_mail(session: Session) -> None:
    """Refuse a game whose first seat to move could send no action by mail (with these options
    its actions come from elsewhere, such as a private file): nobody could play it."""
    seat = session.to_move()
    if session.outcome() is not None or seat is None or seat == CHANCE:
        return
    if not session.game.legal_actions(session.state):
        raise GameError(f"{session.game.name} with these options cannot be played by mail: "
                        f"{session.names[seat]}, to move first, could send no action (they "
                        "come from elsewhere, such as a private file)")


def _refused(value: object) -> tuple[datetime | None, int]:
    """The last refusal sent to a seat and the count held since, as kept in the journal."""
    if (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], int)):
        try:
            return clock.parse_time(value[0]), max(0, value[1])
        except GameError:
            pass
    return None, 0


def _draws_chance(cls: type) -> bool:
    """Whether a game draws anything at random (a referee's reports are chance that follows
    from the play, with one outcome: its ``chance`` reads "none (...)")."""
    chance = str(getattr(cls, "chance", "") or "")
    return bool(chance) and not chance.lower().startswith("none")


def _join_text(secret: str) -> str:
    # No line starts with '#': sending the message back unchanged joins nobody.
    return (f"SeedHash: {seed_hash(secret)}\n"
            "(the SHA-256 of the referee's secret). Nobody chooses the seed: it is the SHA-256 "
            "of\nthat secret and of every seat's own random contribution, in seat order, and "
            "the\nmaster record published at the end holds every part. Send yours now: reply "
            "with\nyour key line and the line that 'gametool join' prints (the word '#join' "
            "and 32\nrandom hex digits, which you may also make up yourself).")


def _key_text(key: str, rekeyed: bool) -> str:
    first = ("Your new seat key (the old one no longer works):" if rekeyed
             else "Your seat key:")
    return (f"{first} {key}\n"
            "Keep it to yourself. Every reply must hold it on a line of its own, written after\n"
            "'#key' and a space, above the '#ply' line. Whoever holds the key can move for you;\n"
            "if you lose it, ask the referee for a new one.")


def _prompt(ply: int) -> str:
    # Every line starts with a word, never with '#', so sending it back applies nothing.
    return (f"You are to move at ply {ply}. Reply in plain text with, each on a line of its "
            f"own:\nfirst '#key' followed by your key, then '#ply {ply}', then your actions, "
            "one per line\n(each as written in the list below).")


def _short(reason: str) -> str:
    from gametool.views.render import without_decisions

    reason = without_decisions(reason)
    return reason if len(reason) <= MAX_REASON else reason[:MAX_REASON] + " ..."
