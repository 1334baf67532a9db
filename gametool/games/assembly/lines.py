"""Assembly's board: squares, the base-3 line codes, the lazily filled tables that give each
figure its sight share and its moves along a line, and the connection test.

Every rank, file, NE diagonal and NW-SE anti-diagonal keeps a base-3 code of its contents; the
moves of a figure along one line depend only on that code and its position, so they are computed
once and then looked up.
"""

from __future__ import annotations

from itertools import product
from typing import Any, NamedTuple

N = 9
FILES = "abcdefghi"
EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOL = ".BW"
COLOUR_NAME = ("", "Black", "White")
PASS = -1
"""The pass action; a move is the int ``from * 81 + to`` (squares numbered rank-major from a1)."""


def sq(file: int, rank: int) -> int:
    return rank * N + file


def sq_name(s: int) -> str:
    return f"{FILES[s % N]}{s // N + 1}"


def _build_lines() -> tuple[list[tuple[int, ...]], list[bool]]:
    """Every rank, file, NE diagonal and NW-SE anti-diagonal as squares in order, and whether
    the line's two directions count for sight (D3: NE/SW do not)."""
    lines: list[tuple[int, ...]] = []
    sees: list[bool] = []
    for r in range(N):  # ranks, west to east: E and W count
        lines.append(tuple(sq(f, r) for f in range(N)))
        sees.append(True)
    for f in range(N):  # files, south to north: N and S count
        lines.append(tuple(sq(f, r) for r in range(N)))
        sees.append(True)
    for k in range(-(N - 1), N):  # NE diagonals (file - rank = k): NE and SW do not count
        lines.append(tuple(sq(f, f - k) for f in range(N) if 0 <= f - k < N))
        sees.append(False)
    for k in range(2 * N - 1):  # anti-diagonals (file + rank = k), towards SE: NW and SE count
        lines.append(tuple(sq(f, k - f) for f in range(N) if 0 <= k - f < N))
        sees.append(True)
    return lines, sees


LINES, LINE_SEES = _build_lines()
SHIFT = 10
"""A state keeps each line's base-3 code shifted left by SHIFT bits; the low bits of a table key
hold the line id and the position on it: key = (code << SHIFT) + lid * 16 + position."""
# For every square: (line id, position on it, 3**position << SHIFT) of its four lines.
SQUARE_LINES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((lid, line.index(s), 3 ** line.index(s) << SHIFT)
          for lid, line in enumerate(LINES) if s in line)
    for s in range(N * N)
)
# For every square: the flat tuple (lid0, low0, lid1, low1, ...), low = lid * 16 + position.
SQUARE_KEYS = tuple(tuple(x for lid, pos, _p in entry for x in (lid, lid * 16 + pos))
                    for entry in SQUARE_LINES)


def _bit(s: int) -> int:
    """The bitboard bit of a square, 10 bits a rank (the padding file stops shifts wrapping)."""
    return 1 << ((s // N) * 10 + s % N)


BIT = tuple(_bit(s) for s in range(N * N))


_DIGITS = tuple(digits[::-1] for digits in product(range(3), repeat=N))
"""The contents of a line from its base-3 code (position i is digit i: ``product`` counts with
its last digit the fastest, so each is read backwards)."""


def _relative_entry(length: int, sees: bool, code: int, pos: int,
                    upto: bool) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """For the figure at ``pos`` of a line of ``length`` squares with contents ``code``: its
    sight share from this line and, by sight 0..6, the steps along the line it may move."""
    cells = _DIGITS[code]
    colour = cells[pos]
    share = 0
    ways = []
    for step in (1, -1):
        if sees:
            p = pos + step
            while 0 <= p < length and not cells[p]:
                p += step
            if 0 <= p < length and cells[p] == colour:  # D2: the first occupied square only
                share += 1
        # way[d]: the move of exactly d squares this way (as steps along the line), or None
        way: list[int | None] = [None] * 7
        dest = pos
        for dist in range(1, 7):
            dest += step
            if not 0 <= dest < length:
                break  # beyond the edge
            held = cells[dest]
            if held == colour:
                continue  # D5: a friendly figure may be jumped, never landed on
            way[dist] = step * dist
            if held:
                break  # D5: an enemy is captured here and blocks every longer move
        ways.append(way)
    ahead, back = ways
    if upto:
        by_sight = [tuple(m for m in ahead[1:sight + 1] if m is not None)
                    + tuple(m for m in back[1:sight + 1] if m is not None)
                    for sight in range(7)]
    else:  # D1: exactly the sight
        by_sight = [()]
        for a, b in zip(ahead[1:], back[1:], strict=True):
            if a is None:
                by_sight.append(() if b is None else (b,))
            else:
                by_sight.append((a,) if b is None else (a, b))
    by_sight[0] = ()
    return share, tuple(by_sight)


# Two levels of lazily filled tables, one set per distance rule. Relative entries are shared by
# the lines of one length and kind; absolute entries (moves as actions) belong to one line.
_RELATIVE: dict[bool, dict[tuple[int, bool], dict[int, Any]]] = {False: {}, True: {}}
TABLES: dict[bool, dict[int, Any]] = {False: {}, True: {}}


def line_entry(lid: int, code: int, pos: int,
                upto: bool) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The sight share and moves (as actions, by sight 0..6) of the figure at ``pos`` of line
    ``lid`` with contents ``code``."""
    line = LINES[lid]
    shape = (len(line), LINE_SEES[lid])
    table = _RELATIVE[upto].setdefault(shape, {})
    key = code * 16 + pos
    relative = table.get(key)
    if relative is None:
        found = _relative_entry(*shape, code, pos, upto)
        relative = table[key] = _DISTINCT.setdefault(found, found)
    # Many line contents give the same relative entry (the moves look at nearby squares only):
    # each distinct one is written as actions once per line and position.
    written = (lid, pos, id(relative))
    entry = _WRITTEN.get(written)
    if entry is None:
        to = _ACTIONS[lid][pos]
        entry = _WRITTEN[written] = (relative[0], tuple([tuple([to[k] for k in ks]) if ks else ()
                                                         for ks in relative[1]]))
    return entry


_DISTINCT: dict[Any, Any] = {}
"""Each distinct relative entry, once (kept for good: ``_WRITTEN`` keys on their ids)."""
_WRITTEN: dict[tuple[int, int, int], Any] = {}


# For every line and position on it: the move action of each step along the line, by step
# (a negative step counts from the end, as Python indexes).
_ACTIONS = tuple(tuple(tuple(line[pos] * 81 + line[(pos + k) % len(line)]
                             for k in range(len(line)))
                       for pos in range(len(line)))
                 for line in LINES)


class AssemblyState(NamedTuple):
    """One position. ``lines`` holds the base-3 code of each line; ``figures`` the squares of
    each side; ``bits`` their bitboards; ``result`` is (termination, winner or None) at the end."""

    cells: bytes
    lines: tuple[int, ...]
    figures: tuple[tuple[int, ...], tuple[int, ...]]
    bits: tuple[int, int]
    seat: int
    ply: int
    passes: int
    result: tuple[str, int | None] | None


def connected(bits: int) -> bool:
    """Whether the figures of one side form a single 8-connected group (one figure: yes)."""
    group = bits & -bits
    while True:
        row = group | (group << 1) | (group >> 1)
        grown = (row | (row << 10) | (row >> 10)) & bits
        if grown == group:
            return group == bits
        group = grown
