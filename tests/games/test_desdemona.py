"""Desdemona: every rule, decision, option and edge case of rules/desdemona.md.

The differential test compares the engine with a small reference move generator written here
straight from the rules file (dictionaries of squares, no shortcuts).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import RESIGN, perft
from gametool.core.errors import GameError, GameOver, IllegalAction, MalformedAction
from gametool.games.desdemona import (
    BLACK_PAWN,
    BLACK_STONE,
    PASS,
    SETUPS,
    WHITE_PAWN,
    WHITE_STONE,
    Desdemona,
    DesdemonaState,
)
from gametool.records import check_text, load_one

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "desdemona"
EXAMPLE = ["b2-d4/d6", "b6-b4/c4", "d4-d5xd7", "b4-b5xd3", "f2-e3/c5", "f6-g7/g6", "d5-c6xc3"]
FINAL_DIAGRAM = """\
7  . . . b . . W
6  . . B b . . b
5  . W b . . . .
4  . . b . . . .
3  . . b w B . .
2  . . . . . . .
1  . . . . . . .
   a b c d e f g"""


# -- helpers --------------------------------------------------------------------------------


def play(game: Desdemona, moves: list[str], state: DesdemonaState | None = None
         ) -> DesdemonaState:
    state = game.initial_state(2) if state is None else state
    for text in moves:
        state = game.apply(state, game.parse_action(state, text))
    return state


def position(game: Desdemona, diagram: str, turn: int = 0, ply: int = 10) -> DesdemonaState:
    """A state from rows drawn top rank first: . empty, b/w stones, B/W pawns."""
    code = {".": 0, "b": BLACK_STONE, "w": WHITE_STONE, "B": BLACK_PAWN, "W": WHITE_PAWN}
    rows = [row.split() for row in diagram.strip().splitlines()]
    size = game.size
    assert len(rows) == size and all(len(r) == size for r in rows)
    cells = bytearray(size * size)
    for r, row in enumerate(rows):
        for f, char in enumerate(row):
            cells[(size - 1 - r) * size + f] = code[char]
    pawns = tuple(tuple(i for i, c in enumerate(cells) if c == p) for p in (BLACK_PAWN, WHITE_PAWN))
    return DesdemonaState(bytes(cells), (pawns[0], pawns[1]), turn, 0, ply)


def texts(game: Desdemona, state: DesdemonaState) -> set[str]:
    return {game.format_action(state, a) for a in game.legal_actions(state)}


def rejected(game: Desdemona, state: DesdemonaState, text: str) -> str:
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, text)
    return str(info.value)


def example_state(moves: int) -> DesdemonaState:
    return play(Desdemona(), EXAMPLE[:moves])


# -- the worked example ----------------------------------------------------------------------


def test_worked_example_scores_after_each_move() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    expected = [(0, 1), (1, 1), (3, 0), (2, 2), (2, 3), (3, 3), (6, 1)]
    for text, score in zip(EXAMPLE, expected, strict=True):
        state = game.apply(state, game.parse_action(state, text))
        assert tuple(game.scores(state)) == score, text


def test_worked_example_final_diagram() -> None:
    game = Desdemona()
    drawn = game.render(example_state(7), None, ["black", "white"])
    assert drawn.startswith(FINAL_DIAGRAM)
    assert "Black: 6 stones, 2 pawns" in drawn and "White: 1 stone, 2 pawns" in drawn


def test_move_3_black_has_exactly_three_captures() -> None:
    game = Desdemona()
    state = example_state(2)
    captures = {t for t in texts(game, state) if "x" in t}
    assert captures == {"d4-d5xd7", "d4-c5xe7", "d4-e5xc7"}


def test_move_3_illegal_stone_beyond_blocker_and_capture_onto_stone() -> None:
    game = Desdemona()
    state = example_state(2)
    assert "d6" in rejected(game, state, "d4-d5/d7")
    assert "not empty" in rejected(game, state, "d4-d5xd6")


def test_capture_notation_is_read_in_any_case() -> None:
    game = Desdemona()
    state = example_state(2)
    assert game.parse_action(state, "D4-D5XD7") == game.parse_action(state, "  d4-d5xd7 ")


def test_capture_flips_one_stone_moves_3_and_4() -> None:
    game = Desdemona()
    view3 = game.view(example_state(3), None)
    assert view3["board"][0][3] == "b" and view3["board"][1][3] == "b"  # d7 new, d6 flipped
    view4 = game.view(example_state(4), None)
    assert view4["board"][4][3] == "w" and view4["board"][3][2] == "w"  # d3 new, c4 flipped


def test_capture_flips_two_stones_move_7() -> None:
    game = Desdemona()
    before, after = example_state(6), example_state(7)
    assert tuple(game.scores(before)) == (3, 3)
    board = game.view(after, None)["board"]
    assert [board[7 - r][2] for r in (3, 4, 5)] == ["b", "b", "b"]  # c3 new, c4 c5 flipped
    assert tuple(game.scores(after)) == (6, 1)


# -- captures ----------------------------------------------------------------------------------


EDGE = """
w . . . . . W
w . . . . . .
. . B . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . B
"""


def test_capture_line_reaching_the_edge_is_illegal() -> None:
    game = Desdemona()
    state = position(game, EDGE)
    assert not any(t.startswith("c5-a5x") for t in texts(game, state))
    assert "not empty" in rejected(game, state, "c5-a5xa7")
    # D3: with an empty square after the stone the same line is a capture.
    open_top = position(game, EDGE.replace("w . . . . . W", ". . . . . . W", 1))
    assert "c5-a5xa7" in texts(game, open_top)


OWN_STONE = """
. . . . . . W
. . . . . . .
. . . w b . .
. . . . . . .
. . B . . . .
. . . . . . .
W . . . . . B
"""


def test_capture_line_containing_an_own_stone_is_illegal() -> None:
    game = Desdemona()
    state = position(game, OWN_STONE)
    assert not any(t.startswith("c3-c5x") for t in texts(game, state))
    assert "e5 holds a black stone" in rejected(game, state, "c3-c5xf5")
    # D3: without the own stone the same line is a capture.
    free = position(game, OWN_STONE.replace(". . . w b . .", ". . . w . . ."))
    assert "c3-c5xe5" in texts(game, free)


def test_capture_line_containing_a_pawn_is_illegal_b4_b3xe6() -> None:
    game = Desdemona()
    state = example_state(3)
    assert "pawn" in rejected(game, state, "b4-b3xe6")


def test_d2_one_direction_and_one_stone_per_capture() -> None:
    # Two lines from d4 could each be captured; each capture takes only its own line.
    game = Desdemona()
    state = position(game, """
. . . . . . W
. . . . . . .
. . . w . . .
. . . . w . .
. . . B . . .
. . . . . . .
W . . . . . B
""")
    state = game.apply(state, game.parse_action(state, "d3-d4xd6"))
    board = game.view(state, None)["board"]
    assert board[1][3] == "b" and board[2][3] == "b"  # d6 new, d5 flipped
    assert board[3][4] == "w"  # e4 is on another line: untouched
    assert tuple(game.scores(state)) == (2, 1)


def test_d10_a_pawn_next_to_a_stone_must_move_to_capture() -> None:
    game = Desdemona()
    state = position(game, """
. . . . . . W
. . . . . . .
. . . . . . .
. . . b . . .
. . . W . . .
. . . . . . .
. . . . . . B
""", turn=1)
    assert "d3-d3xd5" not in texts(game, state)
    assert "at least one square" in rejected(game, state, "d3-d3xd5")


def test_d4_a_quiet_move_is_accepted_while_a_capture_exists() -> None:
    game = Desdemona()
    state = example_state(2)
    assert any("x" in t for t in texts(game, state))
    state = game.apply(state, game.parse_action(state, "f2-g3/g4"))
    assert tuple(game.scores(state)) == (1, 2)


# -- quiet moves and the first move --------------------------------------------------------------


def test_quiet_stone_may_go_on_the_vacated_square() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    after = game.apply(state, game.parse_action(state, "b2-d4/b2"))
    assert game.view(after, None)["board"][5][1] == "w"


def test_quiet_stone_placement_d1_near_or_far() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    assert {"b2-d4/d6", "b2-d4/e5", "b2-d4/d7", "b2-d4/d1", "b2-d4/a1"} <= texts(game, state)
    assert "b2-d4/g7" not in texts(game, state)  # f6 holds a pawn
    assert "f6 holds a White pawn (D1)" in rejected(game, state, "b2-d4/f6")
    assert "b6" in rejected(game, state, "b2-b7/c7")
    assert "one line" in rejected(game, state, "b2-d4/e6")


def test_quiet_stone_cannot_go_on_the_pawns_new_square() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    message = rejected(game, state, "b2-d4/d4")
    assert "the pawn stands there (D1)" in message and "D10" not in message


def test_capture_stone_cannot_go_on_the_pawns_new_square() -> None:
    game = Desdemona()
    state = example_state(2)
    message = rejected(game, state, "d4-d5xd5")
    assert "where the pawn stands" in message and "not on a line" not in message


def test_quiet_stone_may_go_beyond_the_vacated_square() -> None:
    # D1: the vacated square is empty, so the line through it runs on to the next blocker.
    game = Desdemona()
    state = position(game, """
. . . . . . W
. . . . . . .
. . . . . . .
. . . . . . .
. . B . . . .
. w . . . . .
W . . . . . B
""")
    moves = texts(game, state)
    assert {"c3-e5/c3", "c3-e5/d4", "c3-f6/c3", "c3-d4/c3"} <= moves
    assert "c3-e5/b2" not in moves and "c3-e5/a1" not in moves  # b2 holds a stone
    assert "c3-d4/b2" not in moves


def test_first_move_has_no_capture_and_places_a_stone() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    moves = texts(game, state)
    assert moves and all("/" in t for t in moves)
    assert len(moves) == 500
    assert "stone" in rejected(game, state, "b2-d4")


def test_first_move_stone_off_allows_only_a_slide() -> None:
    game = Desdemona({"first_move_stone": "off"})
    state = game.initial_state(2)
    moves = texts(game, state)
    assert "b2-d4" in moves and len(moves) == 28
    assert all("/" not in t and "x" not in t for t in moves)
    assert "D9" in rejected(game, state, "b2-d4/d6")
    after = game.apply(state, game.parse_action(state, "b2-d4"))
    assert game.scores(after) == [0, 0]
    # White's reply is an ordinary quiet move.
    assert "b6-b4/c4" in texts(game, after)
    assert "stone" in rejected(game, after, "b6-b4")


# -- captures only (D5) --------------------------------------------------------------------------


STUCK = """
W w . . . w W
w B . . . w w
. . . . . . .
. . . . . . .
. . . w . . .
. . . . . . .
. . . B . . .
"""


def test_captures_only_when_no_opponent_pawn_can_slide() -> None:
    game = Desdemona()
    state = position(game, STUCK)
    assert game.captures_only_now(state)
    moves = texts(game, state)
    assert moves and all("x" in t for t in moves)
    assert "d1-d2xd4" in moves
    assert "D5" in rejected(game, state, "d1-d2/e2")
    assert "captures only" in game.render(state, None, ["black", "white"])


def test_captures_only_off_allows_quiet_moves() -> None:
    game = Desdemona({"captures_only_when_opponent_stuck": "off"})
    state = position(game, STUCK)
    moves = texts(game, state)
    assert "d1-d2/e2" in moves and "d1-d2xd4" in moves


def test_captures_only_lifts_when_an_opponent_pawn_is_freed() -> None:
    game = Desdemona()
    state = position(game, STUCK)
    # The black pawn on b6 leaves; the white pawn on a7 may slide again.
    state = game.apply(state, game.parse_action(state, "b6-d4xd2"))
    assert "a7-b6/a5" in texts(game, state)
    state = game.apply(state, game.parse_action(state, "a7-b6/a5"))
    assert game.to_move(state) == 0
    assert not game.captures_only_now(state)
    assert any("/" in t for t in texts(game, state))


def test_captures_only_without_a_capture_means_a_pass() -> None:
    game = Desdemona()
    state = position(game, STUCK.replace(". . . w . . .", ". . . . . . ."))
    assert texts(game, state) == {"pass"}


# -- passes and the end ------------------------------------------------------------------------


BLOCKED_BLACK = """
. . . W . . .
. . . . . . .
. . . W . . .
. . . . . . .
. . . b . . .
w w . . . w w
B w . . . w B
"""


def test_pass_only_without_a_legal_move() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    assert "D6" in rejected(game, state, "pass")
    blocked = position(game, BLOCKED_BLACK)
    assert texts(game, blocked) == {"pass"}
    assert game.parse_action(blocked, "PASS") == PASS


def test_pass_move_pass_does_not_end_the_game_two_passes_do() -> None:
    game = Desdemona()
    state = position(game, BLOCKED_BLACK)
    state = play(game, ["pass"], state)
    # Black's pawns cannot slide: White may only capture (D5).
    assert texts(game, state) >= {"d5-d4xd2"}
    assert all("x" in t for t in texts(game, state))
    state = play(game, ["d5-d4xd2", "pass"], state)
    assert game.to_move(state) == 1 and game.outcome(state) is None
    assert texts(game, state) == {"pass"}
    state = play(game, ["pass"], state)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "two passes"
    assert [r.result for r in outcome.results] == ["loss", "win"]
    assert [r.score for r in outcome.results] == [0, 8]
    with pytest.raises(GameOver):
        game.parse_action(state, "pass")
    assert game.legal_actions(state) == []


def test_equal_stone_counts_at_the_end_draw() -> None:
    game = Desdemona()
    state = position(game, """
W b . . . w W
b b . . . w w
. . . . . . .
. . . . . . .
. . . . . . .
w w . . . b b
B w . . . b B
""")
    state = play(game, ["pass", "pass"], state)
    outcome = game.outcome(state)
    assert outcome is not None
    assert [r.result for r in outcome.results] == ["draw", "draw"]
    assert outcome.result_tag() == "1/2-1/2"


def test_resign_loses() -> None:
    game = Desdemona()
    state = game.initial_state(2)
    state = game.apply(state, game.parse_action(state, "resign"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "resignation"
    assert [r.result for r in outcome.results] == ["loss", "win"]
    assert RESIGN not in game.legal_actions(game.initial_state(2))


# -- boards and notation -----------------------------------------------------------------------


def test_setup_8x8() -> None:
    game = Desdemona({"size": "8"})
    pawns = game.view(game.initial_state(2), None)["pawns"]
    assert pawns == {"p1": ["b2", "g2", "a4"], "p2": ["h5", "b7", "g7"]}  # Black, White


def test_setup_10x10_and_files_i_and_j() -> None:
    game = Desdemona({"size": "10"})
    state = game.initial_state(2)
    pawns = game.view(state, None)["pawns"]
    assert sorted(pawns["p1"]) == ["a4", "d10", "g1", "j7"]  # Black's
    assert sorted(pawns["p2"]) == ["a7", "d1", "g10", "j4"]
    assert "j7-i7/j8" in texts(game, state)
    assert game.render(state, None, ["black", "white"]).splitlines()[10].split() == list(
        "abcdefghij")
    for size in ("7", "8"):
        small = Desdemona({"size": size})
        with pytest.raises(MalformedAction, match="off the"):
            small.parse_action(small.initial_state(2), "i1-i2/i3")


def test_no_setup_stones_and_black_moves_first() -> None:
    for size in ("7", "8", "10"):
        game = Desdemona({"size": size})
        state = game.initial_state(2)
        assert game.scores(state) == [0, 0] and game.to_move(state) == 0


def test_bad_size_option_is_refused() -> None:
    with pytest.raises(GameError, match="size"):
        Desdemona({"size": "9"})


@pytest.mark.parametrize("text", ["b2d4/d6", "h1-h2/h3", "b2-d4/", "b2-d4-d6", "b2-d4?d6", "", "x",
                                  "b2 -d4/d6", "b2-d4 /d6", "b2-d4/ d6", "b2 - d4 / d6"])
def test_malformed_notation(text: str) -> None:
    game = Desdemona()
    with pytest.raises(MalformedAction) as info:
        game.parse_action(game.initial_state(2), text)
    assert "\n" not in str(info.value)


def test_notation_help_examples_are_legal_where_they_apply() -> None:
    # The quiet example is a first move, the capture is move 3 of the worked example and the
    # slide is the first move with first_move_stone=off.
    examples = dict(line.split()[:2] for line in Desdemona.notation.splitlines() if line.strip()
                    and not line.startswith("Squares"))
    game = Desdemona()
    assert examples["quiet"] in texts(game, game.initial_state(2))
    assert examples["capture"] in texts(game, example_state(2))
    off = Desdemona({"first_move_stone": "off"})
    assert examples["slide"] in texts(off, off.initial_state(2))


def test_separator_must_match_the_kind_of_move() -> None:
    game = Desdemona()
    state = example_state(2)
    assert "d4-d5xd7" in texts(game, state)
    with pytest.raises(IllegalAction):
        game.parse_action(state, "d4-c5/e7")  # e7 lies beyond the white d6: no quiet stone
    assert game.format_action(state, game.parse_action(state, "d4-c5xe7")) == "d4-c5xe7"
    with pytest.raises(IllegalAction):
        game.parse_action(state, "d4-d5xd1")  # an empty line is no capture


# -- the differential test -----------------------------------------------------------------------


DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def reference_turns(game: Desdemona, state: DesdemonaState) -> set[str]:
    """Every legal turn, worked out slowly from the rules file's words."""
    if game.outcome(state) is not None:
        return set()
    size = game.size
    rows = game.view(state, None)["board"]
    board = {(f, size - 1 - r): rows[r][f] for r in range(size) for f in range(size)}
    me, opp = ("B", "W") if state.turn == 0 else ("W", "B")
    foe_stone = opp.lower()

    def name(sq: tuple[int, int]) -> str:
        return "abcdefghij"[sq[0]] + str(sq[1] + 1)

    def slides(b: dict[tuple[int, int], str], frm: tuple[int, int]) -> list[tuple[int, int]]:
        out = []
        for df, dr in DIRS:
            sq = (frm[0] + df, frm[1] + dr)
            while sq in b and b[sq] == ".":
                out.append(sq)
                sq = (sq[0] + df, sq[1] + dr)
        return out

    mine = [sq for sq, c in board.items() if c == me]
    theirs = [sq for sq, c in board.items() if c == opp]
    if state.ply == 0 and not game.first_stone:
        return {f"{name(p)}-{name(t)}" for p in mine for t in slides(board, p)}
    only_captures = game.captures_only and not any(slides(board, p) for p in theirs)
    turns = set()
    for pawn in mine:
        left = dict(board)
        left[pawn] = "."
        for to in slides(left, pawn):
            after = dict(left)
            after[to] = me
            if not only_captures:
                turns |= {f"{name(pawn)}-{name(to)}/{name(u)}" for u in slides(after, to)}
            for df, dr in DIRS:
                sq, count = (to[0] + df, to[1] + dr), 0
                while sq in after and after[sq] == foe_stone:
                    sq, count = (sq[0] + df, sq[1] + dr), count + 1
                if count and sq in after and after[sq] == ".":
                    turns.add(f"{name(pawn)}-{name(to)}x{name(sq)}")
    return turns or {"pass"}


def random_positions(options: dict[str, str], games: int, seed: str) -> list[DesdemonaState]:
    game = Desdemona(options)
    out = []
    for index in range(games):
        state = game.initial_state(2)
        ply = 0
        while game.to_move(state) is not None:
            out.append(state)
            actions = game.legal_actions(state)
            state = game.apply(state, SeedRng(f"{seed}-{index}", ply).choice(actions))
            ply += 1
    return out


@pytest.mark.parametrize("options,games", [
    ({"size": "7"}, 6),
    ({"size": "8"}, 3),
    ({"size": "10"}, 2),
    ({"size": "7", "first_move_stone": "off"}, 2),
    ({"size": "7", "captures_only_when_opponent_stuck": "off"}, 2),
    ({"size": "8", "captures_only_when_opponent_stuck": "off", "first_move_stone": "off"}, 1),
])
def test_differential_engine_agrees_with_reference(options: dict[str, str], games: int) -> None:
    game = Desdemona(options)
    positions = random_positions(options, games, f"diff-{sorted(options.items())}")
    assert len(positions) >= 50
    for state in positions:
        engine = [game.format_action(state, a) for a in game.legal_actions(state)]
        assert len(engine) == len(set(engine))
        assert set(engine) == reference_turns(game, state), game.render(state, None, [])


@pytest.mark.parametrize("size", [7, 8, 10])
def test_differential_pawns_in_the_corners(size: int) -> None:
    # Corner squares sit on one-square diagonals and at the ends of every line.
    game = Desdemona({"size": str(size)})
    rows = [["."] * size for _ in range(size)]
    rows[0][0], rows[size - 1][size - 1] = "B", "B"
    rows[0][size - 1], rows[size - 1][0] = "W", "W"
    rows[1][1], rows[2][2], rows[1][size - 2], rows[size - 2][1] = "w", "w", "b", "w"
    rows[size - 2][size - 2] = "w"
    state = position(game, "\n".join(" ".join(row) for row in rows))
    for turn in (0, 1):
        state = state._replace(turn=turn)
        engine = [game.format_action(state, a) for a in game.legal_actions(state)]
        assert len(engine) == len(set(engine))
        assert set(engine) == reference_turns(game, state)
        assert any("x" in text for text in engine)


def test_differential_covers_at_least_300_positions_on_all_sizes() -> None:
    total = sum(len(random_positions({"size": s}, n, f"count-{s}"))
                for s, n in (("7", 6), ("8", 3), ("10", 2)))
    assert total >= 300


def test_differential_reaches_passes_and_captures_only() -> None:
    # The random positions include the special cases, so the comparison covers them.
    game = Desdemona()
    positions = random_positions({"size": "7"}, 40, "special")
    assert any(game.legal_actions(s) == [PASS] for s in positions)
    assert any(game.captures_only_now(s) for s in positions)
    for state in positions:
        if game.captures_only_now(state) or game.legal_actions(state) == [PASS]:
            engine = {game.format_action(state, a) for a in game.legal_actions(state)}
            assert engine == reference_turns(game, state)


@pytest.mark.parametrize("size", [7, 8, 10])
def test_differential_scattered_positions(size: int) -> None:
    """Positions no game need reach: pawns and stones scattered at random, sparse to nearly full,
    so that runs and capture rays meet every mix of stones, pawns and the board edge. The fast
    generator lists exactly the reference's turns, each once, and every listed turn is read
    back by parse_action to the same action, for the whole board and for its own pawn alone."""
    game = Desdemona({"size": str(size)})
    pawns_each = len(SETUPS[size][0])
    checked = captures = 0
    for index in range(60 if size == 7 else 30):
        rng = random.Random(f"scatter-{size}-{index}")
        squares = list(range(size * size))
        rng.shuffle(squares)
        cells = bytearray(size * size)
        black, white = squares[:pawns_each], squares[pawns_each:2 * pawns_each]
        for sq in black:
            cells[sq] = BLACK_PAWN
        for sq in white:
            cells[sq] = WHITE_PAWN
        stones = rng.randrange(0, size * size - 2 * pawns_each + 1)
        for sq in squares[2 * pawns_each:2 * pawns_each + stones]:
            cells[sq] = rng.choice([BLACK_STONE, WHITE_STONE])
        for turn in (0, 1):
            state = DesdemonaState(bytes(cells), (tuple(sorted(black)), tuple(sorted(white))),
                                   turn, 0, 10)
            actions = game.legal_actions(state)
            engine = [game.format_action(state, a) for a in actions]
            assert len(engine) == len(set(engine))
            assert set(engine) == reference_turns(game, state), game.render(state, None, [])
            for action, text in zip(actions, engine, strict=True):
                assert game.parse_action(state, text) == action
            mine = state.pawns[turn]
            assert sorted(a for p in mine for a in game._actions(state, p)) == sorted(
                a for a in actions if a != PASS)
            captures += sum("x" in text for text in engine)
            checked += 1
    assert checked >= 60 and captures > 0


# -- perft -------------------------------------------------------------------------------------


def bulk_perft(game: Desdemona, state: Any, depth: int) -> int:
    """Perft counting the last level by list length (every action is a whole turn here)."""
    actions = game.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(bulk_perft(game, game.apply(state, a), depth - 1) for a in actions)


PERFT = {
    (("size", "7"),): (500, 238742, 109339002),
    (("size", "8"),): (1081, 1056911, 937125802),
    (("size", "10"),): (2176, 4357220, None),
    (("first_move_stone", "off"),): (28, 14610, 7614008),
}


@pytest.mark.parametrize("key", [(("size", "7"),), (("first_move_stone", "off"),)])
def test_perft_depth_1_and_2(key: tuple[tuple[str, str], ...]) -> None:
    game = Desdemona(dict(key))
    state = game.initial_state(2)
    assert perft(game, state, 1) == PERFT[key][0]
    assert perft(game, state, 2) == PERFT[key][1]
    assert bulk_perft(game, state, 2) == PERFT[key][1]  # the shortcut below counts the same


@pytest.mark.parametrize("key", [(("size", "8"),), (("size", "10"),)])
def test_perft_depth_1_and_2_larger_boards(key: tuple[tuple[str, str], ...]) -> None:
    game = Desdemona(dict(key))
    state = game.initial_state(2)
    assert perft(game, state, 1) == PERFT[key][0]
    assert bulk_perft(game, state, 2) == PERFT[key][1]


def test_perft_depth_3_7x7_first_move_slide() -> None:
    game = Desdemona({"first_move_stone": "off"})
    assert bulk_perft(game, game.initial_state(2), 3) == 7614008


@pytest.mark.slow
@pytest.mark.parametrize("key", [(("size", "7"),), (("size", "8"),)])
def test_perft_depth_3(key: tuple[tuple[str, str], ...]) -> None:
    game = Desdemona(dict(key))
    assert bulk_perft(game, game.initial_state(2), 3) == PERFT[key][2]


@pytest.mark.slow
def test_perft_depth_3_engine_perft_first_move_slide() -> None:
    game = Desdemona({"first_move_stone": "off"})
    assert perft(game, game.initial_state(2), 3) == 7614008


# -- the command line and samples --------------------------------------------------------------


def test_cli_show_draws_coordinates_and_stone_counts(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "d.gtn"
    assert runner.invoke(cli, ["start", "desdemona", "--no-seed", "-o", str(path)]).exit_code == 0
    result = runner.invoke(cli, ["move", str(path), *EXAMPLE])
    assert result.exit_code == 0, result.output
    out = runner.invoke(cli, ["show", str(path)]).stdout
    assert FINAL_DIAGRAM in out
    assert "Black: 6 stones" in out and "White: 1 stone" in out
    data = runner.invoke(cli, ["show", str(path), "--json"]).stdout
    assert '"black": 6' in data


def test_cli_illegal_move_is_one_line_and_leaves_the_file(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "d.gtn"
    runner.invoke(cli, ["start", "desdemona", "--no-seed", "-o", str(path)])
    before = path.read_bytes()
    result = runner.invoke(cli, ["move", str(path), "b2-b7/c7"])
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1 and "b6" in result.stderr
    assert path.read_bytes() == before


def test_cli_moves_lists_turns_that_move_accepts(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "d.gtn"
    runner.invoke(cli, ["start", "desdemona", "--option", "size=8", "--no-seed", "-o", str(path)])
    listed = runner.invoke(cli, ["moves", str(path)]).stdout.split()
    assert len(listed) == 1081
    assert runner.invoke(cli, ["move", str(path), listed[-1]]).exit_code == 0


def test_sample_records_validate_and_cover_sizes_7_and_8() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    sizes = set()
    for file in files:
        text = file.read_text()
        for verdict in check_text(text, str(file)):
            assert not verdict.errors, verdict.errors
        session = load_one(text, str(file))
        assert session.game.outcome(session.state) is not None, f"{file} is not complete"
        sizes.add(session.game.size)
    assert {7, 8} <= sizes


@pytest.mark.parametrize("options", [
    {}, {"size": "8", "captures_only_when_opponent_stuck": "off"},
    {"size": "10", "first_move_stone": "off"}])
def test_a_move_is_judged_legal_exactly_when_the_generator_lists_it(options: dict[str, str]
                                                                    ) -> None:
    """is_legal_move (the tables of one pawn and one target) against the whole list, for every
    listed move and the same moves bent (another stone square, target or kind)."""
    from gametool.games.desdemona import CAPTURE, QUIET, decode, encode

    game = Desdemona(options)
    rng = random.Random(11)
    cells = game.size * game.size
    checked = 0
    for _game in range(3):
        state = game.initial_state(2)
        for _ply in range(40):
            if game.to_move(state) is None:
                break
            legal = game.legal_actions(state)
            listed = set(legal)
            tried = {a for a in legal if isinstance(a, int) and a >= 0}
            for action in list(tried)[:60]:
                s, t, u, kind = decode(action)
                tried |= {encode(s, t, (u + 1) % cells, kind), encode(s, (t + 1) % cells, u, kind),
                          encode(s, t, u, CAPTURE if kind == QUIET else QUIET),
                          encode((s + 1) % cells, t, u, kind)}
            for action in tried:
                assert game.is_legal_move(state, action) == (action in listed), decode(action)
                checked += 1
            state = game.apply(state, rng.choice(legal))
    assert checked > 1000
