"""Western Mahjong: the rules file's worked round, meld table, edge cases, options and views."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import svg_words

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameError, GameOver, IllegalAction, MalformedAction
from gametool.games.western_mahjong import WesternMahjong
from gametool.games.western_mahjong.rules import minus, plus
from gametool.games.western_mahjong.state import DRAW, EMPTY, FULL, PLAY, MahjongState
from gametool.games.western_mahjong.tiles import (
    ALL_MELDS,
    INDEX,
    NAMES,
    PAIR,
    additions,
    classify,
    fits,
    hand_melds,
    value,
)
from gametool.players.auto import random_game
from gametool.records import Session, check_text, load_one
from gametool.views import render
from notation.record import write

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "western-mahjong"

WORKED = """\
deal p1: 1b 2b 3b 5k 6k 7k RD GD WD EW SW 9c 9c 4b
deal p2: 1c 1c 1c 2k 3k 4k NW NW SW 7b 8b 9b 6c 6c
draw wall
drawn 8k
meld RD GD WD / 5k 6k 7k
add 8k to 2
meld 1b 2b 3b 4b
discard EW
draw discard
meld 7b 8b 9b / 1c 1c 1c
meld EW SW NW
meld 2k 3k 4k
discard NW
draw wall
drawn WW
add WW to 6
discard SW
draw wall
drawn 6c
meld 6c 6c 6c
out""".splitlines()


def faces(text: str) -> tuple[int, ...]:
    return tuple(INDEX[t.lower()] for t in text.split())


def counts(text: str) -> tuple[int, ...]:
    return plus(EMPTY, faces(text))


def run(game: WesternMahjong, texts: list[str],
        state: MahjongState | None = None) -> list[MahjongState]:
    """Every state reached by playing ``texts`` (each parsed, checked and applied)."""
    states = [state if state is not None else game.initial_state(2)]
    for text in texts:
        current = states[-1]
        action = game.parse_action(current, text)
        if game.to_move(current) != CHANCE:
            assert action == RESIGN or action in game.legal_actions(current), text
        states.append(game.apply(current, action))
    return states


def position(mine: str, theirs: str = "", *, melds: tuple[tuple[int, str], ...] = (),
             opened: tuple[bool, bool] = (False, False), seat: int = 0, phase: str = PLAY,
             discard: str | None = None, taken: str | None = None, wall_size: int | None = None,
             points: tuple[int, int] = (3, 3)) -> MahjongState:
    """A position in the middle of a round with ``mine`` the hand of the seat to move."""
    hands = [counts(mine), counts(theirs)]
    if seat == 1:
        hands.reverse()
    table = tuple((owner, faces(tiles)) for owner, tiles in melds)
    wall = FULL
    for hand in hands:
        wall = minus(wall, [f for f in range(34) for _ in range(hand[f])])
    for _owner, tiles in table:
        wall = minus(wall, tiles)
    return MahjongState(
        points=points, hands=(hands[0], hands[1]), sizes=(sum(hands[0]), sum(hands[1])),
        wall=wall, wall_size=sum(wall) if wall_size is None else wall_size, dealt=2, seat=seat,
        phase=phase, discard=None if discard is None else INDEX[discard.lower()],
        pile=() if discard is None else ((1 - seat, INDEX[discard.lower()], False),),
        melds=table, opened=opened, taken=None if taken is None else INDEX[taken.lower()])


@pytest.fixture
def game() -> WesternMahjong:
    return WesternMahjong()


# -- the worked round --------------------------------------------------------------------------


def test_worked_round_replays_exactly(game: WesternMahjong) -> None:
    states = run(game, WORKED)
    final = states[-1]
    assert final.points == (2, 3)
    assert final.leader == 0 and final.round == 2  # D11: the loser p1 leads round 2
    assert final.history == ((1, 1, "out"),)
    assert game.to_move(final) == CHANCE and final.dealt == 0
    after_add = states[6]
    assert after_add.melds[1] == (0, faces("5k 6k 7k 8k"))
    assert states[13].melds[5] == (1, faces("EW SW NW"))
    assert states[16].melds[5] == (1, faces("EW SW WW NW"))  # still laid by p2
    assert states[17].hands[0] == counts("9c 9c")


def test_worked_round_opening_values(game: WesternMahjong) -> None:
    states = run(game, WORKED[:10])
    assert [value(t) for _o, t in states[5].melds] == [12, 18]  # 30 in all
    assert [value(t) for _o, t in states[10].melds[3:5]] == [24, 3]  # 27 in all


def test_worked_round_illegal_alternatives(game: WesternMahjong) -> None:
    states = run(game, WORKED)
    with pytest.raises(IllegalAction, match="D2"):
        game.parse_action(states[2], "draw discard")  # p1's first action
    with pytest.raises(IllegalAction, match="D3"):
        game.parse_action(states[9], "discard EW")  # p2 straight after taking EW
    with pytest.raises(IllegalAction, match="hand holds 0 SW|no SW|not a meld"):
        game.parse_action(states[15], "add SW to 6")  # a second SW
    with pytest.raises(IllegalAction, match="cannot take"):
        game.parse_action(states[10], "add 4k to 1")  # a dragon set cannot grow
    with pytest.raises(IllegalAction, match="pair may be laid only"):
        game.parse_action(states[16], "meld 9c 9c")  # p1 still holds SW
    with pytest.raises(IllegalAction, match="not empty"):
        game.parse_action(states[16], "out")


def test_worked_round_with_max_plies_10_draws_after_discard_nw() -> None:
    game = WesternMahjong({"max_plies": "10"})
    states = run(game, WORKED[:13])
    assert game.to_move(states[12]) == 1
    final = states[13]
    outcome = game.outcome(final)
    assert outcome is not None and outcome.termination == "max plies"
    assert [r.result for r in outcome.results] == ["draw", "draw"]
    assert game.to_move(final) is None
    with pytest.raises(GameOver):
        game.parse_action(final, "draw wall")


# -- the meld table (D4, D5) ---------------------------------------------------------------------


@pytest.mark.parametrize(("tiles", "kind", "worth"), [
    ("NW NW NW", "pung", 9), ("RD RD RD", "pung", 12), ("7b 7b 7b 7b", "kong", 28),
    ("5k 6k 7k 8k", "run", 26), ("8k 9k 1k", "run", 18), ("4b 4c 4k", "rank set", 12),
    ("EW SW WW", "wind set", 9), ("RD GD WD", "dragon set", 12), ("9c 9c", PAIR, 18),
])
def test_every_row_of_the_meld_table(tiles: str, kind: str, worth: int) -> None:
    group = tuple(sorted(faces(tiles)))
    assert classify(group) == kind
    assert value(group) == worth


@pytest.mark.parametrize("tiles", ["NW NW NW", "RD RD RD", "7b 7b 7b 7b", "5k 6k 7k 8k",
                                   "8k 9k 1k", "4b 4c 4k", "EW SW WW", "RD GD WD",
                                   "EW SW WW NW"])
def test_meld_table_rows_are_accepted_by_the_engine(game: WesternMahjong, tiles: str) -> None:
    state = position(tiles + " 2c 9b", "1b", opened=(True, False))
    action = game.parse_action(state, f"meld {tiles}")
    assert action in game.legal_actions(state)
    assert game.apply(state, action).melds == ((0, action[1][0]),)


@pytest.mark.parametrize("tiles", ["RD GD", "EW EW SW", "4b 4b 4c", "RD GD WD EW",
                                   "1b 2c 3k", "9k 1k 2k", "EW SW", "1k 2k 3k 4k 5k 6k 7k 8k 9k 1k",
                                   "2b 3b 5b"])
def test_not_melds_are_rejected(game: WesternMahjong, tiles: str) -> None:
    state = position(tiles + " 6c", "1b", opened=(True, False))
    with pytest.raises(IllegalAction, match="is not a meld"):
        game.parse_action(state, f"meld {tiles}")


def test_a_run_through_the_1_names_decision_d5(game: WesternMahjong) -> None:
    state = position("9k 1k 2k 5c", opened=(True, False))
    with pytest.raises(IllegalAction, match="D5"):
        game.parse_action(state, "meld 9k 1k 2k")


def test_run_with_a_high_1_grows_only_downwards(game: WesternMahjong) -> None:
    assert classify(tuple(sorted(faces("7k 8k 9k 1k")))) == "run"
    state = position("2k 6k 5c", melds=((1, "7k 8k 9k 1k"),), opened=(True, True))
    with pytest.raises(IllegalAction, match="not a meld"):
        game.parse_action(state, "add 2k to 1")
    action = game.parse_action(state, "add 6k to 1")
    assert game.apply(state, action).melds[0] == (1, faces("6k 7k 8k 9k 1k"))


def test_nine_tile_runs_accept_no_further_tile() -> None:
    everything = counts("1k 2k 3k 4k 5k 6k 7k 8k 9k 1k 2k 9k")
    for run_text in ("1k 2k 3k 4k 5k 6k 7k 8k 9k", "2k 3k 4k 5k 6k 7k 8k 9k 1k"):
        assert classify(tuple(sorted(faces(run_text)))) == "run"
        assert additions(faces(run_text), everything) == []


def test_a_1_joining_a_2_to_9_run_is_one_action_listed_once(game: WesternMahjong) -> None:
    state = position("1k 5c", melds=((1, "2k 3k 4k 5k 6k 7k 8k 9k"),), opened=(True, True))
    actions = game.legal_actions(state)
    assert len(actions) == len(set(actions))
    assert actions.count(("add", faces("1k"), 1)) == 1
    both = position("1k 9k 5c", melds=((1, "2k 3k 4k 5k 6k 7k 8k"),), opened=(True, True))
    actions = game.legal_actions(both)
    assert len(actions) == len(set(actions))
    assert [game.format_action(both, a) for a in actions if a[0] == "add"] == [
        "add 9k to 1", "add 1k 9k to 1", "add 1k to 1"]
    after = game.apply(both, game.parse_action(both, "add 9k 1k to 1"))
    assert after.melds[0][1] == faces("1k 2k 3k 4k 5k 6k 7k 8k 9k")


def test_the_run_1_to_9_is_listed_once_and_round_trips(game: WesternMahjong) -> None:
    state = position("1k 2k 3k 4k 5k 6k 7k 8k 9k 5c", opened=(True, False))
    actions = game.legal_actions(state)
    nine = [a for a in actions if a[0] == "meld" and len(a[1][0]) == 9]
    assert [game.format_action(state, a) for a in nine] == ["meld 1k 2k 3k 4k 5k 6k 7k 8k 9k"]
    for action in actions:
        assert game.parse_action(state, game.format_action(state, action)) == action
    assert game.parse_action(state, "meld 2k 3k 4k 5k 6k 7k 8k 9k 1k") == nine[0]
    assert sum(len(m) == 9 and classify(tuple(sorted(m))) == "run" for m in ALL_MELDS) == 3


def test_run_grows_at_both_ends_in_one_add(game: WesternMahjong) -> None:
    state = position("3b 7b 8c", melds=((0, "4b 5b 6b"),), opened=(True, False))
    action = game.parse_action(state, "add 7b 3b to 1")
    assert action == ("add", faces("3b 7b"), 1)
    assert game.apply(state, action).melds[0][1] == faces("3b 4b 5b 6b 7b")


def test_hand_melds_agrees_with_the_full_meld_list() -> None:
    rng = random.Random(7)
    tiles = [f for f in range(34) for _ in range(4)]
    for _ in range(300):
        hand = plus(EMPTY, rng.sample(tiles, rng.choice([8, 14, 15, 20])))
        assert sorted(hand_melds(hand)) == sorted(m for m in ALL_MELDS if fits(hand, m))


# -- opening, adds, no rearranging (D6, D7) ------------------------------------------------------


def test_opening_of_6_rejected_and_of_15_accepted(game: WesternMahjong) -> None:
    state = position("1b 2b 3b 2c 3c 4c 9k")
    with pytest.raises(IllegalAction, match="at least 12, this is 6"):
        game.parse_action(state, "meld 1b 2b 3b")
    action = game.parse_action(state, "meld 1b 2b 3b / 2c 3c 4c")
    assert action in game.legal_actions(state)
    assert ("meld", (faces("1b 2b 3b"),)) not in game.legal_actions(state)
    after = game.apply(state, action)
    assert after.opened == (True, False)
    # After the opening, no minimum: the same small run alone would do.
    assert after.melds == ((0, faces("1b 2b 3b")), (0, faces("2c 3c 4c")))


def test_opening_of_wind_set_alone_is_rejected(game: WesternMahjong) -> None:
    state = position("EW SW WW 5c")
    with pytest.raises(IllegalAction, match="D7"):
        game.parse_action(state, "meld EW SW WW")


def test_no_add_before_opening_even_to_the_opponents_meld(game: WesternMahjong) -> None:
    state = position("9k 5c", melds=((1, "6k 7k 8k"),), opened=(False, True))
    with pytest.raises(IllegalAction, match="before one's opening"):
        game.parse_action(state, "add 9k to 1")
    assert all(a[0] != "add" for a in game.legal_actions(state))
    opened = state._replace(opened=(True, True))
    assert ("add", faces("9k"), 1) in game.legal_actions(opened)


def test_pung_plus_same_wind_is_kong_but_other_wind_rejected(game: WesternMahjong) -> None:
    state = position("NW EW 5c", melds=((0, "NW NW NW"),), opened=(True, False))
    with pytest.raises(IllegalAction, match="not a meld"):
        game.parse_action(state, "add EW to 1")
    after = game.apply(state, game.parse_action(state, "add NW to 1"))
    assert after.melds[0][1] == faces("NW NW NW NW")
    assert classify(after.melds[0][1]) == "kong"


def test_rank_sets_dragon_sets_and_kongs_cannot_grow() -> None:
    hand = counts("4b 4c 4k RD GD WD 7b")
    assert additions(faces("4b 4c 4k"), hand) == []
    assert additions(faces("RD GD WD"), hand) == []
    assert additions(faces("7b 7b 7b 7b"), hand) == []
    assert additions(faces("EW SW WW NW"), counts("EW")) == []


def test_add_to_a_meld_number_that_does_not_exist(game: WesternMahjong) -> None:
    state = position("9k 5c", melds=((1, "6k 7k 8k"),), opened=(True, True))
    with pytest.raises(IllegalAction, match="no table meld 2"):
        game.parse_action(state, "add 9k to 2")


def test_melds_are_numbered_left_to_right_within_an_action(game: WesternMahjong) -> None:
    state = position("RD GD WD 5k 6k 7k 1c")
    one = game.parse_action(state, "meld 5k 6k 7k / RD GD WD")
    two = game.parse_action(state, "meld wd gd rd / 7K 5k 6k")
    assert one != two
    assert game.format_action(state, two) == "meld RD GD WD / 5k 6k 7k"
    assert {one, two} <= set(game.legal_actions(state))


# -- going out and the pair (D8) -----------------------------------------------------------------


def test_pair_allowed_only_when_it_empties_the_hand(game: WesternMahjong) -> None:
    state = position("9c 9c", opened=(True, False))
    action = game.parse_action(state, "meld 9c 9c")
    after = game.apply(state, action)
    assert after.sizes[0] == 0 and game.legal_actions(after) == [("out",)]
    final = game.apply(after, game.parse_action(after, "OUT"))
    assert final.points == (3, 2) and final.leader == 1


def test_pair_counts_towards_an_opening_that_empties_the_hand(game: WesternMahjong) -> None:
    state = position("1b 2b 3b 9c 9c")
    action = game.parse_action(state, "meld 1b 2b 3b / 9c 9c")  # 6 + 18
    assert action in game.legal_actions(state)
    with pytest.raises(IllegalAction, match="pair may be laid only"):
        game.parse_action(position("1b 2b 3b 9c 9c 5k"), "meld 1b 2b 3b / 9c 9c")
    with pytest.raises(IllegalAction, match="at least 12, this is 10"):
        game.parse_action(position("1b 2b 3b 2c 2c"), "meld 1b 2b 3b / 2c 2c")


def test_only_one_pair_when_going_out(game: WesternMahjong) -> None:
    state = position("9c 9c 5b 5b", opened=(True, False))
    with pytest.raises(IllegalAction, match="only one pair"):
        game.parse_action(state, "meld 9c 9c / 5b 5b")
    assert all(a[0] != "meld" for a in game.legal_actions(state))
    going_out = position("9c 9c 5b 5b 5b", opened=(True, False))
    action = game.parse_action(going_out, "meld 9c 9c / 5b 5b 5b")
    assert action in game.legal_actions(going_out)


def test_out_needs_an_empty_hand_and_is_then_the_only_action(game: WesternMahjong) -> None:
    state = position("5c")
    with pytest.raises(IllegalAction, match="not empty"):
        game.parse_action(state, "out")


def test_discarding_the_last_tile_wins_the_round(game: WesternMahjong) -> None:
    state = position("5c", "1b 2b", opened=(True, False))
    after = game.apply(state, game.parse_action(state, "discard 5c"))
    assert after.points == (3, 2)
    assert after.history == ((1, 0, "last discard"),)
    assert after.leader == 1 and game.to_move(after) == CHANCE


def test_out_by_discard_off_rejects_the_last_discard() -> None:
    game = WesternMahjong({"out_by_discard": "off"})
    state = position("5c", "1b 2b", opened=(True, False), melds=((1, "6c 7c 8c"),))
    with pytest.raises(IllegalAction, match="out_by_discard=off"):
        game.parse_action(state, "discard 5c")
    assert game.legal_actions(state) == [("add", faces("5c"), 1)]


def test_out_by_discard_off_refuses_a_meld_leaving_a_stranded_tile() -> None:
    game = WesternMahjong({"out_by_discard": "off"})
    state = position("1b 2b 3b 9k", opened=(True, False))
    with pytest.raises(IllegalAction, match="neither be added nor discarded"):
        game.parse_action(state, "meld 1b 2b 3b")
    assert WesternMahjong().parse_action(state, "meld 1b 2b 3b")  # fine with the default


def test_out_by_discard_off_refuses_an_add_leaving_a_stranded_tile() -> None:
    game = WesternMahjong({"out_by_discard": "off"})
    state = position("4b 9k", melds=((1, "1b 2b 3b"),), opened=(True, True))
    with pytest.raises(IllegalAction, match="neither be added nor discarded"):
        game.parse_action(state, "add 4b to 1")
    assert game.legal_actions(state) == [("discard", INDEX["4b"]), ("discard", INDEX["9k"])]
    fine = position("4b 5b", melds=((1, "1b 2b 3b"),), opened=(True, True))
    assert game.parse_action(fine, "add 4b to 1") in game.legal_actions(fine)
    assert WesternMahjong().parse_action(state, "add 4b to 1")  # fine with the default


# -- drawing and discarding (D2, D3, D9) ---------------------------------------------------------


def test_taken_face_may_not_be_discarded_unless_all_tiles_have_it(game: WesternMahjong) -> None:
    state = position("5c 5c 7k", phase=DRAW, discard="5c", opened=(True, True))
    taken = game.apply(state, game.parse_action(state, "draw discard"))
    assert taken.taken == INDEX["5c"] and taken.sizes[0] == 4
    with pytest.raises(IllegalAction, match="D3"):
        game.parse_action(taken, "discard 5c")
    assert ("discard", INDEX["5c"]) not in game.legal_actions(taken)
    all_same = position("5c 5c", phase=DRAW, discard="5c", opened=(True, True))
    taken = game.apply(all_same, game.parse_action(all_same, "draw discard"))
    taken = taken._replace(hands=(counts("5c 5c"), taken.hands[1]), sizes=(2, taken.sizes[1]))
    assert game.parse_action(taken, "discard 5c") == ("discard", INDEX["5c"])


def test_only_the_latest_discard_can_be_taken(game: WesternMahjong) -> None:
    states = run(game, WORKED[:13])  # ... p2 discards NW
    p1_turn = states[13]
    assert [NAMES[f] for _s, f, _t in p1_turn.pile] == ["EW", "NW"]
    taken = game.apply(p1_turn, game.parse_action(p1_turn, "draw discard"))
    assert taken.taken == INDEX["nw"] and taken.hands[0][INDEX["nw"]] == 1
    assert taken.pile[0][2] is True and taken.pile[1][2] is True
    assert taken.discard is None


def test_draw_is_needed_before_melding(game: WesternMahjong) -> None:
    state = position("1b 2b 3b 4b 5b", phase=DRAW, discard="9k")
    with pytest.raises(IllegalAction, match="starts with draw"):
        game.parse_action(state, "meld 1b 2b 3b 4b 5b")


def test_empty_wall_at_start_of_turn_voids_the_round(game: WesternMahjong) -> None:
    state = position("5c 6c", "1b 2b", wall_size=0, points=(2, 3))._replace(leader=1)
    after = game.apply(state, game.parse_action(state, "discard 5c"))
    assert after.points == (2, 3)  # no point changes
    assert after.leader == 1 and after.round == 2  # same leader
    assert after.history == ((1, None, "wall empty"),)
    assert game.to_move(after) == CHANCE and after.dealt == 0 and after.melds == ()


def test_a_player_at_1_point_who_loses_a_round_ends_the_game(game: WesternMahjong) -> None:
    state = position("5c", "1b 2b", points=(3, 1))
    final = game.apply(state, game.parse_action(state, "discard 5c"))
    outcome = game.outcome(final)
    assert final.points == (3, 0) and game.to_move(final) is None
    assert outcome is not None and outcome.termination == "out of points"
    assert [r.result for r in outcome.results] == ["win", "loss"]


def test_resign_loses_the_game(game: WesternMahjong) -> None:
    state = position("5c 6c", "1b 2b", seat=1)
    final = game.apply(state, game.parse_action(state, " Resign "))
    outcome = game.outcome(final)
    assert outcome is not None and outcome.winners == [0]


# -- chance -----------------------------------------------------------------------------------


def test_deal_with_a_fifth_copy_is_rejected(game: WesternMahjong) -> None:
    state = run(game, WORKED[:1])[-1]
    with pytest.raises(IllegalAction, match="too many 9c"):
        game.parse_action(state, "deal p2: 9c 9c 9c 1c 2c 3c 4c 5c 6c 7c 8c 1b 2b 3b")
    fresh = game.initial_state(2)
    with pytest.raises(IllegalAction, match="too many 1b"):
        game.parse_action(fresh, "deal p1: 1b 1b 1b 1b 1b 2c 3c 4c 5c 6c 7c 8c 1k 2k")
    with pytest.raises(IllegalAction, match="p1 is dealt now"):
        game.parse_action(fresh, "deal p2: 1b 2b 3b 4b 5b 6b 7b 8b 9b 1c 2c 3c 4c 5c")
    with pytest.raises(IllegalAction, match="14 tiles"):
        game.parse_action(fresh, "deal p1: 1b 2b")


def test_drawn_tile_must_still_be_in_the_wall(game: WesternMahjong) -> None:
    state = position("1b", phase="drawn")._replace(wall=EMPTY, wall_size=0)
    with pytest.raises(IllegalAction, match="no 8k is left"):
        game.parse_action(state, "drawn 8k")
    assert game.chance_outcomes(state) == []


def test_players_may_not_type_chance_actions(game: WesternMahjong) -> None:
    state = position("1b 2b")
    with pytest.raises(IllegalAction, match="only chance"):
        game.parse_action(state, "drawn 8k")


def test_seeded_deals_hold_14_tiles_and_108_stay_in_the_wall() -> None:
    session = random_game("western-mahjong", "deal-check", max_plies=3)
    state = session.states[2]
    assert state.sizes == (14, 14) and state.wall_size == 108
    assert all(a + b + c == 4 for a, b, c in zip(*state.hands, state.wall, strict=True))


# -- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["meld", "draw", "draw pile", "add 1b", "add 1b to",
                                  "discard 0b", "meld 1b / ", "pass", "deal p3: 1b", "out now"])
def test_malformed_actions_give_one_line(game: WesternMahjong, text: str) -> None:
    state = position("1b 2b 3b", discard="5c")
    with pytest.raises(MalformedAction) as err:
        game.parse_action(state, text)
    assert "\n" not in str(err.value) and repr(text.strip())[1:-1] in str(err.value)


def test_actions_are_read_in_any_case(game: WesternMahjong) -> None:
    state = position("RD GD WD 1b 2b 3b 4b", melds=((1, "5b 6b 7b"),), opened=(True, True))
    assert game.parse_action(state, "  MELD rd gd wd ") == ("meld", (faces("RD GD WD"),))
    assert game.parse_action(state, "Add 4B to 1") == ("add", faces("4b"), 1)
    assert game.parse_action(state, "DISCARD 1B") == ("discard", INDEX["1b"])


def test_notation_has_no_record_separators() -> None:
    session = random_game("western-mahjong", "separators", max_plies=400)
    for step in session.steps:
        assert not set(step.text) & set("|;{}")


# -- views, rendering and the CLI ----------------------------------------------------------------


def test_view_shows_own_hand_only(game: WesternMahjong) -> None:
    state = position("1b 2b", "9k 9k 9k")
    mine = game.view(state, 0)
    assert mine["hands"] == {"p1": "1b 2b", "p2": None}
    assert mine["hand_sizes"] == {"p1": 2, "p2": 3}
    assert game.view(state, None)["hands"] == {"p1": None, "p2": None}
    assert "9k" not in game.render(state, 0, ["ann", "ben"])
    assert "9k" in game.render(state, 1, ["ann", "ben"])


def test_drawn_tile_is_seen_by_the_drawer_only(game: WesternMahjong) -> None:
    states = run(game, WORKED[:4])
    before, after = states[3], states[4]
    action = game.parse_action(before, "drawn 8k")
    assert game.mask_action(before, action, after, 0) == "drawn 8k"
    assert game.mask_action(before, action, after, 1) == "drawn ?"
    assert game.mask_action(before, action, after, None) == "drawn ?"
    assert game.view(after, 0)["drawn"] == "8k" and "drawn" not in game.view(after, 1)
    deal = game.parse_action(states[0], WORKED[0])
    assert game.mask_action(states[0], deal, after, 1) == "deal p1: ?"


def _session_file(tmp_path: Path) -> Path:
    session = random_game("western-mahjong", "cli", max_plies=40)
    path = tmp_path / "wm.gtn"
    path.write_text(session.text())
    return path


def test_cli_show_as_seat_draws_hand_table_and_scores(tmp_path: Path) -> None:
    path = _session_file(tmp_path)
    runner = CliRunner()
    out = runner.invoke(cli, ["show", str(path), "--as", "p1", "--weak-seed-ok"])
    assert out.exit_code == 0, out.output
    assert "round 1" in out.output and "points" in out.output and "hand of p1:" in out.output
    data = json.loads(runner.invoke(cli, ["show", str(path), "--as", "p2", "--json",
                                         "--weak-seed-ok"]).output)
    assert data["position"]["hands"]["p1"] is None
    assert data["position"]["hands"]["p2"]
    assert data["scores"] == {"p1": 3, "p2": 3}


def test_show_of_a_finished_game_says_game_over(game: WesternMahjong) -> None:
    final = game.apply(position("5c", "1b 2b", points=(3, 1)), ("discard", INDEX["5c"]))
    text = game.render(final, None, ["p1", "p2"])
    assert text.splitlines()[0].endswith("game over")
    assert "meld, add, discard or out" not in text


def test_randomized_hands_keep_four_of_each_face_after_the_taken_tile_is_laid(
        game: WesternMahjong) -> None:
    # p1 took the fourth EW and added it to p2's pung: no EW is left anywhere hidden.
    state = position("5c 6c", "1b 2b", melds=((1, "EW EW EW EW"),), opened=(True, True),
                     taken="EW")
    for index in range(5):
        other = game.randomize_hidden(state, 1, SeedRng("randomize", index))
        assert other.hands[1] == state.hands[1] and other.hands[0][INDEX["ew"]] == 0
        assert sum(other.hands[0]) == 2 and sum(other.wall) == other.wall_size
        for face in range(34):
            on_table = sum(t.count(face) for _o, t in other.melds)
            assert other.wall[face] + other.hands[0][face] + other.hands[1][face] + on_table == 4
        assert game.view(other, 1) == game.view(state, 1)
    # While the taken tile is still held, the opponent knows it is there.
    held = position("EW 5c 6c", "1b 2b", melds=((1, "EW EW EW"),), opened=(True, True),
                    taken="EW")
    other = game.randomize_hidden(held, 1, SeedRng("randomize", 9))
    assert other.hands[0][INDEX["ew"]] == 1


def test_cli_rejects_a_bad_move_with_one_line(tmp_path: Path) -> None:
    path = _session_file(tmp_path)
    before = path.read_text()
    out = CliRunner().invoke(cli, ["move", str(path), "meld 9k 1k"])
    assert out.exit_code == 1
    assert len(out.output.strip().splitlines()) == 1
    assert path.read_text() == before


# -- leaks --------------------------------------------------------------------------------------

TILE = re.compile(r"\b([1-9][bck]|EW|SW|WW|NW|RD|GD|WD)\b")


def leak_check(session: Session, seat: int | None) -> int:
    """Check every ply of ``session`` for ``seat``; return the number of outputs checked.

    At each ply the seat may see the faces in its own hand now, on the table now, in the
    round's discards and in every player action so far (player actions are public), and what it
    saw at an earlier ply; any other face in ``show``/``moves`` output for that ply is a leak.
    ``export`` may show every face the seat has seen at some ply.
    """
    game = session.game
    name = "spectator" if seat is None else session.names[seat]
    ever: set[str] = set()
    checked = 0
    for ply in range(session.ply + 1):
        state = session.states[ply]
        known: set[str] = set()
        if seat is not None:
            known |= {NAMES[f] for f in range(34) if state.hands[seat][f]}
        known |= {NAMES[f] for _o, tiles in state.melds for f in tiles}
        known |= {NAMES[f] for _s, f, _t in state.pile}
        # Player actions are public, with the notes shown beside them (a discard taken): show
        # names the last turns of every seat, so every player action so far may be seen.
        for before, step in zip(session.states[:ply], session.steps[:ply], strict=True):
            if step.seat != CHANCE:
                known |= set(TILE.findall(game.format_action(before, step.action)))
                known |= set(TILE.findall(game.describe_action(before, step.action) or ""))
        ever |= known
        texts = [render.show_text(session, ply, name),
                 json.dumps(render.show_data(session, ply, name))]
        if ply % 5 == 0 or ply == session.ply:
            texts.append(svg_words(render.show_svg(session, ply, name)))
        if seat is not None and game.to_move(state) == seat:
            texts += [game.format_action(state, a) for a in game.legal_actions(state)]
        for text in texts:
            # The last turns that show names may hold a tile the seat saw then (its own draw)
            # and no longer holds: what it has seen so far is what it may read.
            leaked = set(TILE.findall(text)) - ever
            assert not leaked, f"ply {ply}: {name} sees {leaked} in {text[:300]!r}"
        checked += len(texts)
    known = ever
    exported = write(session.exported(seat))
    leaked = set(TILE.findall(exported)) - known
    assert not leaked, f"export --as {name} shows {leaked}"
    return checked + 1


@pytest.mark.parametrize("chunk", [pytest.param(c, marks=[pytest.mark.slow] if c >= 4 else [])
                                   for c in range(20)])
def test_no_hidden_tile_leaks_in_100_random_games(chunk: int) -> None:
    # 20 chunks of 5 games (so that parallel runs share them out; the first 4 in every suite,
    # the other 16 with ``-m slow``). Games are capped at 120
    # player actions (option max_plies) to keep the suite fast; each crosses deals, draws,
    # takes, melds and often a round end. Every seat and the spectator, every ply.
    total = 0
    for index in range(5 * chunk, 5 * chunk + 5):
        session = random_game("western-mahjong", f"leak-{index}", options={"max_plies": "120"})
        assert game_over(session)
        for seat in (None, 0, 1):
            total += leak_check(session, seat)
    assert total > 5 * 3 * 100


@pytest.mark.slow
def test_no_hidden_tile_leaks_in_a_full_length_game() -> None:
    session = random_game("western-mahjong", "leak-full")
    assert game_over(session) and len(session.state.history) >= 3
    for seat in (None, 0, 1):
        leak_check(session, seat)


def test_the_leak_check_catches_a_leak() -> None:
    session = random_game("western-mahjong", "leak-probe", max_plies=6)
    game = session.game
    original = game.mask_action
    game.mask_action = lambda b, a, f, s: game.format_action(b, a)  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="sees"):
            leak_check(session, 0)
    finally:
        game.mask_action = original  # type: ignore[method-assign]


def test_the_leak_check_catches_the_opponents_hand_in_the_view() -> None:
    session = random_game("western-mahjong", "leak-probe", max_plies=12)
    game = session.game
    original = game.view

    def leaky(state: MahjongState, seat: int | None) -> dict[str, object]:
        data = original(state, seat)
        if seat is not None:
            data["hint"] = " ".join(NAMES[f] for f in range(34) if state.hands[1 - seat][f])
        return data

    game.view = leaky  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="sees"):
            leak_check(session, 0)
    finally:
        game.view = original  # type: ignore[method-assign]


def game_over(session: Session) -> bool:
    return session.game.outcome(session.state) is not None


def test_the_spectator_sees_no_hand_and_no_drawn_tile() -> None:
    """--as spectator: no hand, no drawn tile; the master record (no --as): both hands and
    the tile drawn, as the referee holds them."""
    session = random_game("western-mahjong", "spectator", max_plies=200)
    drawn = 0
    for ply in range(session.ply + 1):
        data = render.show_data(session, ply, "spectator")
        assert data["position"]["hands"] == {"p1": None, "p2": None}
        assert "drawn" not in data["position"]
        master = render.show_data(session, ply)["position"]
        assert None not in master["hands"].values()
        drawn += "drawn" in master
    assert drawn > 0
    text = "".join(session.game.mask_action(session.states[i], s.action, session.state, None)
                   for i, s in enumerate(session.steps) if s.seat == CHANCE)
    assert set(TILE.findall(text)) == set()


# -- sample records -----------------------------------------------------------------------------


def test_sample_records_are_complete_and_valid() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    terminations = set()
    for path in files:
        text = path.read_text()
        verdicts = check_text(text, str(path))
        assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        session = load_one(text)
        outcome = session.game.outcome(session.state)
        assert outcome is not None
        terminations.add(outcome.termination)
    assert terminations == {"out of points", "max plies", "resignation"}


def test_options_are_declared_with_their_defaults() -> None:
    declared = {o.name: o.default for o in WesternMahjong.options}
    assert declared == {"out_by_discard": "on", "max_plies": "5000"}
    with pytest.raises(GameError):
        WesternMahjong({"out_by_discard": "maybe"})


def test_out_by_discard_off_actions_round_trip_and_never_dead_end() -> None:
    session = random_game("western-mahjong", "off-round-trip",
                          options={"out_by_discard": "off"}, max_plies=600)
    game = session.game
    for state in session.states:
        if game.to_move(state) in (None, CHANCE):
            continue
        actions = game.legal_actions(state)
        assert actions
        for action in actions:
            assert game.parse_action(state, game.format_action(state, action)) == action
