"""The full grammar of a chess move (pyparsing): every spelling that ``san.COMMON`` does not read.

Loaded on first need: the common spellings of a record never load pyparsing.
"""

from __future__ import annotations

import pyparsing as pp

from gametool.games.chess.board import FILES
from gametool.games.chess.movetext import COMMON, MoveText, from_match
from notation import tokens


def _square(t: tokens.Square) -> int:
    if t.file > 7 or not 1 <= t.rank <= 8:
        raise pp.ParseException("", 0, f"square {t} is off the board")
    return (t.rank - 1) * 8 + t.file


def _sq(name: str, adjacent: bool = True) -> pp.ParserElement:
    el = tokens.square(8, 8).set_name(f"square ({name})")
    return el.leave_whitespace() if adjacent else el


def _char(chars: str, label: str, adjacent: bool = True) -> pp.ParserElement:
    el = pp.Char(chars).set_name(label)
    return el.leave_whitespace() if adjacent else el


def _promotion() -> pp.ParserElement:
    return pp.Opt(pp.Opt(_char("=", "'='")) + _char("QRBNqrbn", "promotion piece")("promo"))


def _build(parts: pp.ParseResults, kind: str) -> MoveText:
    # Squares are taken in order (a named tuple does not survive as a named result).
    squares = [_square(t) for t in parts if isinstance(t, tokens.Square)]
    promo = " NBRQ".index(parts["promo"].upper()) if "promo" in parts else 0
    frm = squares[0] if len(squares) == 2 else None
    to = squares[-1]
    ff = FILES.index(parts["ff"]) if "ff" in parts else (frm & 7 if frm is not None else None)
    fr = int(parts["fr"]) - 1 if "fr" in parts else (frm >> 3 if frm is not None else None)
    piece = parts.get("piece")
    if kind == "pawn":
        piece = "P"
    capture = str(parts.get("cap", "")).lower() == "x"
    return MoveText(kind, piece, ff, fr, to, promo, capture=capture)


def _builder(kind: str):  # noqa: ANN202
    def build(parts: pp.ParseResults) -> MoveText:
        return _build(parts, kind)

    return build


def _castle(parts: pp.ParseResults) -> MoveText:
    text = parts[0].upper().replace("0", "O")
    return MoveText("castle", "K", None, None, None, 0, kingside=text == "O-O")


def move_grammar() -> pp.ParserElement:
    """One chess move with optional check and annotation marks (ignored)."""
    piece = _char("KQRBN", "piece letter", adjacent=False)("piece")
    capture = pp.Opt(_char("xX", "'x'")("cap"))
    # The first character decides: an upper-case K Q R B N is always a piece letter.
    not_piece = pp.NotAny(pp.Char("KQRBN"))
    sep = pp.Opt(_char("-xX", "'-' or 'x'")("cap"))
    castle = pp.Regex(r"(O-O-O|O-O|0-0-0|0-0|o-o-o|o-o)(?![-\w])").set_name("castling")
    castle.set_parse_action(_castle)
    forms = [
        (piece + _sq("from") + sep + _sq("to"), "long"),
        (not_piece + _sq("from", adjacent=False) + sep + _sq("to") + _promotion(), "long"),
        (piece + _char(FILES, "file")("ff") + capture + _sq("to"), "piece"),
        (piece + _char("12345678", "rank")("fr") + capture + _sq("to"), "piece"),
        (piece + capture + _sq("to"), "piece"),
        (_char(FILES, "file", adjacent=False)("ff") + capture + _sq("to") + _promotion(), "pawn"),
        (not_piece + _sq("to", adjacent=False) + _promotion(), "pawn"),
    ]
    alternatives = [castle]
    for element, kind in forms:
        element = element.copy()
        element.set_parse_action(_builder(kind))
        alternatives.append(element)
    marks = pp.Opt(pp.Regex(r"[+#]+[!?]*|[!?]+").leave_whitespace().set_name("check mark"))
    move = pp.MatchFirst(alternatives).set_name("chess move")
    return _FastOrFull(common_move(), (move + marks.suppress()).set_name("chess move"))


def _common(parts: pp.ParseResults) -> MoveText:
    return from_match(parts[0])


def common_move() -> pp.ParserElement:
    """The common spellings of a move with its marks, as one regular expression."""
    el = pp.Regex(COMMON, as_match=True).set_name("chess move")
    el.set_parse_action(_common)
    return el


class _FastOrFull(pp.ParserElement):
    """``fast`` where it matches, else ``full`` (whose error, unchanged, is the one raised)."""

    def __init__(self, fast: pp.ParserElement, full: pp.ParserElement) -> None:
        super().__init__()
        self.fast, self.full = fast, full
        self.mayReturnEmpty = full.mayReturnEmpty
        self.mayIndexError = False
        self.set_name("chess move")

    def _generateDefaultName(self) -> str:  # noqa: N802
        return "chess move"

    def recurse(self) -> list[pp.ParserElement]:
        return [self.fast, self.full]

    def streamline(self) -> _FastOrFull:
        super().streamline()
        self.fast.streamline()
        self.full.streamline()
        return self

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True):  # noqa: ANN201, N802
        try:
            return self.fast._parse(instring, loc, do_actions, callPreParse=False)
        except pp.ParseException:
            return self.full._parse(instring, loc, do_actions, callPreParse=False)



MOVE = move_grammar()
CLAIM_WORD = pp.CaselessKeyword("claim-draw").set_name("'claim-draw'")
CLAIM_WORD.set_parse_action(lambda: "claim")
ACTION = ((CLAIM_WORD + pp.Opt(MOVE)) | MOVE).set_name("chess action")
