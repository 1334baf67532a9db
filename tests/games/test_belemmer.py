"""Belemmer (rules/belemmer.md): the beats table, the worked example, setup, refills, the ways
the game ends, both options, the notation table, hidden pile order and the sample records."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import svg_words

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.belemmer import (
    BLACK,
    CARD_INDEX,
    CARD_NAMES,
    PILE_CARDS,
    RED,
    SQUARE_NAMES,
    Belemmer,
    BelemmerState,
    beats,
)
from gametool.players.auto import random_game
from gametool.records import Session, check_text, load_one
from gametool.views import render

GAME = Belemmer()
SAMPLES = Path(__file__).parent.parent.parent / "sample_games" / "belemmer"
RUNNER = CliRunner()

# The worked example of the rules file, rank 4 at the top.
EXAMPLE = """
4  KH   3C   7D   JS
3  2S   AH   9C   QD
2  10D  5S   4H   AC
1  8C   JH   6S   2D
"""

RED_MOVES = {"a4-a3", "a4-b4", "c4-b4", "d3-d4", "d3-c3", "a2-a1", "a2-a3", "a2-b2", "c2-d2",
             "b1-a1", "b1-b2", "b1-c1", "d1-d2"}
BLACK_MOVES = {"b4-b3", "d4-c4", "a3-b3", "c3-c4", "c3-b3", "c3-c2", "b2-b3", "b2-c2", "d2-d3",
               "c1-c2", "c1-d1"}


def sq(name: str) -> int:
    return SQUARE_NAMES.index(name)


def grid_of(text: str) -> tuple[tuple[int, ...], ...]:
    """A grid of single cards from rows written rank 4 first; '.' is an empty square."""
    grid: list[tuple[int, ...]] = [()] * 16
    for line in text.strip().splitlines():
        rank, *cells = line.split()
        for file, cell in enumerate(cells):
            if cell != ".":
                grid[4 * (int(rank) - 1) + file] = (CARD_INDEX[cell],)
    return tuple(grid)


def play_state(grid: tuple[tuple[int, ...], ...], turn: int,
               piles: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> BelemmerState:
    """A position in the play phase; by default the piles hold the cards not on the grid."""
    if piles is None:
        used = {c for stack in grid for c in stack}
        piles = (tuple(c for c in PILE_CARDS[RED] if c not in used),
                 tuple(c for c in PILE_CARDS[BLACK] if c not in used))
    return BelemmerState(grid=grid, piles=piles, shuffled=2, placed=16, first=RED,
                         moves=0, turn=turn)


def example(turn: int = RED) -> BelemmerState:
    return play_state(grid_of(EXAMPLE), turn)


def texts(state: BelemmerState) -> set[str]:
    return {GAME.format_action(state, a) for a in GAME.legal_actions(state)}


def play(game: Belemmer, state: BelemmerState, *actions: str) -> BelemmerState:
    for text in actions:
        state = game.apply(state, game.parse_action(state, text))
    return state


def set_up(seed: str = "setup", game: Belemmer = GAME) -> BelemmerState:
    """Both shuffles from a seed and the 16 placements on a1, b1, ..., d4 in order."""
    state = game.initial_state(2)
    for ply in (1, 2):
        state = game.apply(state, game.sample_chance(state, SeedRng(seed, ply)))
    return play(game, state, *(f"place {name}" for name in SQUARE_NAMES))


# -- the beats relation (D3) ----------------------------------------------------------------------

TABLE = """
A  .  .  .  .  .  .  .  .  .  .  x  x  x
2  x  .  .  .  .  .  .  .  .  .  .  .  .
3  x  x  .  .  .  .  .  .  .  .  .  .  .
4  x  x  x  .  .  .  .  .  .  .  .  .  .
5  x  x  x  x  .  .  .  .  .  .  .  .  .
6  x  x  x  x  x  .  .  .  .  .  .  .  .
7  x  x  x  x  x  x  .  .  .  .  .  .  .
8  x  x  x  x  x  x  x  .  .  .  .  .  .
9  x  x  x  x  x  x  x  x  .  .  .  .  .
10 x  x  x  x  x  x  x  x  x  .  .  .  .
J  .  x  x  x  x  x  x  x  x  x  .  .  .
Q  .  x  x  x  x  x  x  x  x  x  x  .  .
K  .  x  x  x  x  x  x  x  x  x  x  x  .
"""
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
CELLS = [(row.split()[0], RANKS[i], mark == "x")
         for row in TABLE.strip().splitlines() for i, mark in enumerate(row.split()[1:])]


@pytest.mark.parametrize(("x", "y", "expected"), CELLS)
def test_beats_table_cell_by_cell(x: str, y: str, expected: bool) -> None:
    # Suits do not matter: check a red card against a black one and the reverse.
    assert beats(f"{x}H", f"{y}S") is expected
    assert beats(f"{x}C", f"{y}D") is expected


@pytest.mark.parametrize(("x", "y", "expected"), [
    ("2H", "AS", True), ("AH", "KS", True), ("KH", "AS", False), ("AH", "AS", False),
    ("AH", "2S", False), ("10H", "JS", False), ("JH", "10S", True), ("7H", "7S", False),
    ("QD", "QC", False),
])
def test_beats_special_cases(x: str, y: str, expected: bool) -> None:
    assert beats(x, y) is expected


# -- the worked example (D4) ----------------------------------------------------------------------


def test_example_red_has_exactly_13_moves() -> None:
    assert texts(example(RED)) == RED_MOVES
    assert len(GAME.legal_actions(example(RED))) == 13


def test_example_black_has_exactly_11_moves() -> None:
    assert texts(example(BLACK)) == BLACK_MOVES
    assert len(GAME.legal_actions(example(BLACK))) == 11


def test_example_d3_d4_makes_a_red_stack_and_refills_d3() -> None:
    state = example(RED)
    top = state.piles[RED][0]
    after = play(GAME, state, "d3-d4")
    assert [CARD_NAMES[c] for c in after.grid[sq("d4")]] == ["JS", "QD"]
    assert after.grid[sq("d3")] == (top,)
    assert after.piles[RED] == state.piles[RED][1:]
    assert GAME.describe_action(state, GAME.parse_action(state, "d3-d4")) == (
        f"QD takes JS; refill {CARD_NAMES[top]}")
    stacks = Belemmer({"score": "stacks"})
    tops = Belemmer({"score": "tops"})
    only = tuple(s if i == sq("d4") else () for i, s in enumerate(after.grid))
    assert stacks.scores(replace(after, grid=only)) == [20, 0]
    assert tops.scores(replace(after, grid=only)) == [10, 0]


# -- moves: whole stacks, top cards only, refills (D4, D5) -------------------------------------


def test_a_stack_moves_whole_and_later_captures_compare_only_its_top() -> None:
    grid = grid_of("""
4  .   .   .   .
3  .   QD  .   .
2  .   10S .   .
1  .   AC  .   .
""")
    state = play_state(grid, RED)
    state = play(GAME, state, "b3-b2")  # QD beats 10S
    assert [CARD_NAMES[c] for c in state.grid[sq("b2")]] == ["10S", "QD"]
    assert state.turn == BLACK  # the Ace beats the queen on top, not the 10 below
    assert "b1-b2" in texts(state)
    state = play(GAME, state, "b1-b2")
    assert [CARD_NAMES[c] for c in state.grid[sq("b2")]] == ["10S", "QD", "AC"]
    assert GAME.view(state, None)["grid"]["b2"] == ["10S", "QD", "AC"]


def test_refill_takes_the_movers_top_card_and_shows_the_next() -> None:
    state = example(BLACK)
    red_pile, black_pile = state.piles
    after = play(GAME, state, "d2-d3")
    assert after.grid[sq("d2")] == (black_pile[0],)
    assert after.piles == (red_pile, black_pile[1:])
    view = GAME.view(after, RED)["piles"]
    assert view["p2"] == {"cards": len(black_pile) - 1, "top": CARD_NAMES[black_pile[1]]}
    assert view["p1"]["top"] == CARD_NAMES[red_pile[0]]  # red is the first seat's pile


@pytest.mark.parametrize(("text", "reason"), [
    ("b3-b4", "AH does not beat 3C"),
    ("d3-d2", "QD does not beat AC"),
    ("c2-d3", "diagonal"),
    ("a4-a2", "two squares"),
    ("a4-a4", "orthogonally adjacent"),
    ("a3-a4", "a3 is topped by 2S; red moves a red-topped stack"),
    ("a2-b1", "diagonal"),
])
def test_example_rejects_moves_with_the_rule_that_forbids_them(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        GAME.parse_action(example(RED), text)


def test_moves_onto_empty_or_own_stacks_are_rejected() -> None:
    grid = list(grid_of(EXAMPLE))
    grid[sq("b4")] = ()
    grid[sq("a3")] = (CARD_INDEX["5H"],)
    state = play_state(tuple(grid), RED)
    with pytest.raises(IllegalAction, match="b4 is empty; red moves a red-topped stack"):
        GAME.parse_action(state, "b4-a4")
    with pytest.raises(IllegalAction, match="b4 is empty"):
        GAME.parse_action(state, "a4-b4")
    with pytest.raises(IllegalAction, match="topped by your own colour"):
        GAME.parse_action(state, "a4-a3")
    assert not {"a4-b4", "a4-a3"} & texts(state)


# -- setup (D1) and the toss (D2) -----------------------------------------------------------------


def test_setup_red_places_first_and_the_players_alternate() -> None:
    state = GAME.initial_state(2)
    for ply in (1, 2):
        state = GAME.apply(state, GAME.sample_chance(state, SeedRng("alt", ply)))
    seats = []
    for name in SQUARE_NAMES:
        seats.append(state.turn)
        top = state.piles[state.turn][0]
        state = play(GAME, state, f"place {name}")
        assert state.grid[sq(name)] == (top,)  # the top card of the placer's own pile
    assert seats == [RED, BLACK] * 8
    assert [CARD_NAMES[s[0]][-1] in "HD" for s in state.grid] == [True, False] * 8


def test_after_setup_each_pile_has_18_cards_and_the_coin_is_tossed() -> None:
    state = set_up()
    assert [len(p) for p in state.piles] == [18, 18]
    assert state.turn == CHANCE and state.phase == "toss"
    assert GAME.chance_outcomes(state) == [("toss", 0), ("toss", 1)]


def test_a_placement_on_an_occupied_square_is_rejected() -> None:
    state = GAME.initial_state(2)
    for ply in (1, 2):
        state = GAME.apply(state, GAME.sample_chance(state, SeedRng("occ", ply)))
    state = play(GAME, state, "place b3")
    with pytest.raises(IllegalAction, match="b3 is occupied"):
        GAME.parse_action(state, "place b3")
    assert ("place", sq("b3")) not in GAME.legal_actions(state)
    assert len(GAME.legal_actions(state)) == 15


@pytest.mark.parametrize(("side", "first"), [("heads", RED), ("tails", BLACK)])
def test_the_toss_decides_who_moves_first(side: str, first: int) -> None:
    state = play(GAME, set_up(), f"toss {side}")
    assert state.first == first and state.turn == first and state.phase == "play"
    assert GAME.describe_action(set_up(), ("toss", first)) == (
        f"{('Red', 'Black')[first]} moves first")


BLOCKED_FIRST = """
4  AH  5C  AD  5S
3  6C  2H  6S  2D
2  3H  7C  3D  7S
1  8C  4H  8S  4D
"""


def test_the_first_mover_with_no_legal_move_loses_at_once() -> None:
    state = replace(play_state(grid_of(BLOCKED_FIRST), CHANCE), first=None)
    assert GAME.legal_actions(replace(state, turn=BLACK, first=BLACK))
    lost = play(GAME, state, "toss heads")
    assert lost.turn is None
    outcome = GAME.outcome(lost)
    assert outcome.termination == "blocked" and outcome.result_tag() == "0-1"
    played = play(GAME, state, "toss tails")
    assert played.turn == BLACK and GAME.outcome(played) is None


def test_a_player_blocked_in_mid_game_loses() -> None:
    grid = grid_of("""
4  .   .   .   .
3  .   .   .   .
2  .   KH  5S  .
1  .   .   4C  .
""")
    state = play(GAME, play_state(grid, RED), "b2-c2")
    assert state.turn is None
    assert GAME.outcome(state).termination == "blocked"
    assert GAME.outcome(state).winners == [RED]


# -- the end on points (D7, D8, D9) ---------------------------------------------------------------


def finished(termination: str, tag: str | None = None) -> Session:
    for index in range(200):
        session = random_game("belemmer", f"b{index}")
        outcome = session.game.outcome(session.state)
        if outcome.termination == termination and tag in (None, outcome.result_tag()):
            return session
    raise AssertionError(f"no random game ended by {termination}")


def test_without_a_block_the_game_ends_after_move_36_with_52_cards_and_340_points() -> None:
    session = finished("piles exhausted")
    state = session.state
    assert state.moves == 36 and session.ply == 2 + 16 + 1 + 36
    assert all(state.grid) and sum(len(s) for s in state.grid) == 52
    assert sum(GAME.scores(state)) == 340
    # Until the last move every vacated square was refilled: no square was ever empty.
    assert all(all(s.grid) for s in session.states[19:])


def test_170_to_170_is_a_draw() -> None:
    session = finished("piles exhausted", "1/2-1/2")
    assert GAME.scores(session.state) == [170, 170]
    assert [r.result for r in GAME.outcome(session.state).results] == ["draw", "draw"]


def test_the_move_that_empties_the_second_pile_ends_the_game() -> None:
    grid = grid_of(EXAMPLE)
    state = play_state(grid, BLACK, piles=((), (CARD_INDEX["KS"],)))
    after = play(GAME, state, "d2-d3")
    assert after.turn is None and after.grid[sq("d2")] == (CARD_INDEX["KS"],)
    assert GAME.outcome(after).termination == "piles exhausted"


SCORING = """
4  KH  3C  .   .
3  .   .   .   .
2  .   .   .   .
1  .   .   .   .
"""


def test_score_stacks_counts_every_card_and_tops_only_the_top_cards() -> None:
    state = play(GAME, play_state(grid_of(SCORING), RED, piles=((CARD_INDEX["2H"],), ())),
                 "a4-b4")
    # b4: 3C under KH (13 for Red), a4: the refill 2H (2 for Red).
    assert Belemmer({"score": "stacks"}).scores(state) == [15, 0]
    assert Belemmer({"score": "tops"}).scores(state) == [12, 0]


def test_scores_decide_the_winner_when_the_piles_are_exhausted() -> None:
    state = play_state(grid_of(SCORING), RED, piles=((CARD_INDEX["2H"],), ()))
    for game in (Belemmer({"score": "stacks"}), Belemmer({"score": "tops"})):
        after = play(game, state, "a4-b4")
        outcome = game.outcome(after)
        assert outcome.termination == "piles exhausted" and outcome.winners == [RED]
        assert [r.score for r in outcome.results] == game.scores(after)


# -- after_piles=play_on (D7) -------------------------------------------------------------------

PLAY_ON = Belemmer({"after_piles": "play_on"})


def test_play_on_goes_on_with_empty_piles_and_leaves_vacated_squares_empty() -> None:
    grid = grid_of("""
4  .   .   .   .
3  .   .   .   .
2  .   KH  5S  .
1  .   .   AC  .
""")
    state = play_state(grid, RED, piles=((), ()))
    state = play(PLAY_ON, state, "b2-c2")
    assert state.turn == BLACK and state.grid[sq("b2")] == ()
    state = play(PLAY_ON, state, "c1-c2")
    assert state.grid[sq("c1")] == ()
    # Red has no stack left and Black none to capture: both blocked, so the game is scored.
    assert state.turn is None
    outcome = PLAY_ON.outcome(state)
    assert outcome.termination == "both blocked" and outcome.winners == [BLACK]
    assert PLAY_ON.scores(state) == [0, 16]


def test_play_on_a_blocked_player_loses_when_the_opponent_could_move() -> None:
    grid = grid_of("""
4  .   .   .   .
3  .   .   .   .
2  .   KH  5S  .
1  .   .   4C  .
""")
    state = play(PLAY_ON, play_state(grid, RED, piles=((), ())), "b2-c2")
    outcome = PLAY_ON.outcome(state)
    assert outcome.termination == "blocked" and outcome.winners == [RED]


BOTH_BLOCKED = """
4  .   .   .   .
3  .   .   .   .
2  .   KH  5S  .
1  .   .   .   QC
"""


def test_play_on_when_both_are_blocked_the_game_is_scored() -> None:
    state = play(PLAY_ON, play_state(grid_of(BOTH_BLOCKED), RED, piles=((), ())), "b2-c2")
    outcome = PLAY_ON.outcome(state)
    assert outcome.termination == "both blocked"
    assert PLAY_ON.scores(state) == [15, 10] and outcome.winners == [RED]


def test_play_on_before_the_piles_are_empty_the_blocked_rule_is_unchanged() -> None:
    piles = ((), (CARD_INDEX["9S"],))  # Black still has a card: the piles are not empty
    state = play(PLAY_ON, play_state(grid_of(BOTH_BLOCKED), RED, piles=piles), "b2-c2")
    outcome = PLAY_ON.outcome(state)
    assert outcome.termination == "blocked" and outcome.winners == [RED]


def test_default_ends_on_points_where_play_on_goes_on() -> None:
    grid = grid_of(EXAMPLE)
    state = play_state(grid, BLACK, piles=((), (CARD_INDEX["KS"],)))
    assert play(GAME, state, "d2-d3").turn is None
    assert play(PLAY_ON, state, "d2-d3").turn == RED


# -- chance from the seed or from the record ----------------------------------------------------


def test_with_a_seed_the_tool_draws_the_shuffles_and_the_toss() -> None:
    session = Session.start("belemmer", seed="draw")
    assert [s.seat for s in session.steps] == [CHANCE, CHANCE]
    assert session.steps[0].text.startswith("shuffle red ")
    assert session.steps[1].text.startswith("shuffle black ")
    session.play([f"place {name}" for name in SQUARE_NAMES])
    assert session.steps[-1].seat == CHANCE and session.steps[-1].text.startswith("toss ")
    assert session.to_move() == session.state.first


def test_without_a_seed_the_shuffles_and_toss_are_read_from_the_record() -> None:
    session = Session.start("belemmer")
    red = "shuffle red " + " ".join(CARD_NAMES[c] for c in reversed(PILE_CARDS[RED]))
    black = "shuffle black " + " ".join(CARD_NAMES[c] for c in PILE_CARDS[BLACK])
    session.play([red, black, *(f"place {n}" for n in SQUARE_NAMES), "toss tails"])
    state = session.state
    assert CARD_NAMES[state.grid[sq("a1")][0]] == "KD"  # the first card of the red shuffle
    assert CARD_NAMES[state.grid[sq("b1")][0]] == "AC"
    assert state.turn == BLACK
    again = load_one(session.text())
    assert again.states == session.states


@pytest.mark.parametrize(("change", "error", "message"), [
    (lambda w: w[:-1] + [w[-2]], IllegalAction, "listed twice"),
    (lambda w: w[:-1] + ["5C"], IllegalAction, "5C is not a red card"),
    (lambda w: w[:-1], MalformedAction, "26 cards needed"),
    (lambda w: w + ["AH"], MalformedAction, "26 cards needed"),
])
def test_a_shuffle_must_be_a_permutation_of_the_26_cards(change: object, error: type,
                                                         message: str) -> None:
    words = [CARD_NAMES[c] for c in PILE_CARDS[RED]]
    text = "shuffle red " + " ".join(change(words))  # type: ignore[operator]
    with pytest.raises(error, match=message):
        GAME.parse_action(GAME.initial_state(2), text)


def test_red_is_shuffled_before_black() -> None:
    text = "shuffle black " + " ".join(CARD_NAMES[c] for c in PILE_CARDS[BLACK])
    with pytest.raises(IllegalAction, match="red pile is shuffled next"):
        GAME.parse_action(GAME.initial_state(2), text)


def test_a_chance_action_that_contradicts_the_seed_is_rejected() -> None:
    text = Session.start("belemmer", seed="s1").text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("2. chance:"))
    words = lines[at].split()
    words[4], words[5] = words[5], words[4]  # '2.', 'chance:', 'shuffle', 'black', ...
    lines[at] = " ".join(words)
    (verdict,) = check_text("\n".join(lines) + "\n", "x.gtn")
    assert "contradicts the seed" in str(verdict.errors[0])


# -- the notation table ---------------------------------------------------------------------------


def test_notation_place_legal_on_an_empty_square_in_setup() -> None:
    state = GAME.initial_state(2)
    for ply in (1, 2):
        state = GAME.apply(state, GAME.sample_chance(state, SeedRng("n", ply)))
    assert GAME.parse_action(state, "place b3") == ("place", sq("b3"))
    assert GAME.parse_action(state, "  PLACE B3 ") == ("place", sq("b3"))


def test_notation_place_illegal_once_setup_is_over() -> None:
    for state in (set_up(), example(RED)):
        with pytest.raises(IllegalAction, match="setup is over"):
            GAME.parse_action(state, "place b3")


def test_notation_moves_of_the_example() -> None:
    assert GAME.parse_action(example(RED), "a4-b4") == ("move", sq("a4"), sq("b4"))
    assert GAME.parse_action(example(RED), "A4-B4") == ("move", sq("a4"), sq("b4"))
    assert GAME.parse_action(example(BLACK), "d2-d3") == ("move", sq("d2"), sq("d3"))


def test_notation_toss_after_the_16th_placement() -> None:
    state = set_up()
    assert GAME.parse_action(state, "toss heads") == ("toss", 0)
    assert GAME.parse_action(state, "TOSS Tails") == ("toss", 1)
    with pytest.raises(IllegalAction, match="tossed once"):
        GAME.parse_action(example(RED), "toss heads")


def test_notation_a_move_before_the_toss_is_illegal_because_play_has_not_started() -> None:
    # The notation table: "b2-b3 before the toss: illegal: play has not started", in the
    # position before the toss and in every earlier phase, each naming what comes next.
    state = GAME.initial_state(2)
    due = {}
    for ply in (1, 2):
        due[f"shuffle {ply}"] = state
        state = GAME.apply(state, GAME.sample_chance(state, SeedRng("early", ply)))
    due["first placement"] = state
    due["last placement"] = play(GAME, state, *(f"place {n}" for n in SQUARE_NAMES[:15]))
    due["toss"] = set_up()
    expected = {"shuffle 1": "the red pile is shuffled next",
                "shuffle 2": "the black pile is shuffled next",
                "first placement": "16 setup placements and the coin toss come first (D1, D2)",
                "last placement": "1 setup placement and the coin toss come first (D1, D2)",
                "toss": "the coin toss decides who moves first (D2)"}
    for phase, state in due.items():
        with pytest.raises(IllegalAction) as info:
            GAME.parse_action(state, "b2-b3")
        assert str(info.value) == f"'b2-b3': play has not started; {expected[phase]}", phase


@pytest.mark.parametrize("text", ["a4 - b4", "a4 -b4", "a4- b4", "a4 b4"])
def test_notation_a_move_is_written_without_blanks(text: str) -> None:
    # move = square "-" square: the rules file's grammar has no blank inside a move.
    with pytest.raises(MalformedAction, match="found a blank"):
        GAME.parse_action(example(RED), text)
    # Blanks around the whole action are fine.
    assert GAME.parse_action(example(RED), "  a4-B4\t") == ("move", sq("a4"), sq("b4"))


@pytest.mark.parametrize("text", ["shuffle red KH QH", "place e5", "a0-b9", "a4b4", "a4-", "",
                                  "place", "toss up", "d3-d4 extra", "shuffle green KH"])
def test_notation_malformed_actions(text: str) -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_action(example(RED), text)


def test_every_listed_action_reads_back() -> None:
    for state in (example(RED), example(BLACK), set_up()):
        for action in GAME.legal_actions(state) + (GAME.chance_outcomes(state) or []):
            assert GAME.parse_action(state, GAME.format_action(state, action)) == action


def test_the_engine_shows_the_cards_a_move_involves() -> None:
    state = GAME.initial_state(2)
    for ply in (1, 2):
        state = GAME.apply(state, GAME.sample_chance(state, SeedRng("show", ply)))
    top = CARD_NAMES[state.piles[RED][0]]
    assert GAME.describe_action(state, ("place", sq("b3"))) == top


# -- resignation ----------------------------------------------------------------------------------


def test_resign_loses_for_the_seat_to_move() -> None:
    state = play(GAME, example(BLACK), "resign")
    outcome = GAME.outcome(state)
    assert outcome.termination == "resignation" and outcome.winners == [RED]
    assert RESIGN not in GAME.legal_actions(example(BLACK))
    with pytest.raises(IllegalAction, match="chance"):
        GAME.parse_action(set_up(), "resign")
    with pytest.raises(GameOver):
        GAME.parse_action(state, "a4-b4")


# -- hidden pile order (D10) ----------------------------------------------------------------------


def test_only_the_top_card_of_each_pile_is_shown() -> None:
    state = example(RED)
    hidden = {CARD_NAMES[c] for pile in state.piles for c in pile[1:]}
    for seat in (None, RED, BLACK):
        view = GAME.view(state, seat)
        assert view["piles"]["p1"] == {"cards": 18, "top": CARD_NAMES[state.piles[RED][0]]}
        shown = set(GAME.render(state, seat, ["red", "black"]).split())
        assert not hidden & shown
        assert CARD_NAMES[state.piles[BLACK][0]] in GAME.render(state, seat, ["a", "b"])
        other = GAME.randomize_hidden(state, seat, SeedRng("h", 1))
        assert other.piles != state.piles and GAME.view(other, seat) == view


def test_the_grid_is_public_including_covered_cards() -> None:
    state = play(GAME, example(RED), "d3-d4")
    for seat in (None, RED, BLACK):
        assert GAME.view(state, seat)["grid"]["d4"] == ["JS", "QD"]
        assert "d4: JS QD" in GAME.render(state, seat, ["red", "black"])


def test_mask_action_hides_the_pile_below_its_top() -> None:
    session = Session.start("belemmer", seed="mask")
    session.play(["place a1", "place b1", "place c1"])
    red_line = session.exported(BLACK).body[0].actions[0].text.split()
    red_order = session.steps[0].text.split()
    assert red_line[:2] == ["shuffle", "red"]
    # Two red cards were placed and the third is on top of the pile: three are seen.
    assert red_line[2:5] == red_order[2:5] and set(red_line[5:]) == {"?"}
    black_line = session.exported(RED).body[1].actions[0].text.split()
    assert black_line[2:4] == session.steps[1].text.split()[2:4] and black_line[4] == "?"


CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[HDCS](?![A-Za-z0-9])")


def below_tops(state: BelemmerState) -> set[str]:
    return {CARD_NAMES[c] for pile in state.piles for c in pile[1:]}


@pytest.mark.parametrize("options", [{}, {"after_piles": "play_on"}], ids=["score", "play_on"])
def test_no_output_for_a_seat_names_a_card_below_a_pile_top(options: dict[str, str],
                                                             tmp_path: Path) -> None:
    # D10 at every ply of a whole game: show, show --json, moves and export for each seat.
    full = random_game("belemmer", "below-top", options=options)
    assert full.ply > 40
    session = Session.start("belemmer", seed="below-top", options=options)
    path = tmp_path / "g.gtn"
    cli_checks = 0
    for step in [s for s in full.steps if s.seat != CHANCE] + [None]:
        state = session.state
        hidden = below_tops(state)
        for seat, name in ((RED, "red"), (BLACK, "black"), (None, "spectator")):
            shown = [render.show_text(session, None, name),
                     json.dumps(render.show_data(session, None, name)),
                     svg_words(render.show_svg(session, None, name)),
                     "\n".join(a.text for line in session.exported(seat).body
                               for a in getattr(line, "actions", ())),
                     *(GAME.format_action(state, a) for a in GAME.legal_actions(state))]
            if name is not None and session.ply % 17 == 0:  # the same through the CLI
                path.write_text(session.text())
                for args in (("show",), ("show", "--json"), ("moves",), ("moves", "--json"),
                             ("export",), ("show", "--svg")):
                    extra = ("--weak-seed-ok",) if args[0] != "moves" else ()
                    code, out, err = run(*args, str(path), "--as", name, *extra)
                    assert code == 0, (args, err)
                    shown.append(svg_words(out) if "--svg" in args else out)
                    cli_checks += 1
            leaked = set(CARD_WORD.findall(" ".join(shown))) & hidden
            assert not leaked, (session.ply, name, sorted(leaked))
        if step is not None:
            session.push(step.action)
    assert session.states == full.states and cli_checks >= 20
    # And every earlier position of the finished record, as `show --ply N` draws it.
    for ply, state in enumerate(session.states):
        for name in ("red", "black"):
            text = render.show_text(session, ply, name)
            data = json.dumps(render.show_data(session, ply, name))
            assert not set(CARD_WORD.findall(text + data)) & below_tops(state), (ply, name)


# -- through the command line -------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_cli_show_names_the_placed_card_and_hides_the_piles(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    assert run("start", "belemmer", "--seed", "cli", "-o", str(path))[0] == 0
    session = load_one(path.read_text())
    top = CARD_NAMES[session.state.piles[RED][0]]
    assert run("move", str(path), "place a1")[0] == 0
    code, out, _ = run("show", str(path), "--as", "black", "--weak-seed-ok")
    assert code == 0 and f"last: red: place a1  ({top})" in out
    hidden = {CARD_NAMES[c] for p in load_one(path.read_text()).state.piles for c in p[1:]}
    assert not hidden & set(out.split())
    code, out, _ = run("export", str(path), "--as", "red", "--weak-seed-ok")
    assert code == 0 and "?" in out and '[Seed "' not in out


def test_show_names_each_pile_by_seat_and_colour_once() -> None:
    state = example(RED)
    red_top, black_top = (CARD_NAMES[pile[0]] for pile in state.piles)
    plain = GAME.render(state, RED, ["red", "black"]).splitlines()
    assert f"red pile: 18 cards, top {red_top}" in plain
    assert f"black pile: 18 cards, top {black_top}" in plain
    named = GAME.render(state, RED, ["ann", "ben"]).splitlines()
    assert f"ann (red) pile: 18 cards, top {red_top}" in named
    assert f"ben (black) pile: 18 cards, top {black_top}" in named


def test_cli_rejects_an_illegal_placement_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "belemmer", "--seed", "cli", "-o", str(path))
    run("move", str(path), "place a1")
    before = path.read_bytes()
    code, _, err = run("move", str(path), "place a1")
    assert code == 1 and "a1 is occupied" in err and err.count("\n") == 1
    assert path.read_bytes() == before


def test_cli_option_values_are_checked() -> None:
    code, _, err = run("start", "belemmer", "--option", "after_piles=never")
    assert code == 1 and "expected one of score, play_on" in err


# -- the sample records ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.gtn")), ids=lambda p: p.name)
def test_sample_records_validate_and_are_complete(path: Path) -> None:
    (verdict,) = check_text(path.read_text(), str(path))
    assert verdict.ok, verdict.errors
    session = load_one(path.read_text())
    assert session.game.is_over(session.state)


def test_samples_include_a_blocked_win_and_a_game_on_points() -> None:
    endings = {}
    for path in SAMPLES.glob("*.gtn"):
        session = load_one(path.read_text())
        endings[path.name] = session.game.outcome(session.state).termination
    assert endings.get("blocked.gtn") == "blocked"
    assert endings.get("points.gtn") == "both blocked"  # after_piles=play_on, scored
    assert endings.get("exhausted.gtn") == "piles exhausted"


def test_the_points_sample_runs_to_the_longest_possible_game() -> None:
    # 2 shuffles + 16 placements + toss + 36 moves + 15 moves with the piles empty = 70 plies.
    session = load_one((SAMPLES / "points.gtn").read_text())
    # 70 plies with two shuffles; a pile revealed card by card adds 50 reveals at most.
    assert session.ply == 70 == GAME.max_plies - 50
    assert sum(1 for stack in session.state.grid if stack) == 1
