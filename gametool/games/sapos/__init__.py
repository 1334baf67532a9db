"""Sapos: toads hop over friends, jump over enemies and spawn from a reserve on an 8x8 board.

An action is one whole turn: one sequence of one active piece, hops then a spawn
(``d3-d5-f5+e6``) or hops then jumps (``d3-d5xd7``); Light's first turn is two ``hop+ spawn``
sequences joined by a comma (``d7-d5+c4,e7-c5+b4``). A player who cannot complete a turn is
starved and the previous mover wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from gametool.core.engine import RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.core.tables import tabulate
from gametool.games.sapos.board import (
    COLOUR,
    DARK,
    FILES,
    LIGHT,
    RESERVE,
    SYMBOL,
    Action,
    N,
    SaposState,
    Turn,
    after_sequence,
    explain_sequence,
    knot_pieces,
    pieces_of,
    sequences,
    sq_name,
    yields,
)
from notation.errors import NotationError
from notation.fast import FastReader
from notation.values import Square

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

__all__ = ["Sapos", "SaposState", "knot_pieces", "sequences"]




@cache
def _grammar():  # noqa: ANN202 (a pyparsing element, loaded on first need)
    """One sequence, for the spellings the fast reader does not take (it names the error)."""
    import pyparsing as pp

    from notation import tokens

    square = tokens.square()
    # No blanks inside an action (the rule of every game): each separator and the square after
    # it follow without a gap.
    after = square.copy().leave_whitespace()
    sep = (pp.Literal("-") | pp.CaselessLiteral("x")).set_name("'-' or 'x'").leave_whitespace()
    spawn = (pp.Literal("+").leave_whitespace() + after).set_name("'+' spawn square")
    return pp.Group(square + pp.OneOrMore(sep + after) + pp.Optional(spawn)).set_name(
        "sequence")


_FAST_SEQUENCE = re.compile(r"[a-h][1-8](?:[-x][a-h][1-8])+(?:\+[a-h][1-8])?")
_FAST_PART = re.compile(r"([-x+]?)([a-h])([1-8])")
_PARSED: dict[str, Action] = {}
"""Sequences already read, by their text."""
_COMMA_HINT = ("join the two sequences of Light's first turn with a comma, e.g. "
               "d7-d5+c4,e7-c5+b4 (';' starts a comment in a record)")


def _fast_sequence(text: str) -> list[Any] | None:
    """The tokens of a sequence written as the tool writes it (lower case, on the board), read
    without the grammar, exactly as the grammar reads them; None for any other spelling."""
    if _FAST_SEQUENCE.fullmatch(text) is None:
        return None
    out: list[Any] = []
    for sep, file, rank in _FAST_PART.findall(text):
        if sep:
            out.append(sep)
        out.append(Square(ord(file) - 97, int(rank)))
    return out


def _fast_action(text: str) -> Action | None:
    """The sequence action of a text written as the tool writes it, as ``_fast_sequence`` and
    ``Sapos._sequence`` make it; None for any other text (or a hop after a jump, which the
    longer way refuses)."""
    if _FAST_SEQUENCE.fullmatch(text) is None:
        return None
    body, plus, spawn = text.partition("+")
    jump = body.find("x")
    if jump >= 0 and "-" in body[jump:]:
        return None
    path = tuple((ord(name[1]) - 49) * N + ord(name[0]) - 97
                 for name in body.replace("x", "-").split("-"))
    hops = len(path) - 1 if jump < 0 else body.count("-")
    return (path, hops, (ord(spawn[1]) - 49) * N + ord(spawn[0]) - 97 if plus else -1)


def _fast_group(text: str) -> list[Any] | None:
    """The grammar's group of one sequence as the tool writes it, or None."""
    fast = _fast_sequence(text)
    return None if fast is None else [fast]


_read = FastReader(_fast_group, _grammar)
"""One sequence as the grammar's group of tokens."""


def _is_sequence(text: str) -> bool:
    """Whether ``text`` reads as one sequence (to explain a turn split by a blank)."""
    try:
        _read.grammar_reads(text)
    except NotationError:
        return False
    return True


class Sapos(Game[SaposState, Any]):
    """The rules of Sapos with the options ``capture_drains_victim_reserve`` and ``max_plies``."""

    id = "sapos"
    name = "Sapos"
    min_players = 2
    max_players = 2
    seat_names = COLOUR
    names_seats = True
    names_seats_in_actions = False
    chance = ""
    hidden = ""
    draws = True
    max_plies = 400
    options = (
        Option("capture_drains_victim_reserve", "off", ("off", "on"),
               help="D6: a capture also takes one piece from the victim's reserve"),
        Option("max_plies", "400", kind=int, minimum=1,
               help="D10: turns after which the game is drawn (Light's double turn is one)"),
    )
    summary = """\
Two players on an 8x8 board: Dark (moves first, pieces d2 d3 e2 e3, 12 in reserve) and Light
(d6 d7 e6 e7, 12 in reserve). A turn uses one active piece of the mover. A hop passes over a
friendly piece on any of the 8 neighbouring squares to the empty square beyond; a jump passes over
an enemy piece on an orthogonal neighbour to the empty square beyond and captures it (the piece
joins the mover's reserve); a spawn puts a reserve piece on an empty neighbour of the active
piece. A turn is one or more hops then one spawn, or zero or more hops then one or more jumps
(stopping after any jump). A hop may not land where the active piece already stood this turn.

Knot rule: if at the start of the turn four of the mover's pieces fill a 2x2 block, the active
piece must be one of the pieces of such a block. Light's first turn (the second turn of the game)
is two sequences of hops and a spawn, without jumps, written FIRST,SECOND with a comma; the knot
rule binds the first, and the second may use any Light piece. Only complete turns count; there
is no pass.

After every turn, if the opponent has no complete legal turn, the player who just moved wins by
starvation. After max_plies turns (default 400, Light's double turn counting as one) without a
winner the game is drawn. Option capture_drains_victim_reserve=on also takes one piece from the
victim's reserve per capture. Resigning loses."""
    notation = """\
turn       = sequence | first-turn | "resign"
first-turn = hop-spawn "," hop-spawn          Light's first turn only
sequence   = hop-spawn | jump-turn
hop-spawn  = square "-" square { "-" square } "+" square
jump-turn  = square { "-" square } "x" square { "x" square }
square     = file rank, file a-h, rank 1-8

The first square is where the active piece starts, each later square a landing square reached
by a hop (-) or a jump (x); the square after + receives the spawned piece. Examples:
d3-d5-f5+e6 (two hops and a spawn), e5xe7xc7 (two jumps), d3-d5xd7 (a hop then a jump),
d7-d5+c4,e7-c5+b4 (Light's first turn, after e2-e4+e5). The two sequences of Light's first turn
are joined by a comma (no blank needed), not by the semicolon of the rules text, because ';'
starts a comment in a record."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.drains = self.settings["capture_drains_victim_reserve"] == "on"
        self.cap = self.settings["max_plies"]
        self.max_plies = self.cap  # type: ignore[misc]  # D10: the bound self-play relies on
        self._cache: dict[SaposState, frozenset[Turn]] = {}

    # -- positions --------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> SaposState:
        cells = bytearray(N * N)
        for name in ("d2", "d3", "e2", "e3"):
            cells[self.square(name)] = DARK
        for name in ("d6", "d7", "e6", "e7"):
            cells[self.square(name)] = LIGHT
        return SaposState(bytes(cells), (RESERVE, RESERVE), 0, 0, None)

    @staticmethod
    def square(name: str) -> int:
        return (int(name[1:]) - 1) * N + FILES.index(name[0])

    def to_move(self, state: SaposState) -> int | None:
        return None if state.result is not None else state.seat

    # -- move generation --------------------------------------------------------------------

    @staticmethod
    def _starts(cells: bytes, me: int, knot: bool = True) -> list[int]:
        if knot:
            pieces = knot_pieces(cells, me)  # D3: tested once, at the start of the turn
            if pieces is not None:
                return sorted(pieces)
        return pieces_of(cells, me)

    def _generate(self, state: SaposState) -> Iterator[Turn]:
        """The legal turns of the seat to move (lazily, so that existence is cheap)."""
        me = state.seat + 1
        cells = state.cells
        reserve = state.reserves[state.seat]
        if not state.light_first_turn:
            for action in sequences(cells, me, self._starts(cells, me), reserve, True):
                yield (action,)
            return
        # D4: two hop+spawn sequences; the knot rule binds the first only; D5 spans both
        for first in sequences(cells, me, self._starts(cells, me), reserve, False):
            board, _ = after_sequence(cells, me, first)
            for second in sequences(board, me, self._starts(board, me, False), reserve - 1,
                                    False, first[0]):
                yield (first, second)

    def legal_actions(self, state: SaposState) -> list[Turn]:
        if state.result is not None:
            return []
        if not state.light_first_turn:
            me = state.seat + 1
            return [(action,) for action in sequences(
                state.cells, me, self._starts(state.cells, me), state.reserves[state.seat], True)]
        return list(self._generate(state))

    def has_turn(self, state: SaposState) -> bool:
        """Whether the seat to move has at least one complete legal turn (D7)."""
        return next(self._generate(state), None) is not None

    def _is_legal(self, state: SaposState, turn: Turn) -> bool:
        """Whether ``turn`` is one of the legal turns: what the generator of ``legal_actions``
        would yield from the pieces it moves, worked out along its path alone."""
        me = state.seat + 1
        cells = state.cells
        reserve = state.reserves[state.seat]
        first = turn[0]
        start = first[0][0]
        if cells[start] != me:
            return False
        knot = knot_pieces(cells, me)  # D3: the active piece is one of a knot's
        if knot is not None and start not in knot:
            return False
        if not state.light_first_turn:
            return len(turn) == 1 and yields(cells, me, first, reserve, True)
        if len(turn) != 2 or not yields(cells, me, first, reserve, False):
            return False
        board, _ = after_sequence(cells, me, first)
        second = turn[1]
        return (board[second[0][0]] == me
                and yields(board, me, second, reserve - 1, False, first[0]))

    def _legal_set(self, state: SaposState) -> frozenset[Turn]:
        found = self._cache.get(state)
        if found is None:
            if len(self._cache) > 64:
                self._cache.clear()
            found = self._cache[state] = frozenset(self._generate(state))
        return found

    # -- applying ---------------------------------------------------------------------------

    def apply(self, state: SaposState, action: Turn | str) -> SaposState:
        seat = state.seat
        if action == RESIGN:
            return state._replace(result=("resignation", 1 - seat))
        me = seat + 1
        cells = state.cells
        reserves = list(state.reserves)
        for sequence in action:
            cells, captured = after_sequence(cells, me, sequence)  # type: ignore[arg-type]
            if sequence[2] >= 0:  # type: ignore[index]
                reserves[seat] -= 1
            if captured:
                reserves[seat] += captured  # D6: the capturer gains the piece
                if self.drains:
                    reserves[1 - seat] = max(0, reserves[1 - seat] - captured)
        turns = state.turns + 1
        after = SaposState(cells, (reserves[0], reserves[1]), 1 - seat, turns, None)
        if not self.has_turn(after):
            return after._replace(result=("starvation", seat))  # D7
        if turns >= self.cap:
            return after._replace(result=("ply cap", None))  # D10: starvation stands first
        return after

    def outcome(self, state: SaposState) -> Outcome | None:
        if state.result is None:
            return None
        termination, winner = state.result
        if winner is None:
            return Outcome.draw(2, termination)
        return Outcome.win(2, winner, termination)

    # -- notation ---------------------------------------------------------------------------

    @staticmethod
    def format_sequence(action: Action) -> str:
        path, hops, spawn = action
        text = sq_name(path[0])
        for i, s in enumerate(path[1:]):
            text += ("-" if i < hops else "x") + sq_name(s)
        return text + (f"+{sq_name(spawn)}" if spawn >= 0 else "")

    def format_action(self, state: SaposState, action: Turn | str) -> str:
        if action == RESIGN:
            return RESIGN
        return ",".join(self.format_sequence(seq) for seq in action)  # type: ignore[arg-type]

    def parse_action(self, state: SaposState, text: str) -> Turn | str:
        if state.result is not None:
            raise GameOver("the game is over: no more turns")
        raw = text.strip()
        if raw.lower() == RESIGN:
            return RESIGN
        if raw.lower() == "pass":
            raise MalformedAction("malformed turn 'pass': Sapos has no pass; a player without "
                                  "a complete turn has lost by starvation (D7)")
        first_turn = state.light_first_turn
        if ";" in raw:
            raise MalformedAction(f"malformed turn {raw!r}: {_COMMA_HINT}" if first_turn else
                                  f"malformed turn {raw!r}: ';' is not part of a turn (it "
                                  "starts a comment in a record)")
        parts = raw.split(",")
        if len(parts) > 2:
            raise MalformedAction(f"malformed turn {raw!r}: at most two sequences (Light's "
                                  "first turn) joined by a comma")
        if len(parts) == 2 and not all(part.strip() for part in parts):
            raise MalformedAction(f"malformed turn {raw!r}: the comma joins two sequences, "
                                  "FIRST,SECOND, e.g. d7-d5+c4,e7-c5+b4")
        turn = tuple(self._read_sequence(part.strip(), raw, first_turn) for part in parts)
        if first_turn and len(turn) != 2:
            raise IllegalAction(f"{raw!r}: Light's first turn is two sequences of hops and a "
                                "spawn joined by a comma, FIRST,SECOND (D4; in a record ';' "
                                "starts a comment)")
        if not first_turn and len(turn) != 1:
            raise IllegalAction(f"{raw!r}: only Light's first turn has two sequences")
        me = state.seat + 1
        reserve = state.reserves[state.seat]
        explain_sequence(state.cells, me, reserve, turn[0], raw, knot=True,
                         first_turn=first_turn, where=" (first sequence)" * first_turn)
        if len(turn) == 2:
            board, _ = after_sequence(state.cells, me, turn[0])
            explain_sequence(board, me, reserve - 1, turn[1], raw, knot=False, first_turn=True,
                             history=turn[0][0], where=" (second sequence)")
        if not self._is_legal(state, turn):  # a safeguard: the checks mirror the generator
            raise IllegalAction(f"{raw!r} is not a legal turn here")
        return turn

    def _read_sequence(self, text: str, raw: str, first_turn: bool = False) -> Action:
        """One sequence of the turn ``raw``, read by the grammar (and remembered: the text
        alone fixes the squares, legality is checked every time)."""
        action = _PARSED.get(text)
        if action is None:
            action = _fast_action(text)
        if action is None:
            try:
                parsed = _read(text)
            except NotationError as exc:
                words = text.split()
                if first_turn and len(words) == 2 and all(_is_sequence(w) for w in words):
                    raise MalformedAction(f"malformed turn {raw!r}: {_COMMA_HINT}") from None
                example = ("two sequences joined by a comma, e.g. d7-d5+c4,e7-c5+b4"
                           if first_turn else "e.g. d3-d5-f5+e6 or e5xe7xc7")
                raise MalformedAction(f"malformed turn {raw!r}: {exc.message} "
                                      f"(write {example})") from None
            action = self._sequence(list(parsed[0]), raw)
            if len(_PARSED) > 50_000:
                _PARSED.clear()
            _PARSED[text] = action
        return action

    def _sequence(self, parsed: list[Any], raw: str) -> Action:
        """The sequence action of one parsed ``square (sep square)+ [+ square]`` group."""
        spawn = -1
        if len(parsed) >= 2 and parsed[-2] == "+":
            spawn = self._square(parsed[-1], raw)
            parsed = parsed[:-2]
        path = [self._square(parsed[0], raw)]
        seps = []
        for i in range(1, len(parsed), 2):
            seps.append(parsed[i].lower())
            path.append(self._square(parsed[i + 1], raw))
        hops = seps.index("x") if "x" in seps else len(seps)
        if "-" in seps[hops:]:
            raise IllegalAction(f"{raw!r}: no hop may follow a jump (D1)")
        return (tuple(path), hops, spawn)

    @staticmethod
    def _square(square: Square, raw: str) -> int:
        if not (0 <= square.file < N and 1 <= square.rank <= N):
            raise MalformedAction(f"malformed turn {raw!r}: {square} is not on the 8x8 board")
        return (square.rank - 1) * N + square.file

    # -- presentation -----------------------------------------------------------------------

    def view(self, state: SaposState, seat: int | None) -> dict[str, Any]:
        knot = None if state.result else knot_pieces(state.cells, state.seat + 1)
        return {
            "board": ["".join(SYMBOL[state.cells[r * N + f]] for f in range(N))
                      for r in range(N - 1, -1, -1)],
            "colours": {seat_text(i): COLOUR[i] for i in range(2)},
            "reserves": {seat_text(i): state.reserves[i] for i in range(2)},
            "on_board": {seat_text(i): state.cells.count(i + 1) for i in range(2)},
            "turns": state.turns,
            "knot": sorted(sq_name(s) for s in knot) if knot else [],
        }

    def render(self, state: SaposState, seat: int | None, names: Sequence[str]) -> str:
        files = "   " + " ".join(FILES)
        rows = [files]
        for r in range(N - 1, -1, -1):
            line = " ".join(SYMBOL[state.cells[r * N + f]] for f in range(N))
            rows.append(f"{r + 1}  {line}  {r + 1}")
        rows.append(files)
        table = tabulate([[f"{names[i]} ({SYMBOL[i + 1]})", state.cells.count(i + 1),
                           state.reserves[i]] for i in range(2)],
                         headers=["side", "on board", "reserve"], tablefmt="simple")
        notes = [f"turns completed: {state.turns}"]
        if state.result is None:
            if state.light_first_turn:
                notes.append("Light's first turn: two sequences joined by a comma, "
                             "FIRST,SECOND")
            knot = knot_pieces(state.cells, state.seat + 1)
            if knot is not None:
                notes.append("knot rule: the active piece must be one of "
                             + " ".join(sq_name(s) for s in sorted(knot)))
        return "\n".join(rows) + "\n\n" + table + "\n\n" + "\n".join(notes) + "\n"

    def diagram(self, state: SaposState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The board from Dark's side (Light's for the second seat), the knot hatched."""
        from gametool.core.diagram import Diagram, Note, Panel, Piece, board_grid, squares_at

        view = self.view(state, seat)
        pieces = {"D": Piece("D", "dark"), "L": Piece("L", "light")}
        grid = board_grid(view["board"], pieces, checkered=True, flippable=True,
                          marked=squares_at(view["knot"], N))
        # the seats' entries, in seat order (keyed by the names this call's view says)
        on_board, reserves = list(view["on_board"].values()), list(view["reserves"].values())
        panel = Panel(("side", "on board", "reserve"),
                      tuple((f"{names[i]} ({side[0]})", str(on_board[i]), str(reserves[i]))
                            for i, side in enumerate(COLOUR)))
        notes = self.render(state, seat, names).split("\n\n")[-1].splitlines()
        return Diagram((grid, panel, Note(tuple(line for line in notes if line))),
                       flipped=seat == 1,
                       legend=(("dark", f"Dark: {names[0]}"), ("light", f"Light: {names[1]}")))

    def describe_action(self, state: SaposState, action: Turn | str) -> str | None:
        if action == RESIGN:
            return None
        jumps = sum(len(path) - 1 - hops for path, hops, _spawn in action)  # type: ignore[misc]
        return f"captures {jumps} piece{'s' * (jumps > 1)}" if jumps else None
