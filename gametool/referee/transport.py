"""Mail in and out for the referee: a Maildir or an mbox in, sendmail or SMTP out.

Reading. A message is known by the SHA-256 of its bytes. Under the master record's lock, before
the record is replaced, the outcome of the message (the record's text before and after, and
every reply as a finished .eml file) is written to a journal entry,
``OUTBOX/.journal/DIGEST.json`` (``gametool.referee.mail.journal``). Then the record is
replaced, the replies are written to the outbox (only then: a reply never tells of an outcome
the record does not hold), the message is filed (Maildir: renamed from ``new/`` to ``cur/`` with
the flag ``S``; mbox: removed once the whole run is done, the messages done meanwhile listed in
``OUTBOX/.journal/mbox-done.list``, one line appended each; each message is read no further than
``--max-bytes``) and the entry is deleted. A referee killed anywhere, or that could not replace
the record, finds the entry at its next run and finishes it: the record's new text if it still
holds the old one, then the replies. A message is so applied once, and its replies written once,
whatever the moment of the crash. One run at a time holds the journal's lock (``tick`` too). An
entry is only believed when it has the shape written here: every reply it holds is a plain
``.eml`` name (never a path out of the outbox), and its record a master record of the game
folder.

Sending. One run at a time (``OUTBOX/.journal/send.lock``): each .eml file of the outbox,
oldest first, goes to ``sendmail`` or an SMTP server and is then moved to ``OUTBOX/sent/``; a
second run waits for the first, then finds sent what it sent. A message handed over is noted in
``OUTBOX/.journal/handed.list`` before it is moved, so that one that cannot be moved is not sent
again. A message that cannot be sent stays and is tried again by the
next run. Only a crash between the hand-over and that note sends it once more, with the same
Message-ID (at least once, never lost).
"""

from __future__ import annotations

import mailbox
import netrc
import os
import re
import shlex
import smtplib
import ssl
import subprocess
import time
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path
from typing import BinaryIO, Protocol

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.referee.mail.journal import SEND_LOCK, Journal, digest, finish, is_done
from gametool.referee.mail.outgoing import Outgoing, Unkept
from gametool.referee.referee import Receipt, Referee

__all__ = ["Journal", "Outcome", "apply_once", "digest", "finish_orphans", "read_maildir",
           "read_mbox", "send_outbox"]

DEFAULT_SENDMAIL = "sendmail -t -oi"
LOOPBACK = ("127.0.0.1", "::1", "localhost")


class TransportError(GameError):
    """Mail could not be read or sent; what could not be sent stays in the outbox."""


# -- the journal -------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What became of one incoming message in this run."""

    applied: bool
    reason: str | None = None
    recovered: bool = False
    held: bool = False  # refused, and no reply written (one refusal an hour to a seat)


MARKER_DAYS = 7
"""How long the marker of a mail done is kept: a mail server retries a piped mail for days
when the run that applied it was killed before its exit status told it so."""


def finish_orphans(ref: Referee, journal: Journal, waiting: set[str]) -> list[str]:
    """Finish the entries of messages that are not being read now (a piped message whose run
    was killed, or could not keep its outcome) and of a tick cut short: the outcome is brought
    into place and its replies written; the entry becomes the marker of a mail done, so that
    the mail server's retry of the same mail is answered by nothing new (never "not applied").
    Markers older than :data:`MARKER_DAYS` are forgotten. Entries of messages still
    ``waiting`` to be read are left to ``apply_once``. An entry that cannot be finished now
    stays (its game's mail waits for it); the lines returned say why."""
    errors = []
    horizon = time.time() - MARKER_DAYS * 86400
    for key in journal.keys():
        if len(key) != 64 or key in waiting:
            continue
        entry = journal.read(key)
        if entry is not None and is_done(entry):
            if journal.age(key) < horizon:
                journal.remove(key)
            continue
        try:
            if entry is not None and finish(ref.game_dir, entry):
                ref.write_files([(a, b) for a, b in entry["files"]])
                journal.mark_done(key, entry)
                continue
        except Unkept as exc:
            errors.append(str(exc))
            continue
        journal.remove(key)
    return errors


def _unkept_records(journal: Journal, key: str) -> set[str]:
    """The records whose change an entry other than ``key`` still waits to keep."""
    out = set()
    for other in journal.keys():
        if len(other) != 64 or other == key:
            continue
        entry = journal.read(other)
        if entry is not None and not is_done(entry) and entry.get("record"):
            out.add(str(entry["record"]))
    return out


def apply_once(ref: Referee, journal: Journal, raw: bytes, size: int | None = None) -> Outcome:
    """Apply one message exactly once, writing its replies to the outbox (see
    ``gametool.referee.mail.journal``); the caller files the message and then calls
    ``journal.remove``.

    The replies are written only once the record holds the outcome they tell of. When it
    cannot be kept (Unkept: a folder that refuses a file, a full disk), nothing is written
    and the entry stays: the next run brings the same outcome into place, then writes them."""
    key = digest(raw)
    entry = journal.read(key)
    if entry is not None:
        if is_done(entry):
            return Outcome(bool(entry.get("applied")), entry.get("reason"), recovered=True)
        if finish(ref.game_dir, entry):
            ref.write_files([(a, b) for a, b in entry["files"]])
            journal.mark_done(key, entry)
            return Outcome(bool(entry.get("applied")), entry.get("reason"), recovered=True)
        journal.remove(key)  # the record was never replaced: apply the message afresh

    def on_commit(path: Path, old: str, new: str, replies: list[Outgoing],
                  reason: str | None = None, sides: list | None = None) -> None:
        journal.write(key, {"record": str(path), "before": digest(old.encode()),
                            "after": digest(new.encode()), "text": new,
                            "applied": reason is None, "reason": reason,
                            "files": ref.render_files(replies), "sides": sides or []})

    receipt: Receipt = ref.receive(raw, size, on_commit, _unkept_records(journal, key))
    held = ref.held
    entry = journal.read(key)
    if entry is None:  # nothing was committed: a rejection, a mail dropped unanswered, or a
        # request answered that changes no record ('#games' with no game named)
        entry = {"record": None, "applied": receipt.applied, "reason": receipt.reason,
                 "files": ref.render_files(ref.bounded(receipt.messages)),
                 "sides": receipt.sides or []}
        journal.write(key, entry)
        finish(ref.game_dir, entry)  # the side files such a mail changes ('#leave', '#digest')
    elif not finish(ref.game_dir, entry):  # never so under the locks, but the word is kept
        raise Unkept(f"{entry['record']}: the record does not hold the outcome of the mail")
    ref.write_files([(a, b) for a, b in entry["files"]])
    journal.mark_done(key, entry)
    return Outcome(receipt.applied, receipt.reason, held=ref.held > held)


# -- mailboxes -------------------------------------------------------------------------------


@dataclass
class RunReport:
    """The counts of one inbox run, for the line the CLI prints."""

    read: int = 0
    applied: int = 0
    rejected: list[str] = field(default_factory=list)
    held: int = 0
    errors: list[str] = field(default_factory=list)  # the referee's own failures (Maildir)


def read_maildir(ref: Referee, folder: str | Path, max_bytes: int) -> RunReport:
    """Apply every message in the Maildir's ``new/`` once, oldest first, and file each in
    ``cur/`` with the flag S (seen). A message whose outcome cannot be kept stays in ``new/``
    (its line in ``errors``), and so do the later ones to the same game; the others are
    applied."""
    try:
        return _read_maildir(ref, Path(folder), max_bytes)
    except OSError as exc:
        raise TransportError(f"{exc.filename or folder}: {exc.strerror or exc}") from None


def _read_maildir(ref: Referee, root: Path, max_bytes: int) -> RunReport:
    for sub in ("new", "cur", "tmp"):
        if not (root / sub).is_dir():
            raise TransportError(f"{root}: not a Maildir (no {sub}/ folder)")
    box = mailbox.Maildir(str(root), factory=None, create=False)
    journal = Journal(ref.outbox)
    report = RunReport()
    with journal.locked():
        fresh = sorted((entry.stat().st_mtime_ns, entry.name)
                        for entry in os.scandir(root / "new") if entry.is_file())
        report.errors += finish_orphans(ref, journal, _waiting(root, max_bytes))
        for _mtime, name in fresh:
            path = root / "new" / name
            try:
                raw, size = _read_bounded(path, max_bytes)
            except FileNotFoundError:
                continue  # filed by a run that ended just now
            try:
                outcome = apply_once(ref, journal, raw, size)
            except Unkept as exc:  # left in new/ for the next run; the other games go on
                report.errors.append(str(exc))
                continue
            _count(report, outcome)
            unique = name.split(box.colon)[0]
            os.replace(path, root / "cur" / f"{unique}{box.colon}2,S")
            journal.remove(digest(raw))
    _held_line(report)
    return report


def _waiting(root: Path, max_bytes: int) -> set[str]:
    """The keys of the messages in the Maildir's new/, as ``apply_once`` computes them."""
    keys = set()
    for entry in os.scandir(root / "new"):
        try:
            keys.add(digest(_read_bounded(Path(entry.path), max_bytes)[0]))
        except OSError:
            continue
    return keys


def read_mbox(ref: Referee, file: str | Path, max_bytes: int) -> RunReport:
    """Apply every message of an mbox once, then empty it (under the mbox's own lock)."""
    try:
        return _read_mbox(ref, Path(file), max_bytes)
    except mailbox.ExternalClashError:
        raise TransportError(f"{file}: locked by another program; try again later") from None
    except OSError as exc:
        raise TransportError(f"{exc.filename or file}: {exc.strerror or exc}") from None


def _read_mbox(ref: Referee, path: Path, max_bytes: int) -> RunReport:
    if not path.is_file():
        raise TransportError(f"{path}: no such mbox file")
    # The mailbox module is used for its locks only (fcntl and dot-lock, as mail delivery agents
    # take them): it reads a message whole, and this reads at most max_bytes + 1 of each.
    box = mailbox.mbox(str(path), create=False)
    journal = Journal(ref.outbox)
    report = RunReport()
    with journal.locked():
        box.lock()
        try:
            with open(path, "rb+") as handle:
                spans, scanned = _mbox_spans(handle)
                # The messages done: one line each, appended (a list rewritten after each
                # message would cost the square of their number).
                done = journal.listed(MBOX_DONE)
                finish_orphans(ref, journal, {digest(_mbox_message(handle, span, max_bytes)[0])
                                              for span in spans})
                for span in spans:
                    raw, size = _mbox_message(handle, span, max_bytes)
                    key_digest = f"{digest(raw)}-{size}"
                    if key_digest in done:
                        continue  # applied by a run killed before it emptied the mbox
                    outcome = apply_once(ref, journal, raw, size)
                    _count(report, outcome)
                    journal.append(MBOX_DONE, key_digest)
                    done.add(key_digest)
                    journal.remove(digest(raw))
                if spans:
                    _drop_head(handle, scanned)
            journal.drop(MBOX_DONE)
        finally:
            box.unlock()
            box.close()
    _held_line(report)
    return report


MBOX_CHUNK = 1 << 16
MBOX_DONE = "mbox-done.list"
HANDED = "handed.list"


def _mbox_spans(handle: BinaryIO) -> tuple[list[tuple[int, int]], int]:
    """Where each message of an mbox starts (its 'From ' line) and ends, as the mailbox module
    splits them, reading at most MBOX_CHUNK bytes at a time whatever the lines' length; and the
    size read."""
    starts: list[int] = []
    stops: list[int] = []
    last_was_empty = False
    at_line_start = True
    handle.seek(0)
    while True:
        line_pos = handle.tell()
        line = handle.readline(MBOX_CHUNK)
        if at_line_start and line.startswith(b"From "):
            if len(stops) < len(starts):
                stops.append(line_pos - 1 if last_was_empty else line_pos)
            starts.append(line_pos)
            last_was_empty = False
        elif not line:
            if len(stops) < len(starts):
                stops.append(line_pos - 1 if last_was_empty else line_pos)
            return list(zip(starts, stops, strict=True)), line_pos
        else:
            last_was_empty = at_line_start and line == b"\n"
        at_line_start = line.endswith(b"\n")


def _mbox_message(handle: BinaryIO, span: tuple[int, int], max_bytes: int
                  ) -> tuple[bytes, int]:
    """At most ``max_bytes + 1`` bytes of one mbox message (after its 'From ' line), and its
    whole size."""
    start, stop = span
    handle.seek(start)
    while True:  # the 'From ' line, however long
        piece = handle.readline(MBOX_CHUNK)
        if not piece or piece.endswith(b"\n") or handle.tell() >= stop:
            break
    begin = min(handle.tell(), stop)
    return handle.read(min(stop - begin, max_bytes + 1)), stop - begin


def _drop_head(handle: BinaryIO, scanned: int) -> None:
    """Remove the first ``scanned`` bytes of the mbox (the messages read), keeping any that a
    program which ignores the locks appended meanwhile."""
    read_at, write_at = scanned, 0
    while True:
        handle.seek(read_at)
        chunk = handle.read(MBOX_CHUNK)
        if not chunk:
            break
        handle.seek(write_at)
        handle.write(chunk)
        read_at += len(chunk)
        write_at += len(chunk)
    handle.truncate(write_at)
    handle.flush()
    os.fsync(handle.fileno())


def _read_bounded(path: Path, max_bytes: int) -> tuple[bytes, int]:
    with open(path, "rb") as handle:
        raw = handle.read(max_bytes + 1)
        size = len(raw)
        while chunk := handle.read(1 << 16):
            size += len(chunk)
    return raw, size


def _count(report: RunReport, outcome: Outcome) -> None:
    report.read += 1
    if outcome.applied:
        report.applied += 1
    elif outcome.held:
        report.held += 1
    else:
        report.rejected.append(outcome.reason or "rejected")


def _held_line(report: RunReport) -> None:
    """The refusals held back, in one line with the others (the CLI prints each)."""
    if report.held:
        report.rejected.append(f"{report.held} more mail{'s' * (report.held != 1)} refused "
                               "without a reply (at most one refusal an hour goes to a seat; "
                               "the next one sent says how many)")


# -- sending -----------------------------------------------------------------------------------


class Sender(Protocol):
    def send(self, raw: bytes, sender: str, recipients: list[str]) -> None: ...

    def close(self) -> None: ...


class Sendmail:
    """Hand each message to a local mail program (``sendmail -t -oi`` reads the recipients
    from the headers)."""

    def __init__(self, command: str = DEFAULT_SENDMAIL) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise TransportError("--sendmail: empty command")

    def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        try:
            done = subprocess.run(self.argv, input=raw, capture_output=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise TransportError(f"{self.argv[0]}: {getattr(exc, 'strerror', None) or exc}"
                                 ) from None
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise TransportError(f"{self.argv[0]} exit status {done.returncode}"
                                 + (f": {said[-1][:200]}" if said else ""))

    def close(self) -> None:
        pass


def smtp_login(host: str) -> tuple[str, str] | None:
    """The SMTP login: GAMETOOL_SMTP_USER and GAMETOOL_SMTP_PASSWORD, else ~/.netrc's entry
    for the host (``machine HOST login USER password PASS``); None when neither is there."""
    user = os.environ.get("GAMETOOL_SMTP_USER")
    password = os.environ.get("GAMETOOL_SMTP_PASSWORD")
    if user and password is not None:
        return user, password
    try:
        found = netrc.netrc().authenticators(host)
    except (FileNotFoundError, netrc.NetrcParseError, OSError):
        return None
    if found is None or not found[0]:
        return None
    return found[0], found[2] or ""


class Smtp:
    """One SMTP connection for a batch: STARTTLS whenever the server offers it, and a login
    only over TLS (or to this machine)."""

    def __init__(self, address: str, timeout: float = 60) -> None:
        host, _colon, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise TransportError(f"--smtp {address!r}: write HOST:PORT")
        self.host, self.port, self.timeout = host.strip("[]"), int(port), timeout
        self.conn: smtplib.SMTP | None = None

    def _open(self) -> smtplib.SMTP:
        try:
            conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            conn.ehlo()
            secure = False
            if conn.has_extn("starttls"):
                conn.starttls(context=ssl.create_default_context())
                conn.ehlo()
                secure = True
            login = smtp_login(self.host)
            if login is not None:
                if not secure and self.host not in LOOPBACK:
                    conn.close()
                    raise TransportError(f"{self.host} offers no STARTTLS: the password is not "
                                         "sent in clear")
                conn.login(*login)
        except (OSError, smtplib.SMTPException, ssl.SSLError) as exc:
            raise TransportError(f"SMTP {self.host}:{self.port}: {_smtp_reason(exc)}") from None
        return conn

    def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        if self.conn is None:
            self.conn = self._open()
        try:
            # smtplib sends bytes as they are; SMTP wants CRLF line ends (the outbox has LF).
            self.conn.sendmail(sender, recipients, re.sub(rb"\r?\n", b"\r\n", raw))
        except (OSError, smtplib.SMTPException) as exc:
            self.close()
            raise TransportError(f"SMTP {self.host}:{self.port}: {_smtp_reason(exc)}") from None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.conn = None


def _smtp_reason(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {exc.smtp_error.decode('utf-8', 'replace')[:200]}"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "every recipient refused"
    return str(exc)[:200] or type(exc).__name__


@dataclass
class SendReport:
    """What sending an outbox did: mails sent, mails left, and the first failure."""

    sent: int = 0
    left: int = 0
    error: str | None = None


def send_outbox(outbox: str | Path, sender: Sender) -> SendReport:
    """Send every .eml file of the outbox, oldest first, moving each to ``sent/`` (mode 0700)
    once handed over. On the first failure the rest stays for the next run; a folder that
    cannot be read or written is one TransportError."""
    root = Path(outbox)
    report = SendReport()
    if not root.is_dir():
        return report
    # One sender at a time: a second run waits, then finds sent what the first one sent.
    with Journal(root).locked(SEND_LOCK):
        return _send_locked(root, sender, report)


def _send_locked(root: Path, sender: Sender, report: SendReport) -> SendReport:
    journal = Journal(root)
    try:
        files = sorted(p for p in root.glob("*.eml") if p.is_file())
        storage.private_folder(root)
        storage.private_folder(root / "sent")
        handed = journal.listed(HANDED)
    except (OSError, GameError) as exc:
        sender.close()
        raise TransportError(str(exc) if isinstance(exc, GameError)
                             else f"{exc.filename or root}: {exc.strerror or exc}") from None
    try:
        for index, path in enumerate(files):
            if path.name not in handed:  # (one handed over already is only moved)
                try:
                    raw = path.read_bytes()
                except FileNotFoundError:
                    continue  # sent by another run meanwhile
                except OSError as exc:
                    raise TransportError(f"{path}: cannot read: {exc.strerror or exc}"
                                         ) from None
                envelope_from, recipients = _envelope(raw)
                if recipients:
                    try:
                        sender.send(raw, envelope_from, recipients)
                    except TransportError as exc:
                        report.error = str(exc)
                        report.left = len(files) - index
                        return report
                    report.sent += 1
                    # Noted before the move: a run that cannot move it does not send it again.
                    journal.append(HANDED, path.name)
            try:
                os.replace(path, root / "sent" / path.name)
            except OSError as exc:
                raise TransportError(f"{path}: sent, but cannot be moved to sent/ "
                                     f"({exc.strerror or exc}); the next run moves it there "
                                     "without sending it again") from None
        journal.drop(HANDED)
    finally:
        sender.close()
    return report


def _envelope(raw: bytes) -> tuple[str, list[str]]:
    message = BytesParser(policy=policy.SMTP).parsebytes(raw, headersonly=True)
    sender = getaddresses([str(message.get("From", ""))])
    recipients = [address for _name, address in
                  getaddresses([str(v) for h in ("To", "Cc") for v in message.get_all(h, [])])
                  if address]
    return (sender[0][1] if sender else ""), recipients
