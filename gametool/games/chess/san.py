"""Chess moves as text: canonical SAN out; SAN, long algebraic and UCI in.

A regular expression reads the common spellings into a :class:`MoveText` (both in
``movetext``), and the full grammar (pyparsing, in ``san_grammar``, loaded on first need) the
others; :func:`resolve` finds the one legal move it names, or says why there is none or more
than one. Formatting uses the legal moves only, so disambiguation ignores pinned pieces (as PGN
does).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gametool.core.errors import AmbiguousAction, IllegalAction, MalformedAction
from gametool.games.chess.board import (
    EMPTY,
    FILES,
    PROMO_LETTERS,
    SQUARE_NAMES,
    in_check,
    legal_moves,
    make_move,
)
from gametool.games.chess.movetext import COMMON, MoveText, from_match
from gametool.games.chess.position import Position
from notation.fast import FastReader

PIECE_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}


# -- writing ---------------------------------------------------------------------------------


def san_body(pos: Position, m: int) -> str:
    """SAN without the check suffix (Super Horse Chess writes the suffix after the turn)."""
    board = pos.board
    f, t, promo = m & 63, (m >> 6) & 63, m >> 12
    piece = board[f].upper()
    if piece == "K" and abs(t - f) == 2:
        return "O-O" if t > f else "O-O-O"
    target = SQUARE_NAMES[t]
    if piece == "P":
        text = f"{FILES[f & 7]}x{target}" if (f ^ t) & 7 else target
        return text + (f"={PROMO_LETTERS[promo]}" if promo else "")
    where = disambiguation(f, pos.piece_moves_to(t, piece))
    capture = "x" if board[t] != EMPTY else ""
    return f"{piece}{where}{capture}{target}"


def disambiguation(f: int, moves: list[int]) -> str:
    """What SAN writes of the from-square ``f`` of a piece move, given the legal ``moves`` of
    that piece kind to the same square: nothing, the file, the rank, or the whole square."""
    rivals = [o & 63 for o in moves if o & 63 != f]
    if not rivals:
        return ""
    if all((r ^ f) & 7 for r in rivals):
        return FILES[f & 7]
    if all(r >> 3 != f >> 3 for r in rivals):
        return str((f >> 3) + 1)
    return SQUARE_NAMES[f]


def check_suffix(board: str, white: bool, castling: int, ep: int) -> str:
    """``#`` if the side to move is mated, ``+`` if in check, else nothing."""
    if not in_check(board, white):
        return ""
    return "+" if legal_moves(board, white, castling, ep) else "#"


def san(pos: Position, m: int) -> str:
    """Canonical SAN with its check suffix."""
    board, castling, ep, _z = make_move(pos.board, m, pos.white, pos.castling, pos.ep)
    return san_body(pos, m) + check_suffix(board, not pos.white, castling, ep)


# -- reading ---------------------------------------------------------------------------------


def resolve(pos: Position, mt: MoveText, text: str, strict: bool = True) -> int:
    """The one legal move ``mt`` names; IllegalAction or AmbiguousAction otherwise.

    ``strict`` (records) refuses what python-chess refuses: castling written as a king move in
    SAN (Kg1 for O-O) and an 'x' where nothing is taken. ``strict=False`` accepts both, for
    reading other tools' games."""
    board = pos.board
    side = "White" if pos.white else "Black"
    quoted = repr(text.strip())
    if mt.kind == "castle":
        rank = 0 if pos.white else 56
        m = (rank + 4) | (rank + (6 if mt.kingside else 2)) << 6
        # The king's move only: a rook or queen on the king's square has the same squares.
        if board[rank + 4] == ("K" if pos.white else "k") and m in pos.moves_to(m >> 6):
            return m
        name = "kingside" if mt.kingside else "queenside"
        raise IllegalAction(
            f"illegal move {quoted}: {side} cannot castle {name} here (castling needs the king "
            "and rook unmoved, the squares between them empty, and the king not in check, not "
            "passing through or landing on an attacked square)")
    cands = []
    castles = 0
    if mt.to is None:
        listed = pos.moves
    elif mt.kind != "long" and mt.piece is not None:
        listed = pos.piece_moves_to(mt.to, mt.piece)  # only that piece's moves can fit
    else:
        listed = pos.moves_to(mt.to)
    for m in listed:
        f = m & 63
        if (m >> 6) & 63 != mt.to:
            continue
        kind = board[f].upper()
        if strict and mt.kind == "piece" and kind == "K" and abs(mt.to - f) == 2:
            castles += 1  # SAN writes castling O-O or O-O-O, never as the king's move
            continue
        if mt.kind == "long":
            if f & 7 != mt.from_file or f >> 3 != mt.from_rank:
                continue
            if mt.piece is not None and kind != mt.piece:
                continue
        else:
            if kind != mt.piece:
                continue
            if mt.from_file is not None and f & 7 != mt.from_file:
                continue
            if mt.from_rank is not None and f >> 3 != mt.from_rank:
                continue
            if kind == "P" and mt.from_file is None and (f ^ mt.to) & 7:
                continue  # a pawn capture names the pawn's file
        cands.append(m)
    if cands and any(m >> 12 for m in cands):
        if not mt.promo:
            raise IllegalAction(f"illegal move {quoted}: a promotion must name the piece "
                                "(=Q, =R, =B or =N)")
        cands = [m for m in cands if m >> 12 == mt.promo]
    elif cands and mt.promo:
        raise IllegalAction(f"illegal move {quoted}: only a pawn reaching the last rank "
                            "promotes")
    if strict and mt.capture and cands and not any(_takes(board, m) for m in cands):
        raise IllegalAction(f"illegal move {quoted}: 'x' marks a capture, and nothing is taken "
                            f"on {SQUARE_NAMES[mt.to or 0]}")
    if len(cands) == 1:
        return cands[0]
    if not cands and castles:
        raise IllegalAction(f"illegal move {quoted}: castling is written "
                            f"{'O-O' if (mt.to or 0) & 7 == 6 else 'O-O-O'}, not as the king's "
                            "move")
    if not cands:
        what = PIECE_NAMES.get(mt.piece or "", "piece")
        if mt.kind == "long":
            what = "piece"
        why = (" (it would leave the king in check)" if _pseudo_reaches(pos, mt)
               else "")
        check = f"; {side} is in check" if pos.in_check() and not why else ""
        raise IllegalAction(f"illegal move {quoted}: no {what} of {side} can legally move "
                            f"to {SQUARE_NAMES[mt.to or 0]}{why}{check}")
    options = sorted(san(pos, m) for m in cands)
    raise AmbiguousAction(f"ambiguous move {quoted}: it fits {', '.join(options)}", options)


def _takes(board: str, m: int) -> bool:
    """Whether the legal move ``m`` captures (en passant included: a pawn moving sideways)."""
    f, t = m & 63, (m >> 6) & 63
    return board[t] != EMPTY or (board[f] in "Pp" and bool((f ^ t) & 7))


def _pseudo_reaches(pos: Position, mt: MoveText) -> bool:
    """Whether a matching move exists once king safety is ignored (for the error message).

    Generated for the same board with the own king moved off-board is not possible, so this
    asks the simpler question: does a matching piece attack or step to the square ignoring
    pins? A knight, bishop, rook or queen that could reach the square on an empty line."""
    if mt.kind != "piece" or mt.piece in ("K", "P") or mt.to is None:
        return False
    from gametool.games.chess.board import BISHOP_RAYS, KNIGHT, RAYS, ROOK_RAYS

    board = pos.board
    letter = mt.piece if pos.white else mt.piece.lower()
    target = mt.to
    if board[target] != EMPTY and (board[target] in ("PNBRQK" if pos.white else "pnbrqk")
                                   or board[target] in "*Hh"):
        return False
    if mt.piece == "N":
        return any(board[s] == letter for s in KNIGHT[target])
    rays = {"R": ROOK_RAYS, "B": BISHOP_RAYS, "Q": RAYS}[mt.piece][target]
    for ray in rays:
        for s in ray:
            if board[s] != EMPTY:
                if board[s] == letter:
                    return True
                break
    return False


def _fast_move(text: str) -> MoveText | None:
    """The common spellings, read by one regular expression; None for any other."""
    match = COMMON.fullmatch(text.strip())
    return None if match is None else from_match(match)


def _move_grammar() -> Any:
    from gametool.games.chess.san_grammar import MOVE

    return MOVE


_MOVES = FastReader(_fast_move, _move_grammar, lambda tokens, _text: tokens[0])
"""One chess move: the fast way, else the full grammar (pyparsing, loaded on first need)."""


@lru_cache(maxsize=1 << 14)
def parse_move_text(text: str) -> MoveText:
    """Read one chess move (memoised); MalformedAction with the column when it is not one.

    The common spellings are read by one regular expression; anything else goes to the full
    grammar (pyparsing), which is loaded on first need and names the error."""
    try:
        return _MOVES(text)
    except Exception as exc:  # NotationError, or an off-board square
        raise MalformedAction(f"malformed move {text.strip()!r}: {exc}") from None
