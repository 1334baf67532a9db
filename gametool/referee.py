"""A play-by-email referee: reads one mail message, applies its actions, writes the replies.

Each game is a master record ``GAME_DIR/MATCH.gtn`` whose seats are the players' email
addresses; its match id (``colors-1a2b3c4d``) travels in the subject as ``[gametool MATCH]``.
Beside it, ``MATCH.keys`` holds a salted hash of each seat's secret key; the key itself is sent
once, in that seat's opening mail (or by ``rekey``). A player's mail must come from the seat's
registered address (one ``From`` header, one address) and carry, in the player's own text,
``#key KEY``, then the guard ``#ply N``, then one action per line (``gametool.mail.body``). The
referee applies the actions as that seat with ``expect_ply=N`` under the record's lock, then
writes one message per seat into the outbox: that seat's view, and its legal actions when it is
to move. A rejected mail changes nothing and gets one reply, to the seat's registered address
(or to a sender who holds no seat), saying what was wrong; a mail with no single readable sender
is dropped with its reason. When the game ends every seat receives the master record, seed
included, to check against the SeedHash it was sent.

Reading mail (``gametool.mail``) is apart from how it arrives and leaves: ``receive`` takes the
raw bytes and returns the messages to send; ``write`` puts them in the outbox folder.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import NamedTuple

from gametool import render, storage
from gametool.chance import new_seed, seed_hash
from gametool.engine import CHANCE
from gametool.errors import GameError
from gametool.mail import MailDropped, MailRejected
from gametool.mail.body import find_instructions, find_key, own_lines
from gametool.mail.keys import Keyring
from gametool.mail.message import DEFAULT_MAX_BYTES, Letter, one_address
from gametool.record import Session, load_one

MATCH_TAG = re.compile(r"\[gametool\s+([^\]\s]*)\s*\]", re.IGNORECASE)
MATCH_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
MAX_REASON = 1000


@dataclass
class Outgoing:
    """One message for the outbox."""

    to: str
    subject: str
    body: str
    in_reply_to: str | None = None


class Receipt(NamedTuple):
    """What became of one incoming mail."""

    applied: bool
    messages: list[Outgoing]
    reason: str | None = None  # why it was not applied (rejected, or dropped when no messages)


class Referee:
    """The referee's folders: the master records with their key files, and the outbox."""

    def __init__(self, game_dir: str | Path, outbox: str | Path,
                 address: str = "referee@localhost", max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.game_dir = Path(game_dir)
        self.outbox = Path(outbox)
        self.address = address
        self.max_bytes = max_bytes

    def master(self, match: str) -> Path:
        return self.game_dir / f"{match}.gtn"

    def keys_path(self, match: str) -> Path:
        return self.game_dir / f"{match}.keys"

    # -- starting ---------------------------------------------------------------------------

    def new(self, game_id: str, addresses: list[str], options: dict[str, str] | None = None,
            seed: str | None = None) -> tuple[str, list[Outgoing]]:
        """Start a game among ``addresses``; return its match id and the opening messages.

        Every seat gets a fresh key, named only in its own opening message.
        """
        names = []
        for given in addresses:
            try:
                names.append(one_address(given))
            except MailDropped:
                raise GameError(f"{given!r} is not one email address") from None
        session = Session.start(game_id, names, options, seed or new_seed())
        match = f"{session.game.id}-{secrets.token_hex(4)}"
        ring = Keyring()
        keys = {name: ring.issue(name) for name in names}
        self.game_dir.mkdir(parents=True, exist_ok=True)
        self._save_keys(match, ring, fresh=True)
        storage.create(str(self.master(match)), session.text())
        return match, self.messages(match, session, opening=True, keys=keys)

    def rekey(self, match: str, seat: str) -> list[Outgoing]:
        """Issue ``seat`` a new key (the old one stops working at once); return its message."""
        path = self._known(match)
        holder: list[tuple[Session, str, str]] = []

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
            self._save_keys(match, ring)
            holder.append((session, name, key))
            return text

        storage.update(str(path), change)
        session, name, key = holder[0]
        (message,) = [m for m in self.messages(match, session, keys={name: key},
                                               rekeyed=True) if m.to == name]
        return [message]

    # -- receiving ------------------------------------------------------------------------------

    def receive(self, raw: bytes, size: int | None = None) -> Receipt:
        """Read and apply one incoming mail (``size``: its full size when ``raw`` was cut)."""
        letter = Letter.parse(raw, self.max_bytes, size)
        try:
            sender = letter.sender()
        except MailDropped as exc:
            return Receipt(False, [], f"dropped: {exc}")
        answer = [sender]
        match: str | None = None
        holder: list[Session] = []
        try:
            letter.check()
            match = found = self._match_id(letter)
            path = self.master(found)

            def change(text: str) -> str:
                session = load_one(text, str(path))
                name = answer[0] = self._seat(session, sender, found)
                lines = own_lines(letter.text())
                self._authenticate(found, name, lines)
                instructions = find_instructions(lines, session.game.max_plies)
                if instructions.ply != session.ply + 1:
                    raise MailRejected(
                        f"'#ply {instructions.ply}' is stale: the next ply of this game is "
                        f"{session.ply + 1} (an old or repeated mail is not applied)")
                session.play(instructions.actions, name, instructions.ply)
                holder.append(session)
                return session.text()

            storage.update(str(path), change)
        except GameError as exc:
            reason = _short(str(exc))
            return Receipt(False, [self._rejection(answer[0], match, reason,
                                                   letter.message_id())], reason)
        return Receipt(True, self.messages(match, holder[0]))

    def _seat(self, session: Session, sender: str, match: str) -> str:
        """The registered address of the sender's seat."""
        for name in session.names:
            if name.lower() == sender:
                return name
        raise MailRejected(f"{sender} is not a player of {match}")

    def _authenticate(self, match: str, name: str, lines: list[str]) -> None:
        """Refuse the mail unless its key line holds seat ``name``'s current key."""
        if not self._keyring(match).matches(name, find_key(lines)):
            raise MailRejected(f"the key is not {name}'s key: copy the '#key' line from your "
                               "opening message exactly, or ask the referee for a new key")

    def _save_keys(self, match: str, ring: Keyring, fresh: bool = False) -> None:
        """Replace the key file (``fresh``: make it, never replace one); a new file is made
        readable by the referee only."""
        path = self.keys_path(match)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            if fresh:
                raise GameError(f"{path}: already exists") from None
            # otherwise replaced below, keeping its mode
        except OSError as exc:
            raise GameError(f"{path}: cannot create: {exc.strerror}") from None
        storage.write_atomic(str(path), ring.text())

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

    def _match_id(self, letter: Letter) -> str:
        found = MATCH_TAG.search(letter.subject())
        if found is None:
            try:
                found = MATCH_TAG.search(letter.text())
            except MailRejected:
                found = None
        if found is None:
            raise MailRejected("no game named: the subject must hold [gametool MATCH-ID]")
        match = found.group(1).lower()
        self._known(match)
        return match

    def _rejection(self, to: str, match: str | None, reason: str,
                   in_reply_to: str | None) -> Outgoing:
        subject = (f"[gametool {match}] your mail was not applied" if match
                   else "gametool: your mail was not applied")
        return Outgoing(to, subject, "Your message was not applied; nothing has changed.\n\n"
                                     f"Reason: {reason}\n", in_reply_to)

    # -- writing ----------------------------------------------------------------------------------

    def messages(self, match: str, session: Session, opening: bool = False,
                 keys: dict[str, str] | None = None, rekeyed: bool = False) -> list[Outgoing]:
        """One message per seat: its view, and its legal actions when it is to move.

        ``keys`` (seat name to key) puts each seat's key in that seat's message only. No line
        of any message reads as a key line or a guard line, so a reply that sends a message
        back unchanged is refused rather than applied.
        """
        out = []
        over = session.game.is_over(session.state)
        for seat, name in enumerate(session.names):
            parts = [f"Game {match}: {session.game.name}, seats {', '.join(session.names)}.",
                     f"You play {name}."]
            key = (keys or {}).get(name)
            if key is not None:
                parts.append(_key_text(key, rekeyed))
            if opening and session.seed is not None:
                parts.append(f"SeedHash: {seed_hash(session.seed)}\n(the SHA-256 of the seed; "
                             "the master record published at the end must match it)")
            parts.append(render.show_text(session, as_seat=name).rstrip())
            if not over and session.to_move() == seat:
                game, state = session.game, session.state
                legal = [game.format_action(state, a) for a in game.legal_actions(state)]
                parts.append(_prompt(session.ply + 1) + "\n\nLegal actions:\n"
                             + "\n".join(legal))
            if over:
                parts.append("The game is over. The master record, with its seed:\n\n"
                             + session.text())
            out.append(Outgoing(name, f"[gametool {match}] {session.game.name}, ply "
                                      f"{session.ply}", "\n\n".join(parts) + "\n"))
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
        self.outbox.mkdir(parents=True, exist_ok=True)
        paths = []
        for item in messages:
            path = self.outbox / f"{os.getpid()}-{secrets.token_hex(6)}.eml"
            storage.write_atomic(str(path), self.render(item))
            paths.append(path)
        return paths


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
    return reason if len(reason) <= MAX_REASON else reason[:MAX_REASON] + " ..."
