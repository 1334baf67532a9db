"""Assembly: Lines of Action meets Tumbleweed on a 9x9 board.

A figure moves in a straight line (8 directions) exactly as many squares as it sees friendly
figures in the six sight directions N, S, E, W, NW and SE; the first side whose figures form one
group wins. Move generation looks figures up in the line tables of ``lines``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from gametool.core.engine import RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.core.tables import tabulate
from gametool.games.assembly.lines import (
    BIT,
    BLACK,
    COLOUR_NAME,
    EMPTY,
    FILES,
    LINES,
    PASS,
    SHIFT,
    SQUARE_KEYS,
    SQUARE_LINES,
    SYMBOL,
    TABLES,
    WHITE,
    AssemblyState,
    N,
    connected,
    line_entry,
    sq,
    sq_name,
)
from notation.errors import NotationError
from notation.fast import FastReader
from notation.values import Square

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

__all__ = ["PASS", "Assembly", "AssemblyState", "sq_name"]

_FAST_MOVE = re.compile(r"([A-Za-z])([1-9][0-9]?)([-xX])([A-Za-z])([1-9][0-9]?)")
"""A move as the grammar reads it, as a regular expression: a record never loads the grammar."""


@cache
def _grammar():  # noqa: ANN202 (a pyparsing element, loaded on first need)
    """The full grammar, for the texts the fast reader does not take (it names the error)."""
    import pyparsing as pp

    from notation import tokens

    g = tokens.square()
    # No blanks inside an action (the rule of every game): the separator and the square after
    # it follow without a gap.
    sep = (pp.Literal("-") | pp.CaselessLiteral("x")).set_name("'-' or 'x'").leave_whitespace()
    move = (g + sep + g.copy().leave_whitespace()).set_name("move")
    return (tokens.keyword("pass") | move).set_name("move or pass")


def _fast_read(text: str) -> list | None:
    """The tokens of an action as the tool writes it, as the grammar reads them; None for any
    other spelling."""
    word = text.strip()
    fast = _FAST_MOVE.fullmatch(word)
    if fast is not None:
        # (the grammar reads 'X' as 'x', as it reads any case of a square's letter)
        return [Square(ord(fast[1].lower()) - 97, int(fast[2])), fast[3].lower(),
                Square(ord(fast[4].lower()) - 97, int(fast[5]))]
    if word.lower() == "pass":
        return ["pass"]
    return None


_read = FastReader(_fast_read, _grammar)
"""The tokens of an action: ``[pass]`` or ``[square, separator, square]``."""


class Assembly(Game[AssemblyState, int]):
    """The rules of Assembly with the options ``distance`` and ``max_plies``."""

    id = "assembly"
    name = "Assembly"
    min_players = 2
    max_players = 2
    seat_names = ("Black", "White")
    names_seats = True
    names_seats_in_actions = False
    chance = ""
    hidden = ""
    draws = True
    max_plies = 600
    options = (
        Option("distance", "exact", ("exact", "upto"),
               help="D1: a figure moves exactly its sight, or any distance from 1 to its sight"),
        Option("max_plies", "600", kind=int, minimum=1,
               help="D9: plies (moves and passes) after which the game is drawn"),
    )
    summary = """\
Two players, Black (moves first) and White, on a 9x9 board (files a-i, ranks 1-9). Black starts
on b1-h1 and b9-h9, White on a2-a8 and i2-i8; corners and the inner squares are empty.

Sight: looking from a figure along N, S, E, W, NW and SE (not NE, not SW), the first occupied
square in each direction adds 1 if it holds a friendly figure; an enemy or the edge adds 0 and
nothing beyond is seen. A figure moves in a straight line in any of the 8 directions exactly as
many squares as its sight (option distance=upto: 1 to its sight); sight 0 means no move. The
path may cross friendly figures but no enemy one; the destination is empty (a move) or holds an
enemy (a capture: the enemy leaves the game), never a friendly figure.

A side is connected when all its figures form one group touching orthogonally or diagonally (a
single figure is connected). After every move both sides are checked: only the mover connected,
the mover wins; only the opponent connected, the opponent wins; both, a draw. A player with no
legal move passes (and may pass only then); two passes in a row draw; after max_plies plies
(default 600) the game is drawn unless the last ply decided it. Resigning loses."""
    notation = """\
action = move | "pass" | "resign"
move   = square ("-" | "x") square     "x" exactly when the destination holds an enemy
square = file rank, file a-i, rank 1-9

Examples: d1-d4 (a move), d1xa4 (a capture), pass (only without a legal move)."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.upto = self.settings["distance"] == "upto"
        self.cap = self.settings["max_plies"]
        self.max_plies = self.cap  # type: ignore[misc]  # D9: the bound self-play relies on
        self._tables = TABLES[self.upto]

    # -- positions --------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> AssemblyState:
        cells = bytearray(N * N)
        for f in range(1, 8):
            cells[sq(f, 0)] = cells[sq(f, 8)] = BLACK
        for r in range(1, 8):
            cells[sq(0, r)] = cells[sq(8, r)] = WHITE
        return self.state_from_cells(bytes(cells), 0)

    def state_from_cells(self, cells: bytes, seat: int, ply: int = 0,
                         passes: int = 0) -> AssemblyState:
        """A state holding the given board (used for the start and for set-up test positions)."""
        lines = tuple(sum(cells[s] * 3 ** i for i, s in enumerate(line)) << SHIFT
                      for line in LINES)
        figures = tuple(tuple(s for s in range(N * N) if cells[s] == c) for c in (BLACK, WHITE))
        bits = tuple(sum(BIT[s] for s in side) for side in figures)
        return AssemblyState(cells, lines, figures, bits, seat, ply, passes, None)  # type: ignore[arg-type]

    def to_move(self, state: AssemblyState) -> int | None:
        return None if state.result is not None else state.seat

    # -- move generation --------------------------------------------------------------------

    def _entry(self, key: int) -> Any:
        entry = self._tables.get(key)
        if entry is None:
            low = key & ((1 << SHIFT) - 1)
            entry = self._tables[key] = line_entry(low >> 4, key >> SHIFT, low & 15, self.upto)
        return entry

    def sight(self, state: AssemblyState, s: int) -> int:
        """The sight of the figure on ``s`` (D2, D3)."""
        return sum(self._entry(state.lines[lid] + lid * 16 + pos)[0]
                   for lid, pos, _p in SQUARE_LINES[s])

    def moves(self, state: AssemblyState) -> list[int]:
        """Every move of the seat to move (empty when it must pass)."""
        lines = state.lines
        get = self._tables.get
        entry = self._entry
        out: list[int] = []
        for s in state.figures[state.seat]:
            l0, k0, l1, k1, l2, k2, l3, k3 = SQUARE_KEYS[s]
            k0 += lines[l0]
            k1 += lines[l1]
            k3 += lines[l3]
            e0 = get(k0) or entry(k0)
            e1 = get(k1) or entry(k1)
            e3 = get(k3) or entry(k3)
            # l2 is the NE diagonal: it adds nothing to sight (D3) but carries moves
            sight = e0[0] + e1[0] + e3[0]
            if sight:
                k2 += lines[l2]
                e2 = get(k2) or entry(k2)
                out += e0[1][sight]
                out += e1[1][sight]
                out += e2[1][sight]
                out += e3[1][sight]
        return out

    def figure_moves(self, state: AssemblyState, s: int) -> list[int]:
        """The moves of the figure on ``s`` (one figure of the seat to move), as :meth:`moves`
        lists them."""
        lines = state.lines
        entry = self._entry
        l0, k0, l1, k1, l2, k2, l3, k3 = SQUARE_KEYS[s]
        e0, e1, e3 = entry(k0 + lines[l0]), entry(k1 + lines[l1]), entry(k3 + lines[l3])
        sight = e0[0] + e1[0] + e3[0]
        if not sight:
            return []
        e2 = entry(k2 + lines[l2])
        return [*e0[1][sight], *e1[1][sight], *e2[1][sight], *e3[1][sight]]

    def legal_actions(self, state: AssemblyState) -> list[int]:
        if state.result is not None:
            return []
        return self.moves(state) or [PASS]  # D8: pass only without a legal move

    # -- applying ---------------------------------------------------------------------------

    def apply(self, state: AssemblyState, action: int | str) -> AssemblyState:
        seat = state.seat
        ply = state.ply + 1
        if action == RESIGN:
            return state._replace(ply=ply, result=("resignation", 1 - seat))
        if action == PASS:
            passes = state.passes + 1
            result = ("two passes", None) if passes >= 2 else None  # D8
            if result is None and ply >= self.cap:
                result = ("ply cap", None)  # D9
            return state._replace(seat=1 - seat, ply=ply, passes=passes, result=result)
        frm, to = divmod(action, 81)
        cells = bytearray(state.cells)
        mine = seat + 1
        victim = cells[to]
        cells[frm] = EMPTY
        cells[to] = mine
        lines = list(state.lines)
        for lid, _pos, power in SQUARE_LINES[frm]:
            lines[lid] -= mine * power
        delta = mine - victim
        for lid, _pos, power in SQUARE_LINES[to]:
            lines[lid] += delta * power
        own = state.figures[seat]
        i = own.index(frm)
        own = own[:i] + (to,) + own[i + 1:]
        own_bits = state.bits[seat] ^ BIT[frm] ^ BIT[to]
        other = state.figures[1 - seat]
        other_bits = state.bits[1 - seat]
        if victim:
            j = other.index(to)
            other = other[:j] + other[j + 1:]
            other_bits ^= BIT[to]
        figures = (own, other) if seat == 0 else (other, own)
        bits = (own_bits, other_bits) if seat == 0 else (other_bits, own_bits)
        # D7: check both sides after every move. Without a capture the opponent's figures did
        # not change, and they were not connected before (else the game would be over).
        mover_joined = connected(own_bits)
        other_joined = bool(victim) and connected(other_bits)
        result: tuple[str, int | None] | None = None
        if mover_joined and other_joined:
            result = ("both connected", None)
        elif mover_joined:
            result = ("connection", seat)
        elif other_joined:
            result = ("connection", 1 - seat)
        elif ply >= self.cap:
            result = ("ply cap", None)  # D9: a result of the last ply takes precedence
        return AssemblyState(bytes(cells), tuple(lines), figures, bits,  # type: ignore[arg-type]
                             1 - seat, ply, 0, result)

    def outcome(self, state: AssemblyState) -> Outcome | None:
        if state.result is None:
            return None
        termination, winner = state.result
        if winner is None:
            return Outcome.draw(2, termination)
        return Outcome.win(2, winner, termination)

    # -- notation ---------------------------------------------------------------------------

    def format_action(self, state: AssemblyState, action: int | str) -> str:
        if action == RESIGN:
            return RESIGN
        if action == PASS:
            return "pass"
        frm, to = divmod(int(action), 81)
        sep = "x" if state.cells[to] not in (EMPTY, state.cells[frm]) else "-"
        return f"{sq_name(frm)}{sep}{sq_name(to)}"

    def parse_action(self, state: AssemblyState, text: str) -> int | str:
        if state.result is not None:
            raise GameOver("the game is over: no more moves")
        if text.strip().lower() == RESIGN:
            return RESIGN
        try:
            parsed = _read(text)
        except NotationError as exc:
            raise MalformedAction(
                f"malformed move {text.strip()!r}: {exc.message} (write e.g. d1-d4, d1xa4 or pass)"
            ) from None
        if len(parsed) == 1:
            if self.moves(state):
                raise IllegalAction("pass is allowed only without a legal move (D8)")
            return PASS
        squares = []
        for square in (parsed[0], parsed[2]):
            if not (0 <= square.file < N and 1 <= square.rank <= N):
                raise MalformedAction(f"malformed move {text.strip()!r}: {square} is not on the "
                                      "9x9 board (files a-i, ranks 1-9)")
            squares.append(sq(square.file, square.rank - 1))
        frm, to = squares
        action = frm * 81 + to
        sep = parsed[1].lower()
        cells = state.cells
        # A move the figure has, spelt as D10 says (an 'x' exactly for a capture), is legal:
        # the checks of _explain mirror the generator, and name the rule for any other move.
        if (cells[frm] == state.seat + 1 and (cells[to] != EMPTY) == (sep == "x")
                and action in self.figure_moves(state, frm)):
            return action
        self._explain(state, frm, to, sep, text.strip())
        # The checks above mirror the generator; this is a safeguard (the moves of the one
        # figure that moves, not of every figure).
        if action not in self.figure_moves(state, frm):
            raise IllegalAction(f"{text.strip()!r} is not a legal move here")
        return action

    def _explain(self, state: AssemblyState, frm: int, to: int, sep: str, text: str) -> None:
        """Raise IllegalAction naming the rule that forbids the move, if one does."""
        mine = state.seat + 1
        cells = state.cells
        who = COLOUR_NAME[mine]
        if cells[frm] != mine:
            held = "empty" if cells[frm] == EMPTY else f"a {COLOUR_NAME[cells[frm]]} figure"
            raise IllegalAction(f"{text!r}: {sq_name(frm)} is {held}; {who} is to move")
        if frm == to:
            raise IllegalAction(f"{text!r}: a move must leave its square")
        if cells[to] == mine:
            raise IllegalAction(f"{text!r}: {sq_name(to)} holds a friendly figure (D5)")
        df, dr = to % N - frm % N, to // N - frm // N
        if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
            raise IllegalAction(f"{text!r}: a figure moves in a straight line (8 directions)")
        dist = max(abs(df), abs(dr))
        sight = self.sight(state, frm)
        if sight == 0:
            raise IllegalAction(f"{text!r}: {sq_name(frm)} has sight 0 and cannot move")
        if self.upto and dist > sight:
            raise IllegalAction(f"{text!r}: {dist} squares is more than the sight "
                                f"{sight} of {sq_name(frm)} (distance=upto)")
        if not self.upto and dist != sight:
            raise IllegalAction(f"{text!r}: {sq_name(frm)} has sight {sight} and must move "
                                f"exactly {sight} squares, not {dist} (D1)")
        step = (df > 0) - (df < 0) + ((dr > 0) - (dr < 0)) * N
        for k in range(1, dist):
            s = frm + step * k
            if cells[s] not in (EMPTY, mine):
                raise IllegalAction(f"{text!r}: the path crosses the enemy on {sq_name(s)} (D5)")
        # The spelling comes last: never suggest a spelling of a move that is illegal anyway.
        captures = cells[to] != EMPTY
        if captures and sep != "x":
            raise IllegalAction(f"{text!r}: {sq_name(to)} holds an enemy, the capture must be "
                                f"written {sq_name(frm)}x{sq_name(to)} (D10)")
        if not captures and sep == "x":
            raise IllegalAction(f"{text!r}: {sq_name(to)} is empty, write "
                                f"{sq_name(frm)}-{sq_name(to)} (D10)")

    # -- presentation -----------------------------------------------------------------------

    def view(self, state: AssemblyState, seat: int | None) -> dict[str, Any]:
        return {
            "board": [self._rank_text(state, r) for r in range(N - 1, -1, -1)],
            "colours": {seat_text(i): COLOUR_NAME[i + 1] for i in range(2)},
            "figures": {seat_text(i): len(state.figures[i]) for i in range(2)},
            "to_move": None if state.result else seat_text(state.seat),
            "consecutive_passes": state.passes,
        }

    @staticmethod
    def _rank_text(state: AssemblyState, r: int) -> str:
        return "".join(SYMBOL[state.cells[sq(f, r)]] for f in range(N))

    def render(self, state: AssemblyState, seat: int | None, names: Sequence[str]) -> str:
        files = "   " + " ".join(FILES)
        rows = [files]
        for r in range(N - 1, -1, -1):
            rows.append(f"{r + 1}  " + " ".join(self._rank_text(state, r)) + f"  {r + 1}")
        rows.append(files)
        counts = tabulate([[f"{names[i]} ({SYMBOL[i + 1]})", len(state.figures[i]),
                            "yes" if connected(state.bits[i]) else "no"] for i in range(2)],
                          headers=["side", "figures", "connected"], tablefmt="simple")
        return "\n".join(rows) + "\n\n" + counts + "\n"

    def diagram(self, state: AssemblyState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The board: Black's figures dark, White's light, both lettered."""
        from gametool.core.diagram import Diagram, Piece, board_grid

        pieces = {"B": Piece("B", "dark"), "W": Piece("W", "light")}
        grid = board_grid(self.view(state, seat)["board"], pieces)
        return Diagram((grid,), legend=(("dark", f"Black: {names[0]}"),
                                        ("light", f"White: {names[1]}")))

    def describe_action(self, state: AssemblyState, action: int | str) -> str | None:
        if isinstance(action, int) and action >= 0:
            frm, to = divmod(action, 81)
            if state.cells[to] not in (EMPTY, state.cells[frm]):
                return f"captures the figure on {sq_name(to)}"
        return None
