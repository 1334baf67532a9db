"""Mail in and out for the referee: a Maildir or an mbox in, sendmail or SMTP out.

Reading. A message is known by the SHA-256 of its bytes. Under the master record's lock, before
the record is replaced, the outcome of the message (the digests of the record before and after,
and every reply as a finished .eml file) is written to a journal entry,
``OUTBOX/.journal/DIGEST.json``. Then the record is replaced, the replies are written to the
outbox, the message is filed (Maildir: renamed from ``new/`` to ``cur/`` with the flag ``S``;
mbox: removed once the whole run is done; each message is read no further than ``--max-bytes``)
and the entry is deleted. A referee killed anywhere finds the entry at its next run: if the
record holds the outcome it only writes the replies (the same files again) and files the
message; if not, it applies the message afresh. A message is so applied once, and its replies
written once, whatever the moment of the crash. One run at a time holds the journal's lock. An
entry is only believed when it has the shape written here: every reply it holds is a plain
``.eml`` name (never a path out of the outbox), and its record a master record of the game
folder.

Sending. Each .eml file of the outbox, oldest first, goes to ``sendmail`` or an SMTP server and
is then moved to ``OUTBOX/sent/``. A message that cannot be sent stays and is tried again by the
next run. A crash between the hand-over and the move sends it once more, with the same
Message-ID (at least once, never lost).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import mailbox
import netrc
import os
import re
import shlex
import smtplib
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path
from typing import BinaryIO, Protocol

from gametool import storage
from gametool.errors import GameError
from gametool.referee import OUTBOX_NAME, Outgoing, Receipt, Referee

DEFAULT_SENDMAIL = "sendmail -t -oi"
LOOPBACK = ("127.0.0.1", "::1", "localhost")


class TransportError(GameError):
    """Mail could not be read or sent; what could not be sent stays in the outbox."""


# -- the journal -------------------------------------------------------------------------------


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Journal:
    """``OUTBOX/.journal``: one entry per message being applied, and the run lock."""

    def __init__(self, outbox: Path) -> None:
        self.folder = outbox / ".journal"

    @contextmanager
    def locked(self) -> Iterator[None]:
        storage.private_folder(self.folder.parent)
        storage.private_folder(self.folder)
        try:
            fd = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT, storage.PRIVATE_FILE)
        except OSError as exc:
            raise TransportError(f"{self.folder / 'lock'}: cannot open: "
                                 f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def read(self, key: str) -> dict | None:
        """The entry, or None when there is none or it is not one this referee writes (an
        unreadable or altered entry is as good as none: the message is applied afresh)."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if _well_formed(entry) else None

    def write(self, key: str, entry: dict) -> None:
        storage.write_atomic(str(self._path(key)), json.dumps(entry), storage.PRIVATE_FILE)

    def remove(self, key: str) -> None:
        try:
            os.unlink(self._path(key))
        except FileNotFoundError:
            pass

    def keys(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json"))


def _well_formed(entry: object) -> bool:
    """Whether a journal entry has the shape this module writes, every file it names a plain
    outbox message name (never a path: '../x' or '/etc/x' would be written outside)."""
    if not isinstance(entry, dict):
        return False
    if "keys" in entry:  # the list of mbox messages done
        return isinstance(entry["keys"], list) and all(isinstance(k, str) for k in entry["keys"])
    files = entry.get("files")
    record = entry.get("record")
    return (isinstance(files, list)
            and all(isinstance(item, list) and len(item) == 2
                    and all(isinstance(part, str) for part in item)
                    and OUTBOX_NAME.fullmatch(item[0]) is not None for item in files)
            and (record is None or isinstance(record, str))
            and (entry.get("reason") is None or isinstance(entry.get("reason"), str)))


def _holds_outcome(ref: Referee, entry: dict) -> bool:
    """Whether the entry's outcome is in place: no record was to change, or the record (a
    master record of this referee's game folder, nothing else) holds the text it names."""
    record = entry.get("record")
    if record is None:
        return True
    path = Path(record)
    if path.suffix != ".gtn" or path.parent.resolve() != ref.game_dir.resolve():
        return False
    return _text_digest(record) == entry.get("after")


def _text_digest(path: str) -> str | None:
    try:
        return digest(Path(path).read_bytes())
    except OSError:
        return None


@dataclass
class Outcome:
    """What became of one incoming message in this run."""

    applied: bool
    reason: str | None = None
    recovered: bool = False


def finish_orphans(ref: Referee, journal: Journal, waiting: set[str]) -> None:
    """Finish the entries of messages that will not come again (a piped message whose run was
    killed): where the record holds the outcome, write the replies; then forget the entry.
    Entries of messages still ``waiting`` to be read are left to ``apply_once``."""
    for key in journal.keys():
        if len(key) != 64 or key in waiting:
            continue
        entry = journal.read(key)
        if entry is not None and _holds_outcome(ref, entry):
            ref.write_files([tuple(item) for item in entry["files"]])
        journal.remove(key)


def apply_once(ref: Referee, journal: Journal, raw: bytes, size: int | None = None) -> Outcome:
    """Apply one message exactly once, writing its replies to the outbox (see the module's
    docstring); the caller files the message and then calls ``journal.remove``."""
    key = digest(raw)
    entry = journal.read(key)
    if entry is not None:
        if _holds_outcome(ref, entry):
            ref.write_files([tuple(item) for item in entry["files"]])
            return Outcome(bool(entry.get("applied")), entry.get("reason"), recovered=True)
        journal.remove(key)  # the record was never replaced: apply the message afresh

    def on_commit(path: Path, old: str, new: str, replies: list[Outgoing],
                  reason: str | None = None) -> None:
        journal.write(key, {"record": str(path), "before": digest(old.encode()),
                            "after": digest(new.encode()), "applied": reason is None,
                            "reason": reason, "files": ref.render_files(replies)})

    receipt: Receipt = ref.receive(raw, size, on_commit)
    entry = journal.read(key)
    if entry is None:  # nothing was committed: a rejection, a mail dropped unanswered, or a
        # request answered that changes no record ('#games' with no game named)
        entry = {"record": None, "applied": receipt.applied, "reason": receipt.reason,
                 "files": ref.render_files(receipt.messages)}
        journal.write(key, entry)
    ref.write_files([tuple(item) for item in entry["files"]])
    return Outcome(receipt.applied, receipt.reason)


# -- mailboxes -------------------------------------------------------------------------------


@dataclass
class RunReport:
    """The counts of one inbox run, for the line the CLI prints."""

    read: int = 0
    applied: int = 0
    rejected: list[str] = field(default_factory=list)


def read_maildir(ref: Referee, folder: str | Path, max_bytes: int) -> RunReport:
    """Apply every message in the Maildir's ``new/`` once, oldest first, and file each in
    ``cur/`` with the flag S (seen)."""
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
        finish_orphans(ref, journal, _waiting(root, max_bytes))
        for _mtime, name in fresh:
            path = root / "new" / name
            try:
                raw, size = _read_bounded(path, max_bytes)
            except FileNotFoundError:
                continue  # filed by a run that ended just now
            outcome = apply_once(ref, journal, raw, size)
            _count(report, outcome)
            unique = name.split(box.colon)[0]
            os.replace(path, root / "cur" / f"{unique}{box.colon}2,S")
            journal.remove(digest(raw))
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
                done = journal.read("mbox-done") or {"keys": []}
                finish_orphans(ref, journal, {digest(_mbox_message(handle, span, max_bytes)[0])
                                              for span in spans})
                for span in spans:
                    raw, size = _mbox_message(handle, span, max_bytes)
                    key_digest = f"{digest(raw)}-{size}"
                    if key_digest in done["keys"]:
                        continue  # applied by a run killed before it emptied the mbox
                    outcome = apply_once(ref, journal, raw, size)
                    _count(report, outcome)
                    done["keys"].append(key_digest)
                    journal.write("mbox-done", done)
                    journal.remove(digest(raw))
                if spans:
                    _drop_head(handle, scanned)
            journal.remove("mbox-done")
        finally:
            box.unlock()
            box.close()
    return report


MBOX_CHUNK = 1 << 16


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
    else:
        report.rejected.append(outcome.reason or "rejected")


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
    try:
        files = sorted(p for p in root.glob("*.eml") if p.is_file())
        storage.private_folder(root)
        storage.private_folder(root / "sent")
    except (OSError, GameError) as exc:
        sender.close()
        raise TransportError(str(exc) if isinstance(exc, GameError)
                             else f"{exc.filename or root}: {exc.strerror or exc}") from None
    try:
        for index, path in enumerate(files):
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                continue  # sent by another run meanwhile
            except OSError as exc:
                raise TransportError(f"{path}: cannot read: {exc.strerror or exc}") from None
            envelope_from, recipients = _envelope(raw)
            if recipients:
                try:
                    sender.send(raw, envelope_from, recipients)
                except TransportError as exc:
                    report.error = str(exc)
                    report.left = len(files) - index
                    return report
                report.sent += 1
            try:
                os.replace(path, root / "sent" / path.name)
            except OSError as exc:
                raise TransportError(f"{path}: sent, but cannot be moved to sent/ "
                                     f"({exc.strerror or exc}); it will be sent again") from None
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
