"""A commentator's arrows and circles on a board (``[%cal Ge2e4]``, ``[%csl Rd5]``), drawn into
a board's picture by :mod:`gametool.views.svg`: an arrow from the middle of one square to the
middle of another, a ring around a square, in the commentator's colour."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable

from gametool.core.diagram import Grid

MARK_COLOURS = {"G": "#009E73", "R": "#D55E00", "Y": "#E69F00", "B": "#0072B2"}
"""Green, red, yellow and blue as the commentators' letters name them (Okabe-Ito tones)."""


def draw(g: ET.Element, marks: tuple[tuple[str, ...], ...], part: Grid, cell: float,
         corner: Callable[[int, int], tuple[float, float]]) -> bool:
    """Draws into ``g`` the ``marks`` whose squares are all on ``part`` (``corner`` gives a
    square's top left corner by column and row); whether any was."""
    names = {f"{file}{rank}": (c, r) for c, file in enumerate(part.files)
             for r, rank in enumerate(part.ranks)}
    drawn = [mark for mark in marks if all(square in names for square in mark[1:])]
    if not drawn:
        return False
    layer = ET.SubElement(g, "g", {"class": "marks"})

    def middle(square: str) -> tuple[float, float]:
        x, y = corner(*names[square])
        return x + cell / 2, y + cell / 2

    for colour, *squares in drawn:
        ink = MARK_COLOURS.get(colour, MARK_COLOURS["G"])
        if len(squares) == 1 or squares[0] == squares[-1]:
            cx, cy = middle(squares[0])
            ET.SubElement(layer, "circle", {
                "cx": f"{cx:g}", "cy": f"{cy:g}", "r": f"{cell * 0.45:g}", "fill": "none",
                "stroke": ink, "stroke-width": f"{cell * 0.07:g}", "stroke-opacity": "0.85",
                "data-mark": f"{colour}{squares[0]}"})
            continue
        (x1, y1), (x2, y2) = middle(squares[0]), middle(squares[1])
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        head, width = cell * 0.42, cell * 0.16
        bx, by = x2 - ux * head, y2 - uy * head  # where the head begins
        px, py = -uy, ux
        points = [(x1 + px * width / 2, y1 + py * width / 2),
                  (bx + px * width / 2, by + py * width / 2),
                  (bx + px * head / 1.6, by + py * head / 1.6), (x2, y2),
                  (bx - px * head / 1.6, by - py * head / 1.6),
                  (bx - px * width / 2, by - py * width / 2),
                  (x1 - px * width / 2, y1 - py * width / 2)]
        ET.SubElement(layer, "polygon", {
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points), "fill": ink,
            "fill-opacity": "0.8", "data-mark": f"{colour}{squares[0]}{squares[1]}"})
    return True
