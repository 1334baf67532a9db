"""The chess core: a 64-character board string, precomputed tables and legal move generation.

Squares are numbered ``rank * 8 + file`` (a1 = 0, h8 = 63). The board is an immutable string of
64 characters: ``.`` empty, ``PNBRQK`` White, ``pnbrqk`` Black, and for Super Horse Chess ``*`` a
neutral horse, ``H``/``h`` a White/Black owned horse. A horse is neither side's piece: it blocks
every line and every landing, and nothing captures it.

A move is an int: ``from | to << 6 | promotion << 12`` (promotion 1-4 = N, B, R, Q). Castling is
the king's two-square move and en passant the pawn's diagonal move to the en-passant square.
Legal moves are generated directly from the checkers and pins of the king, so no move is tried
and taken back; only en passant is tested by playing it (it can open a rank to the king).

Reading or writing one move, and telling whether a game has ended, need less than the whole
list: ``moves_to`` finds the legal moves to one square from that square backwards, and
``has_legal_move`` stops at the first legal move. Both play a candidate and test the king only
when the moving piece stands on a line with its own king, the king moves, or the king is in
check.
"""

from __future__ import annotations

EMPTY = "."
WHITE_PIECES = "PNBRQK"
BLACK_PIECES = "pnbrqk"
BLACK_LETTER = dict(zip(WHITE_PIECES, BLACK_PIECES, strict=True))
"""Black's letter for each of White's (a lookup, not a call of str.lower, for every move)."""
HORSES = "*Hh"
FILES = "abcdefgh"
PROMO_LETTERS = " NBRQ"
PROMOS = (4, 3, 2, 1)  # Q, R, B, N: the order moves are listed in

# Castling rights as a bit mask: K=1, Q=2, k=4, q=8.
WK, WQ, BK, BQ = 1, 2, 4, 8


def square_name(sq: int) -> str:
    return FILES[sq & 7] + str((sq >> 3) + 1)


SQUARE_NAMES = tuple(square_name(s) for s in range(64))


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _steps(deltas: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    # (the bounds written out, not _on: these tables are made at every start)
    return tuple(tuple(s + dr * 8 + df for df, dr in deltas
                       if 0 <= (s & 7) + df < 8 and 0 <= (s >> 3) + dr < 8)
                 for s in range(64))


KNIGHT = _steps(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
KING = _steps(((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)))
# Squares from which a White (Black) pawn attacks a square.
W_PAWN_FROM = _steps(((-1, -1), (1, -1)))
B_PAWN_FROM = _steps(((-1, 1), (1, 1)))
# Squares a White (Black) pawn on a square captures on.
W_PAWN_CAPT = _steps(((-1, 1), (1, 1)))
B_PAWN_CAPT = _steps(((-1, -1), (1, -1)))

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for s in range(64):
        per = []
        for df, dr in DIRECTIONS:
            f, r, ray = (s & 7) + df, (s >> 3) + dr, []
            while 0 <= f < 8 and 0 <= r < 8:
                ray.append(r * 8 + f)
                f += df
                r += dr
            per.append(tuple(ray))
        out.append(tuple(per))
    return tuple(out)


RAYS = _rays()
ROOK_RAYS = tuple(r[:4] for r in RAYS)
BISHOP_RAYS = tuple(r[4:] for r in RAYS)
# For each square, the rays that are not empty, paired with the sliders that use them.
_ROOKISH = ("RQ", "rq")
_BISHOPISH = ("BQ", "bq")

KING_NEAR = tuple(frozenset(steps) for steps in KING)

# Castling rights kept when a move starts or ends on a square.
CASTLE_KEEP = [15] * 64
CASTLE_KEEP[0], CASTLE_KEEP[4], CASTLE_KEEP[7] = 15 & ~WQ, 15 & ~(WK | WQ), 15 & ~WK
CASTLE_KEEP[56], CASTLE_KEEP[60], CASTLE_KEEP[63] = 15 & ~BQ, 15 & ~(BK | BQ), 15 & ~BK
CASTLE_KEEP_T = tuple(CASTLE_KEEP)

DARK = tuple(((s & 7) + (s >> 3)) % 2 == 0 for s in range(64))  # a1 is dark


def attacked(board: str, sq: int, by_white: bool, king_at: int = -1) -> bool:
    """Whether a piece of the given side attacks ``sq`` (horses block, never attack);
    ``king_at``: that side's king's square, where known."""
    if by_white:
        knight, king, pawn, rook, bishop, queen = "N", "K", "P", "R", "B", "Q"
        pawns = W_PAWN_FROM[sq]
    else:
        knight, king, pawn, rook, bishop, queen = "n", "k", "p", "r", "b", "q"
        pawns = B_PAWN_FROM[sq]
    # (A kind of piece the side has none of is not looked for: an ending has few.)
    if knight in board:
        for t in KNIGHT[sq]:
            if board[t] == knight:
                return True
    for t in pawns:
        if board[t] == pawn:
            return True
    if king_at < 0:
        for t in KING[sq]:
            if board[t] == king:
                return True
    elif king_at in KING_NEAR[sq]:
        return True
    queens = queen in board
    if queens or rook in board:
        for ray in ROOK_RAYS[sq]:
            for t in ray:
                c = board[t]
                if c != EMPTY:
                    if c == rook or c == queen:
                        return True
                    break
    if queens or bishop in board:
        for ray in BISHOP_RAYS[sq]:
            for t in ray:
                c = board[t]
                if c != EMPTY:
                    if c == bishop or c == queen:
                        return True
                    break
    return False


def in_check(board: str, white: bool) -> bool:
    """Whether the king of the given side is attacked."""
    return attacked(board, board.index("K" if white else "k"), not white)


def legal_moves(board: str, white: bool, castling: int, ep: int) -> list[int]:
    """Every legal move of the side to move, from the king's checkers and pins."""
    if white:
        own, enemy, king = WHITE_PIECES, BLACK_PIECES, "K"
        erq, ebq, eknight, epawn = "rq", "bq", "n", "p"
    else:
        own, enemy, king = BLACK_PIECES, WHITE_PIECES, "k"
        erq, ebq, eknight, epawn = "RQ", "BQ", "N", "P"
    ksq = board.index(king)
    checkers = 0
    block: set[int] | frozenset[int] | None = None
    pins: dict[int, frozenset[int]] = {}
    rays = RAYS[ksq]
    for d in range(8):
        sliders = erq if d < 4 else ebq
        ray = rays[d]
        pinned = -1
        i = 0
        for t in ray:
            i += 1
            c = board[t]
            if c == EMPTY:
                continue
            if c in own:
                if pinned >= 0:
                    break
                pinned = t
                continue
            if c in sliders:
                if pinned >= 0:
                    pins[pinned] = frozenset(ray[:i])
                else:
                    checkers += 1
                    block = frozenset(ray[:i])
            break
    for t in KNIGHT[ksq]:
        if board[t] == eknight:
            checkers += 1
            block = frozenset((t,))
    for t in (W_PAWN_CAPT[ksq] if white else B_PAWN_CAPT[ksq]):
        if board[t] == epawn:
            checkers += 1
            block = frozenset((t,))
    moves: list[int] = []
    add = moves.append
    # King steps; when in check the king's own square must not shield the square behind it.
    kboard = board if not checkers else board[:ksq] + EMPTY + board[ksq + 1:]
    for t in KING[ksq]:
        c = board[t]
        if (c == EMPTY or c in enemy) and not attacked(kboard, t, not white):
            add(ksq | t << 6)
    if checkers > 1:
        return moves
    if not checkers and castling:
        if white:
            if (castling & WK and board[5] == EMPTY and board[6] == EMPTY
                    and board[7] == "R" and not attacked(board, 5, False)
                    and not attacked(board, 6, False)):
                add(4 | 6 << 6)
            if (castling & WQ and board[3] == EMPTY and board[2] == EMPTY
                    and board[1] == EMPTY and board[0] == "R"
                    and not attacked(board, 3, False) and not attacked(board, 2, False)):
                add(4 | 2 << 6)
        else:
            if (castling & BK and board[61] == EMPTY and board[62] == EMPTY
                    and board[63] == "r" and not attacked(board, 61, True)
                    and not attacked(board, 62, True)):
                add(60 | 62 << 6)
            if (castling & BQ and board[59] == EMPTY and board[58] == EMPTY
                    and board[57] == EMPTY and board[56] == "r"
                    and not attacked(board, 59, True) and not attacked(board, 58, True)):
                add(60 | 58 << 6)
    if white:
        up, start_rank, last_rank, capts = 8, 1, 7, W_PAWN_CAPT
    else:
        up, start_rank, last_rank, capts = -8, 6, 0, B_PAWN_CAPT
    for s, c in enumerate(board):
        if c == EMPTY or c not in own or c == king:
            continue
        mask = block
        if pins:
            pin = pins.get(s)
            if pin is not None:
                mask = pin if mask is None else pin & mask
        if c in "Pp":
            t = s + up
            for tt in capts[s]:
                c2 = board[tt]
                if c2 != EMPTY and c2 in enemy and (mask is None or tt in mask):
                    if tt >> 3 == last_rank:
                        for p in PROMOS:
                            add(s | tt << 6 | p << 12)
                    else:
                        add(s | tt << 6)
                elif tt == ep and c2 == EMPTY and _ep_legal(board, s, tt, white, king):
                    add(s | tt << 6)
            if board[t] == EMPTY:
                if mask is None or t in mask:
                    if t >> 3 == last_rank:
                        for p in PROMOS:
                            add(s | t << 6 | p << 12)
                    else:
                        add(s | t << 6)
                if s >> 3 == start_rank:
                    t2 = t + up
                    if board[t2] == EMPTY and (mask is None or t2 in mask):
                        add(s | t2 << 6)
        elif c in "Nn":
            if s in pins:
                continue
            for t in KNIGHT[s]:
                c2 = board[t]
                if (c2 == EMPTY or c2 in enemy) and (mask is None or t in mask):
                    add(s | t << 6)
        else:
            if c in "Rr":
                srays = ROOK_RAYS[s]
            elif c in "Bb":
                srays = BISHOP_RAYS[s]
            else:
                srays = RAYS[s]
            if mask is None:
                for ray in srays:
                    for t in ray:
                        c2 = board[t]
                        if c2 == EMPTY:
                            add(s | t << 6)
                        else:
                            if c2 in enemy:
                                add(s | t << 6)
                            break
            else:
                for ray in srays:
                    for t in ray:
                        c2 = board[t]
                        if c2 == EMPTY:
                            if t in mask:
                                add(s | t << 6)
                        else:
                            if c2 in enemy and t in mask:
                                add(s | t << 6)
                            break
    return moves


# For each square, the squares on a line with it (a piece there may be pinned to a king on it).
LINES = tuple(frozenset(s for ray in RAYS[k] for s in ray) | {k} for k in range(64))
ALL_SQUARES = frozenset(range(64))
# LINE_OF[k][s]: the index in RAYS[k] of the ray from k through s, or -1 off every line.
def _line_of() -> tuple[tuple[int, ...], ...]:
    out = []
    for k in range(64):
        row = [-1] * 64
        for d, ray in enumerate(RAYS[k]):
            for s in ray:
                row[s] = d
        out.append(tuple(row))
    return tuple(out)


LINE_OF = _line_of()


def _between() -> tuple[tuple[tuple[int, ...] | None, ...], tuple[tuple[int, ...] | None, ...]]:
    rook: list[tuple[int, ...] | None] = [None] * 4096
    bishop: list[tuple[int, ...] | None] = [None] * 4096
    for s in range(64):
        for d, ray in enumerate(RAYS[s]):
            for i, t in enumerate(ray):
                (rook if d < 4 else bishop)[s * 64 + t] = ray[:i]
    return tuple(rook), tuple(bishop)


ROOK_BETWEEN, BISHOP_BETWEEN = _between()
"""``ROOK_BETWEEN[s * 64 + t]``: the squares strictly between ``s`` and ``t`` when they share
a rank or a file, else None (``BISHOP_BETWEEN`` the same for a diagonal)."""
KNIGHT_FROM = tuple(frozenset(steps) for steps in KNIGHT)
KNIGHT_SORTED = tuple(tuple(sorted(steps)) for steps in KNIGHT)


def plain_moves_to(board: str, white: bool, target: int, piece: str,
                   ksq: int = -1) -> list[int] | None:
    """The legal moves of the side's ``piece`` (N, B, R or Q) to ``target`` when the side is
    not in check: what ``piece_moves_to`` gives, found from the pieces themselves (a string
    search for the letter, then the line between each piece and the square), in board order.
    None when ``target`` holds a piece of the side or a horse. ``ksq``: the side's king's
    square, where known."""
    there = board[target]
    if there != EMPTY and there not in (BLACK_PIECES if white else WHITE_PIECES):
        return None  # a piece of the side, or a horse (never captured)
    letter = piece if white else BLACK_LETTER[piece]
    found: list[int] = []
    if ksq < 0:
        ksq = board.index("K" if white else "k")
    lined = LINES[ksq]
    if piece == "N":  # the squares a knight reaches the target from, in board order
        for s in KNIGHT_SORTED[target]:
            if board[s] == letter and (s not in lined or _unpinned(board, ksq, s, target, white)):
                found.append(s | target << 6)
        return found
    s = board.find(letter)
    at = target
    while s >= 0:
        between = None
        if piece != "B":
            between = ROOK_BETWEEN[s * 64 + at]
        if between is None and piece != "R":
            between = BISHOP_BETWEEN[s * 64 + at]
        if between is not None:
            for t in between:
                if board[t] != EMPTY:
                    break
            else:
                if s not in lined or _unpinned(board, ksq, s, target, white):
                    found.append(s | target << 6)
        s = board.find(letter, s + 1)
    return found


def _unpinned(board: str, ksq: int, f: int, t: int, white: bool) -> bool:
    """Whether moving the piece on ``f`` to ``t`` uncovers no line to its king on ``ksq``
    (the king not in check, not the piece moving, and not an en-passant capture): the piece
    leaves the king's line through ``f`` only when nothing else stands between them and no
    enemy rook, bishop or queen stands next behind it on that line."""
    line = LINE_OF[ksq]
    d = line[f]
    if line[t] == d:
        return True  # it stays on the line
    sliders = ("rq" if white else "RQ") if d < 4 else ("bq" if white else "BQ")
    behind = False
    for s in RAYS[ksq][d]:
        if s == f:
            behind = True
            continue
        c = board[s]
        if c != EMPTY:
            return not behind or c not in sliders
    return True


def gives_check(before: str, after: str, m: int, white: bool) -> bool:
    """Whether the legal move ``m`` of the side ``white``, which turned ``before`` into
    ``after``, checks the other king: from the moved piece's own attack and the one line
    through its from-square (castling and en passant, which move two pieces, ask the full
    question)."""
    f = m & 63
    t = (m >> 6) & 63
    p = before[f]
    ksq = after.index("k" if white else "K")
    if p == "K" or p == "k":
        if t - f == 2 or f - t == 2:
            return attacked(after, ksq, white)
    elif (p == "P" or p == "p") and (f ^ t) & 7 and before[t] == EMPTY:
        return attacked(after, ksq, white)
    else:
        q = after[t]  # the piece as it stands there (a promoted pawn: its new piece)
        if q == "N" or q == "n":
            if ksq in KNIGHT[t]:
                return True
        elif q == "P" or q == "p":
            if t in (W_PAWN_FROM if white else B_PAWN_FROM)[ksq]:
                return True
        elif q in "RrBbQq":
            d = LINE_OF[ksq][t]
            if d >= 0 and (q in "Qq" or (q in "Rr") == (d < 4)):
                for s in RAYS[ksq][d]:
                    if s == t:
                        return True
                    if after[s] != EMPTY:
                        break
    d = LINE_OF[ksq][f]
    if d < 0:
        return False
    sliders = ("RQ" if white else "rq") if d < 4 else ("BQ" if white else "bq")
    for s in RAYS[ksq][d]:
        c = after[s]
        if c != EMPTY:
            return c in sliders
    return False


def _safe(board: str, m: int, white: bool, castling: int, ep: int, king: str) -> bool:
    """Whether the pseudo-legal move ``m`` leaves the mover's king unattacked."""
    after = make_move(board, m, white, castling, ep)[0]
    return not attacked(after, after.index(king), not white)


def _castle_ok(board: str, white: bool, castling: int, kingside: bool) -> bool:
    """Whether castling is legal (the king not in check, the squares between empty, the king
    not crossing or landing on an attacked square)."""
    base = 0 if white else 56
    rights = (WK if kingside else WQ) if white else (BK if kingside else BQ)
    rook = "R" if white else "r"
    if not castling & rights or board[base + 4] != ("K" if white else "k"):
        return False
    if kingside:
        empty, crossed, corner = (5, 6), (4, 5, 6), 7
    else:
        empty, crossed, corner = (3, 2, 1), (4, 3, 2), 0
    return (board[base + corner] == rook and all(board[base + e] == EMPTY for e in empty)
            and not any(attacked(board, base + c, not white) for c in crossed))


def moves_to(board: str, white: bool, castling: int, ep: int, target: int,
             checked: bool | None = None) -> list[int]:
    """The legal moves of the side to move that end on ``target``: the same moves as
    ``legal_moves`` lists for it, found from the target square backwards (for reading and
    writing one move without listing them all)."""
    if white:
        enemy, king, pawn, up, start_rank, last_rank, froms = (
            BLACK_PIECES, "K", "P", 8, 1, 7, W_PAWN_FROM)
    else:
        enemy, king, pawn, up, start_rank, last_rank, froms = (
            WHITE_PIECES, "k", "p", -8, 6, 0, B_PAWN_FROM)
    there = board[target]
    if there != EMPTY and there not in enemy:
        return []
    found: list[int] = []
    castle: list[int] = []  # checked on its own terms, not by playing it
    ksq = board.index(king)
    if target in KING[ksq]:
        found.append(ksq | target << 6)
    elif target in ((6, 2) if white else (62, 58)) and there == EMPTY:
        if _castle_ok(board, white, castling, target & 7 == 6):
            castle.append(ksq | target << 6)
    letter = "N" if white else "n"
    found.extend(s | target << 6 for s in KNIGHT[target] if board[s] == letter)
    lines = ("RQ", "BQ") if white else ("rq", "bq")
    for d, ray in enumerate(RAYS[target]):
        sliders = lines[d >= 4]
        for s in ray:
            c = board[s]
            if c != EMPTY:
                if c in sliders:
                    found.append(s | target << 6)
                break
    pawns: list[int] = []
    if there == EMPTY:
        s = target - up
        if 0 <= s < 64 and board[s] == pawn:
            pawns.append(s)
        elif (0 <= s < 64 and board[s] == EMPTY and (target - 2 * up) >> 3 == start_rank
              and board[target - 2 * up] == pawn):
            pawns.append(target - 2 * up)
    if there != EMPTY or target == ep:
        pawns.extend(s for s in froms[target] if board[s] == pawn)
    for s in pawns:
        if target >> 3 == last_rank:
            found.extend(s | target << 6 | p << 12 for p in PROMOS)
        else:
            found.append(s | target << 6)
    if not found:
        return castle
    return _legal_of(board, white, castling, ep, target, found, castle, ksq, checked)


def _legal_of(board: str, white: bool, castling: int, ep: int, target: int, found: list[int],
              castle: list[int], ksq: int, checked: bool | None) -> list[int]:
    """``castle`` (legal already) and the moves of ``found`` (pseudo-legal, to ``target``)
    that leave the mover's king unattacked."""
    king, pawn = ("K", "P") if white else ("k", "p")
    # A king's step (castling is in ``castle``) is legal when its square is not attacked with
    # the king taken off the board (a line through its square must not shield the one behind).
    # A move that cannot uncover or leave a check needs no test: the king not in check, and
    # neither the king nor a piece on a line with it moving, nor an en-passant capture.
    out = castle
    if attacked(board, ksq, not white) if checked is None else checked:
        for m in found:
            if m & 63 == ksq:
                if not attacked(board[:ksq] + EMPTY + board[ksq + 1:], target, not white):
                    out.append(m)
            elif _safe(board, m, white, castling, ep, king):
                out.append(m)
        return out
    lined = LINES[ksq]
    for m in found:
        f = m & 63
        if f not in lined:
            if target != ep or board[f] != pawn:
                out.append(m)
                continue
        elif f == ksq:
            if not attacked(board[:ksq] + EMPTY + board[ksq + 1:], target, not white):
                out.append(m)
            continue
        elif target != ep or board[f] != pawn:
            if _unpinned(board, ksq, f, target, white):
                out.append(m)
            continue
        if _safe(board, m, white, castling, ep, king):
            out.append(m)
    return out


def piece_moves_to(board: str, white: bool, castling: int, ep: int, target: int, piece: str,
                   checked: bool | None = None) -> list[int]:
    """The legal moves of the side's pieces ``piece`` (upper-case letter) that end on
    ``target``: what ``moves_to`` lists for that piece, found from the target square along
    that piece's own steps only (reading a SAN, and the rivals that its SAN names apart)."""
    if white:
        enemy, king, letter = BLACK_PIECES, "K", piece
    else:
        enemy, king, letter = WHITE_PIECES, "k", piece.lower()
    there = board[target]
    if there != EMPTY and there not in enemy:
        return []
    ksq = board.index(king)
    castle: list[int] = []
    if piece == "N":
        found = [s | target << 6 for s in KNIGHT[target] if board[s] == letter]
    elif piece == "P":
        if white:
            up, start_rank, last_rank, froms = 8, 1, 7, W_PAWN_FROM
        else:
            up, start_rank, last_rank, froms = -8, 6, 0, B_PAWN_FROM
        pawns: list[int] = []
        if there == EMPTY:
            s = target - up
            if 0 <= s < 64 and board[s] == letter:
                pawns.append(s)
            elif (0 <= s < 64 and board[s] == EMPTY and (target - 2 * up) >> 3 == start_rank
                  and board[target - 2 * up] == letter):
                pawns.append(target - 2 * up)
        if there != EMPTY or target == ep:
            pawns.extend(s for s in froms[target] if board[s] == letter)
        if target >> 3 == last_rank:
            found = [s | target << 6 | p << 12 for s in pawns for p in PROMOS]
        else:
            found = [s | target << 6 for s in pawns]
    elif piece == "K":
        found = []
        if target in KING[ksq]:
            found.append(ksq | target << 6)
        elif target in ((6, 2) if white else (62, 58)) and there == EMPTY:
            if _castle_ok(board, white, castling, target & 7 == 6):
                castle.append(ksq | target << 6)
    else:
        found = []
        rays = (ROOK_RAYS if piece == "R" else BISHOP_RAYS if piece == "B" else RAYS)[target]
        for ray in rays:
            for s in ray:
                c = board[s]
                if c != EMPTY:
                    if c == letter:
                        found.append(s | target << 6)
                    break
    if not found:
        return castle
    return _legal_of(board, white, castling, ep, target, found, castle, ksq, checked)


def has_legal_move(board: str, white: bool, castling: int, ep: int,
                   checked: bool | None = None) -> bool:
    """Whether the side to move has a legal move; stops at the first one found. ``checked``:
    whether the side to move is in check, when the caller knows."""
    own, enemy, king = (WHITE_PIECES, BLACK_PIECES, "K") if white else \
        (BLACK_PIECES, WHITE_PIECES, "k")
    if in_check(board, white) if checked is None else checked:
        ksq = board.index(king)
        # Most checks are met by a king step: tried before every evasion, on the board without
        # the king (a line through its square must not shield the square behind it).
        kboard = board[:ksq] + EMPTY + board[ksq + 1:]
        for t in KING[ksq]:
            c = board[t]
            if (c == EMPTY or c in enemy) and not attacked(kboard, t, not white):
                return True
        return bool(legal_moves(board, white, castling, ep))
    # Not in check, a piece off every line through its king is pinned by nothing, so any
    # step it has is legal; the king and the pieces on its lines are tried afterwards, by
    # playing their moves. Castling is never the only legal move (the king's step towards the
    # rook is legal whenever castling is), so steps and captures are enough.
    lined = LINES[board.index(king)]
    later = [(board.index(king), king)]
    for c in own[:5]:  # P N B R Q, each found by the string search
        s = board.find(c)
        while s >= 0:
            if s in lined or (c in "Pp" and ep >= 0):
                later.append((s, c))
            elif _targets(board, s, c, white, enemy, ep):
                return True
            s = board.find(c, s + 1)
    for s, c in later:
        for t in _targets(board, s, c, white, enemy, ep):
            promo = 4 if c in "Pp" and t >> 3 in (0, 7) else 0
            if _safe(board, s | t << 6 | promo << 12, white, castling, ep, king):
                return True
    return False


def _targets(board: str, s: int, c: str, white: bool, enemy: str, ep: int) -> list[int]:
    """The squares the piece ``c`` on ``s`` steps or captures to, ignoring its king; for a
    slider only the first square of each line (any move along a line is legal exactly when
    the one to its first square is, since a pin keeps the piece on the pinning line)."""
    if c in "Pp":
        up, capts = (8, W_PAWN_CAPT) if white else (-8, B_PAWN_CAPT)
        # En passant onto an empty square only (a horse may stand on it: Super Horse Chess).
        found = [t for t in capts[s]
                 if board[t] != EMPTY and board[t] in enemy or t == ep and board[t] == EMPTY]
        if board[s + up] == EMPTY:
            found.append(s + up)
        return found
    if c in "Nn" or c in "Kk":
        return [t for t in (KNIGHT[s] if c in "Nn" else KING[s])
                if board[t] == EMPTY or board[t] in enemy]
    rays = ROOK_RAYS[s] if c in "Rr" else BISHOP_RAYS[s] if c in "Bb" else RAYS[s]
    return [ray[0] for ray in rays if ray and (board[ray[0]] == EMPTY or board[ray[0]] in enemy)]


def _ep_legal(board: str, s: int, t: int, white: bool, king: str) -> bool:
    """Play the en-passant capture and see whether the mover's king is left attacked."""
    victim = t - 8 if white else t + 8
    b = list(board)
    b[t], b[s], b[victim] = b[s], EMPTY, EMPTY
    after = "".join(b)
    return not attacked(after, after.index(king), not white)


def make_move(board: str, m: int, white: bool, castling: int, ep: int
              ) -> tuple[str, int, int, bool]:
    """Play a legal move: the new board, castling rights, en-passant square and whether the
    move resets the halfmove clock (a pawn move or a capture)."""
    f = m & 63
    t = (m >> 6) & 63
    p = board[f]
    captured = board[t]
    new_ep = -1
    zeroing = captured != EMPTY
    if p == "P" or p == "p":
        zeroing = True
        promo = m >> 12
        diff = t - f
        if promo:
            p = PROMO_LETTERS[promo] if white else PROMO_LETTERS[promo].lower()
        elif diff == 16 or diff == -16:
            new_ep = (f + t) >> 1
        elif t == ep and (diff & 7):
            b = list(board)
            b[f], b[t], b[t - 8 if white else t + 8] = EMPTY, p, EMPTY
            return "".join(b), castling, -1, True
    elif (p == "K" or p == "k") and (t - f == 2 or f - t == 2):
        b = list(board)
        b[f], b[t] = EMPTY, p
        if t > f:
            b[f + 3], b[f + 1] = EMPTY, b[f + 3]
        else:
            b[f - 4], b[f - 1] = EMPTY, b[f - 4]
        return "".join(b), castling & CASTLE_KEEP_T[f], -1, False
    if f < t:  # one f-string: one new string (a chain of '+' makes one a part)
        board = f"{board[:f]}.{board[f + 1:t]}{p}{board[t + 1:]}"
    else:
        board = f"{board[:t]}{p}{board[t + 1:f]}.{board[f + 1:]}"
    if castling:
        castling &= CASTLE_KEEP_T[f] & CASTLE_KEEP_T[t]
    return board, castling, new_ep, zeroing


def perft(board: str, white: bool, castling: int, ep: int, depth: int) -> int:
    """Leaf count of the legal move tree (bulk-counted at the last level)."""
    moves = legal_moves(board, white, castling, ep)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for m in moves:
        b, c, e, _z = make_move(board, m, white, castling, ep)
        total += perft(b, not white, c, e, depth - 1)
    return total


def dead_material(board: str) -> bool:
    """D3: only kings, kings and one knight, or kings and bishops all on one colour."""
    for c in "PpRrQq":
        if c in board:
            return False
    knights = board.count("N") + board.count("n")
    bishops = [s for s, c in enumerate(board) if c == "B" or c == "b"]
    if knights:
        return knights == 1 and not bishops
    return len({DARK[s] for s in bishops}) <= 1
