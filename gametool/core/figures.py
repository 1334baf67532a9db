"""Figure shapes as data: named silhouettes a diagram may ask for, drawn once per picture.

A shape is a list of strokes in a 100 by 100 box, each a kind and an SVG path: ``"body"`` is
filled with the piece's fill and outlined with its outline colour, ``"stroke"`` is a broad line
in the outline colour, ``"line"`` is a detail drawn in the ink colour (the colour that stands
out on the fill), ``"dot"`` is filled with the ink.
The renderer defines each shape a picture uses once and places it wherever it stands, so a long
replay page holds each silhouette once. Games choose shapes by name; nothing here knows a game
or a rule: a name is only a drawing.

All shapes were drawn for this project.
"""

from __future__ import annotations

BASE = "M22,80 H78 Q80,80 80,82 V90 H20 V82 Q20,80 22,80 Z"
"""The plinth that every standing figure has."""


def _circle(cx: float, cy: float, r: float) -> str:
    return f"M{cx - r:g},{cy:g} a{r:g},{r:g} 0 1,0 {2 * r:g},0 a{r:g},{r:g} 0 1,0 {-2 * r:g},0 Z"


SHAPES: dict[str, tuple[tuple[str, str], ...]] = {
    "pawn": (
        ("body", "M42,44 H58 C58,56 66,66 70,78 H30 C34,66 42,56 42,44 Z"),
        ("body", "M36,42 H64 Q66,45 64,48 H36 Q34,45 36,42 Z"),
        ("body", _circle(50, 30, 12)),
        ("body", BASE),
    ),
    "rook": (
        ("body", "M33,46 H67 L65,78 H35 Z"),
        ("body", "M26,16 H37 V25 H45 V16 H55 V25 H63 V16 H74 V38 L68,46 H32 L26,38 Z"),
        ("line", "M31,38 H69"),
        ("body", BASE),
    ),
    "bishop": (
        ("body", "M40,62 H60 C62,68 66,72 68,78 H32 C34,72 38,68 40,62 Z"),
        ("body", "M36,56 H64 V63 H36 Z"),
        ("body", "M50,17 C64,28 68,42 61,56 H39 C32,42 36,28 50,17 Z"),
        ("body", _circle(50, 12, 5)),
        ("line", "M56,28 L46,42"),
        ("body", BASE),
    ),
    "knight": (
        ("body", "M30,78 C30,64 38,57 46,51 C38,53 31,54 26,51 C20,47 21,41 25,37 L42,23"
                 " C44,17 48,11 53,10 L56,16 C70,20 78,34 77,54 C76,64 73,72 73,78 Z"),
        ("dot", _circle(44, 29, 3.2)),
        ("line", "M58,18 C68,28 71,44 67,62"),
        ("line", "M28,45 L31,44"),
        ("body", BASE),
    ),
    "queen": (
        ("body", "M27,78 L20,34 L33,58 L35,24 L45,55 L50,18 L55,55 L65,24 L67,58 L80,34"
                 " L73,78 Z"),
        ("body", _circle(20, 31, 4.5)),
        ("body", _circle(35, 21, 4.5)),
        ("body", _circle(50, 14, 4.5)),
        ("body", _circle(65, 21, 4.5)),
        ("body", _circle(80, 31, 4.5)),
        ("line", "M29,70 H71"),
        ("body", BASE),
    ),
    "king": (
        ("body", "M46,6 H54 V14 H62 V22 H54 V34 H46 V22 H38 V14 H46 Z"),
        ("body", "M28,78 C22,60 28,44 42,40 H58 C72,44 78,60 72,78 Z"),
        ("line", "M30,64 H70"),
        ("line", "M50,42 V62"),
        ("body", BASE),
    ),
    "trojan-horse": (
        # a wooden horse standing on a wheeled board: a whole horse, not a knight's head
        ("body", "M14,70 H86 V78 H14 Z"),
        ("body", "M27,70 V52 C25,50 20,50 17,54 C18,46 24,42 30,44 C33,40 38,38 44,38 H60"
                 " L62,26 C61,22 58,19 58,16 L70,12 C76,13 82,20 84,28 L82,32 C80,34 77,34"
                 " 74,32 L72,46 C72,52 70,56 70,70 H62 V56 H36 V70 Z"),
        ("dot", _circle(70, 20, 2.6)),
        ("line", "M36,46 H64"),
        ("body", _circle(27, 85, 7)),
        ("body", _circle(73, 85, 7)),
        ("dot", _circle(27, 85, 2)),
        ("dot", _circle(73, 85, 2)),
    ),
    # suit signs of tiles, drawn in the tile's ink (fill) with a dark outline
    "bamboo": (
        ("body", "M40,8 H60 V30 H56 V34 H60 V62 H56 V66 H60 V92 H40 V66 H44 V62 H40 V34"
                 " H44 V30 H40 Z"),
        ("line", "M44,19 H56 M44,48 H56 M44,79 H56"),
    ),
    "circle": (
        ("body", _circle(50, 50, 40)),
        ("line", _circle(50, 50, 24)),
        ("dot", _circle(50, 50, 9)),
    ),
    "character": (
        # a brush sign of ten thousand, abstracted to strokes
        ("stroke", "M18,28 H82 M38,12 V42 M62,12 V42 M24,50 H76 M50,50 C48,70 38,82 20,90"
                 " M36,64 H70 C70,78 66,88 56,90"),
    ),
    "wind": (
        # a compass rose: the four winds
        ("body", "M50,4 L60,40 L96,50 L60,60 L50,96 L40,60 L4,50 L40,40 Z"),
        ("dot", _circle(50, 50, 7)),
    ),
    "dragon": (
        # a coiled dragon reduced to a flame: a drop with a curl
        ("body", "M50,4 C66,24 86,40 82,64 C78,86 60,96 46,94 C28,92 16,78 18,60 C20,44 34,38"
                 " 40,26 C44,36 44,44 52,50 C56,36 56,20 50,4 Z"),
        ("line", "M40,72 C44,82 60,82 62,68"),
    ),
    "frame": (
        ("body", "M14,14 H86 V86 H14 Z M26,26 V74 H74 V26 Z"),
    ),
    "flower": (
        ("body", _circle(50, 28, 16) + _circle(28, 50, 16) + _circle(72, 50, 16)
         + _circle(50, 72, 16)),
        ("dot", _circle(50, 50, 10)),
    ),
}
"""Every shape by name."""


SIGNS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c", "bishop": "\u265d",
         "knight": "\u265e", "pawn": "\u265f"}
"""The Unicode sign (the filled one) of the shapes that have one, for text boards."""


def shape(name: str) -> tuple[tuple[str, str], ...]:
    """The strokes of the shape ``name`` (a KeyError names an unknown shape)."""
    return SHAPES[name]
