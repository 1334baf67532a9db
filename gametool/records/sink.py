"""Output written as it is made: records go to a file (or stdout) one by one, so that an archive
of any size is written in little memory.

A file is written to a temporary file beside it and renamed over it only when the command
succeeds (:meth:`Sink.commit`): a failure or an interruption leaves the old file as it was. A
path that is not a regular file (``/dev/null``, a named pipe, a terminal) is written directly.
"""

from __future__ import annotations

import fcntl
import io
import os
import stat
import sys
from typing import IO

from gametool.core import interrupt, storage
from gametool.core.errors import GameError


def special(path: str) -> bool:
    """Whether ``path`` exists and is not a regular file (a device such as /dev/null, a pipe):
    written in place, never replaced."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def exists(path: str | None) -> bool:
    """Whether writing to ``path`` would replace a file (stdout and devices never do)."""
    return path not in (None, "-") and not special(path) and os.path.lexists(path)


class Sink:
    """Where records are written: stdout (``None`` or ``-``), a device, or a file replaced on
    :meth:`commit`. An existing file is refused at once unless ``force``."""

    def __init__(self, path: str | None, force: bool = False) -> None:
        self.path = path
        self.written = 0
        """The number of pieces written."""
        self._temp: str | None = None
        self._held: int | None = None
        self._raw: IO[bytes] | None = None
        """The file under a compressing stream (``-o games.pgn.gz``)."""
        self._handle: IO[str]
        if path in (None, "-"):
            self._handle = sys.stdout
            return
        try:
            if special(path):
                self._handle = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
                return
            if os.path.lexists(path) and not force:
                raise GameError(f"{path}: already exists (use --force to overwrite)")
            folder = os.path.dirname(os.path.realpath(path))
            # What an earlier write killed on the way left (kill -9, a power cut): its lock
            # is free, so it is removed.
            storage.clean_stale_temporaries(folder)
            # No signal between making the temporary file and holding it ready: the sink is
            # whole, or nothing is left behind.
            with interrupt.deferred():
                fd, self._temp = storage.make_temporary(folder)
                try:
                    self._held = os.dup(fd)
                    fcntl.flock(self._held, fcntl.LOCK_EX)
                    kind = storage.packing(path)
                    if kind is None:
                        self._handle = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
                    else:
                        self._raw = os.fdopen(fd, "wb")
                        self._handle = io.TextIOWrapper(storage.packer(self._raw, kind),
                                                        encoding="utf-8", newline="\n")
                except OSError:
                    os.close(fd)
                    raise
        except OSError as exc:
            self._forget()
            raise GameError(f"{path}: cannot write: {exc.strerror or exc}") from None
        except BaseException:  # a signal held back above, raised as the block ended
            self._forget()
            raise

    def write(self, text: str) -> None:
        if self.path in (None, "-"):  # a closed pipe ends the command quietly (Click)
            self._handle.write(text)
            self.written += 1
            return
        try:
            self._handle.write(text)
        except OSError as exc:
            raise GameError(f"{self.path or '<stdout>'}: cannot write: "
                            f"{exc.strerror or exc}") from None
        self.written += 1

    def commit(self) -> None:
        """Finish: the file is in place with everything written."""
        if self.path in (None, "-"):
            self._handle.flush()
            return
        try:
            self._handle.flush()
            if self._temp is None:
                self._handle.close()
                return
            if self._raw is not None:
                self._handle.close()  # ends the compressed stream; the file stays open
                self._raw.flush()
                os.fsync(self._raw.fileno())
                self._raw.close()
            else:
                os.fsync(self._handle.fileno())
                self._handle.close()
            target = os.path.realpath(self.path)
            try:
                mode = os.stat(target).st_mode & 0o777
            except FileNotFoundError:
                mask = os.umask(0o077)
                os.umask(mask)
                mode = 0o666 & ~mask
            os.chmod(self._temp, mode)
            os.replace(self._temp, target)
            self._temp = None
        except OSError as exc:
            self.discard()
            raise GameError(f"{self.path}: cannot write: {exc.strerror or exc}") from None
        finally:
            self._release()

    def discard(self) -> None:
        """Give up: a file being made is removed, the old one left as it was."""
        if self.path in (None, "-"):
            return
        for handle in (self._handle, self._raw):
            try:
                if handle is not None:
                    handle.close()
            except (OSError, ValueError):
                pass
        self._forget()

    def _forget(self) -> None:
        """Remove the temporary file being made, if any (also before the sink is whole)."""
        if self._temp is not None:
            try:
                os.unlink(self._temp)
            except FileNotFoundError:
                pass
            self._temp = None
        self._release()

    def _release(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None
