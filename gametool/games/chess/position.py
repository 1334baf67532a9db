"""Positions of chess and Super Horse Chess: the state object, its repetition key, and FEN.

A :class:`Position` never changes once built; it memoises its legal moves and its key, which
are functions of its fields. ``history`` holds the keys of the earlier positions since the last
pawn move or capture (no position before those can recur), for the repetition rules (D4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gametool.core import engine
from gametool.core.errors import GameError
from gametool.games.chess.board import (
    BK,
    BLACK_PIECES,
    BQ,
    EMPTY,
    FILES,
    SQUARE_NAMES,
    WHITE_PIECES,
    WK,
    WQ,
    attacked,
    has_legal_move,
    legal_moves,
    moves_to,
    piece_moves_to,
)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_UNSET: Any = object()
_new = object.__new__
SHARED_LIMIT = 10_000
"""Positions whose shared memo is kept (a few hundred bytes each); then memory starts again."""
_SHARED: dict[tuple[str, bool, int, int], dict[Any, Any]] = {}


def shared_for(board: str, white: bool, castling: int, ep: int) -> dict[Any, Any]:
    """The shared memo of the positions with these four fields (see :attr:`Position.shared`)."""
    key = (board, white, castling, ep)
    memo = _SHARED.get(key)
    if memo is None:
        if len(_SHARED) >= SHARED_LIMIT:
            _SHARED.clear()
        memo = _SHARED[key] = {}
    return memo


def forget_shared() -> None:
    """Forget every shared memo (see :attr:`Position.shared`) and every shared start with the
    moves read from it (see :func:`start`), as a new process starts."""
    _SHARED.clear()
    _STARTS.clear()
    _LINKS[0] = _LINKS[1] = 0


LINK_LIMIT = 30_000
"""Moves remembered from the shared starts (see :func:`link`) before memory starts again: the
positions of about 350 games, some 15 MB of objects (several times that in resident memory, as
they keep the allocator's blocks around them: an import of distinct games peaks near 140 MB
with 30,000, 206 with 50,000)."""
STARTS_LIMIT = 1_000
"""Start positions kept (their moves count in LINK_LIMIT)."""
_STARTS: dict[Any, Position] = {}
OPENING_PLIES = 12
OPENING_LIMIT = 5_000
"""With engine.REMEMBER_ALL off, moves are remembered only in positions before OPENING_PLIES,
and at most OPENING_LIMIT of them (the positions kept pin the allocator's pages around them).
A move remembered costs more than reading it again unless a later game comes by the same
moves: in the 1,048 real games of bench/data, 41% of the games share their first 8 plies with
an earlier game, 19% their first 12, 9% 16 and 2% 24 (validate and import count about 1% fewer
instructions at 12 plies than at 24)."""
CHECK_LIMIT = 20_000
"""Of those, the moves a check may remember (it rarely meets a position again, and a command
that only checks keeps less in memory)."""
_LINKS = [0, 0]
"""Moves remembered since the starts were last forgotten: in all, and by checks."""


def start(key: Any, make: Callable[[], Position]) -> Position:
    """The start position ``key`` names (a game with its options, and a FEN or none), made once
    and shared by every record of the process that starts there: what one record read from it,
    the next record that starts the same way finds again (see :func:`link`)."""
    pos = _STARTS.get(key)
    if pos is None:
        pos = make()
        if len(_STARTS) >= STARTS_LIMIT:  # a file of set-up positions
            _STARTS.clear()
        _STARTS[key] = pos
    return pos


def remembers(pos: Position) -> bool:
    """Whether :func:`link` may remember a move read in ``pos`` (False: it never does, so a
    reader need not work out what it would keep)."""
    return engine.REMEMBER_ALL or pos.ply < OPENING_PLIES


def link(pos: Position, text: str, read: tuple[int, str, Position], evict: bool = True) -> bool:
    """Remember in ``pos`` that the move ``text`` was read there as ``read``: the move, its
    canonical text and the position after it. A record that reaches the same position by the
    same moves (the same opening in another game, or the record just written, validated) finds
    the move and the next position, the end judged already, without reading again.

    A position is a function of its start and the moves read since, and it never changes, so
    what is remembered is exactly what reading again would give. The positions of the shared
    starts' moves stay in memory until LINK_LIMIT moves are remembered; then, with ``evict``
    (an import), the starts are forgotten and what hangs from them is freed once no record
    holds it; without (a check, which may hold its start to the end), nothing more is
    remembered (False). The first move read from a position is kept in its own fields (no
    object more for the garbage collector to walk); others in a dict."""
    limit = LINK_LIMIT
    if not engine.REMEMBER_ALL:
        if pos.ply >= OPENING_PLIES:
            return False
        limit = OPENING_LIMIT
    if not evict:
        if _LINKS[0] >= limit or _LINKS[1] >= CHECK_LIMIT:
            return False
        _LINKS[1] += 1
    elif _LINKS[0] >= limit:
        _LINKS[0] = _LINKS[1] = 0
        _STARTS.clear()
    if pos._link is None:  # (the SAN's string for the text when they are the same)
        pos._link = (read[1] if text == read[1] else text, read)
    else:
        more = pos._more
        if more is None:
            more = pos._more = {}
        more[text] = more[read[1]] = read
        more[read[0]] = read[2]
    _LINKS[0] += 1
    return True


class Position:
    """One position: board, side to move, castling rights, en-passant square, clocks, the
    repetition history, the ply count from the record's start, and an ending by resignation or
    claim (``end`` = (termination, winning seat or None))."""

    __slots__ = ("board", "white", "castling", "ep", "halfmove", "fullmove", "_history",
                 "_prev", "ply", "end", "_moves", "_key", "_status", "_turns", "_memo", "_check",
                 "_shared", "_link", "_more", "_ksq", "_osq")

    def __init__(self, board: str, white: bool, castling: int, ep: int, halfmove: int,
                 fullmove: int, history: tuple[Any, ...] | None = (), ply: int = 0,
                 end: tuple[str, int | None] | None = None, prev: Position | None = None
                 ) -> None:
        """``history`` None and ``prev`` given: the history is ``prev``'s and ``prev``'s key
        (worked out on first need: most positions never need theirs)."""
        self.board = board
        self.white = white
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self._history = history
        self._prev = prev
        self.ply = ply
        self.end = end
        self._moves: list[int] | None = None
        self._key: tuple[Any, ...] | None = None
        self._status: Any = _UNSET
        self._turns: Any = None
        self._check: bool | None = None
        self._memo: dict[Any, Any] | None = None
        self._shared: dict[Any, Any] | None = None
        # The moves read here and the positions after them (see :func:`link`): the first as
        # (its text, (move, SAN, position after)), the others in a dict.
        self._link: tuple[str, tuple[int, str, Position]] | None = None
        self._more: dict[Any, Any] | None = None
        # The squares of the kings of the side to move and of the other, where known (-1).
        self._ksq = self._osq = -1

    def recall(self, text: str) -> tuple[int, str, Position] | None:
        """The move ``text`` read here before, its canonical text and the position after it
        (see :func:`link`), or None."""
        first = self._link
        if first is None:
            return None
        if text == first[0] or text == first[1][1]:
            return first[1]
        more = self._more
        return None if more is None else more.get(text)

    def after_move(self, board: str, castling: int, ep: int, zeroing: bool, ksq: int = -1,
                   osq: int = -1, check: bool | None = None) -> Position:
        """The position after a move of this one that left ``board``, ``castling`` and ``ep``
        (``zeroing``: a pawn move or a capture, which clears the clock and the history), and
        what the mover knows of it: the squares of its kings (``ksq`` of the side to move
        then, ``osq`` of the other; -1 where not known) and whether its side is in ``check``
        (None: not known)."""
        # Made here field by field, as __init__ makes it (one call less for every move read).
        white = self.white
        pos = _new(Position)
        pos.board, pos.white, pos.castling, pos.ep = board, not white, castling, ep
        pos.fullmove, pos.ply, pos.end = self.fullmove + (not white), self.ply + 1, None
        if zeroing:
            pos.halfmove, pos._history, pos._prev = 0, (), None
        else:
            pos.halfmove, pos._history, pos._prev = self.halfmove + 1, None, self
        pos._moves = pos._key = pos._turns = pos._memo = pos._shared = None
        pos._link = pos._more = None
        pos._status = _UNSET
        pos._ksq, pos._osq, pos._check = ksq, osq, check
        return pos

    @property
    def shared(self) -> dict[Any, Any]:
        """What the placement, side to move, castling rights and en-passant square alone decide
        (the move a text names, its SAN, the position after a move, check, whether a move
        exists), shared by every position with those four fields in this process: reading a
        record just written (validate after import) repeats none of that work."""
        memo = self._shared
        if memo is None:
            memo = self._shared = shared_for(self.board, self.white, self.castling, self.ep)
        return memo

    @property
    def memo(self) -> dict[Any, Any]:
        """A scratch memo for text work on this position (SAN of a move, a resolved move)."""
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
        return memo

    def _fields(self) -> tuple[Any, ...]:
        return (self.board, self.white, self.castling, self.ep, self.halfmove, self.fullmove,
                self.history, self.ply, self.end)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Position({write_fen(self)!r})"

    @property
    def moves(self) -> list[int]:
        """The legal chess moves of the side to move (horses as obstacles)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = legal_moves(self.board, self.white, self.castling, self.ep)
        return moves

    def moves_to(self, target: int) -> list[int]:
        """The legal moves ending on ``target`` (from the full list when it is known)."""
        moves = self._moves
        if moves is not None:
            return [m for m in moves if (m >> 6) & 63 == target]
        memo = self.memo
        found = memo.get(("to", target))
        if found is None:
            found = memo["to", target] = moves_to(self.board, self.white, self.castling, self.ep,
                                            target, self.in_check())
        return found

    def piece_moves_to(self, target: int, piece: str) -> list[int]:
        """The legal moves of the pieces ``piece`` (upper-case letter) ending on ``target``."""
        moves = self._moves
        if moves is not None:
            letter = piece if self.white else piece.lower()
            board = self.board
            return [m for m in moves if (m >> 6) & 63 == target and board[m & 63] == letter]
        memo = self.memo
        key = ("to", target, piece)
        found = memo.get(key)
        if found is None:
            found = memo[key] = piece_moves_to(self.board, self.white, self.castling, self.ep,
                                               target, piece, self.in_check())
        return found

    def has_move(self) -> bool:
        """Whether the side to move has a legal move (without listing them all)."""
        shared = self.shared
        found = shared.get("has_move")
        if found is None:
            found = shared["has_move"] = self._has_move()
        return found

    def _has_move(self) -> bool:
        moves = self._moves
        if moves is None and self.in_check():
            moves = self.moves  # in check the list is short, and mate needs all of it
        if moves is not None:
            return bool(moves)
        return has_legal_move(self.board, self.white, self.castling, self.ep, checked=False)

    @property
    def key(self) -> tuple[Any, ...]:
        """D4: pieces (and horses), side, castling rights, and the en-passant square only when
        an en-passant capture is legal."""
        key = self._key
        if key is None:
            ep = self.ep
            if ep >= 0 and not self.ep_capturable():
                ep = -1
            key = self._key = (self.board, self.white, self.castling, ep)
        return key

    def ep_capturable(self) -> bool:
        ep = self.ep
        if ep < 0:
            return False
        pawn = "P" if self.white else "p"
        board = self.board
        return any(board[m & 63] == pawn and (m ^ ep) & 7 for m in self.moves_to(ep))

    def in_check(self) -> bool:
        """Whether the king of the side to move is attacked (memoised)."""
        checked = self._check
        if checked is None:
            shared = self.shared
            checked = shared.get("check")
            if checked is None:
                king = "K" if self.white else "k"
                checked = shared["check"] = attacked(self.board, self.board.index(king),
                                                     not self.white)
            self._check = checked
        return checked

    def repetitions(self) -> int:
        """How many times the current position has occurred, this time included."""
        history = self.history
        return history.count(self.key) + 1 if history else 1

    @property
    def history(self) -> tuple[Any, ...]:
        """The keys of the earlier positions since the last pawn move or capture (D4), oldest
        first; the positions made after a move keep the one before instead, until asked."""
        history = self._history
        if history is None:
            waiting = []
            pos = self
            while pos._history is None:  # the positions whose history waits, newest first
                waiting.append(pos)
                pos = pos._prev  # type: ignore[assignment]
            history = pos._history
            for pos in reversed(waiting):
                prev = pos._prev
                assert prev is not None
                history = pos._history = (*history, prev.key)
                pos._prev = None
        return history


def _square(text: str) -> int:
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(text)
    return (int(text[1]) - 1) * 8 + FILES.index(text[0])


def read_fen(text: str, horse_symbols: str = "") -> Position:
    """A position from FEN (D5: the clocks may be left out), checked as D6 says.

    ``horse_symbols`` lists the extra piece-field symbols allowed: ``*`` for neutral horses,
    ``Hh`` for owned ones (Super Horse Chess).
    """
    fields = text.split()
    if len(fields) not in (4, 6):
        raise GameError(f"FEN {text.strip()!r}: expected 6 fields (or 4, without the clocks)")
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise GameError(f"FEN piece field {fields[0]!r}: expected 8 ranks separated by '/'")
    ranks: list[str] = []
    allowed = WHITE_PIECES + BLACK_PIECES + horse_symbols
    for index, row in enumerate(rows):
        run: list[str] = []
        for ch in row:
            if ch in "12345678":
                run.extend(EMPTY * int(ch))
            elif ch in allowed:
                run.append(ch)
            else:
                raise GameError(f"FEN rank {8 - index} {row!r}: unknown symbol {ch!r}")
        if len(run) != 8:
            raise GameError(f"FEN rank {8 - index} {row!r}: {len(run)} squares, not 8")
        ranks.append("".join(run))
    board = "".join(reversed(ranks))  # FEN gives rank 8 first; the board starts at a1
    if fields[1] not in ("w", "b"):
        raise GameError(f"FEN side to move {fields[1]!r}: expected w or b")
    white = fields[1] == "w"
    castling = 0
    if fields[2] != "-":
        for ch in fields[2]:
            bit = {"K": WK, "Q": WQ, "k": BK, "q": BQ}.get(ch)
            if bit is None or castling & bit:
                raise GameError(f"FEN castling field {fields[2]!r}: expected a subset of KQkq")
            castling |= bit
    ep = -1
    if fields[3] != "-":
        try:
            ep = _square(fields[3])
        except ValueError:
            raise GameError(f"FEN en-passant field {fields[3]!r}: expected a square or -") from None
    halfmove, fullmove = 0, 1
    if len(fields) == 6:
        if not (fields[4].isdigit() and fields[5].isdigit()) or int(fields[5]) < 1:
            raise GameError(f"FEN clocks {fields[4]!r} {fields[5]!r}: expected whole numbers "
                            "(the move number from 1)")
        halfmove, fullmove = int(fields[4]), int(fields[5])
    _check_legal(board, white, castling, ep)
    return Position(board, white, castling, ep, halfmove, fullmove)


def _check_legal(board: str, white: bool, castling: int, ep: int) -> None:
    """D6: the positions the rules reject."""
    for king, side in (("K", "White"), ("k", "Black")):
        if board.count(king) != 1:
            raise GameError(f"FEN: {side} must have exactly one king, not {board.count(king)}")
    for sq in (*range(8), *range(56, 64)):
        if board[sq] in "Pp":
            raise GameError(f"FEN: a pawn on {SQUARE_NAMES[sq]} (pawns never stand on rank 1 "
                            "or 8)")
    other_king = board.index("k" if white else "K")
    if attacked(board, other_king, white):
        raise GameError("FEN: the side not to move is in check")
    needs = ((WK, 4, 7, "K", "R"), (WQ, 4, 0, "K", "R"), (BK, 60, 63, "k", "r"),
             (BQ, 60, 56, "k", "r"))
    for bit, ksq, rsq, king, rook in needs:
        if castling & bit and (board[ksq] != king or board[rsq] != rook):
            raise GameError(f"FEN: castling right {'KQkq'[[WK, WQ, BK, BQ].index(bit)]} needs "
                            f"the king on {SQUARE_NAMES[ksq]} and the rook on {SQUARE_NAMES[rsq]}")
    if ep >= 0:
        rank, pawn_sq, pawn = (5, ep - 8, "p") if white else (2, ep + 8, "P")
        if ep >> 3 != rank:
            raise GameError(f"FEN: en-passant square {SQUARE_NAMES[ep]} must be on rank "
                            f"{rank + 1} with {'White' if white else 'Black'} to move")
        # A horse may stand on the passed-over square (Super Horse Chess D8).
        if board[pawn_sq] != pawn or board[ep] in WHITE_PIECES + BLACK_PIECES:
            raise GameError(f"FEN: en-passant square {SQUARE_NAMES[ep]} needs the pawn that "
                            f"just advanced on {SQUARE_NAMES[pawn_sq]}")


def write_fen(pos: Position) -> str:
    """D5: the en-passant square is written after every two-square advance."""
    rows = []
    board = pos.board
    for rank in range(7, -1, -1):
        row, run = "", 0
        for ch in board[rank * 8:rank * 8 + 8]:
            if ch == EMPTY:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += ch
        rows.append(row + (str(run) if run else ""))
    rights = "".join(ch for ch, bit in zip("KQkq", (WK, WQ, BK, BQ), strict=True)
                     if pos.castling & bit) or "-"
    ep = SQUARE_NAMES[pos.ep] if pos.ep >= 0 else "-"
    return (f"{'/'.join(rows)} {'w' if pos.white else 'b'} {rights} {ep} "
            f"{pos.halfmove} {pos.fullmove}")
