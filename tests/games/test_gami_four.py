"""Gami: Four: every edge case, worked example and decision of rules/gami-four.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.gami import GamiFour
from gametool.games.gami.state import GamiState
from gametool.records import Session, check_text, load_one

GAME = GamiFour()
CARDS = GAME.cards
SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "gami-four"

# Ten picks after which nobody holds a Gami: p1 AH 2H 3H AD 2D, p2 4H 4D 3D 3C AS.
QUIET_PICKS = ["pick AH", "pick 4H", "pick 2H", "pick 4D", "pick 3H", "pick 3D",
               "pick AD", "pick 3C", "pick 2D", "pick AS"]
# The phase-2 position of the rules file.
PHASE2 = ("AH 2H 3H 4C 2S", "AD 2D 3D 3C 4S", "4H 4D AC 2C AS 3S")


def play(state: GamiState, *texts: str, game: GamiFour = GAME) -> GamiState:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def start(game: GamiFour = GAME) -> GamiState:
    return game.initial_state(2)


def hand(state: GamiState, seat: int) -> set[str]:
    return set(CARDS.cards(state.hands[seat]))


def result(state: GamiState, game: GamiFour = GAME) -> tuple[str, list[str]]:
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.termination, [r.result for r in outcome.results]


# -- equipment -------------------------------------------------------------------------------------

GAMI_SETS = [
    "AH 2H 3H 4H", "AD 2D 3D 4D", "AC 2C 3C 4C", "AS 2S 3S 4S",
    "AH AD AC AS", "2H 2D 2C 2S", "3H 3D 3C 3S", "4H 4D 4C 4S",
    "AH 2C 3D 4S", "AS 2D 3C 4H",
    "2H 3C 4D", "AC 2D 3S", "2S 3D 4C", "AD 2C 3H",
]


def test_the_deck_is_the_aces_to_fours_of_four_suits_all_on_the_table() -> None:
    state = start()
    assert CARDS.count == 16
    assert state.table == CARDS.full and state.hands == (0, 0)
    assert GAME.to_move(state) == 0


def test_the_gami_sets_are_exactly_the_14_of_the_rules() -> None:
    assert sorted(CARDS.combos) == sorted(CARDS.mask(s.split()) for s in GAMI_SETS)


@pytest.mark.parametrize("gami", GAMI_SETS)
def test_each_gami_set_wins_when_its_last_card_is_picked(gami: str) -> None:
    cards = gami.split()
    for taken in cards:
        mine = [c for c in cards if c != taken]
        others = [n for n in CARDS.names if n not in cards]
        theirs = []
        for card in others:  # as many cards as p1, holding no Gami
            if len(theirs) < len(mine) and not CARDS.held(CARDS.mask([*theirs, card])):
                theirs.append(card)
        picks = 2 * len(mine)
        state = GAME.position(mine, theirs, picks=picks)
        assert GAME.to_move(state) == 0
        after = play(state, f"pick {taken}")
        assert result(after) == ("gami", ["win", "loss"])


# -- the swap relation -----------------------------------------------------------------------------

RELATION_TABLE = [
    ("AH", "2H", True), ("3S", "4S", True), ("AH", "4H", False), ("4H", "4C", True),
    ("3D", "3C", True), ("2D", "2S", True), ("3H", "3S", False), ("2H", "2D", False),
    ("2C", "2S", False), ("2H", "3C", False),
]


def swap_position(give: str, take: str) -> GamiState:
    """A phase-2 position with ``give`` in p1's hand, ``take`` on the table, no Gami held."""
    cards = [n for n in CARDS.names if n not in (give, take)]
    for shift in range(len(cards)):
        rest = cards[shift:] + cards[:shift]
        p1, p2 = [give, *rest[:4]], rest[4:9]
        if CARDS.held(CARDS.mask(p1)) or CARDS.held(CARDS.mask(p2)):
            continue
        state = GAME.position(p1, p2, [take, *rest[9:]])
        if GAME.to_move(state) == 0:
            return state
    raise AssertionError("no spread found")


@pytest.mark.parametrize(("x", "y", "related"), RELATION_TABLE)
def test_swap_relation_table_in_both_directions(x: str, y: str, related: bool) -> None:
    assert CARDS.is_related(x, y) is related
    assert CARDS.is_related(y, x) is related
    for give, take in ((x, y), (y, x)):
        state = swap_position(give, take)
        listed = {GAME.format_action(state, a) for a in GAME.legal_actions(state)}
        assert (f"swap {give}>{take}" in listed) is related
        if not related:
            with pytest.raises(IllegalAction, match="not a legal swap"):
                GAME.parse_action(state, f"swap {give}>{take}")


def test_d2_same_rank_swaps_work_for_odd_ranks_too() -> None:
    assert CARDS.is_related("AH", "AC") and CARDS.is_related("3D", "3S")


# -- phase 1 ---------------------------------------------------------------------------------------

def test_first_example_p1_wins_on_the_fifth_ply_with_a_three_card_gami() -> None:
    state = play(start(), "pick 2H", "pick AS", "pick 3C", "pick 2S")
    assert GAME.to_move(state) == 0
    state = play(state, "pick 4D")
    assert result(state) == ("gami", ["win", "loss"])
    assert hand(state, 0) == {"2H", "3C", "4D"}
    assert state.plies == 5
    with pytest.raises(GameOver):
        GAME.parse_action(state, "pick AH")


def test_second_example_p2_wins_on_the_sixth_ply() -> None:
    state = play(start(), "pick AH", "pick AD", "pick 4S", "pick 2C", "pick 3S", "pick 3H")
    assert result(state) == ("gami", ["loss", "win"])
    assert state.plies == 6
    assert {"AD", "2C", "3H"} <= hand(state, 1)


def test_a_four_card_gami_wins_on_the_pickers_fourth_pick() -> None:
    state = play(start(), "pick AS", "pick AH", "pick 2D", "pick 2H", "pick 3C", "pick 4C")
    assert GAME.to_move(state) == 0
    state = play(state, "pick 4H")
    assert result(state) == ("gami", ["win", "loss"])
    assert state.plies == 7


def test_a_four_card_gami_wins_on_the_pickers_fifth_pick() -> None:
    state = play(start(), "pick AS", "pick AH", "pick 2D", "pick 2H", "pick 3C", "pick 4C",
                 "pick 3H", "pick 3D")
    assert GAME.to_move(state) == 0
    action = GAME.parse_action(state, "pick 4H")
    assert GAME.describe_action(state, action) == "forms {AS, 2D, 3C, 4H}"
    state = GAME.apply(state, action)
    assert result(state) == ("gami", ["win", "loss"])
    assert state.plies == 9


def test_d3_after_ten_quiet_picks_the_eleventh_action_must_be_a_swap() -> None:
    state = play(start(), *QUIET_PICKS)
    assert GAME.phase(state) == "swapping"
    assert len(hand(state, 0)) == len(hand(state, 1)) == 5
    assert state.table.bit_count() == 6
    assert GAME.to_move(state) == 0  # D5
    with pytest.raises(IllegalAction, match="picking is over"):
        GAME.parse_action(state, "pick AC")
    assert all(a[0] == "swap" for a in GAME.legal_actions(state))
    after = play(state, "swap AH>AC")
    assert GAME.to_move(after) == 1


def test_swap_during_phase_1_is_rejected() -> None:
    state = play(start(), *QUIET_PICKS[:9])
    with pytest.raises(IllegalAction, match="pick a card instead"):
        GAME.parse_action(state, "swap AS>AC")


@pytest.mark.parametrize("text", ["pick AH", "pick 4H"])
def test_a_pick_of_a_card_in_a_hand_is_rejected(text: str) -> None:
    state = play(start(), "pick AH", "pick 4H")
    with pytest.raises(IllegalAction, match="not on the table"):
        GAME.parse_action(state, text)


@pytest.mark.parametrize("text", ["pick 5H", "pick QS", "pick A", "pick AX", "pick AH AD"])
def test_a_misspelt_pick_is_rejected(text: str) -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_action(start(), text)


@pytest.mark.parametrize(("text", "card"), [("pick 5H", "5H"), ("pick QS", "QS"),
                                         ("pick 10C", "10C")])
def test_a_card_outside_the_deck_is_named_in_the_error(text: str, card: str) -> None:
    with pytest.raises(MalformedAction, match=f"{card} is not a card of Gami: Four$"):
        GAME.parse_action(start(), text)


# -- phase 2 ---------------------------------------------------------------------------------------

def test_heart_spade_swaps_are_rejected_and_diamond_spade_accepted() -> None:
    state = GAME.position("AH 2H 3H 4C AS", "AD 2D 3D 3C 4S", "4H 4D AC 2C 2S 3S", to_move=1)
    assert GAME.to_move(state) == 1
    with pytest.raises(IllegalAction, match="spades and hearts are never swapped"):
        GAME.parse_action(state, "swap 4S>4H")
    GAME.parse_action(state, "swap 2D>2S")
    with pytest.raises(IllegalAction, match="hearts and spades are never swapped"):
        GAME.parse_action(GAME.position(*PHASE2), "swap 3H>3S")


def test_phase2_position_swap_4c_4h_wins_for_p1() -> None:
    state = GAME.position(*PHASE2)
    after = play(state, "swap 4C>4H")
    assert hand(after, 0) == {"AH", "2H", "3H", "4H", "2S"}
    assert result(after) == ("gami", ["win", "loss"])


def test_phase2_position_swap_2s_as_lets_p2_win_with_4s_4d() -> None:
    state = play(GAME.position(*PHASE2), "swap 2S>AS")
    assert GAME.to_move(state) == 1
    state = play(state, "swap 4S>4D")
    assert result(state) == ("gami", ["loss", "win"])


@pytest.mark.parametrize(("text", "why"), [
    ("swap 3H>3S", "never swapped"),
    ("swap AH>4H", "no A-4 link"),
    ("swap 2S>2C", "same colour"),
    ("pick 4H", "picking is over"),
])
def test_phase2_position_illegal_moves(text: str, why: str) -> None:
    with pytest.raises(IllegalAction, match=why):
        GAME.parse_action(GAME.position(*PHASE2), text)


def test_d7_there_are_no_claims_in_this_game() -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_action(GAME.position(*PHASE2), "swap 4C>4H claim AD")


def test_d8_p1_without_a_swap_at_the_start_of_phase_2_loses() -> None:
    picks = ["pick 2D", "pick AD", "pick 3D", "pick 4D", "pick AS", "pick 2C", "pick 2S",
             "pick 3C", "pick 3S", "pick 4S"]
    state = play(start(), *picks)
    assert hand(state, 0) == {"2D", "3D", "AS", "2S", "3S"}
    assert result(state) == ("no swap", ["loss", "win"])


def test_d8_a_player_left_without_a_swap_loses_on_their_turn() -> None:
    state = GAME.position("3H 2D 3D 4D AC", "AH 2H 4H 2C 3C")
    after = play(state, "swap 4D>4C")
    assert result(after) == ("no swap", ["win", "loss"])


def test_d6_a_swap_forming_a_gami_wins() -> None:
    state = play(start(), *QUIET_PICKS, "swap 2D>2C")
    assert {"AD", "2C", "3H"} <= hand(state, 0)
    assert result(state) == ("gami", ["win", "loss"])


REPEAT = ["swap AH>AC", "swap 4D>4C", "swap AC>AH", "swap 4C>4D"]


def test_d9_a_third_occurrence_of_a_position_is_a_draw() -> None:
    state = play(start(), *QUIET_PICKS, *REPEAT)
    assert GAME.view(state, None)["occurrences"] == 2
    state = play(state, *REPEAT[:3])
    assert GAME.to_move(state) == 1
    state = play(state, REPEAT[3])
    assert result(state) == ("repetition", ["draw", "draw"])
    assert state.plies == 18


def test_d10_max_plies_12_draws_after_the_second_swap() -> None:
    game = GamiFour({"max_plies": "12"})
    state = play(start(game), *QUIET_PICKS, "swap AH>AC", game=game)
    assert game.to_move(state) == 1
    state = play(state, "swap 4D>4C", game=game)
    assert result(state, game) == ("max plies", ["draw", "draw"])
    with pytest.raises(GameOver):
        game.parse_action(state, "swap AC>AH")


def test_resign_loses() -> None:
    state = play(start(), "pick AH", "resign")
    assert result(state) == ("resignation", ["win", "loss"])


# -- the command line and samples ------------------------------------------------------------------

def test_cli_plays_the_first_example_and_refuses_more(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", "gami-four", "-o", str(path)]).exit_code == 0
    moved = runner.invoke(cli, ["move", str(path), "pick 2H", "pick as", "pick 3C", "pick 2S",
                                "PICK 4D"])
    assert moved.exit_code == 0, moved.output
    text = path.read_text()
    assert '[Result "1-0"]' in text and '[Termination "gami"]' in text
    over = runner.invoke(cli, ["move", str(path), "pick AH"])
    assert over.exit_code == 1 and "over" in over.output
    shown = runner.invoke(cli, ["show", str(path)])
    assert "result: 1-0 (gami)" in shown.output
    assert "{2H, 3C, 4D}" in shown.output


def test_sample_records_are_complete_and_valid() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    endings = set()
    for path in files:
        (verdict,) = check_text(path.read_text(), str(path))
        assert verdict.ok, verdict.errors
        outcome = GAME.outcome(load_one(path.read_text(), str(path)).state)
        assert outcome is not None
        endings.add(outcome.termination)
    # every way the game can end
    assert endings >= {"gami", "no swap", "repetition", "max plies"}


def test_a_session_replays_the_second_example() -> None:
    session = Session.start("gami-four")
    session.play(["pick AH", "pick AD", "pick 4S", "pick 2C", "pick 3S", "pick 3H"])
    assert load_one(session.text()).states == session.states
