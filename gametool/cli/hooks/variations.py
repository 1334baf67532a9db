"""``show --variations``: the variations that replace the ply shown, after its comment."""

from __future__ import annotations

import copy
from typing import Any

import click


def with_variations(session: Any, as_seat: str | None, value: bool) -> Any:
    """The session to show, marked to list the variations of its plies (a copy: the record
    is shared, not changed)."""
    view = copy.copy(session)
    view.show_variations = True
    return view


OPTIONS = {
    "show": [(click.Option(["--variations", "variations"], is_flag=True,
                           help="Also list the record's variations that replace the ply "
                           "shown, each on one line."), with_variations)],
}
