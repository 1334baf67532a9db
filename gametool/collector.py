"""Python's cyclic garbage collector, paused while a record is built or checked.

Reading a game makes a few dozen small objects a move (positions, lines, texts), most of which
live on after it (the record, the positions the next game may reach again) and none of which
form a cycle. The collector would walk them again and again as they pile up: on a long archive
that is about a fifth of the time. It is paused over one record at a time and runs between
records as usual, so whatever cycle a record leaves (an error's traceback) is still freed.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block (when it was on), on again after it."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
