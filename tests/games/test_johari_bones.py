"""Johari Bones: every rule, decision, option and edge case of rules/johari-bones.md, and a leak
test over random games: nothing printed for a seat shows a bone that seat may not see."""

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
from gametool.core.errors import GameError, IllegalAction, MalformedAction
from gametool.games.johari_bones import BOXES, JohariBones, JohariState, best_score
from gametool.games.johari_bones.state import ALL_BONES
from gametool.records import Session, check_text, load_one
from gametool.views import render
from notation import record as gtn

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "johari-bones"

DEAL = ["deal p1: 2-4 4-5 1-1 3-6", "deal p2: 0-0 1-2 6-6 2-2"]
# The worked hand: (seat, action) in order; a drawing turn is draw, drawn, draw>PLACE.
WORKED = [
    ("p1", "draw"), ("chance", "drawn 5-5"), ("p1", "draw>me.in"),
    ("p2", "swap in p1"),
    ("p1", "draw"), ("chance", "drawn 3-4"), ("p1", "draw>p2.out"),
    ("p2", "draw"), ("chance", "drawn 1-6"), ("p2", "draw>me.in"),
    ("p1", "swap up p2"),
    ("p2", "draw"), ("chance", "drawn 2-3"), ("p2", "draw>p1.up"),
]
POSITIONS = ("up", "down", "in", "out")


# -- helpers --------------------------------------------------------------------------------


def ends(text: str) -> list[int]:
    return [int(c) for bone in text.split() for c in bone.split("-")]


def apply_texts(game: JohariBones, state: JohariState, texts: list[str]) -> JohariState:
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def worked_states(options: dict[str, str] | None = None) -> list[JohariState]:
    game = JohariBones(options)
    states = [game.initial_state(2)]
    for text in DEAL + [t for _s, t in WORKED]:
        states.append(game.apply(states[-1], game.parse_action(states[-1], text)))
    return states


def held(game: JohariBones, state: JohariState, seat: int | None, owner: str) -> dict[str, str]:
    return game.view(state, seat)["positions"][owner]


def expected_view(state: JohariState, seat: int | None, owner: int) -> dict[str, str]:
    """The visibility table of the rules file, written out again."""
    bones = state.positions[owner]
    assert bones is not None
    out = {}
    for index, name in enumerate(POSITIONS):
        if state.revealed or name == "up":
            visible = True
        elif seat is None or name == "down":
            visible = False
        elif name == "in":
            visible = seat == owner
        else:
            visible = seat != owner
        out[name] = f"{bones[index][0]}-{bones[index][1]}" if visible else "?"
    return out


def rejected(game: JohariBones, state: JohariState, text: str) -> str:
    with pytest.raises(IllegalAction) as info:
        game.parse_action(state, text)
    return str(info.value)


def play_hand_of_swaps(game: JohariBones, state: JohariState) -> JohariState:
    """Deal from the seed-free chance stream, then every turn 'swap up' with the next seat."""
    rng = SeedRng("hand", state.hand)
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    while not state.revealed:
        me = game.to_move(state)
        assert me is not None and me >= 0
        state = game.apply(state, ("swap", 0, (me + 1) % state.nseats))
    return state


# -- the worked hand -------------------------------------------------------------------------


def test_worked_hand_final_positions() -> None:
    game = JohariBones()
    final = worked_states()[-1]
    assert final.revealed
    p1, p2 = held(game, final, None, "p1"), held(game, final, None, "p2")
    assert p1 == {"up": "2-3", "down": "4-5", "in": "5-5", "out": "6-6"}
    assert p2 == {"up": "2-4", "down": "1-2", "in": "1-6", "out": "3-4"}


def test_worked_hand_scores_and_pile() -> None:
    game = JohariBones()
    states = worked_states()
    assert len(states[2].pile) == 20 and len(states[-1].pile) == 16
    final = apply_texts(game, states[-1], ["score fullhouse", "score run4"])
    assert final.sheets[0][BOXES.index("fullhouse")] == 27
    assert final.sheets[1][BOXES.index("run4")] == 10
    assert game.scores(final) == [27, 10]
    assert final.hand == 1 and game.to_move(final) == CHANCE  # the next hand is dealt


def test_worked_hand_set_aside_bones() -> None:
    states = worked_states()
    assert states[-1].aside == ((1, 1), (2, 2), (3, 6), (0, 0))


def test_worked_hand_views_follow_the_visibility_table_at_every_step() -> None:
    game = JohariBones()
    for state in worked_states()[1:]:
        for seat in (None, 0, 1):
            for owner in range(2):
                if state.positions[owner] is not None:
                    assert held(game, state, seat, f"p{owner + 1}") == expected_view(
                        state, seat, owner)


def test_worked_hand_first_deal_views() -> None:
    game = JohariBones()
    dealt = worked_states()[2]
    assert held(game, dealt, 0, "p1") == {"up": "2-4", "down": "?", "in": "1-1", "out": "?"}
    assert held(game, dealt, 1, "p1") == {"up": "2-4", "down": "?", "in": "?", "out": "3-6"}
    assert held(game, dealt, None, "p1") == {"up": "2-4", "down": "?", "in": "?", "out": "?"}


def test_swap_in_shows_the_mover_the_bone_from_the_other_out() -> None:
    game = JohariBones()
    after = worked_states()[6]  # p2: swap in p1
    assert held(game, after, 1, "p2")["in"] == "3-6"  # p2 now sees 3-6
    assert held(game, after, 0, "p1")["out"] == "?"  # p1 cannot see its new out (6-6)
    assert held(game, after, 1, "p1")["out"] == "6-6"


def test_drawn_bone_into_another_out_is_hidden_from_that_player_only() -> None:
    game = JohariBones()
    states = worked_states()
    drawn = states[8]  # chance: drawn 3-4, p1 to place it
    assert game.view(drawn, 0)["drawn"] == "3-4" and game.view(drawn, 1)["drawn"] == "?"
    placed = states[9]  # p1: draw>p2.out
    assert held(game, placed, 0, "p2")["out"] == "3-4"
    assert held(game, placed, 1, "p2")["out"] == "?"


def test_drawn_bone_into_own_in_is_hidden_from_all_others() -> None:
    game = JohariBones()
    placed = worked_states()[5]  # p1: draw>me.in with 5-5
    assert held(game, placed, 0, "p1")["in"] == "5-5"
    assert held(game, placed, 1, "p1")["in"] == "?"
    assert held(game, placed, None, "p1")["in"] == "?"


def test_set_aside_bones_are_never_shown_again() -> None:
    # 1-1 was seen by p1 only (its in); 2-2 by p1 only (p2's out). p2 never sees either,
    # not in any view nor in the exported record, even after the hand is scored.
    session = Session.start("johari-bones", ["p1", "p2"], seed=None)
    session.play(DEAL)
    for seat, text in WORKED:
        session.play([text], as_seat=seat)
    session.play(["score fullhouse", "score run4"])
    for ply in range(session.ply + 1):
        text = render.show_text(session, ply, "p2") + json.dumps(
            render.show_data(session, ply, "p2"))
        assert "1-1" not in text and "2-2" not in text
    exported = gtn.write(session.exported(1))
    assert "1-1" not in exported and "2-2" not in exported
    # What p2 saw at the scoring (the down bones) stays shown where it was dealt; p1's drawn
    # 5-5 is shown once p2 has seen it (swapped into p2's out at ply 6), never before.
    assert "deal p1: 2-4 4-5 ? 3-6" in exported and "deal p2: 0-0 1-2 6-6 ?" in exported
    early = Session.start("johari-bones", ["p1", "p2"], seed=None)
    early.play(DEAL)
    for seat, text in WORKED[:2]:
        early.play([text], as_seat=seat)
    assert "drawn ?" in gtn.write(early.exported(1))
    assert "deal p1: 2-4 ? ? 3-6" in gtn.write(early.exported(1))


# -- illegal actions ---------------------------------------------------------------------------


def test_illegal_placements_and_swaps_of_the_rules_file() -> None:
    game = JohariBones()
    states = worked_states()
    drawn = states[4]  # p1 holds the drawn 5-5
    assert "own up or in" in rejected(game, drawn, "draw>me.out")
    assert "own up or in" in rejected(game, drawn, "draw>me.down")
    assert "up or out" in rejected(game, drawn, "draw>p2.in")
    assert "up or out" in rejected(game, drawn, "draw>p2.down")
    assert "me.up" in rejected(game, drawn, "draw>p1.up")
    start = states[2]  # p1 to play, nothing drawn
    assert "D5" in rejected(game, start, "swap down p2")
    assert "D5" in rejected(game, start, "swap up p1")
    assert "draw' first" in rejected(game, start, "draw>me.in")
    assert "p3" in rejected(game, start, "swap up p3")


def test_a_fourth_turn_is_refused_then_only_score_in_seat_order() -> None:
    game = JohariBones()
    final = worked_states()[-1]
    assert "3 turns" in rejected(game, final, "swap up p2")
    assert "3 turns" in rejected(game, final, "draw")
    assert {game.format_action(final, a) for a in game.legal_actions(final)} == {
        f"score {box}" for box in BOXES}
    assert game.to_move(final) == 0
    after = apply_texts(game, final, ["score chance"])
    assert game.to_move(after) == 1


def test_score_before_the_third_round_is_refused() -> None:
    game = JohariBones()
    assert "third round" in rejected(game, worked_states()[2], "score chance")


def test_naming_a_filled_box_is_refused_and_a_misfit_box_scores_zero() -> None:
    game = JohariBones()
    state = apply_texts(game, worked_states()[-1], ["score run5", "score fullhouse"])
    # p1's ends 2 3 4 5 5 5 6 6 hold 2 3 4 5 6: run5 20; p2's ends 1 1 2 2 3 4 4 6 no full house.
    assert state.sheets[0][BOXES.index("run5")] == 20
    assert state.sheets[1][BOXES.index("fullhouse")] == 0
    state = play_hand_of_swaps(game, state)
    first = game.to_move(state)
    assert first == 1  # hand 2 starts with p2
    assert "already filled" in rejected(game, state, "score fullhouse")
    assert "score fullhouse" not in {game.format_action(state, a)
                                     for a in game.legal_actions(state)}


def test_chance_actions_are_checked_for_being_possible() -> None:
    game = JohariBones()
    state = game.initial_state(2)
    assert "p1" in rejected(game, state, "deal p2: 0-0 1-2 6-6 2-2")
    assert "differ" in rejected(game, state, "deal p1: 0-0 0-0 6-6 2-2")
    assert game.parse_action(state, "DEAL P1: 4-2 5-4 1-1 6-3") == (
        "deal", 0, ((2, 4), (4, 5), (1, 1), (3, 6)))
    dealt = worked_states()[2]
    assert "drawn only after p1: draw" in rejected(game, dealt, "drawn 5-5")
    assert "p1 is to move" in rejected(game, worked_states()[4], "drawn 3-4")
    drawing = worked_states()[3]
    assert "not in the pile" in rejected(game, drawing, "drawn 2-4")
    assert "chance is to move" in rejected(game, drawing, "swap up p2")


@pytest.mark.parametrize("text", ["", "draw>", "swap", "score yahtzee", "drawn 7-1", "deal p1",
                                  "draw>me", "swap up", "x", "swap up p5", "draw>p9.up",
                                  "deal p1: 2-4 4-5 1-1", "drawn 5-5 6-6"])
def test_malformed_actions(text: str) -> None:
    game = JohariBones()
    with pytest.raises(MalformedAction) as info:
        game.parse_action(worked_states()[2], text)
    assert "\n" not in str(info.value)


# -- D11, four players, the deal --------------------------------------------------------------


def test_four_players_drawing_every_turn_empty_the_pile_without_refusal() -> None:
    game = JohariBones()
    state = game.initial_state(4)
    rng = SeedRng("four", 0)
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    assert len(state.pile) == 12
    sizes = [12]
    while not state.revealed:
        assert ("draw",) in game.legal_actions(state)
        state = apply_texts(game, state, ["draw"])
        state = game.apply(state, game.sample_chance(state, rng))
        state = apply_texts(game, state, ["draw>me.up"])
        sizes.append(len(state.pile))
    assert sizes == list(range(12, -1, -1))
    assert len(state.aside) == 12


def test_d11_drawing_from_an_empty_pile_is_refused() -> None:
    game = JohariBones()
    state = replace(worked_states()[2], pile=())
    assert ("draw",) not in game.legal_actions(state)
    assert "D11" in rejected(game, state, "draw")


def test_three_players_dealer_and_first_player_rotate() -> None:
    game = JohariBones()
    state = game.initial_state(3)
    view = game.view(state, None)
    assert (view["dealer"], view["first"]) == ("p3", "p1")
    state = play_hand_of_swaps(game, state)
    assert game.to_move(state) == 0
    state = apply_texts(game, state, ["score ones", "score ones", "score ones"])
    view = game.view(state, None)
    assert view["hand"] == 2 and (view["dealer"], view["first"]) == ("p1", "p2")
    deal = game.sample_chance(state, SeedRng("d", 1))
    assert deal[1] == 1  # the deal starts with the first player, p2
    state = play_hand_of_swaps(game, state)
    assert game.to_move(state) == 1


def test_a_hand_is_exactly_three_turns_per_player() -> None:
    game = JohariBones()
    for n in (2, 3, 4):
        state = game.initial_state(n)
        rng = SeedRng("turns", n)
        while game.to_move(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        movers = []
        while not state.revealed:
            movers.append(game.to_move(state))
            state = game.apply(state, ("swap", 2, (movers[-1] + 1) % n))
        assert movers == [i % n for i in range(3 * n)]


def test_down_bones_never_move() -> None:
    game = JohariBones()
    states = worked_states()
    downs = {(s.positions[0][1], s.positions[1][1]) for s in states[3:]}  # type: ignore[index]
    assert downs == {((4, 5), (1, 2))}
    assert all(game.format_action(states[3], a).split()[1] != "down"
               for a in game.legal_actions(states[3]) if a[0] == "swap")


# -- scoring ---------------------------------------------------------------------------------


TABLE = {  # box: (A, B on, B off)
    "ones": (0, 2, 1), "twos": (2, 4, 2), "threes": (3, 6, 3), "fours": (8, 8, 4),
    "fives": (15, 5, 0), "sixes": (6, 18, 12), "fullhouse": (23, 0, 0), "run4": (18, 18, 13),
    "run5": (20, 20, 15), "chance": (34, 28, 22),
}


@pytest.mark.parametrize("box", BOXES)
def test_table_a_and_b_box_by_box(box: str) -> None:
    a, b_on, b_off = TABLE[box]
    hand_a, hand_b = ends("2-4 4-5 5-5 3-6"), ends("0-0 1-2 3-4 6-6")
    assert best_score(hand_a, box, True) == a
    assert best_score(hand_a, box, False) == a  # no blanks: the option changes nothing
    assert best_score(hand_b, box, True) == b_on
    assert best_score(hand_b, box, False) == b_off


def test_two_wilds_full_house_on_and_off() -> None:
    hand = ends("0-0 0-3 0-5 5-5")
    assert best_score(hand, "fullhouse", True) == 27
    assert best_score(hand, "fullhouse", False) == 18


def test_d9_five_of_a_kind_is_no_full_house() -> None:
    assert best_score(ends("5-5 4-5 3-5 2-5"), "fullhouse", True) == 0


def test_three_blank_ends_make_one_wild() -> None:
    hand = ends("0-1 0-2 0-3 4-4")
    assert best_score(hand, "run5", True) == 15
    assert best_score(hand, "run5", False) == 10
    assert best_score(hand, "fours", True) == 12


def test_one_blank_end_makes_no_wild() -> None:
    hand = ends("0-1 2-3 5-5 6-6")
    assert best_score(hand, "run4", True) == 0
    assert best_score(hand, "chance", True) == 28


def test_blanks_are_never_a_value_of_a_run() -> None:
    assert best_score(ends("0-1 2-3 5-6 6-6"), "run4", True) == 0  # 0 1 2 3 is no run


def test_option_wild_scores_face_off_in_play() -> None:
    game = JohariBones({"wild_scores_face": "off"})
    state = worked_states({"wild_scores_face": "off"})[-1]
    state = replace(state, positions=(((0, 0), (1, 2), (3, 4), (6, 6)), state.positions[1]))
    state = apply_texts(game, state, ["score chance"])
    assert state.sheets[0][BOXES.index("chance")] == 22


# -- the end of the game ---------------------------------------------------------------------


def play_game(n: int, seed: str, box_order: list[list[str]] | None = None) -> JohariState:
    game = JohariBones()
    state = game.initial_state(n)
    hand = 0
    while game.to_move(state) is not None:
        state = play_hand_of_swaps(game, state)
        while game.to_move(state) is not None and state.revealed:
            seat = game.to_move(state)
            box = box_order[seat][hand] if box_order else BOXES[hand]
            state = apply_texts(game, state, [f"score {box}"])
        hand += 1
    return state


def test_ten_hands_fill_every_box_and_the_highest_total_wins() -> None:
    game = JohariBones()
    state = play_game(3, "end")
    assert all(v is not None for sheet in state.sheets for v in sheet)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "10 hands"
    totals = game.totals(state)
    best = max(totals)
    for result, total in zip(outcome.results, totals, strict=True):
        assert (result.result == "win") == (total == best)
        assert result.rank == 1 + sum(1 for t in totals if t > total)


def test_the_finished_game_shows_the_dealer_and_first_player_of_hand_10() -> None:
    # With 3 players hand 10 is dealt by p3 and started by p1 (hands 1, 4, 7 and 10 alike).
    game = JohariBones()
    state = play_game(3, "last-hand")
    assert game.to_move(state) is None and state.revealed
    view = game.view(state, None)
    assert (view["hand"], view["dealer"], view["first"]) == (10, "p3", "p1")
    assert "hand 10 of 10, dealer p3, first p1" in game.render(state, None, [])


def test_equal_highest_totals_share_the_win() -> None:
    game = JohariBones()
    state = play_game(3, "tie")
    sheets = ((10,) * 10, (10,) * 10, (5,) * 10)
    outcome = game.outcome(replace(state, sheets=sheets))
    assert outcome is not None
    assert [r.result for r in outcome.results] == ["win", "win", "loss"]
    assert [r.rank for r in outcome.results] == [1, 1, 3]
    everyone = game.outcome(replace(state, sheets=((7,) * 10,) * 3))
    assert everyone is not None and {r.result for r in everyone.results} == {"draw"}


def test_d12_resign_ranks_the_resigner_last() -> None:
    game = JohariBones()
    state = worked_states()[2]
    state = game.apply(state, game.parse_action(state, "resign"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "resignation"
    assert [r.result for r in outcome.results] == ["loss", "win"]
    three = play_hand_of_swaps(game, game.initial_state(3))
    three = replace(three, sheets=((50,) + (None,) * 9, (1,) + (None,) * 9,
                                   (9,) + (None,) * 9))
    gone = game.apply(three, RESIGN)  # p1 is to score and resigns despite the lead
    result = game.outcome(gone)
    assert result is not None
    assert [r.rank for r in result.results] == [3, 2, 1]
    assert [r.result for r in result.results] == ["loss", "loss", "win"]


def test_bad_option_is_refused() -> None:
    with pytest.raises(GameError):
        JohariBones({"wild_scores_face": "maybe"})


# -- the leak test ---------------------------------------------------------------------------


BONE = re.compile(r"(?<![\d/-])([0-6])-([0-6])(?![\d/-])")


RESULT_TAGS = re.compile(r'\[Result "[^"]*"\]|"tag": "[^"]*"|result: \S+')


def bones_in(text: str) -> set[tuple[int, int]]:
    """The bones named in a text (result tags such as 1-0 are not bones)."""
    text = RESULT_TAGS.sub("", text)
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in BONE.findall(text)}


def seen_now(state: JohariState, seat: int | None) -> set[tuple[int, int]]:
    """What the visibility table lets ``seat`` (None: a spectator) see in this state (own
    drawn bone included)."""
    out = set()
    for owner, bones in enumerate(state.positions):
        if bones is None:
            continue
        for index, name in enumerate(POSITIONS):
            if (state.revealed or name == "up"
                    or (name == "in" and owner == seat)
                    or (name == "out" and seat is not None and owner != seat)):
                out.add(bones[index])
    if state.drawn is not None and state.mover() == seat:
        out.add(state.drawn)
    return out


def leak_check_game(seed: str, nseats: int, text_every: int) -> int:
    """Play one random game and check, for every seat and a spectator and every ply, the JSON
    of show --as and the moves listed; the text of show --as and export --as every
    ``text_every`` plies and at the end (the text is drawn from the same view). Returns the
    plies played."""
    runner_game = JohariBones()
    names = [f"p{i + 1}" for i in range(nseats)]
    session = Session.start("johari-bones", names, seed=seed)
    viewers: list[int | None] = [*range(nseats), None]
    known = {s: seen_now(session.state, s) for s in viewers}
    ply_rng = 0
    while True:
        state = session.state
        for seat in viewers:
            known[seat] |= seen_now(state, seat)
            name = "spectator" if seat is None else names[seat]
            printed = json.dumps(render.show_data(session, None, name))
            if runner_game.to_move(state) == seat:
                printed += " ".join(session.game.format_action(state, a)
                                    for a in session.game.legal_actions(state))
            if session.ply % text_every == 0 or session.game.is_over(state):
                printed += render.show_text(session, None, name)
                printed += svg_words(render.show_svg(session, None, name))
                printed += gtn.write(session.exported(seat))
            leaked = bones_in(printed) - known[seat]
            assert not leaked, f"{seed} ply {session.ply}: {name} sees {leaked}"
        if session.game.is_over(state):
            return session.ply
        actions = session.game.legal_actions(state)
        session.push(SeedRng(f"{seed}:players", ply_rng).choice(actions))
        ply_rng += 1


@pytest.mark.parametrize("block", [pytest.param(b, marks=[pytest.mark.slow] if b >= 5 else [])
                                   for b in range(20)])
def test_leak_no_output_shows_a_bone_the_seat_may_not_see(block: int) -> None:
    # 100 games in 20 blocks of 5 (so that parallel runs share them out): the first 5 blocks
    # in every suite, the other 15 with ``-m slow``.
    plies = 0
    for index in range(5):
        game_index = block * 5 + index
        plies += leak_check_game(f"leak-{game_index}", 2 + game_index % 3, 10)
    assert plies > 5 * 100


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_leak_every_text_at_every_ply(block: int) -> None:
    for index in range(25):
        game_index = block * 25 + index
        leak_check_game(f"leak-full-{game_index}", 2 + game_index % 3, 1)


def test_leak_cli_moves_and_export_for_a_seat(tmp_path: Path) -> None:
    session = Session.start("johari-bones", ["ann", "ben", "cy"], seed="cli-leak")
    for ply in range(25):
        session.push(SeedRng("cli", ply).choice(session.game.legal_actions(session.state)))
    path = tmp_path / "j.gtn"
    path.write_text(session.text())
    runner = CliRunner()
    for seat, name in enumerate(["ann", "ben", "cy"]):
        known: set[tuple[int, int]] = set()
        for state in session.states:
            known |= seen_now(state, seat)
        out = ""
        weak = "--weak-seed-ok"
        for args in (["show", str(path), "--as", name, weak],
                     ["show", str(path), "--as", name, "--json", weak],
                     ["moves", str(path), "--as", name], ["export", str(path), "--as", name, weak]):
            result = runner.invoke(cli, args)
            assert result.exit_code == 0, result.output
            out += result.stdout
        assert not bones_in(out) - known
    seen = runner.invoke(cli, ["show", str(path), "--as", "spectator", "--weak-seed-ok"]).stdout
    ups = {b[0] for b in session.state.positions if b is not None}
    assert bones_in(seen) <= ups  # a spectator: up bones only
    full = runner.invoke(cli, ["show", str(path)]).stdout  # the master record: every bone
    assert bones_in(full) >= {b for bones in session.state.positions if bones for b in bones}


def test_randomized_hidden_bones_keep_every_view() -> None:
    game = JohariBones()
    for index, state in enumerate(worked_states()):
        for seat in (None, 0, 1):
            other = game.randomize_hidden(state, seat, SeedRng("r", index))
            assert game.view(other, seat) == game.view(state, seat)
            every = [b for p in other.positions if p for b in p] + list(other.pile + other.aside)
            every += [other.drawn] if other.drawn else []
            assert sorted(every) == sorted(ALL_BONES)  # the same 28 bones, only moved


def test_randomized_hidden_bones_depend_only_on_what_the_seat_sees() -> None:
    # Two states that differ only in what a seat cannot see give the same sample from the same
    # stream: a computer player can never read a hidden bone through its sample.
    game = JohariBones()
    states = list(worked_states())
    for index in range(3):
        session = Session.start("johari-bones", [f"p{i + 1}" for i in range(2 + index)],
                                seed=f"blind-{index}")
        for ply in range(60):
            session.push(SeedRng("blind", ply).choice(session.game.legal_actions(session.state)))
        states += session.states[::2]
    for index, state in enumerate(states):
        for seat in (None, *range(state.nseats)):
            other = game.randomize_hidden(state, seat, SeedRng("other", index))
            assert game.view(other, seat) == game.view(state, seat)
            assert (game.randomize_hidden(state, seat, SeedRng("same", index))
                    == game.randomize_hidden(other, seat, SeedRng("same", index))), (index, seat)


def test_randomized_hidden_bones_move_every_kind_of_unseen_bone() -> None:
    # p2 after "p1: draw>p2.out" (worked state 9): p2 cannot see the pile, the set-aside bones,
    # the down bones, p1's in and its own out; over a few samples each of them changes.
    game = JohariBones()
    state = worked_states()[9]
    samples = [game.randomize_hidden(state, 1, SeedRng("kinds", k)) for k in range(20)]
    assert any(s.pile != state.pile for s in samples)
    assert any(s.aside != state.aside for s in samples)
    for owner, pos in ((0, 1), (1, 1), (0, 2), (1, 3)):
        assert any(s.positions[owner][pos] != state.positions[owner][pos] for s in samples)
    for owner, pos in ((0, 0), (1, 0), (0, 3), (1, 2)):  # seen by p2: never moved
        assert all(s.positions[owner][pos] == state.positions[owner][pos] for s in samples)


def test_a_drawing_turn_is_three_record_entries() -> None:
    # The rules' "chance: drawn 5-5   p1: draw>me.in" with the player's choice to draw written
    # out, each entry belonging to one seat or to chance; the notation text says so.
    session = Session.start("johari-bones", ["p1", "p2"], seed=None)
    session.play(DEAL)
    for seat, text in WORKED[:3]:
        session.play([text], as_seat=seat)
    lines = [line.strip() for line in session.text().splitlines() if line[:1].isdigit()]
    assert lines[2:] == ["3. p1: draw", "4. chance: drawn 5-5", "5. p1: draw>me.in"]
    notation = JohariBones.notation
    assert "three record entries" in notation and "chance: drawn 5-5" in notation


# -- the command line and samples ------------------------------------------------------------


def test_cli_show_as_seat_draws_positions_and_score_sheet(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "j.gtn"
    assert runner.invoke(cli, ["start", "johari-bones", "--players", "p1,p2", "--no-seed",
                               "-o", str(path)]).exit_code == 0
    result = runner.invoke(cli, ["move", str(path), *DEAL])
    assert result.exit_code == 0, result.output
    for seat, text in WORKED:
        result = runner.invoke(cli, ["move", str(path), text, "--as", seat])
        assert result.exit_code == 0, result.output
    runner.invoke(cli, ["move", str(path), "score fullhouse", "score run4"])
    out = runner.invoke(cli, ["show", str(path), "--as", "p1", "--ply", "13"]).stdout
    assert "6-6" not in out and "1-2" not in out  # p1's out, p2's down
    assert "5-5" in out and "3-4" in out and "0-0" in out  # p1's in, p2's out, p1's up
    data = json.loads(runner.invoke(cli, ["show", str(path), "--as", "p1", "--ply", "13",
                                          "--json"]).stdout)
    assert data["position"]["positions"]["p1"] == {"up": "0-0", "down": "?", "in": "5-5",
                                                   "out": "?"}
    out = runner.invoke(cli, ["show", str(path), "--as", "p2"]).stdout
    assert "fullhouse" in out and "27" in out and "total" in out
    assert "last: p2: score run4  (scores 10)" in out
    bad = runner.invoke(cli, ["move", str(path), "score fullhouse"])
    assert bad.exit_code == 1 and len(bad.stderr.strip().splitlines()) == 1


def test_show_notes_the_score_written_in_under_the_players_name() -> None:
    session = Session.start("johari-bones", ["ann", "ben"], seed=None)
    session.play(DEAL)
    for seat, text in WORKED:
        session.play([text], as_seat="ann" if seat == "p1" else "ben" if seat == "p2" else seat)
    session.play(["score fullhouse"])
    assert render.show_data(session, None, "ben")["last"] == "ann: score fullhouse  (scores 27)"


def test_sample_records_validate_and_are_complete() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    terminations = set()
    for file in files:
        text = file.read_text()
        for verdict in check_text(text, str(file)):
            assert not verdict.errors, verdict.errors
        session = load_one(text, str(file))
        outcome = session.game.outcome(session.state)
        assert outcome is not None
        terminations.add(outcome.termination)
    assert terminations == {"10 hands", "resignation"}  # each way the game can end


def test_show_prints_the_scores_once(tmp_path: Path) -> None:
    path = tmp_path / "j.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "johari-bones", "--players", "ann,ben,cy", "--seed", "1",
                        "-o", str(path)])
    out = runner.invoke(cli, ["show", str(path)]).output
    assert out.count("total") == 1 and "score" not in out
