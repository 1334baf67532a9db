"""Horse actions of Super Horse Chess: their encoding, tables, and legal generation.

A horse action is a tuple: ``(PLACE, sq)``, ``(REMOVE, a, b)`` with ``b = -1`` for a single
removal (two removals in square-name order), ``(HMOVE, from, to, promotion)``.
"""

from __future__ import annotations

from typing import Any

from gametool.games.chess.board import EMPTY, KNIGHT, PROMO_LETTERS, RAYS, SQUARE_NAMES, attacked

PLACE, REMOVE, HMOVE = 0, 1, 2
CAP = 6  # D3: at most 6 horses (per owner with horses=owned, D1)
PLACES = tuple((PLACE, s) for s in range(64))
REMOVES = tuple((REMOVE, s, -1) for s in range(64))
# The squares on a line from each square: only a horse there can shield a king (D9).
NAME_ORDER = tuple((s & 7) * 8 + (s >> 3) for s in range(64))
TOUCH = tuple(frozenset(t for t in (s - 16, s - 8, s + 8, s + 16, s - 1, s + 1) if 0 <= t < 64)
              for s in range(64))


def _rel(step: int) -> tuple[frozenset[int], ...]:
    """For each square, the squares whose contents decide where a horse there may move when
    forward is ``step``: one and two ahead, and the two beside it on its rank (D5)."""
    out = []
    for s in range(64):
        near = {t for t in (s + step, s + 2 * step) if 0 <= t < 64}
        near |= {t for t in (s - 1, s + 1) if 0 <= t < 64 and t >> 3 == s >> 3}
        out.append(frozenset(near))
    return tuple(out)


REL_WHITE, REL_BLACK = _rel(8), _rel(-8)
KNIGHT_SET = tuple(frozenset(t) for t in KNIGHT)
LINES = tuple(frozenset(t for ray in RAYS[s] for t in ray) for s in range(64))


def check_reach(board: str, ksq: int) -> frozenset[int]:
    """The squares where a horse action can change whether the king on ``ksq`` is in check:
    along each line up to the second occupied square, and the knight squares (D11)."""
    out = set(KNIGHT[ksq])
    for ray in RAYS[ksq]:
        seen = 0
        for t in ray:
            out.add(t)
            if board[t] != EMPTY:
                seen += 1
                if seen == 2:
                    break
    return frozenset(out)


def shields(board: str, ksq: int, white: bool, mine: str
             ) -> tuple[set[int], set[tuple[int, int]], frozenset[int]]:
    """The mover's horses that alone (or as a pair) stand between the king and an enemy
    slider: removing them would expose the king (D9). Also the squares where a chess move could
    change that answer."""
    single: set[int] = set()
    double: set[tuple[int, int]] = set()
    watched: set[int] = set()
    rook, bishop = ("rq", "bq") if white else ("RQ", "BQ")
    for d, ray in enumerate(RAYS[ksq]):
        sliders = rook if d < 4 else bishop
        found: list[int] = []
        for t in ray:
            c = board[t]
            if c == EMPTY:
                continue
            if c == mine and len(found) < 2:
                found.append(t)
                continue
            if c in sliders and found:
                if len(found) == 1:
                    single.add(found[0])
                else:
                    double.add((found[0], found[1]))
            break
        # A chess move can change which horses shield the king only on a line that holds one
        # of them before an enemy slider that moves along it, and only up to that slider.
        seen_horse = False
        for i, t in enumerate(ray):
            c = board[t]
            if c == mine:
                seen_horse = True
            elif c in sliders:
                if seen_horse:
                    watched.update(ray[:i + 1])
                break
    return single, double, frozenset(watched)


def horse_moves(board: str, s: int, white: bool, ksq: int, mine: str, single: set[int],
                 double: set[tuple[int, int]]) -> list[Any]:
    """The legal moves of the horse on ``s`` (D5, D6, D7, D9)."""
    step, last = (8, 7) if white else (-8, 0)
    targets = []
    t = s + step
    if 0 <= t < 64:
        if board[t] == EMPTY:
            targets.append(t)
        else:
            t2 = t + step  # D5: the jump needs an occupied middle, a vacant landing
            if 0 <= t2 < 64 and board[t2] == EMPTY:
                targets.append(t2)
    if s & 7 and board[s - 1] == EMPTY:
        targets.append(s - 1)
    if s & 7 != 7 and board[s + 1] == EMPTY:
        targets.append(s + 1)
    out: list[Any] = []
    risky = s in single or (double and any(s in pair for pair in double))
    for t in targets:
        if risky and not safe_without(board, ksq, white, s, -1, t, mine):
            continue  # D9: moving this horse uncovers the mover's king
        if t >> 3 == last:  # D7
            out.extend((HMOVE, s, t, p) for p in (4, 3, 2, 1))
        else:
            out.append((HMOVE, s, t, 0))
    return out


def moves_after(board: str, s: int, white: bool, f: int, t: int) -> list[Any]:
    """The moves of the horse on ``s`` once a chess move has emptied ``f`` and filled ``t``
    (``board`` is before it), when no horse shields the mover's king (D5, D6, D7)."""
    step, last = (8, 7) if white else (-8, 0)
    targets = []
    a = s + step
    if 0 <= a < 64:
        if a == f or (a != t and board[a] == EMPTY):
            targets.append(a)
        else:
            b = a + step  # D5: the jump needs an occupied middle, a vacant landing
            if 0 <= b < 64 and (b == f or (b != t and board[b] == EMPTY)):
                targets.append(b)
    if s & 7:
        a = s - 1
        if a == f or (a != t and board[a] == EMPTY):
            targets.append(a)
    if s & 7 != 7:
        a = s + 1
        if a == f or (a != t and board[a] == EMPTY):
            targets.append(a)
    out: list[Any] = []
    for a in targets:
        if a >> 3 == last:  # D7
            out.extend((HMOVE, s, a, p) for p in (4, 3, 2, 1))
        else:
            out.append((HMOVE, s, a, 0))
    return out


def safe_without(board: str, ksq: int, white: bool, a: int, b: int = -1, to: int = -1,
          horse: str = "*") -> bool:
    """Whether the king stays safe once the horses on ``a`` (and ``b``) are gone and, for a
    horse move, one stands on ``to`` (D9)."""
    cells = list(board)
    cells[a] = EMPTY
    if b >= 0:
        cells[b] = EMPTY
    if to >= 0:
        cells[to] = horse
    return not attacked("".join(cells), ksq, not white)


def horse_text(h: Any) -> str:
    kind = h[0]
    if kind == PLACE:
        return f"@{SQUARE_NAMES[h[1]]}"
    if kind == REMOVE:
        return f"-{SQUARE_NAMES[h[1]]}" + (f" -{SQUARE_NAMES[h[2]]}" if h[2] >= 0 else "")
    promo = f"={PROMO_LETTERS[h[3]]}" if h[3] else ""
    return f"H{SQUARE_NAMES[h[1]]}-{SQUARE_NAMES[h[2]]}{promo}"
