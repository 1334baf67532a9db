"""Any :class:`~gametool.core.diagram.Diagram` drawn as one SVG picture, with xml.etree.

Parts are laid out top to bottom (side by side inside :class:`~gametool.core.diagram.Beside`). The
colours are the Okabe-Ito palette, which readers with any common colour-vision deficiency tell
apart; every style also differs by shape or label, so a grey print loses nothing. The last
action's cells carry a thick outline as well as a tint. Figure shapes (:mod:`gametool.core.figures`)
are defined once per picture and placed by ``<use>``; dominoes are drawn with their pips; a
track whose points have positions is drawn as a board where they stand. :func:`to_svg` gives a
whole picture; :func:`render_defs` and :func:`render_body` split it for a page that holds the
definitions once. This module returns text and writes no file; it knows no game.
"""

from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gametool.core import figures
from gametool.core.diagram import (
    Beside,
    Card,
    Diagram,
    Grid,
    Note,
    Panel,
    Part,
    Piece,
    Point,
    Row,
    Track,
    walk,
)

SVG_NS = "http://www.w3.org/2000/svg"

PALETTE: dict[str, tuple[str, str]] = {
    # style: (fill, ink on it)
    "light": ("#ffffff", "#000000"),
    "dark": ("#000000", "#ffffff"),
    "seat0": ("#E69F00", "#000000"),
    "seat1": ("#56B4E9", "#000000"),
    "seat2": ("#009E73", "#ffffff"),
    "seat3": ("#CC79A7", "#000000"),
    "red": ("#D55E00", "#ffffff"),
    "orange": ("#E69F00", "#000000"),
    "yellow": ("#F0E442", "#000000"),
    "green": ("#009E73", "#ffffff"),
    "blue": ("#0072B2", "#ffffff"),
    "purple": ("#CC79A7", "#000000"),
    "black": ("#000000", "#ffffff"),
    "white": ("#ffffff", "#000000"),
    "neutral": ("#bbbbbb", "#000000"),
}
"""Fill and ink per style; a caller may pass its own mapping to :func:`to_svg`."""

INK = {"red": "#D55E00", "black": "#000000", "blue": "#0072B2", "green": "#009E73"}
"""Text colour of a card face by style (others are black)."""

SQUARE_LIGHT, SQUARE_DARK, LINE = "#eeeeee", "#b0b0b0", "#555555"
BOARDS = {"wood": ("#f0dcb4", "#b5855a")}
"""Light and dark squares of a :class:`~gametool.core.diagram.Grid` by its ``board``: the usual
strong contrast of a chess board, told apart by lightness alone."""
ALERT = "#D55E00"
TABLE_FILL, FIELD_FILL, TRAY_FILL = "#dcc9a0", "#efe6d2", "#c9b68c"
SPIKE_FILLS = ("#fbf6ea", "#8c6a48")
SUIT_INK = {"green": "#009E73", "blue": "#0072B2", "red": "#D55E00", "black": "#000000"}
HIGHLIGHT_FILL, HIGHLIGHT_LINE = "#F0E442", "#0072B2"
BACK_FILL, BACK_LINE = "#0072B2", "#ffffff"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

PIPS: dict[str, tuple[tuple[int, int], ...]] = {
    "0": (),
    "1": ((0, 0),),
    "2": ((-1, -1), (1, 1)),
    "3": ((-1, -1), (0, 0), (1, 1)),
    "4": ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    "5": ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    "6": ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
    "7": ((-1, -1), (0, -1), (1, -1), (0, 0), (-1, 1), (0, 1), (1, 1)),
    "8": ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    "9": tuple((u, v) for v in (-1, 0, 1) for u in (-1, 0, 1)),
}
"""The pips of a domino's half on a 3 by 3 grid (column, row), as dominoes show them."""

CARD_STYLE = (".cf{stroke:#000000;stroke-width:1.2}"
              ".pip{fill:#000000}"
              f".cb{{fill:{BACK_FILL};stroke:#000000;stroke-width:1}}"
              ".cl{font-weight:bold;text-anchor:middle}")

CELL = 40
"""The side of a board's square in a picture of its natural size (see :func:`cell_size`)."""
BOARD = 8 * CELL
"""A board of fewer than eight squares a side is drawn as wide as a board of eight (a 3 by 3
board would be a stamp at 40 pixels a square)."""
MARGIN = 24
GAP = 16
LINE_HEIGHT = 18
CARD_W, CARD_H = 40, 56
DOMINO_W, DOMINO_H = 64, 32
TILE_W, TILE_H = 36, 50
PER_LINE = 14
ROW_WIDTH = 560
POINT_W, STACK_SHOWN = 34, 5
UNIT, PIECE_STEP = 26, 0.84
"""A positioned track's point width in pixels, and the distance between stacked pieces in
point widths."""


_RUNS = re.compile(r" {2,}")

Marks = tuple[tuple[str, ...], ...]
"""Arrows and circles on a board: (colour letter, from square, to square) for an arrow,
(colour letter, square) for a circle, as a commentator's ``[%cal]`` and ``[%csl]`` write them."""


def cell_size(ncols: int, nrows: int, size: float | None = None) -> float:
    """The side of a square of a board of ``ncols`` by ``nrows``: its long side ``size``
    pixels when given, else :data:`CELL`, and at least :data:`BOARD` pixels in all."""
    longest = max(ncols, nrows, 1)
    if size is not None:
        return size / longest
    return max(CELL, BOARD / longest)


def text_width(text: str, size: float) -> float:
    return len(text) * size * 0.62


def _pts(corners: list[tuple[float, float]] | tuple[tuple[float, float], ...]) -> str:
    """Corners in point widths as an SVG list of points in pixels."""
    return " ".join(f"{x * UNIT:.1f},{y * UNIT:.1f}" for x, y in corners)


class _Box:
    """An SVG group with its size, placed by its parent."""

    def __init__(self, width: float, height: float) -> None:
        self.group = ET.Element("g")
        self.width = width
        self.height = height


@functools.cache
def _attribute_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _el(parent: ET.Element, tag: str, **attrs: object) -> ET.Element:
    clean = {_attribute_name(key): value if isinstance(value, str) else str(value)
             for key, value in attrs.items()}
    return ET.SubElement(parent, tag, clean)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float = 14,
          anchor: str = "start", fill: str = "#000000", weight: str = "normal",
          cls: str = "") -> ET.Element:
    node = _el(parent, "text", x=f"{x:g}", y=f"{y:g}", font_size=f"{size:g}")
    # defaults (start, black, normal) are left out to keep long replay pages small
    if anchor != "start":
        node.set("text-anchor", anchor)
    if fill != "#000000":
        node.set("fill", fill)
    if weight != "normal":
        node.set("font-weight", weight)
    if cls:
        node.set("class", cls)
    # a run of blanks keeps its width in every viewer (some collapse it despite white-space)
    node.text = _RUNS.sub(lambda m: " " + "\u00a0" * (len(m.group()) - 1), text)
    return node


class Renderer:
    """Draws the parts of one diagram; ``palette`` overrides :data:`PALETTE` entries."""

    def __init__(self, palette: Mapping[str, tuple[str, str]] | None = None,
                 flipped: bool = False, ids: str = "", size: float | None = None,
                 marks: Marks = (), fit: bool = False) -> None:
        self.palette = {**PALETTE, **(palette or {})}
        self.flipped = flipped
        self.ids = ids
        self.size = size
        """The long side of every board's squares, in pixels (None: :func:`cell_size`)."""
        self.cell: float = CELL
        """The side of a square of the board being drawn."""
        self.marks = marks
        """Arrows and circles drawn on the first board whose squares they name."""
        self.fit = fit
        """Titles never widen a part: one too long for its part is cut (a page's picture)."""
        self.key = (ids, tuple(sorted((palette or {}).items())))
        """What a shared drawing depends on beyond its own arguments (see _shared)."""
        self.used: set[str] = set()
        """The figure shapes drawn, to be defined once in the picture's ``<defs>``."""

    def figure(self, parent: ET.Element, name: str, x: float, y: float, size: float,
               fill: str, ink: str, outline: str = "#000000") -> ET.Element:
        """The shape ``name`` of :mod:`gametool.core.figures` in the square of ``size`` at (x, y):
        defined once per picture, placed here by reference."""
        figures.shape(name)  # an unknown name fails here, not in a browser
        self.used.add(name)
        node = _el(parent, "use", href=f"#{self.ids}fig-{name}", x=f"{x:g}", y=f"{y:g}",
                   width=f"{size:g}", height=f"{size:g}", fill=fill, stroke=outline)
        node.set("color", ink)
        node.set("class", "fig")
        return node

    def colours(self, style: str) -> tuple[str, str]:
        return self.palette.get(style, self.palette["neutral"])

    # -- parts ------------------------------------------------------------------------------

    def part(self, part: Part) -> _Box:
        if isinstance(part, Beside):
            return self.beside(part)
        if isinstance(part, Grid):
            return self.grid(part)
        if isinstance(part, Track):
            return self.track(part)
        if isinstance(part, Row):
            return self.row(part)
        if isinstance(part, Panel):
            return self.panel(part)
        if isinstance(part, Note):
            return self.note(part)
        raise TypeError(f"not a diagram part: {part!r}")

    def stack(self, parts: tuple[Part, ...] | list[Part]) -> _Box:
        boxes = [self.part(p) for p in parts]
        box = _Box(max((b.width for b in boxes), default=0), 0)
        for child in boxes:
            if box.height:
                box.height += GAP
            child.group.set("transform", f"translate(0,{box.height:g})")
            box.group.append(child.group)
            box.height += child.height
        return box

    def beside(self, part: Beside) -> _Box:
        boxes = [self.part(p) for p in part.parts]
        box = _Box(0, max((b.height for b in boxes), default=0))
        for child in boxes:
            if box.width:
                box.width += GAP * 2
            child.group.set("transform", f"translate({box.width:g},0)")
            box.group.append(child.group)
            box.width += child.width
        return box

    def note(self, part: Note) -> _Box:
        width = max((text_width(line, 14) for line in part.lines), default=0)
        box = _Box(width, LINE_HEIGHT * len(part.lines))
        box.group.set("class", "note")
        for i, line in enumerate(part.lines):
            _text(box.group, 0, LINE_HEIGHT * i + 14, line)
        return box

    def panel(self, part: Panel) -> _Box:
        columns = len(part.headers)
        widths = [max([text_width(part.headers[c], 13)]
                      + [text_width(row[c] if c < len(row) else "", 13) for row in part.rows])
                  + 14 for c in range(columns)]
        top = LINE_HEIGHT if part.title else 0
        box = _Box(sum(widths), top + LINE_HEIGHT * (len(part.rows) + 1) + 4)
        box.group.set("class", "panel")
        if part.title:
            _text(box.group, 0, 14, part.title, weight="bold")
        _el(box.group, "line", x1=0, x2=f"{sum(widths):g}", y1=top + LINE_HEIGHT + 3,
            y2=top + LINE_HEIGHT + 3, stroke=LINE, stroke_width=1)
        for r, cells in enumerate([part.headers, *part.rows]):
            x = 0.0
            for c in range(columns):
                value = cells[c] if c < len(cells) else ""
                _text(box.group, x, top + LINE_HEIGHT * r + 14, value, size=13,
                      weight="bold" if r == 0 else "normal")
                x += widths[c]
        return box

    def grid(self, part: Grid) -> _Box:
        flip = self.flipped and part.flippable
        ncols, nrows = len(part.files), len(part.ranks)
        cell = self.cell = cell_size(ncols, nrows, self.size)
        top = LINE_HEIGHT + 4 if part.title else 0
        box = _Box(MARGIN + cell * ncols + 4, top + cell * nrows + MARGIN)
        box.group.set("class", "grid")
        g = box.group
        if part.title:
            _text(g, MARGIN, 14, self._fitted(part.title, cell * ncols), weight="bold")
        turn = _el(g, "g", **{"class": "turn"})  # what a page turns round (see the page's f)
        board = (self.key, "board", part.files, part.ranks, flip, top, part.checkered,
                 part.board, cell)
        plain = _BOARDS.get(board)
        if plain is None:  # each square as drawn unmarked, kept for the board's next picture
            holder = ET.Element("g")
            plain = _BOARDS[board] = [self._square_of(holder, part, col, row, flip, top, False)
                                      for col in range(ncols) for row in range(nrows)]
        special = part.marked | part.highlight | part.alert
        for index, elements in enumerate(plain):
            col, row = divmod(index, nrows)
            if (col, row) in special:
                self._square_of(turn, part, col, row, flip, top, True)
            else:
                turn.extend(elements)
        for (col, row), piece in sorted(part.cells.items()):
            x, y = self._cell_xy(col, row, ncols, nrows, flip, top)
            self.piece(turn, x + cell / 2, y + cell / 2, cell, piece)
        for col, row in sorted(part.highlight):
            x, y = self._cell_xy(col, row, ncols, nrows, flip, top)
            outline = _el(turn, "rect", x=x + 1.5, y=y + 1.5, width=cell - 3, height=cell - 3,
                          fill="none", stroke=HIGHLIGHT_LINE, stroke_width=3,
                          **{"class": "last"})
            outline.set("data-last", f"{part.files[col]}{part.ranks[row]}")
        self._shared(turn, (self.key, "frame", part.files, part.ranks, flip, top, cell),
                     lambda holder: self._frame(holder, part.files, part.ranks, flip, top))
        if self.marks:
            self._marks(turn, part, flip, top)
        return box

    def _marks(self, g: ET.Element, part: Grid, flip: bool, top: float) -> None:
        """The arrows and circles of :attr:`marks` whose squares are all on this board, drawn
        once, on the first such board (see :mod:`gametool.views.marks`)."""
        from gametool.views import marks

        if marks.draw(g, self.marks, part, self.cell,
                      lambda col, row: self._cell_xy(col, row, len(part.files),
                                                     len(part.ranks), flip, top)):
            self.marks = ()

    def _fitted(self, title: str, width: float, size: float = 14) -> str:
        """``title`` as a part of ``width`` shows it: whole, or in a page's picture cut to
        fit (the page writes the names out beside the picture)."""
        if not self.fit or text_width(title, size) <= width or width <= 0:
            return title
        keep = max(1, int(width / (size * 0.62)) - 1)
        return title[:keep].rstrip() + "\u2026"

    def _frame(self, g: ET.Element, files: tuple[str, ...], ranks: tuple[str, ...],
               flip: bool, top: float) -> None:
        """A board's outline and its coordinates, files below and ranks on the left."""
        ncols, nrows = len(files), len(ranks)
        cell = self.cell
        _el(g, "rect", x=MARGIN, y=top, width=cell * ncols, height=cell * nrows, fill="none",
            stroke="#000000", stroke_width=1.5)
        for col in range(ncols):
            x, _ = self._cell_xy(col, 0, ncols, nrows, flip, top)
            _text(g, x + cell / 2, top + cell * nrows + 17, files[col], size=13,
                  anchor="middle", cls="coord")
        for row in range(nrows):
            _, y = self._cell_xy(0, row, ncols, nrows, flip, top)
            _text(g, MARGIN - 5, y + cell / 2 + 5, ranks[row], size=13, anchor="end",
                  cls="coord")

    def _square_of(self, g: ET.Element, part: Grid, col: int, row: int, flip: bool,
                   top: float, special: bool) -> list[ET.Element]:
        """Draws the square of ``part`` at (col, row) into ``g`` (shared with other pictures,
        see _shared) and returns its elements; ``special``: marked, lit or ringed as the
        grid says, else plain."""
        ncols, nrows = len(part.files), len(part.ranks)
        x, y = self._cell_xy(col, row, ncols, nrows, flip, top)
        if part.checkered:
            shades = BOARDS.get(part.board, (SQUARE_LIGHT, SQUARE_DARK))
            fill = shades[0] if (col + row) % 2 == 0 else shades[1]
        else:
            fill = "#ffffff"
        where = (col, row)
        square = (x, y, fill, f"{part.files[col]}{part.ranks[row]}",
                  special and where in part.marked, special and where in part.highlight,
                  special and where in part.alert)
        count = len(g)
        self._shared(g, (self.key, "square", self.cell, *square),
                     lambda holder: self._square(holder, *square))
        return list(g[count:])

    def _square(self, g: ET.Element, x: float, y: float, fill: str, name: str, marked: bool,
                lit: bool, alert: bool) -> None:
        """A board's square: hatched where the rules mark it, shaded where the last action
        changed it, ringed where a piece on it is in danger."""
        cell = self.cell
        rect = _el(g, "rect", x=x, y=y, width=cell, height=cell, fill=fill,
                   stroke=LINE, stroke_width=0.5)
        rect.set("data-cell", name)
        if marked:
            _el(g, "rect", x=x, y=y, width=cell, height=cell, fill=f"url(#{self.ids}hatch)")
        if lit:
            _el(g, "rect", x=x, y=y, width=cell, height=cell, fill=HIGHLIGHT_FILL,
                fill_opacity=0.55)
        if alert:
            _el(g, "circle", cx=x + cell / 2, cy=y + cell / 2, r=cell / 2,
                fill=f"url(#{self.ids}alert)", **{"class": "alert"})
            _el(g, "rect", x=x + 1, y=y + 1, width=cell - 2, height=cell - 2,
                fill="none", stroke=ALERT, stroke_width=2, stroke_dasharray="4 2")

    def _cell_xy(self, col: int, row: int, ncols: int, nrows: int, flip: bool,
                 top: float) -> tuple[float, float]:
        if flip:
            col, row = ncols - 1 - col, nrows - 1 - row
        return MARGIN + col * self.cell, top + row * self.cell

    def piece(self, parent: ET.Element, cx: float, cy: float, size: float,
              piece: Piece) -> None:
        self._shared(parent, (self.key, "piece", cx, cy, size, piece),
                     lambda holder: self._piece(holder, cx, cy, size, piece))

    def _piece(self, parent: ET.Element, cx: float, cy: float, size: float,
               piece: Piece) -> None:
        fill, ink = self.colours(piece.style)
        g = _el(parent, "g", **{"class": "piece"})
        if piece.text or piece.label:
            ET.SubElement(g, "title").text = piece.text or piece.label
        if piece.figure:
            side = size * 0.9
            self.figure(g, piece.figure, cx - side / 2, cy - side / 2, side, fill, ink)
            if piece.count > 1:
                self._count(g, cx, cy, size, piece.count)
            return
        r = size * 0.38
        shape = piece.shape
        outline = {"stroke": "#000000", "stroke_width": 1.5}
        if shape == "fill":
            _el(g, "rect", x=cx - size / 2 + 1, y=cy - size / 2 + 1, width=size - 2,
                height=size - 2, fill=fill)
        elif shape == "disc":
            _el(g, "circle", cx=cx, cy=cy, r=r, fill=fill, **outline)
        elif shape == "square":
            _el(g, "rect", x=cx - r * 0.9, y=cy - r * 0.9, width=r * 1.8, height=r * 1.8,
                fill=fill, **outline)
        elif shape == "triangle":
            points = f"{cx:g},{cy - r:g} {cx + r:g},{cy + r * 0.8:g} {cx - r:g},{cy + r * 0.8:g}"
            _el(g, "polygon", points=points, fill=fill, **outline)
        elif shape == "diamond":
            points = f"{cx:g},{cy - r:g} {cx + r:g},{cy:g} {cx:g},{cy + r:g} {cx - r:g},{cy:g}"
            _el(g, "polygon", points=points, fill=fill, **outline)
        elif shape == "ring":
            _el(g, "circle", cx=cx, cy=cy, r=r * 0.45, fill="none", stroke="#000000",
                stroke_width=2)
        elif shape == "cross":
            d = r * 0.6
            _el(g, "path", d=f"M{cx - d:g},{cy - d:g}L{cx + d:g},{cy + d:g}"
                f"M{cx + d:g},{cy - d:g}L{cx - d:g},{cy + d:g}", stroke="#D55E00",
                stroke_width=4, fill="none")
        elif shape == "plus":
            d = r * 0.5
            _el(g, "path", d=f"M{cx - d:g},{cy:g}L{cx + d:g},{cy:g}M{cx:g},{cy - d:g}"
                f"L{cx:g},{cy + d:g}", stroke="#0072B2", stroke_width=3, fill="none")
        elif shape == "card":
            _el(g, "rect", x=cx - size * 0.4, y=cy - size * 0.45, width=size * 0.8,
                height=size * 0.9, rx=3, fill="#ffffff", stroke="#000000", stroke_width=1)
            ink = INK.get(piece.style, "#000000")
        if shape == "glyph":
            stroke = {"stroke": "#000000", "stroke_width": 1.2} if fill == "#ffffff" else {}
            node = _text(g, cx, cy + size * 0.3, piece.label, size=size * 0.8, anchor="middle",
                         fill=fill, cls="piece")
            for key, value in stroke.items():
                node.set(key.replace("_", "-"), str(value))
        elif piece.label:
            label_size = size * (0.42 if len(piece.label) <= 1 else 0.32)
            if shape == "triangle":
                label_size *= 0.75
                cy += r * 0.3
            if shape in ("ring", "cross", "plus"):
                label_size, ink = size * 0.3, "#000000"
                cy += r * 0.55
                cx += r * 0.55
            _text(g, cx, cy + label_size * 0.36, piece.label, size=label_size,
                  anchor="middle", fill=ink, weight="bold", cls="piece")
        if piece.count > 1:
            self._count(g, cx, cy, size, piece.count)

    @staticmethod
    def _count(g: ET.Element, cx: float, cy: float, size: float, count: int) -> None:
        _el(g, "rect", x=cx + size * 0.12, y=cy + size * 0.14, width=size * 0.38,
            height=size * 0.32, fill="#ffffff", stroke="#000000", stroke_width=0.8)
        _text(g, cx + size * 0.31, cy + size * 0.4, str(count), size=size * 0.27,
              anchor="middle", cls="count")

    def track(self, part: Track) -> _Box:
        if any(point.at is not None for row in part.rows for point in row):
            return self.board(part)
        top = LINE_HEIGHT + 4 if part.title else 0
        row_h = 20 + (POINT_W - 4) * STACK_SHOWN * 0.62 + 24
        width = max((len(r) for r in part.rows), default=0) * POINT_W
        box = _Box(width + 2, top + row_h * len(part.rows) + GAP * (len(part.rows) - 1))
        box.group.set("class", "track")
        if part.title:
            _text(box.group, 0, 14, part.title, weight="bold")
        y = float(top)
        for points in part.rows:
            for i, point in enumerate(points):
                self.point(box.group, 1 + i * POINT_W, y, row_h, point)
            y += row_h + GAP
        return box

    def point(self, g: ET.Element, x: float, y: float, height: float, point: Point) -> None:
        rect = _el(g, "rect", x=x, y=y, width=POINT_W, height=height, fill="#ffffff",
                   stroke=LINE, stroke_width=0.8)
        rect.set("data-point", point.label)
        if point.marked:
            _el(g, "rect", x=x, y=y, width=POINT_W, height=height,
                fill=f"url(#{self.ids}hatch)")
        if point.highlight:
            _el(g, "rect", x=x, y=y, width=POINT_W, height=height, fill=HIGHLIGHT_FILL,
                fill_opacity=0.55)
            _el(g, "rect", x=x + 2, y=y + 2, width=POINT_W - 4, height=height - 4, fill="none",
                stroke=HIGHLIGHT_LINE, stroke_width=3, **{"class": "last"})
        _text(g, x + POINT_W / 2, y + 15, point.label, size=12, anchor="middle", cls="coord")
        step = (POINT_W - 4) * 0.62
        cy = y + 20 + step / 2 + 2
        for piece in point.pieces:
            shown = min(piece.count, STACK_SHOWN)
            for n in range(shown):
                label = str(piece.count) if n == shown - 1 and piece.count > shown else (
                    piece.label)
                self.piece(g, x + POINT_W / 2, cy, POINT_W - 2,
                           Piece(label, piece.style, piece.shape))
                cy += step

    def board(self, part: Track) -> _Box:
        """A track whose points stand where the game puts them: the board's shapes, then each
        point (a spike or a tray) with its number outside its base and its pieces stacked from
        the base, at most as many as fit, the last of a taller stack showing the count."""
        points = [point for row in part.rows for point in row if point.at is not None]
        xs: list[float] = []
        ys: list[float] = []
        for polygon in part.outline:
            xs += [x for x, _y in polygon]
            ys += [y for _x, y in polygon]
        for point in points:
            for x, y in self._point_shape(point) + [self._label_at(point, part.labels)]:
                xs.append(x)
                ys.append(y)
        left, top = min(xs) - 0.8, min(ys) - 0.6
        title_h = LINE_HEIGHT + 4 if part.title else 0
        box = _Box((max(xs) + 0.8 - left) * UNIT, (max(ys) + 0.6 - top) * UNIT + title_h)
        box.group.set("class", "track")
        if part.title:
            _text(box.group, 0, 14, part.title, weight="bold")
        shift = _el(box.group, "g",
                    transform=f"translate({-left * UNIT:g},{title_h - top * UNIT:g})")
        g = _el(shift, "g", **{"class": "turn"})  # what a page turns round (see the page's f)

        for n, polygon in enumerate(part.outline):
            _el(g, "polygon", points=_pts(polygon), fill=TABLE_FILL if n == 0 else FIELD_FILL,
                stroke="#000000", stroke_width=1.5 if n == 0 else 1)
        for point in points:
            self._shared(g, (self.key, point, part.labels),
                         lambda holder, point=point: self._point(holder, point, part.labels))
        return box

    def _point(self, g: ET.Element, point: Point, labels: str) -> None:
        """A point of a positioned track, its label and its pieces."""
        corners = _pts(self._point_shape(point))
        fill = TRAY_FILL if point.kind == "tray" else SPIKE_FILLS[point.shade % 2]
        node = _el(g, "polygon", points=corners, fill=fill, stroke=LINE, stroke_width=0.8)
        node.set("data-point", point.label)
        if point.marked:
            _el(g, "polygon", points=corners, fill=f"url(#{self.ids}hatch)")
        if point.highlight:
            _el(g, "polygon", points=corners, fill=HIGHLIGHT_FILL, fill_opacity=0.55)
            _el(g, "polygon", points=corners, fill="none", stroke=HIGHLIGHT_LINE,
                stroke_width=3, stroke_linejoin="round", **{"class": "last"})
        lx, ly = self._label_at(point, labels)
        dx = math.cos(math.radians(point.toward))
        if labels == "tip" and point.kind != "tray":
            dx = -dx
        anchor = "end" if dx > 0.5 else "start" if dx < -0.5 else "middle"
        _text(g, lx * UNIT, ly * UNIT + 4, point.label, size=11, anchor=anchor,
              weight="bold" if point.marked else "normal", cls="coord")
        self._stack(g, point)

    @staticmethod
    def _point_shape(point: Point) -> list[tuple[float, float]]:
        """The corners of a point, in point widths: a spike from its base to its tip, or a
        tray as long as a spike."""
        assert point.at is not None
        x, y = point.at
        angle = math.radians(point.toward)
        dx, dy = math.cos(angle), math.sin(angle)
        px, py = -dy / 2, dx / 2
        reach = STACK_SHOWN * PIECE_STEP + 0.35
        if point.kind == "tray":
            px, py = px * 0.96, py * 0.96
            return [(x + px, y + py), (x + px + dx * reach, y + py + dy * reach),
                    (x - px + dx * reach, y - py + dy * reach), (x - px, y - py)]
        return [(x + px, y + py), (x + dx * reach, y + dy * reach), (x - px, y - py)]

    @staticmethod
    def _label_at(point: Point, where: str = "base") -> tuple[float, float]:
        assert point.at is not None
        angle = math.radians(point.toward)
        away = -0.45
        if where == "tip" and point.kind != "tray":
            away = STACK_SHOWN * PIECE_STEP + 0.35 + 0.4
        return point.at[0] + math.cos(angle) * away, point.at[1] + math.sin(angle) * away

    def _stack(self, g: ET.Element, point: Point) -> None:
        """A point's pieces from its base outwards; each seat's pieces one group that says
        how many they are (``data-count``)."""
        assert point.at is not None
        angle = math.radians(point.toward)
        dx, dy = math.cos(angle), math.sin(angle)
        slot = 0
        for n, piece in enumerate(point.pieces):
            group = _el(g, "g", **{"class": "stack"})
            group.set("data-count", str(piece.count))
            group.set("data-point", point.label)
            later = len(point.pieces) - n - 1  # each later seat keeps room for one
            shown = max(1, min(piece.count, STACK_SHOWN - slot - later))
            for k in range(shown):
                far = (slot + 0.5) * PIECE_STEP + 0.12
                label = (str(piece.count) if k == shown - 1 and piece.count > shown
                         else piece.label)
                self.piece(group, (point.at[0] + dx * far) * UNIT,
                           (point.at[1] + dy * far) * UNIT, PIECE_STEP * UNIT * 1.18,
                           Piece(label, piece.style, piece.shape, figure=piece.figure))
                slot += 1

    def row(self, part: Row) -> _Box:
        items = list(part.items)
        # units laid left to right: each group whole (with its label), else single items
        units: list[tuple[str, list[Card]]] = []
        at = 0
        for label, size in part.groups:
            units.append((label, items[at:at + size]))
            at += size
        units += [("", [card]) for card in items[at:]]
        gap, group_gap = 6.0, 18.0

        size = self._item_size
        widths = [sum(size(c)[0] + gap for c in unit) - gap for _l, unit in units]
        limit = max(ROW_WIDTH, max(widths, default=0))
        if not part.groups:
            limit = max(limit, PER_LINE * (max((size(c)[0] for c in items), default=0) + gap))
        lines: list[list[tuple[str, list[Card]]]] = [[]]
        x = 0.0
        for (label, unit), unit_width in zip(units, widths, strict=True):
            step = unit_width + (group_gap if label else gap)
            if lines[-1] and x + unit_width > limit:
                lines.append([])
                x = 0.0
            lines[-1].append((label, unit))
            x += step
        title = part.title + (f"  ({part.note})" if part.note else "")
        height = LINE_HEIGHT + 4
        tallest = max((self._item_size(c)[1] for c in items), default=0)
        item_h = tallest + (16 if any(c.count > 1 for c in items) else 0)
        label_h = 15 if part.groups else 0
        title = self._fitted(title, limit)
        width = text_width(title, 14)
        box = _Box(0, 0)
        box.group.set("class", "row")
        _text(box.group, 0, 14, title, weight="bold")
        for line in lines:
            x = 0.0
            for label, unit in line:
                if label:
                    _text(box.group, x, height + 11, label, size=12, cls="group")
                for card in unit:
                    w, h = self._item_size(card)
                    self.card(box.group, x, height + label_h + (tallest - h) / 2, card)
                    x += w + gap
                x += group_gap - gap if label else 0
            width = max(width, x)
            height += label_h + item_h + gap
        box.width, box.height = width, height
        return box

    @staticmethod
    def _item_size(card: Card) -> tuple[float, float]:
        if card.kind == "domino":
            return (DOMINO_H, DOMINO_W) if card.across else (DOMINO_W, DOMINO_H)
        if card.kind == "tile":
            return TILE_W, TILE_H
        return CARD_W, CARD_H

    def card(self, g: ET.Element, x: float, y: float, card: Card) -> None:
        """A card, domino or tile at (x, y). A long game draws the same ones at the same
        places picture after picture: each is drawn once (up to ``DRAWN_KEPT``) and its
        elements, and their text, are shared by the pictures that show it."""
        self._shared(g, (self.key, x, y, card), lambda holder: self._card(holder, x, y, card))

    def _shared(self, g: ET.Element, key: tuple[Any, ...],
                draw: Callable[[ET.Element], None]) -> None:
        """What ``draw`` draws into ``g``, drawn once for ``key`` and shared afterwards."""
        found = _DRAWN.get(key)
        if found is None:
            holder = ET.Element("g")
            used, self.used = self.used, set()
            draw(holder)
            found = (list(holder), frozenset(self.used))
            self.used = used
            if len(_DRAWN) >= DRAWN_KEPT:
                _DRAWN.clear()
                _WRITTEN.clear()
                _BOARDS.clear()
            _DRAWN[key] = found
            for element in found[0]:
                text: list[str] = []
                _write(element, text)
                _WRITTEN[id(element)] = "".join(text)
        self.used |= found[1]
        g.extend(found[0])

    def _card(self, g: ET.Element, x: float, y: float, card: Card) -> None:
        w, h = self._item_size(card)
        if card.count > 1:
            for shift in (4, 2):
                _el(g, "rect", x=x + shift, y=y - shift, width=w, height=h, rx=4,
                    fill="#ffffff", stroke="#000000", stroke_width=0.8)
        item = _el(g, "g", **{"class": "item " + ("face" if card.face_up else "back")})
        if not card.face_up:
            _el(item, "rect", x=x, y=y, width=w, height=h, rx=4, **{"class": "cb"})
            _el(item, "rect", x=x + 3, y=y + 3, width=w - 6, height=h - 6, rx=3,
                fill=f"url(#{self.ids}back)", stroke=BACK_LINE, stroke_width=1)
        else:
            fill = {"tile": "#fffbe6", "domino": "#fffdf6"}.get(card.kind, "#ffffff")
            _el(item, "rect", x=x, y=y, width=w, height=h, rx=4, fill=fill, **{"class": "cf"})
            ink = INK.get(card.style, "#000000")
            if card.kind == "domino":
                self.domino(item, x, y, w, h, card)
            elif card.figure:  # a tile: its number or letter over its suit's sign
                ink = SUIT_INK.get(card.style, ink)
                side = 24 if card.label else 30
                if card.label:
                    _text(item, x + w / 2, y + 19, card.label, size=17, fill=ink, cls="cl")
                self.figure(item, card.figure, x + (w - side) / 2,
                            y + (h - side - 5 if card.label else (h - side) / 2), side, ink,
                            "#ffffff", outline=ink)
                if card.symbol:
                    _text(item, x + w - 3, y + 12, card.symbol, size=13, anchor="end")
            else:
                _text(item, x + w / 2, y + 20, card.label, size=15 if len(card.label) < 3
                      else 12, fill=ink, cls="cl")
                if card.symbol:
                    _text(item, x + w / 2, y + h - 10, card.symbol, size=20, anchor="middle",
                          fill=ink)
            ET.SubElement(item, "title").text = card.name or card.label
            if card.highlight:
                outline = _el(item, "rect", x=x - 3, y=y - 3, width=w + 6, height=h + 6, rx=6,
                              fill="none", stroke=HIGHLIGHT_LINE, stroke_width=3,
                              **{"class": "last"})
                outline.set("data-last", card.name or card.label)
        if card.count > 1:
            _text(g, x + w / 2, y + h + 14, f"\u00d7{card.count}", size=12, anchor="middle",
                  cls="count")

    def domino(self, item: ET.Element, x: float, y: float, w: float, h: float,
               card: Card) -> None:
        """The two halves of a domino, each with its pips in the usual layout (a half that is
        not a number from 0 to 9 is written); crosswise, the first half on top."""
        halves = (card.label.split("-", 1) + [""])[:2]
        across = h > w
        side = min(w, h)
        if across:
            _el(item, "line", x1=x + 4, x2=x + w - 4, y1=y + h / 2, y2=y + h / 2,
                stroke="#000000", stroke_width=1.2)
        else:
            _el(item, "line", x1=x + w / 2, x2=x + w / 2, y1=y + 4, y2=y + h - 4,
                stroke="#000000", stroke_width=1.2)
        for n, half in enumerate(halves):
            hx = x + side / 2 + (0 if across else n * side)
            hy = y + side / 2 + (n * side if across else 0)
            layout = PIPS.get(half) if half.isdigit() else None
            if layout is None:
                _text(item, hx, hy + 6, half, size=17, cls="cl")
                continue
            step = side * 0.27
            for u, v in layout:
                if across:  # rows of a six run along the domino's length
                    u, v = v, u
                _el(item, "circle", cx=f"{hx + u * step:g}", cy=f"{hy + v * step:g}",
                    r=f"{side * 0.085:g}", **{"class": "pip"})

    def legend(self, pairs: tuple[tuple[str, str], ...], shapes: dict[str, str],
               signs: Mapping[str, str] | None = None) -> _Box:
        box = _Box(0, 26)
        x = 0.0
        for style, meaning in pairs:
            self.piece(box.group, x + 11, 12, 24, Piece("", style, shapes.get(style, "disc"),
                                                        figure=(signs or {}).get(style, "")))
            _text(box.group, x + 26, 17, meaning, size=13)
            x += 34 + text_width(meaning, 13)
        box.width = x
        return box


def _defs(root: ET.Element, ids: str, used: Iterable[str] = ()) -> ET.Element:
    """The patterns every picture may use, and the figure shapes ``used``, each once."""
    defs = _el(root, "defs")
    hatch = _el(defs, "pattern", id=f"{ids}hatch", width=6, height=6,
                patternUnits="userSpaceOnUse", patternTransform="rotate(45)")
    _el(hatch, "line", x1=0, y1=0, x2=0, y2=6, stroke="#555555", stroke_width=1.5)
    cross = _el(defs, "pattern", id=f"{ids}back", width=8, height=8,
                patternUnits="userSpaceOnUse", patternTransform="rotate(45)")
    _el(cross, "path", d="M0,4H8M4,0V8", stroke=BACK_LINE, stroke_width=1.2)
    glow = _el(defs, "radialGradient", id=f"{ids}alert")
    _el(glow, "stop", offset="0.35", stop_color=ALERT, stop_opacity=1)
    _el(glow, "stop", offset="1", stop_color=ALERT, stop_opacity=0)
    for name in sorted(used):
        symbol = _el(defs, "symbol", id=f"{ids}fig-{name}", viewBox="0 0 100 100")
        for kind, path in figures.shape(name):
            if kind == "body":
                _el(symbol, "path", d=path, stroke_width=3.5, stroke_linejoin="round")
            elif kind == "line":
                _el(symbol, "path", d=path, fill="none", stroke="currentColor", stroke_width=4,
                    stroke_linecap="round")
            elif kind == "stroke":
                _el(symbol, "path", d=path, fill="none", stroke_width=8, stroke_linecap="round",
                    stroke_linejoin="round")
            else:
                _el(symbol, "path", d=path, fill="currentColor", stroke="none")
    return defs


def _legend_figures(diagram: Diagram) -> dict[str, str]:
    """For a style whose pieces on boards are figures, the rarest of them (a chess side's
    king), which the legend shows."""
    counts: dict[str, dict[str, int]] = {}
    for part in walk(diagram.parts):
        if isinstance(part, Grid):
            for piece in part.cells.values():
                if piece.figure:
                    seen = counts.setdefault(piece.style, {})
                    seen[piece.figure] = seen.get(piece.figure, 0) + 1
    return {style: min(sorted(seen), key=seen.__getitem__) for style, seen in counts.items()}


def _legend_shapes(diagram: Diagram) -> dict[str, str]:
    """The shape each style has on the board, so the legend shows the same piece."""
    from gametool.core.diagram import walk

    shapes: dict[str, str] = {}
    for part in walk(diagram.parts):
        pieces: list[Piece] = []
        if isinstance(part, Grid):
            pieces = list(part.cells.values())
        elif isinstance(part, Track):
            pieces = [p for row in part.rows for point in row for p in point.pieces]
        for piece in pieces:
            shape = piece.shape if piece.shape in ("square", "triangle", "diamond") else "disc"
            if shapes.get(piece.style, "disc") == "disc" or shape == "disc":
                shapes[piece.style] = shape if piece.style not in shapes else "disc"
    return shapes


def _body(diagram: Diagram, flipped: bool | None,
          palette: Mapping[str, tuple[str, str]] | None, ids: str,
          size: float | None = None, marks: Marks = (),
          fit: bool = False) -> tuple[Renderer, _Box]:
    renderer = Renderer(palette, diagram.flipped if flipped is None else flipped, ids, size,
                        marks, fit)
    body = renderer.stack(list(diagram.parts))
    if diagram.legend:
        legend = renderer.legend(diagram.legend, _legend_shapes(diagram),
                                 _legend_figures(diagram))
        legend.group.set("transform", f"translate(0,{body.height + GAP:g})")
        body.group.append(legend.group)
        body.height += GAP + legend.height
        body.width = max(body.width, legend.width)
    return renderer, body


def _root(width: float, height: float, title: str) -> ET.Element:
    root = ET.Element("svg", {
        "xmlns": SVG_NS, "version": "1.1", "width": f"{width:g}", "height": f"{height:g}",
        "viewBox": f"0 0 {width:g} {height:g}", "font-family": FONT,
        "style": "white-space:pre", "{http://www.w3.org/XML/1998/namespace}space": "preserve",
    })
    if title:
        ET.SubElement(root, "title").text = title
    return root


DRAWN_KEPT = 20_000
"""Cards, dominoes, tiles and a track's points drawn at one place, kept to be drawn again (see
Renderer._shared)."""
_DRAWN: dict[tuple[Any, ...], tuple[list[ET.Element], frozenset[str]]] = {}
_BOARDS: dict[tuple[Any, ...], list[list[ET.Element]]] = {}
"""Each board's plain squares (as _DRAWN keeps them), square by square, for its next picture."""
_WRITTEN: dict[int, str] = {}
"""The text of each element kept in ``_DRAWN``, by its id (a kept element stays alive, so its
id is its own for as long as it is kept)."""

_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def _cdata(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                                    "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"})
_PLAIN_VALUE = re.compile(r'[^&<>"\r\n\t]*\Z')


def _write(element: ET.Element, out: list[str]) -> None:
    """``element`` as ElementTree writes it (the same text, without its namespace pass: a
    picture names no namespace but SVG's own and ``xml:``)."""
    known = _WRITTEN.get(id(element))
    if known is not None:
        out.append(known)
        return
    tag = element.tag
    out.append("<" + tag)
    for key, value in element.attrib.items():
        if not _PLAIN_VALUE.match(value):
            value = value.translate(_ATTRIBUTE_ESCAPES)
        out.append(f' {"xml:space" if key == _XML_SPACE else key}="{value}"')
    text = element.text
    if text or len(element):
        out.append(">")
        if text:
            out.append(_cdata(text))
        for child in element:
            _write(child, out)
        out.append(f"</{tag}>")
    else:
        out.append(" />")
    if element.tail:
        out.append(_cdata(element.tail))


def _text_of(root: ET.Element) -> str:
    out: list[str] = []
    _write(root, out)
    out.append("\n")
    return "".join(out)


def to_svg(diagram: Diagram, title: str = "", flipped: bool | None = None,
           palette: Mapping[str, tuple[str, str]] | None = None, ids: str = "",
           size: float | None = None, marks: Marks = (), fit: bool = False,
           pad: float = GAP) -> str:
    """The SVG text of ``diagram``, a whole picture with its own definitions; ``flipped``
    overrides the diagram's own orientation; ``ids`` prefixes the picture's ids, so several
    pictures can share one page. ``size`` is the long side of every board's squares (None:
    :func:`cell_size`), ``marks`` arrows and circles on the board, ``fit`` cuts titles that
    would widen their part, and ``pad`` is the blank border around the picture."""
    return _picture(diagram, title, flipped, palette, ids, True, size, marks, fit, pad)


def render_body(diagram: Diagram, title: str = "", flipped: bool | None = None,
                palette: Mapping[str, tuple[str, str]] | None = None, ids: str = "") -> str:
    """The picture of ``diagram`` without its definitions (patterns, figure shapes, styles):
    for a page that holds them once, from :func:`render_defs` with the same ``ids``."""
    return _picture(diagram, title, flipped, palette, ids, False)


def render_defs(diagrams: Iterable[Diagram], ids: str = "") -> str:
    """An invisible SVG holding, once, the definitions every picture of ``diagrams`` drawn by
    :func:`render_body` with the same ``ids`` refers to (a replay page puts it first)."""
    used = set()
    for diagram in diagrams:
        used |= figures_used(diagram)
    root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1", "width": "0", "height": "0",
                              "style": "position:absolute", "aria-hidden": "true"})
    ET.SubElement(root, "style").text = CARD_STYLE
    _defs(root, ids, used)
    return _text_of(root)


def figures_used(diagram: Diagram) -> set[str]:
    """The figure shapes a diagram's pieces and cards ask for."""
    used: set[str] = set()
    for part in walk(diagram.parts):
        if isinstance(part, Grid):
            used |= {p.figure for p in part.cells.values() if p.figure}
        elif isinstance(part, Track):
            used |= {p.figure for row in part.rows for point in row for p in point.pieces
                     if p.figure}
        elif isinstance(part, Row):
            used |= {c.figure for c in part.items if c.figure}
    return used


def _picture(diagram: Diagram, title: str, flipped: bool | None,
             palette: Mapping[str, tuple[str, str]] | None, ids: str, whole: bool,
             size: float | None = None, marks: Marks = (), fit: bool = False,
             pad: float = GAP) -> str:
    renderer, body = _body(diagram, flipped, palette, ids, size, marks, fit)
    width, height = body.width + 2 * pad, body.height + 2 * pad
    root = _root(width, height, title)
    if whole:
        # card faces, backs and labels are many in a long game's page: styled once, by class
        ET.SubElement(root, "style").text = CARD_STYLE
        _defs(root, renderer.ids, renderer.used)
    _el(root, "rect", width=f"{width:g}", height=f"{height:g}", fill="#ffffff",
        **{"class": "ground"})
    body.group.set("transform", f"translate({pad:g},{pad:g})")
    root.append(body.group)
    return _text_of(root)
