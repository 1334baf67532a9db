"""Desdemona (Rey Alicea): queen-moving pawns that leave stones behind and capture lines of them.

The board is a flat ``bytes`` of ``size * size`` cells (index = rank * size + file, rank 0 at the
bottom). An action is a small int ``s | t << 7 | u << 14 | kind << 21`` (pawn from, pawn to, stone
square, kind), ``PASS`` or ``RESIGN``; ints keep move generation, the hot path, cheap. Turn
lists are sliced out of precomputed per-line action tuples (see ``Tables``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from gametool.core.engine import RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from notation.errors import NotationError
from notation.fast import FastReader
from notation.values import FILES, Square

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

EMPTY, BLACK_STONE, WHITE_STONE, BLACK_PAWN, WHITE_PAWN = 0, 1, 2, 3, 4
STONE = (BLACK_STONE, WHITE_STONE)
PAWN = (BLACK_PAWN, WHITE_PAWN)
COLOURS = ("Black", "White")
QUIET, CAPTURE, SLIDE = 0, 1, 2
PASS = -1
SYMBOL = {EMPTY: ".", BLACK_STONE: "b", WHITE_STONE: "w", BLACK_PAWN: "B", WHITE_PAWN: "W"}
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))

SETUPS: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {
    7: (("b2", "f2"), ("b6", "f6")),
    8: (("a4", "b2", "g2"), ("b7", "g7", "h5")),
    10: (("a4", "d10", "g1", "j7"), ("a7", "d1", "g10", "j4")),
}


class DesdemonaState(NamedTuple):
    """One position: cells, pawn squares per colour, side to move, passes in a row, plies."""

    cells: bytes
    pawns: tuple[tuple[int, ...], tuple[int, ...]]
    turn: int
    passes: int = 0
    ply: int = 0
    resigned: int | None = None


@cache
def rays(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the squares met along each of the 8 directions, nearest first."""
    out = []
    for sq in range(size * size):
        f0, r0 = sq % size, sq // size
        lines = []
        for df, dr in DIRECTIONS:
            line = []
            f, r = f0 + df, r0 + dr
            while 0 <= f < size and 0 <= r < size:
                line.append(r * size + f)
                f, r = f + df, r + dr
            if line:
                lines.append(tuple(line))
        out.append(tuple(lines))
    return tuple(out)


# -- move-generation tables -------------------------------------------------------------------
#
# Every square lies on four lines (rank, file, two diagonals). On a line, the empty run around a
# position is looked up in a plain dict from the line's occupancy (the board's occupancy int
# masked to the line without that position, see ``_position_runs``): the slice, in the line's
# squares with that position left out, of the squares a slide from it reaches. For a pawn, the
# run picks its slide targets along the line and, in one precomputed tuple, the quiet actions
# whose stone stays on that line (the vacated square lies inside the run, D1); each target's
# three other lines do not contain the vacated square, so their runs come from the position as
# it stands. Actions are precomputed per (pawn square, target, line) as tuples, so a turn list is
# built by slicing tuples rather than by walking squares one at a time. Capture rays are read
# from bit masks: the first square after an opponent stone that is not one must be empty.

# Cells to the digits of a binary numeral, read by int(..., 2): square i is bit N - 1 - i of the
# result (N squares). OCCUPIED marks anything on a square, FOE_STONES[me] the opponent's stones.
OCCUPIED = bytes(b"0" + b"1" * 255)
FOE_STONES = (bytes(49 if c == WHITE_STONE else 48 for c in range(256)),
              bytes(49 if c == BLACK_STONE else 48 for c in range(256)))
_new_state = tuple.__new__


def _position_runs(line: tuple[int, ...], top: int) -> tuple[dict[int, slice], ...]:
    """Per position on a line: the empty run around it, for every occupancy of the line's other
    squares. Keys are the board's occupancy int masked to the line without the position's own
    bit; values are slices of the line's squares with that position left out."""
    length = len(line)
    bits = [1 << top - sq for sq in line]
    keys = [0] * (1 << length)  # occupancy pattern (bit i = position i) -> board bits
    for pattern in range(1, 1 << length):
        low = pattern & -pattern
        keys[pattern] = keys[pattern ^ low] + bits[low.bit_length() - 1]
    cuts = {(lo, hi): slice(lo, hi) for lo in range(length) for hi in range(lo, length)}
    out: list[dict[int, slice]] = [{} for _ in line]
    for pattern in range(1 << length):
        key_of = keys[pattern]
        q = 0
        while q < length:  # each empty stretch lo..hi: every position in it sees that run
            if pattern >> q & 1:
                q += 1
                continue
            lo = q
            while q < length and not pattern >> q & 1:
                q += 1
            cut = cuts[lo, q - 1]
            for p in range(lo, q):
                out[p][key_of] = cut
    return tuple(out)


class Tables:
    """Line geometry of one board size, and the per-pawn-square action tuples (built lazily)."""

    def __init__(self, size: int) -> None:
        self.size = size
        lines: list[tuple[int, ...]] = []
        for start, step in ([(r * size, 1) for r in range(size)]  # ranks, eastwards
                            + [(f, size) for f in range(size)]  # files, northwards
                            + [(f, size + 1) for f in range(size)]  # diagonals, north-east
                            + [(r * size, size + 1) for r in range(1, size)]
                            + [(f, size - 1) for f in range(size)]  # anti-diagonals, north-west
                            + [(r * size + size - 1, size - 1) for r in range(1, size)]):
            squares = [start]
            while True:
                sq = squares[-1]
                f, r = sq % size, sq // size
                df = {1: 1, size: 0, size + 1: 1, size - 1: -1}[step]
                dr = 0 if step == 1 else 1
                if not (0 <= f + df < size and 0 <= r + dr < size):
                    break
                squares.append(sq + step)
            lines.append(tuple(squares))
        self.lines = tuple(lines)
        where: list[list[tuple[int, int]]] = [[] for _ in range(size * size)]
        for lid, squares in enumerate(lines):
            for q, sq in enumerate(squares):
                where[sq].append((lid, q))
        self.where = tuple(tuple(w) for w in where)  # per square: (line, position) x 4
        # A line's occupancy is read from the board's occupancy int (a bit per square) by a mask.
        top = size * size - 1
        self.masks = tuple(sum(1 << top - sq for sq in line) for line in lines)
        self.top = top
        self._runs: list[Any] = [None] * len(lines)
        self.neighbours = tuple(
            sum(1 << top - n for n in range(size * size)
                if n != sq and abs(n % size - sq % size) <= 1 and abs(n // size - sq // size) <= 1)
            for sq in range(size * size))
        self._stars: list[Any] = [None] * (size * size)
        self.stone_at = {1 << top - sq: sq << 14 for sq in range(size * size)}
        self._pawn: list[Any] = [None] * (size * size)

    def star(self, t: int) -> dict[int, tuple[tuple[int, dict[int, int]], ...]]:
        """The capture rays from t, keyed by which of its neighbours hold opponent stones (the
        neighbour bits): per ray starting at such a neighbour, the mask of the squares after
        it, and for each pattern of opponent stones on them, the bit of the first square that
        does not hold one (0 when they all do, up to the edge): D3's empty square, if empty."""
        cached = self._stars[t]
        if cached is not None:
            return cached
        top = self.top
        by_bit = []
        for ray in rays(self.size)[t]:
            bits = [1 << top - sq for sq in ray[1:]]
            keys = [0] * (1 << len(bits))
            gaps = {0: bits[0] if bits else 0}
            for pattern in range(1, 1 << len(bits)):
                low = pattern & -pattern
                keys[pattern] = keys[pattern ^ low] + bits[low.bit_length() - 1]
                first_free = (~pattern & pattern + 1).bit_length() - 1
                gaps[keys[pattern]] = bits[first_free] if first_free < len(bits) else 0
            by_bit.append((1 << top - ray[0], (sum(bits), gaps)))
        cached = {0: ()}
        chosen = [0] * (1 << len(by_bit))
        for pattern in range(1, 1 << len(by_bit)):
            low = pattern & -pattern
            bit, ray = by_bit[low.bit_length() - 1]
            rest = chosen[pattern ^ low]
            chosen[pattern] = rest + bit
            cached[rest + bit] = cached[rest] + (ray,)
        self._stars[t] = cached
        return cached

    def runs(self, lid: int, q: int) -> tuple[dict[int, slice], int]:
        """The runs around position q of line lid (see ``_position_runs``), and the mask
        that reads their key from the board's occupancy int: the line without that position."""
        per_line = self._runs[lid]
        if per_line is None:
            per_line = self._runs[lid] = _position_runs(self.lines[lid], self.top)
        return per_line[q], self.masks[lid] ^ 1 << self.top - self.lines[lid][q]

    def pawn(self, s: int) -> tuple[Any, ...]:
        """For a pawn on s, per line through s: (targets, mask), where targets maps the line's
        occupancy key (see ``runs``) to the records of the squares the pawn slides to along the
        line, in order, and the quiet actions whose stone lies on that line too. A record holds
        the target's three other lines as (runs, mask, quiet actions along the line), the
        neighbour mask of the target, its capture rays by neighbour bit and the capture base."""
        cached = self._pawn[s]
        if cached is not None:
            return cached
        lines, where = self.lines, self.where
        out = []
        for lid, q in where[s]:
            records = []
            own = []
            for t in lines[lid][:q] + lines[lid][q + 1:]:
                base = s | t << 7
                other: list[Any] = []
                for tlid, tq in where[t]:
                    squares = lines[tlid][:tq] + lines[tlid][tq + 1:]
                    acts = tuple(base | u << 14 for u in squares)
                    if tlid == lid:
                        own.append(acts)
                    else:
                        other += [*self.runs(tlid, tq), acts]
                records.append((*other, self.neighbours[t], self.star(t),
                                base | CAPTURE << 21))
            runs, mask = self.runs(lid, q)
            # D1: the pawn's run holds the vacated square and each target; with the target left
            # out instead of s, the same slice of the line gives the stone squares along it.
            per_run = {(cut.start, cut.stop): (tuple(records[cut]),
                                               sum((acts[cut] for acts in own[cut]), ()))
                       for cut in runs.values()}
            out.append(({key: per_run[cut.start, cut.stop] for key, cut in runs.items()}, mask))
        cached = self._pawn[s] = tuple(out)
        return cached


@cache
def tables(size: int) -> Tables:
    return Tables(size)


def encode(s: int, t: int, u: int = 0, kind: int = QUIET) -> int:
    return s | t << 7 | u << 14 | kind << 21


def decode(action: int) -> tuple[int, int, int, int]:
    """(from, to, stone square, kind) of a move action."""
    return action & 127, (action >> 7) & 127, (action >> 14) & 127, action >> 21


@cache
def _grammar():  # noqa: ANN202 (a pyparsing element, loaded on first need)
    """The full grammar: only a text that the fast reader does not take comes here."""
    import pyparsing as pp

    from notation.tokens import keyword, square

    sq = square()
    separator = pp.one_of("/ x", caseless=True).set_name("'/' or 'x'")
    move = (sq + pp.Suppress("-") + sq + pp.Optional(separator + sq)).set_name("move")
    return (keyword("pass") | keyword(RESIGN) | move).set_name("Desdemona action")


# A move of the usual shape, read without the grammar (the same tokens; anything else is left
# to the grammar, which names the error).
_FAST_MOVE = re.compile(r"\s*([A-Za-z])([1-9][0-9]?)-([A-Za-z])([1-9][0-9]?)"
                        r"(?:([/xX])([A-Za-z])([1-9][0-9]?))?\s*")


def _fast_tokens(match: re.Match[str]) -> list[Any]:
    g = match.groups()
    out: list[Any] = [Square(ord(g[0].lower()) - 97, int(g[1])),
                      Square(ord(g[2].lower()) - 97, int(g[3]))]
    if g[4] is not None:
        out += [g[4].lower(), Square(ord(g[5].lower()) - 97, int(g[6]))]
    return out


def _fast_read(text: str) -> list[Any] | None:
    """The tokens of a move of the usual shape, or of a word (pass, resign), as the grammar
    reads them; None for anything else."""
    fast = _FAST_MOVE.fullmatch(text)
    if fast is not None:
        return _fast_tokens(fast)
    word = text.strip().lower()
    return [word] if word in ("pass", RESIGN) else None


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: {exc.message}; expected e.g. "
                           "b2-d4/d6, d4-d5xd7 or pass")


_read = FastReader(_fast_read, _grammar, refuse=_refused)
"""The tokens of an action: two or four (squares and the stone's sign), or a word."""


class Desdemona(Game[DesdemonaState, Any]):
    id = "desdemona"
    name = "Desdemona"
    min_players = 2
    max_players = 2
    seat_names = ("black", "white")
    names_seats = True
    names_seats_in_actions = False
    chance = ""
    hidden = ""
    draws = True
    options = (
        Option("size", "7", ("7", "8", "10"), help="board side (D8)"),
        Option("captures_only_when_opponent_stuck", "on", ("on", "off"),
               help="while no opponent pawn can slide, only captures are allowed (D5)"),
        Option("first_move_stone", "on", ("on", "off"),
               help="Black's first move places a stone like any quiet move (D9)"),
    )
    # Every move adds a stone to an empty square, with at most one pass between moves: on the
    # 10x10 board (92 free squares) a game has fewer than 2 * 92 + 4 plies.
    max_plies = 200
    summary = """
Two players, Black and White, each with pawns on a square board (7x7 by default, 8x8 or 10x10
with the option size). Pawns move like chess queens (a slide: at least one square, over empty
squares only) and are never captured. Stones are two-sided, black and white; a stone belongs to
the colour showing. Black moves first.

A turn is one of: a quiet move (slide one of your pawns, then place a stone of your OPPONENT's
colour on an empty square that a slide from the pawn's new square could reach; the square the
pawn left counts as empty); a capture (slide one of your pawns, then choose one direction from
its new square in which one or more opponent stones lie in an unbroken line followed at once by
an empty square: put a stone of your colour on that empty square and turn the line over); or a
pass, only when neither is possible. Captures are never compulsory.

While none of the opponent's pawns can slide, the player to move may only capture (option
captures_only_when_opponent_stuck), and passes without a capture. With first_move_stone=off,
Black's first move is a slide alone.

Two passes in a row end the game. Each side scores the stones showing its colour; the higher
score wins and equal scores draw. A resigning player loses.
"""
    notation = """\
quiet    b2-d4/d6    pawn from b2 to d4, then an opponent stone on d6
capture  d4-d5xd7    pawn from d4 to d5, own stone on d7; the stones between d5 and d7 turn
slide    b2-d4       Black's first move with first_move_stone=off only
pass     pass        only without any legal move
resign   resign

Squares are file letter then rank (a1 bottom left, Black's side); any case is read.
"""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.size: int = int(self.settings["size"])
        self.captures_only: bool = self.settings["captures_only_when_opponent_stuck"] == "on"
        self.first_stone: bool = self.settings["first_move_stone"] == "on"
        self.rays = rays(self.size)
        self.tables = tables(self.size)
        self._cache: tuple[DesdemonaState, frozenset[Any]] | None = None

    # -- squares --------------------------------------------------------------------------------

    def sq_name(self, sq: int) -> str:
        return f"{FILES[sq % self.size]}{sq // self.size + 1}"

    def sq_index(self, file: int, rank: int) -> int | None:
        if 0 <= file < self.size and 1 <= rank <= self.size:
            return (rank - 1) * self.size + file
        return None

    # -- the rules ------------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> DesdemonaState:
        cells = bytearray(self.size * self.size)
        pawns = []
        for colour, names in enumerate(SETUPS[self.size]):
            squares = tuple(sorted(self.sq_index(ord(n[0]) - 97, int(n[1:])) or 0 for n in names))
            for sq in squares:
                cells[sq] = PAWN[colour]
            pawns.append(squares)
        return DesdemonaState(bytes(cells), (pawns[0], pawns[1]), 0)

    def to_move(self, state: DesdemonaState) -> int | None:
        _, _, turn, passes, _, resigned = state
        if passes >= 2 or resigned is not None:
            return None
        return turn

    def can_slide(self, cells: bytes | bytearray, pawns: Sequence[int]) -> bool:
        """Whether any of these pawns has a slide (an empty neighbour)."""
        rays_ = self.rays
        return any(not cells[ray[0]] for p in pawns for ray in rays_[p])

    def captures_only_now(self, state: DesdemonaState) -> bool:
        """D5: judged afresh at the start of each turn."""
        return self.captures_only and not self.can_slide(state.cells, state.pawns[1 - state.turn])

    def legal_actions(self, state: DesdemonaState, only: int | None = None) -> list[Any]:
        """The legal actions; with ``only``, just those of the pawn on that square (and no
        pass), so that a typed action is checked without listing every action."""
        cells, pawns, me, passes, ply, resigned = state
        if passes >= 2 or resigned is not None:
            return []
        tab = self.tables
        occupied = int(cells.translate(OCCUPIED), 2)
        out: list[int] = []
        if ply == 0 and not self.first_stone:  # D9 off: a slide alone
            for s in pawns[0] if only is None else [p for p in pawns[0] if p == only]:
                for targets_by_run, mask in tab.pawn(s):
                    targets = targets_by_run[occupied & mask][0]
                    out += [rec[-1] & 0x3FFF | SLIDE << 21 for rec in targets]
            return out
        quiet = True
        if self.captures_only:  # D5: judged afresh at the start of each turn
            quiet = False
            neighbours = tab.neighbours
            for p in pawns[1 - me]:
                if occupied & neighbours[p] != neighbours[p]:
                    quiet = True
                    break
        foe = STONE[1 - me]
        foes = int(cells.translate(FOE_STONES[me]), 2) if foe in cells else 0
        stone_at = tab.stone_at
        append = out.append
        cached = tab._pawn
        for s in pawns[me] if only is None else [p for p in pawns[me] if p == only]:
            for targets_by_run, mask in cached[s] or tab.pawn(s):
                records, along = targets_by_run[occupied & mask]
                if quiet:
                    out += along  # D1: stones along the pawn's line
                    for ra, ma, aa, rb, mb, ab, rc, mc, ac, near, star, cbase in records:
                        out += aa[ra[occupied & ma]]
                        out += ab[rb[occupied & mb]]
                        out += ac[rc[occupied & mc]]
                        hits = foes & near
                        if hits:  # D2, D3 (as below)
                            for ray, gaps in star[hits]:
                                end = gaps[ray & foes]
                                if end and not occupied & end:
                                    append(cbase | stone_at[end])
                    continue
                for *_, near, star, cbase in records:
                    hits = foes & near
                    if hits:
                        # D2, D3: per direction, foe stones then at once an empty square: the
                        # first square after the neighbour that is not a foe stone must be
                        # empty. The vacated square never matters: toward it lie only the
                        # empty squares the pawn slid over.
                        for ray, gaps in star[hits]:
                            end = gaps[ray & foes]
                            if end and not occupied & end:
                                append(cbase | stone_at[end])
        if not out and only is None:
            out.append(PASS)  # D6
        return out

    _actions = legal_actions

    def is_legal_move(self, state: DesdemonaState, action: int) -> bool:
        """Whether the move ``action`` is among :meth:`legal_actions`, worked out from the
        generator's tables for its pawn and target alone (not every action of the pawn)."""
        cells, pawns, me, passes, ply, resigned = state
        s, t, _u, kind = decode(action)
        if ply == 0 and not self.first_stone or passes >= 2 or resigned is not None:
            return action in self._actions(state, s)
        if s not in pawns[me] or kind not in (QUIET, CAPTURE):
            return False
        tab = self.tables
        occupied = int(cells.translate(OCCUPIED), 2)
        for targets_by_run, mask in tab._pawn[s] or tab.pawn(s):
            records, along = targets_by_run[occupied & mask]
            for record in records:
                if (record[-1] >> 7) & 127 != t:
                    continue
                if kind == QUIET:  # D1, D5: as legal_actions lists the quiet stones
                    if self.captures_only:
                        neighbours = tab.neighbours
                        if all(occupied & neighbours[p] == neighbours[p]
                               for p in pawns[1 - me]):
                            return False
                    ra, ma, aa, rb, mb, ab, rc, mc, ac, _near, _star, _cbase = record
                    return (action in along or action in aa[ra[occupied & ma]]
                            or action in ab[rb[occupied & mb]]
                            or action in ac[rc[occupied & mc]])
                near, star, cbase = record[-3:]  # D2, D3: as legal_actions lists captures
                foes = (int(cells.translate(FOE_STONES[me]), 2) if STONE[1 - me] in cells
                        else 0)
                hits = foes & near
                if hits:
                    stone_at = tab.stone_at
                    for ray, gaps in star[hits]:
                        end = gaps[ray & foes]
                        if end and not occupied & end and cbase | stone_at[end] == action:
                            return True
                return False
        return False

    def apply(self, state: DesdemonaState, action: Any) -> DesdemonaState:
        cells, pawns, me, passes, ply, resigned = state
        if action.__class__ is not int:
            if action == RESIGN:
                return state._replace(resigned=me, ply=ply + 1)
            raise ValueError(f"not a Desdemona action: {action!r}")
        if action == PASS:
            return _new_state(DesdemonaState, (cells, pawns, 1 - me, passes + 1, ply + 1, None))
        s, t, u, kind = action & 127, (action >> 7) & 127, (action >> 14) & 127, action >> 21
        board = bytearray(cells)
        board[s] = EMPTY
        board[t] = PAWN[me]
        if kind == QUIET:
            board[u] = STONE[1 - me]
        elif kind == CAPTURE:
            step = _step(t, u, self.size)
            own = STONE[me]
            for sq in range(t + step, u + step, step):
                board[sq] = own
        mine = pawns[me]
        i = mine.index(s)
        moved = (*mine[:i], t, *mine[i + 1:])
        return _new_state(DesdemonaState, (bytes(board), (moved, pawns[1]) if me == 0 else
                                           (pawns[0], moved), 1 - me, 0, ply + 1, None))

    def stone_counts(self, state: DesdemonaState) -> tuple[int, int]:
        return state.cells.count(BLACK_STONE), state.cells.count(WHITE_STONE)

    def scores(self, state: DesdemonaState) -> list[int | float]:
        return list(self.stone_counts(state))

    def outcome(self, state: DesdemonaState) -> Outcome | None:
        if state.resigned is not None:
            return Outcome.win(2, 1 - state.resigned, "resignation", self.scores(state))
        if state.passes >= 2:
            return Outcome.by_scores(self.scores(state), "two passes")  # D6, D7
        return None

    # -- notation -------------------------------------------------------------------------------

    def format_action(self, state: DesdemonaState, action: Any) -> str:
        if action == PASS:
            return "pass"
        if action == RESIGN:
            return RESIGN
        s, t, u, kind = decode(action)
        head = f"{self.sq_name(s)}-{self.sq_name(t)}"
        if kind == SLIDE:
            return head
        return f"{head}{'x' if kind == CAPTURE else '/'}{self.sq_name(u)}"

    def _square(self, text: str, where: Square) -> int:
        index = self.sq_index(where.file, where.rank)
        if index is None:
            raise MalformedAction(
                f"malformed action {text.strip()!r}: square {where} is off the "
                f"{self.size}x{self.size} board")
        return index

    def parse_action(self, state: DesdemonaState, text: str) -> Any:
        if self.to_move(state) is None:
            raise GameOver("the game is over: no more actions")
        if len(text.split()) > 1:
            raise MalformedAction(
                f"malformed action {text.strip()!r}: no blanks inside an action; expected e.g. "
                "b2-d4/d6, d4-d5xd7 or pass")
        tokens = list(_read(text))
        if len(tokens) == 1:  # a word: pass or resign
            if str(tokens[0]).lower() == RESIGN:
                return RESIGN
            action = PASS
        else:
            s, t = self._square(text, tokens[0]), self._square(text, tokens[1])
            if len(tokens) == 4:
                u = self._square(text, tokens[3])
                action = encode(s, t, u, CAPTURE if tokens[2].lower() == "x" else QUIET)
            else:
                action = encode(s, t, 0, SLIDE)
        if action == PASS:
            legal = action in self._legal_set(state)
        else:
            legal = self.is_legal_move(state, action)
        if legal:
            return action
        raise IllegalAction(f"{text.strip()!r}: {self.why_illegal(state, action)}")

    def _legal_set(self, state: DesdemonaState) -> frozenset[Any]:
        """The legal actions as a set, kept for the last state asked (parsing a list of moves)."""
        cached = self._cache
        if cached is None or cached[0] is not state:
            cached = self._cache = (state, frozenset(self.legal_actions(state)))
        return cached[1]

    def why_illegal(self, state: DesdemonaState, action: int) -> str:
        """The rule that forbids a well-formed action here."""
        me, colour, foe = state.turn, COLOURS[state.turn], COLOURS[1 - state.turn]
        if action == PASS:
            return "a pass is allowed only without any legal move (D6)"
        s, t, u, kind = decode(action)
        first_slide = state.ply == 0 and not self.first_stone
        if kind == SLIDE and not first_slide:
            return "a move must place a stone: write FROM-TO/SQUARE or FROM-TOxSQUARE"
        if kind != SLIDE and first_slide:
            return "with first_move_stone=off Black's first move is a slide alone (D9)"
        if state.cells[s] != PAWN[me]:
            return f"there is no {colour} pawn on {self.sq_name(s)}"
        cells = bytearray(state.cells)
        cells[s] = EMPTY
        blocked = self._line_block(cells, s, t)
        if blocked is not None:
            return f"the pawn cannot slide from {self.sq_name(s)} to {self.sq_name(t)}: {blocked}"
        if kind == QUIET:
            if self.captures_only_now(state):
                return f"captures only: none of {foe}'s pawns can slide (D5)"
            if u == t:
                return f"the stone cannot go on {self.sq_name(u)}: the pawn stands there (D1)"
            blocked = self._line_block(cells, t, u)
            if blocked is not None:
                return f"the stone cannot go on {self.sq_name(u)}: {blocked} (D1)"
        elif kind == CAPTURE:
            return self._why_no_capture(state, cells, t, u)
        return "not a legal move here"

    def _line_block(self, cells: bytearray, a: int, b: int) -> str | None:
        """Why a queen slide from a to b over ``cells`` is impossible, or None if it is clear."""
        size = self.size
        if a == b:
            return "it must move at least one square (D10)"
        step = _step(a, b, size)
        if step == 0:
            return "the squares are not on one line"
        for sq in range(a + step, b + step, step):
            if cells[sq]:
                return f"{self.sq_name(sq)} holds {self.content(cells[sq])}"
        return None

    @staticmethod
    def content(cell: int) -> str:
        return ("nothing", "a black stone", "a white stone", "a Black pawn", "a White pawn")[cell]

    def _why_no_capture(self, state: DesdemonaState, cells: bytearray, t: int, e: int) -> str:
        size, foe = self.size, STONE[1 - state.turn]
        if e == t:
            return (f"the new stone cannot go on {self.sq_name(e)}, where the pawn stands: it goes "
                    "on the empty square after the captured stones (D3)")
        step = _step(t, e, size)
        if step == 0:
            return f"{self.sq_name(e)} is not on a line from {self.sq_name(t)}"
        if cells[e]:
            return f"{self.sq_name(e)} is not empty: it holds {self.content(cells[e])}"
        between = list(range(t + step, e, step))
        if not between:
            return f"no {COLOURS[1 - state.turn]} stone lies between the pawn and the new stone"
        for sq in between:
            if cells[sq] != foe:
                return (f"the captured line must be {COLOURS[1 - state.turn]} stones followed "
                        f"at once by an empty square, but {self.sq_name(sq)} holds "
                        f"{self.content(cells[sq])} (D3)")
        return "not a legal capture here"

    # -- presentation ---------------------------------------------------------------------------

    def board_lines(self, state: DesdemonaState) -> list[str]:
        size = self.size
        return ["".join(SYMBOL[c] for c in state.cells[r * size:(r + 1) * size])
                for r in range(size - 1, -1, -1)]

    def view(self, state: DesdemonaState, seat: int | None) -> dict[str, Any]:
        black, white = self.stone_counts(state)
        to_move = self.to_move(state)
        return {
            "size": self.size,
            "board": self.board_lines(state),
            "colours": {seat_text(i): COLOURS[i] for i in range(2)},
            "pawns": {seat_text(i): [self.sq_name(p) for p in state.pawns[i]] for i in range(2)},
            "stones": {seat_text(0): black, seat_text(1): white},
            "passes_in_a_row": state.passes,
            "captures_only": to_move is not None and self.captures_only_now(state),
        }

    def render(self, state: DesdemonaState, seat: int | None, names: Sequence[str]) -> str:
        size = self.size
        width = len(str(size))
        lines = []
        for row, text in zip(range(size, 0, -1), self.board_lines(state), strict=True):
            lines.append(f"{row:>{width}}  " + " ".join(text))
        lines.append(" " * (width + 2) + " ".join(FILES[:size]))
        black, white = self.stone_counts(state)
        lines.append("")
        for colour, count in ((0, black), (1, white)):
            label = COLOURS[colour]
            if len(names) > colour and names[colour].lower() != label.lower():
                label += f" ({names[colour]})"
            pawns = len(state.pawns[colour])
            lines.append(f"{label}: {count} stone{'s' if count != 1 else ''}, {pawns} pawns")
        if self.to_move(state) is not None and self.captures_only_now(state):
            lines.append(f"captures only: no {COLOURS[1 - state.turn]} pawn can slide")
        return "\n".join(lines) + "\n"

    def diagram(self, state: DesdemonaState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The board: stones as discs, pawns as lettered triangles; black dark, white light."""
        from gametool.core.diagram import Diagram, Note, Piece, board_grid

        pieces = {"b": Piece("", "dark"), "w": Piece("", "light"),
                  "B": Piece("P", "dark", "triangle"), "W": Piece("P", "light", "triangle")}
        grid = board_grid(self.view(state, seat)["board"], pieces, checkered=True)
        notes = [line for line in self.render(state, seat, names).splitlines()[self.size + 1:]
                 if line]
        return Diagram((grid, Note(tuple(notes))),
                       legend=(("dark", f"black: {names[0]}"), ("light", f"white: {names[1]}")))


def _step(a: int, b: int, size: int) -> int:
    """The index step of the queen line from a towards b, or 0 if they share no line."""
    df, dr = b % size - a % size, b // size - a // size
    if df == 0 and dr == 0:
        return 0
    if df != 0 and dr != 0 and abs(df) != abs(dr):
        return 0
    return (dr > 0) * size - (dr < 0) * size + (df > 0) - (df < 0)
