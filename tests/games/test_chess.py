"""Chess: the rules file's edge cases, decisions, perft table, FEN, SAN, PGN, and a differential
check against python-chess (a test-only dependency)."""

from __future__ import annotations

import random
from pathlib import Path

import chess as pychess
import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.engine import RESIGN, perft, perft_divide, walk_perft
from gametool.core.errors import (
    AmbiguousAction,
    GameError,
    GameOver,
    IllegalAction,
    MalformedAction,
)
from gametool.games.chess import Chess
from gametool.games.chess import board as core
from gametool.games.chess.game import CLAIM
from gametool.games.chess.position import Position, read_fen, write_fen
from gametool.pgn.export import export_pgn
from gametool.pgn.reader import import_pgn
from gametool.records import Session, check_text, load_one

G = Chess()
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DATA = Path(__file__).parent.parent / "data"
SAMPLES = Path(__file__).parent.parent.parent / "sample_games" / "chess"


def pos(fen: str = START) -> Position:
    return G.decode_position(fen, 2)


def play(state: Position, *texts: str) -> Position:
    for text in texts:
        state = G.apply(state, G.parse_action(state, text))
    return state


def listed(state: Position) -> list[str]:
    return [G.format_action(state, a) for a in G.legal_actions(state)]


def fmt(state: Position, text: str) -> str:
    return G.format_action(state, G.parse_action(state, text))


# -- perft ---------------------------------------------------------------------------------------

PERFT = [
    (START, [20, 400, 8902, 197281, 4865609]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     [48, 2039, 97862, 4085603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238, 674624]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467, 422333]),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", [6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379, 2103487]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890, 3894594]),
]
FAST = [(fen, d, counts[d - 1]) for fen, counts in PERFT for d in (1, 2, 3)]
SLOW = [(fen, d, counts[d - 1]) for fen, counts in PERFT for d in (4, 5) if d <= len(counts)]


@pytest.mark.parametrize(("fen", "depth", "expected"), FAST)
def test_perft_published_counts_to_depth_3(fen: str, depth: int, expected: int) -> None:
    p = read_fen(fen)
    assert core.perft(p.board, p.white, p.castling, p.ep, depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("fen", "depth", "expected"), SLOW)
def test_perft_published_counts_depth_4_and_5(fen: str, depth: int, expected: int) -> None:
    p = read_fen(fen)
    assert core.perft(p.board, p.white, p.castling, p.ep, depth) == expected


def test_perft_through_the_game_protocol_matches_the_core() -> None:
    fen = PERFT[1][0]
    assert perft(G, pos(fen), 2) == 2039


# Perft counts moves only (no claim-draw) and goes through automatic draws (dead position,
# repetition, 75-move rule); python-chess's legal_moves count the same way.
MOVES_ONLY = [
    ("6k1/5ppp/8/8/8/8/8/R6K w - - 99 100", 1, 16),  # claims would add 16
    ("6k1/5ppp/8/8/8/8/8/R6K w - - 99 100", 2, 120),
    ("8/8/4K1k1/8/8/8/8/8 b - - 0 1", 1, 5),  # K v K: dead, yet the moves are counted
    ("k7/8/8/8/8/8/8/Kr6 w - - 0 1", 2, 20),  # Kxb1 leaves K v K
    ("6k1/5ppp/8/8/8/8/8/R6K w - - 149 100", 2, 120),  # the 75-move rule is ignored
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 5, 133987),
]


def python_chess_perft(fen: str, depth: int) -> int:
    board = pychess.Board(fen)

    def count(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += count(d - 1)
            board.pop()
        return total

    return count(depth)


@pytest.mark.parametrize(("fen", "depth", "expected"), MOVES_ONLY)
def test_perft_counts_moves_only_through_automatic_draws(fen: str, depth: int,
                                                        expected: int) -> None:
    assert python_chess_perft(fen, depth) == expected
    assert perft(G, pos(fen), depth) == expected
    if depth <= 3:  # the generic walk, the reference of the core's own counter
        assert walk_perft(G, pos(fen), depth) == expected
        assert sum(n for _m, n in perft_divide(G, pos(fen), depth)) == expected


def test_perft_of_a_dead_position_by_the_generic_walk_to_depth_4() -> None:
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert walk_perft(G, pos(fen), 4) == python_chess_perft(fen, 4) == perft(G, pos(fen), 4)


def test_perft_stops_at_mate_and_after_a_resignation() -> None:
    mated = play(pos(), "f3", "e5", "g4", "Qh4")
    assert perft(G, mated, 1) == walk_perft(G, mated, 1) == 0
    resigned = G.apply(pos(), RESIGN)
    assert perft(G, resigned, 2) == walk_perft(G, resigned, 2) == 0


def test_cli_perft_counts_no_claims(tmp_path: Path) -> None:
    record = tmp_path / "c.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "chess", "--position", MOVES_ONLY[0][0], "-o", str(record)])
    assert runner.invoke(cli, ["perft", str(record), "2"]).output.strip() == "120"
    out = runner.invoke(cli, ["perft", str(record), "2", "--divide"]).output
    assert "claim" not in out and out.strip().endswith("total: 120")
    assert "Ra8#: 0" in out  # mate ends the count


# -- differential test against python-chess ----------------------------------------------------

TERMINATIONS = {
    "checkmate": pychess.Termination.CHECKMATE,
    "stalemate": pychess.Termination.STALEMATE,
    "dead position": pychess.Termination.INSUFFICIENT_MATERIAL,
    "75-move rule": pychess.Termination.SEVENTYFIVE_MOVES,
    "fivefold repetition": pychess.Termination.FIVEFOLD_REPETITION,
}


def uci(m: int) -> str:
    promo = core.PROMO_LETTERS[m >> 12].strip().lower()
    return core.SQUARE_NAMES[m & 63] + core.SQUARE_NAMES[(m >> 6) & 63] + promo


def agree(state: Position, board: pychess.Board, check_san: bool) -> None:
    """Same legal moves, same game end, same claims (and the same SAN when asked)."""
    ours = {uci(m) for m in state.moves}
    theirs = {m.uci() for m in board.legal_moves}
    assert ours == theirs, board.fen()
    outcome = G.outcome(state)
    peer = board.outcome(claim_draw=False)
    if peer is None:
        assert outcome is None, (board.fen(), outcome)
    else:
        assert outcome is not None, board.fen()
        assert TERMINATIONS[outcome.termination] == peer.termination, board.fen()
        assert outcome.result_tag() == peer.result()
    if outcome is None:
        claim = CLAIM in G.legal_actions(state)
        assert claim == (board.is_repetition(3) or board.halfmove_clock >= 100), board.fen()
    if check_san:
        for m in state.moves:
            assert G.format_action(state, m) == board.san(pychess.Move.from_uci(uci(m)))
    assert write_fen(state) == board.fen(en_passant="fen")


def test_python_chess_agrees_on_2000_random_positions() -> None:
    rng = random.Random(20261122)
    seen = 0
    game = 0
    while seen < 2000:
        state, board = G.initial_state(2), pychess.Board()
        while True:
            agree(state, board, check_san=seen % 5 == 0)
            seen += 1
            if G.outcome(state) is not None:
                break
            m = rng.choice(state.moves)
            state = G.apply(state, m)
            board.push(pychess.Move.from_uci(uci(m)))
        game += 1
    assert seen >= 2000 and game >= 3


def test_python_chess_agrees_on_every_position_of_the_famous_games() -> None:
    sessions = import_pgn((DATA / "famous.pgn").read_text())
    assert len(sessions) >= 5
    for session in sessions:
        board = pychess.Board()
        for index, state in enumerate(session.states):
            if index and session.steps[index - 1].text == RESIGN:
                continue  # a resignation is not a position
            if index:
                board.push_san(session.steps[index - 1].text)
            agree(state, board, check_san=True)


def test_python_chess_agrees_on_repetition_games() -> None:
    """Shuffling knights reaches threefold claims and the fivefold draw, as python-chess says."""
    rng = random.Random(7)
    for _ in range(6):
        state, board = G.initial_state(2), pychess.Board()
        while G.outcome(state) is None:
            agree(state, board, check_san=False)
            knights = [m for m in state.moves if state.board[m & 63] in "Nn"]
            m = rng.choice(knights or state.moves)
            state = G.apply(state, m)
            board.push(pychess.Move.from_uci(uci(m)))
        agree(state, board, check_san=False)


# -- move rules and edge cases ----------------------------------------------------------------


def test_en_passant_normal_case_and_only_on_the_next_ply() -> None:
    start = pos("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2")
    after = play(start, "d5", "exd6")
    assert after.board[core.SQUARE_NAMES.index("d5")] == "."
    assert after.board[core.SQUARE_NAMES.index("d6")] == "P"
    later = play(start, "d5", "Nf3", "Nf6")
    with pytest.raises(IllegalAction):
        G.parse_action(later, "exd6")


def test_en_passant_that_exposes_the_king_along_the_rank_is_illegal() -> None:
    state = pos("8/8/8/KPp4r/8/8/8/7k w - c6 0 1")
    with pytest.raises(IllegalAction):
        G.parse_action(state, "bxc6")
    assert sorted(listed(state)) == sorted(["Kb6", "Ka6", "Ka4", "b6"])


def test_queenside_castling_with_b1_attacked_is_legal() -> None:
    state = pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert {"O-O", "O-O-O"} <= set(listed(state))


def test_castling_while_in_check_is_illegal() -> None:
    with pytest.raises(IllegalAction, match="castle"):
        G.parse_action(pos("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1"), "O-O-O")


def test_castling_through_an_attacked_square_is_illegal() -> None:
    state = pos("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1")
    with pytest.raises(IllegalAction):
        G.parse_action(state, "O-O")
    assert fmt(state, "O-O-O") == "O-O-O"
    assert fmt(state, "0-0-0") == "O-O-O"
    assert fmt(state, "e1c1") == "O-O-O"


def test_castling_needs_empty_squares_and_unmoved_king_and_rook() -> None:
    with pytest.raises(IllegalAction):
        G.parse_action(pos("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1"), "O-O-O")
    moved = play(pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "Kd1", "Kd8", "Ke1", "Ke8")
    assert "O-O" not in listed(moved) and moved.castling == 0
    rook = play(pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "Rh2", "Kd8", "Rh1", "Ke8")
    assert "O-O" not in listed(rook) and "O-O-O" in listed(rook)


def test_castling_right_lost_when_the_rook_is_captured_on_its_square() -> None:
    after = play(pos("r3k2r/8/8/8/8/8/6B1/4K3 w kq - 0 1"), "Bxa8")
    assert write_fen(after).split()[2] == "k"


def test_promotion_with_capture_and_check_suffix() -> None:
    # The rules file's FEN (3r1k2/4P3/...) has Black's king on f8 in check from the e7 pawn
    # with White to move, which D6 rejects; the king stands on g8 here instead.
    with pytest.raises(GameError, match="not to move is in check"):
        read_fen("3r1k2/4P3/8/8/8/8/8/4K3 w - - 0 1")
    state = pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1")
    assert fmt(state, "exd8=Q") == "exd8=Q+"
    assert fmt(state, "exd8=N") == "exd8=N"


def test_promotion_must_name_the_piece() -> None:
    state = pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    assert fmt(state, "e7e8n") == "e8=N+"
    with pytest.raises(IllegalAction, match="promotion"):
        G.parse_action(state, "e8")
    assert {G.parse_action(state, t) for t in ("e7e8q", "e8Q", "e8=q", "e8=Q")} == {
        G.parse_action(state, "e8=Q")}
    with pytest.raises(IllegalAction, match="promotes"):
        G.parse_action(pos(), "e4=Q")


def test_disambiguation_by_rank_and_ambiguity() -> None:
    state = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1")
    assert fmt(state, "R1a3") == "R1a3"
    assert fmt(state, "R5a3") == "R5a3"
    with pytest.raises(AmbiguousAction) as info:
        G.parse_action(state, "Ra3")
    assert sorted(info.value.candidates) == ["R1a3", "R5a3"]


def test_disambiguation_by_file_and_square() -> None:
    state = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1")
    assert fmt(state, "Qa1b2") == "Qa1b2"
    for text in ("Q1b2", "Qab2"):
        with pytest.raises(AmbiguousAction):
            G.parse_action(state, text)
    knights = pos("4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1")
    with pytest.raises(AmbiguousAction):
        G.parse_action(knights, "Nf3")
    assert fmt(knights, "Ngf3") == "Ngf3"


def test_disambiguation_ignores_pinned_pieces() -> None:
    state = pos("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1")
    assert "Ne2" in listed(state) and "Nge2" not in listed(state)
    assert fmt(state, "Nge2") == "Ne2"


def test_first_letter_decides_piece_or_pawn() -> None:
    state = pos("4k3/8/8/8/8/1P6/8/1B2K3 w - - 0 1")
    assert fmt(state, "Bc2") == "Bc2"
    with pytest.raises(IllegalAction):
        G.parse_action(state, "bc2")
    capture = pos("4k3/8/8/8/2p5/1P6/4B3/4K3 w - - 0 1")
    assert fmt(capture, "bxc4") == "bxc4" and fmt(capture, "Bxc4") == "Bxc4"


def test_notation_input_forms_and_ignored_marks() -> None:
    start = pos()
    m = G.parse_action(start, "e4")
    for text in ("e2e4", "e2-e4", "E2E4", " e4 ", "e4!?", "e4+"):
        assert G.parse_action(start, text) == m
    assert fmt(start, "Ng1-f3") == "Nf3" and fmt(start, "g1f3") == "Nf3"
    with pytest.raises(MalformedAction):
        G.parse_action(start, "e9")
    with pytest.raises(MalformedAction):
        G.parse_action(start, "hello")


def test_fools_mate_is_written_with_hash_even_from_plus() -> None:
    state = play(pos(), "f3", "e5", "g4")
    assert fmt(state, "Qh4+") == "Qh4#"
    after = play(state, "Qh4")
    outcome = G.outcome(after)
    assert outcome is not None and outcome.result_tag() == "0-1"
    assert outcome.termination == "checkmate"
    with pytest.raises(GameOver):
        G.parse_action(after, "e4")


def test_stalemate_draws() -> None:
    state = play(pos("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1"), "Qf7")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.termination == "stalemate"
    assert outcome.result_tag() == "1/2-1/2"


def test_pins_and_check_evasions_are_enforced() -> None:
    pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    with pytest.raises(IllegalAction, match="king in check"):
        G.parse_action(pinned, "Nc3")
    check = pos("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1")
    assert set(listed(check)) == {"Kxe2", "Kd1", "Kf1"}


# -- draws: D1, D3, D4, the 75-move rule -------------------------------------------------------


@pytest.mark.parametrize(("fen", "dead"), [
    ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", True),
    ("5bk1/8/8/8/8/8/8/2B1K3 w - - 0 1", True),
    ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", True),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),
    ("4k3/8/8/8/8/8/8/1n2K1N1 w - - 0 1", False),
])
def test_d3_dead_positions_on_material_only(fen: str, dead: bool) -> None:
    outcome = G.outcome(pos(fen))
    assert (outcome is not None and outcome.termination == "dead position") == dead


def test_d3_capture_leaving_king_against_king_draws_at_once() -> None:
    after = play(pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"), "Kxe2")
    assert G.outcome(after).termination == "dead position"


def test_d3_locked_pawns_are_not_detected() -> None:
    assert G.outcome(pos("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1")) is None


CYCLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def test_fivefold_repetition_draws_automatically_after_16_plies() -> None:
    state = pos()
    for ply, text in enumerate(CYCLE * 4, start=1):
        assert G.outcome(state) is None
        state = play(state, text)
        if ply < 16:
            assert G.outcome(state) is None
    assert G.outcome(state).termination == "fivefold repetition"


def test_threefold_claim_timing() -> None:
    after8 = play(pos(), *CYCLE * 2)
    assert G.format_action(after8, G.parse_action(after8, "claim-draw")) == "claim-draw"
    assert "claim-draw" in listed(after8)
    after4 = play(pos(), *CYCLE)
    with pytest.raises(IllegalAction, match="D1"):
        G.parse_action(after4, "claim-draw")


def test_d1_claim_with_a_move() -> None:
    state = play(pos(), "Nf3", "Nf6", "Ng1", "Ng8")
    with pytest.raises(IllegalAction):
        G.parse_action(state, "claim-draw")
    state = play(state, "Nf3", "Nf6", "Ng1")
    action = G.parse_action(state, "claim-draw Ng8")
    assert G.format_action(state, action) == "claim-draw Ng8"
    assert "claim-draw Ng8" in listed(state)
    outcome = G.outcome(G.apply(state, action))
    assert outcome.result_tag() == "1/2-1/2" and outcome.termination == "threefold repetition"


def test_seventy_five_move_rule_unless_mate() -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R6K w - - 149 100"
    drawn = play(pos(fen), "Ra2")
    assert G.outcome(drawn).termination == "75-move rule"
    mated = play(pos(fen), "Ra8#")
    assert G.outcome(mated).result_tag() == "1-0"


def test_fifty_move_claim() -> None:
    state = pos("6k1/5ppp/8/8/8/8/8/R6K w - - 99 100")
    with pytest.raises(IllegalAction):
        G.parse_action(state, "claim-draw")
    claim = G.parse_action(state, "claim-draw Kg1")
    assert G.outcome(G.apply(state, claim)).termination == "50-move rule"
    assert G.parse_action(pos("6k1/5ppp/8/8/8/8/8/R6K w - - 100 100"), "claim-draw") == CLAIM


def test_invalid_claim_with_a_move_is_rejected() -> None:
    with pytest.raises(IllegalAction):
        G.parse_action(pos(), "claim-draw e4")


def test_d4_en_passant_counts_only_when_the_capture_is_legal() -> None:
    # After 1. e4 the e3 square is written in FEN but no capture is possible: same key as
    # the position reached by a transposition without it.
    a = play(pos(), "e4")
    assert write_fen(a).split()[3] == "e3"  # D5: written after every double step
    assert a.key[3] == -1
    b = play(pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"))
    assert b.key[3] == core.SQUARE_NAMES.index("e3")


def test_resign_on_own_turn_loses() -> None:
    state = play(pos(), "e4")
    after = G.apply(state, G.parse_action(state, "resign"))
    outcome = G.outcome(after)
    assert outcome.result_tag() == "1-0" and outcome.termination == "resignation"
    assert RESIGN not in G.legal_actions(state)


# -- FEN: D5, D6 --------------------------------------------------------------------------------


def test_fen_round_trip_and_optional_clocks() -> None:
    for fen, _counts in PERFT:
        assert write_fen(read_fen(fen)) == fen
    assert write_fen(read_fen("4k3/8/8/8/8/8/8/4K3 w - -")) == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_d5_fen_input_accepts_en_passant_square_without_a_capture() -> None:
    state = read_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert state.ep == core.SQUARE_NAMES.index("e3")


@pytest.mark.parametrize(("fen", "why"), [
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", "exactly one king"),
    ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "exactly one king"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling"),
    ("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1", "castling"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", "rank 6"),
    ("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", "pawn that just advanced"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "clocks"),
    ("4k3/8/8/8/8/8/8/4K3 w", "6 fields"),
    ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "unknown symbol"),
])
def test_d6_fen_rejections(fen: str, why: str) -> None:
    with pytest.raises(GameError, match=why):
        read_fen(fen)


# -- records, CLI, PGN ---------------------------------------------------------------------------


def test_record_from_a_fen_with_black_to_move_starts_with_black() -> None:
    session = Session.start("chess", position="4k3/8/8/8/8/8/8/R3K3 b Q - 0 1")
    session.play(["Kd7"])
    assert session.steps[0].seat == 1
    text = session.text()
    assert '[Position "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"]' in text
    assert "1. black: Kd7" in text


def test_record_fen_tag_is_read_as_position() -> None:
    text = ('[Game "chess"]\n[Players "white; black"]\n[SetUp "1"]\n'
            '[FEN "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"]\n[Result "*"]\n\n1. black: Kd7\n')
    session = load_one(text)
    assert session.ply == 1 and write_fen(session.states[0]).endswith("b Q - 0 1")
    assert '[Position "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"]' in session.text()


def test_cli_start_rejects_a_fen_with_the_side_not_to_move_in_check() -> None:
    result = CliRunner().invoke(cli, ["start", "chess", "--position",
                                      "4k3/8/8/8/8/8/8/4K2r b - - 0 1"])
    assert result.exit_code == 1
    assert "not to move is in check" in result.output
    assert "Traceback" not in result.output


def test_cli_show_draws_board_side_castling(tmp_path: Path) -> None:
    runner = CliRunner()
    record = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", "chess", "-o", str(record)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(record), "e4", "c5"]).exit_code == 0
    shown = runner.invoke(cli, ["show", str(record)]).output
    assert " 8  r n b q k b n r  8" in shown
    assert "to move: white (White)" in shown and "castling: KQkq" in shown
    assert "en passant: c6" in shown
    moves = runner.invoke(cli, ["moves", str(record)]).output.split()
    assert "Nf3" in moves and len(moves) == 30
    bad = runner.invoke(cli, ["move", str(record), "Ke3"])
    assert bad.exit_code == 1 and "illegal move 'Ke3'" in bad.output


def test_pgn_import_of_the_famous_games_validates(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "famous.gtn"
    result = runner.invoke(cli, ["import", str(DATA / "famous.pgn"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    verdicts = check_text(out.read_text(), str(out))
    assert len(verdicts) == 7 and all(v.ok for v in verdicts)
    results = [load_one_record(out.read_text(), i) for i in range(7)]
    assert results[:5] == ["1-0", "1-0", "1-0", "0-1", "1-0"]
    assert results[5] == "1-0"  # Deep Blue - Kasparov: Black resigned, written as 'resign'


def load_one_record(text: str, index: int) -> str:
    from gametool.records import read_text

    return Session.load(read_text(text)[index]).record.get("Result") or ""


def test_pgn_export_round_trips(tmp_path: Path) -> None:
    for session in import_pgn((DATA / "famous.pgn").read_text()):
        text = export_pgn(session)
        again = import_pgn(text)[0]
        assert again.states == session.states
    record = tmp_path / "r.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "chess", "--position", "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1",
                        "-o", str(record)])
    runner.invoke(cli, ["move", str(record), "Kd7", "O-O-O+"])
    pgn = runner.invoke(cli, ["export", str(record), "--pgn"]).output
    assert '[FEN "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"]' in pgn and '[SetUp "1"]' in pgn
    assert "1... Kd7 2. O-O-O+ *" in pgn


def test_chess_samples_validate_and_cover_the_endings() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 3
    endings = set()
    for path in files:
        verdicts = check_text(path.read_text(), str(path))
        assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        endings.add(load_one(path.read_text()).game.outcome(load_one(path.read_text()).state)
                    .termination)
    assert {"checkmate", "resignation"} <= endings
    assert endings & {"stalemate", "threefold repetition", "50-move rule"}


def test_cli_perft_of_kiwipete(tmp_path: Path) -> None:
    record = tmp_path / "k.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "chess", "--position", PERFT[1][0], "-o", str(record)])
    assert runner.invoke(cli, ["perft", str(record), "2"]).output.strip() == "2039"


def test_show_after_mate_names_no_seat_to_move(tmp_path: Path) -> None:
    record = tmp_path / "m.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "chess", "--players", "ann,bob", "-o", str(record)])
    runner.invoke(cli, ["move", str(record), "f3", "e5", "g4", "Qh4"])
    out = runner.invoke(cli, ["show", str(record)]).output
    assert "to move" not in out and "in check" not in out
    assert "game over: ann (White) is checkmated" in out
    stale = tmp_path / "s.gtn"
    runner.invoke(cli, ["start", "chess", "--position", "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1", "-o",
                        str(stale)])
    runner.invoke(cli, ["move", str(stale), "Qf7"])
    assert "game over: stalemate" in runner.invoke(cli, ["show", str(stale)]).output


# -- strict SAN in records, lenient import -------------------------------------------------------

CASTLES = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"


@pytest.mark.parametrize("text", ["Kg1", "Kc1", "Kxg1", "Kxc1", "Kg1+"])
def test_castling_is_not_written_as_a_king_move(text: str) -> None:
    with pytest.raises(IllegalAction, match="castling is written"):
        G.parse_action(pos(CASTLES), text)
    board = pychess.Board(CASTLES)
    with pytest.raises(ValueError):
        board.parse_san(text)  # python-chess refuses it too


@pytest.mark.parametrize(("fen", "text"), [(START, "Nxf3"), (START, "e2xe4"), (START, "Ng1xf3"),
                                           (CASTLES, "Kxf1"), (CASTLES, "Rxa8")])
def test_an_x_with_nothing_taken_is_illegal(fen: str, text: str) -> None:
    with pytest.raises(IllegalAction, match="nothing is taken"):
        G.parse_action(pos(fen), text)


def test_strict_reading_keeps_every_legal_spelling() -> None:
    assert fmt(pos(CASTLES), "O-O") == fmt(pos(CASTLES), "e1g1") == "O-O"
    assert fmt(pos(CASTLES), "Ke1g1") == "O-O"  # long form: castling as the king's move
    ep = pos("rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3")
    assert fmt(ep, "dxe6") == fmt(ep, "d5xe6") == fmt(ep, "de6") == "dxe6"  # en passant takes
    assert fmt(pos(), "Nf3") == "Nf3"


def test_a_record_with_lax_san_is_rejected_and_import_reads_it(tmp_path: Path) -> None:
    text = '[Game "chess"]\n[Players "a; b"]\n\n1. a: Nxf3\n'
    (verdict,) = check_text(text, "lax.gtn")
    assert not verdict.ok and "nothing is taken" in str(verdict.errors[0])
    pgn = '[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"]\n\n1. Kg1 Kd7 2. Nxf3 *\n'
    session = import_pgn('[Event "x"]\n\n1. Nxf3 e5 *\n')[0]
    assert [step.text for step in session.steps] == ["Nf3", "e5"]  # canonical SAN
    castled = import_pgn(pgn.replace(" 2. Nxf3", ""))[0]
    assert castled.steps[0].text == "O-O"


TRICKY = [
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",  # en passant would open the rank to the king
    "8/8/3k4/2pP4/8/8/8/4K3 w - c6 0 2",  # en passant takes the checking pawn
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # four castlings
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1",  # kingside crosses an attacked square
    "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1",  # b1 attacked: queenside is still legal
    "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",  # promotion by push and by capture
    "7k/5Q2/8/8/8/8/8/K7 b - - 0 1",  # stalemate
    "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1",  # in check: block, capture or step
    "4k3/8/4r3/8/8/8/4B3/4K3 w - - 0 1",  # a pinned bishop has no move
    "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",  # a pinned rook moves along the pin
    "k7/8/8/8/8/8/1q6/K7 w - - 0 1",  # the king takes the queen or nothing
]


def test_moves_to_a_square_and_any_move_agree_with_the_full_list() -> None:
    """The targeted generator (reading and writing one move) and the early-exit test (mate and
    stalemate) give exactly what the full legal move list gives, in chess and with horses."""
    from gametool.players.auto import random_game

    boards = [read_fen(f) for f in TRICKY]
    rng = random.Random(7)
    for _ in range(8):
        state = G.initial_state(2)
        while G.outcome(state) is None:
            boards.append(state)
            state = G.apply(state, rng.choice(state.moves))
        boards.append(state)
    for seed in range(4):
        session = random_game("super-horse-chess", str(seed), max_plies=200)
        boards.extend(s for s in session.states if isinstance(s, Position))
    horses = 0
    for pos in boards:
        args = (pos.board, pos.white, pos.castling, pos.ep)
        every = core.legal_moves(*args)
        assert core.has_legal_move(*args) == bool(every), write_fen(pos)
        for target in range(64):
            assert sorted(core.moves_to(*args, target)) == \
                sorted(m for m in every if (m >> 6) & 63 == target), (write_fen(pos), target)
        horses += any(c in core.HORSES for c in pos.board)
    assert len(boards) > 1500 and horses > 200


def test_every_legal_move_is_read_back_from_python_chess_san_twice() -> None:
    """Each legal move, written in SAN by python-chess, is read as that move, and written back
    the same, in random games; then again, when positions met before answer from what they
    share (a record read again after import)."""
    from gametool.games.chess.position import forget_shared

    rng = random.Random(20261126)
    forget_shared()
    games_played = []
    for _ in range(4):
        state, board = G.initial_state(2), pychess.Board()
        line = []
        while G.outcome(state) is None and len(line) < 120:
            m = rng.choice(state.moves)
            line.append(m)
            state = G.apply(state, m)
            board.push(pychess.Move.from_uci(uci(m)))
        games_played.append(line)
    for _round in range(2):
        for line in games_played:
            state, board = G.initial_state(2), pychess.Board()
            for played in line:
                for m in state.moves:
                    text = board.san(pychess.Move.from_uci(uci(m)))
                    assert G.parse_action(state, text) == m, (board.fen(), text)
                    assert G.format_action(state, m) == text, board.fen()
                state = G.apply(state, played)
                board.push(pychess.Move.from_uci(uci(played)))
