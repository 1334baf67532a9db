"""Space Cards: the categories, the worked examples, the turn, the options and the edge cases."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameError, GameOver, IllegalAction, MalformedAction
from gametool.games.space_cards import (
    CARD_ID,
    CATEGORIES,
    DECK,
    SpaceCards,
    SpaceState,
    category_scores,
)
from gametool.records import Session, load_one

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "space-cards"
CARD_PATTERN = re.compile(r"\b(?:[A2-7][HSCDUMT]|K[HSCD])\b")


def hand(text: str) -> list[int]:
    return [CARD_ID[c] for c in text.split()]


def scores_of(text: str) -> dict[str, int]:
    return dict(zip(CATEGORIES, category_scores(hand(text)), strict=True))


def run(game: SpaceCards, state: SpaceState, *texts: str) -> SpaceState:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


# -- the deck ------------------------------------------------------------------------------------


def test_deck_has_53_cards_and_kings_only_in_four_suits() -> None:
    names = {f"{rank}{'HSCDUMT'[suit]}" for rank, suit in DECK}
    assert len(DECK) == len(names) == 53
    assert {"KH", "KS", "KC", "KD"} <= names and not {"KU", "KM", "KT"} & names


# -- the worked example hand in every category ---------------------------------------------------


def test_worked_example_hand_in_all_15_categories() -> None:
    assert scores_of("3M 4U 5U 6U 7U KD") == {
        "hearts": 0, "spades": 0, "clubs": 0, "diamonds": 10, "suns": 22, "moons": 3,
        "stars": 0, "red": 10, "black": 0, "astronomy": 25, "sevenplus": 10, "run4": 15,
        "run5": 5, "run6": 6, "luck": 35,
    }


@pytest.mark.parametrize("category", CATEGORIES)
def test_worked_example_scored_through_the_engine(category: str) -> None:
    expected = scores_of("3M 4U 5U 6U 7U KD")[category]
    game = SpaceCards()
    state = run(game, game.initial_state(1), "deal 6: 3M 4U 5U 6U 7U KD", f"score {category}")
    assert state.cards[0][CATEGORIES.index(category)] == expected
    assert game.scores(state) == [expected]


def test_suit_categories_sum_values_with_ace_1_and_king_10() -> None:
    got = scores_of("AH KH 2S 3C 4D 5T")
    assert (got["hearts"], got["spades"], got["clubs"], got["diamonds"], got["stars"]) == (
        11, 2, 3, 4, 5)
    assert (got["red"], got["black"], got["astronomy"], got["luck"]) == (15, 5, 5, 25)


# -- runs (D5, D6) -------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "expected"), [
    ("5C 6C 7C KC 2H 2S", (15, 0, 0)),
    ("5T 6T 7T KH AM AU", (4, 0, 0)),
    ("AH 3M 5U 6U 7U KD", (4, 0, 0)),
    ("3H 3S 4H 5H 6C 2D", (4, 5, 0)),
    ("AH 2D 3H 4H 5H 6H", (15, 5, 6)),
    ("2S 3S 4S 5S 6S 7S", (15, 20, 30)),
    ("KH AH 2H 3H 5C 6D", (0, 0, 0)),
])
def test_further_run_examples(cards: str, expected: tuple[int, int, int]) -> None:
    got = scores_of(cards)
    assert (got["run4"], got["run5"], got["run6"]) == expected


def test_several_runs_of_four_one_same_suited_scores_15() -> None:
    assert scores_of("4H 5H 6H 7H 4S 5S")["run4"] == 15


def test_score_run6_without_a_run_scores_0_and_fills_the_category() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH AS 3C 3D 5U 5M", "score run6")
    assert state.cards[0][CATEGORIES.index("run6")] == 0
    state = run(game, state, "deal 6: AH AS 3C 3D 5U 5M", "score luck",
                "deal 6: 2H 3H 4H 5H 6H 7H")
    with pytest.raises(IllegalAction, match="already filled"):
        game.parse_action(state, "score run6")


# -- Seven Plus (D7) ------------------------------------------------------------------------------


def test_seven_plus_counts_a_lone_king() -> None:
    assert scores_of("KH AS 2C 3D AU AM")["sevenplus"] == 5


def test_seven_plus_with_3h_3d_only_counts_neither_suit() -> None:
    assert scores_of("3H 3D AS 2C AU AM")["sevenplus"] == 0


def test_seven_plus_looks_at_all_seven_suits() -> None:
    assert scores_of("7H 7S 7C 7D 7U 7M")["sevenplus"] == 30


# -- the turn: deal, trades, draws, score --------------------------------------------------------


def test_worked_turn_scores_15_in_run4() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH 3M")
    assert game.to_move(state) == CHANCE and state.aside == tuple(sorted(hand("AH 3M")))
    state = run(game, state, "draw 2: 4U 2T")
    assert game.format_action(state, game.parse_action(state, "score run4")) == "score run4"
    state = run(game, state, "score run4")
    assert state.cards[0][CATEGORIES.index("run4")] == 15
    assert game.to_move(state) == CHANCE and state.seat == 1


@pytest.mark.parametrize(("before", "text", "words"), [
    (["deal 6: AH 3M 5U 6U 7U KD"], "trade 4H", "4H is not in the hand"),
    (["deal 6: AH 3M 5U 6U 7U KD", "trade AH 3M"], "draw 2: 4U 3M", "set aside"),
    (["deal 6: AH 3M 5U 6U 7U KD", "trade AH 3M"], "draw 2: 4U", "2 cards announced, 1 listed"),
    (["deal 6: AH 3M 5U 6U 7U KD", "trade AH 3M"], "draw 1: 4U", "draw 2 cards, not 1"),
    (["deal 6: AH 3M 5U 6U 7U KD", "trade AH 3M"], "draw 2: 4U 5U", "already in the hand"),
    ([], "deal 6: AH AH 5U 6U 7U KD", "listed twice"),
    ([], "deal 6: KU AH 5U 6U 7U KD", "KU is not in the Space Cards deck"),
    ([], "deal 6: 8H AH 5U 6U 7U KD", "8H is not in the Space Cards deck"),
    ([], "deal 5: AH 5U 6U 7U KD", "deal 6 cards, not 5"),
    ([], "draw 2: AH 2H", "chance is to deal"),
    ([], "score luck", "chance is to deal"),
    ([], "resign", "chance is to deal"),
    (["deal 6: AH 3M 5U 6U 7U KD"], "deal 6: AH 3M 5U 6U 7U KD", "action of chance"),
    (["deal 6: AH 3M 5U 6U 7U KD"], "trade", "1 to 6 cards"),
    (["deal 6: AH 3M 5U 6U 7U KD"], "trade AH AH", "listed twice"),
    (["deal 6: AH 3M 5U 6U 7U KD", "trade AH", "draw 1: 2H", "trade 2H", "draw 1: 3H"],
     "trade 3H", "no trade left"),
])
def test_illegal_actions_name_the_rule(before: list[str], text: str, words: str) -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), *before)
    with pytest.raises(IllegalAction, match=words):
        game.parse_action(state, text)


@pytest.mark.parametrize("text", ["hello", "score foo", "deal AH", "trade AH x", "draw 2 4U 2T",
                                  "score", ""])
def test_malformed_actions(text: str) -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    with pytest.raises(MalformedAction) as info:
        game.parse_action(state, text)
    assert "\n" not in str(info.value)


def test_cards_are_read_in_any_case_and_order_and_written_in_run_order() -> None:
    game = SpaceCards()
    state = game.initial_state(2)
    action = game.parse_action(state, "  DEAL 6: kd 7u 6U 5u 3m ah ")
    assert game.format_action(state, action) == "deal 6: AH 3M 5U 6U 7U KD"
    state = game.apply(state, action)
    assert game.format_action(state, game.parse_action(state, "Trade 3m ah")) == "trade AH 3M"
    assert game.parse_action(state, "SCORE Run4") == ("score", CATEGORIES.index("run4"))


def test_score_straight_after_the_deal_is_accepted() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    assert ("score", CATEGORIES.index("luck")) in game.legal_actions(state)
    state = run(game, state, "score luck")
    assert state.cards[0][CATEGORIES.index("luck")] == 32


def test_trading_all_six_is_followed_by_draw_6() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD",
                "trade AH 3M 5U 6U 7U KD")
    assert game.to_move(state) == CHANCE and state.pending == 6 and state.hand == ()
    draw = game.sample_chance(state, SeedRng("all-six", 3))
    assert game.format_action(state, draw).startswith("draw 6: ")
    assert not set(draw[1]) & set(hand("AH 3M 5U 6U 7U KD"))
    state = run(game, state, "draw 6: 2H 3H 4H 5H 6H 7H", "score run6")
    assert state.cards[0][CATEGORIES.index("run6")] == 30


def test_a_card_drawn_in_the_first_trade_traded_in_the_second_cannot_come_back() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH",
                "draw 1: 2T", "trade 2T")
    assert state.aside == tuple(sorted(hand("AH 2T")))
    for back in ("2T", "AH"):
        with pytest.raises(IllegalAction, match="set aside"):
            game.parse_action(state, f"draw 1: {back}")
    for index in range(30):  # the seeded draw never brings it back either
        draw = game.sample_chance(state, SeedRng(f"back-{index}", 1))
        assert not set(draw[1]) & set(hand("AH 2T 3M 5U 6U 7U KD"))


def test_a_card_set_aside_may_be_dealt_again_next_turn() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH",
                "draw 1: 2T", "score luck")
    state = run(game, state, "deal 6: AH 2H 3H 4H 5H 6H")  # D3: a fresh deck each turn
    assert CARD_ID["AH"] in state.hand and state.aside == ()


def test_every_deal_is_a_fresh_seeded_shuffle_of_the_whole_deck() -> None:
    game = SpaceCards()
    state = game.initial_state(2)
    seen: set[int] = set()
    for ply in range(60):
        kind, cards = game.sample_chance(state, SeedRng("fresh", ply))
        assert kind == "deal" and len(set(cards)) == 6 and list(cards) == sorted(cards)
        seen |= set(cards)
    assert len(seen) > 45  # every card can come from the fresh deck
    assert game.sample_chance(state, SeedRng("s", 1)) == game.sample_chance(state,
                                                                          SeedRng("s", 1))


# -- options (D1) ---------------------------------------------------------------------------------


def test_two_trades_by_default_then_only_scoring() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH",
                "draw 1: 2H", "trade 2H", "draw 1: 3H")
    assert all(a[0] == "score" for a in game.legal_actions(state))
    assert len(game.legal_actions(state)) == 15


def test_option_trades_1_allows_one_trade() -> None:
    game = SpaceCards({"trades": "1"})
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH",
                "draw 1: 2H")
    with pytest.raises(IllegalAction, match="trades=1"):
        game.parse_action(state, "trade 2H")


def test_option_trades_0_forbids_any_trade() -> None:
    game = SpaceCards({"trades": "0"})
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    with pytest.raises(IllegalAction, match="trades=0"):
        game.parse_action(state, "trade AH")
    assert len(game.legal_actions(state)) == 15


def test_option_trades_accepts_only_0_1_2() -> None:
    with pytest.raises(GameError, match="expected one of"):
        SpaceCards({"trades": "3"})


def test_legal_actions_list_every_trade_and_every_open_category() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    actions = game.legal_actions(state)
    assert len(actions) == 15 + 63
    assert len({game.format_action(state, a) for a in actions}) == 78


def test_second_trade_lists_every_subset_of_the_hand_with_the_drawn_card() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH",
                "draw 1: 2T")
    trades = [a[1] for a in game.legal_actions(state) if a[0] == "trade"]
    current = state.hand
    assert len(trades) == len(set(trades)) == 63
    assert all(list(t) == sorted(t) and set(t) <= set(current) for t in trades)
    assert (CARD_ID["2T"],) in trades and (CARD_ID["AH"],) not in trades
    assert tuple(current) in trades  # all six at once (D2)


# -- turns, end and result (D8, D9, D11) ---------------------------------------------------------


def play_turns(game: SpaceCards, state: SpaceState, count: int) -> SpaceState:
    for index in range(count):
        seat = state.seat
        state = run(game, state, "deal 6: AH 3M 5U 6U 7U KD")
        assert game.to_move(state) == seat
        open_box = state.cards[seat].index(None)
        state = run(game, state, f"score {CATEGORIES[open_box]}")
        del index
    return state


def test_three_players_take_turns_in_seat_order() -> None:
    game = SpaceCards()
    state = game.initial_state(3)
    order = []
    for _ in range(7):
        order.append(state.seat)
        state = play_turns(game, state, 1)
    assert order == [0, 1, 2, 0, 1, 2, 0]


def test_resign_by_p2_of_three_leaves_p1_and_p3_alternating() -> None:
    game = SpaceCards()
    state = play_turns(game, game.initial_state(3), 1)
    state = run(game, state, "deal 6: AH 3M 5U 6U 7U KD", "resign")
    assert game.outcome(state) is None and state.seat == 2
    order = []
    for _ in range(4):
        order.append(state.seat)
        state = play_turns(game, state, 1)
    assert order == [2, 0, 2, 0]
    state = play_turns(game, state, (15 - 3) + (15 - 2))  # p1 has 3 turns, p3 has 2
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "all categories filled"
    assert outcome.results[1].result == "loss" and outcome.results[1].rank == 3


def test_a_resigner_ranks_last_whatever_the_total() -> None:
    game = SpaceCards()
    state = game.initial_state(3)
    state = run(game, state, "deal 6: 7H 7S 7C 7D KH KS", "score luck")  # p1: 48
    state = run(game, state, "deal 6: AH AS AC AD AU AM", "score luck")  # p2: 6
    state = run(game, state, "deal 6: AH 3M 5U 6U 7U KD", "resign")  # p3 leaves
    assert game.outcome(state) is None
    state = play_turns(game, state, 28)
    outcome = game.outcome(state)
    assert outcome is not None
    assert [r.rank for r in outcome.results] == [1, 2, 3]
    assert outcome.results[2].result == "loss"


def test_resign_of_one_of_two_players_ends_the_game() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    assert game.parse_action(state, "RESIGN") == RESIGN
    state = game.apply(state, RESIGN)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "resignation"
    assert outcome.winners == [1]


def test_game_ends_after_15_turns_each_and_a_16th_deal_is_rejected() -> None:
    game = SpaceCards()
    state = play_turns(game, game.initial_state(2), 29)
    assert game.outcome(state) is None and state.seat == 1
    state = play_turns(game, state, 1)
    assert game.to_move(state) is None
    assert all(None not in card for card in state.cards)
    for text in ("deal 6: AH 3M 5U 6U 7U KD", "score luck", "resign"):
        with pytest.raises(GameOver):
            game.parse_action(state, text)


def test_equal_highest_totals_both_win() -> None:
    game = SpaceCards()
    state = play_turns(game, game.initial_state(2), 30)
    outcome = game.outcome(state)
    assert outcome is not None
    assert [r.result for r in outcome.results] == ["win", "win"]
    assert outcome.results[0].score == outcome.results[1].score


def test_higher_total_wins_and_lower_loses() -> None:
    game = SpaceCards()
    state = play_turns(game, game.initial_state(2), 29)
    state = run(game, state, "deal 6: AH AS AC AD AU AM", "score luck")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == [0]
    assert outcome.results[1].result == "loss" and outcome.results[1].rank == 2


def test_one_player_result_is_the_total_alone() -> None:
    game = SpaceCards()
    state = play_turns(game, game.initial_state(1), 15)
    outcome = game.outcome(state)
    assert outcome is not None and len(outcome.results) == 1
    assert outcome.results[0].score == game.scores(state)[0] == sum(state.cards[0])
    assert outcome.result_tag() == "1"


def test_players_from_one_to_four() -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["start", "space-cards", "--players", "a"]).exit_code == 0
    assert runner.invoke(cli, ["start", "space-cards", "--players", "a,b,c,d"]).exit_code == 0
    result = runner.invoke(cli, ["start", "space-cards", "--players", "a,b,c,d,e"])
    assert result.exit_code == 1


# -- what a player is shown ---------------------------------------------------------------------


def test_show_prints_score_cards_hand_and_what_each_open_category_would_score(
        tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", "space-cards", "--players", "ann,ben", "--no-seed",
                               "-o", str(path)]).exit_code == 0
    for text in ("deal 6: 7H 7S 7C 7D KH KS", "score luck", "deal 6: AH 3M 5U 6U 7U KD"):
        assert runner.invoke(cli, ["move", str(path), text]).exit_code == 0, text
    out = runner.invoke(cli, ["show", str(path), "--as", "ann"]).output
    assert "hand: AH 3M 5U 6U 7U KD" in out
    header = next(line for line in out.splitlines() if line.startswith("category"))
    assert header.split() == ["category", "ann", "ben", "now", "(ben)"]
    row = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}
    assert row["luck"] == ["48", "-", "32"]
    assert row["run4"] == ["-", "-", "4"]
    assert row["total"] == ["48", "0"]
    data = json.loads(runner.invoke(cli, ["show", str(path), "--json"]).output)
    assert data["scores"] == {"ann": 48, "ben": 0}
    assert data["position"]["would_score"]["suns"] == 18
    assert data["position"]["score_cards"]["ann"]["luck"] == 48
    assert data["position"]["totals"] == {"ann": 48, "ben": 0}
    assert data["position"]["turn_of"] == "ben" and data["position"]["resigned"] == []
    assert runner.invoke(cli, ["move", str(path), "resign"]).exit_code == 0
    position = json.loads(runner.invoke(cli, ["show", str(path), "--json"]).output)["position"]
    assert position["resigned"] == ["ben"]


def test_deck_order_never_shown_before_the_cards_are_dealt(tmp_path: Path) -> None:
    session = Session.start("space-cards", ["ann", "ben"], seed="deck-secret")
    game = session.game
    while session.ply < 40:
        state = session.state
        actions = game.legal_actions(state)
        trade = next((a for a in actions if a[0] == "trade"), None)
        session.push(trade if trade and state.trades == 0 else actions[0])
    path = tmp_path / "g.gtn"
    path.write_text(session.text())
    runner = CliRunner()
    dealt_by_ply = [set(CARD_PATTERN.findall(step.text)) for step in session.steps]
    for ply in range(session.ply + 1):
        seen = set().union(*dealt_by_ply[:ply])
        for seat in ("ann", "ben"):
            shown = runner.invoke(cli, ["show", str(path), "--as", seat, "--ply", str(ply),
                                        "--json", "--weak-seed-ok"]).output
            assert set(CARD_PATTERN.findall(shown)) <= seen, ply
            assert "deck-secret" not in shown
    exported = runner.invoke(cli, ["export", str(path), "--as", "ann", "--weak-seed-ok"]).output
    assert "deck-secret" not in exported and "[SeedHash" in exported
    assert set(CARD_PATTERN.findall(exported)) <= set().union(*dealt_by_ply)


def test_views_hold_no_undealt_cards() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD", "trade AH")
    for seat in (None, 0, 1):
        view = game.view(state, seat)
        assert view["undealt"] == 47 and view["to_draw"] == 1
        assert set(CARD_PATTERN.findall(json.dumps(view))) == {"AH", "3M", "5U", "6U", "7U",
                                                               "KD"}


def test_describe_action_names_the_score() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    action = game.parse_action(state, "score suns")
    assert game.describe_action(state, action) == "suns scores 18"


# -- sample records --------------------------------------------------------------------------


def test_sample_records_validate_solo_and_three_players() -> None:
    paths = sorted(SAMPLES.glob("*.gtn"))
    counts = set()
    for path in paths:
        session = load_one(path.read_text(), str(path))
        assert session.game.outcome(session.state) is not None, path
        counts.add(len(session.names))
    assert {1, 3} <= counts
    result = CliRunner().invoke(cli, ["validate", *map(str, paths)])
    assert result.exit_code == 0, result.output


def test_state_is_never_mutated_by_apply() -> None:
    game = SpaceCards()
    state = run(game, game.initial_state(2), "deal 6: AH 3M 5U 6U 7U KD")
    copy = replace(state)
    for action in game.legal_actions(state):
        game.apply(state, action)
    assert state == copy


def test_show_prints_the_scores_once(tmp_path: Path) -> None:
    path = tmp_path / "s.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "space-cards", "--players", "ann,ben", "--seed", "1", "-o",
                        str(path)])
    out = runner.invoke(cli, ["show", str(path)]).output
    assert out.count("total") == 1 and "score" not in out.replace("score card", "")
