"""Tic-tac-toe, the teaching game: the smallest complete game of gametool.

It is the example of ``docs/adding-a-game.md``: metadata declared on the class, the rules in
seven methods, the notation in two, and the position shown as a view and a diagram. A state is
the board, a tuple of nine marks (0 empty, 1 X, 2 O) in square order ``a1, b1, c1, a2, ...``, and
the seat that resigned, if one did; an action is a square's index, or ``resign``, which every
game accepts from the seat to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from gametool.core.engine import RESIGN, Game, Outcome, expect_word
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from notation.errors import NotationError
from notation.fast import FastReader
from notation.patterns import lazy

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

SQUARES = tuple(f"{file}{rank}" for rank in "123" for file in "abc")
MARKS = ".XO"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
"""The eight lines of three: ranks, files and the two diagonals."""

_FAST_SQUARE = lazy(r"\s*([A-Za-z])([1-9][0-9]?)\s*")
"""What the grammar reads, as a regular expression: a record never loads the grammar."""


@cache
def _square():  # noqa: ANN202 (a pyparsing element, loaded on first need)
    """The grammar of an action, for the error message of a text the fast reader refuses."""
    from notation.tokens import square

    return square()


def _fast_square(text: str) -> str | None:
    """The square's name (lower case) of a text the fast pattern reads."""
    found = _FAST_SQUARE.fullmatch(text)
    return None if found is None else f"{found[1].lower()}{found[2]}"


def _not_a_square(tokens: Any, text: str) -> str:
    """A text the grammar reads and the pattern does not (no square of a board) is refused."""
    raise MalformedAction(f"malformed action {text.strip()!r}: expected a square such as b2")


def _refused(text: str, error: NotationError) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: expected a square such as b2 "
                           f"({error.message})")


_read_square = FastReader(_fast_square, _square, _not_a_square, _refused)
"""The square named by an action's text: the pattern first, the grammar for the error."""


@dataclass(frozen=True)
class TicTacToeState:
    board: tuple[int, ...] = (0,) * 9
    resigned: int | None = None

    @property
    def placed(self) -> int:
        return sum(1 for mark in self.board if mark)


class TicTacToe(Game[TicTacToeState, int]):
    """Noughts and crosses on a 3x3 board."""

    id = "tic-tac-toe"
    name = "Tic-tac-toe"
    aliases = ("noughts-and-crosses", "ttt")
    seat_names = ("X", "O")
    draws = True
    max_plies = 9
    summary = """\
A teaching game, the example of docs/adding-a-game.md. Two players, X (first) and O, take
turns putting their mark on an empty square of a 3x3 board (files a-c, ranks 1-3). Whoever
first has three marks in a line (a rank, a file or a diagonal) wins; a full board with no
line of three is a draw."""
    notation = """\
action = square | "resign" ;      e.g. b2, a1, c3, resign
square = file rank ;              files a-c, ranks 1-3
Read in any case with blanks around; written in lower case."""

    # -- the rules ----------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> TicTacToeState:
        return TicTacToeState()

    def to_move(self, state: TicTacToeState) -> int | None:
        if state.resigned is not None or self._winner(state) is not None or state.placed == 9:
            return None
        return state.placed % 2

    def legal_actions(self, state: TicTacToeState) -> list[int]:
        if self.to_move(state) is None:
            return []
        return [square for square, mark in enumerate(state.board) if not mark]

    def apply(self, state: TicTacToeState, action: Any) -> TicTacToeState:
        if action == RESIGN:
            return TicTacToeState(state.board, state.placed % 2)
        mark = state.placed % 2 + 1
        return TicTacToeState(state.board[:action] + (mark,) + state.board[action + 1:])

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        if state.resigned is not None:
            return Outcome.win(2, 1 - state.resigned, "resignation")
        winner = self._winner(state)
        if winner is not None:
            return Outcome.win(2, winner, "three in a row")
        return Outcome.draw(2, "board full") if state.placed == 9 else None

    def _winner(self, state: TicTacToeState) -> int | None:
        board = state.board
        for a, b, c in LINES:
            if board[a] and board[a] == board[b] == board[c]:
                return board[a] - 1
        return None

    # -- the notation -------------------------------------------------------------------------

    def parse_action(self, state: TicTacToeState, text: str) -> Any:
        if self.to_move(state) is None:
            raise GameOver(f"{text.strip()!r}: the game is over")
        if expect_word(text, (RESIGN,)):
            return RESIGN
        name = _read_square(text)
        if name not in SQUARES:
            raise IllegalAction(f"{text.strip()!r}: {name} is off the 3x3 board "
                                "(files a-c, ranks 1-3)")
        square = SQUARES.index(name)
        if state.board[square]:
            raise IllegalAction(f"{text.strip()!r}: {name} is taken (a mark goes on an empty "
                                "square)")
        return square

    def format_action(self, state: TicTacToeState, action: Any) -> str:
        return RESIGN if action == RESIGN else SQUARES[action]

    # -- what is shown ------------------------------------------------------------------------

    def _ranks(self, state: TicTacToeState) -> list[str]:
        """The board as text, rank 3 first."""
        return ["".join(MARKS[mark] for mark in state.board[row * 3:row * 3 + 3])
                for row in (2, 1, 0)]

    def view(self, state: TicTacToeState, seat: int | None) -> dict[str, Any]:
        return {"board": self._ranks(state)}

    def render(self, state: TicTacToeState, seat: int | None, names: Sequence[str]) -> str:
        return f"X: {names[0]}, O: {names[1]}; . is empty\n"

    board_in_text = True
    """``show`` draws the board from :meth:`diagram`; :meth:`render` says what follows it."""

    def diagram(self, state: TicTacToeState, seat: int | None,
                names: Sequence[str]) -> Diagram:
        from gametool.core.diagram import Diagram, board_grid, seat_piece

        pieces = {"X": seat_piece(0, "X"), "O": seat_piece(1, "O")}
        return Diagram((board_grid(self.view(state, seat)["board"], pieces),))
