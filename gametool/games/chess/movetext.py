"""A chess move as written, before any position: the parts a text names, and the regular
expression that reads its common spellings (SAN, long algebraic, UCI).

Both readers build on this: :mod:`san` (the common spellings, and the legal move a text names
in a position) and :mod:`san_grammar` (the full grammar, for every other spelling).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class MoveText(NamedTuple):
    """A move as written: its form and the parts it names (None: not named)."""

    kind: str  # "castle", "piece", "pawn" or "long"
    piece: str | None  # upper-case piece letter; "P" for a pawn move
    from_file: int | None
    from_rank: int | None
    to: int | None
    promo: int  # 0: none named; 1-4: N, B, R, Q
    kingside: bool = False
    capture: bool = False  # an 'x' was written


# The common spellings (lower-case files, squares on the board), each form matched exactly as
# the full grammar's first matching alternative reads it, up to a blank or the end; anything
# else is left to the full grammar.
_KINGSIDE = ("O-O", "0-0", "o-o")
_PROMO = r"(?:=?(?P<{}>[QRBNqrbn]))?"
_COMMON = (
    r"(?:(?P<castle>O-O-O|O-O|0-0-0|0-0|o-o-o|o-o)"
    r"|(?P<lp>[KQRBN])(?P<lf>[a-h][1-8])(?P<lx>[-xX])?(?P<lt>[a-h][1-8])"
    r"|(?P<piece>[KQRBN])(?:(?P<ff>[a-h])|(?P<fr>[1-8]))?(?P<px>[xX])?(?P<pt>[a-h][1-8])"
    r"|(?P<uf>[a-h][1-8])(?P<ux>[-xX])?(?P<ut>[a-h][1-8])" + _PROMO.format("up") +
    r"|(?P<cf>[a-h])(?P<cx>[xX])?(?P<ct>[a-h][1-8])" + _PROMO.format("cp") +
    r"|(?P<to>[a-h][1-8])" + _PROMO.format("tp") +
    r")(?:[+#]+[!?]*|[!?]+)?(?![^ \t\r\n])"
)
COMMON = re.compile(_COMMON)


def _index(name: str) -> int:
    return (int(name[1]) - 1) * 8 + ord(name[0]) - 97


def _promo_index(letter: str | None) -> int:
    return " NBRQ".index(letter.upper()) if letter else 0


def from_match(match: re.Match[str]) -> MoveText:
    """The move that a match of ``COMMON`` names."""
    g = match.group
    if g("castle"):
        return MoveText("castle", "K", None, None, None, 0, kingside=g("castle") in _KINGSIDE)
    if g("lp"):
        frm = _index(g("lf"))
        return MoveText("long", g("lp"), frm & 7, frm >> 3, _index(g("lt")), 0,
                        capture=g("lx") in ("x", "X"))
    if g("piece"):
        ff, fr = g("ff"), g("fr")
        return MoveText("piece", g("piece"), None if ff is None else ord(ff) - 97,
                        None if fr is None else int(fr) - 1, _index(g("pt")), 0,
                        capture=g("px") is not None)
    if g("uf"):
        frm = _index(g("uf"))
        return MoveText("long", None, frm & 7, frm >> 3, _index(g("ut")), _promo_index(g("up")),
                        capture=g("ux") in ("x", "X"))
    if g("cf"):
        return MoveText("pawn", "P", ord(g("cf")) - 97, None, _index(g("ct")),
                        _promo_index(g("cp")), capture=g("cx") is not None)
    return MoveText("pawn", "P", None, None, _index(g("to")), _promo_index(g("tp")))
