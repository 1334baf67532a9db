"""Tawula: every decision, worked example and edge case of rules/tawula.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from race_reference import (
    accepted,
    check_against_reference,
    check_random_game_encodings,
    engine_turns,
    play,
    pos,
    random_endgames,
    random_positions,
    reference_turns,
    refused,
    texts,
)

from gametool.cli import cli
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameError, IllegalAction, MalformedAction
from gametool.games.race import Tawula
from gametool.records import Session, check_text

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "tawula"


def game(**options: str) -> Tawula:
    return Tawula(options)


def targets(text: str) -> list[str]:
    """The target of every sub-move of a turn's text."""
    return [sub.split("/")[1].rstrip("*") for sub in text.split()]


def roll(g: Tawula, state, text: str):
    return g.apply(state, g.parse_action(state, text))


def illegal(g: Tawula, state, text: str, *words: str) -> str:
    with pytest.raises(IllegalAction) as info:
        g.parse_action(state, text)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


# -- setup and the opening (D2, D3) -----------------------------------------------------------


def test_setup_two_on_each_start_point_and_thirteen_in_hand() -> None:
    g = game()
    s = g.initial_state(2)
    assert s.counts[0][0] == 2 and s.counts[1][12] == 2
    assert sum(s.counts[0]) == 2 and sum(s.counts[1]) == 2
    assert s.hand == (13, 13)
    assert g.to_move(s) == CHANCE


def test_opening_roll_higher_die_moves_first_with_both_numbers() -> None:
    g = game()
    s = roll(g, g.initial_state(2), "roll 5-3")
    assert g.to_move(s) == 0 and s.dice == (5, 3)
    s = play(g, s, "h/6 h/4")
    assert s.counts[0][5] == 1 and s.counts[0][3] == 1


def test_opening_roll_3_5_gives_white_the_first_turn_without_a_new_roll() -> None:
    g = game()
    s = roll(g, g.initial_state(2), "roll 3-5")
    assert g.to_move(s) == 1 and s.dice == (5, 3)
    assert "h/18 h/16" in texts(g, s)


def test_tied_opening_roll_is_void_and_rolled_again() -> None:
    g = game()
    s = roll(g, g.initial_state(2), "roll 4-4")
    assert g.to_move(s) == CHANCE and s.opening
    s = roll(g, s, "roll 2-2")
    assert g.to_move(s) == CHANCE
    assert len(g.chance_outcomes(s)) == 36  # the opening roll keeps its order


def test_opening_black_starts_with_an_ordinary_roll() -> None:
    g = game(opening="black")
    s = g.initial_state(2)
    assert len(g.chance_outcomes(s)) == 21
    s = roll(g, s, "roll 3-5")
    assert g.to_move(s) == 0 and s.dice == (5, 3)
    s = roll(g, g.initial_state(2), "roll 4-4")
    assert g.to_move(s) == 0 and s.dice == (4, 4)


def test_dice_of_an_ordinary_roll_may_be_typed_in_either_order() -> None:
    g = game(opening="black")
    s = g.initial_state(2)
    assert g.parse_action(s, "roll 4-6") == g.parse_action(s, "ROLL 6-4") == ("roll", 6, 4)
    assert g.format_action(s, ("roll", 6, 4)) == "roll 6-4"


def test_a_roll_must_be_possible() -> None:
    g = game()
    with pytest.raises(MalformedAction):
        g.parse_action(g.initial_state(2), "roll 7-1")
    with pytest.raises(IllegalAction):
        g.parse_action(g.initial_state(2), "h/6 h/4")


def test_white_entries_after_roll_6_1() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, seat="W", dice=(6, 1))
    assert "h/19 h/14" in texts(g, s)


# -- start point (D4) and its limit ------------------------------------------------------------


def test_start_point_frozen_while_figures_are_in_hand() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(5, 3))
    illegal(g, s, "1/6", "frozen", "D4")
    assert not any(t.startswith("1/") for t in texts(g, s))


def test_start_point_moves_once_the_hand_is_empty() -> None:
    g = game()
    board = {"B": {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1,
                   12: 3}, "W": {13: 2}}
    s = pos(g, board, hand={"B": 0}, dice=(6, 6))
    assert any("1/7" in t for t in texts(g, s)) is False  # 7 is taken by a Black figure
    s = pos(g, {"B": {1: 2, 12: 13}, "W": {13: 2}}, hand={"B": 0}, dice=(5, 3))
    assert "1/6 1/4" in texts(g, s)


def test_start_point_frozen_also_counts_figures_beyond_the_first_two() -> None:
    g = game()
    s = pos(g, {"B": {1: 1, 12: 1}, "W": {13: 2}}, bar={"B": 0}, dice=(5, 3))
    illegal(g, s, "1/6 h/4", "D4")


def test_reentry_with_a_one_onto_a_full_start_point_is_illegal() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, bar={"B": 1}, dice=(4, 1))
    illegal(g, s, "bar/1 bar/4", "at most 2")
    assert texts(g, s) == {"bar/4 h/2", "bar/4 4/5"}


def test_reentry_onto_the_start_point_is_legal_with_room() -> None:
    g = game()
    s = pos(g, {"B": {1: 1}, "W": {13: 2}}, bar={"B": 1}, dice=(4, 1))
    assert any(t.startswith("bar/1") for t in texts(g, s))


# -- packing, blocking, hitting (D12) ----------------------------------------------------------


def test_packing_limit_one_figure_on_points_2_to_11() -> None:
    g = game()
    for point in range(2, 12):
        s = pos(g, {"B": {1: 2, point: 1, 12: 1}, "W": {13: 2}}, hand={"B": 11})
        for t in texts(g, s):
            assert str(point) not in targets(t), (point, t)


def test_no_limit_on_the_head_and_beyond() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 6: 1, 8: 1, 12: 4, 20: 3}, "W": {13: 2}}, hand={"B": 4},
            dice=(6, 2))
    assert "6/12 h/3" in texts(g, s) and "12/18 20/22" in texts(g, s)
    s2 = pos(g, {"B": {1: 2, 12: 3, 14: 2}, "W": {13: 2}}, hand={"B": 8}, dice=(2, 2))
    assert any("12/14 12/14" in t for t in texts(g, s2))


def test_a_point_with_two_white_figures_is_closed_to_black() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2, 5: 2}}, dice=(4, 4))
    illegal(g, s, "h/5", "closed", "White")
    assert all("/5" not in t for t in texts(g, s))


def test_black_entry_hits_a_lone_white_figure_which_goes_to_the_bar() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2, 5: 1}}, dice=(4, 2))
    assert "h/5* h/3" in texts(g, s)
    after = play(g, s, "h/5 h/3")
    assert after.bar == (0, 1) and after.hand == (11, 12) and after.counts[1][4] == 0


def test_move_hits_a_lone_white_figure() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 7: 1}, "W": {13: 2, 10: 1}}, dice=(3, 1))
    assert any(t.startswith("7/10*") or " 7/10*" in t for t in texts(g, s))


def test_both_dice_on_one_figure_need_the_intermediate_point_open() -> None:
    g = game()
    board = {"B": {1: 2, 5: 1, 12: 12}, "W": {13: 2, 8: 2}}
    s = pos(g, board, hand={"B": 0}, dice=(4, 3))
    illegal(g, s, "5/8 8/12", "closed")
    assert all(not t.startswith("5/8") for t in texts(g, s))
    board["W"] = {13: 2}
    s = pos(g, board, hand={"B": 0}, dice=(4, 3))
    assert accepted(g, s, "5/8 8/12") == "5/8 8/12"


def test_a_typed_turn_is_recorded_as_typed_in_order_and_path() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 5: 1, 12: 12}, "W": {13: 2}}, hand={"B": 0}, dice=(4, 3))
    listed = texts(g, s)
    assert "5/8 8/12" not in listed  # the tool's own spelling of that position differs
    assert accepted(g, s, "5/8 8/12") == "5/8 8/12"
    assert accepted(g, s, "12/16 5/8") == "12/16 5/8"
    assert accepted(g, s, "5/8 12/16") == "5/8 12/16"
    session = Session.start("tawula", ["ann", "ben"], {"opening": "black"})
    session.play(["roll 4-3", "h/4 h/5", "roll 6-1", "h/14 h/19"])
    assert [step.text for step in session.steps[1::2]] == ["h/4 h/5", "h/14 h/19"]
    listed = {g.format_action(session.states[-2], a)
              for a in g.legal_actions(session.states[-2])}
    assert "h/19 h/14" in listed and "h/14 h/19" not in listed  # the tool's own spelling


def test_worked_example_double_three_with_entry_between_moves() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 4: 1, 6: 1}, "W": {13: 2}}, dice=(3, 3))
    assert accepted(g, s, "4/7 h/4 7/10 4/7") == "4/7 h/4 7/10 4/7"
    illegal(g, s, "h/4 4/7 7/10 10/13", "packing limit")


# -- using the dice (D5) -------------------------------------------------------------------


def _higher_die(extra_white: dict[int, int]) -> tuple[Tawula, object]:
    g = game()
    white = {13: 2, 12: 2, **extra_white}
    return g, pos(g, {"B": {2: 1, 24: 14}, "W": white}, hand={"B": 0}, dice=(6, 4))


def test_higher_die_must_be_played_when_only_one_can_be() -> None:
    g, s = _higher_die({})
    assert texts(g, s) == {"2/8"}
    illegal(g, s, "2/6", "higher die 6", "D5")


def test_lower_die_when_the_higher_cannot_be_played() -> None:
    g, s = _higher_die({8: 2})
    assert texts(g, s) == {"2/6"}


def test_both_dice_must_be_used_when_possible() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(5, 3))
    illegal(g, s, "h/6", "2 can be played", "D5")


def test_double_gives_four_sub_moves() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 12: 1}, "W": {13: 2}}, dice=(2, 2))
    assert all(len(t.split()) == 4 for t in texts(g, s))


def test_double_when_only_three_can_be_played_exactly_three_must_be() -> None:
    g = game()
    s = pos(g, {"B": {12: 1, 24: 14}, "W": {13: 2, 20: 2}}, hand={"B": 0}, dice=(2, 2))
    assert texts(g, s) == {"12/14 14/16 16/18"}
    illegal(g, s, "12/14 14/16", "3 can be played")


def test_pass_when_no_sub_move_is_possible() -> None:
    g = game()
    s = pos(g, {"B": {12: 1, 24: 14}, "W": {13: 2, 17: 2}}, hand={"B": 0}, dice=(5, 5))
    assert g.legal_actions(s) == [()]
    assert texts(g, s) == {"pass"}
    after = play(g, s, "pass")
    assert after.seat == 1 and after.plies == 1
    s2 = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(5, 5))
    illegal(g, s2, "pass", "D11")


def test_a_position_both_dice_reach_is_the_turn_that_uses_both() -> None:
    # 20/off (the 6, farthest back) leaves the 1 unplayable (24 is closed), and 20/21 21/off
    # reaches the same position with both dice: D5 makes the two-dice sequence the turn.
    g = game()
    s = pos(g, {"B": {20: 1, 23: 1}, "W": {24: 2}}, hand={"W": 0}, off={"B": 13, "W": 13},
            dice=(6, 1))
    assert texts(g, s) == {"20/21 21/off"}
    illegal(g, s, "20/off", "2 can be played", "D5")
    assert g.format_action(s, g.parse_action(s, "20/21 21/off")) == "20/21 21/off"


def test_courtesy_keeps_a_position_reached_with_more_dice() -> None:
    # 19/off alone and 19/23 23/off reach the same position; with every prefix a candidate
    # (courtesy=on) it must still count as using both dice and be listed.
    for option in ("off", "on"):
        g = game(courtesy=option)
        s = pos(g, {"B": {19: 1, 24: 2}, "W": {13: 2}}, off={"B": 12}, dice=(6, 4))
        assert texts(g, s) == {"19/off 24/off", "19/23 23/off"}, option
        assert engine_turns(g, s) == reference_turns(g, s)


# -- bar priority (D6) ---------------------------------------------------------------------


def test_white_reentry_before_entry_from_hand() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, bar={"W": 1}, seat="W", dice=(4, 2))
    assert accepted(g, s, "bar/16 h/15") == "bar/16 h/15"
    illegal(g, s, "h/15 bar/16", "re-enter first", "D6")


def test_bar_priority_board_allows_entries_from_hand_first() -> None:
    s_all = pos(game(), {"B": {1: 2}, "W": {13: 2}}, bar={"B": 1}, dice=(4, 3))
    illegal(game(), s_all, "h/5 bar/3", "D6")
    g = game(bar_priority="board")
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, bar={"B": 1}, dice=(4, 3))
    assert accepted(g, s, "h/5 bar/3") == "h/5 bar/3"


def test_bar_priority_board_still_holds_back_board_figures() -> None:
    g = game(bar_priority="board")
    s = pos(g, {"B": {1: 2, 8: 1}, "W": {13: 2, 4: 2, 3: 2}}, bar={"B": 1}, dice=(4, 3))
    assert all("8/" not in t for t in texts(g, s))


def test_no_open_reentry_point_means_pass_even_with_entries_possible() -> None:
    g = game()
    board = {"B": {1: 2}, "W": {13: 2, 5: 2, 3: 2}}
    s = pos(g, board, bar={"B": 1}, dice=(5, 3))
    assert texts(g, s) == {"pass"}
    assert "pass" not in texts(game(bar_priority="board"),
                                pos(game(bar_priority="board"), board, bar={"B": 1},
                                    dice=(5, 3)))


def test_a_hit_figure_reenters_from_the_bar_never_from_the_hand() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 12: 1}, "W": {13: 2, 15: 1}}, dice=(3, 1))
    after = play(g, s, "12/15 h/2")
    assert after.bar[1] == 1 and after.hand[1] == 12


# -- bearing off (D7, D8) ------------------------------------------------------------------


def test_bear_off_farthest_back_with_a_larger_die_and_exact() -> None:
    g = game()
    s = pos(g, {"B": {20: 7, 23: 6}, "W": {13: 2}}, off={"B": 2}, dice=(6, 2))
    assert accepted(g, s, "20/off 23/off") == "20/off 23/off"


@pytest.mark.parametrize("where", ["board", "hand", "bar"])
def test_no_bear_off_while_a_figure_is_outside_the_home_table(where: str) -> None:
    g = game()
    board = {"B": {20: 7, 24: 6}, "W": {13: 2}}
    kwargs: dict = {"off": {"B": 1}}
    if where == "board":
        board["B"][18] = 1
        kwargs["hand"] = {"B": 0}
    elif where == "hand":
        kwargs["hand"] = {"B": 1}
    else:
        kwargs["hand"] = {"B": 0}
        kwargs["bar"] = {"B": 1}
    s = pos(g, board, dice=(1, 2), **kwargs)
    assert all(not t.startswith("24/off") for t in texts(g, s))
    with pytest.raises(IllegalAction):
        g.parse_action(s, "24/off 20/22")
    if where != "board":
        assert all("off" not in t for t in texts(g, s))


def test_bear_off_later_in_the_turn_once_the_last_figure_is_home() -> None:
    g = game()
    s = pos(g, {"B": {18: 1, 20: 7, 24: 6}, "W": {13: 2}}, off={"B": 1}, hand={"B": 0},
            dice=(2, 1))
    assert accepted(g, s, "18/20 24/off") == "18/20 24/off"
    illegal(g, s, "24/off 18/20", "D7")


def test_larger_die_bears_off_the_farthest_back_only() -> None:
    g = game()
    s = pos(g, {"B": {19: 1, 22: 1}, "W": {13: 2}}, off={"B": 13}, dice=(6, 4))
    assert accepted(g, s, "19/off 22/off") == "19/off 22/off"
    s = pos(g, {"B": {19: 1, 22: 1}, "W": {13: 2}}, off={"B": 13}, dice=(4, 1))
    assert all("22/off" not in t for t in texts(g, s))
    assert accepted(g, s, "19/23 23/24") == "19/23 23/24"
    illegal(g, s, "22/off", "farthest-back")


def test_bear_off_either_die_could_make_uses_the_lower() -> None:
    g = game()
    s = pos(g, {"B": {23: 1, 24: 2}, "W": {13: 2}}, off={"B": 12}, dice=(6, 5))
    # 23/off needs a 2: both dice are larger, D8 takes the 5 and leaves the 6 for 24/off.
    assert accepted(g, s, "23/off 24/off") == "23/off 24/off"


# -- courtesy (D9) ---------------------------------------------------------------------------


def _courtesy(option: str, black_extra: dict[int, int] | None = None):
    g = game(courtesy=option)
    black = {13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 1, 12: 1, 3: 1, **(black_extra or {})}
    s = pos(g, {"B": black, "W": {1: 2, 2: 1}}, hand={"B": 0}, off={"B": 2}, bar={"W": 1},
            dice=(6, 3))
    return g, s


def test_courtesy_forbids_shutting_out_an_opponent_on_the_bar() -> None:
    g, s = _courtesy("on")
    illegal(g, s, "12/18 3/6", "courtesy", "D9")
    assert "12/18 3/6" not in texts(g, s) and "3/6 12/18" not in texts(g, s)


def test_courtesy_allows_it_when_another_reentry_point_is_left_open() -> None:
    g, s = _courtesy("on")
    assert accepted(g, s, "12/18 13/16") == "12/18 13/16"


def test_courtesy_off_allows_the_shut_out() -> None:
    g, s = _courtesy("off")
    assert accepted(g, s, "12/18 3/6") == "12/18 3/6"


def test_courtesy_does_not_forbid_what_was_already_so() -> None:
    g = game(courtesy="on")
    black = {13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 3: 1}
    s = pos(g, {"B": black, "W": {1: 2, 2: 1}}, hand={"B": 0}, off={"B": 2}, bar={"W": 1},
            dice=(6, 3))
    assert g.legal_actions(s) != [()]
    assert any("3/9" in t for t in texts(g, s))


# -- the end (D10, D11, D13, D14) and resigning ------------------------------------------------


def test_bearing_off_the_15th_figure_wins_at_once_even_with_dice_left() -> None:
    g = game()
    s = pos(g, {"B": {24: 1}, "W": {13: 2}}, off={"B": 14}, dice=(6, 6))
    assert texts(g, s) == {"24/off"}
    after = play(g, s, "24/off")
    assert g.to_move(after) is None
    outcome = g.outcome(after)
    assert outcome.result_tag() == "1-0" and outcome.termination == "borne off"
    s = pos(g, {"B": {13: 2}, "W": {12: 1}}, off={"W": 14}, seat="W", dice=(3, 1))
    assert g.outcome(play(g, s, "12/off")).result_tag() == "0-1"


def test_ply_cap_draws_after_the_4th_player_action() -> None:
    g = game(max_plies="4", opening="black")
    s = g.initial_state(2)
    actions = 0
    while g.to_move(s) is not None:
        if g.to_move(s) == CHANCE:
            s = roll(g, s, "roll 2-1")
        else:
            s = g.apply(s, g.legal_actions(s)[0])
            actions += 1
    assert actions == 4
    assert g.outcome(s).result_tag() == "1/2-1/2" and g.outcome(s).termination == "max_plies"


def test_a_player_can_lock_itself_out_without_ending_the_game() -> None:
    g = game()
    # Black: a figure on the bar, 2 frozen on 1 and one on each of 2-6: no roll re-enters.
    black = {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}
    s = pos(g, {"B": black, "W": {13: 2, 7: 1}}, bar={"B": 1}, seat="W", dice=(6, 1))
    after = play(g, s, "7/8 h/19")
    assert g.outcome(after) is None  # White can still move
    assert after.seat == 0 and g.legal_actions(roll(g, after, "roll 6-5")) == [()]


def test_dead_position_when_nobody_can_move() -> None:
    g = game()
    black = {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}
    white = {13: 2, 14: 1, 15: 1, 16: 1, 17: 1, 7: 1}
    s = pos(g, {"B": black, "W": white}, bar={"B": 1}, seat="W", dice=(5, 5))
    assert g.legal_actions(s) != [()]
    locked = pos(g, {"B": black, "W": {13: 2, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1}},
                 bar={"B": 1, "W": 1}, seat="W", dice=(3, 2))
    assert texts(g, locked) == {"pass"}
    after = play(g, locked, "pass")
    outcome = g.outcome(after)
    assert outcome is not None and outcome.termination == "dead position"
    assert outcome.result_tag() == "1/2-1/2"


def test_resign_hands_the_win_to_the_opponent() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(6, 4))
    assert g.parse_action(s, "resign") == RESIGN
    assert RESIGN not in g.legal_actions(s)
    after = g.apply(s, RESIGN)
    assert g.outcome(after).result_tag() == "0-1"
    assert g.outcome(after).termination == "resignation"


def test_show_gives_every_seat_its_place_at_the_end() -> None:
    g = game()
    after = g.apply(pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(6, 4)), RESIGN)
    rows = [line.split() for line in g.render(after, None, ["ann", "ben"]).splitlines()]
    assert ["B", "Black", "ann", "13", "0", "0", "2"] in rows  # the figures stay shown
    assert ["W", "White", "ben", "13", "0", "0", "1"] in rows


# -- notation --------------------------------------------------------------------------------


def test_repeat_count_and_repeated_sub_moves_read_alike() -> None:
    g = game()
    s = pos(g, {"B": {14: 2}, "W": {13: 2, 22: 2}}, off={"B": 13}, dice=(4, 4))
    a = g.parse_action(s, "14/18(2)")
    assert a == g.parse_action(s, "14/18 14/18")
    assert g.format_action(s, a) == "14/18 14/18"


def test_hit_star_is_optional_on_input_and_written_on_output() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 7: 1}, "W": {13: 2, 10: 1}}, dice=(3, 1))
    action = g.parse_action(s, "7/10 h/2")
    assert g.format_action(s, action) == "7/10* h/2"
    assert g.parse_action(s, " 7/10* H/2 ") == action


def test_player_prefix_must_name_the_player_to_move() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 7: 1}, "W": {13: 2, 10: 1}}, seat="W", dice=(3, 1))
    illegal(g, s, "B: 7/10", "White's turn")
    s = pos(g, {"B": {1: 2, 7: 1}, "W": {13: 2, 10: 1}}, dice=(3, 1))
    assert g.parse_action(s, "b: 7/10 h/2") == g.parse_action(s, "7/10 h/2")
    with pytest.raises(MalformedAction):
        g.parse_action(s, "G: 7/10 h/2")


def test_output_has_no_player_prefix() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(5, 3))
    assert all(":" not in t for t in texts(g, s))


@pytest.mark.parametrize("text", ["25/3", "0/3", "3/25", "h/0", "bar/25", "07/10", "7/010"])
def test_points_outside_1_to_24_are_malformed(text: str) -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 3: 1, 7: 1}, "W": {13: 2}}, bar={"B": 1}, dice=(3, 1))
    with pytest.raises(MalformedAction) as info:
        g.parse_action(s, text)
    assert "point 1-24" in str(info.value) and "column" in str(info.value)


def test_bearing_off_from_outside_the_home_table_names_the_rule() -> None:
    g = game()
    s = pos(g, {"B": {1: 2, 5: 1}, "W": {13: 2}}, dice=(6, 4))
    illegal(g, s, "5/off", "5 is outside Black's home table (19-24)", "D7")


def test_a_sub_move_must_match_an_unused_die() -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(5, 3))
    illegal(g, s, "h/5 h/4", "needs a 4")
    illegal(g, s, "h/6 h/6", "needs a 5")


@pytest.mark.parametrize("text", ["", "h/", "25x", "h/6 / 3", "bar/off", "x: h/6", "roll"])
def test_malformed_actions_give_one_line_errors(text: str) -> None:
    g = game()
    s = pos(g, {"B": {1: 2}, "W": {13: 2}}, dice=(5, 3))
    with pytest.raises(GameError) as info:
        g.parse_action(s, text)
    assert "\n" not in str(info.value)


def test_every_listed_turn_is_unique_by_position() -> None:
    g = game()
    for s in random_positions(g, "unique", 200):
        reached = engine_turns(g, s)
        assert len(reached) == len(g.legal_actions(s))


# -- the differential test -----------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"courtesy": "on"}])
def test_engine_matches_the_reference_near_the_end_of_the_race(options: dict[str, str]) -> None:
    g = game(**options)
    for s in random_endgames(g, 5, 400):
        check_against_reference(g, s)


@pytest.mark.parametrize("options", [{}, {"bar_priority": "board"}, {"courtesy": "on"}])
def test_engine_matches_the_reference_generator(options: dict[str, str]) -> None:
    g = game(**options)
    positions = random_positions(g, f"diff-{sorted(options.items())}", 320, every=2)
    assert len(positions) >= 300
    for s in positions:
        check_against_reference(g, s)


# -- the CLI and records ---------------------------------------------------------------------


def _run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.output


def test_show_draws_the_board_hands_bars_and_last_roll(tmp_path: Path) -> None:
    f = tmp_path / "g.gtn"
    code, _ = _run(["start", "tawula", "--no-seed", "-o", str(f)])
    assert code == 0
    assert _run(["move", str(f), "roll 5-3", "h/6 h/4", "roll 2-1"])[0] == 0
    code, out = _run(["show", str(f)])
    assert code == 0
    assert "B2" in out and "W2" in out and "B1" in out
    assert "last roll: 2-1" in out and "hand" in out and "bar" in out and "off" in out
    code, out = _run(["show", "--json", str(f)])
    assert code == 0 and '"last_roll"' in out and '"hand"' in out


def test_moves_lists_whole_turns_without_duplicates(tmp_path: Path) -> None:
    f = tmp_path / "g.gtn"
    _run(["start", "tawula", "--no-seed", "-o", str(f)])
    _run(["move", str(f), "roll 4-2"])
    code, out = _run(["moves", str(f)])
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(set(lines))
    assert "h/5 h/3" in lines
    # h/5 5/7 and h/3 3/7 reach the same position: one turn, listed once
    assert ("h/5 5/7" in lines) != ("h/3 3/7" in lines)


RECORD = """[Game "tawula"]
[Players "Black; White"]
[Result "*"]

1. chance: roll 5-3
2. Black: {move}
"""


def _validate(tmp_path: Path, body: str) -> tuple[int, str]:
    f = tmp_path / "bad.gtn"
    f.write_text(RECORD.replace("{move}", body))
    return _run(["validate", str(f)])


def test_validate_accepts_typed_dice(tmp_path: Path) -> None:
    code, out = _validate(tmp_path, "h/6 h/4")
    assert code == 0, out


def test_validate_rejects_a_wrong_die_at_its_line_and_column(tmp_path: Path) -> None:
    code, out = _validate(tmp_path, "h/6 h/5")
    assert code == 1
    assert ":6:11: ply 2:" in out and "needs a 4" in out


def test_validate_rejects_an_unforced_sub_move_at_its_line_and_column(tmp_path: Path) -> None:
    code, out = _validate(tmp_path, "h/6")
    assert code == 1
    # the rule is named in words; decision numbers are for the rules file, not the player
    assert ":6:11: ply 2:" in out and "use as many dice as possible" in out and "D5" not in out


def test_chance_action_contradicting_the_seed_is_rejected() -> None:
    session = Session.start("tawula", seed="abc")
    text = session.text()
    first = text.index("chance: roll ") + len("chance: roll ")
    wrong = "6-6" if text[first:first + 3] != "6-6" else "5-5"
    verdicts = check_text(text[:first] + wrong + text[first + 3:], "x.gtn")
    assert any(v.errors for v in verdicts)


def test_sample_records_are_complete_and_valid() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    for f in files:
        verdicts = check_text(f.read_text(), str(f))
        assert all(not v.errors for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        session = Session.load(__import__("notation.record").record.parse(f.read_text())[0])
        assert session.game.outcome(session.state) is not None, f


# -- positions from the command line ----------------------------------------------------------


def _from_position(tmp_path: Path, position: str, *options: str) -> Path:
    f = tmp_path / "p.gtn"
    args = ["start", "tawula", "--no-seed", "--position", position, "-o", str(f), "--force"]
    for option in options:
        args += ["--option", option]
    code, out = _run(args)
    assert code == 0, out
    return f


def _moves(f: Path) -> set[str]:
    code, out = _run(["moves", str(f)])
    assert code == 0, out
    return set(out.split("\n")) - {""}


def test_position_encoding_round_trips_and_show_json_gives_it(tmp_path: Path) -> None:
    g = game()
    start = "B:1x2,h13 W:13x2,h13 turn=opening"
    assert g.encode_position(g.initial_state(2)) == start
    text = "B:1x2,7,12x3,h8,bar1 W:13x2,8x2,off3,h8 turn=W dice=4-6 plies=12"
    state = g.decode_position(text, 2)
    assert state.dice == (6, 4) and state.bar == (1, 0) and state.off == (0, 3)
    assert g.decode_position(g.encode_position(state), 2) == state
    f = _from_position(tmp_path, text)
    code, out = _run(["show", "--json", str(f)])
    assert code == 0 and g.encode_position(state) in out


@pytest.mark.parametrize(("position", "why"), [
    ("B:1x2,h13 W:13x2,h12 turn=B", "14 figures"),
    ("B:1x2,5,W:13x2 turn=B", "expected"),
    ("B:1x2,8 W:13x2,8 turn=B", "2 colours"),
    ("B:1x2,5x2 W:13x2 turn=B", "at most 1"),
    ("B:1x3 W:13x2 turn=B", "at most 2"),
    ("B:1x2,25 W:13x2 turn=B", "1-24"),
    ("B:1x2 W:13x2", "turn="),
    ("B:1x2 W:13x2 turn=B dice=7-1", "dice"),
    ("B:1x2 turn=B", "no group for seat W"),
])
def test_a_bad_position_is_one_clear_error(tmp_path: Path, position: str, why: str) -> None:
    f = tmp_path / "bad.gtn"
    result = CliRunner().invoke(cli, ["start", "tawula", "--no-seed", "--position", position,
                                      "-o", str(f)])
    assert result.exit_code == 1 and why in result.output and not f.exists()
    assert "Traceback" not in result.output


def test_edge_case_both_dice_on_one_figure_from_the_command_line(tmp_path: Path) -> None:
    closed = _from_position(tmp_path, "B:1x2,5,12x12 W:13x2,8x2 turn=B dice=4-3")
    assert _run(["move", str(closed), "5/8 8/12"])[0] == 1
    f = _from_position(tmp_path, "B:1x2,5,12x12 W:13x2 turn=B dice=4-3")
    assert _run(["move", str(f), "5/8 8/12"])[0] == 0
    assert "1. Black: 5/8 8/12\n" in f.read_text()  # as played, not the tool's 5/9 9/12
    assert _run(["validate", str(f)])[0] == 0


def test_edge_case_higher_die_from_the_command_line(tmp_path: Path) -> None:
    f = _from_position(tmp_path, "B:2,24x14 W:13x2,12x2 turn=B dice=6-4")
    assert _moves(f) == {"2/8"}
    f = _from_position(tmp_path, "B:2,24x14 W:13x2,12x2,8x2 turn=B dice=6-4")
    assert _moves(f) == {"2/6"}


def test_edge_case_bear_off_with_a_larger_die_from_the_command_line(tmp_path: Path) -> None:
    f = _from_position(tmp_path, "B:19,22,off13 W:13x2 turn=B dice=6-4")
    assert _run(["move", str(f), "19/off 22/off"])[0] == 0
    text = f.read_text()
    assert '[Result "1-0"]' in text and "19/off 22/off" in text
    f = _from_position(tmp_path, "B:19,22,off13 W:13x2 turn=B dice=4-1")
    assert not any("22/off" in m for m in _moves(f))
    assert _run(["move", str(f), "19/23 23/24"])[0] == 0


def test_edge_case_bar_priority_from_the_command_line(tmp_path: Path) -> None:
    position = "B:1x2,bar1,h12 W:13x2,18x1,17x1 turn=B dice=5-2"
    f = _from_position(tmp_path, position)
    assert _run(["move", str(f), "h/6 bar/2"])[0] == 1
    f = _from_position(tmp_path, position, "bar_priority=board")
    assert _run(["move", str(f), "h/6 bar/2"])[0] == 0
    assert "h/6 bar/2" in f.read_text()


# -- set-up positions that are already over, and the bound on plies -----------------------------


def _refused(tmp_path: Path, position: str, *words: str, options: tuple[str, ...] = ()) -> str:
    return refused("tawula", tmp_path, position, *words, options=options)


def _show(f: Path) -> dict:
    import json

    code, out = _run(["show", "--json", str(f)])
    assert code == 0, out
    return json.loads(out)


@pytest.mark.parametrize(("position", "words"), [
    # the first to bear off all 15 wins at once: no turn for anybody after that
    ("B:off15 W:13x2 turn=B", ("over", "Black has borne off all 15", "end=borne-off")),
    ("B:off15 W:13x2 turn=W", ("over", "end=borne-off")),
    ("B:off15 W:13x2 turn=W dice=6-4", ("over", "end=borne-off")),
    # resigning hands the win to the opponent
    ("B:1x2,left W:13x2 turn=W", ("over", "only White", "end=resignation")),
    # a dead position is drawn at once (D14): both locked out behind their own figures
    ("B:1x2,2,3,4,5,6,bar1 W:13x2,14,15,16,17,18,bar1 turn=B",
     ("over", "dead position", "end=dead-position")),
    # the cap draws the game after max_plies player actions (D13)
    ("B:1x2 W:13x2 turn=B plies=2000", ("over", "max_plies=2000", "end=max-plies")),
])
def test_a_finished_game_is_never_set_up_as_live(tmp_path: Path, position: str,
                                                 words: tuple[str, ...]) -> None:
    _refused(tmp_path, position, *words)


@pytest.mark.parametrize(("position", "result", "termination"), [
    ("B:off15 W:13x2 end=borne-off", "1-0", "borne off"),
    ("B:1x2,22,off12 W:off15 end=borne-off", "0-1", "borne off"),
    ("B:1x2,left W:13x2 end=resignation", "0-1", "resignation"),
    ("B:1x2,2,3,4,5,6,bar1 W:13x2,14,15,16,17,18,bar1 end=dead-position", "1/2-1/2",
     "dead position"),
    ("B:1x2 W:13x2 end=max-plies plies=2000", "1/2-1/2", "max_plies"),
])
def test_a_finished_game_is_set_up_with_its_ending(tmp_path: Path, position: str, result: str,
                                                   termination: str) -> None:
    f = _from_position(tmp_path, position)
    data = _show(f)
    assert data["over"] and data["to_move"] is None and data["position"]["turn"] is None
    assert data["result"]["termination"] == termination
    text = f.read_text()
    assert f'[Result "{result}"]' in text and f'[Termination "{termination}"]' in text
    assert _run(["validate", str(f)])[0] == 0
    assert _moves(f) == set()
    assert _run(["move", str(f), "roll 6-4"])[0] == 1
    # the encoding show gives starts the same finished game again
    again = _from_position(tmp_path, data["position"]["encoding"])
    assert _show(again)["position"] == data["position"]


@pytest.mark.parametrize(("position", "words"), [
    ("B:off15 W:off15 turn=B", ("only one seat", "all 15")),
    ("B:off15 W:off15 end=borne-off", ("only one seat", "all 15")),
    ("B:1x2,left W:13x2,left end=resignation", ("one seat",)),
    ("B:off15,left W:13x2 end=borne-off", ("Black", "left")),
    ("B:1x2 W:13x2 end=borne-off", ("end=borne-off", "not over", "turn=")),
    ("B:off15 W:13x2 end=resignation", ("end=resignation", "end=borne-off")),
    ("B:1x2 W:13x2 end=max-plies plies=10", ("end=max-plies", "not over")),
    ("B:1x2 W:13x2 end=mate", ("end=mate", "borne-off")),
    ("B:off15 W:13x2 turn=B end=borne-off", ("turn=", "end=", "not both")),
    ("B:off15 W:13x2 end=borne-off dice=6-4", ("dice=", "end=")),
    ("B:off15,place2 W:13x2 end=borne-off", ("place2", "1")),
    ("B:1x2,place1 W:13x2 turn=B", ("place1",)),
    ("B:1x2 W:13x2", ("turn=", "end=")),
])
def test_an_impossible_ending_is_one_clear_error(tmp_path: Path, position: str,
                                                 words: tuple[str, ...]) -> None:
    _refused(tmp_path, position, *words)


@pytest.mark.parametrize(("plies", "options", "words"), [
    ("2001", (), ("plies=2001", "max_plies=2000")),
    ("1000000", (), ("plies=1000000", "max_plies=2000")),
    ("99999999", (), ("plies=99999999", "max_plies=2000")),
    ("9" * 5000, (), ("max_plies=2000",)),
    ("11", ("max_plies=10",), ("plies=11", "max_plies=10")),
    ("10", ("max_plies=10",), ("over", "end=max-plies")),
    ("ten", (), ("plies=ten", "whole number")),
    ("-3", (), ("plies=-3", "whole number")),
])
def test_plies_is_checked_against_max_plies(tmp_path: Path, plies: str, options: tuple[str, ...],
                                            words: tuple[str, ...]) -> None:
    line = _refused(tmp_path, f"B:1x2 W:13x2 turn=B plies={plies}", *words, options=options)
    assert "expected a whole number" not in line or not plies.isdigit()
    assert len(line) < 300


def test_plies_below_the_cap_are_a_game_in_play(tmp_path: Path) -> None:
    f = _from_position(tmp_path, "B:1x2 W:13x2 turn=B dice=6-5 plies=1999")
    assert _run(["move", str(f), "h/7 h/6"])[0] == 0
    assert '[Result "1/2-1/2"]' in f.read_text()  # the 2000th player action draws (D13)
    f = _from_position(tmp_path, "B:1x2 W:13x2 turn=B plies=9", "max_plies=10")
    assert not _show(f)["over"]


def test_a_huge_count_in_a_group_is_one_clear_error(tmp_path: Path) -> None:
    _refused(tmp_path, "B:1x" + "9" * 5000 + " W:13x2 turn=B", "too large")
    _refused(tmp_path, "B:h" + "9" * 5000 + " W:13x2 turn=B", "too large")


def test_after_a_resignation_the_encoding_starts_the_same_finished_game(tmp_path: Path) -> None:
    f = tmp_path / "r.gtn"
    assert _run(["start", "tawula", "--no-seed", "-o", str(f)])[0] == 0
    assert _run(["move", str(f), "roll 5-3", "h/6 h/4", "roll 4-1", "resign"])[0] == 0
    data = _show(f)
    assert data["over"] and data["result"]["termination"] == "resignation"
    encoding = data["position"]["encoding"]
    assert encoding.endswith("end=resignation plies=2") and "turn=" not in encoding
    again = _from_position(tmp_path, encoding)
    shown = _show(again)
    assert shown["position"]["encoding"] == encoding
    assert {k: v for k, v in shown["position"].items() if k != "last_roll"} == \
        {k: v for k, v in data["position"].items() if k != "last_roll"}
    assert shown["result"] == data["result"]


@pytest.mark.parametrize(("options", "games"), [
    ({}, 6), ({"opening": "black"}, 3), ({"max_plies": "60"}, 6)])
def test_every_encoding_of_random_games_reads_back_as_the_same_position(
        options: dict[str, str], games: int, tmp_path: Path) -> None:
    # encoding -> decoding -> encoding is the identity on every state of random games, with
    # resignations branched off them, up to and including their ends; through the command
    # line for every end
    endings = check_random_game_encodings("tawula", options, games, tmp_path)
    count = sum(endings.values())
    assert count > 500 and endings.get("resignation") and len(endings) >= 3, endings


def test_a_resigner_has_no_place(tmp_path: Path) -> None:
    line = _refused(tmp_path, "B:1x2,left,place2 W:13x2 end=resignation", "place2",
                    "no place")
    assert "placings" not in line  # Tawula has no such option


@pytest.mark.parametrize("position, why", [
    ("B:1x2,h13 W:13x2,h13 turn=B turn=W", "turn= is given twice"),
    ("B:1x2,h13 W:13x2,h13 turn=B dice=4-3 dice=6-6", "dice= is given twice"),
    ("B:19,off14,off1 W:13x2,h13 turn=W", "B: off is given twice"),
    ("B:19,19,h13 W:13x2,h13 turn=B", "B: space 19 is given twice (write 19xN"),
    ("B:1x2,h12,h1 W:13x2,h13 turn=B", "B: h is given twice"),
])
def test_a_position_field_given_twice_is_refused(tmp_path: Path, position: str, why: str) -> None:
    out = tmp_path / "t.gtn"
    result = CliRunner().invoke(cli, ["start", "tawula", "--no-seed", "--position", position,
                                      "-o", str(out)])
    assert result.exit_code == 1 and why in result.stderr, result.stderr
    assert not out.exists()
