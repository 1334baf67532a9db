"""Track Gammon: every decision, worked example and edge case of rules/track-gammon.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from race_reference import (
    accepted,
    check_against_reference,
    check_encoding_round_trip,
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
from gametool.core.errors import IllegalAction, MalformedAction
from gametool.games.race import TrackGammon
from gametool.records import Session, check_text
from notation.record import parse

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "track-gammon"
START = {"B": {1: 2}, "G": {13: 2}, "W": {25: 2}}


def game(**options: str) -> TrackGammon:
    return TrackGammon(options)


def board(**extra: dict[int, int]) -> dict[str, dict[int, int]]:
    out = {k: dict(v) for k, v in START.items()}
    for letter, spaces in extra.items():
        out[letter].update(spaces)
    return out


def illegal(g: TrackGammon, state, text: str, *words: str) -> None:
    with pytest.raises(IllegalAction) as info:
        g.parse_action(state, text)
    for word in words:
        assert word in str(info.value), str(info.value)


def legal(g: TrackGammon, state, text: str) -> None:
    assert accepted(g, state, text) == text


# -- layout, order, first roll (D1-D3) -------------------------------------------------------


def test_layout_and_first_action() -> None:
    g = game()
    s = g.initial_state(3)
    assert [s.counts[q][sp] for q, sp in ((0, 0), (1, 12), (2, 24))] == [2, 2, 2]
    assert s.hand == (13, 13, 13)
    assert g.to_move(s) == CHANCE and len(g.chance_outcomes(s)) == 21
    s = g.apply(s, g.parse_action(s, "roll 6-5"))
    assert g.to_move(s) == 0


def test_fixed_turn_order_black_green_white() -> None:
    g = game()
    s = g.initial_state(3)
    seats = []
    for _ in range(4):
        s = g.apply(s, g.parse_action(s, "roll 2-1"))
        seats.append(g.to_move(s))
        s = g.apply(s, g.legal_actions(s)[0])
    assert seats == [0, 1, 2, 0]


def test_output_writes_the_player_prefix() -> None:
    g = game()
    s = pos(g, START, dice=(6, 5))
    assert "B: h/7 h/6" in texts(g, s)
    assert all(t.startswith("B: ") for t in texts(g, s))


# -- worked examples ---------------------------------------------------------------------------


def test_roll_6_5_enters_onto_special_space_7() -> None:
    g = game()
    s = play(g, pos(g, START, dice=(6, 5)), "B: h/7 h/6")
    assert s.counts[0][6] == 1 and s.counts[0][5] == 1


def test_roll_6_6_black_only_enters_one_figure_on_7() -> None:
    g = game()
    s = pos(g, START, dice=(6, 6))
    assert texts(g, s) == {"B: h/7"}
    illegal(g, s, "h/7 h/7", "special space 7")
    illegal(g, s, "h/7 7/13", "closed", "Green")
    illegal(g, s, "1/7", "start corner is frozen", "D4")


def test_green_and_white_first_turns() -> None:
    g = game()
    legal(g, pos(g, START, seat="G", dice=(6, 2)), "G: h/19 h/15")
    s = pos(g, START, seat="W", dice=(6, 6))
    assert texts(g, s) == {"W: h/31"}


def test_special_space_frees_once_its_figure_left_in_the_same_turn() -> None:
    g = game()
    s = pos(g, board(B={7: 1}), dice=(6, 4))
    legal(g, s, "B: 7/11 h/7")
    illegal(g, s, "B: h/7 7/11", "special space 7")


def test_three_colours_share_a_special_space_without_hits() -> None:
    g = game()
    s = pos(g, board(B={7: 1}, W={3: 1}, G={1: 1}), seat="W", dice=(4, 1))
    s = play(g, s, "W: 3/7 h/26")
    assert s.counts[0][6] == 1 and s.counts[2][6] == 1 and s.bar == (0, 0, 0)
    s = s._replace(seat=1, dice=(6, 1))
    s = play(g, s, "G: 1/7 h/14")
    assert [row[6] for row in s.counts] == [1, 1, 1]
    for letter in "BGW":
        three = board(B={7: 1}, G={7: 1}, W={7: 1})
        three[letter][3] = 1
        t = pos(g, three, seat=letter, dice=(4, 1))
        illegal(g, t, f"{letter}: 3/7", "special space 7")


def test_black_hits_a_lone_green_figure_which_must_reenter_first() -> None:
    g = game()
    s = pos(g, board(B={5: 1}, G={10: 1}), dice=(5, 1))
    assert "B: 5/10* h/2" in texts(g, s)
    s = play(g, s, "B: 5/10 h/2")
    assert s.bar == (0, 1, 0)
    s = s._replace(seat=1, dice=(4, 2))
    assert all(t.startswith("G: bar/") for t in texts(g, s))
    illegal(g, s, "G: h/15 bar/16", "D6")
    legal(g, s, "G: bar/16 h/15")


def test_two_green_figures_close_a_space_to_entries_but_not_to_passing() -> None:
    g = game()
    s = pos(g, board(B={2: 1}, G={4: 2}), dice=(4, 3))
    illegal(g, s, "B: h/4", "closed", "Green")
    legal(g, s, "B: 2/6 6/9")


def test_special_space_closed_only_by_an_own_figure() -> None:
    g = game()
    s = pos(g, board(B={19: 1, 15: 1}), hand={"B": 11}, dice=(4, 1))
    illegal(g, s, "B: 15/19", "special space 19")
    s = pos(g, board(B={15: 1}, G={19: 1}, W={19: 1}), dice=(4, 1))
    legal(g, s, "B: 15/19 h/2")
    after = play(g, s, "B: 15/19 h/2")
    assert [row[18] for row in after.counts] == [1, 1, 1] and after.bar == (0, 0, 0)


def test_green_moves_round_the_end_of_the_numbering() -> None:
    g = game()
    s = pos(g, board(G={35: 1}), hand={"G": 12}, seat="G", dice=(4, 1))
    legal(g, s, "G: 35/3 h/14")
    s = pos(g, board(W={36: 1}), hand={"W": 12}, seat="W", dice=(2, 1))
    legal(g, s, "W: 36/2 h/26")


def test_black_never_passes_36() -> None:
    g = game()
    s = pos(g, board(B={35: 1, 20: 1}), hand={"B": 11}, dice=(3, 1))
    assert all("35/2" not in t and "35/1" not in t for t in texts(g, s))
    with pytest.raises(IllegalAction):
        g.parse_action(s, "B: 35/2 20/21")


# -- packing (D6) ----------------------------------------------------------------------------


def test_packing_per_player_on_space_9() -> None:
    g = game()
    s = pos(g, board(B={9: 1, 6: 1}), dice=(3, 1))
    illegal(g, s, "B: 6/9 h/2", "packing limit")
    s = pos(g, board(G={9: 1, 6: 1, 8: 1}), hand={"G": 10}, seat="G", dice=(3, 1))
    legal(g, s, "G: 6/9 8/9")
    s = pos(g, board(W={9: 1, 6: 1}), seat="W", dice=(3, 1))
    illegal(g, s, "W: 6/9 h/26", "packing limit")


@pytest.mark.parametrize("letter", ["B", "G", "W"])
def test_all_three_may_stack_on_12_and_24(letter: str) -> None:
    g = game()
    for space in (12, 24):
        s = pos(g, board(**{letter: {space: 3, space - 2: 1}}), seat=letter, dice=(2, 1))
        after = play(g, s, f"{letter}: {space - 2}/{space} " + {
            "B": "h/2", "G": "h/14", "W": "h/26"}[letter])
        assert after.counts["BGW".index(letter)][space - 1] == 4


def test_start_corner_holds_at_most_two() -> None:
    g = game()
    s = pos(g, board(), bar={"G": 1}, seat="G", dice=(1, 2))
    illegal(g, s, "G: bar/13", "start corner holds at most 2")
    s = pos(g, board(G={13: 1}), bar={"G": 1}, seat="G", dice=(1, 2))
    legal(g, s, "G: bar/13 h/15")


# -- three colours (D7, D8) --------------------------------------------------------------------


def test_two_green_figures_close_a_space_to_black_and_white() -> None:
    g = game()
    s = pos(g, board(G={10: 2}, B={8: 1}), dice=(2, 1))
    illegal(g, s, "B: 8/10", "closed")
    s = pos(g, board(G={10: 2}, W={8: 1}), seat="W", dice=(2, 1))
    illegal(g, s, "W: 8/10", "closed")


@pytest.mark.parametrize("letter", ["B", "W"])
def test_a_lone_green_figure_is_hit_by_either_opponent(letter: str) -> None:
    g = game()
    s = pos(g, board(G={10: 1}, **{letter: {8: 1}}), seat=letter, dice=(2, 1))
    entry = {"B": "h/2", "W": "h/26"}[letter]
    after = play(g, s, f"{letter}: 8/10 {entry}")
    assert after.bar[1] == 1 and after.counts[1][9] == 0


def test_entries_with_a_six_land_on_the_special_spaces() -> None:
    g = game()
    for letter, special in (("B", 7), ("G", 19), ("W", 31)):
        s = pos(g, START, seat=letter, dice=(6, 1))
        assert any(f"h/{special}" in t for t in texts(g, s))
        s = pos(g, board(**{letter: {special: 1}}), seat=letter, dice=(6, 6))
        illegal(g, s, f"{letter}: h/{special}", f"special space {special}")


# -- re-entry, bar first (D5, D9) --------------------------------------------------------------


def test_green_reenters_on_13_to_18() -> None:
    g = game()
    s = pos(g, board(), bar={"G": 1}, seat="G", dice=(6, 3))
    found = texts(g, s)
    assert any(t.startswith("G: bar/18") for t in found)
    assert any(t.startswith("G: bar/15") for t in found)
    illegal(g, s, "G: h/16 bar/18", "D6")


# -- bearing off -----------------------------------------------------------------------------


def test_black_bears_off_from_31_and_34() -> None:
    g = game()
    s = pos(g, {"B": {31: 1, 34: 1}, "G": {13: 2}, "W": {25: 2}}, hand={"B": 0}, off={"B": 13},
            dice=(6, 3))
    legal(g, s, "B: 31/off 34/off")


def test_a_figure_on_30_stops_every_bear_off() -> None:
    g = game()
    s = pos(g, {"B": {30: 1, 34: 1, 36: 5}, "G": {13: 2}, "W": {25: 2}}, hand={"B": 0},
            off={"B": 8}, dice=(2, 1))
    assert all("off" not in t.split(" ", 2)[1] for t in texts(g, s))
    illegal(g, s, "B: 36/off 30/32", "D7")


def test_only_one_black_figure_on_31() -> None:
    g = game()
    s = pos(g, {"B": {31: 1, 30: 1, 36: 3}, "G": {13: 2}, "W": {25: 2}}, hand={"B": 0},
            off={"B": 10}, dice=(1, 1))
    illegal(g, s, "B: 30/31", "special space 31")


# -- using the dice ----------------------------------------------------------------------------


def test_higher_die_when_only_one_can_be_played() -> None:
    g = game()
    s = pos(g, {"B": {2: 1, 36: 14}, "G": {13: 2, 12: 2}, "W": {25: 2}}, hand={"B": 0},
            dice=(6, 4))
    assert texts(g, s) == {"B: 2/8"}
    illegal(g, s, "B: 2/6", "higher die 6")


def test_pass_when_nothing_can_be_played() -> None:
    g = game()
    s = pos(g, board(), bar={"B": 1}, dice=(2, 2))
    s = s._replace(counts=(s.counts[0], s.counts[1][:1] + (2,) + s.counts[1][2:], s.counts[2]),
                   hand=(12, 11, 13))
    assert texts(g, s) == {"B: pass"}
    after = play(g, s, "pass")
    assert after.seat == 1


def test_a_position_both_dice_reach_is_the_turn_that_uses_both() -> None:
    # Green's two figures on 36 (its head) close it: 32/off with the 6 leaves the 1 unplayable,
    # while 32/33 33/off reaches the same position with both dice (Tawula D5).
    g = game()
    s = pos(g, {"B": {32: 1, 35: 1}, "G": {36: 2}, "W": {25: 2}}, hand={"B": 0, "G": 0},
            off={"B": 13, "G": 13}, dice=(6, 1))
    assert texts(g, s) == {"B: 32/33 33/off"}
    illegal(g, s, "B: 32/off", "2 can be played", "D5")
    assert engine_turns(g, s) == reference_turns(g, s)


# -- the end: placings, resignation, cap, dead position (D11-D14) -----------------------------


def _last_figure(g: TrackGammon):
    return pos(g, {"B": {36: 1}, "G": {13: 2}, "W": {25: 2}}, hand={"B": 0}, off={"B": 14},
               dice=(2, 1))


def test_win_under_placings_off_ends_the_game() -> None:
    g = game()
    after = play(g, _last_figure(g), "B: 36/off")
    assert g.outcome(after).result_tag() == "1-2-2"
    assert g.to_move(after) is None


def test_placings_on_the_others_play_on() -> None:
    g = game(placings="on")
    after = play(g, _last_figure(g), "B: 36/off")
    assert g.outcome(after) is None and after.places == (1, 0, 0)
    seats = []
    for _ in range(4):
        after = g.apply(after, ("roll", 2, 1))
        seats.append(g.to_move(after))
        after = g.apply(after, g.legal_actions(after)[0])
    assert seats == [1, 2, 1, 2]
    after = after._replace(seat=2, dice=(2, 1), counts=(after.counts[0], after.counts[1],
                           tuple(0 for _ in range(36))), hand=(0, after.hand[1], 0),
                           bar=(0, 0, 0), off=(15, after.off[1], 14))
    after = after._replace(counts=(after.counts[0], after.counts[1],
                                   tuple(1 if i == 23 else 0 for i in range(36))))
    final = play(g, after, "W: 24/off")
    assert g.outcome(final).result_tag() == "1-3-2"


def test_resignation_removes_the_figures_and_play_goes_on() -> None:
    g = game(placings="on")
    s = pos(g, board(G={10: 2}, B={8: 1}), seat="G", dice=(2, 1))
    s = g.apply(s, g.parse_action(s, "resign"))
    assert sum(s.counts[1]) == 0 and g.outcome(s) is None
    assert g.to_move(s) == CHANCE and s.seat == 2
    order = []
    for _ in range(3):
        s = g.apply(s, ("roll", 2, 1))
        order.append(g.to_move(s))
        if g.to_move(s) == 0:
            assert "B: 8/10 h/2" in texts(g, s)  # Green's closed space is open again
        s = g.apply(s, g.legal_actions(s)[0])
    assert order == [2, 0, 2]
    s = g.apply(s, ("roll", 2, 1))
    s = g.apply(s, ("roll", 2, 1)) if g.to_move(s) == CHANCE else s
    assert g.to_move(s) == 0
    s = g.apply(s, g.legal_actions(s)[0])
    s = g.apply(s, ("roll", 2, 1))
    assert g.to_move(s) == 2
    s = g.apply(s, RESIGN)
    outcome = g.outcome(s)
    assert outcome.result_tag() == "1-3-2" and outcome.termination == "resignation"
    assert outcome.winners == [0]


def test_show_places_at_the_end_include_shared_and_left_seats() -> None:
    g = game()
    s = g.apply(pos(g, START, seat="G", dice=(2, 1)), RESIGN)
    s = s._replace(seat=0, dice=(2, 1), hand=(0, 0, 13), off=(14, 0, 0),
                   counts=(tuple(1 if i == 35 else 0 for i in range(36)),) + s.counts[1:])
    final = play(g, s, "B: 36/off")
    rows = [line.split() for line in g.render(final, None, ["a", "b", "c"]).splitlines()]
    assert ["B", "Black", "a", "0", "0", "15", "1"] in rows
    assert ["G", "Green", "b", "0", "0", "0", "2", "(left)"] in rows
    assert ["W", "White", "c", "13", "0", "0", "2"] in rows


def test_resign_is_written_with_the_player_prefix_too() -> None:
    g = game()
    s = pos(g, START, seat="G", dice=(2, 1))
    assert g.format_action(s, RESIGN) == "G: resign"
    assert g.parse_action(s, "G: resign") == g.parse_action(s, "resign") == RESIGN
    illegal(g, s, "W: resign", "Green's turn")


def test_resigner_under_placings_off_cannot_win() -> None:
    g = game()
    s = pos(g, START, seat="G", dice=(2, 1))
    s = g.apply(s, RESIGN)
    assert g.outcome(s) is None
    s = s._replace(seat=0, dice=(2, 1))
    s = s._replace(counts=(tuple(1 if i == 35 else 0 for i in range(36)),) + s.counts[1:],
                   hand=(0, 0, 13), off=(14, 0, 0))
    assert g.outcome(play(g, s, "B: 36/off")).result_tag() == "1-2-2"


def test_ply_cap_after_one_action_each() -> None:
    g = game(max_plies="3")
    s = g.initial_state(3)
    while g.to_move(s) is not None:
        s = g.apply(s, ("roll", 2, 1) if g.to_move(s) == CHANCE else g.legal_actions(s)[0])
    assert s.plies == 3 and g.outcome(s).result_tag() == "1-1-1"
    assert g.outcome(s).termination == "max_plies"


def test_dead_position_shares_the_best_free_place() -> None:
    g = game()
    lock = {"B": {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1},
            "G": {13: 2, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1},
            "W": {25: 2, 26: 1, 27: 1, 28: 1, 29: 1, 30: 1}}
    s = pos(g, lock, bar={"B": 1, "G": 1, "W": 1}, seat="W", dice=(3, 2))
    assert texts(g, s) == {"W: pass"}
    after = play(g, s, "pass")
    assert g.outcome(after).termination == "dead position"
    assert g.outcome(after).result_tag() == "1-1-1"


# -- courtesy per opponent (D10) ---------------------------------------------------------------


def test_courtesy_per_opponent() -> None:
    g = game(courtesy="on")
    black = {25: 2, 26: 2, 27: 2, 28: 2, 29: 2, 30: 1, 24: 1, 3: 1}
    s = pos(g, {"B": black, "G": {13: 2}, "W": {}}, hand={"B": 0, "W": 14},
            off={"B": 2}, bar={"W": 1}, dice=(6, 3))
    illegal(g, s, "B: 24/30 3/6", "courtesy")
    legal(g, s, "B: 24/30 25/28")
    off = game()
    legal(off, pos(off, {"B": black, "G": {13: 2}, "W": {}}, hand={"B": 0, "W": 14},
                   off={"B": 2}, bar={"W": 1}, dice=(6, 3)), "B: 24/30 3/6")


def test_courtesy_ignores_the_other_opponents_figures() -> None:
    g = game(courtesy="on")
    black = {25: 2, 26: 2, 27: 2, 28: 2, 29: 2, 3: 1, 24: 1}
    s = pos(g, {"B": black, "G": {13: 2, 30: 2}, "W": {9: 1}}, hand={"B": 0, "W": 14},
            off={"B": 3}, dice=(6, 3))
    legal(g, s, "B: 3/9* 9/12")


@pytest.mark.parametrize("text", ["37/1", "0/4", "h/37", "36/00", "B: 5/037"])
def test_spaces_outside_1_to_36_are_malformed(text: str) -> None:
    g = game()
    s = pos(g, board(B={5: 1}), dice=(4, 1))
    with pytest.raises(MalformedAction) as info:
        g.parse_action(s, text)
    assert "space 1-36" in str(info.value) and "column" in str(info.value)


def test_messages_cite_the_track_gammon_decisions() -> None:
    g = game(courtesy="on")
    black = {25: 2, 26: 2, 27: 2, 28: 2, 29: 2, 30: 1, 24: 1, 3: 1}
    s = pos(g, {"B": black, "G": {13: 2}, "W": {}}, hand={"B": 0, "W": 14},
            off={"B": 2}, bar={"W": 1}, dice=(6, 3))
    illegal(g, s, "B: 24/30 3/6", "courtesy rule (D10)")
    s = pos(g, board(), bar={"G": 1}, seat="G", dice=(6, 3))
    illegal(g, s, "G: h/16 bar/18", "(D9, Tawula D6)")
    illegal(g, pos(g, board(B={5: 1}), dice=(4, 1)), "B: 5/off", "home table (31-36)",
            "(D4, Tawula D7)")


# -- differential and records ------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"courtesy": "on"}])
def test_engine_matches_the_reference_near_the_end_of_the_race(options: dict[str, str]) -> None:
    g = game(**options)
    for s in random_endgames(g, 5, 400):
        check_against_reference(g, s)


@pytest.mark.parametrize("options", [{}, {"bar_priority": "board"}, {"courtesy": "on"}])
def test_engine_matches_the_reference_generator(options: dict[str, str]) -> None:
    g = game(**options)
    positions = random_positions(g, f"tg-diff-{sorted(options.items())}", 320, every=2)
    assert len(positions) >= 300
    for s in positions:
        check_against_reference(g, s)


def test_show_and_validate_through_the_cli(tmp_path: Path) -> None:
    f = tmp_path / "g.gtn"
    runner = CliRunner()
    assert runner.invoke(cli, ["start", "track-gammon", "--no-seed", "-o", str(f)]).exit_code == 0
    result = runner.invoke(cli, ["move", str(f), "roll 6-5", "B: h/7 h/6", "roll 3-1"])
    assert result.exit_code == 0, result.output
    shown = runner.invoke(cli, ["show", str(f)]).output
    assert "[B]" in shown and "G2" in shown and "(19)" in shown and "last roll: 3-1" in shown
    text = f.read_text().replace("B: h/7 h/6", "B: h/7 h/5")
    f.write_text(text)
    result = runner.invoke(cli, ["validate", str(f)])
    assert result.exit_code == 1 and ":7:" in result.output and "needs a 4" in result.output


def test_sample_records_are_complete_and_valid() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 3
    placings = 0
    for f in files:
        verdicts = check_text(f.read_text(), str(f))
        assert all(not v.errors for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        session = Session.load(parse(f.read_text())[0])
        assert session.game.outcome(session.state) is not None
        placings += session.game.placings
    assert placings >= 1


def test_validate_rejects_an_unforced_sub_move(tmp_path: Path) -> None:
    f = tmp_path / "g.gtn"
    f.write_text('[Game "track-gammon"]\n[Players "Black; Green; White"]\n[Result "*"]\n\n'
                 "1. chance: roll 6-6\n2. Black: B: h/7\n3. chance: roll 6-5\n4. Green: G: h/19\n")
    result = CliRunner().invoke(cli, ["validate", str(f)])
    assert result.exit_code == 1
    assert ":8:11: ply 4:" in result.output and "use as many dice" in result.output
    assert "D5" not in result.output


def test_doubles_with_a_special_space_freed_and_refilled() -> None:
    g = game()
    s = pos(g, board(B={7: 1}), dice=(6, 6))
    # 7/13 is closed by Green's start and 7 holds Black already: nothing can be played.
    assert texts(g, s) == {"B: pass"}
    s = pos(g, board(B={7: 1}, G={13: 0}), hand={"G": 15}, dice=(6, 6))
    # With 13 open, 7 empties and refills twice; 13/19 and a third h/7 are the two endings.
    assert texts(g, s) == {"B: 7/13 h/7 7/13 13/19", "B: 7/13 h/7 7/13 h/7"}


# -- positions from the command line ----------------------------------------------------------


def _start(tmp_path: Path, position: str, *options: str) -> Path:
    f = tmp_path / "p.gtn"
    args = ["start", "track-gammon", "--no-seed", "--position", position, "-o", str(f),
            "--force"]
    for option in options:
        args += ["--option", option]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return f


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_position_encoding_of_the_start_and_its_round_trip() -> None:
    g = game()
    start = g.initial_state(3)
    assert g.encode_position(start) == "B:1x2,h13 G:13x2,h13 W:25x2,h13 turn=B"
    s = g.decode_position("B:7,1x2 G:13x2,19 W:19,25x2,bar1 turn=G dice=6-2", 3)
    assert s.counts[0][6] == 1 and s.counts[1][18] == 1 and s.counts[2][18] == 1
    assert g.decode_position(g.encode_position(s), 3) == s


def test_the_special_space_example_is_recorded_as_typed(tmp_path: Path) -> None:
    f = _start(tmp_path, "B:1x2,7 G:13x2 W:25x2 turn=B dice=6-4")
    assert "B: 7/11 h/7" not in _cli("moves", str(f))[1]  # the tool spells it otherwise
    assert _cli("move", str(f), "B: h/7 7/11")[0] == 1
    assert _cli("move", str(f), "7/11 h/7")[0] == 0
    assert "1. Black: B: 7/11 h/7\n" in f.read_text()
    assert _cli("validate", str(f))[0] == 0


def test_edge_case_higher_die_from_the_command_line(tmp_path: Path) -> None:
    f = _start(tmp_path, "B:2,36x14 G:13x2,12x2 W:25x2 turn=B dice=6-4")
    assert _cli("moves", str(f))[1].split("\n")[:-1] == ["B: 2/8"]


def test_edge_case_bearing_off_from_the_command_line(tmp_path: Path) -> None:
    f = _start(tmp_path, "B:31,34,off13 G:13x2 W:25x2 turn=B dice=6-3")
    assert _cli("move", str(f), "B: 31/off 34/off")[0] == 0
    assert '[Result "1-2-2"]' in f.read_text()
    f = _start(tmp_path, "B:30,34,off13 G:13x2 W:25x2 turn=B dice=6-3")
    assert _cli("move", str(f), "B: 34/off 30/36")[0] == 1  # 30 is outside the home table
    assert _cli("move", str(f), "B: 30/36 34/off")[0] == 0


def test_edge_case_resigned_seat_and_placings_from_the_command_line(tmp_path: Path) -> None:
    f = _start(tmp_path, "B:off15,place1 G:13x2,h13 W:25x2,h13 turn=G dice=6-2",
               "placings=on")
    assert _cli("move", str(f), "G: h/19 h/15", "roll 3-1")[0] == 0
    code, out = _cli("show", "--json", str(f))
    assert code == 0 and '"turn": "White"' in out
    bad = tmp_path / "bad.gtn"
    code, out = _cli("start", "track-gammon", "--no-seed", "--position",
                     "B:1x2,7x2 G:13x2 W:25x2 turn=B", "-o", str(bad))
    assert code == 1 and "at most 1" in out and not bad.exists()


# -- set-up positions that are already over; what show --json gives reads back -----------------


def _refused(tmp_path: Path, position: str, *words: str, options: tuple[str, ...] = ()) -> str:
    return refused("track-gammon", tmp_path, position, *words, options=options)


def _show(f: Path) -> dict:
    import json

    code, out = _cli("show", "--json", str(f))
    assert code == 0, out
    return json.loads(out)


@pytest.mark.parametrize(("position", "options", "words"), [
    # placings=off: the first to bear off all 15 wins and the game ends at once
    ("B:off15,place1 G:13x2 W:25x2 turn=G", (), ("over", "Black has borne off all 15",
                                                 "end=borne-off")),
    ("B:off15,place1 G:off15,place1 W:25x2,h13 turn=W", (), ("only one seat", "all 15")),
    ("B:off15,place1 G:off15,place1 W:25x2,h13 turn=W", ("placings=on",),
     ("place1", "two seats")),
    # one seat left: it takes the best place still free and the game ends (D12)
    ("B:left G:left W:25x2 turn=W", (), ("over", "only White", "end=resignation")),
    ("B:off15,place1 G:left,place3 W:25x2 turn=W", ("placings=on",),
     ("over", "only White")),
    # a seat that finished or left has no turn
    ("B:left G:13x2 W:25x2 turn=B", (), ("turn=B", "Black", "left")),
    ("B:off15,place1 G:13x2 W:25x2 turn=B", ("placings=on",), ("turn=B", "Black", "finished")),
    # a resigner's figures leave the board, the bar and the hand (D12)
    ("B:1x2,left G:13x2 W:25x2 turn=G", (), ("Black", "left")),
    ("B:h3,left G:13x2 W:25x2 turn=G", (), ("Black", "left")),
    ("B:bar1,left G:13x2 W:25x2 turn=G", (), ("Black", "left")),
    # places follow the order of finishing and resigning (D11, D12)
    ("B:off15,place2 G:13x2 W:25x2 turn=G", ("placings=on",), ("place2", "1")),
    ("B:left,place1 G:13x2 W:25x2 turn=G", ("placings=on",), ("place1", "3")),
    ("B:left,place3 G:13x2 W:25x2 turn=G", (), ("place3", "placings=off")),
    ("B:off15 G:off15 W:25x2 end=borne-off", ("placings=on",), ("place",)),
    ("B:left G:left W:left end=resignation", (), ("one seat",)),
    ("B:1x2 G:13x2 W:25x2 turn=B plies=3001", (), ("plies=3001", "max_plies=3000")),
])
def test_a_finished_or_impossible_game_is_refused(tmp_path: Path, position: str,
                                                  options: tuple[str, ...],
                                                  words: tuple[str, ...]) -> None:
    _refused(tmp_path, position, *words, options=options)


@pytest.mark.parametrize(("position", "options", "result", "termination"), [
    ("B:off15,place1 G:13x2 W:25x2 end=borne-off", (), "1-2-2", "borne off"),
    ("B:off15 G:13x2 W:25x2 end=borne-off", (), "1-2-2", "borne off"),
    ("B:left G:left W:25x2 end=resignation", (), "2-2-1", "resignation"),
    ("B:left G:left W:25x2,place1 end=resignation plies=7", (), "2-2-1", "resignation"),
    ("B:off15,place1 G:left,place3 W:25x2 end=resignation", ("placings=on",), "1-3-2",
     "resignation"),
    ("B:off15,place1 G:left,place3 W:25x2 end=borne-off", ("placings=on",), "1-3-2",
     "borne off"),
    ("B:off15,place1 G:off15,place2 W:25x2 end=borne-off", ("placings=on",), "1-2-3",
     "borne off"),
    ("B:1x2 G:13x2 W:25x2 end=max-plies plies=3000", (), "1-1-1", "max_plies"),
    ("B:off15,place1 G:13x2 W:25x2 end=max-plies plies=3000", ("placings=on",), "1-2-2",
     "max_plies"),
])
def test_a_finished_game_is_set_up_with_its_ending(tmp_path: Path, position: str,
                                                   options: tuple[str, ...], result: str,
                                                   termination: str) -> None:
    f = _start(tmp_path, position, *options)
    data = _show(f)
    assert data["over"] and data["to_move"] is None and data["position"]["turn"] is None
    assert data["result"]["termination"] == termination
    text = f.read_text()
    assert f'[Result "{result}"]' in text and f'[Termination "{termination}"]' in text
    assert _cli("validate", str(f))[0] == 0
    assert _cli("moves", str(f)) == (0, "")
    again = _start(tmp_path, data["position"]["encoding"], *options)
    assert _show(again)["position"] == data["position"]


def test_a_live_game_after_a_finish_or_resignation_reads_back(tmp_path: Path) -> None:
    f = _start(tmp_path, "B:off15 G:13x2 W:25x2 turn=G", "placings=on")
    data = _show(f)
    assert not data["over"] and data["position"]["places"] == {"Black": 1, "Green": 0,
                                                                "White": 0}
    f = _start(tmp_path, "B:left G:13x2 W:25x2 turn=G", "placings=on")
    assert _show(f)["position"]["places"] == {"Black": 3, "Green": 0, "White": 0}
    f = _start(tmp_path, "B:left G:13x2 W:25x2 turn=G dice=6-2")
    assert _cli("move", str(f), "G: h/19 h/15", "roll 4-1", "W: resign")[0] == 0
    data = _show(f)
    assert data["over"] and data["result"]["termination"] == "resignation"
    assert '[Result "2-1-2"]' in f.read_text()


def test_the_encoding_after_a_resignation_reads_back(tmp_path: Path) -> None:
    f = tmp_path / "t.gtn"
    assert _cli("start", "track-gammon", "--no-seed", "-o", str(f))[0] == 0
    assert _cli("move", str(f), "roll 6-5", "B: resign")[0] == 0
    data = _show(f)
    encoding = data["position"]["encoding"]
    assert encoding == "B:h0,left G:13x2,h13 W:25x2,h13 turn=G plies=1"
    again = _start(tmp_path, encoding)
    shown = _show(again)
    assert shown["position"]["encoding"] == encoding
    assert {k: v for k, v in shown["position"].items() if k != "last_roll"} == \
        {k: v for k, v in data["position"].items() if k != "last_roll"}
    assert _show(_start(tmp_path, "B:left G:13x2 W:25x2 turn=G"))["position"]["encoding"] == \
        encoding.replace(" plies=1", "")


@pytest.mark.parametrize(("options", "games"), [
    ({}, 4), ({"placings": "on"}, 4), ({"max_plies": "90"}, 4)])
def test_every_encoding_of_random_games_reads_back_as_the_same_position(
        options: dict[str, str], games: int, tmp_path: Path) -> None:
    # encoding -> decoding -> encoding is the identity on every state of random games, with
    # resignations branched off them, up to and including their ends; through the command
    # line for every end
    endings = check_random_game_encodings("track-gammon", options, games, tmp_path)
    count = sum(endings.values())
    assert count > 500 and endings.get("resignation") and len(endings) >= 3, endings


@pytest.mark.parametrize("placings", ["off", "on"])
def test_every_order_of_finishing_and_resigning_reads_back(placings: str) -> None:
    # Black is one bear-off from the end; the others resign or play, in every order (D11, D12)
    g = game(placings=placings)
    near = board(B={1: 0, 36: 1})

    def seen(state):
        check_encoding_round_trip(g, state)
        return state

    def on(state, *texts: str):
        for text in texts:
            if g.to_move(state) not in (CHANCE, None) and text == "any":
                state = seen(g.apply(state, g.legal_actions(state)[0]))
            else:
                state = seen(g.apply(state, g.parse_action(state, text)))
        return state

    finish_first = on(pos(g, near, off={"B": 14}, seat="B", dice=(6, 5)), "B: 36/off")
    if placings == "on":
        ended = on(finish_first, "roll 6-5", "G: resign")
        assert ended.places == (1, 3, 2) and ended.ended == "resignation"
    else:
        assert finish_first.places == (1, 0, 0) and finish_first.ended == "borne off"
    resign_first = on(pos(g, near, off={"B": 14}, seat="G", dice=(6, 5)), "G: resign",
                      "roll 6-5", "any", "roll 6-5", "B: 36/off")
    assert resign_first.places == ((1, 3, 2) if placings == "on" else (1, 0, 0))
    assert resign_first.ended == "borne off"
    both = on(pos(g, near, off={"B": 14}, seat="G", dice=(6, 5)), "G: resign", "roll 6-5",
              "W: resign")
    assert both.places == ((1, 3, 2) if placings == "on" else (1, 0, 0))
    assert both.ended == "resignation"
    assert g.outcome(both).results[1].rank == (3 if placings == "on" else 2)
