"""Where each space of a race board stands in its picture: a tables board for two seats
(Tawula), a triangle for three (Track Gammon), with each seat's hand, bar and bear-off trays.

Positions are in point widths, y downwards; directions in degrees clockwise from right (90 is
down the page). These are the boards as they lie on a table; the renderer only draws points
where they are told to stand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gametool.games.race.geometry import Geometry

Spot = tuple[tuple[float, float], float]
"""A point's base (x, y) and the direction in which it runs."""


@dataclass(frozen=True)
class Layout:
    """Where a race board's spaces and trays are drawn, and its outline."""

    spaces: tuple[Spot, ...]
    """Each space's spot, by 0-based space."""
    trays: dict[tuple[int, str], Spot]
    """Each seat's ``hand``, ``bar`` and ``off`` tray."""
    outline: tuple[tuple[tuple[float, float], ...], ...]


def layout(geo: Geometry) -> Layout:
    """The board of ``geo``: two seats on a tables board, three on a triangle."""
    if geo.seats == 3 and geo.spaces % 3 == 0:
        return triangle(geo)
    return tables(geo)


def tables(geo: Geometry) -> Layout:
    """A tables board seen from the first seat: the first half of the spaces along the far
    edge from right to left, the second half along the near edge from left to right, the bar
    between the quarters; hands and bear-off trays beside the board, the first seat's on the
    right (its home is the last quarter, near right), the second's on the left."""
    half = geo.spaces // 2
    quarter = half // 2
    depth = 11.0
    spaces: list[Spot] = []
    for s in range(geo.spaces):
        if s < half:  # far edge, right to left, pointing down
            col = half - 1 - s
            x = col + 0.5 + (1 if col >= quarter else 0)
            spaces.append(((x, 0.0), 90.0))
        else:
            col = s - half
            x = col + 0.5 + (1 if col >= quarter else 0)
            spaces.append(((x, depth), 270.0))
    width = half + 1.0
    trays: dict[tuple[int, str], Spot] = {
        (0, "hand"): ((width + 0.9, 0.25), 90.0),
        (0, "off"): ((width + 0.9, depth - 0.25), 270.0),
        (0, "bar"): ((quarter + 0.5, 0.25), 90.0),
        (1, "bar"): ((quarter + 0.5, depth - 0.25), 270.0),
        (1, "off"): ((-0.9, 0.25), 90.0),
        (1, "hand"): ((-0.9, depth - 0.25), 270.0),
    }
    board = ((0.0, 0.0), (width, 0.0), (width, depth), (0.0, depth))
    bar = ((quarter, 0.0), (quarter + 1.0, 0.0), (quarter + 1.0, depth), (quarter, depth))
    return Layout(tuple(spaces), trays, (board, bar))


SPACING = 1.6
"""Point widths between two spaces along a side of the triangle."""


def triangle(geo: Geometry) -> Layout:
    """A triangle whose corners are the seats' start spaces, numbered counter-clockwise as it
    lies (first corner bottom left, second bottom right, third at the top), each side's spaces
    pointing outwards and the corners along their bisectors, so the corners are drawn once;
    the inside holds each seat's hand, bar and bear-off trays near its own corner."""
    per_side = geo.spaces // 3
    side = per_side * SPACING
    height = side * math.sqrt(3) / 2
    corners = ((0.0, height), (side, height), (side / 2, 0.0))
    normals = (90.0, 330.0, 210.0)  # outwards from the bottom, right and left sides
    bisectors = (150.0, 30.0, 270.0)  # outwards from each corner
    spaces: list[Spot] = []
    for s in range(geo.spaces):
        k, step = divmod(s, per_side)
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 3]
        t = step / per_side
        at = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
        spaces.append((at, bisectors[k] if step == 0 else normals[k]))
    trays: dict[tuple[int, str], Spot] = {}
    length = 4.6  # a tray as drawn: five pieces and a margin
    for n, kind in enumerate(("off", "bar", "hand")):
        y = height - 0.9 - n * 1.05
        trays[(0, kind)] = ((side / 2 - 0.6 - length, y), 0.0)
        trays[(1, kind)] = ((side / 2 + 2.0, y), 0.0)
        trays[(2, kind)] = ((side / 2 - length / 2 + 0.7, y - 3.9), 0.0)
    reach = 5.9
    hull: list[tuple[float, float]] = []
    for k, (x, y) in enumerate(corners):
        for angle in (normals[(k - 1) % 3], bisectors[k], normals[k]):
            a = math.radians(angle)
            hull.append((x + reach * math.cos(a), y + reach * math.sin(a)))
    return Layout(tuple(spaces), trays, (tuple(hull), corners))
