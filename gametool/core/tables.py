"""Tables for text views, drawn by tabulate, which is imported on the first table drawn.

Commands that print no table (``moves``, ``move``, ``validate``) never import it: importing
tabulate costs more than reading most records.

Drawing a table costs tabulate a look at the type of every cell, more than the rest of a view
together; a view drawn again (the same position shown to each seat, a table that stays the same
over the plies of a replay) is drawn once: the last tables drawn are remembered by their cells
and options.
"""

from __future__ import annotations

from typing import Any

_REMEMBERED = 256
"""Tables remembered; past that the memory starts again."""
_drawn: dict[tuple[Any, ...], str] = {}


def tabulate(rows: Any, *args: Any, **kwargs: Any) -> str:
    """``tabulate.tabulate``, imported when first called."""
    from tabulate import tabulate as draw

    key = _key(rows, args, kwargs)
    if key is None:
        return draw(rows, *args, **kwargs)
    text = _drawn.get(key)
    if text is None:
        if len(_drawn) >= _REMEMBERED:
            _drawn.clear()
        text = _drawn[key] = draw(rows, *args, **kwargs)
    return text


def _key(rows: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...] | None:
    """What the table drawn depends on, each value with its type (``1``, ``1.0`` and ``True``
    are drawn differently); None for a table given otherwise than as a list of rows of plain
    values, which is drawn every time."""
    if not isinstance(rows, list | tuple):
        return None
    try:
        key = (tuple(_values(row) for row in rows), _values(args),
               tuple((name, _value(value)) for name, value in sorted(kwargs.items())))
        hash(key)
    except TypeError:
        return None
    return key


def _values(row: Any) -> tuple[Any, ...]:
    if not isinstance(row, list | tuple):
        raise TypeError("not a row")
    return tuple(_value(cell) for cell in row)


def _value(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return (type(value), _values(value))
    return (type(value), value)
