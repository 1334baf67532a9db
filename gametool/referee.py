"""A play-by-email referee: reads one mail message, applies its actions, writes the replies.

Each game is a master record ``GAME_DIR/MATCH.gtn`` whose seats are the players' email
addresses; its match id (``colors-1a2b3c4d``) travels in the subject as ``[gametool MATCH]``.
A player's mail carries a guard line ``#ply N`` followed by one action per line; quoted reply
text, signatures and everything before the guard are ignored. The referee applies the actions as
the sender's seat with ``expect_ply=N`` under the record's lock, then writes one message per seat
into the outbox: that seat's view, and its legal actions when it is to move. A rejected mail
changes nothing and gets one reply, to its sender only, saying what was wrong. When the game ends
every seat receives the master record, seed included, to check against the SeedHash it was sent.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path

from gametool import render, storage
from gametool.chance import new_seed, seed_hash
from gametool.engine import CHANCE
from gametool.errors import GameError
from gametool.record import Session, load_one

MATCH_TAG = re.compile(r"\[gametool\s+([a-z0-9][a-z0-9-]*)\]", re.IGNORECASE)
GUARD = re.compile(r"^#\s*ply\s+(\d+)\s*$", re.IGNORECASE)
ATTRIBUTION = re.compile(r"^(on\s.+wrote:|-+\s*original message\s*-+)$", re.IGNORECASE)


@dataclass
class Outgoing:
    """One message for the outbox."""

    to: str
    subject: str
    body: str
    in_reply_to: str | None = None


class MailRejected(GameError):
    """A mail that cannot be applied: the reason goes back to its sender."""


@dataclass
class Instructions:
    ply: int
    actions: list[str]


def extract(body: str) -> Instructions:
    """The ``#ply N`` guard and the action lines below it, ignoring quotes and signatures."""
    lines = body.replace("\r\n", "\n").split("\n")
    guard: int | None = None
    actions: list[str] = []
    for raw in lines:
        line = raw.strip()
        if raw.rstrip() in ("--", "-- ") or ATTRIBUTION.match(line):
            break  # a signature or the attribution line of a quoted reply: the rest is not ours
        if line.startswith(">"):
            continue
        if guard is None:
            match = GUARD.match(line)
            if match:
                guard = int(match.group(1))
            continue
        if not line:
            if actions:
                break
            continue
        actions.append(line)
    if guard is None:
        raise MailRejected("no '#ply N' line: write '#ply N' (N as in the last message), "
                           "then one action per line")
    if not actions:
        raise MailRejected(f"no action after '#ply {guard}': write one action per line")
    return Instructions(guard, actions)


def _plain_body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    if part is None:
        if message.get_body(preferencelist=("html",)) is not None:
            raise MailRejected("the message has no plain-text part (HTML-only mail is not "
                               "read): send plain text")
        raise MailRejected("the message has no body")
    try:
        text = part.get_content()
    except (LookupError, UnicodeError):
        raise MailRejected("the message body cannot be decoded") from None
    if not text.strip():
        raise MailRejected("the message body is empty")
    return text


class Referee:
    """The referee's folders: the master records and the outbox."""

    def __init__(self, game_dir: str | Path, outbox: str | Path,
                 address: str = "referee@localhost") -> None:
        self.game_dir = Path(game_dir)
        self.outbox = Path(outbox)
        self.address = address

    # -- starting ---------------------------------------------------------------------------

    def new(self, game_id: str, addresses: list[str], options: dict[str, str] | None = None,
            seed: str | None = None) -> tuple[str, list[Outgoing]]:
        """Start a game among ``addresses``; return its match id and the opening messages."""
        names = [parseaddr(a)[1].lower() or a for a in addresses]
        session = Session.start(game_id, names, options, seed or new_seed())
        match = f"{session.game.id}-{secrets.token_hex(4)}"
        self.game_dir.mkdir(parents=True, exist_ok=True)
        storage.create(str(self.game_dir / f"{match}.gtn"), session.text())
        return match, self.messages(match, session, opening=True)

    # -- receiving ------------------------------------------------------------------------------

    def receive(self, raw: bytes) -> tuple[bool, list[Outgoing]]:
        """Apply one incoming mail. Returns (applied, messages to send)."""
        message = BytesParser(policy=policy.default).parsebytes(raw)
        sender = parseaddr(str(message.get("From", "")))[1].lower()
        subject = str(message.get("Subject", ""))
        msgid = message.get("Message-ID")
        if not sender:
            return False, []  # nobody to answer
        try:
            match = self._match_id(subject, message)
            path = self.game_dir / f"{match}.gtn"
            session_holder: list[Session] = []

            def change(text: str) -> str:
                session = load_one(text, str(path))
                try:
                    seat = session.seat_index(sender)
                except GameError:
                    raise MailRejected(f"{sender} is not a player of {match}") from None
                if seat == CHANCE:
                    raise MailRejected(f"{sender} is not a player of {match}")
                instructions = extract(_plain_body(message))
                session.play(instructions.actions, sender, instructions.ply)
                session_holder.append(session)
                return session.text()

            storage.update(str(path), change)
        except GameError as exc:
            reply = Outgoing(sender, _reply_subject(subject),
                             f"Your message was not applied; nothing has changed.\n\n"
                             f"Reason: {exc}\n", msgid)
            return False, [reply]
        return True, self.messages(match, session_holder[0])

    def _match_id(self, subject: str, message: EmailMessage) -> str:
        found = MATCH_TAG.search(subject)
        if found is None:
            try:
                found = MATCH_TAG.search(_plain_body(message))
            except MailRejected:
                found = None
        if found is None:
            raise MailRejected("no game named: the subject must hold [gametool MATCH-ID]")
        match = found.group(1).lower()
        if not (self.game_dir / f"{match}.gtn").exists():
            raise MailRejected(f"unknown game {match!r}")
        return match

    # -- writing ----------------------------------------------------------------------------------

    def messages(self, match: str, session: Session, opening: bool = False) -> list[Outgoing]:
        """One message per seat: its view, and its legal actions when it is to move."""
        out = []
        over = session.game.is_over(session.state)
        for seat, name in enumerate(session.names):
            parts = [f"Game {match}: {session.game.name}, seats {', '.join(session.names)}.",
                     f"You play {name}."]
            if opening and session.seed is not None:
                parts.append(f"SeedHash: {seed_hash(session.seed)}\n(the SHA-256 of the seed; "
                             "the master record published at the end must match it)")
            parts.append(render.show_text(session, as_seat=name).rstrip())
            if not over and session.to_move() == seat:
                game, state = session.game, session.state
                legal = [game.format_action(state, a) for a in game.legal_actions(state)]
                parts.append(f"You are to move. Reply with the guard line and your action:\n\n"
                             f"#ply {session.ply + 1}\n{legal[0] if legal else ''}\n\n"
                             "Legal actions:\n" + "\n".join(legal))
            if over:
                parts.append("The game is over. The master record, with its seed:\n\n"
                             + session.text())
            out.append(Outgoing(name, f"[gametool {match}] {session.game.name}, ply "
                                      f"{session.ply}", "\n\n".join(parts) + "\n"))
        return out

    def write(self, messages: list[Outgoing]) -> list[Path]:
        """Write each message as an .eml file in the outbox; return the paths."""
        self.outbox.mkdir(parents=True, exist_ok=True)
        paths = []
        for item in messages:
            mail = EmailMessage()
            mail["From"] = self.address
            mail["To"] = item.to
            mail["Subject"] = item.subject
            mail["Date"] = formatdate(localtime=False)
            mail["Message-ID"] = make_msgid(domain="gametool.invalid")
            if item.in_reply_to:
                mail["In-Reply-To"] = item.in_reply_to
            mail.set_content(item.body)
            name = f"{os.getpid()}-{secrets.token_hex(6)}.eml"
            path = self.outbox / name
            storage.write_atomic(str(path), mail.as_string())
            paths.append(path)
        return paths


def _reply_subject(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}".strip()
