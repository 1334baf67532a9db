"""Every short way of answering "is this legal?" or "is the game over?" agrees with the full
computation, on generated games: from the start and from set-up positions (FEN), under every
combination of the chess options, with null moves, repetitions and long clocks.

The short ways: the moves remembered in a position (``position.link``, ``Position.recall``,
``Game.known_step``), the step a check reads without the canonical text (``Game.read_step``),
the one-pass SAN reader (``board.plain_moves_to`` and the game's plain
reader), the lazy repetition history and the lazy judgement of the end, and the move tables
(``moves_to``, ``piece_moves_to``, ``has_legal_move``). The full computation: python-chess
(an outside truth) for the moves, their SAN, checkmate, stalemate, fivefold repetition and the
75-move rule; the rules' own D3 for dead positions; the whole legal move list of the core.
"""

from __future__ import annotations

import dataclasses

import chess as pychess
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gametool.core import engine
from gametool.core.errors import GameError, GameOver
from gametool.games.chess import Chess, SuperHorseChess, position
from gametool.games.chess import board as core
from gametool.games.chess.game import CLAIM, _read_plain
from gametool.games.chess.position import Position, read_fen
from gametool.games.chess.san import parse_move_text, resolve
from notation import record as gtn

OPTIONS = [{"automatic_draws": a, "null_moves": n} for a in ("on", "off") for n in ("on", "off")]
STARTS = [
    pychess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1",  # a knight from a dead position
    "4k3/8/8/8/8/8/4b3/2B1K3 b - - 0 1",  # bishops on both colours
    "7k/8/8/8/8/8/8/K3R3 w - - 0 1",  # a rook on the king's square
    "k3q3/8/8/8/8/8/8/K7 b - - 0 1",  # a queen on the king's square
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 140 80",  # the 75-move rule near
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 95 60",
    "k7/8/8/8/8/8/1q6/K7 w - - 0 1",
    "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 1",  # en passant that would uncover a check
]


def dead(board: pychess.Board) -> bool:
    """D3, written here from the rules: only kings; kings and one knight; kings and bishops,
    all on squares of one colour."""
    pieces = board.piece_map()
    others = [(sq, p.piece_type) for sq, p in pieces.items() if p.piece_type != pychess.KING]
    if any(kind in (pychess.PAWN, pychess.ROOK, pychess.QUEEN) for _sq, kind in others):
        return False
    knights = [sq for sq, kind in others if kind == pychess.KNIGHT]
    bishops = [sq for sq, kind in others if kind == pychess.BISHOP]
    if knights:
        return len(knights) == 1 and not bishops
    return len({(pychess.square_file(sq) + pychess.square_rank(sq)) % 2 for sq in bishops}) <= 1


def expected_end(board: pychess.Board, automatic: bool) -> str | None:
    """The termination the rules give (python-chess and D3), or None."""
    if board.is_checkmate():
        return "checkmate"
    if not automatic:
        return "stalemate" if board.is_stalemate() else None
    if dead(board):
        return "dead position"
    if board.is_stalemate():
        return "stalemate"
    if board.halfmove_clock >= 150:
        return "75-move rule"
    if board.is_repetition(5):
        return "fivefold repetition"
    return None


def spellings(board: pychess.Board, move: pychess.Move) -> list[str]:
    san = board.san(move)
    return [san, san.rstrip("+#"), move.uci()]


def same_position(a: object, b: object) -> bool:
    fields = ("board", "white", "castling", "ep", "halfmove", "fullmove", "history", "end")
    return all(getattr(a, f) == getattr(b, f) for f in fields)


def kings_known(pos: Position) -> bool:
    """Whether the squares of the kings a position knows (-1: not known) are theirs."""
    mine, theirs = ("K", "k") if pos.white else ("k", "K")
    return (pos._ksq in (-1, pos.board.find(mine))
            and pos._osq in (-1, pos.board.find(theirs)))


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(OPTIONS), st.sampled_from(STARTS), st.data())
def test_remembered_moves_and_the_lazy_end_agree_with_the_full_rules(
        options: dict[str, str], fen: str, data: st.DataObject) -> None:
    game = Chess(options)
    automatic, nulls = options["automatic_draws"] == "on", options["null_moves"] == "on"
    state = game.decode_position(fen, 2)
    board = pychess.Board(fen)
    made: list[pychess.Move] = []
    # The kind of each move (0-3: undo a move, 4-5: pass, else any) follows a short pattern,
    # repeated: games that go round in circles, by moves and by null moves.
    pattern = data.draw(st.lists(st.integers(0, 9), min_size=1, max_size=4), label="pattern")
    for ply in range(data.draw(st.integers(1, 70), label="plies")):
        # The position is read from before its end is judged, as a record is: a move read
        # first, then whose turn it is.
        end = expected_end(board, automatic)
        moves = list(board.legal_moves)
        if end is not None:
            for move in moves[:3]:  # any move is refused once the game is over
                reader = game.read_move if data.draw(st.booleans()) else game.parse_action
                for step in (read_step, Chess.read_step):
                    assert step(game, state, 0 if board.turn else 1, board.san(move)) is None
                try:
                    reader(state, board.san(move))
                except GameOver:
                    continue
                raise AssertionError(f"{board.san(move)} read after {end} in {board.fen()}")
            outcome = game.outcome(state)
            assert outcome is not None and outcome.termination == end, (board.fen(), made)
            return
        # The next move: often one that undoes a move, or a null move, so positions recur.
        kind = pattern[ply % len(pattern)]
        move = None
        if kind < 4 and len(made) >= 2 and made[-2] != pychess.Move.null():
            back = pychess.Move(made[-2].to_square, made[-2].from_square)
            move = back if back in moves else None
        if move is None and kind in (4, 5) and nulls and not board.is_check():
            move = pychess.Move.null()
        if move is None:
            move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        texts = ["--"] if not move else spellings(board, move)
        text = texts[data.draw(st.integers(0, len(texts) - 1), label="spelling")]
        seat = 0 if board.turn else 1
        stepped = read_step(game, state, seat, text)  # before the move is remembered
        linked = game.read_step(state, seat, text)  # remembers it
        assert read_step(game, state, 1 - seat, text) is None, text  # not that seat's turn
        known = game.known_step(state, seat, text)
        action = game.parse_action(state, text)
        after = game.apply(state, action)
        read = game.read_move(state, text)  # remembers the move in ``state``
        again = game.read_move(state, text)
        remembered = game.known_step(state, seat, text)
        assert game.outcome(state) is None, (board.fen(), made)
        listed = {game.format_action(state, a) for a in game.legal_actions(state)
                  if not a & CLAIM}
        assert listed == {board.san(m) for m in moves}, board.fen()
        canonical = board.san(move) if move else "--"
        board.push(move)
        made.append(move)
        assert read[0] == action == again[0], text
        assert read[1] == again[1] == canonical == game.format_action(state, action), text
        assert stepped is not None, text
        for other in (read[2], again[2], known, remembered, stepped, linked):
            if other is not None:
                assert same_position(other, after), text
                assert kings_known(other), (board.fen(), text)
        assert (game.encode_position(after).split()[:4]
                == board.fen(en_passant="fen").split()[:4]), text
        assert after.halfmove == board.halfmove_clock, text
        assert after.repetitions() == _occurrences(board), text
        # Read on from the position a check's reading made (its kings' squares known) or from
        # the engine's.
        state = linked if linked is not None and kind % 2 else after
    outcome = game.outcome(state)
    assert (outcome.termination if outcome else None) == expected_end(board, automatic)


def read_step(game: Chess, state: object, seat: int, text: str) -> object:
    """``game.read_step`` as a command runs it past the opening, where no move read is
    remembered: the one-pass reading without the canonical text is taken."""
    kept = engine.REMEMBER_ALL, position.OPENING_PLIES
    engine.REMEMBER_ALL, position.OPENING_PLIES = False, 0
    try:
        return game.read_step(state, seat, text)
    finally:
        engine.REMEMBER_ALL, position.OPENING_PLIES = kept


def _occurrences(board: pychess.Board) -> int:
    """How many times the position has occurred since the last irreversible move (counted by
    python-chess's transposition keys)."""
    key = board._transposition_key()
    count, copy = 0, board.copy()
    while True:
        if copy._transposition_key() == key:
            count += 1
        if not copy.move_stack:
            return count
        move = copy.pop()
        if move and copy.is_zeroing(move):
            return count


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(STARTS), st.lists(st.integers(0, 10_000), min_size=0, max_size=40))
def test_the_one_pass_san_reader_agrees_with_the_full_reading(fen: str, picks: list[int]) -> None:
    """``plain_moves_to`` gives what ``piece_moves_to`` gives, and the plain reader reads a text
    exactly as :func:`resolve` does, or leaves it to it (None): every SAN of a legal move, and
    texts that name no move (a piece to each square)."""
    state = read_fen(fen)
    board = pychess.Board(fen)
    for pick in [*picks, None]:
        if not state.in_check():
            for target in range(64):
                for piece in "NBRQ":
                    fast = core.plain_moves_to(state.board, state.white, target, piece)
                    full = core.piece_moves_to(state.board, state.white, state.castling,
                                               state.ep, target, piece, False)
                    assert (fast or []) == full or sorted(fast or []) == sorted(full), (
                        fen, target, piece)
        texts = {board.san(m) for m in board.legal_moves}
        texts |= {f"{p}{sq}" for p in ("N", "B", "R", "Q", "K", "") for sq in
                  ("a1", "c1", "d4", "e5", "h8", "c8", "e8", "f3")}
        texts |= {"O-O", "O-O-O", "exd6", "dxe3", "e8=Q", "a8=N"}
        for text in sorted(texts):
            fast = _read_plain(state, text)
            if fast is None:
                continue
            full = resolve(state, parse_move_text(text), text)
            assert fast[0] == full, (board.fen(), text)
            # The position after it has every field the engine's own after_move gives (the
            # memos set, perhaps filled already).
            made = state.after_move(*core.make_move(state.board, full, state.white,
                                                    state.castling, state.ep))
            for name in Position.__slots__:
                ours = getattr(fast[2], name)
                if name not in MEMOS:
                    assert ours == getattr(made, name), (text, name)
            assert fast[2]._check == made.in_check(), text
            assert kings_known(fast[2]), text
            assert fast[1] == board.san(pychess.Move.from_uci(_uci(fast[0]))), text
        for text in ("O-O", "O-O-O"):  # castling names the king's move only
            try:
                theirs = board.parse_san(text).uci()
            except ValueError:
                theirs = None
            try:
                ours = _uci(resolve(state, parse_move_text(text), text))
            except GameError:
                ours = None
            assert ours == theirs, (board.fen(), text)
        moves = list(board.legal_moves)
        if pick is None or not moves:
            return
        move = moves[pick % len(moves)]
        board.push(move)
        state = read_fen(board.fen(en_passant="fen"))


MEMOS = ("_moves", "_key", "_status", "_turns", "_memo", "_check", "_shared", "_ksq", "_osq")
"""The fields of a position that memoise what its other fields decide."""


def _uci(m: int) -> str:
    promo = " nbrq"[m >> 12].strip()
    return core.SQUARE_NAMES[m & 63] + core.SQUARE_NAMES[(m >> 6) & 63] + promo


# -- the move tables, on any board (horses included) --------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, bool, int, int]:
    """A position the rules allow (D6), with horses on some squares, and an en-passant square
    whenever a pawn may just have advanced two squares (a horse may stand on it: D8)."""
    cells = ["."] * 64
    if draw(st.booleans()):  # kings and rooks at home, so that castling may be legal
        cells[4], cells[60], cells[0], cells[7], cells[56], cells[63] = "KkRRrr"
        squares = [4, 60, *draw(st.lists(st.integers(0, 63).filter(
            lambda s: s not in (0, 4, 7, 56, 60, 63)), max_size=12, unique=True))]
    else:
        squares = draw(st.lists(st.integers(0, 63), min_size=2, max_size=16, unique=True))
        cells[squares[0]], cells[squares[1]] = "K", "k"
    kinds = draw(st.lists(st.sampled_from("PNBRQpnbrq**"), min_size=len(squares) - 2,
                          max_size=len(squares) - 2))
    for sq, kind in zip(squares[2:], kinds, strict=True):
        if kind in "Pp" and sq >> 3 in (0, 7):
            continue
        cells[sq] = kind
    white = draw(st.booleans())
    if draw(st.booleans()):  # a pawn of the other side has just advanced two squares
        ep = (40 if white else 16) + draw(st.integers(0, 7))
        pawn, origin = (ep - 8, ep + 8) if white else (ep + 8, ep - 8)
        if cells[pawn] == "." and cells[origin] == "." and cells[ep] == ".":
            cells[pawn] = "p" if white else "P"
    rights = 0
    for bit, king, rook, letters in ((core.WK, 4, 7, "KR"), (core.WQ, 4, 0, "KR"),
                                     (core.BK, 60, 63, "kr"), (core.BQ, 60, 56, "kr")):
        if cells[king] == letters[0] and cells[rook] == letters[1] and draw(st.booleans()):
            rights |= bit
    ep = -1
    passed = [s for s in range(64) if (s >> 3 == (5 if white else 2))
              and cells[s - 8 if white else s + 8] == ("p" if white else "P")
              and cells[s] in ".*"]
    if passed and draw(st.booleans()):
        ep = draw(st.sampled_from(passed))
        if cells[ep + 8 if white else ep - 8] != ".":
            ep = -1
        else:
            if draw(st.booleans()):
                cells[ep] = "*"  # D8: a horse on the passed-over square
            beside = [s for s in ((ep - 8, ep - 7, ep - 9) if white else (ep + 8, ep + 7, ep + 9))
                      if (s & 7) - (ep & 7) in (1, -1) and cells[s] == "."]
            if beside and draw(st.booleans()):  # a pawn that may take en passant
                cells[draw(st.sampled_from(beside))] = "P" if white else "p"
    if draw(st.booleans()):  # the king walled in by horses: few moves, stalemate near
        ksq = cells.index("K" if white else "k")
        for sq in core.KING[ksq]:
            if cells[sq] == "." and sq != ep:
                cells[sq] = "*"
    board = "".join(cells)
    assume(not core.attacked(board, board.index("k" if white else "K"), white))  # D6
    return board, white, rights, ep


def crowded(board: str, white: bool, ep: int, keep: int) -> str:
    """``board`` with the side's pieces other than its king and the piece on ``keep`` turned
    into horses, and horses on the empty squares next to those two (the en-passant square
    left as it is): a position where almost nothing moves, so that whether anything does
    turns on that piece and the king alone."""
    own = core.WHITE_PIECES if white else core.BLACK_PIECES
    king = board.index("K" if white else "k")
    cells = ["*" if c in own and s not in (king, keep) else c for s, c in enumerate(board)]
    for centre in (king, keep):
        for s in core.KING[centre]:
            if cells[s] == "." and s != ep:
                cells[s] = "*"
    return "".join(cells)


def attacked_by_walking(board: str, sq: int, by_white: bool) -> bool:
    """Whether ``sq`` is attacked, by a walk from it over files and ranks (horses block)."""
    case = str.upper if by_white else str.lower
    f0, r0 = sq % 8, sq // 8

    def at(df: int, dr: int) -> str:
        f, r = f0 + df, r0 + dr
        return board[r * 8 + f] if 0 <= f < 8 and 0 <= r < 8 else ""

    jumps = {"N": [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
             "K": [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr],
             "P": [(-1, -1), (1, -1)] if by_white else [(-1, 1), (1, 1)]}
    for piece, steps in jumps.items():
        if any(at(df, dr) == case(piece) for df, dr in steps):
            return True
    for df, dr in [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]:
        sliders = case("RQ" if df == 0 or dr == 0 else "BQ")
        k = 1
        while at(df * k, dr * k) == ".":
            k += 1
        if at(df * k, dr * k) in tuple(sliders):
            return True
    return False


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.large_base_example])
@given(boards())
def test_the_move_tables_agree_with_the_whole_move_list(
        position: tuple[str, bool, int, int]) -> None:
    board, white, castling, ep = position
    moves = core.legal_moves(board, white, castling, ep)
    assert core.has_legal_move(board, white, castling, ep) == bool(moves)
    own = core.WHITE_PIECES if white else core.BLACK_PIECES
    for keep in [s for s, c in enumerate(board) if c in own]:
        alone = crowded(board, white, ep, keep)
        assert core.has_legal_move(alone, white, castling, ep) == bool(
            core.legal_moves(alone, white, castling, ep)), (alone, white, castling, ep)
    checked = core.in_check(board, white)
    assert core.has_legal_move(board, white, castling, ep, checked=checked) == bool(moves)
    for by_white in (True, False):  # told where the king is, or not
        king = board.find("K" if by_white else "k")
        for sq in range(64):
            walked = attacked_by_walking(board, sq, by_white)
            assert core.attacked(board, sq, by_white) == walked, (board, sq, by_white)
            assert core.attacked(board, sq, by_white, king) == walked, (board, sq, by_white)
    for target in range(64):
        wanted = sorted(m for m in moves if (m >> 6) & 63 == target)
        assert sorted(core.moves_to(board, white, castling, ep, target)) == wanted
        for piece in "PNBRQK":
            letter = piece if white else piece.lower()
            mine = sorted(m for m in wanted if board[m & 63] == letter)
            assert sorted(core.piece_moves_to(board, white, castling, ep, target, piece)) == mine
            if piece in "NBRQ" and not checked:
                fast = core.plain_moves_to(board, white, target, piece)
                assert sorted(fast or []) == mine, (board, target, piece)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards())
def test_the_one_pass_reader_reads_every_move_of_any_chess_board(
        position: tuple[str, bool, int, int]) -> None:
    """On any board the rules allow (no horses: chess), every legal move's SAN, and the SAN
    with each needless part added (the from-file, the rank, the square, an 'x' on a quiet
    move), read by the one-pass reader gives the move and the position the full reading and
    make_move give, and its canonical SAN with the check sign (castling that checks with its
    rook, a king's step that uncovers a check, a pinned piece's move that is no move)."""
    cells, white, castling, ep = position
    assume("*" not in cells)
    state = Position(cells, white, castling, ep, 0, 1)
    moves = core.legal_moves(cells, white, castling, ep)
    for m in moves:
        canonical = Chess().format_action(state, m)
        body = canonical.rstrip("+#")
        f = core.SQUARE_NAMES[m & 63]
        texts = {canonical, body}
        if body[0] in "NBRQK":
            target = body[-2:]
            taking = "x" if "x" in body else ""
            texts |= {f"{body[0]}{f[0]}{taking}{target}", f"{body[0]}{f[1]}{taking}{target}",
                      f"{body[0]}{f}{taking}{target}", f"{body[0]}x{target}"}
        for text in sorted(texts):
            fast = _read_plain(state, text)
            try:
                full = resolve(state, parse_move_text(text), text)
            except GameError:
                full = None
            if fast is None:
                continue
            assert fast[0] == full, (cells, text)
            if fast[0] != m:
                continue
            assert fast[1] == canonical, (cells, white, castling, ep, text)
            made = state.after_move(*core.make_move(cells, m, white, castling, ep))
            for name in Position.__slots__:
                if name not in MEMOS:
                    assert getattr(fast[2], name) == getattr(made, name), (cells, text, name)
            assert fast[2]._check == made.in_check(), (cells, white, castling, ep, text)
            assert kings_known(fast[2]), (cells, text)
    # A text naming no legal move is no move: the piece letters to every square.
    legal = {Chess().format_action(state, m).rstrip("+#") for m in moves}
    for target in core.SQUARE_NAMES:
        for piece in ("N", "B", "R", "Q", "K", ""):
            text = piece + target
            if text not in legal:
                fast = _read_plain(state, text)
                assert fast is None or fast[1].rstrip("+#") in legal, (cells, text)


def test_castling_checks_with_its_rook_wherever_the_other_king_stands() -> None:
    """Castling either way, by either side, with the other king on every square it may stand
    on (and a rook or bishop of the other side beside it on some): the one-pass reader gives
    the legality, the check sign and the position that the full reading and make_move give."""
    for white in (True, False):
        home = 0 if white else 56
        own = "KRR" if white else "krr"
        for other in range(64):
            for extra in (None, "b", "r"):
                cells = ["."] * 64
                cells[home + 4], cells[home], cells[home + 7] = own
                if other in (home, home + 4, home + 7):
                    continue
                cells[other] = "k" if white else "K"
                if extra is not None:
                    beside = other + 1 if other & 7 < 7 else other - 1
                    if cells[beside] != ".":
                        continue
                    cells[beside] = extra if white else extra.upper()
                board = "".join(cells)
                if (core.attacked(board, other, white)
                        or core.attacked(board, home + 4, not white)):
                    continue  # the rules allow no such position (or castling is out)
                state = Position(board, white, (core.WK | core.WQ) if white
                                 else (core.BK | core.BQ), -1, 0, 1)
                for text in ("O-O", "O-O-O"):
                    fast = _read_plain(state, text)
                    try:
                        full = resolve(state, parse_move_text(text), text)
                    except GameError:
                        full = None
                    assert (fast[0] if fast else None) == full, (board, white, text)
                    if full is None:
                        continue
                    assert fast is not None
                    assert fast[1] == Chess().format_action(state, full), (board, text)
                    made = state.after_move(*core.make_move(board, full, white,
                                                            state.castling, -1))
                    assert fast[2].board == made.board and fast[2].castling == made.castling
                    assert fast[2]._check == made.in_check(), (board, white, text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from([{}, {"horses": "owned"}, {"horse_action": "optional"}]))
def test_a_super_horse_chess_end_agrees_with_its_list_of_turns(
        position: tuple[str, bool, int, int], options: dict[str, str]) -> None:
    """D10: mate and stalemate are judged on the chess moves alone; no turn is listed exactly
    when the game is over (horses neutral here, so owned horses are none)."""
    board, white, castling, ep = position
    if "horses" in options:
        board = board.replace("*", "H" if white else "h")
    game = SuperHorseChess(options)
    fen = _fen(board, white, castling, ep)
    state = game.decode_position(fen, 2)
    moves = core.legal_moves(board, white, castling, ep)
    assert state.has_move() == bool(moves)
    outcome = game.outcome(state)
    if not moves:
        assert outcome is not None and outcome.termination in ("checkmate", "stalemate")
        assert game.legal_actions(state) == []
    elif outcome is None:
        assert game.legal_actions(state)


def _fen(board: str, white: bool, castling: int, ep: int) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, run = "", 0
        for ch in board[rank * 8:rank * 8 + 8]:
            if ch == ".":
                run += 1
                continue
            row += (str(run) if run else "") + ch
            run = 0
        rows.append(row + (str(run) if run else ""))
    rights = "".join(c for c, b in zip("KQkq", (1, 2, 4, 8), strict=True) if castling & b) or "-"
    where = core.SQUARE_NAMES[ep] if ep >= 0 else "-"
    return f"{'/'.join(rows)} {'w' if white else 'b'} {rights} {where} 0 1"


def test_the_guards_see_a_null_move_repetition() -> None:
    """The walk above meets the case the lazy judgement once missed: eight null moves."""
    game = Chess({"null_moves": "on"})
    state = game.initial_state(2)
    board = pychess.Board()
    for _ in range(8):
        state = game.apply(state, game.parse_action(state, "--"))
        board.push(pychess.Move.null())
    assert expected_end(board, True) == "fivefold repetition"
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "fivefold repetition"


def test_a_step_appended_by_a_converter_is_the_one_its_class_makes() -> None:
    """``Session.append_checked`` makes its step field by field: every slot as ``Step`` sets
    it."""
    from gametool.records.session import Session, Step

    session = Session.start("chess", ["ann", "bob"], {}, None, None)
    game = session.game
    action = game.parse_action(session.state, "e4")
    line = session.append_checked(0, action, "e4", game.apply(session.state, action))
    made, full = session.steps[-1], Step(0, action, "e4")
    for name in Step.__slots__:
        assert getattr(made, name) == getattr(full, name), name
    assert made == full
    # Its turn line too: every field as the dataclasses set it, and a list of NAGs of its own.
    whole = gtn.TurnLine(1, "ann", [gtn.Action("e4")])
    for field in dataclasses.fields(gtn.TurnLine):
        assert getattr(line, field.name) == getattr(whole, field.name), field.name
    for field in dataclasses.fields(gtn.Action):
        assert getattr(line.actions[0], field.name) == getattr(whole.actions[0], field.name)
    assert line == whole and session.record.body[-1] is line
    action = game.parse_action(session.state, "e5")
    other = session.append_checked(1, action, "e5", game.apply(session.state, action))
    assert other.nags is not line.nags and other.ply == 2 and other.seat == "bob"


def test_an_action_appended_to_a_run_is_written_as_its_turn_line() -> None:
    """``Session.append_to_run`` (a record only written) adds the line's seat and text to the
    run and the next state to the session, as ``append_checked`` does (the text and the next
    state worked out when not given), and keeps no step."""
    from gametool.records.session import Session

    written = Session.start("chess", ["ann", "bob"], {}, None, None, date="2026.11.28")
    kept = Session.start("chess", ["ann", "bob"], {}, None, None, date="2026.11.28")
    game = written.game
    run = gtn.TurnRun(1)
    written.record.body.append(run)
    action = game.parse_action(written.state, "e4")
    assert written.append_to_run(run, 0, action, "e4", game.apply(written.state, action)) == 0
    kept.append_checked(0, action, "e4", game.apply(kept.state, action))
    action = game.parse_action(written.state, "Nf6")
    assert written.append_to_run(run, 1, action) == 1
    kept.append_checked(1, action)
    assert (run.seats, run.texts) == (["ann", "bob"], ["e4", "Nf6"])
    assert written.ply == kept.ply == 2 and written.state == kept.state and not written.steps
    assert written.text(as_built=True) == kept.text(as_built=True) == kept.text()
    assert written.text(as_built=True).endswith("\n1. ann: e4\n2. bob: Nf6\n")


def test_a_chance_line_read_by_the_checks_own_loop_gives_the_general_readings_verdict(
        monkeypatch: object) -> None:
    """Session._chance_step (a chance line in the seed's order, read by the check's loop)
    against the general reading of every line: the same verdicts, errors and plies, on random
    games of every game with chance, whole and with lines changed (another roll, deal or
    report; a chance line swapped with the next; a chance line cut short)."""
    import random

    from gametool import games
    from gametool.players.auto import random_game
    from gametool.records import Session, check_text

    def verdicts(text: str, all_errors: bool) -> list[tuple[int, int, list[str]]]:
        return [(c.index, c.plies, [str(e) for e in c.errors])
                for c in check_text(text, "t.gtn", all_errors)]

    rng = random.Random(9)
    compared = 0
    for gid in games.playable_ids():
        if not games.playable_class(gid).chance:
            continue
        texts = []
        for index in range(1):
            text = random_game(gid, f"chance-lines-{index}", max_plies=80).text()
            lines = text.split("\n")
            chance = [i for i, line in enumerate(lines) if ". chance: " in line]
            texts.append(text)
            for _ in range(5):
                changed = list(lines)
                i, j = rng.choice(chance), rng.choice(chance)
                how = rng.randrange(3)
                if how == 0:
                    changed[i] = changed[i].split(": ", 1)[0] + ": " + lines[j].split(": ", 1)[1]
                elif how == 1 and i + 1 < len(changed):
                    changed[i], changed[i + 1] = changed[i + 1], changed[i]
                else:
                    changed[i] = changed[i][:-2]
                texts.append("\n".join(changed))
        for text in texts:
            for all_errors in (False, True):
                fast = verdicts(text, all_errors)
                with monkeypatch.context() as patch:  # type: ignore[attr-defined]
                    patch.setattr(Session, "_chance_step", lambda *_args: None)
                    general = verdicts(text, all_errors)
                assert fast == general, (gid, text)
                compared += 1
    assert compared > 40
