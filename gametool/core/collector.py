"""Python's cyclic garbage collector, run less often while an archive is read or checked.

Reading a game makes a few small objects a move (positions, turn lines, steps), which live
until the game is written and form no cycle. With Python's first threshold of 700 the collector
walks them several times over before they are freed; an import of random archives spent about
a tenth of its time there. While :func:`fewer_collections` is in force the first threshold is
10,000: the collector still runs, every game's worth of objects or so, and whatever cycles a
game leaves (an error's traceback) are still freed. Nested or concurrent uses (threads) keep
the raised threshold until the last one ends, and then the threshold before the first is put
back.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FIRST_THRESHOLD = 10_000
_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The collector's first threshold at FIRST_THRESHOLD (when it was lower) inside."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            old = gc.get_threshold()
            _saved = old if 0 < old[0] < FIRST_THRESHOLD else None
            if _saved is not None:
                gc.set_threshold(FIRST_THRESHOLD, old[1], old[2])
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                if gc.get_threshold()[0] == FIRST_THRESHOLD:  # nobody else changed it meanwhile
                    gc.set_threshold(*_saved)
                _saved = None
