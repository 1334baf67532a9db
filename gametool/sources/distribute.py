"""Running one function over many pieces of work: here, in processes, or on a Dask cluster.

The commands that read or write archives (``validate``, ``filter``, ``stats``, ``selfplay``,
``import``) hand their work to :func:`run` as a list of small picklable items and a top-level
function. The results come back in the order of the items whatever ran them, so the output of
``--jobs 4`` or ``--scheduler tcp://host:8786`` is the output of ``--jobs 1``.

Large files are cut into parts of whole records (:func:`parts`), so that one big archive is
spread as well as many small ones. Dask is imported only when a scheduler is named.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from gametool import sources
from gametool.core.errors import GameError
from gametool.sources import is_pgn
from gametool.sources.boundaries import Starts

T = TypeVar("T")
R = TypeVar("R")

PART_BYTES = 1 << 20
"""A file larger than this is cut into parts of about this size, at record boundaries."""


@dataclass(frozen=True)
class Part:
    """A file, or the piece of one that starts at line ``first_line`` (``text`` then holds it).

    A whole file travels as its path and is read where the work runs (a folder all workers
    see); a piece travels with its text.
    """

    path: str
    text: str | None = None
    first_line: int = 1
    number: int = 0
    """The piece's place in its file (0, 1, ...); 0 for a whole file."""
    offset: int = -1
    """Where the piece starts in its file, in bytes, when it travels as a place in the file
    (``offset`` and ``length``) rather than as its text: it is read where the work runs."""
    length: int = 0
    starts: tuple[tuple[int, int], ...] | None = None
    """Where the games (or records) of ``text`` after its first one start, as the cutting of
    the file found them: (line, character) in ``text``, both counted from 0; None when not
    known (a part read where the work runs is cut again there)."""

    folder: str = ""
    """The folder a relative ``path`` is found in when the part is read elsewhere (on a
    Dask worker, whose own folder is another): the client's, made absolute before sending."""

    @property
    def location(self) -> str:
        """Where the file is read: ``path``, from ``folder`` when one is given."""
        if self.folder and self.path != "-":
            return os.path.join(self.folder, self.path)
        return self.path

    def is_pgn(self) -> bool:
        """Whether the part's file is PGN (see :func:`gametool.sources.is_pgn`)."""
        return sources.is_pgn(self.location)

    def read(self) -> str:
        if self.text is not None:
            return self.text
        try:
            if self.offset >= 0:
                return self._read_range()
            return sources.read_file(self.location)
        except GameError as exc:
            if not self.folder:
                raise
            if os.path.exists(self.location):
                raise GameError(str(exc).replace(self.location, self.path)) from None
            raise GameError(f"{self.path}: the worker at {_worker()} cannot read "
                            f"{self.location}: no such file there; the workers read each file "
                            "at the path the command sees, so they need a file system shared "
                            "with it (see the README)") from None

    def _read_range(self) -> str:
        """The piece's bytes of its file, decoded as the whole file would be."""
        try:
            with open(self.location, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read(self.length)
        except OSError as exc:
            raise GameError(f"{self.location}: cannot read: {exc.strerror or exc}") from None
        if self.is_pgn():
            pieces = data.split(b"\n")
            last = pieces.pop()
            text = "".join(sources.pgn_line(raw + b"\n") for raw in pieces) + \
                sources.pgn_line(last)
        else:
            from gametool.core import storage

            text = storage.decode(data, self.path, self.first_line)
        return text.lstrip("\ufeff") if self.offset == 0 else text


def parts(path: str, size: int | None = None) -> list[Part]:
    """``path`` as one part, or, when it is larger than ``size`` bytes (default
    :data:`PART_BYTES`), as pieces of whole records (or PGN games) of about ``size`` bytes
    each. A piece of a file is its place in the file, read where the work runs, so that the
    list stays small whatever the file's size; standard input's pieces carry their text."""
    return list(stream_parts(path, size, ranges=path != "-"))


def stream_parts(path: str, size: int | None = None, ranges: bool = False) -> Iterator[Part]:
    """A file as parts of whole records (or PGN games) of about ``size`` bytes, read as they
    are needed: a file of any size is worked through in little memory. A small file is one
    part, read where the work runs. With ``ranges`` (a file, not standard input) each part is
    its place in the file, read where the work runs too: the parts of a file of any size
    take little memory even all together."""
    size = PART_BYTES if size is None else size
    if path != "-" and not sources.is_compressed(path):  # a compressed file is a stream
        try:
            if os.path.getsize(path) <= size:
                yield Part(path)
                return
        except OSError:
            yield Part(path)  # the work reports why it cannot be read
            return
        if ranges:
            yield from _ranges(path, size)
            return
    starts = Starts(is_pgn(path))
    found = starts.starts
    buffer: list[str] = []
    taken = number = count = begun = 0  # count: the lines of buffer; begun: where its game
    first = 1
    games: list[tuple[int, int]] = []
    blanks: list[str] = []  # empty lines not yet in buffer
    runs: list[str] = []  # and those before them, joined 4,096 at a time
    blank_lines = run_size = 0
    for block in sources.line_blocks(path):
        for line in block:
            if not line.strip() and not starts.comment:
                found(line)  # an empty line ends a game's tags
                if buffer:
                    blanks.append(line)
                    blank_lines += 1
                    if blank_lines & 0xFFF == 0:  # a long run: joined a piece at a time
                        runs.append("".join(blanks))
                        run_size += len(runs[-1])
                        blanks = []
                        _bounded(path, taken + run_size - begun, first + count + blank_lines)
                else:
                    first += 1  # an empty line before the part's first game is left out
                continue
            if blank_lines:
                joined = "".join(runs + blanks)
                buffer.append(joined)
                taken += len(joined)
                count += blank_lines
                blanks, runs, blank_lines, run_size = [], [], 0, 0
            if found(line) and buffer:
                if taken >= size:
                    yield Part(path, "".join(buffer), first, number, starts=tuple(games))
                    number += 1
                    first += count
                    buffer, taken, count, games = [], 0, 0, []
                else:
                    games.append((count, taken))
                begun = taken
            buffer.append(line)
            taken += len(line)
            count += 1
            if len(line) > 4096:
                _bounded(path, taken - begun, first + count)
    if buffer or number == 0:
        yield Part(path, "".join(buffer), first, number, starts=tuple(games))


def _bounded(path: str, held: int, line: int) -> None:
    from gametool.pgn.reader import MAX_GAME_CHARACTERS

    if held > MAX_GAME_CHARACTERS:
        name = "<stdin>" if path == "-" else path
        raise GameError(f"{name}:{line}: a game of more than {MAX_GAME_CHARACTERS:,} "
                        "characters (empty lines counted): not a record nor a PGN game")


def _ranges(path: str, size: int) -> Iterator[Part]:
    """The parts of a file as places in it (see :func:`stream_parts`): its lines are read
    one by one only to find where records start (what is structure is ASCII, so each line is
    read as Latin-1, which never fails; the work decodes its part as the file)."""
    starts = Starts(is_pgn(path))
    try:
        handle = open(path, "rb")  # noqa: SIM115
    except OSError:
        yield Part(path)  # the work reports why it cannot be read
        return
    with handle:
        offset = begin = taken = number = 0
        first = 1
        for line_number, raw in enumerate(handle, start=1):
            line = raw[3:] if line_number == 1 and raw.startswith(b"\xef\xbb\xbf") else raw
            if starts.starts(line.decode("latin-1")) and taken >= size:
                yield Part(path, None, first, number, begin, offset - begin)
                number += 1
                begin, taken, first = offset, 0, line_number
            offset += len(raw)
            taken += len(raw)
        yield Part(path, None, first, number, begin, offset - begin)


def run(function: Callable[[T], R], items: Sequence[T], jobs: int = 1,
        scheduler: str | None = None, ordered: bool = True) -> Iterator[R]:
    """``function`` over ``items``: the results in the order of ``items`` (or, when
    not ``ordered``, as each is done).

    With ``scheduler`` the work goes to Dask (an address ``tcp://host:8786``, or ``local:N``
    for a local cluster of N worker processes); else to ``jobs`` processes; else it runs here.
    Interrupted (Ctrl-C, SIGTERM, or the caller closing the iterator), the worker processes
    are stopped before it returns.
    """
    if scheduler is not None:
        return _on_dask(function, items, scheduler, ordered)
    if jobs > 1 and len(items) > 1:
        return _in_processes(function, items, jobs, ordered)
    return (function(item) for item in items)


def _in_processes(function: Callable[[T], R], items: Sequence[T], jobs: int,
                  ordered: bool = True) -> Iterator[R]:
    """The results from a pool of ``jobs`` processes that ignore Ctrl-C and are terminated
    (never waited for) when the run stops early. The processes start at once, before the
    caller starts any thread of its own (a process forked beside a thread can inherit a lock
    that thread held)."""
    results = _pooled(function, items, min(jobs, len(items)), ordered)
    next(results)  # the pool started, inside the generator that terminates it
    return results


def _pooled(function: Callable[[T], R], items: Sequence[T], workers: int,
            ordered: bool) -> Iterator[Any]:
    """None once the pool has started, then the results. The pool is made inside the ``try``
    whose ``finally`` terminates it: a signal held back while it forks, and raised as soon as
    it has, still finds it guarded."""
    import multiprocessing

    from gametool.core import interrupt

    pool = None
    try:
        with interrupt.held():  # a worker is born deaf to Ctrl-C, not after a moment
            pool = multiprocessing.Pool(workers, interrupt.worker_setup, (os.getpid(),))
        yield None
        if ordered:
            yield from pool.imap(function, items,
                                 chunksize=max(1, len(items) // (workers * 8)))
        else:
            yield from pool.imap_unordered(function, items)
        pool.close()
        pool.join()
    finally:
        if pool is not None:
            pool.terminate()


def check_scheduler(address: str) -> None:
    """Refuse an address that is neither ``local:N`` nor a scheduler URL, before any work."""
    if address.startswith("local:"):
        count = address.partition(":")[2]
        if not count.isdigit() or int(count) < 1:
            raise GameError(f"--scheduler {address}: write local:N with N workers, e.g. local:4")
    elif "://" not in address:
        raise GameError(f"--scheduler {address}: expected a scheduler address such as "
                        "tcp://host:8786, or local:N")


@contextmanager
def client(address: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address``, or of a new local cluster (``local:N``),
    closed (and the local cluster stopped) on leaving."""
    check_scheduler(address)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise GameError("--scheduler needs Dask: pip install 'gametool[dask]'") from None
    cluster = None
    try:
        if address.startswith("local:"):
            import warnings
            from multiprocessing import resource_tracker

            from gametool.core import interrupt

            # The local workers' semaphores are tracked by a process of multiprocessing's:
            # started here with no terminal, it tells nobody of an interrupted run's leftovers.
            with interrupt.quiet_children():
                resource_tracker.ensure_running()
            with warnings.catch_warnings():
                # Its HTTP server takes another port when 8787 is taken: nothing to report.
                warnings.filterwarnings("ignore", message="Port .* is already in use")
                cluster = LocalCluster(n_workers=int(address.partition(":")[2]),
                                       threads_per_worker=1, dashboard_address=None,
                                       preload=["gametool.core.interrupt"])
            connected = Client(cluster)
        else:
            connected = Client(address, timeout="10s")
    except OSError as exc:
        if cluster is not None:
            cluster.close()
        raise GameError(f"--scheduler {address}: cannot reach the scheduler ({exc})") from None
    from gametool.core import interrupt

    try:
        yield connected
    except BaseException as exc:
        if isinstance(exc, interrupt.Interrupted) or interrupt.stopping():
            if cluster is not None:  # end the local workers now, with no goodbyes
                import logging

                logging.disable(logging.CRITICAL)  # the scheduler would lament each one
                interrupt.end_descendants()
        else:
            _close(connected, cluster)
        raise
    _close(connected, cluster)


def _close(connected: Any, cluster: Any) -> None:
    connected.close()
    if cluster is not None:
        cluster.close()


def _worker() -> str:
    """The address of the Dask worker this runs on (its host's name elsewhere)."""
    try:
        from dask.distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        import socket

        return socket.gethostname()


def located(items: Sequence[T]) -> list[T]:
    """The items, each part of a file named by a relative path given the client's folder, to
    be read on workers started in other folders (as every cluster's are)."""
    folder = os.getcwd()
    return [replace(item, folder=folder)  # type: ignore[misc]
            if isinstance(item, Part) and item.text is None and item.path != "-"
            and not os.path.isabs(item.path) else item for item in items]


def _on_dask(function: Callable[[T], R], items: Sequence[T], address: str,
             ordered: bool = True) -> Iterator[R]:
    items = located(items)
    with client(address) as connected:
        futures = connected.map(function, items, pure=False)
        if ordered:
            for future in futures:
                yield future.result()
        else:
            from dask.distributed import as_completed

            for future in as_completed(futures):
                yield future.result()
