"""Super Horse Chess: every example, edge case, decision and option of the rules file, golden
perft counts of the start, and a reference move generator written here from the rules text."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.errors import GameError, IllegalAction
from gametool.games.chess import SuperHorseChess
from gametool.games.chess.horse import HMOVE, PLACE, REMOVE
from gametool.games.chess.position import Position, write_fen
from gametool.players.auto import random_game
from gametool.records import Session, check_text, load_one

G = SuperHorseChess()
OWNED = SuperHorseChess({"horses": "owned"})
OPTIONAL = SuperHorseChess({"horse_action": "optional"})
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
SAMPLES = Path(__file__).parent.parent.parent / "sample_games" / "super-horse-chess"
SQ = {f"{'abcdefgh'[s & 7]}{(s >> 3) + 1}": s for s in range(64)}


def pos(fen: str = START, game: SuperHorseChess = G) -> Position:
    return game.decode_position(fen, 2)


def play(state: Position, *texts: str, game: SuperHorseChess = G) -> Position:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def fmt(state: Position, text: str, game: SuperHorseChess = G) -> str:
    return game.format_action(state, game.parse_action(state, text))


def illegal(state: Position, text: str, game: SuperHorseChess = G) -> None:
    with pytest.raises(IllegalAction):
        game.parse_action(state, text)


# -- a reference generator, straight from the rules text ----------------------------------------

WHITE, BLACK = "PNBRQK", "pnbrqk"


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def ref_attacked(board: list[str], sq: int, by_white: bool) -> bool:
    """Walk out from ``sq``: any enemy piece that reaches it, horses blocking lines."""
    f0, r0 = sq & 7, sq >> 3
    own = WHITE if by_white else BLACK
    for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if _on(f0 + df, r0 + dr) and board[(r0 + dr) * 8 + f0 + df] == own[1]:
            return True
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (df or dr) and _on(f0 + df, r0 + dr) and board[(r0 + dr) * 8 + f0 + df] == own[5]:
                return True
    pawn_dr = -1 if by_white else 1
    for df in (-1, 1):
        if _on(f0 + df, r0 + pawn_dr) and board[(r0 + pawn_dr) * 8 + f0 + df] == own[0]:
            return True
    for (df, dr), kinds in [(d, own[3] + own[4]) for d in ((1, 0), (-1, 0), (0, 1), (0, -1))] + \
            [(d, own[2] + own[4]) for d in ((1, 1), (1, -1), (-1, 1), (-1, -1))]:
        f, r = f0 + df, r0 + dr
        while _on(f, r):
            c = board[r * 8 + f]
            if c != ".":
                if c in kinds:
                    return True
                break
            f, r = f + df, r + dr
    return False


def ref_chess_moves(p: Position) -> list[tuple[int, int, int, list[str]]]:
    """(from, to, promotion, board after) of every legal chess move, horses as obstacles."""
    board = list(p.board)
    own, enemy = (WHITE, BLACK) if p.white else (BLACK, WHITE)
    out = []

    def add(f: int, t: int, promo: int = 0, extra: tuple[tuple[int, str], ...] = ()) -> None:
        b = board[:]
        piece = b[f]
        if promo:
            piece = " NBRQ"[promo] if p.white else " nbrq"[promo]
        b[f], b[t] = ".", piece
        for s, c in extra:
            b[s] = c
        if not ref_attacked(b, b.index(own[5]), not p.white):
            out.append((f, t, promo, b))

    for s, c in enumerate(board):
        if c not in own:
            continue
        f0, r0 = s & 7, s >> 3
        kind = c.upper()
        if kind in "NK":
            deltas = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)) \
                if kind == "N" else tuple((a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b)
            for df, dr in deltas:
                if _on(f0 + df, r0 + dr):
                    t = (r0 + dr) * 8 + f0 + df
                    if board[t] == "." or board[t] in enemy:
                        add(s, t)
        elif kind in "BRQ":
            dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)] * (kind in "RQ") + \
                [(1, 1), (1, -1), (-1, 1), (-1, -1)] * (kind in "BQ")
            for df, dr in dirs:
                f, r = f0 + df, r0 + dr
                while _on(f, r):
                    t = r * 8 + f
                    if board[t] != ".":
                        if board[t] in enemy:
                            add(s, t)
                        break
                    add(s, t)
                    f, r = f + df, r + dr
        else:
            dr = 1 if p.white else -1
            last = 7 if p.white else 0
            promos = (4, 3, 2, 1) if r0 + dr == last else (0,)
            t = s + 8 * dr
            if board[t] == ".":
                for pr in promos:
                    add(s, t, pr)
                if r0 == (1 if p.white else 6) and board[t + 8 * dr] == ".":
                    add(s, t + 8 * dr)
            for df in (-1, 1):
                if not _on(f0 + df, r0 + dr):
                    continue
                t = s + 8 * dr + df
                if board[t] in enemy:
                    for pr in promos:
                        add(s, t, pr)
                elif t == p.ep and board[t] == ".":
                    add(s, t, 0, ((s + df, "."),))
    if not ref_attacked(board, board.index(own[5]), not p.white):
        rank = 0 if p.white else 56
        for bit, rook, between, passing in ((1, 7, (5, 6), (5, 6)), (2, 0, (1, 2, 3), (3, 2))):
            if not p.castling & (bit if p.white else bit * 4):
                continue
            if all(board[rank + x] == "." for x in between) and not any(
                    ref_attacked(board, rank + x, not p.white) for x in passing):
                king_to = rank + (6 if rook == 7 else 2)
                rook_to = rank + (5 if rook == 7 else 3)
                add(rank + 4, king_to, 0, ((rank + rook, "."), (rook_to, own[3])))
    return out


def ref_turns(p: Position, owned: bool = False, required: bool = True) -> set[tuple]:
    """Every legal turn as (from, to, promotion, horse action), from the rules text alone."""
    turns = set()
    mine = ("H" if p.white else "h") if owned else "*"
    own = WHITE if p.white else BLACK
    fwd, last = (8, 7) if p.white else (-8, 0)
    for f, t, promo, b in ref_chess_moves(p):
        horses = [s for s in range(64) if b[s] == mine]
        actions = []
        candidates: list[tuple[tuple, list[str]]] = []
        if len(horses) < 6:
            for s in range(64):
                if b[s] == ".":
                    after = b[:]
                    after[s] = mine
                    candidates.append(((PLACE, s), after))
        if horses:
            for group in combinations(horses, 1 if len(horses) <= 3 else 2):
                after = b[:]
                for s in group:
                    after[s] = "."
                candidates.append(((REMOVE, frozenset(group)), after))
        for s in horses:
            steps = [s + fwd] if 0 <= s + fwd < 64 and b[s + fwd] == "." else []
            if 0 <= s + 2 * fwd < 64 and b[s + fwd] != "." and b[s + 2 * fwd] == ".":
                steps.append(s + 2 * fwd)
            steps += [s + d for d in (-1, 1) if (s + d) >> 3 == s >> 3 and 0 <= s + d < 64
                      and b[s + d] == "."]
            for to in steps:
                for pr in ((4, 3, 2, 1) if to >> 3 == last else (0,)):
                    after = b[:]
                    after[s] = "."
                    after[to] = (" NBRQ"[pr] if p.white else " nbrq"[pr]) if pr else mine
                    candidates.append(((HMOVE, s, to, pr), after))
        for action, after in candidates:
            if not ref_attacked(after, after.index(own[5]), not p.white):
                actions.append(action)
        if not actions or not required:
            turns.add((f, t, promo, None))
        turns.update((f, t, promo, a) for a in actions)
    return turns


def engine_turns(game: SuperHorseChess, p: Position) -> set[tuple]:
    out = set()
    for m, h in game.turns(p):
        if h is not None and h[0] == REMOVE:
            h = (REMOVE, frozenset(x for x in h[1:] if x >= 0))
        out.add((m & 63, (m >> 6) & 63, m >> 12, h))
    return out


def sample_positions(game_id: str, options: dict[str, str] | None, seeds: int) -> list:
    positions = []
    for seed in range(seeds):
        session = random_game(game_id, f"ref-{seed}", options=options, max_plies=120)
        positions += session.states[:: 7]
    return [p for p in positions if p.end is None]


# White is in check from b5; only Rc4 blocks it, and then the d2 horse shields the king from
# the b2 queen: it may step sideways along that line, but not forward.
IN_CHECK = "4k3/8/8/1b6/7R/8/1q1*K3/8 w - - 0 1"
# bxc6 en passant empties c5, so the c3 horse may jump the c4 pawn onto it.
EN_PASSANT_JUMP = "4k3/8/8/1Pp5/2P5/2*5/8/4K3 w - c6 0 1"
# Kd1 puts the king behind the d4 horse, on the d8 rook's file: nothing shielded it before.
KING_STEPS_BEHIND_A_HORSE = "3rk3/8/8/8/3*4/8/8/4K3 w - - 0 1"


def test_reference_agrees_on_the_start_and_horse_positions() -> None:
    fens = [START, "rnbqkbnr/pppppppp/8/8/8/4*3/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "k7/3*4/8/8/8/8/8/K7 w - - 0 1", "k7/3*4/8/8/8/8/8/K7 b - - 0 1",
            "4k3/8/8/8/4r3/4*3/8/4K3 w - - 0 1", "k7/8/8/8/8/1*1*1*1*/8/K7 w - - 0 1",
            "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "4k3/8/8/8/8/8/8/4K*1R w K - 0 1",
            IN_CHECK, EN_PASSANT_JUMP, KING_STEPS_BEHIND_A_HORSE,
            "2rBkbnr/pp2qpp1/8/nPp1pb2/Q1P1pP1P/B1*1*1RB/P2PP2P/RN3K2 w k c6 0 22"]
    for fen in fens:
        p = pos(fen)
        assert engine_turns(G, p) == ref_turns(p), fen


def test_reference_agrees_on_positions_from_random_play() -> None:
    for p in sample_positions("super-horse-chess", None, 3):
        assert engine_turns(G, p) == ref_turns(p), write_fen(p)
    for p in sample_positions("super-horse-chess", {"horses": "owned"}, 2):
        assert engine_turns(OWNED, p) == ref_turns(p, owned=True), write_fen(p)
    for p in sample_positions("super-horse-chess", {"horse_action": "optional"}, 1):
        assert engine_turns(OPTIONAL, p) == ref_turns(p, required=False), write_fen(p)


def shc_perft(game: SuperHorseChess, p: Position, depth: int) -> int:
    turns = game.turns(p)
    if depth == 1:
        return len(turns)
    return sum(shc_perft(game, game.apply(p, t), depth - 1) for t in turns)


def test_perft_golden_values_of_the_start() -> None:
    assert shc_perft(G, pos(), 1) == 640
    assert shc_perft(G, pos(), 2) == 420360
    assert shc_perft(OPTIONAL, pos(), 1) == 660


def test_perft_counts_turns_only_never_claims() -> None:
    """K v K with the clock at 99: 5 king moves x 62 vacant squares; the claims are no turns."""
    from gametool.core.engine import perft, walk_perft

    kk = pos("4k3/8/8/8/8/8/8/4K3 w - - 99 60")
    assert len(G.legal_actions(kk)) == 620  # the turns, and a claim with each of them
    assert perft(G, kk, 1) == walk_perft(G, kk, 1) == 310
    assert perft(G, kk, 2) == walk_perft(G, kk, 2) == sum(
        len(G.turns(G.apply(kk, t))) for t in G.turns(kk))


def test_perft_goes_through_the_75_move_rule_and_max_plies() -> None:
    from gametool.core.engine import perft, walk_perft

    kk = pos("4k3/8/8/8/8/8/8/4K3 w - - 149 60")
    after = G.apply(kk, G.turns(kk)[0])
    assert G.is_over(after)  # the 75-move rule ends the game, perft goes on
    assert perft(G, kk, 2) == walk_perft(G, kk, 2) == sum(
        len(G.turns(G.apply(kk, t))) for t in G.turns(kk))
    short = SuperHorseChess({"max_plies": "1"})
    assert perft(short, pos(), 2) == 420360


@pytest.mark.slow
def test_perft_2_of_the_start_by_the_reference() -> None:
    start = pos()
    total = 0
    for m, h in G.turns(start):
        total += len(ref_turns(G.apply(start, (m, h))))
    assert total == 420360


# -- the rules file's examples and edge cases ---------------------------------------------------


def test_turn_counts_from_the_start() -> None:
    assert len(G.legal_actions(pos())) == 640
    assert len(OPTIONAL.legal_actions(pos(game=OPTIONAL))) == 660


def test_horse_on_e3_blocks_two_pawn_moves() -> None:
    p = pos("rnbqkbnr/pppppppp/8/8/8/4*3/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert len(p.moves) == 18
    assert len(G.legal_actions(p)) == 627
    illegal(p, "e3 @a3")
    illegal(p, "e4 @a3")


def test_placement_examples_d2_d3() -> None:
    assert fmt(pos(), "e4 @d5") == "e4 @d5"
    illegal(pos(), "e4 @e4")
    illegal(pos(), "e4")
    assert fmt(pos(), "Nf3 @g1") == "Nf3 @g1"  # D3: the vacated square


def test_direction_depends_on_the_actor_d6() -> None:
    white = pos("k7/3*4/8/8/8/8/8/K7 w - - 0 1")
    assert fmt(white, "Kb1 Hd7-d8=Q+") == "Kb1 Hd7-d8=Q+"
    illegal(white, "Kb1 Hd7-d6")
    black = pos("k7/3*4/8/8/8/8/8/K7 b - - 0 1")
    assert fmt(black, "Kb8 Hd7-d6") == "Kb8 Hd7-d6"
    illegal(black, "Kb8 Hd7-d8")


def test_promotion_is_compulsory_and_written_with_equals_d7() -> None:
    white = pos("k7/3*4/8/8/8/8/8/K7 w - - 0 1")
    illegal(white, "Kb1 Hd7-d8")
    assert fmt(white, "Kb1 Hd7-d8n") == "Kb1 Hd7-d8=N"
    after = play(white, "Kb1 Hd7-d8=R")
    assert after.board[SQ["d8"]] == "R" and after.board.count("*") == 0
    assert after.halfmove == 1  # D7: promotion does not reset the clock


def test_placement_never_promotes_then_a_sideways_step_does() -> None:
    p = play(pos("k7/8/8/8/8/8/8/K7 w - - 0 1"), "Kb1 @e8")
    assert p.board[SQ["e8"]] == "*"
    p = play(p, "Kb8 @a3")
    assert fmt(p, "Ka1 He8-f8=R") == "Ka1 He8-f8=R+" or fmt(p, "Ka1 He8-f8=R").startswith(
        "Ka1 He8-f8=R")
    after = play(p, "Ka1 He8-f8=R")
    assert after.board[SQ["f8"]] == "R"


def test_jump_promotes_on_move_one() -> None:
    p = play(pos(), "Nh3 @g3")
    assert fmt(p, "Nf6 Hg3-g1=Q") == "Nf6 Hg3-g1=Q"
    after = play(p, "Nf6 Hg3-g1=Q")
    assert after.board[SQ["g1"]] == "q"


def test_jump_conditions_d5() -> None:
    p = pos("k7/8/8/3p4/3*4/8/8/K7 w - - 0 1")
    assert fmt(p, "Kb1 Hd4-d6") == "Kb1 Hd4-d6"
    illegal(p, "Kb1 Hd4-d5")
    empty = pos("k7/8/8/8/3*4/8/8/K7 w - - 0 1")
    illegal(empty, "Kb1 Hd4-d6")
    assert fmt(empty, "Kb1 Hd4-d5") == "Kb1 Hd4-d5"
    blocked = pos("k7/8/3n4/3p4/3*4/8/8/K7 w - - 0 1")
    forward = [h for m, h in G.turns(blocked) if h and h[0] == HMOVE and h[2] > h[1] + 1]
    assert forward == []
    illegal(blocked, "Kb1 Hd4-d6")
    illegal(empty, "Kb1 Hd4-c5")  # no diagonal move
    illegal(empty, "Kb1 Hd4-d3")  # no backward move


def test_removal_counts_d4() -> None:
    four = pos("k7/8/8/8/8/1*1*1*1*/8/K7 w - - 0 1")
    illegal(four, "Kb1 -b3")
    assert fmt(four, "Kb1 -b3 -d3") == "Kb1 -b3 -d3"
    assert fmt(four, "Kb1 -d3 -b3") == "Kb1 -b3 -d3"
    three = pos("k7/8/8/8/8/1*1*1*2/8/K7 w - - 0 1")
    assert fmt(three, "Kb1 -d3") == "Kb1 -d3"
    illegal(three, "Kb1 -b3 -d3")
    none = pos("k7/8/8/8/8/8/8/K7 w - - 0 1")
    illegal(none, "Kb1 -b3")
    six = pos("k7/8/8/8/8/**1*1***/8/K7 w - - 0 1")
    illegal(six, "Kb1 @h8")
    assert not [h for m, h in G.turns(six) if h and h[0] == PLACE]


def test_castling_blocked_by_horses_d8() -> None:
    illegal(pos("4k3/8/8/8/8/8/8/4K*1R w K - 0 1"), "O-O @a3")
    illegal(pos("4k3/8/8/8/8/8/8/R*2K3 w Q - 0 1"), "O-O-O @a3")


def test_pawn_steps_blocked_by_a_horse_d8() -> None:
    p = pos("4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1")
    illegal(p, "e3 @a3")
    illegal(p, "e4 @a3")
    double = pos("4k3/8/8/8/4*3/8/4P3/4K3 w - - 0 1")
    illegal(double, "e4 @a3")
    assert fmt(double, "e3 @a3") == "e3 @a3"


def test_en_passant_needs_the_passed_square_vacant_d8() -> None:
    start = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    illegal(play(start, "d5 @d6"), "exd6 @a3")
    after = play(start, "d5 @a3")
    assert fmt(after, "exd6 -a3") == "exd6 -a3"


def test_king_safety_after_the_horse_action_d9() -> None:
    p = pos("4k3/8/8/8/4r3/4*3/8/4K3 w - - 0 1")
    illegal(p, "Ke2 -e3")
    illegal(p, "Ke2 He3-d3")
    kinds = {h[0] for m, h in G.turns(p) if (m >> 6) & 63 == SQ["e2"]}
    assert kinds == {PLACE}
    for text in ("Kd1 -e3", "Kd1 He3-d3", "Kd1 He3-f3", "Kd1 He3-e5"):
        assert fmt(p, text) == text


def test_a_chess_move_into_check_is_illegal_whatever_the_horse_does_d9() -> None:
    illegal(pos("4k3/8/8/8/4r3/8/8/3K4 w - - 0 1"), "Ke1 @e2")


def test_discovered_check_by_a_horse_d11() -> None:
    p = pos("4k3/8/8/8/4*3/8/8/K3R3 w - - 0 1")
    assert fmt(p, "Ka2 He4-d4") == "Ka2 He4-d4+"
    assert fmt(p, "Ka2 -e4") == "Ka2 -e4+"


def test_mate_example_and_a_blocking_placement_d10_d11_d15() -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    assert fmt(pos(fen), "Ra8 @a3") == "Ra8 @a3#"
    mated = play(pos(fen), "Ra8 @a3")
    outcome = G.outcome(mated)
    assert outcome.result_tag() == "1-0" and outcome.termination == "checkmate"
    blocked = play(pos(fen), "Ra8 @d8")
    assert G.outcome(blocked) is None and fmt(pos(fen), "Ra8 @d8") == "Ra8 @d8"
    assert fmt(pos(fen), "Ra8+ @a3") == "Ra8 @a3#"  # a suffix after the chess move is read


def test_stalemate_judged_on_chess_moves_alone_d10() -> None:
    p = play(pos("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1"), "Qf7 @a1")
    outcome = G.outcome(p)
    assert outcome is not None and outcome.termination == "stalemate"


def test_knights_jump_horses_but_never_land_on_them() -> None:
    p = pos("4k3/8/8/8/8/8/***5/1N2K3 w - - 0 1")
    assert fmt(p, "Na3 @h3") == "Na3 @h3"
    illegal(pos("4k3/8/8/8/8/*7/8/1N2K3 w - - 0 1"), "Na3 @h3")
    illegal(pos("4k3/8/8/8/8/8/3*4/4K2R w - - 0 1"), "Rh1xd2 @a3")


def test_no_piece_captures_a_horse() -> None:
    p = pos("4k3/8/8/8/8/8/3*4/3RK3 w - - 0 1")
    assert not [m for m in p.moves if (m >> 6) & 63 == SQ["d2"]]
    illegal(pos("4k3/8/8/8/8/3*4/4P3/4K3 w - - 0 1"), "exd3 @a3")


def test_no_material_draw_d13() -> None:
    assert G.outcome(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) is None


def test_clock_counts_horse_turns_and_repetition_includes_horses_d12() -> None:
    p = play(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "Kd2 @d5")
    assert p.halfmove == 1
    promoted = play(pos("k7/3*4/8/8/8/8/8/K7 w - - 3 1"), "Kb1 Hd7-d8=Q")
    assert promoted.halfmove == 4
    a = play(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "Kd2 @d5", "Kd7 -d5", "Ke1 @a4",
             "Ke8 -a4")
    b = play(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "Kd2 @d5", "Kd7 -d5", "Ke1 @a4",
             "Ke8 Ha4-b4")
    assert a.board != b.board and a.key != b.key
    assert a.repetitions() == 2  # the start, and now
    assert b.repetitions() == 1


def test_threefold_claim_and_fivefold_with_horses() -> None:
    cycle = ["Kd2 @d5", "Kd7 -d5", "Ke1 @a1", "Ke8 -a1"]
    p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    p = play(p, *cycle * 2)
    assert fmt(p, "claim-draw") == "claim-draw"
    assert G.outcome(G.apply(p, G.parse_action(p, "claim-draw"))).termination == \
        "threefold repetition"
    p = play(p, *cycle * 2)
    assert G.outcome(p).termination == "fivefold repetition"


def test_claim_with_a_whole_turn() -> None:
    cycle = ["Kd2 @d5", "Kd7 -d5", "Ke1 @a1", "Ke8 -a1"]
    p = play(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), *cycle, *cycle[:3])
    illegal(p, "claim-draw")
    action = G.parse_action(p, "claim-draw Ke8 -a1")
    assert G.format_action(p, action) == "claim-draw Ke8 -a1"
    assert "claim-draw Ke8 -a1" in [G.format_action(p, a) for a in G.legal_actions(p)]


def test_seventy_five_move_rule_and_max_plies_d14() -> None:
    p = play(pos("4k3/8/8/8/8/8/8/4K3 w - - 149 80"), "Kd2 @d5")
    assert G.outcome(p).termination == "75-move rule"
    short = SuperHorseChess({"max_plies": "2"})
    q = play(short.initial_state(2), "e4 @d5", "e5 -d5", game=short)
    assert short.outcome(q).termination == "max plies"
    assert short.max_plies == 2 and G.max_plies == 1000


def test_owned_horses_d1() -> None:
    p = pos("4k3/8/8/3h4/8/8/8/4K3 w - - 0 1", OWNED)
    illegal(p, "Kd2 -d5", game=OWNED)
    assert fmt(p, "Kd2 @e5", game=OWNED) == "Kd2 @e5"
    assert play(p, "Kd2 @e5", game=OWNED).board[SQ["e5"]] == "H"
    mixed = pos("4k3/8/8/HhHhHh2/8/8/8/4K3 w - - 0 1", OWNED)
    assert fmt(mixed, "Kd2 @a1", game=OWNED) == "Kd2 @a1"
    assert fmt(mixed, "Kd2 -a5", game=OWNED) == "Kd2 -a5"
    illegal(mixed, "Kd2 -a5 -c5", game=OWNED)
    illegal(mixed, "Kd2 Hb5-b6", game=OWNED)
    with pytest.raises(GameError):
        pos("4k3/8/8/3*4/8/8/8/4K3 w - - 0 1", OWNED)
    with pytest.raises(GameError):
        pos("4k3/8/8/3H4/8/8/8/4K3 w - - 0 1", G)


def test_optional_horse_action_d2() -> None:
    assert fmt(pos(game=OPTIONAL), "e4", game=OPTIONAL) == "e4"


def test_malformed_turns_give_clean_errors() -> None:
    for text in ("e4 @z9", "e4 @d5 @e5", "junk", "e4 hd5-d6", "e4 -"):
        with pytest.raises(GameError) as info:
            G.parse_action(pos(), text)
        assert "\n" not in str(info.value)


def test_fen_with_horses_round_trips() -> None:
    fen = "k7/3*4/8/8/8/8/8/K7 w - - 0 1"
    assert write_fen(pos(fen)) == fen


def test_show_draws_horses_and_their_count(tmp_path: Path) -> None:
    record = tmp_path / "h.gtn"
    runner = CliRunner()
    assert runner.invoke(cli, ["start", "super-horse-chess", "-o", str(record)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(record), "e4 @d5"]).exit_code == 0
    shown = runner.invoke(cli, ["show", str(record)]).output
    assert " 5  . . . * . . . .  5" in shown
    assert "horses (*): 1 on the board, at most 6" in shown
    assert "to move: black (Black)" in shown and "castling: KQkq" in shown
    bad = runner.invoke(cli, ["move", str(record), "e5"])
    assert bad.exit_code == 1 and "a horse action must follow" in bad.output
    assert "D2" not in bad.output  # the rule in words, not its decision number


def test_record_from_fen_and_options(tmp_path: Path) -> None:
    session = Session.start("super-horse-chess", options={"horses": "owned"},
                            position="4k3/8/8/3h4/8/8/8/4K3 b - - 0 1")
    session.play(["Kd7 Hd5-d4"])
    again = load_one(session.text())
    assert again.states == session.states
    assert '[Options "horses=owned"]' in session.text()


def test_samples_validate_one_with_a_horse_promotion() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    texts = [f.read_text() for f in files]
    for path, text in zip(files, texts, strict=True):
        assert all(v.ok for v in check_text(text, str(path)))
        assert load_one(text).game.outcome(load_one(text).state) is not None
    assert any("=Q" in t or "=R" in t or "=B" in t or "=N" in t for t in texts)


def test_check_suffix_of_every_listed_turn_matches_the_final_position_d15() -> None:
    """The suffix is judged after the whole turn: a horse can block or free a square."""
    from gametool.games.chess.san import check_suffix

    for p in sample_positions("super-horse-chess", None, 2)[:12]:
        for action in G.legal_actions(p):
            text = G.format_action(p, action)
            after = G.apply(p, action)
            suffix = check_suffix(after.board, after.white, after.castling, after.ep)
            assert text.endswith(suffix) and (suffix or not text.endswith(("+", "#"))), text


def test_a_placement_on_the_last_escape_square_turns_check_into_mate() -> None:
    p = pos("7k/8/8/8/8/8/8/R5K1 w - - 0 1")
    assert fmt(p, "Ra8 @a1") == "Ra8 @a1+"
    assert fmt(p, "Ra8 @g7") == "Ra8 @g7+"
    boxed = pos("7k/7p/8/8/8/8/8/R5K1 w - - 0 1")
    assert fmt(boxed, "Ra8 @g7") == "Ra8 @g7#"
    assert fmt(boxed, "Ra8 @a1") == "Ra8 @a1+"


def test_horse_moves_after_a_chess_move_that_answers_check_d9() -> None:
    p = pos(IN_CHECK)
    assert fmt(p, "Rc4 Hd2-c2") == "Rc4 Hd2-c2"
    illegal(p, "Rc4 Hd2-d3")  # the queen on b2 would reach the king
    illegal(p, "Rc4 -d2")
    assert engine_turns(G, p) == ref_turns(p)


def test_en_passant_empties_the_taken_pawns_square_for_a_horse_d5_d8() -> None:
    p = pos(EN_PASSANT_JUMP)
    assert fmt(p, "bxc6 Hc3-c5") == "bxc6 Hc3-c5"
    assert fmt(p, "bxc6 @c5") == "bxc6 @c5"
    illegal(p, "b6 Hc3-c5")  # c5 is still occupied: no landing square
    assert engine_turns(G, p) == ref_turns(p)


def test_a_king_step_behind_a_horse_makes_it_a_shield_d9() -> None:
    p = pos(KING_STEPS_BEHIND_A_HORSE)
    illegal(p, "Kd1 -d4")
    illegal(p, "Kd1 Hd4-c4")
    assert fmt(p, "Kd1 Hd4-d5") == "Kd1 Hd4-d5"
    assert fmt(p, "Kf1 -d4") == "Kf1 -d4"
    assert engine_turns(G, p) == ref_turns(p)


# A piece capture undone: the rook takes the c1 knight, and a horse promotes to a new one there.
CAPTURE_CYCLE = ["Rxc1 @c2", "Ke6 @h6", "Ra1 -h6", "Ke5 Hc2-c1=N"]
CYCLE_START = "7K/8/8/4k3/8/8/8/R1n5 w - - 0 1"


def test_repetition_counts_positions_before_a_piece_capture_d12() -> None:
    """A captured piece can come back by a horse promotion, so a piece capture does not end
    the repetition history (a pawn move or a pawn's capture does: pawns are never created)."""
    start = pos(CYCLE_START)
    once = play(start, *CAPTURE_CYCLE)
    assert once.key == start.key and once.repetitions() == 2
    twice = play(once, *CAPTURE_CYCLE)
    assert twice.repetitions() == 3
    claim = G.apply(twice, G.parse_action(twice, "claim-draw"))
    assert G.outcome(claim).termination == "threefold repetition"
    before = play(once, *CAPTURE_CYCLE[:3])
    assert "claim-draw Ke5 Hc2-c1=N" in [G.format_action(before, a)
                                         for a in G.legal_actions(before)]
    # the third occurrence of the position after Rxc1 @c2 is claimed with that capture
    assert "claim-draw Rxc1 @c2" in [G.format_action(twice, a) for a in G.legal_actions(twice)]
    fifth = play(twice, *CAPTURE_CYCLE * 2)
    assert G.outcome(fifth).termination == "fivefold repetition"


def test_a_pawn_move_still_ends_the_repetition_history_d12() -> None:
    p = play(pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), "Kd1 @a5", "Kd8 -a5")
    assert len(p.history) == 2
    assert play(p, "e3 @a5").history == ()


@pytest.mark.parametrize("options", [{}, {"horses": "owned"}])
def test_one_horse_action_is_judged_as_the_whole_list_judges_it(options: dict[str, str]) -> None:
    """``horse_legal`` (one action, as a record is read) agrees with ``horse_actions`` (every
    action) on every placement, removal and horse step, after chess moves of random games."""
    import random

    from gametool.games.chess.board import make_move

    game = SuperHorseChess(options)
    rng = random.Random(7)
    checked = 0
    for _ in range(4):
        state = game.initial_state(2)
        while game.to_move(state) is not None and state.ply < 120:
            m = rng.choice(state.moves)
            after = make_move(state.board, m, state.white, state.castling, state.ep)[0]
            legal = set(game.horse_actions(after, state.white))
            mine = game.horse_chars(state.white)[0]
            horses = [s for s, c in enumerate(after) if c == mine]
            candidates = [(PLACE, s) for s in range(64)] + [(REMOVE, s, -1) for s in range(64)]
            candidates += [(REMOVE, a, b) for a in horses for b in range(64)]
            candidates += [(HMOVE, a, t, p) for a in horses for t in range(64)
                           if abs(t - a) in (1, 8, 16) for p in range(5)]
            for h in candidates:
                assert game.horse_legal(after, state.white, h) == (h in legal), (after, h)
            checked += len(candidates)
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert checked > 10_000


def test_the_claims_listed_are_every_turn_after_which_a_claim_holds() -> None:
    """The claim list's shortcuts (pawn turns skipped, boards compared before positions made,
    chess moves that no horse action can bring to a repeated board skipped) against playing
    every turn and asking whether a claim holds after it, at every position of cycles that
    repeat, with other pieces and horses on the board."""
    from gametool.games.chess.game import CLAIM, claim_reason

    placing = ["Kd2 @d5", "Kd7 -d5", "Ke1 @a1", "Ke8 -a1"]
    moving = ["Kd2 Ha1-b1", "Kd7 @d5", "Ke1 Hb1-a1", "Ke8 -d5"]  # a horse action's two squares
    checked = claims = 0
    for fen, cycle in (("4k3/8/8/8/8/8/8/4K3 w - - 0 1", placing),
                       ("r3k1n1/p7/8/8/8/5N2/7P/1R2K3 w q - 0 1", placing),
                       ("4k3/2n5/8/8/8/8/2N5/4K3 w - - 97 60", placing),
                       ("4k3/8/8/8/8/8/8/*3K3 w - - 0 1", moving)):
        p = pos(fen)
        for text in cycle * 3:
            listed = {a for a in G.legal_actions(p) if a[0] & CLAIM and a[0] != CLAIM}
            naive = {(CLAIM | m, h) for m, h in G.turns(p) if claim_reason(G._play(p, m, h))}
            assert listed == naive, (fen, text)
            checked += 1
            claims += len(naive)
            p = play(p, text)
    assert checked == 48 and claims > 100, (checked, claims)
