"""Reading record files and replacing them safely.

``update`` takes an exclusive lock on the record, reads it, computes the new text and replaces
the file atomically (a temporary file in the same folder, flushed, fsynced and renamed over the
record). A failure anywhere leaves the file byte for byte as it was.
"""

from __future__ import annotations

import fcntl
import os
import sys
import tempfile
from collections.abc import Callable

from gametool.errors import GameError


def decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameError(f"{name}: not UTF-8 text (byte {exc.start + 1})") from None


def read(path: str) -> str:
    """The text of a record file, or of standard input for ``-``."""
    if path == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>")
    try:
        with open(path, "rb") as handle:
            return decode(handle.read(), path)
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror}") from None


def _open_locked(path: str) -> int:
    """Open and lock ``path``, making sure the lock is on the file the name now points to."""
    while True:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            raise GameError(f"{path}: cannot open: {exc.strerror}") from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # replaced while we waited: lock the new file instead


def write_atomic(path: str, text: str) -> None:
    """Replace ``path`` with ``text``: temporary file, fsync, rename, fsync of the folder."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".gametool-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.chmod(temp, os.stat(path).st_mode & 0o777)
        except FileNotFoundError:
            pass
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def update(path: str, change: Callable[[str], str]) -> str:
    """Lock ``path``, compute its new text from the old and replace it; return the new text."""
    fd = _open_locked(path)
    try:
        with os.fdopen(os.dup(fd), "rb") as handle:
            old = decode(handle.read(), path)
        new = change(old)
        if new != old:
            write_atomic(path, new)
        return new
    finally:
        os.close(fd)  # closing releases the lock


def create(path: str, text: str, force: bool = False) -> None:
    """Write a new record file; refuse to overwrite one unless ``force``."""
    if os.path.exists(path) and not force:
        raise GameError(f"{path}: already exists (use --force to overwrite)")
    write_atomic(path, text)
