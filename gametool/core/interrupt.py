"""Ctrl-C and SIGTERM: every command stops within a second, with one line and no leftovers.

:func:`install` turns SIGINT and SIGTERM into :class:`Interrupted`, an exception that no
``except Exception`` (nor Click, which turns ``KeyboardInterrupt`` into "Aborted!") catches, so
it unwinds every ``finally`` and ``with`` on its way out: a temporary file is removed, a lock
released, a pool of worker processes terminated. The entry point prints ``gametool:
interrupted`` and exits 130 (SIGINT) or 143 (SIGTERM). A second signal during that clean-up
ends the process at once.

Worker processes call :func:`worker_setup`: they ignore SIGINT (Ctrl-C reaches the whole
process group; the parent decides), die with SIGTERM (which the parent sends them) and, on
Linux, are sent SIGTERM when the parent dies, so that no worker outlives the command.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """The command was stopped by a signal; ``exit_code`` is 128 + the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


_stopping = False


def stopping() -> bool:
    """Whether a signal is ending this process (code that unwinds, closing a generator, say,
    may not see the Interrupted exception itself)."""
    return _stopping


_deferring = 0
_pending: int | None = None


def _first(signum: int, frame: FrameType | None) -> None:
    global _stopping, _pending
    if _deferring:
        _pending = _pending or signum  # raised when the deferring block ends
        return
    _stopping = True
    for number in SIGNALS:
        signal.signal(number, _again)
    raise Interrupted(signum)


@contextmanager
def deferred() -> Iterator[None]:
    """Keep :class:`Interrupted` out of a few steps that must happen together (a temporary
    file made, and its name kept for its removal): a signal that arrives meanwhile is raised
    as the block ends. Unlike :func:`held`, this holds whichever thread the signal reaches:
    Python runs its handler in the main thread, which defers it."""
    global _deferring, _pending
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1
        if not _deferring and _pending is not None:
            signum, _pending = _pending, None
            _first(signum, None)


def _again(signum: int, frame: FrameType | None) -> None:
    """A second signal while the first one is being handled: stop now."""
    try:
        sys.stderr.write("gametool: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(128 + signum)


def install() -> None:
    """Turn SIGINT and SIGTERM into :class:`Interrupted` (in the main thread only)."""
    for number in SIGNALS:
        if signal.getsignal(number) is signal.SIG_IGN:
            continue  # started with the signal ignored (nohup, a background job): keep it so
        signal.signal(number, _first)


def worker_setup(parent: int | None = None) -> None:
    """In a worker process: ignore Ctrl-C, end on SIGTERM, and end when the parent (the
    process ``parent``) ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # held by the parent while it forked
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass
    if parent is not None and os.getppid() != parent:
        os._exit(128 + signal.SIGTERM)  # the parent ended before the line above


def descendants(pid: int | None = None) -> list[int]:
    """The processes started by ``pid`` (default: this one), and theirs, from ``/proc``
    (none where there is no ``/proc``)."""
    parent_of: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parent_of[int(name)] = int(fields[1])
    found: list[int] = []
    todo = [os.getpid() if pid is None else pid]
    while todo:
        current = todo.pop()
        children = [child for child, parent in parent_of.items() if parent == current]
        found += children
        todo += children
    return found


def end_descendants() -> None:
    """Kill every process this one started that is still running (workers of an interrupted
    run: they hold nothing that must be saved). Among them may be multiprocessing's resource
    tracker: what is left of the run would then warn, on its way out, that the tracker "died
    unexpectedly"; it died on purpose, and the warning is silenced."""
    import warnings

    warnings.filterwarnings("ignore", message="resource_tracker: process died unexpectedly")
    for pid in descendants():
        if _is_resource_tracker(pid):
            continue  # it ends by itself once every process that uses it has ended
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _is_resource_tracker(pid: int) -> bool:
    """Whether ``pid`` is multiprocessing's resource tracker: killed, it would be started
    again by what is left of the run, and speak of the death on the terminal."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"multiprocessing.resource_tracker" in handle.read()
    except OSError:
        return False


@contextmanager
def quiet_children() -> Iterator[None]:
    """Children started in this block write their stderr to /dev/null (multiprocessing's
    resource tracker, say, which warns of leaked semaphores when an interrupted run ends)."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def dask_setup(worker: object) -> None:
    """Dask's hook for a preloaded module: a worker process of a local cluster ignores Ctrl-C
    (the command stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back while worker processes are forked (they inherit the hold
    and set their own handlers before taking them); the parent gets them just after."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def pager_owns_ctrl_c() -> Iterator[None]:
    """While a pager (man, less) runs in the foreground, Ctrl-C is its own (less cancels a
    search with it): this process ignores SIGINT until the pager ends. SIGTERM still stops."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
