"""Chess under the FIDE Laws: the game class joining the core, SAN and FEN to the engine."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core import engine
from gametool.core.engine import RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameError, GameOver, IllegalAction, MalformedAction
from gametool.games.chess.board import (
    BK,
    BQ,
    FILES,
    SQUARE_NAMES,
    WK,
    WQ,
    dead_material,
    gives_check,
    has_legal_move,
    make_move,
)
from gametool.games.chess.board import perft as core_perft
from gametool.games.chess.plain import OTHER, PLAIN_PARTS, plain_step, read_plain
from gametool.games.chess.position import (
    _UNSET,
    OPENING_PLIES,
    START_FEN,
    Position,
    link,
    read_fen,
    shared_for,
    start,
    write_fen,
)
from gametool.games.chess.san import COMMON, MoveText, from_match, resolve, san_body
from notation.errors import NotationError
from notation.patterns import lazy

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

CLAIM = 1 << 16
"""Bit of a ``claim-draw`` action; alone it is the claim without a move (D1)."""
MOVE_MASK = CLAIM - 1
NULL = 1 << 17
"""A null move, ``--``: the side to move passes (only with the option null_moves=on)."""

CHECKMATE, STALEMATE, DEAD = "checkmate", "stalemate", "dead position"
FIVEFOLD, SEVENTY_FIVE = "fivefold repetition", "75-move rule"
THREEFOLD, FIFTY, RESIGNATION = "threefold repetition", "50-move rule", "resignation"



def _start_position() -> Position:
    return read_fen(START_FEN)


def castling_text(rights: int) -> str:
    return "".join(ch for ch, bit in zip("KQkq", (WK, WQ, BK, BQ), strict=True)
                   if rights & bit) or "-"


def child(pos: Position, m: int) -> Position:
    """The position after the legal chess move ``m`` (clocks and repetition history kept)."""
    first = pos._link
    if first is not None and first[1][0] == m:  # read here before (see position.link)
        return first[1][2]
    if pos._more is not None:
        after = pos._more.get(m)
        if after is not None:
            return after
    shared = pos.shared
    made = shared.get(m)
    if made is None:
        made = shared[m] = make_move(pos.board, m, pos.white, pos.castling, pos.ep)
    return pos.after_move(*made)


def ended(pos: Position, end: tuple[str, int | None], after: Position | None = None) -> Position:
    """``after`` (or ``pos``) marked as ended by resignation or a claim."""
    base = after or pos
    return Position(base.board, base.white, base.castling, base.ep, base.halfmove,
                    base.fullmove, base.history, base.ply + (after is None), end)


def claim_reason(pos: Position, dead: bool = False) -> str | None:
    """D1: the ground of a draw claim in this position, or None if a claim would fail. With
    ``dead`` (automatic_draws=off) a dead position may be claimed too."""
    if pos.history and pos.repetitions() >= 3:
        return THREEFOLD
    if pos.halfmove >= 100:
        return FIFTY
    if dead and dead_material(pos.board):
        return DEAD
    return None


def null_child(pos: Position) -> Position:
    """The position after a null move: the other side to move, no en-passant square."""
    return Position(pos.board, not pos.white, pos.castling, -1, pos.halfmove + 1,
                    pos.fullmove + (not pos.white), None, pos.ply + 1, None, pos)


def draw_claims(pos: Position, moves: Sequence[int]) -> list[int]:
    """Every valid claim: alone, and with each move after which a claim holds (D1)."""
    out = [CLAIM] if claim_reason(pos) else []
    hist = pos.history
    if pos.halfmove >= 99:
        board = pos.board
        for m in moves:
            if board[(m >> 6) & 63] == "." and board[m & 63] not in "Pp":
                out.append(CLAIM | m)  # no capture, no pawn move: the clock reaches 100
        return out
    if len(hist) < 3:
        return out
    same = hist[-1::-2]  # earlier positions with the opponent to move, as after a move
    if len(set(same)) == len(same):
        return out
    twice = {k for k, seen in Counter(same).items() if seen >= 2}
    board, white, castling = pos.board, pos.white, pos.castling
    for m in moves:
        if board[(m >> 6) & 63] != "." or board[m & 63] in "Pp":
            continue
        after, rights, _ep, _z = make_move(board, m, white, castling, pos.ep)
        if (after, not white, rights, -1) in twice:
            out.append(CLAIM | m)
    return out


_CLAIM = lazy(r"claim-draw(?:\s+(\S+))?", re.IGNORECASE)
_read_plain = read_plain
"""The one-pass reader of plain SAN (see :mod:`gametool.games.chess.plain`)."""


@lru_cache(maxsize=1 << 14)
def read_action(text: str) -> tuple[bool, MoveText | None]:
    """(claim?, the move or None) from an action's text (memoised: it needs no position)."""
    match = COMMON.fullmatch(text.strip())
    if match is not None:  # a plain move in a common spelling: no grammar needed
        return False, from_match(match)
    claim = _CLAIM.fullmatch(text.strip())
    if claim is not None:  # a claim as the tool writes it: no grammar needed either
        move = claim[1]
        if move is None:
            return True, None
        match = COMMON.fullmatch(move)
        if match is not None:
            return True, from_match(match)
    from gametool.games.chess.san_grammar import ACTION
    from notation import tokens

    try:
        parts = tokens.parse_whole(ACTION, text)
    except NotationError as exc:
        raise MalformedAction(f"malformed chess action {text!r} (column {exc.column}): "
                              f"{exc.message}") from None
    return parts[0] == "claim", parts[-1] if isinstance(parts[-1], MoveText) else None


class Chess(Game[Position, Any]):
    """Standard chess: FIDE move rules, automatic and claimed draws, FEN, SAN."""

    id = "chess"
    name = "Chess"
    min_players = 2
    max_players = 2
    seat_names = ("white", "black")
    names_seats = True
    names_seats_in_actions = False
    chance = ""
    hidden = ""
    draws = True
    # D7: no max_plies option. The two options below serve records of real games (PGN).
    options: ClassVar[tuple[Option, ...]] = (
        Option("automatic_draws", "on", ("on", "off"),
               help="off: fivefold repetition, the 75-move rule and dead positions do not end "
                    "the game; they may be claimed (for games that went on past them)"),
        Option("null_moves", "off", ("on", "off"),
               help="on: the null move '--' (the side to move passes, never in check) may be "
                    "recorded, as PGN writes it; it is never listed among the legal moves"),
    )
    # The 75-move rule and the 32 pawns' 96 steps plus 30 captures bound every game.
    max_plies = 17_700
    summary = """\
Chess under the FIDE Laws. White (seat 1) and Black (seat 2) move in turn; White starts from
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1, or from any legal position given as a
FEN (--position FEN, the record's Position tag; the PGN tag FEN is read too).

Every move rule applies: castling (king and rook unmoved, squares between empty, the king not
in check and not crossing or landing on an attacked square), en passant on the very next ply,
promotion to Q, R, B or N (the piece must be named), and no move may leave one's own king in
check.

The game ends at once on checkmate (win), stalemate, a dead position (only kings; kings and one
knight; kings and bishops all on one colour: D3), the fifth occurrence of a position (D4: same
pieces, side, castling rights and legal en-passant captures) or the halfmove clock reaching 150
(75-move rule, unless that move mates). 'claim-draw' (alone, or before a move: 'claim-draw
Ng8') draws when the position (after the move, if one is given) has occurred three times or the
halfmove clock is at least 100 (D1); an invalid claim is rejected. 'resign' loses at once. There
are no draw offers and no clocks (D2).
"""
    notation = """\
Moves are written in SAN, as in PGN: Nf3, exd5, O-O, O-O-O, e8=Q, Qa1b2 (disambiguation only
among legal moves: file, else rank, else both), with + for check and # for mate. Input also
takes long algebraic and UCI (e2e4, Ng1-f3, e7e8q, e1g1 for castling), 0-0 for O-O, an optional
'x' and '=', extra disambiguation, and ignores + # ! ? marks. The first letter decides: upper-case
K Q R B N is a piece, a lower-case file a pawn (Bxc4 is a bishop, bxc4 a pawn).

  action = move | "claim-draw" [ move ] | "resign"
  examples: e4   Nf3   exd6   O-O-O   e8=N+   claim-draw Ng8   resign
"""

    horse_symbols = ""

    # -- positions ---------------------------------------------------------------------------

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.automatic = self.settings.get("automatic_draws", "on") == "on"
        self.nulls = self.settings.get("null_moves", "off") == "on"
        self.fifth_after = 8 if self.nulls else 16
        """D4: the fewest plies of history a fifth occurrence needs. A position recurs 4 plies
        apart at the soonest (each side moves a piece away and back), 2 with null moves (two
        passes); the history is never longer than the halfmove clock."""
        self._last: tuple[Position, int, Position] | None = None
        """The last plain move read and not remembered: (position, move, position after)."""
        self._kind = (type(self), tuple(sorted(self.settings.items())))
        """The game and options, which the shared start positions are kept by (a position's
        end and the moves read from it depend on them)."""

    def initial_state(self, nseats: int) -> Position:
        if not self.plain_moves:  # a variant that remembers no move read keeps its own starts
            return _start_position()
        return start((self._kind, None), _start_position)

    def encode_position(self, state: Position) -> str:
        return write_fen(state)

    def decode_position(self, text: str, nseats: int) -> Position:
        fen = text.strip()
        return start((self._kind, fen), lambda: read_fen(fen, self.horse_symbols))

    def position_key(self, state: Position) -> str:
        """A position searched for is the same whatever the clocks and the en-passant square
        (D5 writes it after every double step): placement, side to move and castling."""
        return " ".join(write_fen(state).split()[:3])

    def placement_key(self, state: Position) -> str:
        return state.board

    def read_placement(self, text: str, nseats: int) -> str:
        """A FEN's placement field (the fields after it are not looked at), checked as a
        position with either side to move."""
        fields = text.split()
        if not fields:
            raise GameError("an empty FEN: write at least its placement "
                            "(rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR)")
        try:
            return read_fen(fields[0] + " w - - 0 1", self.horse_symbols).board
        except GameError:
            return read_fen(fields[0] + " b - - 0 1", self.horse_symbols).board

    def mover(self, state: Position) -> int | None:
        return 0 if state.white else 1

    # -- the rules --------------------------------------------------------------------------

    def to_move(self, state: Position) -> int | None:
        if self.outcome(state) is not None:
            return None
        return 0 if state.white else 1

    def outcome(self, state: Position) -> Outcome | None:
        status = state._status
        if status is _UNSET:
            status = state._status = self._judge(state)
        return status

    def _judge(self, pos: Position, moving: bool | None = None) -> Outcome | None:
        """The end of the game in ``pos``, or None; ``moving``: whether the side to move has a
        legal move, when the caller knows it."""
        if pos.end is not None:
            termination, winner = pos.end
            return (Outcome.draw(2, termination) if winner is None
                    else Outcome.win(2, winner, termination))
        if moving is None:
            moving = pos.has_move()
        if not moving and pos.in_check():
            return Outcome.win(2, 1 if pos.white else 0, CHECKMATE)
        if not self.automatic:
            return None if moving else Outcome.draw(2, STALEMATE)
        if dead_material(pos.board):  # D3
            return Outcome.draw(2, DEAD)
        if not moving:
            return Outcome.draw(2, STALEMATE)
        if pos.halfmove >= 150:
            return Outcome.draw(2, SEVENTY_FIVE)
        if pos.halfmove >= self.fifth_after and pos.repetitions() >= 5:  # D4
            return Outcome.draw(2, FIVEFOLD)
        return None

    def legal_actions(self, state: Position) -> list[Any]:
        moves = state.moves
        if not self.automatic:
            return moves + self._dead_claims(state, moves)
        if state.halfmove >= 99 or len(state.history) >= 3:
            return moves + draw_claims(state, moves)
        return list(moves)

    def _dead_claims(self, state: Position, moves: list[int]) -> list[int]:
        """Every valid claim when dead positions are claimed rather than automatic."""
        out = draw_claims(state, moves)
        if CLAIM not in out and dead_material(state.board):
            out.insert(0, CLAIM)
        board = state.board
        for m in moves:
            if board[(m >> 6) & 63] != "." and CLAIM | m not in out:
                if dead_material(child(state, m).board):
                    out.append(CLAIM | m)
        return out

    def apply(self, state: Position, action: Any) -> Position:
        last = self._last
        if last is not None and last[0] is state and last[1] == action:
            return last[2]  # the move just read there, not remembered (see _keep)
        if action == RESIGN:
            return ended(state, (RESIGNATION, 0 if not state.white else 1))
        if action == NULL:
            return null_child(state)
        dead = not self.automatic
        if action == CLAIM:
            return ended(state, (claim_reason(state, dead) or THREEFOLD, None))
        after = child(state, action & MOVE_MASK)
        if action & CLAIM:
            return ended(state, (claim_reason(after, dead) or THREEFOLD, None), after)
        return after

    # -- perft: moves only, through automatic draws ------------------------------------------

    def perft_seat(self, state: Position) -> int | None:
        """Perft counts the moves the rules allow and ignores automatic draws (dead position,
        repetition, 75-move rule): it stops only at mate, stalemate, resignation or a claim."""
        if state.end is not None or not state.moves:
            return None
        return 0 if state.white else 1

    def perft_actions(self, state: Position) -> list[Any]:
        return state.moves  # no claim-draw: a claim is not a move

    def perft(self, state: Position, depth: int) -> int:
        """The chess core's own counter (bulk-counted at the last level)."""
        if depth <= 0:
            return 1
        if state.end is not None:
            return 0
        return core_perft(state.board, state.white, state.castling, state.ep, depth)

    # -- text --------------------------------------------------------------------------------

    def format_action(self, state: Position, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        if action == CLAIM:
            return "claim-draw"
        if action == NULL:
            return "--"
        m = action & MOVE_MASK
        shared = state.shared
        text = shared.get(("san", m))
        if text is None:
            made = shared.get(m)
            if made is None:  # the position after the move, shared with apply
                made = shared[m] = make_move(state.board, m, state.white, state.castling,
                                             state.ep)
            # Check and mate after the move, told to the next position too (it is asked next).
            after = shared_for(made[0], not state.white, made[1], made[2])
            checked = after.get("check")
            if checked is None:
                checked = after["check"] = gives_check(state.board, made[0], m, state.white)
            suffix = ""
            if checked:
                moving = after.get("has_move")
                if moving is None:
                    moving = after["has_move"] = has_legal_move(
                        made[0], not state.white, made[1], made[2], checked=True)
                suffix = "+" if moving else "#"
            text = shared["san", m] = san_body(state, m) + suffix
        return f"claim-draw {text}" if action & CLAIM else text

    def parse_action(self, state: Position, text: str) -> Any:
        known = state.recall(text)
        if known is not None:  # read here before, the end judged (see position.link)
            return known[0]
        if self.plain_moves and state.end is None and state._status in (_UNSET, None):
            read = _read_plain(state, text)
            if read is not None:  # a plain move, read in one pass and remembered
                self._keep(state, text, read, evict=False)
                return read[0]
        if state._status is not _UNSET or state.end is not None:
            if self.outcome(state) is not None:
                raise GameOver("the game is over: no more moves")
            return self._parse(state, text)
        # The end is not judged yet: read the move first. A move read as legal shows that a
        # legal move exists, so the judgement needs no search for one (mate and stalemate
        # are out); a text that is no legal move here is refused as before, the end first.
        try:
            action = self._parse(state, text)
        except GameError:
            if self.outcome(state) is not None:
                raise GameOver("the game is over: no more moves") from None
            raise
        if type(action) is int and action & MOVE_MASK:
            state.shared["has_move"] = True
        if self.outcome(state) is not None:
            raise GameOver("the game is over: no more moves")
        return action

    plain_moves: ClassVar[bool] = True
    """Whether :meth:`read_move` may read a plain SAN move by its own short way (chess only:
    a variant with other actions reads every text through :meth:`parse_action`)."""

    def read_move(self, state: Position, text: str) -> tuple[Any, str, Position]:
        """What a converter does for each move it reads: the action ``text`` names (as
        :meth:`parse_action` reads it, GameOver once the game is over), its canonical text and
        the position after it, at once. In the plies where moves are remembered the move is
        remembered in ``state`` (see :func:`~gametool.games.chess.position.link`): reading it
        there again, or parsing it and applying it, finds it (its caller has the position
        after it, and nothing more is kept for it elsewhere)."""
        if state._link is not None:
            known = state.recall(text)
            if known is not None:
                return known
        parts = PLAIN_PARTS.get(text)
        if (parts is not None and state._check is False and state._moves is None
                and self.plain_moves):
            read = plain_step(state, parts, parts[0], True)  # read_plain's commonest case
            if read is OTHER:
                read = read_plain(state, text)
        else:
            read = read_plain(state, text) if self.plain_moves else None
        if read is None:
            action = self.parse_action(state, text)
            read = (action, self.format_action(state, action), self.apply(state, action))
            if not (type(action) is int and 0 < action <= MOVE_MASK and self.plain_moves):
                return read
            link(state, text, read)
            return read
        # What _keep does, the commonest end written out: no dead position, no fifth time yet.
        board = state.board
        if (state._status is _UNSET and state.end is None and state.halfmove < self.fifth_after
                and ("P" in board or "p" in board)):
            state._status = None
        elif self._over(state):
            raise GameOver("the game is over: no more moves")
        if state.ply < OPENING_PLIES or engine.REMEMBER_ALL:  # remembers(state)
            link(state, text, read)  # type: ignore[arg-type]
        return read  # type: ignore[return-value]

    def _keep(self, state: Position, text: str, read: tuple[int, str | None, Position],
              evict: bool = True) -> None:
        """A plain move read in ``state``: GameOver if the game is over there, else the move
        remembered in ``state`` (see position.link)."""
        if self._over(state):
            raise GameOver("the game is over: no more moves")
        if not link(state, text, read, evict):  # type: ignore[arg-type]
            self._last = (state, read[0], read[2])

    def _over(self, state: Position) -> bool:
        """Whether the game is over in ``state``, where a legal move was just read (so the
        end needs no search for one)."""
        status = state._status
        if status is _UNSET:
            board = state.board
            if (state.end is None and state.halfmove < self.fifth_after
                    and ("P" in board or "p" in board)):
                state._status = None  # no dead position, no fifth time yet
                return False
            status = state._status = self._judge(state, True)
        return status is not None

    def read_step(self, state: Position, seat: int, text: str) -> Position | None:
        """The position after ``seat``'s move ``text`` (see Game.read_step): a move read here
        before, else a plain SAN read by the one-pass reader (without its canonical text where
        the move is not remembered: a check needs none), else the general way."""
        if seat != (0 if state.white else 1):
            return None
        if state._link is not None:
            known = state.recall(text)
            if known is not None:  # a position with a move read is not over
                return known[2]
        status = state._status
        if self.plain_moves and state.end is None and (status is _UNSET or status is None):
            kept = state.ply < OPENING_PLIES or engine.REMEMBER_ALL  # remembers(state)
            parts = PLAIN_PARTS.get(text)
            if parts is not None and state._check is False and state._moves is None:
                read = plain_step(state, parts, parts[0], kept)  # read_plain's commonest case
                if read is OTHER:
                    read = read_plain(state, text, kept)
            else:
                read = read_plain(state, text, kept)
            if read is not None:
                board = state.board  # the commonest end first, as in read_move
                if (status is _UNSET and state.halfmove < self.fifth_after
                        and ("P" in board or "p" in board)):
                    state._status = None
                elif status is _UNSET and self._over(state):
                    return None
                if kept:
                    link(state, text, read, False)  # type: ignore[arg-type]
                return read[2]
        return super().read_step(state, seat, text)

    def known_step(self, state: Position, seat: int, text: str) -> Position | None:
        """The position after the move ``text`` that was read in ``state`` before (see
        position.link; a position with a move read is not over), when ``seat`` is to move."""
        if seat != (0 if state.white else 1):
            return None
        first = state._link
        if first is not None and (text == first[0] or text == first[1][1]):
            return first[1][2]  # the first read here (the commonest)
        known = state.recall(text)
        return None if known is None else known[2]

    def _parse(self, state: Position, text: str) -> Any:
        """The action ``text`` names in ``state``, whose game is not over."""
        shared = state.shared
        known = shared.get(("text", text))
        if known is not None:  # a plain move read before in a position with these fields
            return known
        if text.strip().lower() == RESIGN:
            return RESIGN
        if text.strip() == "--":
            if not self.nulls:
                raise IllegalAction("a null move '--' is recorded only with the option "
                                    "null_moves=on")
            if state.in_check():
                raise IllegalAction("a null move is not possible in check")
            return NULL
        dead = not self.automatic
        claim, movetext = read_action(text.strip())
        if movetext is None:
            if claim_reason(state, dead) is None:
                raise IllegalAction(self._no_claim(state, "claim-draw"))
            return CLAIM
        m = shared.get(movetext)
        if m is None:
            m = shared[movetext] = resolve(state, movetext,
                                           text.split(None, 1)[-1] if claim else text)
        if not claim:
            shared["text", text] = m
            return m
        if claim_reason(child(state, m), dead) is None:
            raise IllegalAction(self._no_claim(child(state, m), text.strip()))
        return CLAIM | m

    @staticmethod
    def _no_claim(pos: Position, text: str) -> str:
        return (f"invalid claim {text!r}: the position has occurred {pos.repetitions()} "
                f"time(s) and the halfmove clock is {pos.halfmove} (D1: a draw claim needs 3 "
                "occurrences or a clock of 100)")

    # -- presentation --------------------------------------------------------------------------

    def view(self, state: Position, seat: int | None) -> dict[str, Any]:
        return {
            "fen": write_fen(state),
            "colours": {seat_text(0): "White", seat_text(1): "Black"},
            "side_to_move": seat_text(0 if state.white else 1),
            "castling": castling_text(state.castling),
            "en_passant": SQUARE_NAMES[state.ep] if state.ep >= 0 else None,
            "halfmove_clock": state.halfmove,
            "fullmove": state.fullmove,
            "in_check": state.in_check(),
            "repetitions": state.repetitions(),
        }

    board_in_text = True

    def render(self, state: Position, seat: int | None, names: Sequence[str]) -> str:
        return render_board(state, names, extra=[], outcome=self.outcome(state))

    def diagram(self, state: Position, seat: int | None, names: Sequence[str]) -> Diagram:
        """The board from White's side (Black's for the second seat), then the status lines."""
        view = self.view(state, seat)
        return board_diagram(view["fen"], seat, self.render(state, seat, names), names,
                             in_check=view["in_check"])


FIGURES = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}
"""The figure shape of each chess piece (:mod:`gametool.core.figures`); a horse is a whole wooden
horse on wheels, never a knight's head."""


def board_diagram(fen: str, seat: int | None, notes: str, names: Sequence[str],
                  in_check: bool = False) -> Diagram:
    """The diagram of a FEN board: White's pieces light, Black's dark, each a figure filling its
    square; horses as wooden horses (grey when neutral); the king in check alerted."""
    from gametool.core.diagram import Diagram, Grid, Note, Piece, numbers_down

    cells: dict[tuple[int, int], Piece] = {}
    for row, rank in enumerate(fen.split()[0].split("/")):
        col = 0
        for char in rank:
            if char.isdigit():
                col += int(char)
                continue
            style = "light" if char.isupper() else "dark"
            if char.lower() in FIGURES:
                cells[(col, row)] = Piece(char, style, "disc", text=char,
                                          figure=FIGURES[char.lower()])
            else:
                cells[(col, row)] = Piece("H", "neutral" if char == "*" else style, "diamond",
                                          text=char, figure="trojan-horse")
            col += 1
    king = "K" if fen.split()[1] == "w" else "k"
    checked = frozenset(cell for cell, piece in cells.items() if in_check and piece.text == king)
    grid = Grid(tuple(FILES), numbers_down(8), cells, checkered=True, flippable=True,
                board="wood", alert=checked)
    legend = (("light", f"White: {names[0]}"), ("dark", f"Black: {names[1]}"))
    return Diagram((grid, Note(tuple(line for line in notes.splitlines() if line))),
                   flipped=seat == 1, legend=legend)


def render_board(state: Position, names: Sequence[str], extra: list[str],
                 outcome: Outcome | None = None) -> str:
    """The status lines under the board (the board itself is drawn from the diagram): who is
    to move, or how the game ended."""
    side = names[0] if state.white else names[1]
    colour = "White" if state.white else "Black"
    if outcome is None:
        status = f"to move: {side} ({colour}){'  - in check' if state.in_check() else ''}"
    elif outcome.termination == CHECKMATE:
        status = f"game over: {side} ({colour}) is checkmated"
    else:
        status = f"game over: {outcome.termination}"
    lines = [
        status,
        f"castling: {castling_text(state.castling)}   en passant: "
        f"{SQUARE_NAMES[state.ep] if state.ep >= 0 else '-'}   halfmove clock: "
        f"{state.halfmove}   move: {state.fullmove}",
        *extra,
        f"FEN: {write_fen(state)}",
    ]
    return "\n".join(lines) + "\n"

