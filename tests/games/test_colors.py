"""Colors (7x7) and 8x8 Colors: the rules files' worked examples, edge cases and notation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.engine import RESIGN
from gametool.core.errors import GameError, GameOver, IllegalAction, MalformedAction
from gametool.games import colors as colors_module
from gametool.games.colors import Colors, Colors8x8, ColorsState, value
from gametool.records import load_one

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games"

EXAMPLE_7 = """\
R R R B G G Y
B R G Y P B R
Y Y Y Y P P G
G B G B G B G
P P R R R R R
B B B G B B P
R G Y P B R G"""

EXAMPLE_8 = """\
R G B G R G B O
Y Y Y Y Y P O B
B O P O B O P O
G R Y B O P G R
O O B R B O O G
P G G P Y R R O
G B Y G O Y B O
G P R B G G Y O"""


def board_state(game: Colors, text: str) -> ColorsState:
    """A state from a picture, rank n at the top; '.' is an empty square."""
    rows = [line.split() for line in text.splitlines()]
    n = game.size
    assert len(rows) == n and all(len(r) == n for r in rows)
    board = []
    for rank in range(1, n + 1):
        for cell in rows[n - rank]:
            board.append(0 if cell == "." else game.colour_letters.index(cell) + 1)
    return ColorsState(tuple(board), sum(1 for d in board if d))


def play(game: Colors, texts: list[str]) -> ColorsState:
    state = game.initial_state(2)
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def one_row(game: Colors, row: str, rank: int = 1) -> ColorsState:
    """A board holding only ``row`` (letters or '.') on ``rank``."""
    n = game.size
    lines = [" ".join(["."] * n) for _ in range(n)]
    lines[n - rank] = " ".join(row)
    return board_state(game, "\n".join(lines))


# -- the value table (D3) ----------------------------------------------------------------------


def test_value_table_starts_at_two_discs() -> None:
    assert [value(n) for n in range(9)] == [0, 0, 3, 6, 10, 15, 21, 28, 36]


# -- Colors 7x7: worked examples -----------------------------------------------------------------


def test_full_board_example_scores_90_and_33_and_player_1_wins() -> None:
    game = Colors()
    state = board_state(game, EXAMPLE_7)
    p1, p2 = game.breakdown(state.board)
    assert (p1.runs, p1.colours, p1.total) == (37, 53, 90)
    assert (p2.runs, p2.colours, p2.total) == (12, 21, 33)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == [0]
    assert outcome.termination == "board full"
    assert [r.score for r in outcome.results] == [90, 33]


def test_option_runs_longest_scores_one_run_per_player() -> None:
    """D1, runs=longest: rows 7, 5, 3 and 2 have runs of 3, 4, 5 and 3, so Player 1's run
    points are V(5) = 15, not 37; the columns' longest run is 2 (b, d, e, g), so V(2) = 3."""
    game = Colors({"runs": "longest"})
    state = board_state(game, EXAMPLE_7)
    p1, p2 = game.breakdown(state.board)
    assert (p1.runs, p1.colours, p1.total) == (15, 53, 68)
    assert (p2.runs, p2.colours, p2.total) == (3, 21, 24)
    assert game.scores(state) == [68, 24]
    red = board_state(game, "\n".join(["R R R R R R R"] * 7))
    assert game.scores(red) == [28 + 28, 28 + 28]  # seven tied rows count once
    assert Colors().settings["runs"] == "each-row" and Colors().scores(state) == [90, 33]
    assert game.non_default_options() == [("runs", "longest")]


def test_option_runs_is_not_offered_by_8x8_colors() -> None:
    with pytest.raises(GameError, match="no option 'runs'"):
        Colors8x8({"runs": "longest"})


def test_running_score_example_ply_by_ply() -> None:
    game = Colors()
    state = game.initial_state(2)
    expected = [[0, 0], [6, 0], [6, 6], [9, 6]]
    for text, score in zip(["d4=R", "e4=R", "d5=R", "g4=R"], expected, strict=True):
        state = game.apply(state, game.parse_action(state, text))
        assert game.scores(state) == score, text


def test_row_of_differing_neighbours_scores_no_run_points() -> None:
    game = Colors()
    for row in ("BRGYPBR", "GBGBGBG"):
        assert game.breakdown(one_row(game, row).board)[0].runs == 0


def test_two_equal_longest_runs_in_a_row_count_once() -> None:
    game = Colors()
    assert game.breakdown(one_row(game, "BBBGBBP").board)[0].runs == 6


def test_discs_split_by_an_empty_square_count_for_colour_but_not_run() -> None:
    game = Colors()
    part = game.breakdown(one_row(game, "...RR.R", rank=4).board)[0]
    assert part.runs == 3 and part.colours == 6


def test_rows_tied_for_a_colours_best_count_are_counted_once() -> None:
    game = Colors()
    # P has 2 discs in rows 3 and 5 only: 3 points, not 6 (D2).
    board = board_state(game, "\n".join([". . . . . . ."] * 2 + ["P P . . . . ."]
                                        + [". . . . . . ."] + ["P . P . . . ."]
                                        + [". . . . . . ."] * 2))
    part = game.breakdown(board.board)[0]
    assert part.colours == 3 and part.runs == 3  # the run P P of rank 5 is apart


def test_colour_at_most_once_per_row_scores_nothing() -> None:
    game = Colors()
    state = board_state(game, "\n".join(
        ["R . . . . . .", ". R . . . . .", ". . R . . . .", ". . . R . . .",
         ". . . . R . .", ". . . . . R .", ". . . . . . R"]))
    assert game.breakdown(state.board)[0].colours == 0
    assert game.scores(state) == [0, 0]


def test_all_red_board_gives_224_each_and_a_draw() -> None:
    game = Colors()
    state = board_state(game, "\n".join(["R R R R R R R"] * 7))
    assert game.scores(state) == [224, 224]
    outcome = game.outcome(state)
    assert outcome is not None and [r.result for r in outcome.results] == ["draw", "draw"]


@pytest.mark.parametrize("salt", range(5))
def test_a_board_symmetric_about_the_diagonal_is_a_draw(salt: int) -> None:
    game = Colors()
    grid = [[""] * 7 for _ in range(7)]
    for r in range(7):
        for f in range(r, 7):
            grid[r][f] = grid[f][r] = "BRGYP"[(r * 3 + f * 5 + r * f * salt + salt) % 5]
    state = board_state(game, "\n".join(" ".join(row) for row in grid))
    a, b = game.scores(state)
    assert a == b
    outcome = game.outcome(state)
    assert outcome is not None and outcome.results[0].result == "draw"


def test_game_ends_after_49_placements_player_1_makes_the_last() -> None:
    game = Colors()
    state = game.initial_state(2)
    for ply in range(49):
        assert game.to_move(state) == ply % 2
        state = game.apply(state, game.legal_actions(state)[ply % 3])
    assert game.to_move(state) is None and state.placed == 49
    assert game.outcome(state) is not None
    for text in ("a1=B", "resign", "pass"):
        with pytest.raises(GameOver):
            game.parse_action(state, text)


def test_turn_order_player_1_moves_first_and_alternates() -> None:
    game = Colors()
    assert game.to_move(play(game, [])) == 0
    assert game.to_move(play(game, ["a1=B"])) == 1
    assert game.to_move(play(game, ["a1=B", "a2=B"])) == 0


def test_every_colour_is_open_to_both_players_on_every_empty_square() -> None:
    game = Colors()
    state = play(game, ["d4=R"])
    actions = {game.format_action(state, a) for a in game.legal_actions(state)}
    assert len(actions) == 48 * 5
    assert {"a1=B", "a1=R", "a1=G", "a1=Y", "a1=P"} <= actions
    assert not any(a.startswith("d4=") for a in actions)


# -- Colors 7x7: notation -----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "canonical"),
                         [("d4=R", "d4=R"), ("a1=P", "a1=P"), ("g7=Y", "g7=Y"),
                          ("D4=r", "d4=R"), ("  e5=g  ", "e5=G")])
def test_legal_placements_are_read_in_any_case(text: str, canonical: str) -> None:
    game = Colors()
    state = game.initial_state(2)
    assert game.format_action(state, game.parse_action(state, text)) == canonical


@pytest.mark.parametrize(("before", "text", "words"),
                         [(["d4=R"], "d4=G", "occupied"), ([], "d4=O", "orange"),
                          ([], "h1=B", "off the 7x7 board"), ([], "d8=B", "off the 7x7 board"),
                          ([], "pass", "pass"), ([], "d4=W", "not a colour")])
def test_illegal_actions_are_rejected_leaving_the_position(before: list[str], text: str,
                                                           words: str) -> None:
    game = Colors()
    state = play(game, before)
    copy = ColorsState(state.board, state.placed, state.resigned)
    with pytest.raises(IllegalAction, match=words):
        game.parse_action(state, text)
    assert state == copy and game.to_move(state) == len(before) % 2


@pytest.mark.parametrize("text", ["d4", "=R", "d4=RG", "d4 = R", "d4R", "", "place d4"])
def test_malformed_actions(text: str) -> None:
    game = Colors()
    with pytest.raises(MalformedAction) as info:
        game.parse_action(game.initial_state(2), text)
    assert "\n" not in str(info.value)


def test_resign_ends_the_game_with_the_other_player_winning() -> None:
    game = Colors()
    for before, loser in (([], 0), (["a1=B"], 1)):
        state = play(game, before)
        action = game.parse_action(state, "Resign")
        assert action == RESIGN and game.format_action(state, action) == "resign"
        state = game.apply(state, action)
        outcome = game.outcome(state)
        assert outcome is not None and outcome.termination == "resignation"
        assert outcome.winners == [1 - loser]


def test_colors_has_no_options_and_no_position_encoding() -> None:
    with pytest.raises(GameError, match="no option"):
        Colors({"size": "9"})
    with pytest.raises(GameError, match="position"):
        Colors().decode_position("zz", 2)


# -- 8x8 Colors ------------------------------------------------------------------------------------


def test_8x8_full_board_example_scores_94_and_52() -> None:
    game = Colors8x8()
    state = board_state(game, EXAMPLE_8)
    p1, p2 = game.breakdown(state.board)
    assert (p1.runs, p1.colours, p1.palindromes, p1.total) == (24, 40, 30, 94)
    assert (p2.runs, p2.colours, p2.palindromes, p2.total) == (9, 33, 10, 52)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == [0]


def test_8x8_overlapping_palindromes_both_count() -> None:
    game = Colors8x8()
    assert game.breakdown(one_row(game, "RGBGRGBO").board)[0].palindromes == 10


def test_8x8_one_colour_window_counts() -> None:
    game = Colors8x8()
    assert game.breakdown(one_row(game, "YYYYYPOB").board)[0].palindromes == 5
    assert game.breakdown(one_row(game, "OOOOOOOO").board)[0].palindromes == 20


def test_8x8_middle_disc_is_free() -> None:
    game = Colors8x8()
    assert game.breakdown(one_row(game, "RBGBR...").board)[0].palindromes == 5
    assert game.breakdown(one_row(game, "RBGBY...").board)[0].palindromes == 0


def test_8x8_window_with_an_empty_square_scores_only_once_filled() -> None:
    game = Colors8x8()
    state = play(game, ["a1=R", "b1=B", "d1=B", "e1=R"])
    assert game.scores(state)[0] == 6
    state = game.apply(state, game.parse_action(state, "c1=G"))
    assert game.scores(state) == [11, 0]


def test_8x8_running_example_player_2_scores_nothing_throughout() -> None:
    game = Colors8x8()
    state = game.initial_state(2)
    for text in ("a1=R", "b1=B", "d1=B", "e1=R", "c1=G"):
        state = game.apply(state, game.parse_action(state, text))
        assert game.scores(state)[1] == 0


def test_8x8_column_palindromes_count_for_player_2_only() -> None:
    game = Colors8x8()
    state = board_state(game, EXAMPLE_8)
    # Columns c (4-8 BYPYB) and e (3-7 YBOBY) give Player 2 10 palindrome points.
    assert game.breakdown(state.board)[1].palindromes == 10
    column = board_state(game, "\n".join(
        [". . . . . . . ."] * 3 + ["R . . . . . . ."] + ["B . . . . . . ."]
        + ["G . . . . . . ."] + ["B . . . . . . ."] + ["R . . . . . . ."]))
    p1, p2 = game.breakdown(column.board)
    assert p2.palindromes == 5 and p1.palindromes == 0


def test_8x8_colour_once_per_column_scores_nothing_for_player_2() -> None:
    game = Colors8x8()
    state = board_state(game, EXAMPLE_8)
    red_only = ColorsState(tuple(d if d == 2 else 0 for d in state.board), 8)
    assert game.breakdown(red_only.board)[1].colours == 0


def test_8x8_run_of_eight_scores_36() -> None:
    game = Colors8x8()
    part = game.breakdown(one_row(game, "GGGGGGGG").board)[0]
    assert part.runs == 36


def test_8x8_all_orange_board_gives_484_each_and_a_draw() -> None:
    game = Colors8x8()
    state = board_state(game, "\n".join(["O O O O O O O O"] * 8))
    assert game.scores(state) == [484, 484]
    outcome = game.outcome(state)
    assert outcome is not None and outcome.results[1].result == "draw"


@pytest.mark.parametrize("salt", range(5))
def test_8x8_a_board_symmetric_about_the_diagonal_is_a_draw(salt: int) -> None:
    game = Colors8x8()
    grid = [[""] * 8 for _ in range(8)]
    for r in range(8):
        for f in range(r, 8):
            grid[r][f] = grid[f][r] = "BRGYPO"[(r * 5 + f * 7 + r * f * salt + salt) % 6]
    state = board_state(game, "\n".join(" ".join(row) for row in grid))
    assert game.scores(state)[0] == game.scores(state)[1]
    outcome = game.outcome(state)
    assert outcome is not None and outcome.results[0].result == "draw"


def test_8x8_exactly_64_placements_player_2_makes_the_last() -> None:
    game = Colors8x8()
    state = game.initial_state(2)
    for ply in range(64):
        assert game.to_move(state) == ply % 2
        state = game.apply(state, game.legal_actions(state)[-1])
    assert game.to_move(state) is None
    with pytest.raises(GameOver):
        game.parse_action(state, "a1=B")


@pytest.mark.parametrize(("text", "canonical"),
                         [("d4=R", "d4=R"), ("h8=O", "h8=O"), ("a1=b", "a1=B")])
def test_8x8_legal_placements(text: str, canonical: str) -> None:
    game = Colors8x8()
    state = game.initial_state(2)
    assert game.format_action(state, game.parse_action(state, text)) == canonical


@pytest.mark.parametrize(("before", "text", "words"),
                         [(["d4=R"], "d4=Y", "occupied"), ([], "i1=B", "off the 8x8"),
                          ([], "a9=B", "off the 8x8"), ([], "d4=W", "W is not a colour"),
                          ([], "pass", "pass")])
def test_8x8_illegal_actions_leave_position_and_turn(before: list[str], text: str,
                                                      words: str) -> None:
    game = Colors8x8()
    state = play(game, before)
    with pytest.raises(IllegalAction, match=words):
        game.parse_action(state, text)
    assert game.to_move(state) == len(before) % 2 and state.placed == len(before)


@pytest.mark.parametrize("text", ["d4 = R", "d4R"])
def test_8x8_malformed_actions(text: str) -> None:
    with pytest.raises(MalformedAction):
        Colors8x8().parse_action(Colors8x8().initial_state(2), text)


@pytest.mark.parametrize("text", ["d4 = R", "d4= R", "d4 =R"])
def test_blanks_inside_a_placement_are_named_as_the_fault(text: str) -> None:
    for game in (Colors(), Colors8x8()):
        with pytest.raises(MalformedAction, match="no blanks inside") as info:
            game.parse_action(game.initial_state(2), text)
        assert "end of text" not in str(info.value)


def test_pass_cites_the_no_pass_decision_of_each_rules_file() -> None:
    # colors.md D7 and colors-8x8.md D8 forbid passing; 8x8 D7 is about shared colours.
    for game, rule in ((Colors(), "(D7)"), (Colors8x8(), "(D8)")):
        with pytest.raises(IllegalAction) as info:
            game.parse_action(game.initial_state(2), "PASS")
        assert str(info.value).endswith(rule)


# -- the scoring memo gives exactly the rules' scores ------------------------------------------


def reference_score(game: Colors, board: tuple[int, ...], by_rows: bool) -> int:
    """One player's score straight from the rules text, line by line, with no shortcut."""
    n = game.size
    lines = [[board[r * n + f] if by_rows else board[f * n + r] for f in range(n)]
             for r in range(n)]
    total = 0
    for line in lines:
        longest = max((end - start for start in range(n) for end in range(start + 1, n + 1)
                       if line[start] and len(set(line[start:end])) == 1), default=0)
        total += value(longest)
        if game.palindromes:
            total += 5 * sum(1 for i in range(n - 4) if 0 not in line[i:i + 5]
                             and line[i:i + 5] == line[i:i + 5][::-1])
    for colour in range(1, len(game.colour_letters) + 1):
        total += value(max(line.count(colour) for line in lines))
    return total


@pytest.mark.parametrize("game_class", [Colors, Colors8x8])
def test_scores_match_the_rules_on_random_boards_full_and_partial(
        game_class: type[Colors]) -> None:
    game = game_class()
    rng = random.Random(game.id)
    k = len(game.colour_letters)
    for trial in range(300):
        fill = trial % 11 / 10  # empty to full boards
        few = rng.randint(1, k)  # few colours make long runs and palindromes likely
        board = tuple(rng.randint(1, few) if rng.random() < fill else 0
                      for _ in range(game.size ** 2))
        state = ColorsState(board, sum(1 for d in board if d))
        expected = [reference_score(game, board, True), reference_score(game, board, False)]
        assert game.scores(state) == expected, board
        assert [p.total for p in game.breakdown(board)] == expected


def test_scores_of_a_board_one_disc_apart_learn_only_its_row_and_column() -> None:
    game = Colors8x8()
    state = play(game, ["a1=R", "b1=B", "d1=B", "e1=R", "c1=G", "c2=G"])
    game.scores(state)
    known = len(game._memo[0])
    for action in game.legal_actions(state)[:40]:
        game.scores(game.apply(state, action))
    assert len(game._memo[0]) <= known + 2 * 40  # one new row and one new column at most


def test_scores_stay_right_when_the_memo_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(colors_module, "MEMO_LIMIT", 12)
    game = Colors8x8()
    state = board_state(game, EXAMPLE_8)
    for _ in range(3):
        assert game.scores(state) == [94, 52]
        assert len(game._memo[0]) <= 12
        p1, p2 = game.breakdown(state.board)
        assert (p1.runs, p1.colours, p1.palindromes) == (24, 40, 30)
        assert (p2.runs, p2.colours, p2.palindromes) == (9, 33, 10)


# -- through the CLI ---------------------------------------------------------------------------


def test_show_gives_both_running_scores_as_a_table_and_in_json(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", "colors-8x8", "-o", str(path)]).exit_code == 0
    for text in ("a1=R", "b1=B", "d1=B", "e1=R", "c1=G"):
        assert runner.invoke(cli, ["move", str(path), text]).exit_code == 0
    out = runner.invoke(cli, ["show", str(path)]).output
    assert "palindromes" in out and "total" in out
    row = next(line for line in out.splitlines() if line.startswith("Player 1  rows"))
    assert row.split()[-4:] == ["0", "6", "5", "11"]
    assert "1  R  B  G  B  R  .  .  ." in out
    data = json.loads(runner.invoke(cli, ["show", str(path), "--json"]).output)
    assert data["scores"] == {"p1": 11, "p2": 0}
    assert data["position"]["ranks"]["1"] == "RBGBR..."


@pytest.mark.parametrize(("gid", "text", "verdict"), [
    ("colors", "d4=G", "occupied"), ("colors", "d4=O", "orange"), ("colors", "h1=B", "off"),
    ("colors", "d8=B", "off"), ("colors", "pass", "pass"), ("colors", "d4=RG", "malformed"),
    ("colors-8x8", "d4=Y", "occupied"), ("colors-8x8", "d4=W", "W is not"),
    ("colors-8x8", "i1=B", "off"), ("colors-8x8", "a9=B", "off"),
    ("colors-8x8", "pass", "pass"), ("colors-8x8", "d4R", "malformed")])
def test_a_rejected_move_leaves_the_record_position_and_turn(tmp_path: Path, gid: str,
                                                              text: str, verdict: str) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", gid, "-o", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(path), "d4=R"]).exit_code == 0
    before = path.read_text()
    result = runner.invoke(cli, ["move", str(path), text])
    assert result.exit_code != 0 and verdict in result.output
    assert len(result.output.strip().splitlines()) == 1  # one line: what, where, why
    assert path.read_text() == before
    shown = json.loads(runner.invoke(cli, ["show", str(path), "--json"]).output)
    assert shown["position"]["placed"] == 1 and shown["position"]["ranks"]["4"][3] == "R"
    assert "p2 to move" in runner.invoke(cli, ["show", str(path)]).output


def test_sample_records_validate_and_end() -> None:
    paths = sorted((SAMPLES / "colors").glob("*.gtn")) + sorted(
        (SAMPLES / "colors-8x8").glob("*.gtn"))
    assert len(paths) >= 4
    for path in paths:
        session = load_one(path.read_text(), str(path))
        assert session.game.outcome(session.state) is not None, path
    result = CliRunner().invoke(cli, ["validate", *map(str, paths)])
    assert result.exit_code == 0, result.output


def test_worked_example_samples_end_with_the_example_scores() -> None:
    for gid, scores in (("colors", [90, 33]), ("colors-8x8", [94, 52])):
        session = load_one((SAMPLES / gid / "worked-example.gtn").read_text())
        assert session.game.scores(session.state) == scores
