"""Reading record files and replacing them safely.

``update`` takes an exclusive lock on the record, reads it, computes the new text and replaces
the file atomically (a temporary file in the same folder, flushed, fsynced and renamed over the
record). A failure anywhere leaves the file byte for byte as it was.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

from gametool.core import interrupt
from gametool.core.errors import GameError

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest record file the tool reads (256 MiB): checked before reading."""

TEMP_PREFIX, TEMP_SUFFIX = ".gametool-", ".tmp"
STALE_SECONDS = 2.0
"""A temporary file younger than this is never taken for a stale one (its writer may not have
locked it yet)."""


def _os_failure(path: str, doing: str, exc: OSError) -> GameError:
    """One clear line for a failed file operation, saying that the record is unchanged."""
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = "no space left on the device"
    elif exc.errno == errno.EDQUOT:
        reason = "disk quota exceeded"
    return GameError(f"{path}: cannot {doing}: {reason}")


def decode(data: bytes, name: str, first_line: int = 1) -> str:
    """UTF-8 text, or one line naming the line (counted from ``first_line``) and the byte of
    that line that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise GameError(f"{name}: not UTF-8 text (line {line}, byte {column} of the "
                        "line)") from None


def _too_large(name: str, size: int) -> GameError:
    return GameError(f"{name}: {size:,} bytes: a record file holds at most "
                     f"{MAX_FILE_BYTES:,} bytes")


def read_bytes(path: str) -> bytes:
    """The bytes of a file, or of standard input for ``-``, at most MAX_FILE_BYTES of them."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise _too_large("<stdin>", len(data))
        return data
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise _too_large(path, size)
            return handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror or exc}") from None


def read(path: str) -> str:
    """The text of a record file, or of standard input for ``-``."""
    return decode(read_bytes(path), "<stdin>" if path == "-" else path)


def _open_locked(path: str) -> int:
    """Open and lock ``path``, making sure the lock is on the file the name now points to."""
    while True:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            raise GameError(f"{path}: cannot open: {exc.strerror or exc}") from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # replaced while we waited: lock the new file instead


def clean_stale_temporaries(folder: str) -> list[str]:
    """Remove temporary files that an interrupted write left in ``folder``.

    A writer holds a lock on its temporary file until the rename, so a temporary file that can
    be locked, and is older than a moment, belongs to no running write. Returns the names removed.
    """
    removed = []
    try:
        names = [n for n in os.listdir(folder)
                 if n.startswith(TEMP_PREFIX) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        full = os.path.join(folder, name)
        try:
            fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            if now - os.fstat(fd).st_mtime < STALE_SECONDS:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a write is under way
            if os.path.samestat(os.fstat(fd), os.stat(full)):
                os.unlink(full)
                removed.append(name)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def write_atomic(path: str, text: str, mode: int | None = None) -> None:
    """Replace ``path`` with ``text``: temporary file, fsync, rename, fsync of the folder.

    The new file keeps the old one's mode (a new file: what the umask allows), or has ``mode``
    when given, whatever the umask. Any failure (a full disk, a name too long, no permission)
    is one GameError, and the old file, if any, is left as it was.
    """
    try:
        if _is_stream(path):
            _write_through(path, text)
        else:
            _write_atomic(path, text, mode)
    except OSError as exc:
        raise _os_failure(path, "write", exc) from None


def _is_stream(path: str) -> bool:
    """Whether ``path`` names a device or a pipe (/dev/null, /dev/stdout, a FIFO): written
    through as it is, never replaced by a renamed file."""
    try:
        kind = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(kind) or stat.S_ISFIFO(kind)


def _write_through(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
"""The modes of what holds secrets (seeds, hands, seat keys): the owner's alone."""


def private_folder(path: str | os.PathLike[str]) -> list[str]:
    """Make the folder ``path`` (and its missing parents) and give it mode 0700 whatever the
    umask; an existing folder is narrowed (group and others lose every right; the owner's
    are left as they are, so a folder of mode 0500 stays so). Returns the folders made,
    outermost first (for a caller that undoes its work); a failure is one GameError."""
    folder = os.path.abspath(os.fspath(path))
    made = make_folders(path)
    try:
        mode = os.stat(folder).st_mode & 0o777
        if mode & ~PRIVATE_FOLDER:  # narrowed, never widened: a folder of 0500 stays so
            os.chmod(folder, mode & PRIVATE_FOLDER)
    except OSError as exc:
        raise _os_failure(os.fspath(path), "make the folder readable by its owner only",
                          exc) from None
    return made


def make_folders(path: str | os.PathLike[str]) -> list[str]:
    """Make the folder ``path`` and its missing parents (as the umask allows); return the
    folders made, outermost first, for ``undo_folders``. A failure is one GameError."""
    folder = os.path.abspath(os.fspath(path))
    missing = []
    probe = folder
    while not os.path.lexists(probe):
        missing.append(probe)
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise _os_failure(os.fspath(path), "make the folder", exc) from None
    return list(reversed(missing))


def write_new(path: str, text: str, mode: int = PRIVATE_FILE, exists: str | None = None
              ) -> None:
    """Write ``text`` to a file made now with ``mode``, or, when ``exists`` is None, at the end
    of the file there is; whole or not at all: after a failure (a full disk) a file made is
    removed, and one appended to is cut back to its old length. ``exists``: the line for a
    file that is there already (then nothing is written)."""
    append = exists is None
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_EXCL)
    made = not os.path.lexists(path)
    try:
        fd = os.open(path, flags, mode)
    except FileExistsError:
        raise GameError(f"{path}: {exists}") from None
    except OSError as exc:
        raise _os_failure(path, "write", exc) from None
    size = 0
    try:
        size = os.fstat(fd).st_size
        data = text.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
        os.fsync(fd)
    except OSError as exc:
        try:
            if made:
                os.unlink(path)
            else:
                os.ftruncate(fd, size)
        except OSError:
            pass
        raise _os_failure(path, "write", exc) from None
    finally:
        os.close(fd)


def undo_folders(made: list[str]) -> None:
    """Remove the folders ``private_folder`` made, innermost first, where they are empty."""
    for folder in reversed(made):
        try:
            os.rmdir(folder)
        except OSError:
            return


@contextmanager
def disk_failures(where: str | os.PathLike[str], doing: str = "write") -> Iterator[None]:
    """Turn a failed file or folder operation into one clear GameError naming the path (the
    file the system names, else ``where``): for commands whose every step touches the disk."""
    try:
        yield
    except OSError as exc:
        raise _os_failure(os.fspath(exc.filename or where), doing, exc) from None


PACKED = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}
"""The compressed formats written for a file whose name ends so (``-o games.pgn.gz``)."""


def packing(path: str) -> str | None:
    """The compressed format a file named ``path`` is written in, or None for plain text."""
    return PACKED.get(os.path.splitext(path.lower())[1])


def packer(raw: IO[bytes], kind: str) -> IO[bytes]:
    """A stream that writes ``kind``-compressed bytes to ``raw`` (left open when it closes)."""
    if kind == "gzip":
        import gzip

        return gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)  # type: ignore
    if kind == "bzip2":
        import bz2

        return bz2.BZ2File(raw, "wb")  # type: ignore[return-value]
    if kind == "xz":
        import lzma

        return lzma.LZMAFile(raw, "wb")  # type: ignore[return-value]
    try:
        import zstandard
    except ImportError:
        raise GameError("writing a .zst file needs the zstandard package "
                        "(pip install 'gametool[zstd]')") from None
    return zstandard.ZstdCompressor().stream_writer(raw, closefd=False)  # type: ignore


def _umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def make_temporary(folder: str) -> tuple[int, str]:
    """A new, empty temporary file in ``folder`` (named TEMP_PREFIX, random hex digits,
    TEMP_SUFFIX; readable and writable by its owner alone), open for writing: its descriptor
    and path. What ``tempfile.mkstemp`` does, without loading ``tempfile`` and what it loads
    (``shutil``, ``random``, the compression modules) into every command that writes."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _attempt in range(100):
        path = os.path.join(folder, f"{TEMP_PREFIX}{os.urandom(6).hex()}{TEMP_SUFFIX}")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue  # (one chance in 2**48 a name)
    raise FileExistsError(errno.EEXIST, "no unused name for a temporary file", folder)


def _write_atomic(path: str, text: str, forced: int | None = None) -> None:
    # Through a symbolic link the file it points to is replaced, and the link kept.
    path = os.path.realpath(path)
    folder = os.path.dirname(path)
    clean_stale_temporaries(folder)
    temp: str | None = None
    held: int | None = None
    try:
        # A signal between making the temporary file and knowing its name would leave it.
        with interrupt.deferred():
            fd, temp = make_temporary(folder)
            # The lock on the temporary file is held (through ``held``) until the rename, so
            # that no other writer takes it for a stale one.
            held = os.dup(fd)
        fcntl.flock(held, fcntl.LOCK_EX)
        kind = packing(path)
        with os.fdopen(fd, "wb") as handle:
            if kind is None:
                handle.write(text.encode("utf-8"))
            else:
                with packer(handle, kind) as packed:
                    packed.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        if forced is not None:
            mode = forced
        else:
            try:
                mode = os.stat(path).st_mode & 0o777
            except FileNotFoundError:
                mode = 0o666 & ~_umask()  # a new file: what the umask allows, as open() gives
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        if temp is not None:
            try:
                os.unlink(temp)
            except FileNotFoundError:
                pass
        raise
    finally:
        if held is not None:
            os.close(held)
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # renamed already; a folder that cannot be opened cannot be synced either
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def update(path: str, change: Callable[[str], str], mode: int | None = None) -> str:
    """Lock ``path``, compute its new text from the old and replace it; return the new text.

    Through a symbolic link, the file it points to is locked and replaced (with ``mode`` when
    given, see ``write_atomic``)."""
    path = os.path.realpath(path)
    fd = _open_locked(path)
    try:
        size = os.fstat(fd).st_size
        if size > MAX_FILE_BYTES:
            raise _too_large(path, size)
        with os.fdopen(os.dup(fd), "rb") as handle:
            old = decode(handle.read(), path)
        new = change(old)
        if new != old:
            write_atomic(path, new, mode)
        return new
    finally:
        os.close(fd)  # closing releases the lock


def create(path: str, text: str, force: bool = False, mode: int | None = None) -> None:
    """Write a new record file; refuse to overwrite one unless ``force``."""
    try:
        exists = os.path.lexists(path)
    except OSError as exc:
        raise _os_failure(path, "create", exc) from None
    if exists and not force and not _is_stream(path):
        raise GameError(f"{path}: already exists (use --force to overwrite)")
    write_atomic(path, text, mode)
