"""Recording a game at a real table (no seed): chance typed as it is revealed, each reveal
checked against what was revealed before."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli_polish import readme_block

from gametool.core.engine import CHANCE
from gametool.core.errors import IllegalAction
from gametool.games.belemmer import CARD_NAMES, COLOURS
from gametool.players.auto import random_game
from gametool.records import Session

ROOT = Path(__file__).resolve().parent.parent.parent


def table_copy(seeded: Session) -> Session:
    """The seeded game played again at a table: each pile revealed card by card, in the order
    the seed shuffled it, and every other action as played."""
    order = {step.action[1]: list(step.action[2]) for step in seeded.steps
             if step.seat == CHANCE and step.action[0] == "shuffle"}
    table = Session.start("belemmer", list(seeded.names), None, None)
    moves = [s.text for s in seeded.steps
             if not (s.seat == CHANCE and s.text.startswith("shuffle"))]
    for text in moves:
        while table.to_move() == CHANCE and (table.state.shuffled < 2
                                             or table.state.reveal_due() is not None):
            colour = table.state.reveal_due()
            if colour is None:
                colour = table.state.shuffled
            card = order[colour].pop(0)
            table.play([f"reveal {COLOURS[colour]} {CARD_NAMES[card]}"])
        table.play([text])
    return table


@pytest.mark.parametrize("index", range(4))
def test_a_belemmer_game_revealed_card_by_card_ends_as_the_shuffled_one(index: int) -> None:
    seeded = random_game("belemmer", f"table-{index}")
    table = table_copy(seeded)
    assert table.state.grid == seeded.state.grid
    assert table.game.outcome(table.state) == seeded.game.outcome(seeded.state)
    reveals = [s.text for s in table.steps if s.text.startswith("reveal")]
    placed = sum(len(stack) for stack in table.state.grid)
    showing = sum(len(pile) for pile in table.state.piles)
    assert len(reveals) == placed + showing  # each card on the grid, and each pile's top
    # the record reads back, and a reveal is written as typed
    again = Session.load(table.canonical_record())
    assert again.state == table.state
    assert "1. chance: reveal red " in table.text()


def started() -> Session:
    session = Session.start("belemmer", None, None, None)
    session.play(["reveal red KH", "reveal black 3C", "place b3"])
    return session


def test_a_reveal_must_be_a_card_not_seen_yet() -> None:
    session = started()
    with pytest.raises(IllegalAction, match="KH has been seen already"):
        session.play(["reveal red KH"])
    with pytest.raises(IllegalAction, match="not a red card"):
        started().play(["reveal red 9S"])


def test_a_reveal_comes_from_the_pile_whose_top_was_taken() -> None:
    with pytest.raises(IllegalAction, match="red pile shows its next card now"):
        started().play(["reveal black 9S"])
    with pytest.raises(IllegalAction, match="only when a pile shows its first card"):
        session = started()
        session.play(["reveal red 7D", "reveal black 9S"])
    with pytest.raises(IllegalAction, match="red pile is shuffled next"):
        Session.start("belemmer", None, None, None).play(["reveal black 3C"])


def test_a_player_cannot_act_before_the_new_top_card_is_revealed() -> None:
    session = started()
    assert session.to_move() == CHANCE
    with pytest.raises(IllegalAction):
        session.play(["place c2"], as_seat="black")
    outcomes = session.game.chance_outcomes(session.state)
    assert len(outcomes) == 25  # every red card but KH


def test_the_toss_waits_for_the_reveal_after_the_last_placement() -> None:
    seeded = random_game("belemmer", "toss-wait")
    table = table_copy(seeded)
    texts = [s.text for s in table.steps]
    toss = next(i for i, t in enumerate(texts) if t.startswith("toss"))
    assert texts[toss - 1].startswith("reveal black ")  # the 16th placement was black's
    cut = Session.start("belemmer", None, None, None)
    cut.play(texts[:toss - 1])
    with pytest.raises(IllegalAction, match="black pile shows its next card first"):
        cut.play([texts[toss]])


def test_the_readme_real_table_example_runs(tmp_path: Path) -> None:
    for line in readme_block("Recording a game at a real table"):
        argv = shlex.split(line, comments=True)
        assert argv[0] == "gametool"
        done = subprocess.run([sys.executable, "-m", "gametool", *argv[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{line}: {done.stderr}"


GAMI_P1 = "deal p1: AH 2H 4H 5C 6C 2D 5D 8D QH"
GAMI_P2 = "deal p2: 3H 6H 8H AC 3C 7C 3D 4D 6D"


def test_a_gami_plus_deal_is_typed_hand_by_hand_and_the_table_gets_the_rest() -> None:
    whole = Session.start("gami-plus", None, None, None)
    whole.play([GAMI_P1 + " p2: 3H 6H 8H AC 3C 7C 3D 4D 6D table: 5H 7H 2C 4C 8C AD 7D"])
    by_hand = Session.start("gami-plus", None, None, None)
    by_hand.play([GAMI_P1])
    assert by_hand.to_move() == CHANCE
    by_hand.play([GAMI_P2])
    assert by_hand.state == whole.state and by_hand.to_move() == 0
    assert [s.text for s in by_hand.steps] == [GAMI_P1, GAMI_P2]
    assert Session.load(by_hand.canonical_record()).state == whole.state


@pytest.mark.parametrize("texts, why", [
    ([GAMI_P2], "p1's hand is dealt next"),
    ([GAMI_P1, GAMI_P1.replace("p1:", "p2:")], "went to p1 already"),
    ([GAMI_P1, "deal p2: 3H 6H 8H"], "p2 gets 9 cards, not 3"),
    ([GAMI_P1, "deal p2: 3H 3H 8H AC 3C 7C 3D 4D 6D"], "3H dealt more than once"),
])
def test_each_hand_is_checked_against_the_hands_dealt_before(texts: list[str], why: str) -> None:
    with pytest.raises(IllegalAction, match=why):
        Session.start("gami-plus", None, None, None).play(texts)


def test_move_prints_typed_chance_as_typed(tmp_path: Path) -> None:
    path = tmp_path / "j.gtn"
    script = [sys.executable, "-m", "gametool"]
    subprocess.run([*script, "start", "johari-bones", "--no-seed", "-o", str(path)], check=True)
    done = subprocess.run([*script, "move", str(path), "deal p1: 2-4 4-5 1-1 3-6"],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout == "1. chance: deal p1: 2-4 4-5 1-1 3-6\n", done.stderr


def test_space_cards_records_each_card_as_it_is_turned_up() -> None:
    """The deck is shuffled afresh each turn and never typed: only the cards dealt face up and
    those drawn after a trade are typed, each checked against the cards in play this turn."""
    session = Session.start("space-cards", None, None, None)
    session.play(["deal 6: AH 3M 5U 6U 7U KD", "trade AH 3M"])
    with pytest.raises(IllegalAction, match="already in the hand"):
        session.play(["draw 2: 4U 5U"])
    with pytest.raises(IllegalAction, match="set aside"):
        session.play(["draw 2: 4U 3M"])
    session.play(["draw 2: 4U 2T"])
    assert [s.text for s in session.steps][-1] == "draw 2: 2T 4U"
