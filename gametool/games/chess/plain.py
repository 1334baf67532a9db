"""The one-pass reader of the commonest SAN spellings: the legal move a text names, its
canonical SAN and the position after it, at once, without the full reading's move text object.

What it accepts it accepts exactly as :func:`gametool.games.chess.san.resolve` would; any other
text (another spelling, no legal move, several) is left to the full reading, which gives the
move or words the refusal.
"""

from __future__ import annotations

from sys import intern
from typing import Any

from gametool.games.chess.board import (
    B_PAWN_FROM,
    BK,
    BLACK_LETTER,
    BLACK_PIECES,
    BQ,
    CASTLE_KEEP_T,
    EMPTY,
    KNIGHT_FROM,
    LINE_OF,
    LINES,
    RAYS,
    SQUARE_NAMES,
    W_PAWN_FROM,
    WHITE_PIECES,
    WK,
    WQ,
    _castle_ok,
    _unpinned,
    attacked,
    gives_check,
    has_legal_move,
    make_move,
    piece_moves_to,
    plain_moves_to,
)
from gametool.games.chess.board import KING as KING_STEPS
from gametool.games.chess.position import _UNSET, Position
from gametool.games.chess.san import disambiguation
from notation.patterns import lazy

_new = object.__new__

_PLAIN = lazy(r"(?:(?P<piece>[KQRBN])(?P<ff>[a-h])?(?P<fr>[1-8])?(?P<x>x)?"
              r"|(?P<pawn>[a-h])(?P<px>x))?(?P<to>[a-h][1-8])(?:=(?P<promo>[QRBN]))?[+#]?")
"""The commonest spellings of a move: a piece move (its file, rank, or both named), a pawn's
advance or capture, a promotion."""
_CASTLING = lazy(r"(O-O(?:-O)?)[+#]?")
"""Castling as SAN writes it (with letters O; zeros are left to the full reading)."""
_SQUARES = {name: index for index, name in enumerate(SQUARE_NAMES)}

PAWN, PIECE, KING, CASTLING = range(4)
"""The kinds of plain text (the first of its parts)."""

_PARTS: dict[str, Any] = {}
"""The parts of the move texts read before (a few thousand spellings make most archives)."""
PLAIN_PARTS = _PARTS
"""The same, for the readers that look a text up before calling :func:`plain_step`."""


def plain_parts(text: str) -> tuple[Any, ...] | None:
    """What a plain text says, worked out once and remembered, or None for any other text:

    - ``(PAWN, target, file of the capturing pawn or None, promotion letter or None, SAN)``;
    - ``(PIECE or KING, letter, target, file named or None, rank named or None, 'x' written,
      SAN of the move alone of its kind, SAN of that move capturing)``;
    - ``(CASTLING, kingside, SAN)``.

    The SANs are the canonical text when nothing else need be named (no check sign)."""
    parts: tuple[Any, ...] | None = None
    match = _PLAIN.fullmatch(text)
    if match is not None:
        piece, ff, fr, capture, pawn, _px, to, promo = match.groups()
        target = _SQUARES[to]
        if piece is None:
            body = (f"{pawn}x{to}" if pawn is not None else to) + (f"={promo}" if promo else "")
            parts = (PAWN, target, None if pawn is None else ord(pawn) - 97, promo,
                     intern(body))
        elif promo is None:  # a piece names no promotion
            parts = (KING if piece == "K" else PIECE, piece, target,
                     None if ff is None else ord(ff) - 97, None if fr is None else ord(fr) - 49,
                     capture is not None, intern(piece + to), intern(f"{piece}x{to}"))
    else:
        match = _CASTLING.fullmatch(text)
        if match is not None:
            parts = (CASTLING, match[1] == "O-O", intern(match[1]))
    if len(_PARTS) >= 100_000:
        _PARTS.clear()
    _PARTS[text] = parts
    return parts


def read_plain(pos: Position, text: str, san: bool = True
               ) -> tuple[int, str | None, Position] | None:
    """The legal move a plain SAN text names, its canonical SAN (check sign included) and the
    position after it, at once (with ``san`` False, None for the SAN: it is not worked out).
    None when the text is no plain spelling, or when it names no move or several."""
    parts = _PARTS.get(text, _UNSET)
    if parts is _UNSET:
        parts = plain_parts(text)
    if parts is None:
        return None
    kind = parts[0]
    checked = pos._check
    if checked is None:
        checked = pos.in_check()
    if not checked and pos._moves is None:
        # The commonest moves of all, read, made and judged for check in one go, the side
        # not in check: a pawn's advance or capture short of the last rank, a piece's move,
        # castling (what make_move and gives_check do, written out once).
        read = plain_step(pos, parts, kind, san)
        if read is not OTHER:
            return read
        # A promotion, or a move to the en-passant square: read the longer way below.
    board, white = pos.board, pos.white
    if kind == PAWN:
        _kind, target, pawn, promo, body = parts
        if not checked and pos._moves is None and target != pos.ep:
            # Not in check, the commonest case: the pawn found from its square.
            m = _plain_pawn(board, white, target, pawn, promo)
            if m is None:
                return None
            return _after(pos, m, body, san)
        found = (piece_moves_to(board, white, pos.castling, pos.ep, target, "P", checked)
                 if pos._moves is None else pos.piece_moves_to(target, "P"))
        if pawn is None:
            cands = [m for m in found if not ((m & 63) ^ target) & 7]
        else:
            cands = [m for m in found if (m & 7) == pawn and ((m & 63) ^ target) & 7]
        if cands and cands[0] >> 12:  # a pawn reaching the last rank: the promotion named
            if promo is None:
                return None
            index = " NBRQ".index(promo)
            cands = [m for m in cands if m >> 12 == index]
        elif promo is not None:
            return None
        if len(cands) != 1:
            return None
        return _after(pos, cands[0], body, san)
    if kind == CASTLING:
        _kind, kingside, body = parts
        if checked or not _castle_ok(board, white, pos.castling, kingside):
            return None
        ksq = 4 if white else 60
        return _after(pos, ksq | (ksq + 2 if kingside else ksq - 2) << 6, body, san)
    _kind, piece, target, ff, fr, capture, alone, taking = parts
    if pos._moves is None:
        found = piece_moves_to(board, white, pos.castling, pos.ep, target, piece, checked)
    else:
        found = pos.piece_moves_to(target, piece)
    if ff is None and fr is None:
        if len(found) != 1:
            return None
        m = found[0]
    else:
        cands = [m for m in found
                 if (ff is None or (m & 7) == ff) and (fr is None or (m & 63) >> 3 == fr)]
        if len(cands) != 1:
            return None
        m = cands[0]
    f = m & 63
    if kind == KING and (target - f == 2 or f - target == 2):
        return None  # castling is written O-O or O-O-O
    taken = board[target] != EMPTY
    if capture and not taken:
        return None
    if len(found) > 1:
        where = disambiguation(f, found)
        body = intern(f"{piece}{where}{'x' if taken else ''}{SQUARE_NAMES[target]}")
    else:
        body = taking if taken else alone
    return _after(pos, m, body, san)


OTHER: Any = object()
"""What :func:`plain_step` gives for a text it leaves to the longer reading."""


def plain_step(pos: Position, parts: tuple[Any, ...], kind: int, san: bool) -> Any:
    """What :func:`read_plain` gives for a pawn's advance or capture short of the last rank, a
    piece's move or castling, in ``pos`` where the side is not in check and its moves are not
    listed; OTHER for a promotion or a move to the en-passant square."""
    board, white = pos.board, pos.white
    ksq = pos._ksq  # the side's king, where known
    if ksq < 0:
        ksq = board.index("K" if white else "k")
    if kind == PAWN:
        _kind, t, pawn, promo, body = parts
        if promo is not None or t == pos.ep:
            return OTHER
        m = _plain_pawn(board, white, t, pawn, None, ksq)
        if m is None:
            return None
        f = m & 63
        letter = "P" if white else "p"
        ep = (f + t) >> 1 if t - f == 16 or f - t == 16 else -1
        castling = pos.castling  # a pawn short of the last rank takes no rook in its corner
        zeroing = True
    elif kind == CASTLING:
        return _castle(pos, parts[1], parts[2], san)
    elif kind == KING:
        _kind, piece, t, ff, fr, capture, alone, taking = parts
        letter = "K" if white else "k"
        f = ksq
        if t not in KING_STEPS[f]:
            return None  # castling is written O-O or O-O-O
        if (ff is not None and f & 7 != ff) or (fr is not None and f >> 3 != fr):
            return None
        there = board[t]
        if there != EMPTY and there not in (BLACK_PIECES if white else WHITE_PIECES):
            return None
        if capture and there == EMPTY:
            return None
        if attacked(f"{board[:f]}.{board[f + 1:]}", t, not white, pos._osq):
            return None  # (the king taken off: a line through its square shields no square)
        body = alone if there == EMPTY else taking
        castling = pos.castling
        if castling:
            castling &= CASTLE_KEEP_T[f]
        ep = -1
        zeroing = there != EMPTY
    else:
        _kind, piece, t, ff, fr, capture, alone, taking = parts
        if t == pos.ep:
            return OTHER
        there = board[t]
        if capture and there == EMPTY:
            return None
        found = plain_moves_to(board, white, t, piece, ksq)
        if found is None:
            return None  # a piece of the side on the square, or a horse (never captured)
        letter = piece if white else BLACK_LETTER[piece]
        if ff is None and fr is None:
            if len(found) != 1:
                return None
            f = found[0] & 63
            body = alone if there == EMPTY else taking
        else:
            cands = [m for m in found
                     if (ff is None or (m & 7) == ff) and (fr is None or (m & 63) >> 3 == fr)]
            if len(cands) != 1:
                return None
            f = cands[0] & 63
            if len(found) > 1:
                where = disambiguation(f, found)
                body = intern(f"{piece}{where}{'' if there == EMPTY else 'x'}{SQUARE_NAMES[t]}")
            else:
                body = alone if there == EMPTY else taking
        castling = pos.castling
        if castling:
            castling &= CASTLE_KEEP_T[f] & CASTLE_KEEP_T[t]
        ep = -1
        zeroing = there != EMPTY
    # The move made (one f-string: one new string) ...
    if f < t:
        after_board = f"{board[:f]}.{board[f + 1:t]}{letter}{board[t + 1:]}"
    else:
        after_board = f"{board[:t]}{letter}{board[t + 1:f]}.{board[f + 1:]}"
    # ... and whether it checks the other king: from the piece moved, or from behind it.
    king = pos._osq
    if king < 0:
        king = after_board.index("k" if white else "K")
    checked = False
    if letter == "N" or letter == "n":
        checked = king in KNIGHT_FROM[t]
    elif kind == PAWN:
        checked = t in (W_PAWN_FROM if white else B_PAWN_FROM)[king]
    elif kind == PIECE:
        d = LINE_OF[king][t]
        if d >= 0 and (piece == "Q" or (piece == "R") == (d < 4)):
            for s in RAYS[king][d]:
                if s == t:
                    checked = True
                    break
                if after_board[s] != EMPTY:
                    break
    if not checked:
        d = LINE_OF[king][f]
        if d >= 0:
            sliders = ("RQ" if white else "rq") if d < 4 else ("BQ" if white else "bq")
            for s in RAYS[king][d]:
                c = after_board[s]
                if c != EMPTY:
                    checked = c in sliders
                    break
    # What _made gives, written out for a move that does not check (a call less for most).
    after = _new(Position)  # pos.after_move(...), written out: this is every move read
    after.board, after.white, after.castling, after.ep = after_board, not white, castling, ep
    after.fullmove, after.ply, after.end = pos.fullmove + (not white), pos.ply + 1, None
    if zeroing:
        after.halfmove, after._history, after._prev = 0, (), None
    else:
        after.halfmove, after._history, after._prev = pos.halfmove + 1, None, pos
    after._moves = after._key = after._turns = after._memo = after._shared = None
    after._link = after._more = None
    after._status = _UNSET
    after._ksq, after._osq, after._check = king, t if kind == KING else ksq, checked
    if not san:
        return f | t << 6, None, after
    if not checked:
        return f | t << 6, body, after
    return f | t << 6, _checking(after, body), after


def _made(pos: Position, m: int, body: str, after_board: str, castling: int, ep: int,
          zeroing: bool, checked: bool, san: bool, ksq: int = -1,
          osq: int = -1) -> tuple[int, str | None, Position]:
    """What read_plain gives for the legal move ``m`` of ``pos`` that left ``after_board``,
    ``castling`` and ``ep`` and ``checked`` the other king: the move, its SAN (``body`` and the
    check sign; None without ``san``) and the position after it (pos.after_move), which knows
    whether its side is in check (and its kings' squares ``ksq`` and ``osq``, where known)."""
    after = pos.after_move(after_board, castling, ep, zeroing, ksq, osq, checked)
    if not san:
        return m, None, after
    if not checked:
        return m, body, after
    return m, _checking(after, body), after


def _checking(after: Position, body: str) -> str:
    """The SAN of a move that checks, ``body`` and its sign: '+', or '#' when the side in
    check in ``after`` has no legal move."""
    shared = after.shared
    moving = shared.get("has_move")
    if moving is None:
        moving = shared["has_move"] = has_legal_move(after.board, after.white, after.castling,
                                                     after.ep, checked=True)
    return intern(body + ("+" if moving else "#"))


def _castle(pos: Position, kingside: bool, body: str, san: bool) -> Any:
    """What read_plain gives for castling (``kingside`` or not) in ``pos``, where the side is
    not in check: legal when the side has the right, the squares between king and rook are
    empty and the king crosses no attacked square. Only the rook can check: the king leaves
    the first rank's edge square, through which no line runs on to a king behind it."""
    board, white, castling = pos.board, pos.white, pos.castling
    base = 0 if white else 56
    king, rook = ("K", "R") if white else ("k", "r")
    if kingside:
        right = WK if white else BK
        if (not castling & right or board[base + 4] != king or board[base + 7] != rook
                or board[base + 5] != EMPTY or board[base + 6] != EMPTY
                or attacked(board, base + 5, not white) or attacked(board, base + 6, not white)):
            return None
        after_board = f"{board[:base + 4]}.{rook}{king}.{board[base + 8:]}"
        t, rsq = base + 6, base + 5
    else:
        right = WQ if white else BQ
        if (not castling & right or board[base + 4] != king or board[base] != rook
                or board[base + 1] != EMPTY or board[base + 2] != EMPTY
                or board[base + 3] != EMPTY or attacked(board, base + 3, not white)
                or attacked(board, base + 2, not white)):
            return None
        after_board = f"{board[:base]}..{king}{rook}.{board[base + 5:]}"
        t, rsq = base + 2, base + 3
    other = pos._osq
    if other < 0:
        other = after_board.index("k" if white else "K")
    checked = False
    d = LINE_OF[other][rsq]
    if 0 <= d < 4:  # the rook on a rank or file with the other king, nothing between
        for s in RAYS[other][d]:
            if s == rsq:
                checked = True
                break
            if after_board[s] != EMPTY:
                break
    return _made(pos, base + 4 | t << 6, body, after_board, castling & CASTLE_KEEP_T[base + 4],
                 -1, False, checked, san, other, t)


def _plain_pawn(board: str, white: bool, target: int, pawn: int | None,
                promo: str | None, ksq: int = -1) -> int | None:
    """The legal pawn move a plain SAN names (a push to ``target``, or a capture there from
    the file ``pawn``) when the side is not in check and ``target`` is not the en-passant
    square; None when there is none (or a promotion is missing or out of place). ``ksq``: the
    side's king's square, where known."""
    rank = target >> 3
    if rank == (0 if white else 7):
        return None  # no pawn moves to its own first rank
    if (rank == (7 if white else 0)) != (promo is not None):
        return None  # a pawn reaching the last rank names its piece, and only then
    there = board[target]
    letter, up = ("P", 8) if white else ("p", -8)
    if pawn is None:  # an advance
        if there != EMPTY:
            return None
        f = target - up
        c = board[f]
        if c != letter:
            if c != EMPTY or rank != (3 if white else 4) or board[f - up] != letter:
                return None
            f -= up
    else:  # a capture from the file named
        if there == EMPTY or there in (WHITE_PIECES if white else BLACK_PIECES):
            return None
        if pawn - (target & 7) not in (1, -1):
            return None
        f = target - up - (target & 7) + pawn
        if board[f] != letter:
            return None
    if ksq < 0:
        ksq = board.index("K" if white else "k")
    if f in LINES[ksq] and not _unpinned(board, ksq, f, target, white):
        return None
    return f | target << 6 | (" NBRQ".index(promo) << 12 if promo is not None else 0)


def _after(pos: Position, m: int, body: str, san: bool) -> tuple[int, str | None, Position]:
    """The legal move ``m`` of ``pos``, its SAN (``body`` and the check sign; None without
    ``san``) and the position after it."""
    board, white = pos.board, pos.white
    after_board, castling, ep, zeroing = make_move(board, m, white, pos.castling, pos.ep)
    checked = gives_check(board, after_board, m, white)
    return _made(pos, m, body, after_board, castling, ep, zeroing, checked, san)
