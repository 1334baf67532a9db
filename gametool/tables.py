"""Tables for text views, drawn by tabulate, which is imported on the first table drawn.

Commands that print no table (``moves``, ``move``, ``validate``) never import it: importing
tabulate costs more than reading most records.
"""

from __future__ import annotations

from typing import Any


def tabulate(rows: Any, *args: Any, **kwargs: Any) -> str:
    """``tabulate.tabulate``, imported when first called."""
    from tabulate import tabulate as draw

    return draw(rows, *args, **kwargs)
