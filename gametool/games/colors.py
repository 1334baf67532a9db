"""Colors (7x7) and 8x8 Colors: placement games scored on rows (Player 1) and columns (Player 2).

Both games share one board and one scoring routine; the 8x8 game adds orange and the
palindrome bonus. A state is the board as a tuple of colour numbers (0 = empty) in square order
``a1, b1, ..., a2, ...``; an action is the integer ``square * colours + colour index``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core.engine import RESIGN, Game, Option, Outcome, expect_word, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.core.tables import tabulate
from notation.errors import NotationError
from notation.fast import FastReader

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram
from notation.values import FILES, Square

COLOUR_NAMES = {"B": "blue", "R": "red", "G": "green", "Y": "yellow", "P": "pink", "O": "orange"}

_FAST_PLACE = re.compile(r"([A-Za-z])([1-9][0-9]?)=([A-Za-z])")
"""What the grammar reads, as a regular expression: a record never loads the grammar."""


@cache
def _place():  # noqa: ANN202 (a pyparsing element, loaded on first need)
    """``square=colour``, no blanks inside; squares and colours are checked by the game. Only
    a text the fast reader does not take comes here (for the error message)."""
    import pyparsing as pp

    from notation.tokens import square

    colour = pp.Char(pp.alphas).set_name("colour").leave_whitespace()
    colour.set_parse_action(lambda t: t[0].upper())
    return (square() + pp.Literal("=").set_name("'='").leave_whitespace().suppress()
            + colour).set_name("placement")


def _fast_place(text: str) -> tuple[Square, str] | None:
    """``square=colour`` as the tool writes it, as the grammar reads it; None otherwise."""
    fast = _FAST_PLACE.fullmatch(text.strip())
    if fast is None:
        return None
    return Square(ord(fast[1].lower()) - 97, int(fast[2])), fast[3].upper()


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: expected square=colour such as "
                           f"d4=R ({exc.message})")


_read = FastReader(_fast_place, _place, lambda tokens, _text: tuple(tokens), _refused)
"""The square and the colour letter of a placement."""


def value(count: int) -> int:
    """V(n): a group of n discs of one colour is worth n(n+1)/2 from two discs on (D3)."""
    return count * (count + 1) // 2 if count >= 2 else 0


VALUES = tuple(value(n) for n in range(27))
"""V(n) looked up by n (lines are at most 26 squares)."""

MEMO_LIMIT = 1 << 16
"""Lines kept in a game's scoring memo before it starts afresh (bounds its memory)."""



@dataclass(frozen=True)
class ColorsState:
    """The board (0 = empty, else 1 + colour index), discs placed, and who resigned."""

    board: tuple[int, ...]
    placed: int = 0
    resigned: int | None = None


@dataclass(frozen=True)
class Breakdown:
    """One player's score in parts: runs, best colour counts, palindromes."""

    runs: int
    colours: int
    palindromes: int

    @property
    def total(self) -> int:
        return self.runs + self.colours + self.palindromes


class Colors(Game[ColorsState, Any]):
    """Colors on a 7x7 board with five colours."""

    id = "colors"
    aliases = ("colours", "colors7", "colors-7x7")
    name = "Colors"
    min_players = 2
    max_players = 2
    names_seats = True
    names_seats_in_actions = False
    draws = True
    size: ClassVar[int] = 7
    colour_letters: ClassVar[str] = "BRGYP"
    palindromes: ClassVar[bool] = False
    no_pass_rule: ClassVar[str] = "D7"
    """The decision that forbids passing (D7 in colors.md, D8 in colors-8x8.md)."""
    max_plies = 49
    options: ClassVar[tuple[Option, ...]] = (
        Option("runs", "each-row", ("each-row", "longest"),
               help="each-row: every line scores its own longest run; longest: a player "
                    "scores only the single longest run in any of their lines"),
    )
    summary = """\
Two players take turns putting one disc, in any of the five colours B (blue), R (red),
G (green), Y (yellow) or P (pink), on any empty square of a 7x7 board (files a-g, ranks 1-7).
The colours are shared and never run out; discs never move. There is no pass. Player 1 moves
first and makes placements 1, 3, ..., 49; the game ends when the board is full.

Player 1 scores the rows and Player 2 the columns. A group of n discs of one colour is worth
V(n) = n(n+1)/2 for n >= 2 (3, 6, 10, 15, 21, 28) and nothing for one disc. A player adds,
for each of their lines, V of the longest unbroken run of one colour in that line, and, for
each colour, V of the largest number of discs of that colour in any one of their lines (the
discs need not touch; lines tied for best count once). Empty squares break runs and count
nothing, so the score is defined, and shown, after every placement. The higher total wins;
equal totals draw. 'resign' loses at once. With runs=longest a player's run points are V of
the single longest run in any of their lines (ties count once), not one run per line."""
    notation = """\
action = place | "resign" ;
place  = square "=" colour ;      e.g. d4=R, a1=P, g7=Y
square = file rank ;              files a-g, ranks 1-7
colour = "B" | "R" | "G" | "Y" | "P" ;
Read in any case with blanks around but none inside (D4=r is d4=R); written as lower-case
square, '=', upper-case colour."""

    @cached_property
    def single_run(self) -> bool:
        """D1: with runs=longest a side scores one run, the longest in any of its lines."""
        return self.settings.get("runs") == "longest"

    # -- geometry -------------------------------------------------------------------------------

    @cached_property
    def _square_actions(self) -> tuple[tuple[int, ...], ...]:
        k = len(self.colour_letters)
        return tuple(tuple(sq * k + c for c in range(k)) for sq in range(self.size**2))

    def square_name(self, sq: int) -> str:
        return f"{FILES[sq % self.size]}{sq // self.size + 1}"

    # -- the rules ------------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> ColorsState:
        return ColorsState(board=(0,) * (self.size**2))

    def to_move(self, state: ColorsState) -> int | None:
        if state.resigned is not None or state.placed == self.size**2:
            return None
        return state.placed % 2  # D4 (8x8: D6): Player 1 moves first, turns alternate

    def legal_actions(self, state: ColorsState) -> list[Any]:
        if self.to_move(state) is None:
            return []
        per_square = self._square_actions
        return [a for sq, disc in enumerate(state.board) if not disc for a in per_square[sq]]

    def apply(self, state: ColorsState, action: Any) -> ColorsState:
        if action == RESIGN:
            return ColorsState(state.board, state.placed, state.placed % 2)
        sq, colour = divmod(action, len(self.colour_letters))
        board = state.board
        return ColorsState(board[:sq] + (colour + 1,) + board[sq + 1:], state.placed + 1)

    def outcome(self, state: ColorsState) -> Outcome | None:
        if state.resigned is not None:
            return Outcome.win(2, 1 - state.resigned, "resignation", self.scores(state))
        if state.placed < self.size**2:
            return None
        return Outcome.by_scores(self.scores(state), "board full")

    # -- scoring --------------------------------------------------------------------------------

    @cached_property
    def _memo(self) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], tuple[int, ...]],
                             dict[tuple[int, ...], tuple[int, int]]]:
        """Each line's scoring parts by its discs: points (run + palindromes), the count of each
        colour, and (runs, palindromes). A placement changes one row and one column, so the
        greedy player's many candidate boards share almost every line. A pure cache."""
        return {}, {}, {}

    def _learn_line(self, discs: tuple[int, ...]) -> None:
        """Score one line into the memo (the caller keeps the memo within MEMO_LIMIT)."""
        points, counts, parts = self._memo
        # D1: each line scores its own longest run; empty squares break runs.
        longest = length = previous = 0
        for disc in discs:
            length = length + 1 if disc and disc == previous else (1 if disc else 0)
            previous = disc
            if length > longest:
                longest = length
        runs = value(longest)
        pals = 0
        if self.palindromes:  # 8x8 D4, D5: every full window reading 1st = 5th, 2nd = 4th
            pals = 5 * sum(1 for i in range(len(discs) - 4)
                           if all(discs[i:i + 5]) and discs[i] == discs[i + 4]
                           and discs[i + 1] == discs[i + 3])
        points[discs] = runs + pals
        counts[discs] = tuple(discs.count(c) for c in range(1, len(self.colour_letters) + 1))
        parts[discs] = (runs, pals)

    def _line_discs(self, board: tuple[int, ...]) -> tuple[list[tuple[int, ...]], ...]:
        """The discs of every row (Player 1) and every column (Player 2), by slicing."""
        n = self.size
        return ([board[i:i + n] for i in range(0, n * n, n)], [board[f::n] for f in range(n)])

    def _side_total(self, lines: list[tuple[int, ...]]) -> int:
        """One player's total over their lines (the hot path of Game.evaluate)."""
        points, counts, _parts = self._memo
        line_points = list(map(points.get, lines))
        if None in line_points:
            if len(points) + len(lines) > MEMO_LIMIT:  # start afresh, never mid-side
                for memo in self._memo:
                    memo.clear()
            for line in lines:
                if line not in points:
                    self._learn_line(line)
            line_points = list(map(points.get, lines))
        # D2: per colour only the best line counts (ties once); D3: VALUES[0] = VALUES[1] = 0.
        best = map(max, zip(*map(counts.get, lines), strict=True))
        if self.single_run:  # D1, runs=longest: one run for the whole side (no palindromes)
            return (max(self._memo[2][line][0] for line in lines)
                    + sum(map(VALUES.__getitem__, best)))
        return sum(line_points) + sum(map(VALUES.__getitem__, best))

    def breakdown(self, board: Sequence[int]) -> tuple[Breakdown, Breakdown]:
        """Each player's score on ``board`` in parts (D6, 8x8 D8: defined on every position)."""
        out = []
        for lines in self._line_discs(tuple(board)):
            total = self._side_total(lines)
            line_runs = [self._memo[2][line][0] for line in lines]
            runs = max(line_runs) if self.single_run else sum(line_runs)
            pals = sum(self._memo[2][line][1] for line in lines)
            out.append(Breakdown(runs, total - runs - pals, pals))
        return out[0], out[1]

    def scores(self, state: ColorsState) -> list[int | float]:
        rows, columns = self._line_discs(state.board)
        return [self._side_total(rows), self._side_total(columns)]

    def score_table(self, state: ColorsState,
                    seat: int | None) -> tuple[list[str], list[list[Any]]]:
        headers = ["player", "scores", "runs", "colours"]
        if self.palindromes:
            headers.append("palindromes")
        headers.append("total")
        rows = []
        for index, (part, lines) in enumerate(zip(self.breakdown(state.board),
                                                  ("rows", "columns"), strict=True)):
            row: list[Any] = [f"Player {index + 1}", lines, part.runs, part.colours]
            if self.palindromes:
                row.append(part.palindromes)
            rows.append([*row, part.total])
        return headers, rows

    # -- notation -------------------------------------------------------------------------------

    def parse_action(self, state: ColorsState, text: str) -> Any:
        if self.to_move(state) is None:
            raise GameOver(f"{text.strip()!r}: the game is over")
        if expect_word(text, (RESIGN,)):
            return RESIGN
        if expect_word(text, ("pass",)):
            raise IllegalAction("'pass' is not allowed: a turn is always a placement "
                                f"({self.no_pass_rule})")
        if len(text.split()) > 1:
            raise MalformedAction(f"malformed action {text.strip()!r}: no blanks inside; "
                                  "expected square=colour such as d4=R")
        where, letter = _read(text)
        return self._placement(state, text, where, letter)

    def _placement(self, state: ColorsState, text: str, where: Square, letter: str) -> int:
        n = self.size
        if where.file >= n or not 1 <= where.rank <= n:
            raise IllegalAction(f"{text.strip()!r}: {where} is off the {n}x{n} board "
                                f"(files a-{FILES[n - 1]}, ranks 1-{n})")
        if letter not in self.colour_letters:
            name = COLOUR_NAMES.get(letter)
            what = f"{name} ({letter})" if name else f"{letter}"
            raise IllegalAction(f"{text.strip()!r}: {what} is not a colour of {self.name} "
                                f"(colours: {' '.join(self.colour_letters)})")
        sq = (where.rank - 1) * n + where.file
        if state.board[sq]:
            raise IllegalAction(f"{text.strip()!r}: {where} is occupied "
                                "(a disc goes on an empty square)")
        return sq * len(self.colour_letters) + self.colour_letters.index(letter)

    def format_action(self, state: ColorsState, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        sq, colour = divmod(action, len(self.colour_letters))
        return f"{self.square_name(sq)}={self.colour_letters[colour]}"

    # -- views ----------------------------------------------------------------------------------

    def _rank_text(self, board: Sequence[int], rank: int) -> str:
        n = self.size
        return "".join("." if not d else self.colour_letters[d - 1]
                       for d in board[rank * n:(rank + 1) * n])

    def view(self, state: ColorsState, seat: int | None) -> dict[str, Any]:
        parts = self.breakdown(state.board)
        return {
            "size": self.size,
            "colours": list(self.colour_letters),
            "ranks": {str(r + 1): self._rank_text(state.board, r) for r in range(self.size)},
            "placed": state.placed,
            "breakdown": {seat_text(seat): {"lines": lines, "runs": p.runs,
                                            "colours": p.colours, "palindromes": p.palindromes,
                                            "total": p.total}
                          for seat, (p, lines) in enumerate(zip(parts, ("rows", "columns"),
                                                                strict=True))},
        }

    def render(self, state: ColorsState, seat: int | None, names: Sequence[str]) -> str:
        n = self.size
        rows = [[str(r + 1), *self._rank_text(state.board, r)] for r in reversed(range(n))]
        rows.append(["", *FILES[:n]])
        board = tabulate(rows, tablefmt="plain")
        legend = (f"Player 1 ({names[0]}) scores the rows, "
                  f"Player 2 ({names[1]}) the columns; . is empty")
        return f"{board}\n\n{legend}\n"

    def diagram(self, state: ColorsState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The board with each disc in its colour and lettered, so no reader needs colour."""
        from gametool.core.diagram import Diagram, Grid, Note, Piece, letters, numbers_down

        view = self.view(state, seat)
        n = view["size"]
        styles = {"B": "blue", "R": "red", "G": "green", "Y": "yellow", "P": "purple",
                  "O": "orange"}
        cells = {(col, n - int(rank)): Piece(letter, styles.get(letter, "neutral"))
                 for rank, line in view["ranks"].items()
                 for col, letter in enumerate(line) if letter != "."}
        note = Note((f"Player 1 ({names[0]}) scores the rows, Player 2 ({names[1]}) the "
                     "columns",))
        return Diagram((Grid(letters(n), numbers_down(n), cells), note))


class Colors8x8(Colors):
    """8x8 Colors: six colours and a palindrome bonus of 5 per five-square window."""

    id = "colors-8x8"
    aliases = ("colors8", "colours-8x8")
    name = "8x8 Colors"
    size = 8
    colour_letters = "BRGYPO"
    palindromes = True
    options: ClassVar[tuple[Option, ...]] = ()  # D1: every line its own run, not configurable
    no_pass_rule = "D8"
    max_plies = 64
    summary = """\
Two players take turns putting one disc, in any of the six colours B (blue), R (red),
G (green), Y (yellow), P (pink) or O (orange), on any empty square of an 8x8 board (files a-h,
ranks 1-8). Colours are shared and unlimited; discs never move; there is no pass. Player 1
moves first; Player 2 makes the 64th and last placement.

Player 1 scores the rows and Player 2 the columns. A group of n discs of one colour is worth
V(n) = n(n+1)/2 for n >= 2 (3, 6, 10, 15, 21, 28, 36). A player adds: for each line, V of its
longest unbroken run of one colour; for each colour, V of the most discs of that colour in any
one line (discs need not touch; ties count once); and 5 for every palindromic window of five
consecutive squares in their lines (four windows per line, overlapping freely; the window must
be full and read 1st = 5th and 2nd = 4th; one-colour windows count). Empty squares break runs,
count nothing and spoil windows, so the score is defined after every placement. The higher
total wins; equal totals draw. 'resign' loses at once."""
    notation = """\
action = place | "resign" ;
place  = square "=" colour ;      e.g. d4=R, h8=O
square = file rank ;              files a-h, ranks 1-8
colour = "B" | "R" | "G" | "Y" | "P" | "O" ;
Read in any case with blanks around but none inside (a1=b is a1=B); written as lower-case
square, '=', upper-case colour."""
