"""Desdemona (Rey Alicea): queen-moving pawns that leave stones behind and capture lines of them.

The board is a flat ``bytes`` of ``size * size`` cells (index = rank * size + file, rank 0 at the
bottom). An action is a small int ``s | t << 7 | u << 14 | kind << 21`` (pawn from, pawn to, stone
square, kind), ``PASS`` or ``RESIGN``; ints keep move generation, the hot path, cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import pyparsing as pp

from gametool.engine import RESIGN, Game, Option, Outcome
from gametool.errors import GameOver, IllegalAction, MalformedAction
from notation.errors import NotationError
from notation.tokens import FILES, Square, keyword, parse_whole, square

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


def encode(s: int, t: int, u: int = 0, kind: int = QUIET) -> int:
    return s | t << 7 | u << 14 | kind << 21


def decode(action: int) -> tuple[int, int, int, int]:
    """(from, to, stone square, kind) of a move action."""
    return action & 127, (action >> 7) & 127, (action >> 14) & 127, action >> 21


def _grammar() -> pp.ParserElement:
    sq = square()
    separator = pp.one_of("/ x", caseless=True).set_name("'/' or 'x'")
    move = (sq + pp.Suppress("-") + sq + pp.Optional(separator + sq)).set_name("move")
    return (keyword("pass") | keyword(RESIGN) | move).set_name("Desdemona action")


GRAMMAR = _grammar()


class Desdemona(Game[DesdemonaState, Any]):
    id = "desdemona"
    name = "Desdemona"
    min_players = 2
    max_players = 2
    seat_names = ("black", "white")
    chance = ""
    hidden = ""
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
quiet    b2-d4/f6    pawn from b2 to d4, then an opponent stone on f6
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
        if state.passes >= 2 or state.resigned is not None:
            return None
        return state.turn

    def can_slide(self, cells: bytes | bytearray, pawns: Sequence[int]) -> bool:
        """Whether any of these pawns has a slide (an empty neighbour)."""
        rays_ = self.rays
        return any(not cells[ray[0]] for p in pawns for ray in rays_[p])

    def captures_only_now(self, state: DesdemonaState) -> bool:
        """D5: judged afresh at the start of each turn."""
        return self.captures_only and not self.can_slide(state.cells, state.pawns[1 - state.turn])

    def legal_actions(self, state: DesdemonaState) -> list[Any]:
        if state.passes >= 2 or state.resigned is not None:
            return []
        me = state.turn
        cells = bytearray(state.cells)
        rays_ = self.rays
        out: list[int] = []
        if state.ply == 0 and not self.first_stone:  # D9 off: a slide alone
            for s in state.pawns[0]:
                for ray in rays_[s]:
                    for t in ray:
                        if cells[t]:
                            break
                        out.append(s | t << 7 | SLIDE << 21)
            return out
        quiet = not self.captures_only_now(state)
        foe = STONE[1 - me]
        captures = foe in cells
        append = out.append
        for s in state.pawns[me]:
            cells[s] = EMPTY  # D1: the vacated square counts as empty
            for ray in rays_[s]:
                for t in ray:
                    if cells[t]:
                        break
                    base = s | t << 7
                    if quiet:
                        for line in rays_[t]:
                            for u in line:
                                if cells[u]:
                                    break
                                append(base | u << 14)
                    if captures:
                        cbase = base | CAPTURE << 21
                        for line in rays_[t]:
                            if cells[line[0]] != foe:
                                continue
                            for e in line:  # D3: opponent stones, then at once an empty square
                                c = cells[e]
                                if c != foe:
                                    if not c:
                                        append(cbase | e << 14)
                                    break
            cells[s] = PAWN[me]
        if not out:
            out.append(PASS)  # D6
        return out

    def apply(self, state: DesdemonaState, action: Any) -> DesdemonaState:
        me = state.turn
        if action == RESIGN:
            return state._replace(resigned=me, ply=state.ply + 1)
        if action == PASS:
            return DesdemonaState(state.cells, state.pawns, 1 - me, state.passes + 1,
                                  state.ply + 1)
        s, t, u, kind = action & 127, (action >> 7) & 127, (action >> 14) & 127, action >> 21
        cells = bytearray(state.cells)
        cells[s] = EMPTY
        cells[t] = PAWN[me]
        if kind == QUIET:
            cells[u] = STONE[1 - me]
        elif kind == CAPTURE:
            size = self.size
            step = _step(t, u, size)
            own = STONE[me]
            for sq in range(t + step, u + step, step):
                cells[sq] = own
        mine = state.pawns[me]
        moved = tuple(t if p == s else p for p in mine)
        pawns = (moved, state.pawns[1]) if me == 0 else (state.pawns[0], moved)
        return DesdemonaState(bytes(cells), pawns, 1 - me, 0, state.ply + 1)

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
        try:
            parsed = parse_whole(GRAMMAR, text)
        except NotationError as exc:
            raise MalformedAction(
                f"malformed action {text.strip()!r}: {exc.message}; expected e.g. b2-d4/d6, "
                "d4-d5xd7 or pass") from None
        tokens = list(parsed)
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
        if action in self._legal_set(state):
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
        step = _step(t, e, size)
        if step == 0 or e == t:
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
            "pawns": {"black": [self.sq_name(p) for p in state.pawns[0]],
                      "white": [self.sq_name(p) for p in state.pawns[1]]},
            "stones": {"black": black, "white": white},
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


def _step(a: int, b: int, size: int) -> int:
    """The index step of the queen line from a towards b, or 0 if they share no line."""
    df, dr = b % size - a % size, b // size - a // size
    if df == 0 and dr == 0:
        return 0
    if df != 0 and dr != 0 and abs(df) != abs(dr):
        return 0
    return (dr > 0) * size - (dr < 0) * size + (df > 0) - (df < 0)
