"""Gami Plus: every edge case, worked example and decision of rules/gami-plus.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.engine import RESIGN
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.gami import GamiPlus
from gametool.games.gami.state import GamiState
from gametool.records import Session, check_text, load_one

GAME = GamiPlus()
CARDS = GAME.cards
SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "gami-plus"

WORKED_DEAL = ("deal p1: AH 2H 4H 5C 6C 2D 5D 8D QH p2: 3H 6H 8H AC 3C 7C 3D 4D 6D "
               "table: 5H 7H 2C 4C 8C AD 7D")


def play(state: GamiState, *texts: str, game: GamiPlus = GAME) -> GamiState:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def dealt(deal: str = WORKED_DEAL, game: GamiPlus = GAME) -> GamiState:
    return play(game.initial_state(2), deal, game=game)


def hand(state: GamiState, seat: int) -> set[str]:
    return set(CARDS.cards(state.hands[seat]))


def result(state: GamiState) -> tuple[str, list[str]]:
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.termination, [r.result for r in outcome.results]


# -- equipment: the deck and the 18 Gami sets ------------------------------------------------------

def test_the_deck_is_25_cards_of_three_suits_and_the_queen_of_hearts() -> None:
    assert CARDS.count == 25
    assert CARDS.names[-1] == "QH"
    assert not any(name.endswith("S") for name in CARDS.names)


GAMI_SETS = [
    "AH 2H 3H", "AC 2C 3C", "AD 2D 3D",
    "3H 4H 5H", "3C 4C 5C", "3D 4D 5D",
    "5H 6H 7H", "5C 6C 7C", "5D 6D 7D",
    "7H 8H AH", "7C 8C AC", "7D 8D AD",
    "2H 2C 2D", "4H 4C 4D", "6H 6C 6D", "8H 8C 8D",
    "AH 5H QH", "3H 7H QH",
]


def test_the_gami_sets_are_exactly_the_18_of_the_rules() -> None:
    assert sorted(CARDS.combos) == sorted(CARDS.mask(s.split()) for s in GAMI_SETS)


@pytest.mark.parametrize("gami", GAMI_SETS)
def test_each_gami_set_formed_by_a_swap_earns_a_claim(gami: str) -> None:
    cards = gami.split()
    for taken in cards:
        give = next(n for n in CARDS.names
                    if n not in cards and CARDS.is_related(n, taken))
        mine = [c for c in cards if c != taken] + [give]
        others = [n for n in CARDS.names if n not in cards and n != give]
        state = GAME.position(mine, others[:6])
        with pytest.raises(IllegalAction, match="must claim"):
            GAME.parse_action(state, f"swap {give}>{taken}")
        action = GAME.parse_action(state, f"swap {give}>{taken} claim {others[0]}")
        assert "{" + ", ".join(cards) + "}" in str(GAME.describe_action(state, action))


# -- the swap relation -----------------------------------------------------------------------------

RELATION_TABLE = [
    ("3H", "4H", True), ("AD", "8D", True), ("8C", "AC", True), ("4C", "4H", True),
    ("8D", "8C", True), ("4H", "4D", False), ("3C", "3H", False), ("2H", "4H", False),
    ("5H", "QH", True), ("QH", "2H", False), ("5D", "QH", False),
]


def swap_position(give: str, take: str) -> GamiState:
    """p1 holds ``give`` and ``take`` lies on the table; every other card is spread out."""
    cards = [n for n in CARDS.names if n not in (give, take)]
    for shift in range(len(cards)):  # the first spread that leaves p1 a legal swap
        rest = cards[shift:] + cards[:shift]
        state = GAME.position([give, *rest[:8]], rest[8:17], [take, *rest[17:]])
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


def test_red_fours_do_not_swap_but_club_and_heart_do() -> None:
    state = swap_position("4H", "4D")
    with pytest.raises(IllegalAction, match="same colour"):
        GAME.parse_action(state, "swap 4H>4D")
    state = swap_position("4H", "4C")
    assert GAME.parse_action(state, "swap 4H>4C")[:3] == ("swap", CARDS.index["4H"],
                                                         CARDS.index["4C"])


def test_ace_and_eight_of_a_suit_are_linked_but_ace_and_seven_are_not() -> None:
    GAME.parse_action(swap_position("AD", "8D"), "swap AD>8D")
    GAME.parse_action(swap_position("8D", "AD"), "swap 8D>AD")
    with pytest.raises(IllegalAction, match="ranks not 1 apart"):
        GAME.parse_action(swap_position("AD", "7D"), "swap AD>7D")


def test_d2_the_queen_relates_only_to_odd_hearts() -> None:
    related = {CARDS.names[i] for i in range(CARDS.count)
               if CARDS.related[CARDS.index["QH"]] >> i & 1}
    assert related == {"AH", "3H", "5H", "7H"}


# -- the worked record -----------------------------------------------------------------------------

def test_worked_record_step_by_step() -> None:
    state = dealt()
    assert GAME.to_move(state) == 0
    state = play(state, "swap 4H>5H claim 3H")
    assert {"AH", "5H", "QH"} <= hand(state, 0)
    assert (len(hand(state, 0)), len(hand(state, 1))) == (10, 8)
    state = play(state, "swap 8H>8C claim QH")
    assert {"7C", "8C", "AC"} <= hand(state, 1)
    assert (len(hand(state, 0)), len(hand(state, 1))) == (9, 9)
    # p1's {AH, 2H, 3H} came from the claim of 3H: swapping 2D>AD forms nothing new
    assert {"AH", "2H", "3H"} <= hand(state, 0)
    with pytest.raises(IllegalAction, match="forms no new Gami"):
        GAME.parse_action(state, "swap 2D>AD claim 6H")
    state = play(state, "swap 2D>AD")
    assert GAME.to_move(state) == 1


def test_worked_record_through_a_session_without_seed() -> None:
    session = Session.start("gami-plus", seed=None)
    session.play([WORKED_DEAL, "swap 4H>5H claim 3H", "swap 8H>8C claim QH", "swap 2D>AD"])
    text = session.text()
    assert "1. chance: deal p1: AH 2H 4H 5C 6C 2D 5D 8D QH" in text
    assert "2. p1: swap 4H>5H claim 3H" in text
    assert "4. p1: swap 2D>AD" in text


@pytest.mark.parametrize(("text", "why"), [
    ("swap 4H>5H", "must claim"),
    ("swap 2D>2C claim 3H", "forms no new Gami"),
    ("swap 4H>5H claim 2C", "2C is on the table, not in your opponent's hand"),
    ("swap 5D>QH", "QH is in your hand, not on the table"),
    ("swap 4H>5H claim 3H claim 6H", "at most one claim"),
])
def test_illegal_at_the_first_move_of_the_worked_record(text: str, why: str) -> None:
    with pytest.raises(IllegalAction, match=why):
        GAME.parse_action(dealt(), text)


@pytest.mark.parametrize(("text", "message"), [
    ("swap 4H>5H", "swap 4H>5H: taking 5H forms a new Gami, so the move must claim a card of "
                   "your opponent's hand (D6)"),
    ("swap 2D>2C claim 3H", "swap 2D>2C claim 3H: taking 2C forms no new Gami including it (D4)"),
    ("swap 4H>5H claim 2C", "swap 4H>5H claim 2C: 2C is on the table, not in your opponent's "
                            "hand"),
])
def test_claim_errors_quote_the_whole_action_in_one_line(text: str, message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        GAME.parse_action(dealt(), text)
    assert str(info.value) == message


def test_diamonds_never_relate_to_the_queen_even_when_it_is_on_the_table() -> None:
    state = swap_position("5D", "QH")
    with pytest.raises(IllegalAction, match="QH relates only to AH, 3H, 5H, 7H"):
        GAME.parse_action(state, "swap 5D>QH")


# -- new Gami and claims (D4-D8) -------------------------------------------------------------------

def test_one_swap_completing_two_sets_allows_exactly_one_claim() -> None:
    state = GAME.position("AH 2H 4H 5H QH 6C 7C 2D 4D", "6H 8H AC 3C 8C 3D 5D 6D 8D",
                          "3H 7H 2C 4C 5C AD 7D")
    qh, h3 = CARDS.index["QH"], CARDS.index["3H"]
    swaps = [a for a in GAME.legal_actions(state) if a[1:3] == (qh, h3)]
    assert len(swaps) == 9  # one per card of p2's hand, never without or with two claims
    assert {a[3] for a in swaps} == {CARDS.index[c] for c in hand(state, 1)}
    action = GAME.parse_action(state, "swap QH>3H claim 8D")
    assert GAME.describe_action(state, action) == "forms {AH, 2H, 3H} and {3H, 4H, 5H}"
    with pytest.raises(IllegalAction, match="at most one claim"):
        GAME.parse_action(state, "swap QH>3H claim 8D claim 6D")
    after = GAME.apply(state, action)
    assert len(hand(after, 0)) == 10 and len(hand(after, 1)) == 8


def test_a_gami_already_held_earns_no_claim() -> None:
    state = GAME.position("2H 2C 2D 5C 6C 8D AD 4D 7H", "3H 6H 8H AC 3C 7C 3D 6D QH",
                          "AH 4H 5H 4C 8C 5D 7D")
    assert hand(state, 0) >= {"2H", "2C", "2D"}
    # 8D>7D takes 7D and forms nothing, although {2H, 2C, 2D} is held
    with pytest.raises(IllegalAction, match="forms no new Gami"):
        GAME.parse_action(state, "swap 8D>7D claim 3H")
    action = GAME.parse_action(state, "swap 8D>7D")
    assert action[3] == -1
    assert all(a[3] == -1 for a in GAME.legal_actions(state)
               if a[1] == CARDS.index["8D"] and a[2] == CARDS.index["7D"])


def test_d4_giving_away_part_of_the_set_earns_nothing() -> None:
    state = dealt()
    action = GAME.parse_action(state, "swap 2D>2C")
    assert action[3] == -1 and GAME.describe_action(state, action) is None


def test_d8_a_gami_completed_by_the_claimed_card_earns_no_further_claim() -> None:
    state = play(dealt(), "swap 4H>5H claim 3H")
    assert {"AH", "2H", "3H"} <= hand(state, 0)
    assert GAME.to_move(state) == 1  # the claim ended p1's move: no second claim


def test_d8_a_claim_completed_set_earns_a_claim_once_a_swap_takes_one_of_its_cards_again() -> None:
    # {AH, 2H, 3H} was completed by the claim of 3H; giving 3H away and taking it back forms it
    state = play(dealt(), "swap 4H>5H claim 3H", "swap 8H>8C claim QH", "swap 3H>4H",
                 "swap 4D>4C")
    with pytest.raises(IllegalAction, match="taking 3H forms a new Gami"):
        GAME.parse_action(state, "swap 4H>3H")
    action = GAME.parse_action(state, "swap 4H>3H claim 3D")
    assert GAME.describe_action(state, action) == "forms {AH, 2H, 3H}"
    assert len(hand(GAME.apply(state, action), 0)) == 10


def test_d7_the_mover_chooses_any_card_of_the_opponents_hand() -> None:
    state = dealt()
    h4, h5 = CARDS.index["4H"], CARDS.index["5H"]
    claims = {a[3] for a in GAME.legal_actions(state) if a[1:3] == (h4, h5)}
    assert claims == {CARDS.index[c] for c in hand(state, 1)}


def test_claim_required_rejects_a_gami_swap_without_claim() -> None:
    with pytest.raises(IllegalAction, match="D6"):
        GAME.parse_action(dealt(), "swap 4H>5H")


def test_claim_optional_accepts_a_gami_swap_without_claim() -> None:
    game = GamiPlus({"claim": "optional"})
    state = dealt(game=game)
    action = game.parse_action(state, "swap 4H>5H")
    assert action in game.legal_actions(state)
    assert game.parse_action(state, "swap 4H>5H claim 3H") in game.legal_actions(state)
    after = game.apply(state, action)
    assert len(CARDS.cards(after.hands[0])) == 9


@pytest.mark.parametrize("claim", ["required", "optional"])
def test_a_claim_after_a_swap_forming_nothing_is_rejected(claim: str) -> None:
    game = GamiPlus({"claim": claim})
    with pytest.raises(IllegalAction, match="forms no new Gami"):
        game.parse_action(dealt(game=game), "swap 2D>AD claim 3H")


# -- the end of the game ---------------------------------------------------------------------------

def test_claiming_from_a_three_card_hand_leaves_two_and_the_opponent_loses() -> None:
    state = GAME.position("AH 2H 4H 5C 6C 2D 5D 8D QH 3H 6H 8H AC 3C 7C", "3D 4D 6D",
                          "5H 7H 2C 4C 8C AD 7D")
    after = play(state, "swap 4H>5H claim 3D")
    assert len(hand(after, 1)) == 2
    assert result(after) == ("two cards", ["win", "loss"])
    assert GAME.to_move(after) is None
    with pytest.raises(GameOver):
        GAME.parse_action(after, "resign")


def test_leaving_the_opponent_without_a_swap_wins() -> None:
    state = dealt("deal p1: 3H 6H 8H 2C 4C 2D 6D 7D QH p2: 5C 6C 7C 8C AD 3D 4D 5D 8D "
                  "table: AH 2H 4H 5H 7H AC 3C")
    after = play(state, "swap 3H>2H claim 8C")
    assert result(after) == ("no swap", ["win", "loss"])


def test_d10_a_deal_leaving_p1_without_a_swap_loses_for_p1() -> None:
    state = dealt("deal p1: 3H 4H AC 2C 3C 4C 5C 7C 3D p2: 2H 5H QH 6C 8C 2D 4D 6D 7D "
                  "table: AH 6H 7H 8H AD 5D 8D")
    assert result(state) == ("no swap", ["loss", "win"])
    assert GAME.legal_actions(state) == []


CYCLE = ["swap 2H>2C", "swap 6H>5H", "swap 2C>2H", "swap 5H>6H"]


def test_d11_a_third_occurrence_of_a_position_is_a_draw() -> None:
    state = play(dealt(), *CYCLE)  # the position after the deal, second time
    assert GAME.to_move(state) == 0
    assert GAME.view(state, None)["occurrences"] == 2
    state = play(state, *CYCLE[:3])
    assert GAME.to_move(state) == 1
    state = play(state, CYCLE[3])
    assert result(state) == ("repetition", ["draw", "draw"])


def test_d12_max_plies_draws_after_the_fourth_swap() -> None:
    game = GamiPlus({"max_plies": "4"})
    state = play(dealt(game=game), "swap 2H>2C", "swap 6H>5H", "swap 2C>2H", game=game)
    assert game.to_move(state) == 1
    state = play(state, "swap 5H>6H", game=game)
    assert game.outcome(state) is not None
    assert game.outcome(state).termination == "max plies"
    assert game.max_plies == 6  # the record bound counts the deal too, typed hand by hand


def test_d12_a_fourth_swap_that_decides_the_game_is_not_a_draw() -> None:
    game = GamiPlus({"max_plies": "4"})
    state = game.position("AH 2H 4H 5C 6C 2D 5D 8D QH 3H 6H 8H AC 3C 7C", "3D 4D 6D",
                          "5H 7H 2C 4C 8C AD 7D", plies=3)
    after = play(state, "swap 4H>5H claim 3D", game=game)
    assert after.plies == 4
    assert game.outcome(after).termination == "two cards"


# -- the deal --------------------------------------------------------------------------------------

def test_the_seeded_deal_gives_nine_nine_and_seven() -> None:
    session = Session.start("gami-plus", seed="deal-test")
    state = session.state
    assert [m.bit_count() for m in (*state.hands, state.table)] == [9, 9, 7]
    assert session.steps[0].text.startswith("deal p1: ")


@pytest.mark.parametrize(("deal", "why"), [
    (WORKED_DEAL.replace("QH p2:", "AH p2:"), "^deal: AH dealt more than once and QH missing$"),
    (WORKED_DEAL.replace(" QH p2:", " p2:"), "p1 gets 9 cards, not 8"),
    (WORKED_DEAL.replace("AD 7D", "AD"), "table gets 7 cards, not 6"),
    (WORKED_DEAL.replace("7D", "5D"), "^deal: 5D dealt more than once and 7D missing$"),
    (WORKED_DEAL.replace("AH 2H", "2H 2H").replace("3D 4D", "AH AH"),
     "^deal: AH, 2H dealt more than once and 3D, 4D missing$"),
])
def test_a_deal_with_a_repeated_missing_or_short_hand_is_rejected(deal: str, why: str) -> None:
    with pytest.raises(IllegalAction, match=why):
        GAME.parse_action(GAME.initial_state(2), deal)


def test_a_deal_naming_a_card_outside_the_deck_is_malformed() -> None:
    with pytest.raises(MalformedAction, match="9D is not a card of Gami Plus"):
        GAME.parse_action(GAME.initial_state(2), WORKED_DEAL.replace("7D", "9D"))


def test_no_swap_before_the_deal_and_no_second_deal() -> None:
    with pytest.raises(IllegalAction, match="dealt first"):
        GAME.parse_action(GAME.initial_state(2), "swap 4H>5H")
    with pytest.raises(IllegalAction, match="dealt once"):
        GAME.parse_action(dealt(), WORKED_DEAL)


def test_a_held_gami_after_the_deal_earns_nothing() -> None:
    state = dealt("deal p1: 3H 4H AC 2C 3C 4C 5C 7C 3D p2: 2H 5H QH 6C 8C 2D 4D 6D 7D "
                  "table: AH 6H 7H 8H AD 5D 8D")
    held = [CARDS.cards(s) for s in CARDS.held(state.hands[0])]
    assert held == [["AC", "2C", "3C"], ["3C", "4C", "5C"]]
    assert len(hand(state, 1)) == 9  # no claim was made


# -- notation --------------------------------------------------------------------------------------

def test_actions_read_in_any_case_and_spacing() -> None:
    state = dealt()
    assert GAME.parse_action(state, "  SWAP 4h > 5h   CLAIM 3h ") == GAME.parse_action(
        state, "swap 4H>5H claim 3H")
    assert GAME.parse_action(state, "Resign") == RESIGN


@pytest.mark.parametrize("text", ["", "swap", "swap 4H", "swap 4H<5H", "pick 5H", "swap 4S>5H",
                                  "swap 4H>5H claim", "deal"])
def test_malformed_actions_are_reported_in_one_line(text: str) -> None:
    with pytest.raises(MalformedAction) as info:
        GAME.parse_action(dealt(), text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("text", "card"), [("swap 4S>5H", "4S"), ("swap 4H>5H claim QC", "QC"),
                                         ("swap 4H>10H", "10H")])
def test_a_card_outside_the_deck_is_named_in_the_error(text: str, card: str) -> None:
    with pytest.raises(MalformedAction, match=f"^malformed action .*: {card} is not a card of "
                                              "Gami Plus$"):
        GAME.parse_action(dealt(), text)


def test_the_one_claim_message_reads_cleanly() -> None:
    with pytest.raises(IllegalAction, match=r"^swap 4H>5H claim 3H claim 6H: at most one claim "
                                            r"per move \(D5\)$"):
        GAME.parse_action(dealt(), "swap 4H>5H claim 3H claim 6H")


def test_resign_loses_for_the_seat_to_move() -> None:
    state = play(dealt(), "swap 2D>AD", "resign")
    assert result(state) == ("resignation", ["win", "loss"])


# -- the command line ------------------------------------------------------------------------------

def test_cli_show_prints_hands_table_and_grid(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    assert runner.invoke(cli, ["start", "gami-plus", "--no-seed", "-o", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(path), WORKED_DEAL]).exit_code == 0
    assert runner.invoke(cli, ["move", str(path), "swap 4h>5h claim 3h"]).exit_code == 0
    shown = runner.invoke(cli, ["show", str(path), "--as", "p2"])
    assert shown.exit_code == 0
    assert "last: p1: swap 4H>5H claim 3H  (forms {AH, 5H, QH})" in shown.output
    assert "AH 2H 3H 5H 5C 6C 2D 5D 8D QH" in shown.output
    assert "1 = p1, 2 = p2, . = table" in shown.output


def test_cli_show_before_the_deal_and_after_the_end(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    runner.invoke(cli, ["start", "gami-plus", "--no-seed", "-o", str(path)])
    shown = runner.invoke(cli, ["show", str(path)])
    assert "before the deal, moves 0/200" in shown.output
    assert "- = not dealt yet" in shown.output
    runner.invoke(cli, ["move", str(path), WORKED_DEAL, "resign"])
    shown = runner.invoke(cli, ["show", str(path)])
    assert "game over, moves 0/200" in shown.output
    assert "result: 0-1 (resignation)" in shown.output


def test_cli_rejects_a_missing_claim_with_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    runner.invoke(cli, ["start", "gami-plus", "--no-seed", "-o", str(path)])
    runner.invoke(cli, ["move", str(path), WORKED_DEAL])
    before = path.read_text()
    bad = runner.invoke(cli, ["move", str(path), "swap 4H>5H"])
    assert bad.exit_code == 1
    assert "must claim" in bad.output and bad.output.count("\n") == 1
    assert path.read_text() == before


def test_cli_option_claim_optional_is_recorded(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "g.gtn"
    runner.invoke(cli, ["start", "gami-plus", "--no-seed", "--option", "claim=optional",
                        "-o", str(path)])
    runner.invoke(cli, ["move", str(path), WORKED_DEAL])
    assert runner.invoke(cli, ["move", str(path), "swap 4H>5H"]).exit_code == 0
    assert '[Options "claim=optional"]' in path.read_text()


# -- sample records --------------------------------------------------------------------------------

def test_sample_records_are_complete_and_valid() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    endings = set()
    for path in files:
        (verdict,) = check_text(path.read_text(), str(path))
        assert verdict.ok, verdict.errors
        session = load_one(path.read_text(), str(path))
        outcome = GAME.outcome(session.state)
        assert outcome is not None
        endings.add(outcome.termination)
    # every way the game can end
    assert endings >= {"two cards", "no swap", "repetition", "max plies"}

