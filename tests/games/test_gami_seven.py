"""Gami: Seven: every edge case, worked example and decision of rules/gami-seven.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.gami import GamiSeven
from gametool.games.gami.state import GamiState
from gametool.records import Session, check_text, load_one

GAME = GamiSeven()
CARDS = GAME.cards
SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "gami-seven"

WORKED = ["pick AH", "pick 2D", "pick 2H", "pick 4D", "pick 3H return 4D", "pick 2C",
          "pick 5C", "pick 4D", "pick 6C", "pick 3D", "pick AC return 3D", "pick 5D",
          "pick 4C", "pick 3D return AC", "swap 3H>4H", "swap 5D>6D", "swap 4H>3H claim 2C"]


def play(state: GamiState, *texts: str, game: GamiSeven = GAME) -> GamiState:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def worked(plies: int, game: GamiSeven = GAME) -> GamiState:
    return play(game.initial_state(2), *WORKED[:plies], game=game)


def hand(state: GamiState, seat: int) -> set[str]:
    return set(CARDS.cards(state.hands[seat]))


def cards(text: str) -> set[str]:
    return set(text.split())


def result(state: GamiState, game: GamiSeven = GAME) -> tuple[str, list[str]]:
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.termination, [r.result for r in outcome.results]


# -- equipment -------------------------------------------------------------------------------------

GAMI_SETS = [
    "AH 2H 3H", "AD 2D 3D", "AC 2C 3C",
    "3H 4H 5H", "3D 4D 5D", "3C 4C 5C",
    "5H 6H AH", "5D 6D AD", "5C 6C AC",
    "2H 2D 2C", "4H 4D 4C", "6H 6D 6C",
]


def test_the_deck_is_18_cards_all_on_the_table_at_the_start() -> None:
    state = GAME.initial_state(2)
    assert CARDS.count == 18 and state.table == CARDS.full
    assert GAME.phase(state) == "picking" and GAME.to_move(state) == 0


def test_the_gami_sets_are_exactly_the_12_of_the_rules() -> None:
    assert sorted(CARDS.combos) == sorted(CARDS.mask(s.split()) for s in GAMI_SETS)


@pytest.mark.parametrize("gami", GAMI_SETS)
def test_each_gami_set_earns_a_return_when_picked_and_a_claim_when_swapped(gami: str) -> None:
    members = gami.split()
    others = [n for n in CARDS.names if n not in members]
    for taken in members:
        mine = [c for c in members if c != taken]
        picking = GAME.position(mine, others[:2], picks=4)
        with pytest.raises(IllegalAction, match="must return"):
            GAME.parse_action(picking, f"pick {taken}")
        action = GAME.parse_action(picking, f"pick {taken} return {others[0]}")
        assert GAME.describe_action(picking, action) == f"forms {{{', '.join(members)}}}"
        give = next(n for n in others if CARDS.is_related(n, taken))
        theirs = [n for n in others if n != give][:5]
        swapping = GAME.position([*mine, give], theirs)
        with pytest.raises(IllegalAction, match="must claim"):
            GAME.parse_action(swapping, f"swap {give}>{taken}")
        GAME.parse_action(swapping, f"swap {give}>{taken} claim {theirs[0]}")


# -- the swap relation -----------------------------------------------------------------------------

RELATION_TABLE = [
    ("AH", "2H", True), ("AH", "6H", True), ("6C", "AC", True), ("4C", "4D", True),
    ("6D", "6C", True), ("2H", "2D", False), ("3H", "3C", False), ("6H", "5C", False),
]


def swap_position(give: str, take: str) -> GamiState:
    """A phase-2 position with ``give`` in p1's hand and ``take`` on the table."""
    rest = [n for n in CARDS.names if n not in (give, take)]
    for shift in range(len(rest)):
        spread = rest[shift:] + rest[:shift]
        state = GAME.position([give, *spread[:5]], spread[5:11], [take, *spread[11:]])
        if GAME.to_move(state) == 0:
            return state
    raise AssertionError("no spread found")


@pytest.mark.parametrize(("x", "y", "related"), RELATION_TABLE)
def test_swap_relation_table_in_both_directions(x: str, y: str, related: bool) -> None:
    assert CARDS.is_related(x, y) is related
    assert CARDS.is_related(y, x) is related
    for give, take in ((x, y), (y, x)):
        state = swap_position(give, take)
        listed = {GAME.format_action(state, a).split()[1] for a in GAME.legal_actions(state)}
        assert (f"{give}>{take}" in listed) is related
        if not related:
            with pytest.raises(IllegalAction, match="not a legal swap"):
                GAME.parse_action(state, f"swap {give}>{take}")


def test_d1_red_fours_never_swap() -> None:
    with pytest.raises(IllegalAction, match="same colour"):
        GAME.parse_action(swap_position("4H", "4D"), "swap 4H>4D")


# -- the worked record -----------------------------------------------------------------------------

def test_worked_record_after_ply_14() -> None:
    state = worked(14)
    assert hand(state, 0) == cards("4C 5C 6C AH 2H 3H")
    assert hand(state, 1) == cards("2C 2D 3D 4D 5D")
    assert set(CARDS.cards(state.table)) == cards("AC 3C AD 6D 4H 5H 6H")
    assert GAME.phase(state) == "swapping" and GAME.to_move(state) == 0


def test_worked_record_after_ply_17() -> None:
    state = worked(17)
    assert hand(state, 0) == cards("2C 4C 5C 6C AH 2H 3H")
    assert hand(state, 1) == cards("2D 3D 4D 6D")
    assert set(CARDS.cards(state.table)) == cards("AC 3C AD 5D 4H 5H 6H")
    assert GAME.to_move(state) == 1


def test_worked_record_through_a_session() -> None:
    session = Session.start("gami-seven")
    session.play(WORKED)
    assert session.state == worked(17)
    assert "17. p1: swap 4H>3H claim 2C" in session.text()


@pytest.mark.parametrize(("ply", "text", "why"), [
    (5, "pick 3H", "must return"),
    (5, "pick 3H return 2C", "2C is on the table, not in your opponent's hand"),
    (7, "pick 5C return 2C", "forms no new Gami"),
    (15, "pick 4H", "picking is over"),
    (15, "swap 3H>3C", "only even ranks"),
    (17, "swap 4H>3H", "must claim"),
])
def test_illegal_alternatives_of_the_worked_record(ply: int, text: str, why: str) -> None:
    with pytest.raises(IllegalAction, match=why):
        GAME.parse_action(worked(ply - 1), text)


@pytest.mark.parametrize(("ply", "text", "message"), [
    (5, "pick 3H", "pick 3H: taking 3H forms a new Gami, so the move must return a card of "
                   "your opponent's hand (D5)"),
    (7, "pick 5C return 2C", "pick 5C return 2C: taking 5C forms no new Gami including it (D2)"),
    (17, "swap 4H>3H", "swap 4H>3H: taking 3H forms a new Gami, so the move must claim a card "
                       "of your opponent's hand (D6)"),
])
def test_return_and_claim_errors_quote_the_whole_action(ply: int, text: str, message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        GAME.parse_action(worked(ply - 1), text)
    assert str(info.value) == message


def test_d5_the_return_is_compulsory_even_with_claim_optional() -> None:
    game = GamiSeven({"claim": "optional"})
    with pytest.raises(IllegalAction, match="must return"):
        game.parse_action(worked(4, game), "pick 3H")


# -- phase 1 ---------------------------------------------------------------------------------------

def test_a_pick_completing_two_sets_allows_exactly_one_return() -> None:
    state = GAME.position("AH 2H 4H 5H", "AD 2C 4D 6C", picks=8)
    assert GAME.to_move(state) == 0
    h3 = CARDS.index["3H"]
    picks = [a for a in GAME.legal_actions(state) if a[1] == h3]
    assert sorted(a[2] for a in picks) == sorted(CARDS.index[c] for c in hand(state, 1))
    action = GAME.parse_action(state, "pick 3H return 6C")
    assert GAME.describe_action(state, action) == "forms {AH, 2H, 3H} and {3H, 4H, 5H}"
    with pytest.raises(IllegalAction, match=r"^pick 3H return 6C return AD: at most one "
                                            r"return per move \(D3\)$"):
        GAME.parse_action(state, "pick 3H return 6C return AD")
    after = GAME.apply(state, action)
    assert hand(after, 1) == cards("AD 2C 4D") and "6C" in CARDS.cards(after.table)


def test_a_returned_card_is_picked_again_and_picks_still_end_at_14() -> None:
    state = worked(7)
    assert "4D" in CARDS.cards(state.table) and "4D" not in hand(state, 1)
    state = worked(8)
    assert "4D" in hand(state, 1)  # ply 8: p2 takes back the card p1 returned at ply 5
    assert worked(13).picks == 13 and GAME.phase(worked(13)) == "picking"
    assert worked(14).picks == 14 and GAME.phase(worked(14)) == "swapping"


def test_phase_1_ends_after_14_picks_with_short_hands_and_a_15th_pick_is_rejected() -> None:
    state = worked(14)
    assert (len(hand(state, 0)), len(hand(state, 1))) == (6, 5)
    with pytest.raises(IllegalAction, match="picking is over after 14 picks"):
        GAME.parse_action(state, "pick AC")


def test_swap_during_phase_1_is_rejected() -> None:
    with pytest.raises(IllegalAction, match="pick a card instead"):
        GAME.parse_action(worked(13), "swap 4C>3C")


def test_d7_a_player_with_two_cards_after_the_14th_pick_loses() -> None:
    state = GAME.position("AH 3D", "2C 4C 6C 4H 5D", picks=13, to_move=1)
    assert GAME.to_move(state) == 1  # the two-card rule waits for the end of phase 1
    after = play(state, "pick 6H")
    assert result(after) == ("two cards", ["loss", "win"])


def test_d7_both_players_with_two_cards_or_fewer_after_the_14th_pick_draw() -> None:
    state = GAME.position("AH 3D", "4C", picks=13, to_move=1)
    after = play(state, "pick 6H")
    assert result(after) == ("two cards", ["draw", "draw"])


# -- phase 2 ---------------------------------------------------------------------------------------

def test_a_claim_leaving_the_opponent_two_cards_wins_at_once() -> None:
    state = GAME.position("AH 2H 4H 5C 6C", "2D 4D 6D")
    after = play(state, "swap 4H>3H claim 6D")
    assert result(after) == ("two cards", ["win", "loss"])


def test_swapping_a_card_out_and_back_in_earns_a_claim() -> None:
    state = worked(16)
    assert GAME.describe_action(state, GAME.parse_action(state, "swap 4H>3H claim 2C")) == (
        "forms {AH, 2H, 3H}")


def test_giving_away_a_card_of_the_set_forms_nothing() -> None:
    state = GAME.position("2D 3D 4D AC 6C", "AH 2H 2C 4C 6H")
    with pytest.raises(IllegalAction, match="forms no new Gami"):
        GAME.parse_action(state, "swap 4D>5D claim AH")
    assert GAME.parse_action(state, "swap 4D>5D")[3] == -1


def test_d10_p1_without_a_swap_at_the_start_of_phase_2_loses() -> None:
    state = GAME.position("AD 3D 5D 6D", "2H 6H 2D 4D 4C 6C")
    assert result(state) == ("no swap", ["loss", "win"])


def test_d10_a_player_left_without_a_swap_loses() -> None:
    state = GAME.position("3H 5H 3D 6D 3C 5C 6C", "AH 2H 6H AC 2C")
    after = play(state, "swap 3D>2D")
    assert result(after) == ("no swap", ["win", "loss"])


def test_d6_claim_optional_accepts_a_gami_swap_without_claim() -> None:
    game = GamiSeven({"claim": "optional"})
    state = worked(16, game)
    action = game.parse_action(state, "swap 4H>3H")
    assert action in game.legal_actions(state)
    assert len(CARDS.cards(game.apply(state, action).hands[1])) == 5


@pytest.mark.parametrize("claim", ["required", "optional"])
def test_a_claim_after_a_swap_forming_nothing_is_rejected(claim: str) -> None:
    game = GamiSeven({"claim": claim})
    with pytest.raises(IllegalAction, match="forms no new Gami"):
        game.parse_action(worked(15, game), "swap 5D>6D claim AH")


CYCLE = ["swap 4C>4H", "swap 2D>AD", "swap 4H>4C", "swap AD>2D"]


def test_d11_three_occurrences_of_a_phase_2_position_draw() -> None:
    state = play(worked(14), *CYCLE, *CYCLE[:3])
    assert GAME.to_move(state) == 1
    state = play(state, CYCLE[3])
    assert result(state) == ("repetition", ["draw", "draw"])
    assert state.plies == 22


def test_d12_max_plies_16_ends_the_worked_record_in_a_draw() -> None:
    game = GamiSeven({"max_plies": "16"})
    state = worked(15, game)
    assert game.to_move(state) == 1
    state = play(state, WORKED[15], game=game)
    assert result(state, game) == ("max plies", ["draw", "draw"])
    with pytest.raises(GameOver):
        game.parse_action(state, WORKED[16])


def test_resign_loses() -> None:
    assert result(play(worked(3), "resign")) == ("resignation", ["win", "loss"])


@pytest.mark.parametrize("text", ["pick 7H", "pick", "swap 4H 3H", "pick 3H claim 4D",
                                  "swap 4H>3H return 2C"])
def test_malformed_actions(text: str) -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_action(worked(4), text)


@pytest.mark.parametrize(("text", "card"), [("pick 3S", "3S"), ("pick 7H", "7H"),
                                         ("pick 3H return QS", "QS")])
def test_a_card_outside_the_deck_is_named_in_the_error(text: str, card: str) -> None:
    with pytest.raises(MalformedAction, match=f"{card} is not a card of Gami: Seven$"):
        GAME.parse_action(worked(4), text)


# -- the command line and samples ------------------------------------------------------------------

def test_cli_worked_record_and_json_position(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", "gami-seven", "-o", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(path), *WORKED]).exit_code == 0
    shown = runner.invoke(cli, ["show", str(path), "--json"])
    assert '"occurrences": 1' in shown.output and '"picks": 14' in shown.output
    listed = runner.invoke(cli, ["moves", str(path)]).output.split("\n")
    assert "swap 6D>AD claim AH" in listed and "swap 6D>AD" not in listed


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
    assert endings >= {"two cards", "no swap", "repetition", "max plies"}
