"""The referee's journal, ``OUTBOX/.journal``: what a run is doing, so that the next run
finishes it once.

Every change the referee makes to a master record (a mail applied, a clock's reminder or
forfeit, a lapse) is first written here as an entry: the record's path, the SHA-256 of its text
before and after, the new text itself, the side files the change writes (prepared moves, leave,
digest settings: ``sides``, each path with its new text, or null when it goes) and every message
that tells of the outcome, as finished ``.eml`` files. Then the record is replaced, and only
then are the messages written to the outbox; the entry goes last. A run that finds an entry (the
last one was killed, or could not replace the record) finishes it before anything else:

- the record holds the text after: the side files are written (the same texts again), then the
  messages (the same files again, none that was sent already);
- the record still holds the text before: the side files and the new text are written, then the
  messages (the same outcome, with the same deal, whatever else has arrived since);
- anything else (an entry altered, a record edited by hand): the entry is forgotten, and its
  mail, if it comes again, is applied afresh.

An entry of a mail whose work is finished becomes a small marker (done, with its result), so
that the mail, read again by a later run, is filed rather than applied a second time (and a
piped mail's retry by the mail server is answered by nothing new); markers are forgotten once
the mail is filed, or after some days. One run at a time holds the journal's
lock: ``inbox``, ``tick`` and the commands that change keys. Sending has a lock of its own.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.referee import sidefiles
from gametool.referee.mail.outgoing import OUTBOX_NAME, Unkept

Files = list[tuple[str, str]]
SEND_LOCK = "send.lock"
"""Held while the outbox is sent, and while a message and the key it carries are written (so
that no message goes out whose key is not saved)."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Journal:
    """``OUTBOX/.journal``: one entry per change under way, the run lock, the send lock."""

    def __init__(self, outbox: Path) -> None:
        self.folder = Path(outbox) / ".journal"

    @contextmanager
    def locked(self, name: str = "lock") -> Iterator[None]:
        """Hold the journal's lock (``name``: another lock in the same folder)."""
        storage.private_folder(self.folder.parent)
        storage.private_folder(self.folder)
        path = self.folder / name
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, storage.PRIVATE_FILE)
        except OSError as exc:
            raise GameError(f"{path}: cannot open: {_reason(exc)}") from None
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
        return entry if well_formed(entry) else None

    def write(self, key: str, entry: dict) -> None:
        storage.write_atomic(str(self._path(key)), json.dumps(entry), storage.PRIVATE_FILE)

    def mark_done(self, key: str, entry: dict) -> None:
        """Keep only that the entry's work is finished, and its result."""
        self.write(key, {"done": True, "applied": bool(entry.get("applied")),
                         "reason": entry.get("reason")})

    def remove(self, key: str) -> None:
        try:
            os.unlink(self._path(key))
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise GameError(f"{self._path(key)}: cannot remove: {_reason(exc)}") from None

    def age(self, key: str) -> float:
        """When the entry was last written (seconds since the epoch; 0 when it is gone)."""
        try:
            return self._path(key).stat().st_mtime
        except OSError:
            return 0.0

    def keys(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json"))

    # -- a list that only grows (the mbox messages done) ------------------------------------

    def listed(self, name: str) -> set[str]:
        """The lines of the list ``name`` (a line cut short by a crash is not one)."""
        try:
            data = (self.folder / name).read_bytes()
        except FileNotFoundError:
            return set()
        except OSError as exc:
            raise GameError(f"{self.folder / name}: cannot read: {_reason(exc)}") from None
        return {line for line in data.decode("ascii", "replace").split("\n")[:-1] if line}

    def append(self, name: str, line: str) -> None:
        """Add one line to the list ``name``, on the disk before this returns."""
        path = self.folder / name
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, storage.PRIVATE_FILE)
            try:
                # A line cut short by an earlier crash is ended first, and so never joined.
                if os.fstat(fd).st_size and _last_byte(path) != b"\n":
                    os.write(fd, b"\n")
                data = f"{line}\n".encode("ascii")
                if os.write(fd, data) != len(data):
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise GameError(f"{path}: cannot write: {_reason(exc)}") from None

    def drop(self, name: str) -> None:
        try:
            os.unlink(self.folder / name)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise GameError(f"{self.folder / name}: cannot remove: {_reason(exc)}") from None


def _last_byte(path: Path) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1)


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    return exc.strerror or str(exc)


def well_formed(entry: object) -> bool:
    """Whether a journal entry has the shape this module writes, every file it names a plain
    outbox message name (never a path: '../x' or '/etc/x' would be written outside)."""
    if not isinstance(entry, dict):
        return False
    if entry.get("done") is True:
        return entry.get("reason") is None or isinstance(entry.get("reason"), str)
    files = entry.get("files")
    record = entry.get("record")
    moves = entry.get("moves", [])
    return (isinstance(files, list)
            and all(isinstance(item, list) and len(item) == 2
                    and all(isinstance(part, str) for part in item)
                    and OUTBOX_NAME.fullmatch(item[0]) is not None for item in files)
            and (record is None or isinstance(record, str))
            and (entry.get("text") is None or isinstance(entry.get("text"), str))
            and isinstance(moves, list)
            and all(isinstance(item, list) and len(item) == 2
                    and all(isinstance(part, str) for part in item) for item in moves)
            and (entry.get("reason") is None or isinstance(entry.get("reason"), str))
            and sidefiles.well_formed(entry.get("sides", [])))


def is_done(entry: dict) -> bool:
    return entry.get("done") is True


def _file_digest(path: Path) -> str | None:
    try:
        return digest(path.read_bytes())
    except OSError:
        return None


def _inside(path: Path, folder: Path) -> bool:
    return path.suffix in (".gtn", ".keys") and path.parent.resolve() == folder.resolve()


def finish(game_dir: Path, entry: dict) -> bool:
    """Bring the entry's outcome into place if it is not yet (the record's new text, the files
    a lapse moves); return whether the game folder now holds it. A failure to write is one
    Unkept. Only what this referee writes is believed: a record of its own game folder whose
    text is the one named before or after."""
    record = entry.get("record")
    sides = entry.get("sides", [])
    if record is None:
        sidefiles.apply(game_dir, sides)
        return True
    path = Path(record)
    if path.suffix != ".gtn" or path.parent.resolve() != game_dir.resolve():
        return False
    moves = [(Path(a), Path(b)) for a, b in entry.get("moves", [])]
    if moves:
        return _finish_moves(game_dir, entry, path, moves)
    now = _file_digest(path)
    if now == entry.get("after"):
        sidefiles.apply(game_dir, sides)  # (again, the same, after a run cut short)
        return True
    text = entry.get("text")
    if now != entry.get("before") or text is None or digest(text.encode()) != entry.get("after"):
        return False
    sidefiles.apply(game_dir, sides)

    def forward(old: str) -> str:
        return text if digest(old.encode()) == entry.get("before") else old

    try:
        new = storage.update(str(path), forward, storage.PRIVATE_FILE)
    except GameError as exc:
        raise Unkept(str(exc)) from None
    return digest(new.encode()) == entry.get("after")


def _finish_moves(game_dir: Path, entry: dict, path: Path, moves: list[tuple[Path, Path]]
                  ) -> bool:
    """A lapse: the game's files move to a folder of their own."""
    lapsed = game_dir / "lapsed"
    for source, target in moves:
        if not _inside(source, game_dir) or not _inside(target, lapsed):
            return False
    target = dict(moves)[path] if path in dict(moves) else None
    if target is None:
        return False
    if path.exists():
        if _file_digest(path) != entry.get("before"):
            return False
    elif _file_digest(target) != entry.get("before"):
        return False
    try:  # (what a run cut short between two moves left behind moves too)
        storage.private_folder(lapsed)
        for source, goal in moves:
            if source.exists():
                os.replace(source, goal)
    except GameError as exc:
        raise Unkept(str(exc)) from None
    except OSError as exc:
        raise Unkept(f"{exc.filename or lapsed}: cannot move: {_reason(exc)}") from None
    return True


def settle(game_dir: Path, journal: Journal, write: Callable[[Files], object],
           finished: list[dict] | None = None) -> dict[str, str]:
    """Finish every entry of the journal: the outcomes are brought into place and their
    messages written; a mail's entry becomes a marker, any other is removed (and added to
    ``finished``). Returns, for each entry that could not be finished (it stays for the next
    run), its record and the line that says why."""
    errors: dict[str, str] = {}
    for key in journal.keys():
        if len(key) != 64:
            continue
        entry = journal.read(key)
        if entry is None:
            journal.remove(key)
            continue
        if is_done(entry):
            continue
        try:
            if finish(game_dir, entry):
                write([(a, b) for a, b in entry["files"]])
                if entry.get("tick"):
                    journal.remove(key)
                    if finished is not None:
                        finished.append(entry)
                else:
                    journal.mark_done(key, entry)
            else:
                journal.remove(key)
        except GameError as exc:
            errors[str(entry.get("record"))] = str(exc)
    return errors
