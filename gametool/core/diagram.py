"""Diagrams: a position described as plain data, for pictures and text boards.

A game builds a :class:`Diagram` from its view of a position (so it holds only what the seat
may see); :mod:`gametool.views.svg` draws any diagram as SVG and :mod:`gametool.views.render` draws its
boards as text. Nothing here draws anything: these are values, and a diagram compares equal to
another of the same position, which is how the last action is found and highlighted.

Styles are names, not colours: ``"light"`` and ``"dark"`` for the two sides of a board game,
``"seat0"`` to ``"seat3"`` for seats, the colour names of :data:`COLOUR_STYLES` for pieces that
are colours in the rules, ``"red"``/``"black"`` for cards, ``"neutral"`` for anything else. The
renderer maps each name to a fill, a shape and a label, so no reader depends on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLOUR_STYLES = ("red", "orange", "yellow", "green", "blue", "purple", "black", "white")
"""Styles named after a colour, for pieces whose colour is a rule (Colors, suits)."""


@dataclass(frozen=True)
class Piece:
    """Something on a cell or a point: a label, a style, a shape and how many are stacked.

    ``shape`` is ``"disc"``, ``"square"``, ``"triangle"``, ``"diamond"``, ``"glyph"`` (the label
    alone, large: chess pieces), ``"card"`` (a small card face), ``"mark"`` (a shot: ``o`` or
    ``x``) or ``"fill"`` (the whole cell painted).
    """

    label: str = ""
    style: str = "neutral"
    shape: str = "disc"
    count: int = 1
    text: str = ""
    """The piece on a text board when it differs from ``label`` (a chess glyph's letter)."""
    figure: str = ""
    """A shape of :mod:`gametool.core.figures` (``"king"``) drawn for the piece, filling its cell;
    ``shape`` then only tells the legend's sign."""


@dataclass(frozen=True)
class Grid:
    """A rectangular board: column labels left to right, row labels top to bottom, and the
    pieces by (column, row), row 0 at the top as the board is read by the first seat."""

    files: tuple[str, ...]
    ranks: tuple[str, ...]
    cells: dict[tuple[int, int], Piece] = field(default_factory=dict)
    title: str = ""
    checkered: bool = False
    flippable: bool = False
    """True for boards whose sides face each other (chess): turned for the second seat."""
    marked: frozenset[tuple[int, int]] = frozenset()
    """Cells the rules single out (a knot, a special point), drawn hatched."""
    highlight: frozenset[tuple[int, int]] = frozenset()
    """Cells changed by the last action; filled in by the renderer's caller, not by games."""
    board: str = ""
    """How the squares look: ``""`` plain (grey when checkered), ``"wood"`` light and dark
    squares of a chess board."""
    alert: frozenset[tuple[int, int]] = frozenset()
    """Cells in danger that a player must see at once (a king in check), drawn with a red
    ring as well as hatched."""


@dataclass(frozen=True)
class Point:
    """One point of a track: its number, the pieces on it, and whether the rules mark it.

    A point with ``at`` is drawn where it stands on a board (see :class:`Track`): ``at`` is the
    middle of its base, in point widths, and ``toward`` the direction, in degrees clockwise from
    right, in which it runs from its base and its pieces stack. ``kind`` is ``"spike"`` (a
    point of a tables board) or ``"tray"`` (a box beside the board: a bar, a hand, pieces borne
    off), ``shade`` 0 or 1 the alternating colour of spikes."""

    label: str
    pieces: tuple[Piece, ...] = ()
    marked: bool = False
    highlight: bool = False
    at: tuple[float, float] | None = None
    toward: float = 90.0
    kind: str = "spike"
    shade: int = 0


@dataclass(frozen=True)
class Track:
    """A race track. Without positions its points are drawn as rows of boxes (each row left to
    right); when its points have ``at`` they are drawn where they stand, on the board whose
    shapes ``outline`` gives (polygons in point widths, the first the board itself)."""

    rows: tuple[tuple[Point, ...], ...]
    title: str = ""
    outline: tuple[tuple[tuple[float, float], ...], ...] = ()
    labels: str = "base"
    """Where positioned points carry their numbers: ``"base"`` or ``"tip"`` (beyond it)."""


@dataclass(frozen=True)
class Card:
    """A card, domino or tile. ``label`` is its face (``"KH"``, ``"3-5"``, ``"7k"``); an empty
    label with ``face_up=False`` is a back, which shows nothing but that it is there. ``count``
    above 1 draws a pile with its size."""

    label: str = ""
    style: str = "neutral"
    kind: str = "card"
    face_up: bool = True
    count: int = 1
    symbol: str = ""
    """A suit sign or other mark drawn beside the label (shape, not colour, tells suits)."""
    name: str = ""
    """The item in the game's notation (``KH``) when the label differs, kept as its title."""
    highlight: bool = False
    """Played, drawn or moved by the last action; set by the renderer's caller, not by games."""
    figure: str = ""
    """A shape of :mod:`gametool.core.figures` drawn on the face under the label (a tile's suit)."""
    across: bool = False
    """A domino laid crosswise (a double in a line of play)."""


@dataclass(frozen=True)
class Row:
    """A row of cards, dominoes or tiles under a title (a hand, a table, a chain, a pile).

    ``groups`` splits the items into labelled groups drawn side by side with a gap between
    (melds on a table): (label, number of items) in order; items beyond them form no group."""

    title: str
    items: tuple[Card, ...] = ()
    note: str = ""
    groups: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Panel:
    """A small table: a score sheet, counts, who holds what."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""


@dataclass(frozen=True)
class Note:
    """Lines of text under or beside the other parts."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Beside:
    """Parts drawn side by side, left to right."""

    parts: tuple[Part, ...]


Part = Grid | Track | Row | Panel | Note | Beside


@dataclass(frozen=True)
class Diagram:
    """A position: its parts top to bottom, and whether boards are seen from the second seat."""

    parts: tuple[Part, ...]
    flipped: bool = False
    legend: tuple[tuple[str, str], ...] = ()
    """(style, meaning) pairs: which side or seat each style stands for."""


SEAT_SHAPES = ("disc", "square", "triangle", "diamond")
"""One shape per seat, so seats differ by shape as well as by colour."""

SUITS = {"H": ("\u2665", "red"), "D": ("\u2666", "red"), "C": ("\u2663", "black"),
         "S": ("\u2660", "black")}
"""Suit letters of the card notation with their sign and colour."""


def seat_piece(seat: int, label: str = "", count: int = 1) -> Piece:
    """A piece of seat ``seat``: its style and its shape both tell whose it is."""
    return Piece(label, f"seat{seat}", SEAT_SHAPES[seat % len(SEAT_SHAPES)], count)


def playing_card(name: str, count: int = 1) -> Card:
    """A card of the French deck from its notation (``KH``, ``10D``): rank, suit sign, colour.
    Other suit letters keep their letter as the sign and a neutral style."""
    rank, suit = name[:-1], name[-1:].upper()
    symbol, style = SUITS.get(suit, (suit, "neutral"))
    return Card(rank, style, "card", True, count, symbol, name)


def back(count: int = 1, kind: str = "card") -> Card:
    """A face-down card, domino or tile (or a pile of ``count`` of them)."""
    return Card("", "neutral", kind, False, count)


def walk(parts: tuple[Part, ...]) -> list[Part]:
    """Every part, with those inside :class:`Beside` in order."""
    out: list[Part] = []
    for part in parts:
        if isinstance(part, Beside):
            out += walk(part.parts)
        else:
            out.append(part)
    return out


def square_cells(board: list[str] | tuple[str, ...], pieces: dict[str, Piece],
                 empty: str = ".") -> dict[tuple[int, int], Piece]:
    """Cells of a board given as rows of one character per cell, top row first, each
    character looked up in ``pieces`` (characters not found and ``empty`` are left out)."""
    cells = {}
    for row, line in enumerate(board):
        for col, char in enumerate(line):
            if char != empty and char in pieces:
                cells[(col, row)] = pieces[char]
    return cells


def board_grid(rows: list[str] | tuple[str, ...], pieces: dict[str, Piece], title: str = "",
               **options: object) -> Grid:
    """A board given as rows of one character per cell (top row first) with lettered files
    and numbered ranks, as most boards in the notation are written."""
    return Grid(letters(len(rows[0])), numbers_down(len(rows)), square_cells(rows, pieces),
                title, **options)  # type: ignore[arg-type]


def squares_at(names: list[str] | tuple[str, ...], nrows: int) -> frozenset[tuple[int, int]]:
    """The cells of square names such as ``e4`` on a board of ``nrows`` ranks."""
    return frozenset((ord(name[0].lower()) - ord("a"), nrows - int(name[1:])) for name in names)


def letters(count: int) -> tuple[str, ...]:
    return tuple("abcdefghijklmnopqrstuvwxyz"[:count])


def numbers_down(count: int) -> tuple[str, ...]:
    """Row labels for a board whose top row is ``count`` and bottom row 1."""
    return tuple(str(n) for n in range(count, 0, -1))
