"""Assembly: every edge case, worked example and decision of rules/assembly.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import RESIGN, perft
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.assembly import PASS, Assembly, AssemblyState, sq_name
from gametool.players.auto import random_game
from gametool.records import check_text

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "assembly"


def square(name: str) -> int:
    return (int(name[1:]) - 1) * 9 + "abcdefghi".index(name[0])


def position(black: list[str], white: list[str], seat: int = 0, ply: int = 0,
             **options: str) -> tuple[Assembly, AssemblyState]:
    """A set-up position (for the endings and corner cases the opening never reaches)."""
    game = Assembly(options)
    cells = bytearray(81)
    for name in black:
        cells[square(name)] = 1
    for name in white:
        cells[square(name)] = 2
    return game, game.state_from_cells(bytes(cells), seat, ply)


def play(game: Assembly, *texts: str) -> AssemblyState:
    state = game.initial_state(2)
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def texts(game: Assembly, state: AssemblyState, origin: str | None = None) -> set[str]:
    return {game.format_action(state, a) for a in game.legal_actions(state)
            if origin is None or (a != PASS and a // 81 == square(origin))}


# -- a deliberately simple reference generator, straight from the rules file ------------------

COMPASS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
           "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}


def ref_board(state: AssemblyState) -> dict[tuple[int, int], str]:
    return {(s % 9, s // 9): ".BW"[state.cells[s]] for s in range(81)}


def ref_sight(board: dict[tuple[int, int], str], f: int, r: int) -> int:
    """Rule 1: six directions, the first occupied square counts 1 if friendly."""
    me = board[f, r]
    total = 0
    for d in ("N", "S", "E", "W", "NW", "SE"):
        df, dr = COMPASS[d]
        x, y = f + df, r + dr
        while (x, y) in board and board[x, y] == ".":
            x, y = x + df, y + dr
        if (x, y) in board and board[x, y] == me:
            total += 1
    return total


def ref_moves(state: AssemblyState, upto: bool) -> set[str]:
    """Rules 2-5 and D8, written as plainly as possible."""
    board = ref_board(state)
    me = "BW"[state.seat]
    out = set()
    for (f, r), who in board.items():
        if who != me:
            continue
        sight = ref_sight(board, f, r)
        for df, dr in COMPASS.values():
            for dist in range(1, sight + 1):
                if not upto and dist != sight:
                    continue
                dest = (f + df * dist, r + dr * dist)
                if dest not in board or board[dest] == me:
                    continue
                path = [board[f + df * k, r + dr * k] for k in range(1, dist)]
                if any(p not in (".", me) for p in path):
                    continue
                sep = "-" if board[dest] == "." else "x"
                out.add(f"{'abcdefghi'[f]}{r + 1}{sep}{'abcdefghi'[dest[0]]}{dest[1] + 1}")
    return out or {"pass"}


def ref_connected(board: dict[tuple[int, int], str], who: str) -> bool:
    mine = [p for p, c in board.items() if c == who]
    seen = {mine[0]}
    todo = [mine[0]]
    while todo:
        f, r = todo.pop()
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                n = (f + df, r + dr)
                if board.get(n) == who and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return len(seen) == len(mine)


@pytest.mark.parametrize("distance", ["exact", "upto"])
def test_differential_engine_matches_reference_generator(distance: str) -> None:
    game = Assembly({"distance": distance})
    checked = games = 0
    while checked < 300:
        state = game.initial_state(2)
        ply = 0
        while game.to_move(state) is not None and ply < 120:
            listed = [game.format_action(state, a) for a in game.legal_actions(state)]
            assert len(listed) == len(set(listed))
            assert set(listed) == ref_moves(state, distance == "upto"), (games, ply)
            checked += 1
            action = SeedRng(f"diff-{distance}-{games}", ply).choice(game.legal_actions(state))
            after = game.apply(state, action)
            if action != PASS:  # D7: the result follows both sides' connection
                board = ref_board(after)
                joined = [ref_connected(board, c) for c in "BW"]
                mover = state.seat
                expected = (None if not any(joined) else "draw" if all(joined)
                            else "win" if joined[mover] else "loss")
                outcome = game.outcome(after)
                if expected is None:
                    assert outcome is None or outcome.termination == "ply cap"
                else:
                    assert outcome is not None and outcome.results[mover].result == expected
            state = after
            ply += 1
        games += 1


# -- sight (rule 1, D2, D3, D4) -----------------------------------------------------------


def test_initial_sight_of_the_worked_example() -> None:
    game = Assembly()
    state = game.initial_state(2)
    assert {n: game.sight(state, square(n)) for n in ("d1", "a5", "b1", "a2")} == {
        "d1": 3, "a5": 3, "b1": 2, "a2": 2}


def test_only_the_first_occupied_square_counts_for_sight() -> None:
    # a5: a6 adds 1, a7 and a8 behind it add nothing (sight 3 = a6 + a4 + i5).
    game = Assembly()
    state = game.initial_state(2)
    assert game.sight(state, square("a5")) == 3
    # a friendly figure hidden behind an enemy one adds nothing
    game, hidden = position(["e5", "e7", "a1"], ["e6", "i9"])
    game, open_ = position(["e5", "e7", "a1"], ["i9"])
    assert game.sight(hidden, square("e5")) == 0
    assert game.sight(open_, square("e5")) == 1


def test_ne_and_sw_do_not_count_for_sight_d3() -> None:
    game, state = position(["e5", "f6", "a1"], ["i9"])
    assert game.sight(state, square("e5")) == 0  # f6 lies NE
    assert game.sight(state, square("f6")) == 0  # e5 lies SW
    game, state = position(["e5", "d6", "f4", "a1"], ["i9"])
    assert game.sight(state, square("e5")) == 2  # d6 NW and f4 SE count (D4)


def test_a_figure_that_sees_only_enemies_and_edges_has_no_move() -> None:
    game, state = position(["e5", "a1", "i9"], ["e6", "e4", "d5", "f5", "d6", "f4"])
    assert game.sight(state, square("e5")) == 0
    assert texts(game, state, "e5") == set()
    with pytest.raises(IllegalAction, match="sight 0"):
        game.parse_action(state, "e5-e7")


# -- moves (rules 2-5, D1, D5) --------------------------------------------------------------


def test_black_has_38_moves_in_the_initial_position() -> None:
    game = Assembly()
    state = game.initial_state(2)
    listed = texts(game, state)
    assert len(listed) == 38
    bottom = {"b1": {"b1-b3", "b1-d3"}, "c1": {"c1-c4", "c1-f4"},
              "d1": {"d1-d4", "d1-a1", "d1-g4", "d1xa4"}, "e1": {"e1-e4", "e1-h4", "e1-b4"},
              "f1": {"f1-f4", "f1-i1", "f1-c4", "f1xi4"}, "g1": {"g1-g4", "g1-d4"},
              "h1": {"h1-h3", "h1-f3"}}
    for origin, expected in bottom.items():
        assert texts(game, state, origin) == expected
    assert {t for t in listed if "x" in t} == {"d1xa4", "f1xi4", "d9xa6", "f9xi6"}


def test_top_row_moves_are_the_bottom_row_rotated() -> None:
    game = Assembly()
    state = game.initial_state(2)

    def rotate(name: str) -> str:
        return "abcdefghi"[8 - "abcdefghi".index(name[0])] + str(10 - int(name[1]))

    bottom = {t for t in texts(game, state) if t[1] == "1"}
    top = {t for t in texts(game, state) if t[1] == "9"}
    assert {rotate(t[:2]) + t[2] + rotate(t[3:]) for t in bottom} == top


def test_white_would_also_have_38_moves() -> None:
    game = Assembly()
    start = game.initial_state(2)
    state = game.state_from_cells(start.cells, 1)
    assert len(texts(game, state)) == 38
    assert texts(game, state, "a5") == {"a5-d5", "a5-d8", "a5-d2"}


def test_d1_jumps_two_friendly_figures_to_the_corner() -> None:
    game = Assembly()
    state = game.initial_state(2)
    assert game.parse_action(state, "d1-a1") == square("d1") * 81 + square("a1")


def test_an_enemy_in_the_path_blocks_the_move() -> None:
    game = Assembly()
    state = play(game, "b1-b3", "a5-d2")
    assert game.sight(state, square("d1")) == 3
    with pytest.raises(IllegalAction, match="enemy on d2"):
        game.parse_action(state, "d1-d4")
    assert texts(game, state, "d1") == {"d1-a1", "d1-g4", "d1xa4"}  # b3 is jumped


def test_distance_upto_gives_d1_its_eight_moves() -> None:
    game = Assembly({"distance": "upto"})
    state = play(game, "b1-b3", "a5-d2")
    assert texts(game, state, "d1") == {"d1xd2", "d1-c2", "d1-b1", "d1-a1", "d1-e2", "d1-f3",
                                        "d1-g4", "d1xa4"}


def test_exact_distance_d1() -> None:
    game = Assembly()
    state = game.initial_state(2)
    with pytest.raises(IllegalAction, match="exactly 3"):
        game.parse_action(state, "d1-d3")
    upto = Assembly({"distance": "upto"})
    assert upto.format_action(state, upto.parse_action(state, "d1-d3")) == "d1-d3"


def test_a_move_beyond_the_edge_is_never_generated() -> None:
    # h1 has sight 2: E would reach j1, off the board; SE and S likewise.
    game = Assembly()
    state = game.initial_state(2)
    assert texts(game, state, "h1") == {"h1-h3", "h1-f3"}
    game, state = position(["h8", "h6", "g8", "a1"], ["e1"])  # h8 sees h6 and g8: sight 2
    assert game.sight(state, square("h8")) == 2
    # N, NE, E, SE and NW leave the board; S lands on the friendly h6
    assert texts(game, state, "h8") == {"h8-f8", "h8-f6"}


def test_ne_and_sw_moves_are_generated_d3() -> None:
    # e5 sees d6 (NW) and f4 (SE): sight 2. NE and SW add no sight but carry moves.
    game, state = position(["e5", "d6", "f4", "a1"], ["i9"])
    listed = texts(game, state, "e5")
    assert {"e5-g7", "e5-c3"} <= listed  # NE and SW
    assert listed == {"e5-e7", "e5-e3", "e5-g5", "e5-c5", "e5-g7", "e5-c3", "e5-g3", "e5-c7"}


def test_a_move_must_leave_its_square() -> None:
    game = Assembly()
    with pytest.raises(IllegalAction, match="must leave its square"):
        game.parse_action(game.initial_state(2), "d1-d1")


def test_landing_on_a_friendly_figure_is_illegal() -> None:
    game = Assembly()
    state = game.initial_state(2)
    with pytest.raises(IllegalAction, match="friendly"):
        game.parse_action(state, "d1-g1")


def test_captured_figures_leave_the_game() -> None:
    game = Assembly()
    before = game.initial_state(2)
    assert game.sight(before, square("a3")) == 3  # a4, a2 and i3
    state = play(game, "d1xa4")
    assert len(state.figures[1]) == 13 and state.cells[square("a4")] == 1
    # a3 now meets the black a4 going N: only a2 and i3 still count
    assert game.sight(state, square("a3")) == 2


# -- notation (D10) ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "error", "words"), [
    ("d1-a4", IllegalAction, "capture must be written d1xa4"),
    ("d1xd4", IllegalAction, "d4 is empty"),
    ("d1-g1", IllegalAction, "friendly"),
    ("d1-d3", IllegalAction, "exactly 3"),
    ("a5-d5", IllegalAction, "White figure"),
    ("pass", IllegalAction, "without a legal move"),
    ("j1-j4", MalformedAction, "not on the 9x9 board"),
    ("d1d4", MalformedAction, "malformed"),
    ("d1-e3", IllegalAction, "straight line"),
])
def test_notation_verdicts_in_the_initial_position(text: str, error: type, words: str) -> None:
    game = Assembly()
    with pytest.raises(error, match=words):
        game.parse_action(game.initial_state(2), text)


def test_moves_and_captures_parse_in_any_case() -> None:
    game = Assembly()
    state = game.initial_state(2)
    assert game.format_action(state, game.parse_action(state, "  D1-D4 ")) == "d1-d4"
    assert game.format_action(state, game.parse_action(state, "D1XA4")) == "d1xa4"


# -- end of the game (D7, D8, D9) -------------------------------------------------------------


def test_a_move_that_joins_all_the_movers_figures_wins() -> None:
    game, state = position(["f1", "f3"], ["h9", "h3", "g2"])
    after = game.apply(state, game.parse_action(state, "f1-f2"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.results[0].result == "win"
    assert outcome.termination == "connection"


def test_a_capture_that_leaves_the_opponent_connected_loses() -> None:
    game, state = position(["f5", "a9", "g9"], ["g8", "a3"])
    after = game.apply(state, game.parse_action(state, "g9xg8"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.termination == "connection"
    assert [r.result for r in outcome.results] == ["loss", "win"]  # a3 alone is connected


def test_a_move_that_leaves_both_sides_connected_is_a_draw() -> None:
    game, state = position(["e5", "e3"], ["f4", "d2", "d1"])
    after = game.apply(state, game.parse_action(state, "e3xf4"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.termination == "both connected"
    assert [r.result for r in outcome.results] == ["draw", "draw"]


def test_pass_only_without_a_move_and_two_passes_draw() -> None:
    game, state = position(["a1", "i9"], ["c9", "g1"])
    assert game.legal_actions(state) == [PASS]
    with pytest.raises(IllegalAction, match="straight line|sight 0"):
        game.parse_action(state, "a1-b2")
    state = game.apply(state, game.parse_action(state, "PASS"))
    assert game.outcome(state) is None and game.legal_actions(state) == [PASS]
    state = game.apply(state, game.parse_action(state, "pass"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "two passes"
    assert [r.result for r in outcome.results] == ["draw", "draw"]


def test_a_move_between_passes_resets_the_count() -> None:
    game, state = position(["a1", "i9"], ["c9", "g1", "g3"], seat=0)
    state = game.apply(state, PASS)
    assert game.legal_actions(state) != [PASS]  # g1 sees g3
    state = game.apply(state, game.legal_actions(state)[0])
    assert state.passes == 0


def test_max_plies_4_draws_right_after_the_fourth_ply() -> None:
    game = Assembly({"max_plies": "4"})
    state = play(game, "b1-b3", "a5-d2", "d1-a1")
    assert game.outcome(state) is None
    state = game.apply(state, game.legal_actions(state)[0])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "ply cap"
    assert game.to_move(state) is None and state.ply == 4


def test_a_connection_on_the_capping_ply_takes_precedence() -> None:
    game, state = position(["f1", "f3"], ["h9", "h3", "g2"], ply=3, max_plies="4")
    after = game.apply(state, game.parse_action(state, "f1-f2"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.termination == "connection"
    assert outcome.results[0].result == "win"


def test_max_plies_above_the_default_is_the_bound_of_automatic_play_d9() -> None:
    game = Assembly({"max_plies": "1000"})
    assert game.max_plies == 1000 and Assembly().max_plies == 600
    session = random_game("assembly", "s28", options={"max_plies": "1000"})
    outcome = session.game.outcome(session.state)
    assert session.ply == 605 and outcome is not None and outcome.termination == "connection"


def test_the_initial_position_has_neither_side_connected() -> None:
    game = Assembly()
    assert game.outcome(game.initial_state(2)) is None


def test_resign_loses_and_ends_the_game() -> None:
    game = Assembly()
    state = game.initial_state(2)
    after = game.apply(state, game.parse_action(state, "resign"))
    assert [r.result for r in game.outcome(after).results] == ["loss", "win"]
    with pytest.raises(GameOver):
        game.parse_action(after, "d1-d4")
    assert RESIGN not in game.legal_actions(state)


# -- perft golden values ----------------------------------------------------------------------


def test_perft_of_the_start_position() -> None:
    game = Assembly()
    state = game.initial_state(2)
    assert [perft(game, state, d) for d in (1, 2, 3)] == [38, 1396, 57438]


def test_perft_of_the_start_position_with_distance_upto() -> None:
    game = Assembly({"distance": "upto"})
    state = game.initial_state(2)
    assert [perft(game, state, d) for d in (1, 2)] == [118, 13228]


# -- the command line and the sample records --------------------------------------------------


def test_show_draws_the_board_with_coordinates(tmp_path: Path) -> None:
    runner = CliRunner()
    record = tmp_path / "a.gtn"
    assert runner.invoke(cli, ["start", "assembly", "--no-seed", "-o", str(record)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(record), "d1xa4"]).exit_code == 0
    shown = runner.invoke(cli, ["show", str(record)])
    assert shown.exit_code == 0
    assert "   a b c d e f g h i" in shown.output
    assert "4  B . . . . . . . W  4" in shown.output
    assert "White (W)" in shown.output and "13" in shown.output
    bad = runner.invoke(cli, ["move", str(record), "e5-e6"])
    assert bad.exit_code == 1 and "e5 is empty" in bad.output + (bad.stderr or "")


def test_moves_lists_what_move_accepts(tmp_path: Path) -> None:
    runner = CliRunner()
    record = tmp_path / "a.gtn"
    runner.invoke(cli, ["start", "assembly", "--no-seed", "-o", str(record)])
    listed = runner.invoke(cli, ["moves", str(record)]).output.split()
    assert len(listed) == 38 and "d1xa4" in listed


def test_sample_records_are_valid_and_complete() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    terminations = set()
    for path in files:
        verdicts = check_text(path.read_text(), str(path))
        assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        text = path.read_text()
        assert '[Result "*"]' not in text
        terminations.add(text.split('[Termination "')[1].split('"')[0])
    assert {"connection", "both connected", "two passes", "ply cap"} <= terminations


def test_square_names() -> None:
    assert sq_name(square("i9")) == "i9" and sq_name(0) == "a1"


# -- errors never suggest an illegal spelling -------------------------------------------------


def test_a_suggested_spelling_is_always_a_legal_move() -> None:
    """Line, distance, sight and path are checked before the separator: 'b1-a2' onto an enemy
    out of sight must not answer 'write b1xa2' when b1xa2 is refused in turn."""
    import random

    rng = random.Random(7)
    suggested = 0
    for upto in ("exact", "upto"):
        game = Assembly({"distance": upto})
        state = game.initial_state(2)
        for _ply in range(30):
            legal = texts(game, state)
            mine = [s for s in range(81) if state.cells[s] == state.seat + 1]
            for frm in mine:
                for to in range(81):
                    for sep in "-x":
                        text = f"{'abcdefghi'[frm % 9]}{frm // 9 + 1}{sep}" \
                               f"{'abcdefghi'[to % 9]}{to // 9 + 1}"
                        try:
                            game.parse_action(state, text)
                        except IllegalAction as exc:
                            hint = re.search(r"(?:written|write) ([a-i]\d[-x][a-i]\d)", str(exc))
                            if hint:
                                suggested += 1
                                assert hint.group(1) in legal, (text, str(exc))
            actions = game.legal_actions(state)
            if not actions or game.is_over(state):
                break
            state = game.apply(state, rng.choice(actions))
    assert suggested > 100


@pytest.mark.parametrize("text", ["b1 - b3", "b1- b3", "b1 -b3", "b1 x b3"])
def test_no_blanks_inside_an_action(text: str) -> None:
    """One rule for every game (as Colors and Desdemona): blanks around, never inside."""
    game = Assembly()
    state = game.initial_state(2)
    with pytest.raises(MalformedAction, match="found a blank"):
        game.parse_action(state, text)
    assert game.format_action(state, game.parse_action(state, "  b1-b3 ")) == "b1-b3"


@pytest.mark.parametrize("options", [{}, {"distance": "upto"}])
def test_the_moves_of_each_figure_make_up_the_moves_of_the_side(options: dict[str, str]) -> None:
    """A typed move is checked against the moves of its figure alone: those lists, over every
    figure of the side to move, are exactly the side's moves, in random games."""
    import random

    game = Assembly(options)
    rng = random.Random(3)
    for _ in range(6):
        state = game.initial_state(2)
        while game.to_move(state) is not None:
            per_figure = [m for s in state.figures[state.seat]
                          for m in game.figure_moves(state, s)]
            assert sorted(per_figure) == sorted(game.moves(state))
            assert all(m // 81 == s for s in state.figures[state.seat]
                       for m in game.figure_moves(state, s))
            state = game.apply(state, rng.choice(game.legal_actions(state)))


def test_the_line_tables_hold_what_the_line_contents_give() -> None:
    """Entries written once per distinct relative entry (shared by many line contents) are the
    moves the contents of their own line give, square by square."""
    import random

    from gametool.games.assembly import lines as tables

    for options in ({}, {"distance": "upto"}):
        game = Assembly(options)
        rng = random.Random(11)
        for _ in range(10):
            state = game.initial_state(2)
            while game.to_move(state) is not None:
                state = game.apply(state, rng.choice(game.legal_actions(state)))
    checked = 0
    for upto, table in tables.TABLES.items():
        for key, entry in list(table.items())[:5000]:
            low = key & ((1 << tables.SHIFT) - 1)
            lid, code, pos = low >> 4, key >> tables.SHIFT, low & 15
            line = tables.LINES[lid]
            share, steps = tables._relative_entry(len(line), tables.LINE_SEES[lid], code, pos,
                                                  upto)
            origin = line[pos] * 81
            assert entry == (share, tuple(tuple(origin + line[pos + k] for k in ks)
                                          for ks in steps))
            checked += 1
    assert checked > 1000
