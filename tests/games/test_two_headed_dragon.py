"""Two-Headed Dragon: the worked hand, the scoring table, every edge case, views and leaks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import svg_words

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.two_headed_dragon import (
    ALL_TILES,
    TILES_IN_USE,
    DragonState,
    TwoHeadedDragon,
    hand_scores,
    next_leader,
    tile_text,
)
from gametool.players.auto import random_game
from gametool.records import Session, check_text, load_one
from gametool.views import render

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "two-headed-dragon"

DEALS = """\
deal p1: 5-1 6-6 1-1 1-4 4-4 5-5 4-6
deal p2: 1-3 3-3 1-2 2-2 2-6 5-6 1-6
deal p3: 2-4 2-5 2-3 3-4 3-5 3-6 4-5
leader p1""".splitlines()

ROUNDS = [
    ["lead 5-1 open 1", "play 1-3", "play 5-2"],
    ["sheep 6-6", "play 3-3", "play 2-4"],
    ["sheep 5-5", "sheep 5-6", "play 2-3"],
    ["play 1-4", "play 1-2", "sheep 3-6"],
    ["play 1-1", "play 1-6", "sheep 4-5"],
    ["sheep 4-6", "sheep 2-6", "sheep 3-5"],
    ["sheep 4-4", "sheep 2-2", "sheep 3-4"],
]
WORKED = DEALS + [a for r in ROUNDS for a in r]


def run(game: TwoHeadedDragon, texts: list[str], state: DragonState | None = None,
        nseats: int = 3) -> list[DragonState]:
    states = [state if state is not None else game.initial_state(nseats)]
    for text in texts:
        current = states[-1]
        action = game.parse_action(current, text)
        if game.to_move(current) != CHANCE and action != RESIGN:
            assert action in game.legal_actions(current), text
        states.append(game.apply(current, action))
    return states


def tiles(text: str) -> tuple[tuple[int, int], ...]:
    out = []
    for t in text.split():
        a, b = int(t[0]), int(t[2])
        out.append((min(a, b), max(a, b)))
    return tuple(sorted(out))


def dealt(nseats: int, hands: list[str], leader: int, **changes: object) -> DragonState:
    """A hand just dealt (hand 1 unless changed) with ``leader`` to lead."""
    base = TwoHeadedDragon().initial_state(nseats)
    return base._replace(hands=tuple(tiles(h) for h in hands), dealt=nseats, leader=leader,
                         seat=leader, **changes)


@pytest.fixture
def game() -> TwoHeadedDragon:
    return TwoHeadedDragon()


# -- the worked hand ------------------------------------------------------------------------------


def test_worked_hand_ends_after_21_actions_with_totals_and_next_leader(
        game: TwoHeadedDragon) -> None:
    states = run(game, WORKED)
    assert len(WORKED) - len(DEALS) == 21
    final = states[-1]
    assert final.totals == (40, 23, 33)
    assert final.sheets == ((0, (40, 23, 33)),)  # everyone has sheep: nothing doubled
    assert final.hand_no == 2 and final.leader == 1  # p2 leads hand 2
    assert game.to_move(final) == CHANCE and final.dealt == 0


def test_worked_hand_ends_after_each_round(game: TwoHeadedDragon) -> None:
    states = run(game, WORKED)
    after_round = [states[len(DEALS) + 3 * (k + 1)] for k in range(6)]
    # (open, closed) after each round; rounds 3-6 give the open value only.
    assert after_round[0].ends == (3, 2)
    assert after_round[1].ends == (3, 4)
    assert after_round[2].ends[0] == 4
    assert after_round[3].ends[0] == 1
    assert sorted(after_round[4].ends) == [1, 6] and after_round[4].ends[0] == 1


def test_worked_round_1_step_by_step(game: TwoHeadedDragon) -> None:
    states = run(game, DEALS + ROUNDS[0])
    assert states[5].ends == (1, 5)  # lead 5-1 open 1: 5 closed, 1 open
    assert states[6].ends == (5, 3)  # play 1-3: the 1 end shows 3 (closed), the 5 end opens
    assert states[7].ends == (3, 2)  # play 5-2: the 5 end shows 2 (closed), the 3 end opens


def test_last_seven_actions_are_sheep_and_the_open_value_stays_1(
        game: TwoHeadedDragon) -> None:
    states = run(game, WORKED)
    start = len(WORKED) - 7
    assert all(text.startswith("sheep") for text in WORKED[start:])
    assert all(s.ends is not None and s.ends[0] == 1 for s in states[start:-1])
    for state in states[start:-1]:
        assert all(a[0] == "sheep" for a in game.legal_actions(state))


def test_worked_hand_sheep_bases(game: TwoHeadedDragon) -> None:
    state = run(game, WORKED)[-2]
    assert [sum(a + b for a, b in mine) for mine in state.sheep] == [40, 23, 26]
    final = game.apply(state, game.parse_action(state, "sheep 3-4"))
    assert final.totals == (40, 23, 33)


def test_worked_hand_illegal_alternatives(game: TwoHeadedDragon) -> None:
    states = run(game, WORKED)
    lead = states[4]
    with pytest.raises(IllegalAction, match="D3"):
        game.parse_action(lead, "lead 5-1 open 3")
    p2_round1 = states[5]
    with pytest.raises(IllegalAction, match="D5"):
        game.parse_action(p2_round1, "sheep 2-2")
    p3_round1 = states[6]
    with pytest.raises(IllegalAction, match="does not show the open value 5"):
        game.parse_action(p3_round1, "play 2-4")
    p1_round2 = states[7]
    with pytest.raises(IllegalAction, match="does not show the open value 3"):
        game.parse_action(p1_round2, "play 6-6")
    hand2 = states[-1]
    for deal in ("deal p1: 1-1 1-2 1-3 1-4 1-5 1-6 2-2", "deal p2: 2-3 2-4 2-5 2-6 3-3 3-4 3-5",
                 "deal p3: 3-6 4-4 4-5 4-6 5-5 5-6 6-6"):
        hand2 = game.apply(hand2, game.parse_action(hand2, deal))
    assert game.to_move(hand2) == 1  # p2 leads by the scoring, no leader action
    with pytest.raises(IllegalAction, match="only chance"):
        game.parse_action(hand2, "leader p3")
    with pytest.raises(IllegalAction, match="blank half"):
        game.parse_action(game.initial_state(3), "deal p1: 0-1 1-1 1-2 1-3 1-4 1-5 1-6")


# -- the deal and the leader (D1, D2) -------------------------------------------------------------


def test_three_player_deal_with_a_blank_is_rejected(game: TwoHeadedDragon) -> None:
    for blank in ("0-0", "0-6", "3-0"):
        with pytest.raises(IllegalAction, match="D1"):
            game.parse_action(game.initial_state(3),
                              f"deal p1: {blank} 1-1 1-2 1-3 1-4 1-5 1-6")


def test_four_player_hand_deals_all_28_tiles() -> None:
    game = TwoHeadedDragon()
    session = random_game("two-headed-dragon", "all-28", max_plies=5)
    state = session.states[4]
    assert state.nseats == 4 and state.dealt == 4
    assert sorted(t for hand in state.hands for t in hand) == sorted(ALL_TILES)
    three = random_game("two-headed-dragon", "all-21", names=["a", "b", "c"], max_plies=4)
    hands = three.states[3].hands
    assert len({t for h in hands for t in h}) == 21 and all(0 not in t for h in hands for t in h)
    assert game.chance_outcomes(state) == [("leader", s) for s in range(4)]


def test_deals_are_checked(game: TwoHeadedDragon) -> None:
    fresh = game.initial_state(4)
    with pytest.raises(IllegalAction, match="p1 is dealt now"):
        game.parse_action(fresh, "deal p2: 0-0 0-1 0-2 0-3 0-4 0-5 0-6")
    for short_or_long in ("deal p1: 0-0 0-1", "deal p1: 0-0 0-1 0-2 0-3 0-4 0-5 0-6 1-1"):
        with pytest.raises(MalformedAction, match="column"):  # the grammar has 7 tiles
            game.parse_action(fresh, short_or_long)
    with pytest.raises(IllegalAction, match="named twice"):
        game.parse_action(fresh, "deal p1: 0-0 0-1 1-0 0-3 0-4 0-5 0-6")
    after = game.apply(fresh, game.parse_action(fresh, "deal p1: 0-0 0-1 0-2 0-3 0-4 0-5 0-6"))
    with pytest.raises(IllegalAction, match="dealt already"):
        game.parse_action(after, "deal p2: 6-0 1-1 1-2 1-3 1-4 1-5 1-6")
    with pytest.raises(IllegalAction, match="chance is to move"):
        game.parse_action(after, "play 1-1")


def test_leader_is_named_only_in_hand_1(game: TwoHeadedDragon) -> None:
    states = run(game, DEALS[:3])
    state = states[-1]
    assert game.to_move(state) == CHANCE
    assert game.parse_action(state, "leader P3") == ("leader", 2)
    with pytest.raises(IllegalAction, match="there are 3 players"):
        game.parse_action(state, "leader p4")
    with pytest.raises(IllegalAction, match="dealt first"):
        game.parse_action(states[1], "leader p1")
    hand2 = run(game, WORKED)[-1]
    with pytest.raises(IllegalAction, match="hand 1 only"):
        game.parse_action(hand2, "leader p3")


def test_with_leader_p3_of_4_the_round_order_is_p3_p4_p1_p2(game: TwoHeadedDragon) -> None:
    state = game.initial_state(4)
    for seat, hand in enumerate(["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
                                 "2-3 2-4 2-5 2-6 3-3 3-4 3-5", "3-6 4-4 4-5 4-6 5-5 5-6 6-6"]):
        state = game.apply(state, game.parse_action(state, f"deal p{seat + 1}: {hand}"))
    state = game.apply(state, game.parse_action(state, "leader p3"))
    order = []
    for _ in range(8):
        order.append(game.to_move(state))
        state = game.apply(state, game.legal_actions(state)[0])
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


# -- leading and playing (D3-D6) ------------------------------------------------------------------


def test_lead_of_a_double_then_the_other_4_end_opens(game: TwoHeadedDragon) -> None:
    state = dealt(3, ["4-4 1-1", "4-2 1-2", "3-3 5-5"], 0)
    assert [game.format_action(state, a) for a in game.legal_actions(state)] == [
        "lead 1-1 open 1", "lead 4-4 open 4"]  # a double names one value
    led = game.apply(state, game.parse_action(state, "lead 4-4 open 4"))
    assert led.ends == (4, 4)
    assert game.legal_actions(led) == [("play", (2, 4))]
    with pytest.raises(IllegalAction, match="does not show"):
        game.parse_action(led, "play 1-2")
    after = game.apply(led, game.parse_action(led, "play 4-2"))
    assert after.ends == (4, 2)  # the other end (4) is open, the 2 closed


def test_lead_5_1_open_1_then_play_1_3_opens_5(game: TwoHeadedDragon) -> None:
    state = dealt(3, ["5-1 6-6", "1-3 2-2", "4-4 3-3"], 0)
    states = run(game, ["lead 1-5 open 1", "play 3-1"], state)
    assert states[-1].ends[0] == 5


def test_sheep_only_without_a_match_and_then_any_tile(game: TwoHeadedDragon) -> None:
    state = dealt(3, ["5-1 6-6", "2-2 4-6 1-6", "4-4 3-3"], 0)
    led = game.apply(state, game.parse_action(state, "lead 5-1 open 1"))
    with pytest.raises(IllegalAction, match="must be played"):
        game.parse_action(led, "sheep 2-2")
    p3 = game.apply(led, game.parse_action(led, "play 1-6"))
    nomatch = p3._replace(seat=1, hands=(p3.hands[0], tiles("2-2 4-6"), p3.hands[2]))
    assert nomatch.ends[0] == 5
    assert sorted(game.legal_actions(nomatch)) == [("sheep", (2, 2)), ("sheep", (4, 6))]
    after = game.apply(nomatch, game.parse_action(nomatch, "sheep 6-4"))
    assert after.sheep[1] == ((4, 6),) and after.ends == nomatch.ends


def test_a_tile_not_in_hand_is_rejected(game: TwoHeadedDragon) -> None:
    state = dealt(3, ["5-1 6-6", "1-3 2-2", "4-4 3-3"], 0)
    with pytest.raises(IllegalAction, match="p1 holds no 2-3"):
        game.parse_action(state, "lead 2-3 open 2")
    with pytest.raises(IllegalAction, match="starts the hand"):
        game.parse_action(state, "play 5-1")
    with pytest.raises(IllegalAction, match="starts the hand"):
        game.parse_action(state, "sheep 2-3")  # not in hand, but the lead is due first


def test_a_second_lead_is_refused_for_what_it_is(game: TwoHeadedDragon) -> None:
    state = dealt(3, ["5-1 6-6", "1-3 2-2", "4-4 3-3"], 0)
    led = game.apply(state, game.parse_action(state, "lead 5-1 open 1"))
    with pytest.raises(IllegalAction, match="led already"):
        game.parse_action(led, "lead 2-2 open 2")  # p2 holds 2-2: the phase is what is wrong
    with pytest.raises(IllegalAction, match="3 is not on 1-5"):
        game.parse_action(state, "lead 5-1 open 3")


# -- scoring (D7, D8) -----------------------------------------------------------------------------


def test_doubling_row_of_the_scoring_table() -> None:
    sheep = [tiles("6-6 2-3"), tiles("0-1"), (), tiles("4-5")]
    scores = hand_scores(sheep)
    assert scores == (34, 2, 0, 18)
    assert next_leader(scores, 0) == 2


def test_tie_break_row_of_the_scoring_table() -> None:
    sheep = [tiles("1-3"), tiles("2-4"), tiles("1-3")]  # bases 4, 6, 4
    scores = hand_scores(sheep)
    assert scores == (4, 6, 4)
    assert next_leader(scores, 1) == 2  # order p2, p3, p1
    assert next_leader(scores, 0) == 0


def test_a_0_0_sheep_counts_as_a_sheep() -> None:
    sheep = [tiles("1-4"), tiles("1-2"), tiles("0-2"), tiles("0-0")]
    scores = hand_scores(sheep)
    assert scores == (5, 3, 2, 0)  # no doubling
    assert next_leader(scores, 0) == 3


def test_doubling_happens_once_when_two_players_have_no_sheep() -> None:
    assert hand_scores([tiles("6-6"), (), (), tiles("1-1")]) == (24, 0, 0, 4)
    assert hand_scores([tiles("6-6"), tiles("1-2"), tiles("1-1")]) == (12, 3, 2)


def test_hand_score_doubling_through_the_engine(game: TwoHeadedDragon) -> None:
    # p1 plays every tile, so p2 and p3 score double.
    state = dealt(3, ["1-1 1-2 1-3 1-4 1-5 1-6 2-2", "3-3 3-4 3-5 3-6 4-4 4-5 4-6",
                      "5-5 5-6 6-6 2-3 2-4 2-5 2-6"], 0)
    state = state._replace(actions=18, hands=(tiles("1-1"), tiles("3-3"), tiles("5-5")),
                           sheep=((), tiles("2-2"), tiles("6-6")), ends=(1, 4))
    for text in ("play 1-1", "sheep 3-3", "sheep 5-5"):
        state = game.apply(state, game.parse_action(state, text))
    assert state.totals == (0, 2 * (4 + 6), 2 * (12 + 10))
    assert state.leader == 0 and state.hand_no == 2


# -- the end of the game (D9, D11) ----------------------------------------------------------------


def _last_action_of_hand_10(game: TwoHeadedDragon, totals: tuple[int, ...]) -> DragonState:
    state = dealt(3, ["1-1", "2-2", "3-3"], 0, hand_no=10, totals=totals, actions=18)
    state = state._replace(ends=(6, 5), sheep=((), (), ()))
    for text in ("sheep 1-1", "sheep 2-2", "sheep 3-3"):
        state = game.apply(state, game.parse_action(state, text))
    return state


def test_after_hand_10_the_lowest_total_wins(game: TwoHeadedDragon) -> None:
    final = _last_action_of_hand_10(game, (10, 20, 30))
    assert final.totals == (12, 24, 36)
    outcome = game.outcome(final)
    assert outcome is not None and outcome.termination == "ten hands"
    assert [(r.result, r.rank) for r in outcome.results] == [("win", 1), ("loss", 2),
                                                             ("loss", 3)]
    assert game.to_move(final) is None
    with pytest.raises(GameOver):
        game.parse_action(final, "deal p1: 1-1 1-2 1-3 1-4 1-5 1-6 2-2")  # no 11th deal


def test_equal_lowest_totals_share_the_win(game: TwoHeadedDragon) -> None:
    final = _last_action_of_hand_10(game, (14, 12, 30))
    assert final.totals == (16, 16, 36)
    outcome = game.outcome(final)
    assert outcome is not None
    assert [(r.result, r.rank) for r in outcome.results] == [("win", 1), ("win", 1),
                                                             ("loss", 3)]


def test_resign_ends_the_game_and_ranks_the_resigner_last(game: TwoHeadedDragon) -> None:
    state = dealt(4, ["1-1", "2-2", "3-3", "4-4"], 2, totals=(5, 30, 0, 7))
    final = game.apply(state, game.parse_action(state, "RESIGN"))
    outcome = game.outcome(final)
    assert outcome is not None and outcome.termination == "resignation"
    assert [(r.result, r.rank) for r in outcome.results] == [("win", 1), ("loss", 3),
                                                             ("loss", 4), ("loss", 2)]


def test_a_whole_game_has_ten_hands() -> None:
    session = random_game("two-headed-dragon", "ten-hands", names=["a", "b", "c"])
    state = session.state
    assert len(state.sheets) == 10 and state.totals == tuple(
        sum(scores[i] for _l, scores in state.sheets) for i in range(3))
    assert session.ply == 10 * (3 + 21) + 1
    leaders = [lead for lead, _s in state.sheets]
    for k in range(1, 10):
        assert leaders[k] == next_leader(state.sheets[k - 1][1], leaders[k - 1])


# -- notation --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["lead 5-1", "play", "play 7-1", "sheep 1", "lead 5-1 open 9",
                                  "deal p5: 1-1", "leader", "pass", "play 1-1 1-2"])
def test_malformed_actions_give_one_line(game: TwoHeadedDragon, text: str) -> None:
    state = dealt(3, ["5-1 6-6", "1-3 2-2", "4-4 3-3"], 0)
    with pytest.raises(MalformedAction) as err:
        game.parse_action(state, text)
    assert "\n" not in str(err.value)


def test_halves_in_either_order_and_any_case(game: TwoHeadedDragon) -> None:
    state = dealt(3, ["5-1 6-6", "1-3 2-2", "4-4 3-3"], 0)
    assert game.parse_action(state, " LEAD 1-5 OPEN 1 ") == ("lead", (1, 5), 1)
    assert game.format_action(state, ("lead", (1, 5), 1)) == "lead 5-1 open 1"
    led = game.apply(state, ("lead", (1, 5), 1))
    assert game.parse_action(led, "Play 3-1") == ("play", (1, 3))
    assert game.format_action(led, ("play", (1, 3))) == "play 1-3"  # the matching half first


def test_deal_is_seen_only_by_its_player(game: TwoHeadedDragon) -> None:
    states = run(game, DEALS)
    action = game.parse_action(states[0], DEALS[0])
    assert game.mask_action(states[0], action, states[-1], 0).startswith("deal p1: 1-1")
    assert game.mask_action(states[0], action, states[-1], 1) == "deal p1: ?"
    assert game.mask_action(states[0], action, states[-1], None) == "deal p1: ?"


# -- views and the CLI ---------------------------------------------------------------------------


def test_views_show_own_hand_and_public_sheep(game: TwoHeadedDragon) -> None:
    state = run(game, WORKED[:10])[-1]
    mine = game.view(state, 1)
    assert mine["hands"]["p1"] is None and mine["hands"]["p3"] is None and mine["hands"]["p2"]
    assert mine["sheep"]["p1"] == "6-6" and mine["hand_sizes"] == {"p1": 5, "p2": 5, "p3": 5}
    assert game.view(state, None)["hands"] == {"p1": None, "p2": None, "p3": None}
    text = game.render(state, 0, ["ann", "ben", "cy"])
    assert "hand of ann:" in text and "6-6" in text and "open 3" in text
    assert "hand of" not in game.render(state, None, ["ann", "ben", "cy"])


def test_cli_show_as_seat_and_json(tmp_path: Path) -> None:
    session = random_game("two-headed-dragon", "cli", max_plies=60)
    path = tmp_path / "thd.gtn"
    path.write_text(session.text())
    runner = CliRunner()
    out = runner.invoke(cli, ["show", str(path), "--as", "p2", "--weak-seed-ok"])
    assert out.exit_code == 0, out.output
    assert "hand 2 of 10" in out.output and "sheep" in out.output
    data = json.loads(runner.invoke(cli, ["show", str(path), "--as", "p2", "--json",
                                         "--weak-seed-ok"]).output)
    assert data["position"]["hands"]["p2"] and data["position"]["hands"]["p1"] is None
    assert set(data["scores"]) == {"p1", "p2", "p3", "p4"}
    bad = runner.invoke(cli, ["move", str(path), "sheep 9-9"])
    assert bad.exit_code == 1 and len(bad.output.strip().splitlines()) == 1


def test_show_draws_the_chain_in_order_between_its_open_and_closed_ends(
        game: TwoHeadedDragon) -> None:
    states = run(game, WORKED)
    names = ["ann", "ben", "cy"]
    # Round 1 of the worked hand: 5-1 led open 1, 1-3 on the 1, 5-2 on the 5.
    assert "chain: [closed 5] 5-1 [open 1]" in game.render(states[5], 0, names)
    assert "chain: [open 5] 5-1 1-3 [closed 3]" in game.render(states[6], 0, names)
    assert "chain: [closed 2] 2-5 5-1 1-3 [open 3]" in game.render(states[7], 0, names)
    after_round_5 = states[len(DEALS) + 15]  # the chain ends 1 and 6, open 1
    view = game.view(after_round_5, None)
    line = view["line"].split()
    assert len(line) == 10 and view["leader"] == "p1"  # 10 tiles played, 5 sheep
    assert all(a[-1] == b[0] for a, b in zip(line, line[1:], strict=False))  # halves touch
    assert {line[0][0], line[-1][-1]} == {"1", "6"}
    open_half = line[-1][-1] if view["open_end"] == "right" else line[0][0]
    assert open_half == "1" == str(view["open"])


# -- randomize_hidden: what computer players may assume ----------------------------------------


def test_randomize_hidden_depends_only_on_what_the_seat_sees() -> None:
    # Two positions that differ only in what a seat cannot see give the same sample for the same
    # stream, so a computer player never reads a hidden tile through its sample.
    for index in range(4):
        names = ["a", "b", "c"] if index % 2 else ["a", "b", "c", "d"]
        session = random_game("two-headed-dragon", f"blind-{index}", names=names,
                              max_plies=70)
        game = session.game
        for ply in range(0, session.ply + 1, 3):
            state = session.states[ply]
            for seat in [None, *range(len(names))]:
                other = game.randomize_hidden(state, seat, SeedRng("other", ply))
                assert game.view(other, seat) == game.view(state, seat)
                assert (game.randomize_hidden(state, seat, SeedRng("same", ply))
                        == game.randomize_hidden(other, seat, SeedRng("same", ply))), (ply, seat)


def test_randomize_hidden_resamples_every_unseen_tile_including_undealt_ones(
        game: TwoHeadedDragon) -> None:
    # Mid-deal (p1 and p2 dealt), p3 has seen nothing: p1's sampled hand may hold any of the
    # 21 tiles, not only the 14 already dealt.
    states = run(game, DEALS[:2])
    mid = states[-1]
    drawn = set()
    for k in range(30):
        sample = game.randomize_hidden(mid, 2, SeedRng("undealt", k))
        assert sample.dealt == 2 and [len(h) for h in sample.hands] == [7, 7, 0]
        assert len(set(sample.hands[0]) | set(sample.hands[1])) == 14
        drawn |= set(sample.hands[0])
    assert drawn == set(TILES_IN_USE[3])
    # In play: the seat's own hand, the chain and the sheep stay; the others' hands change.
    state = run(game, WORKED[:12])[-1]
    sample = game.randomize_hidden(state, 0, SeedRng("play", 0))
    assert sample.hands[0] == state.hands[0] and sample.chain == state.chain
    assert sample.sheep == state.sheep
    assert sorted(sample.hands[1] + sample.hands[2]) == sorted(state.hands[1] + state.hands[2])
    assert any(game.randomize_hidden(state, 0, SeedRng("play", k)).hands[1] != state.hands[1]
               for k in range(5))


# -- leaks ---------------------------------------------------------------------------------------

DOMINO = re.compile(r"(?<![0-9-])([0-6])-([0-6])(?![0-9-])")


def _found(text: str) -> set[tuple[int, int]]:
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in DOMINO.findall(text)}


def leak_check(session: Session, seat: int | None, full_text: bool = True) -> int:
    """Every ply: nothing in another player's hand appears in what ``seat`` is shown.

    Without ``full_text`` the board text is checked through the game's ``render`` (the only
    part of ``show`` text that depends on the position besides the JSON's ``last`` action),
    which saves formatting the score table at every ply.
    """
    game = session.game
    name = "spectator" if seat is None else session.names[seat]
    final = session.state
    masked = [game.mask_action(session.states[i], step.action, final, seat)
              for i, step in enumerate(session.steps)]
    exported = session.exported(seat)
    assert [a.text for line in exported.turns for a in line.actions] == masked
    hand_start = 0
    checked = 0
    for ply in range(session.ply + 1):
        state = session.states[ply]
        if state.dealt == 0:
            hand_start = ply  # a new hand: older actions name tiles of older hands
        hidden = {t for i, hand in enumerate(state.hands) if i != seat for t in hand}
        text = (render.show_text(session, ply, name) if full_text
                else game.render(state, seat, session.names))
        texts = [text, json.dumps(render.show_data(session, ply, name)), *masked[hand_start:ply]]
        if full_text:
            texts.append(svg_words(render.show_svg(session, ply, name)))
        if seat is not None and game.to_move(state) == seat:
            texts += [game.format_action(state, a) for a in game.legal_actions(state)]
        for text in texts:
            leaked = _found(text) & hidden
            assert not leaked, f"ply {ply}: {name} sees {leaked} in {text[:300]!r}"
        checked += len(texts)
    return checked


@pytest.mark.parametrize("chunk", [pytest.param(c, marks=[pytest.mark.slow] if c >= 4 else [])
                                   for c in range(20)])
def test_no_hidden_tile_leaks_in_100_random_games(chunk: int) -> None:
    # Every seat (and the spectator) at every ply of 100 complete games (20 chunks of 5, so
    # that parallel runs share them out), 3 and 4 players: show JSON, moves, export, and the
    # board text; the whole show text in one game of every ten. The first 20 games run in
    # every suite, the other 80 with ``-m slow``.
    for index in range(5 * chunk, 5 * chunk + 5):
        names = ["a", "b", "c"] if index % 2 else ["a", "b", "c", "d"]
        session = random_game("two-headed-dragon", f"leak-{index}", names=names)
        assert session.game.outcome(session.state) is not None
        for seat in [None, *range(len(names))]:
            assert leak_check(session, seat, full_text=index % 10 == 0) > session.ply


def test_the_leak_check_catches_a_leak() -> None:
    session = random_game("two-headed-dragon", "leak-probe", max_plies=10)
    game = session.game
    original = game.mask_action
    game.mask_action = lambda b, a, f, s: game.format_action(b, a)  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="sees"):
            leak_check(session, 0)
    finally:
        game.mask_action = original  # type: ignore[method-assign]


# -- sample records -------------------------------------------------------------------------------


def test_sample_records_are_complete_and_valid() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    sizes = set()
    terminations = set()
    for path in files:
        text = path.read_text()
        verdicts = check_text(text, str(path))
        assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        session = load_one(text)
        outcome = session.game.outcome(session.state)
        assert outcome is not None
        terminations.add(outcome.termination)
        sizes.add(len(session.names))
    assert sizes == {3, 4}
    assert terminations == {"ten hands", "resignation"}


def test_tile_text_and_tiles_in_use() -> None:
    assert tile_text((1, 5)) == "1-5"
    assert len(ALL_TILES) == 28


# -- evaluation (the greedy player's guide) -------------------------------------------------------


def test_evaluate_prefers_the_lightest_sheep(game: TwoHeadedDragon) -> None:
    # Round 2 of the worked hand: p1 holds no 3 and must expose a sheep (D6: any tile).
    state = run(game, WORKED[:7])[-1]
    assert game.legal_actions(state)[0][0] == "sheep"
    values = {tile_text(a[1]): game.evaluate(game.apply(state, a), 0)
              for a in game.legal_actions(state)}
    assert max(values, key=values.__getitem__) == "1-1"
    assert values["1-1"] > values["4-6"] > values["6-6"]


def test_evaluate_counts_the_doubling_while_a_player_has_no_sheep(
        game: TwoHeadedDragon) -> None:
    # After round 3 of the worked hand p1 (6-6 5-5) and p2 (5-6) have sheep, p3 none: D7
    # doubles their sheep for now. Had p3 exposed its 2-3 instead, nothing would double.
    state = run(game, WORKED[:13])[-1]
    assert [len(s) for s in state.sheep] == [2, 1, 0]
    p3_sheep = state._replace(sheep=(*state.sheep[:2], ((2, 3),)),
                              hands=(*state.hands[:2], tuple(t for t in state.hands[2]
                                                             if t != (2, 3))))
    # Others' mean: (44 + 22) / 2 = 33 doubled against (22 + 11) / 2 = 16.5, less p3's 5.
    gap = game.evaluate(state, 2) - game.evaluate(p3_sheep, 2)
    assert 20 < gap < 23
    # For p1 the doubling costs its own 22 pips once more, against p2's 11.
    assert game.evaluate(p3_sheep, 0) - game.evaluate(state, 0) > 10


def test_evaluate_reads_only_what_the_seat_sees(game: TwoHeadedDragon) -> None:
    state = run(game, WORKED[:9])[-1]
    for seat in range(3):
        for k in range(5):
            other = game.randomize_hidden(state, seat, SeedRng("e", k))
            assert game.evaluate(other, seat) == game.evaluate(state, seat)


def test_evaluate_of_a_finished_game_follows_the_result(game: TwoHeadedDragon) -> None:
    over = game.initial_state(3)._replace(totals=(10, 30, 20), result=("ten hands", None))
    assert game.evaluate(over, 0) == 1e9
    assert game.evaluate(over, 1) == game.evaluate(over, 2) == -1e9


def test_the_rules_text_offers_only_options_that_exist() -> None:
    out = CliRunner().invoke(cli, ["rules", "two-headed-dragon"]).output
    assert "players=" not in out
    declared = {o.name for o in TwoHeadedDragon.options}
    for name in re.findall(r"\b([a-z_]+)=", out):
        assert name in declared, name
    three = CliRunner().invoke(cli, ["start", "two-headed-dragon", "--players", "a,b,c"])
    assert three.exit_code == 0
