"""Sapos: every edge case, worked example and decision of rules/sapos.md."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import RESIGN, perft
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.games.sapos import Sapos, SaposState, sequences
from gametool.players.auto import random_game
from gametool.records import Session, check_text, load_one

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_games" / "sapos"
OPENING = ["e2-e4+e5", "d7-d5+c4,e7-c5+b4", "e5xe7", "d6-d4xf4", "d2-d4-f2+e1",
           "c4-c6-e4xe2xg2"]
"""The worked opening, one turn (ply) each; OPENING[:n - 1] is the position "as ply n"."""


def sq(name: str) -> int:
    return Sapos.square(name)


def play(game: Sapos, *texts: str, state: SaposState | None = None) -> SaposState:
    state = game.initial_state(2) if state is None else state
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def setup(dark: list[str], light: list[str], seat: int, reserves: tuple[int, int] = (5, 5),
          turns: int = 10, **options: str) -> tuple[Sapos, SaposState]:
    """A set-up position (past Light's first turn) for endings the opening never reaches."""
    cells = bytearray(64)
    for name in dark:
        cells[sq(name)] = 1
    for name in light:
        cells[sq(name)] = 2
    return Sapos(options), SaposState(bytes(cells), reserves, seat, turns, None)


def board_lines(state: SaposState) -> list[str]:
    return [" ".join(row) for row in Sapos().view(state, None)["board"]]


def legal_texts(game: Sapos, state: SaposState) -> set[str]:
    return {game.format_action(state, a) for a in game.legal_actions(state)}


# -- a deliberately simple reference generator, straight from the rules file ------------------

KING = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
ROOK = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def name(p: tuple[int, int]) -> str:
    return "abcdefgh"[p[0]] + str(p[1] + 1)


def ref_board(state: SaposState) -> dict[tuple[int, int], str]:
    return {(s % 8, s // 8): ".DL"[state.cells[s]] for s in range(64)}


def ref_starts(board: dict[tuple[int, int], str], me: str, knot: bool) -> list[tuple[int, int]]:
    mine = [p for p, c in board.items() if c == me]
    if not knot:
        return mine
    blocked = set()
    for f in range(7):
        for r in range(7):
            block = [(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)]
            if all(board[p] == me for p in block):
                blocked.update(block)
    return sorted(blocked) if blocked else mine


def ref_sequences(board: dict[tuple[int, int], str], me: str, starts: list[tuple[int, int]],
                  reserve: int, jumps: bool, history: list[tuple[int, int]]
                  ) -> Iterator[tuple[str, dict[tuple[int, int], str], list[tuple[int, int]]]]:
    """(text, board after, squares the piece stood on) of every complete hop+spawn or
    hop* jump+ sequence. ``history``: earlier squares of the piece now on history[-1]."""
    enemy = "L" if me == "D" else "D"

    def walk(b: dict[tuple[int, int], str], pos: tuple[int, int], trail: list[tuple[int, int]],
             text: str, hopped: bool, jumped: bool
             ) -> Iterator[tuple[str, dict[tuple[int, int], str], list[tuple[int, int]]]]:
        if jumped:
            yield text, b, trail  # a jump chain may stop after any jump
        if hopped and not jumped and reserve > 0:
            for df, dr in KING:
                n = (pos[0] + df, pos[1] + dr)
                if b.get(n) == ".":
                    spawned = dict(b)
                    spawned[n] = me
                    yield f"{text}+{name(n)}", spawned, trail
        for df, dr in KING:
            mid, land = (pos[0] + df, pos[1] + dr), (pos[0] + 2 * df, pos[1] + 2 * dr)
            if (not jumped and b.get(mid) == me and b.get(land) == "."
                    and land not in trail):
                moved = dict(b)
                moved[pos], moved[land] = ".", me
                yield from walk(moved, land, [*trail, land], f"{text}-{name(land)}", True, False)
        if jumps:
            for df, dr in ROOK:
                mid, land = (pos[0] + df, pos[1] + dr), (pos[0] + 2 * df, pos[1] + 2 * dr)
                if b.get(mid) == enemy and b.get(land) == ".":
                    moved = dict(b)
                    moved[pos], moved[mid], moved[land] = ".", ".", me
                    yield from walk(moved, land, [*trail, land], f"{text}x{name(land)}",
                                    hopped, True)

    for start in starts:
        trail = [*history, start] if history and history[-1] == start else [start]
        yield from walk(board, start, trail, name(start), False, False)


def ref_turns(state: SaposState) -> set[str]:
    """Every complete turn; Light's first turn (the second turn) as 'first,second'."""
    board = ref_board(state)
    me = "DL"[state.seat]
    reserve = state.reserves[state.seat]
    if state.turns != 1:
        return {t for t, _b, _tr in ref_sequences(board, me, ref_starts(board, me, True),
                                                  reserve, True, [])}
    out = set()
    for first, after, trail in ref_sequences(board, me, ref_starts(board, me, True), reserve,
                                             False, []):
        for second, _b, _tr in ref_sequences(after, me, ref_starts(after, me, False),
                                             reserve - 1, False, trail):
            out.add(f"{first},{second}")
    return out


def engine_turns(game: Sapos, state: SaposState) -> set[str]:
    actions = game.legal_actions(state)
    texts = [game.format_action(state, a) for a in actions]
    assert len(texts) == len(set(texts)) == len(set(actions))
    return set(texts)


@pytest.mark.parametrize("drains", ["off", "on"])
def test_differential_engine_matches_reference_generator(drains: str) -> None:
    game = Sapos({"capture_drains_victim_reserve": drains})
    checked = index = 0
    target = 300 if drains == "off" else 60
    while checked < target:
        state = game.initial_state(2)
        ply = 0
        while game.to_move(state) is not None and ply < 40:
            expected = ref_turns(state)
            assert engine_turns(game, state) == expected, (index, ply)
            checked += 1
            action = SeedRng(f"diff-{drains}-{index}", ply).choice(game.legal_actions(state))
            after = game.apply(state, action)
            outcome = game.outcome(after)  # D7: starvation exactly when no turn is left
            starved = not ref_turns(after)
            assert (outcome is not None and outcome.termination == "starvation") == starved
            state = after
            ply += 1
        index += 1


# -- the worked opening -----------------------------------------------------------------------


def test_worked_opening_reserves_after_each_ply() -> None:
    game = Sapos()
    state = game.initial_state(2)
    reserves = []
    for text in OPENING:
        state = game.apply(state, game.parse_action(state, text))
        reserves.append(state.reserves)
    assert reserves == [(11, 12), (11, 10), (12, 10), (12, 11), (11, 11), (11, 13)]


def test_worked_opening_final_diagram() -> None:
    state = play(Sapos(), *OPENING)
    assert board_lines(state) == [
        ". . . . . . . .",
        ". . . . D . . .",
        ". . . . . . . .",
        ". . L L . . . .",
        ". L . . . L . .",
        ". . . D . . . .",
        ". . . . . . L .",
        ". . . . D . . .",
    ]


def test_worked_opening_leaves_dark_starved() -> None:
    # Dark's d3, e1 and e7 have no friendly neighbour to hop over and no enemy to jump.
    game = Sapos()
    state = play(game, *OPENING)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "starvation"
    assert [r.result for r in outcome.results] == ["loss", "win"]


def test_light_double_turn_is_one_ply_of_the_count() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    assert state.seat == 1 and state.turns == 1 and game.to_move(state) == 1
    state = play(game, "d7-d5+c4,e7-c5+b4", state=state)
    assert state.seat == 0 and state.turns == 2


# -- hops, jumps, spawns (D1, D2, D8, D9) ------------------------------------------------------


def test_d2_has_exactly_three_single_hops_from_the_setup() -> None:
    game = Sapos()
    state = game.initial_state(2)
    landings = {seq[0][1] for (seq,) in game.legal_actions(state) if seq[0][0] == sq("d2")
                and seq[1] == 1}
    assert landings == {sq("d4"), sq("f4"), sq("f2")}


@pytest.mark.parametrize("text", ["e2-e4+e5", "d2-d4+c5", "d2-d4-f2+g3"])
def test_legal_first_turns_for_dark(text: str) -> None:
    game = Sapos()
    state = game.initial_state(2)
    assert game.format_action(state, game.parse_action(state, text)) == text


def test_spawn_must_neighbour_the_final_landing_square() -> None:
    game = Sapos()
    state = game.initial_state(2)
    with pytest.raises(IllegalAction, match="does not neighbour the final square f2"):
        game.parse_action(state, "d2-d4-f2+c5")


def test_jump_chains_stop_by_choice() -> None:
    game = Sapos()
    state = play(game, *OPENING[:-1])
    for text in ("c4-c6-e4xe2", "c4-c6-e4xe2xg2"):
        assert game.format_action(state, game.parse_action(state, text)) == text


@pytest.mark.parametrize(("prefix", "text", "words"), [
    (0, "d2-d4", "incomplete turn"),
    (0, "d2xd4", "d3 is friendly, a jump needs an enemy"),
    (2, "e5-e7+d8", "e6 is an enemy, so that is a jump"),  # hop over an enemy, as ply 3
    (3, "c4xe2", "jumps are orthogonal only"),  # diagonal jump, as ply 4
    (2, "e5xe7+e8", "no spawn follows a jump"),
    (0, "d2-d4+f6", "does not neighbour"),
    (0, "d2-d4-d2+c3", "no return"),
    (5, "c4-c6xc8", "c7 is empty"),
    (0, "d2-d3+c4", "not a hop"),
    (2, "e5xe7-e5+d5", "no hop may follow a jump"),
    (0, "e6-e4+e5", "holds no Dark piece"),
    (2, "e5xe7,e7-e5+e6", "only Light's first turn has two sequences"),
])
def test_rejected_sequences(prefix: int, text: str, words: str) -> None:
    game = Sapos()
    state = play(game, *OPENING[:prefix])
    with pytest.raises(IllegalAction, match=words):
        game.parse_action(state, text)


def test_there_is_no_pass() -> None:
    game = Sapos()
    with pytest.raises(MalformedAction, match="Sapos has no pass"):
        game.parse_action(game.initial_state(2), "pass")


@pytest.mark.parametrize("text", ["d2-d4+c5+c6", "d2", "d2-d4+", "d2-i4+c5", "d2_d4"])
def test_malformed_sequences(text: str) -> None:
    game = Sapos()
    with pytest.raises(MalformedAction):
        game.parse_action(game.initial_state(2), text)


def test_spawn_with_an_empty_reserve_is_rejected() -> None:
    game, state = setup(["d2", "d3", "h1"], ["a8", "b8"], 0, reserves=(0, 5))
    with pytest.raises(IllegalAction, match="reserve is empty"):
        game.parse_action(state, "d2-d4+c4")


def test_the_victim_reserve_is_kept_by_default_d6() -> None:
    state = play(Sapos(), *OPENING[:3])
    assert state.reserves == (12, 10)


def test_capture_drains_victim_reserve_on() -> None:
    game = Sapos({"capture_drains_victim_reserve": "on"})
    state = play(game, *OPENING[:3])
    assert state.reserves == (12, 9)


def test_drained_reserve_never_goes_below_zero() -> None:
    game, state = setup(["d4", "h1", "h2"], ["d5", "a8", "b8"], 0, reserves=(5, 0),
                        capture_drains_victim_reserve="on")
    after = game.apply(state, game.parse_action(state, "d4xd6"))
    assert after.reserves == (6, 0)


# -- the knot rule (D3) -----------------------------------------------------------------------


def test_knot_rule_example() -> None:
    game = Sapos()
    state = play(game, "d2-d4+e4", "d6-d8+c8,e6-e8+f8")
    with pytest.raises(IllegalAction, match="knot rule"):
        game.parse_action(state, "e2-c4+b5")
    state = play(game, "d3-d5+c6", state=state)
    starts = {seq[0][0] for (seq,) in game.legal_actions(state)}
    assert starts == {sq("d7"), sq("e7"), sq("d8"), sq("e8")}


def test_knot_rule_binds_only_lights_first_sequence() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    turns = game.legal_actions(state)
    assert {first[0][0] for first, _second in turns} == {sq("d6"), sq("d7"), sq("e6"), sq("e7")}
    # the second sequence may use any piece: the spawned one, the moved one, one of the block
    text = "d6-f6+f7,f7-d5+d6"
    assert game.format_action(state, game.parse_action(state, text)) == text
    seconds = {second[0][0] for first, second in turns
               if game.format_sequence(first) == "d7-d5+c6"}
    assert seconds == {sq("d5"), sq("d6"), sq("e6"), sq("e7")}


def test_blocks_formed_during_the_turn_do_not_matter() -> None:
    # No Dark block at the start: f2 may move, and its hop to d2 completes c2 c3 d2 d3.
    game, state = setup(["c2", "c3", "d3", "e2", "f2"], ["a8", "b8"], 0)
    assert Sapos._starts(state.cells, 1) == [sq(s) for s in ("c2", "e2", "f2", "c3", "d3")]
    state = game.apply(state, game.parse_action(state, "f2-d2+e1"))
    state = game.apply(state, game.parse_action(state, "a8-c8+d8"))
    # D3: the block binds the next turn, tested once at its start
    starts = {seq[0][0] for (seq,) in game.legal_actions(state)}
    assert starts == {sq("c2"), sq("c3"), sq("d2"), sq("d3")}


def test_knot_starvation() -> None:
    # Dark's block a1 b1 a2 b2 cannot move; a4 b4 d1 d2 could, but the knot rule binds.
    dark = ["a1", "b1", "a2", "b2", "a4", "b4", "d1", "d2"]
    light = ["a3", "b3", "c3", "c2", "c1", "g8", "h8"]
    game, state = setup(dark, light, 1)
    assert list(sequences(state.cells, 1, [sq("a4")], 5, True))  # free without the knot
    after = game.apply(state, game.parse_action(state, "h8-f8+e8"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.termination == "starvation"
    assert [r.result for r in outcome.results] == ["loss", "win"]


# -- no return (D5) and Light's first turn (D4) ------------------------------------------------


def test_no_return_within_one_sequence() -> None:
    game = Sapos()
    with pytest.raises(IllegalAction, match="no return"):
        game.parse_action(game.initial_state(2), "d2-d4-d2+c3")


def test_no_return_across_lights_two_sequences() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    with pytest.raises(IllegalAction, match="no return.*d7"):
        game.parse_action(state, "d7-d5+c4,d5-d7+c8")
    text = "d7-d5+c4,d6-d4+c3"  # a different piece may go where the first one stood
    assert game.format_action(state, game.parse_action(state, text)) == text


def test_lights_first_turn_from_the_setup_needs_a_light_piece_to_hop_over() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    with pytest.raises(IllegalAction, match="d5 is empty"):
        game.parse_action(state, "d6-d4+c5,e7-e5+f4")


def test_lights_first_turn_has_no_jumps_in_either_sequence() -> None:
    game = Sapos()
    state = play(game, "e2-e4+d5")  # d5 now sits between d6 and an empty d4
    with pytest.raises(IllegalAction, match="no jumps"):
        game.parse_action(state, "d6xd4,e7-c5+b4")
    with pytest.raises(IllegalAction, match="no jumps"):
        game.parse_action(state, "e7-c5+b4,d6xd4")


def test_lights_first_turn_needs_both_sequences() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    with pytest.raises(IllegalAction, match="two sequences"):
        game.parse_action(state, "d7-d5+c4")
    session = Session.start("sapos", date="2026.11.22")
    session.play(["e2-e4+e5", "d7-d5+c4, e7-c5+b4"])
    assert "2. Light: d7-d5+c4,e7-c5+b4" in session.text()


def test_the_semicolon_form_is_refused_with_a_hint() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    with pytest.raises(MalformedAction, match="comma"):
        game.parse_action(state, "d7-d5+c4;e7-c5+b4")


@pytest.mark.parametrize(("text", "words"), [
    ("d7-d5+c4 e7-c5+b4", "join the two sequences of Light's first turn with a comma"),
    ("d7-d5+c4,", "the comma joins two sequences, FIRST,SECOND"),
    (",e7-c5+b4", "the comma joins two sequences, FIRST,SECOND"),
    ("d7-d5+", r"two sequences joined by a comma, e\.g\. d7-d5\+c4,e7-c5\+b4"),
])
def test_lights_first_turn_malformed_forms_point_to_the_comma(text: str, words: str) -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    with pytest.raises(MalformedAction, match=words):
        game.parse_action(state, text)


def test_a_semicolon_outside_lights_first_turn_is_not_called_a_first_turn() -> None:
    game = Sapos()
    with pytest.raises(MalformedAction, match="';' is not part of a turn"):
        game.parse_action(game.initial_state(2), "d2-d4+c5;")


@pytest.mark.parametrize(("text", "words"), [
    ("d7-d5+c4,d5-d7+c8", r"\(second sequence\): no return"),
    ("d7-d5+c4,d5-d3+c2", r"\(second sequence\): a hop passes over a friendly piece; d4"),
    ("e6-e4+f4,d7-d5+c4", r"\(first sequence\): e5 is an enemy"),
])
def test_errors_in_lights_first_turn_name_the_sequence(text: str, words: str) -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    with pytest.raises(IllegalAction, match=words):
        game.parse_action(state, text)


def test_a_semicolon_in_a_record_line_points_to_the_comma(tmp_path: Path) -> None:
    # ';' starts a comment, so the reader sees only the first sequence: the error says why.
    head = '[Game "sapos"]\n[Players "Dark; Light"]\n\n1. Dark: e2-e4+e5\n'
    verdicts = check_text(head + "2. Light: d7-d5+c4;e7-c5+b4\n", "r.gtn")
    errors = [str(e) for v in verdicts for e in v.errors]
    assert len(errors) == 1 and "joined by a comma" in errors[0] and "';'" in errors[0]
    blank = check_text(head + "2. Light: d7-d5+c4 e7-c5+b4\n", "r.gtn")
    assert "with a comma" in str(blank[0].errors[0])
    assert all(v.ok for v in check_text(head + "2. Light: d7-d5+c4, e7-c5+b4\n", "r.gtn"))
    runner = CliRunner()
    record = tmp_path / "s.gtn"
    runner.invoke(cli, ["start", "sapos", "--no-seed", "-o", str(record)])
    runner.invoke(cli, ["move", str(record), "e2-e4+e5"])
    bad = runner.invoke(cli, ["move", str(record), "d7-d5+c4;e7-c5+b4"])
    assert bad.exit_code == 1 and "with a comma, e.g. d7-d5+c4,e7-c5+b4" in bad.output


def test_the_documented_first_turn_form_and_example() -> None:
    summary, notation = (" ".join(text.split()) for text in (Sapos.summary, Sapos.notation))
    assert "FIRST,SECOND with a comma" in summary
    assert "joined by a comma" in notation and "';' starts a comment in a record" in notation
    # the example of Light's first turn in the notation text is a legal one
    example = re.search(r"(\S+,\S+) \(Light's first turn, after (\S+)\)", notation)
    assert example is not None
    game = Sapos()
    state = play(game, example.group(2))
    assert game.format_action(state, game.parse_action(state, example.group(1))) == \
        example.group(1)


# -- end of the game (D7, D10) ----------------------------------------------------------------


def test_empty_reserve_and_no_jump_is_starvation() -> None:
    game, state = setup(["d2", "d3"], ["h8", "g8"], 1, reserves=(0, 5))
    after = game.apply(state, game.parse_action(state, "h8-f8+e8"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.termination == "starvation"
    assert outcome.results[1].result == "win"
    assert game.legal_actions(after) == []


def test_empty_reserve_with_a_jump_is_not_starvation() -> None:
    game, state = setup(["d2", "d3"], ["h8", "g8", "d5"], 1, reserves=(0, 5))
    after = game.apply(state, game.parse_action(state, "h8-f8+e8"))
    assert game.outcome(after) is None
    assert legal_texts(game, after) == {"d2-d4xd6"}  # a hop, then the only jump


def test_max_plies_2_draws_after_lights_double_turn() -> None:
    game = Sapos({"max_plies": "2"})
    state = play(game, "e2-e4+e5")
    assert game.outcome(state) is None
    state = play(game, "d7-d5+c4,e7-c5+b4", state=state)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "ply cap"
    assert [r.result for r in outcome.results] == ["draw", "draw"]


def test_a_starvation_win_on_the_capping_turn_stands() -> None:
    game, state = setup(["d2", "d3"], ["h8", "g8"], 1, reserves=(0, 5), turns=9,
                        max_plies="10")
    after = game.apply(state, game.parse_action(state, "h8-f8+e8"))
    assert game.outcome(after).termination == "starvation"


def test_max_plies_above_the_default_is_the_bound_of_automatic_play_d10() -> None:
    game = Sapos({"max_plies": "1000"})
    assert game.max_plies == 1000 and Sapos().max_plies == 400
    session = random_game("sapos", "s7", options={"max_plies": "1000"})
    outcome = session.game.outcome(session.state)
    assert session.ply == 871 and outcome is not None and outcome.termination == "starvation"


def test_resign_loses() -> None:
    game = Sapos()
    state = play(game, "e2-e4+e5")
    after = game.apply(state, game.parse_action(state, RESIGN))
    assert [r.result for r in game.outcome(after).results] == ["win", "loss"]
    with pytest.raises(GameOver):
        game.parse_action(after, "d7-d5+c4,e7-c5+b4")


# -- perft golden values ----------------------------------------------------------------------


def test_perft_of_the_start_position() -> None:
    game = Sapos()
    state = game.initial_state(2)
    assert perft(game, state, 1) == 106
    # Light's first turn is one action (both sequences), so perft 2 is the number of those
    # actions after each of Dark's 106 turns; counted at the leaves, without applying them.
    assert sum(len(game.legal_actions(game.apply(state, action)))
               for action in game.legal_actions(state)) == 888142
    after = game.apply(state, game.parse_action(state, "e2-e4+e5"))
    assert perft(game, after, 1) == 5172  # Light's first turns after the worked opening's ply 1


# -- the command line and the sample records --------------------------------------------------


def test_show_and_a_double_turn_on_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    record = tmp_path / "s.gtn"
    assert runner.invoke(cli, ["start", "sapos", "--no-seed", "-o", str(record)]).exit_code == 0
    assert runner.invoke(cli, ["move", str(record), "e2-e4+e5",
                               "d7-d5+c4,e7-c5+b4"]).exit_code == 0
    assert "2. Light: d7-d5+c4,e7-c5+b4" in record.read_text()
    shown = runner.invoke(cli, ["show", str(record)])
    assert shown.exit_code == 0
    assert "   a b c d e f g h" in shown.output
    assert "5  . . L L D . . .  5" in shown.output
    assert "Light (L)" in shown.output
    start = tmp_path / "t.gtn"
    runner.invoke(cli, ["start", "sapos", "--no-seed", "-o", str(start)])
    runner.invoke(cli, ["move", str(start), "e2-e4+e5"])
    assert "two sequences joined by a comma, FIRST,SECOND" in runner.invoke(
        cli, ["show", str(start)]).output
    bad = runner.invoke(cli, ["move", str(record), "d2-d4"])
    assert bad.exit_code == 1 and "incomplete turn" in bad.output


def test_sample_records_are_valid_and_one_ends_in_starvation() -> None:
    files = sorted(SAMPLES.glob("*.gtn"))
    assert len(files) >= 2
    terminations = []
    for path in files:
        text = path.read_text()
        verdicts = check_text(text, str(path))
        assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]
        session = load_one(text)
        terminations.append(session.game.outcome(session.state).termination)
    assert "starvation" in terminations


@pytest.mark.parametrize("text", ["d2 - d4 + c5", "d2-d4 +c5", "d2- d4+c5", "d2 -d4+c5"])
def test_no_blanks_inside_an_action(text: str) -> None:
    """One rule for every game (as Colors and Desdemona): blanks around, never inside."""
    game = Sapos()
    state = game.initial_state(2)
    with pytest.raises(MalformedAction):
        game.parse_action(state, text)
    assert game.format_action(state, game.parse_action(state, " d2-d4+c5  ")) == "d2-d4+c5"


def test_a_path_is_legal_exactly_when_the_generator_yields_it() -> None:
    """board.yields (the check along one path) against the generator: every sequence it
    yields, and the same sequences bent (a spawn, a landing or the hop count changed)."""
    from gametool.games.sapos.board import pieces_of, yields

    game = Sapos()
    import random

    rng = random.Random(5)
    checked = 0
    for _game in range(6):
        state = game.initial_state(2)
        for _ply in range(60):
            if game.to_move(state) is None:
                break
            me = state.seat + 1
            reserve = state.reserves[state.seat]
            for jumps in (True, False):
                for reserve_here in (reserve, 0):
                    made = set(sequences(state.cells, me, pieces_of(state.cells, me),
                                         reserve_here, jumps))
                    tried = set(made)
                    for path, hops, spawn in list(made)[:30]:
                        tried.add((path, hops, (spawn + 1) % 64 if spawn >= 0 else 0))
                        tried.add((path, max(0, hops - 1), spawn))
                        tried.add((path[:-1] + ((path[-1] + 2) % 64,), hops, spawn))
                        tried.add((path[:1], 0, spawn))
                    for action in tried:
                        assert yields(state.cells, me, action, reserve_here, jumps) == (
                            action in made), action
                        checked += 1
            actions = game.legal_actions(state)
            state = game.apply(state, rng.choice(actions))
    assert checked > 5000


def test_a_sequence_written_by_the_tool_is_made_at_once_as_the_longer_way_makes_it() -> None:
    """_fast_action (text to action in one step) against the tokens and Sapos._sequence, on
    texts glued from pieces and on every sequence of random games."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from gametool.games import sapos

    game = Sapos()

    def longer(text: str) -> object:
        tokens = sapos._fast_sequence(text)
        if tokens is None:
            return None
        try:
            return game._sequence(list(tokens), text)
        except IllegalAction:
            return "refused"

    def same(text: str) -> None:
        fast = sapos._fast_action(text)
        if fast is not None:
            assert fast == longer(text), text
        else:
            assert longer(text) in (None, "refused"), text

    @settings(max_examples=400, deadline=None, database=None)
    @given(st.lists(st.sampled_from(["a1", "d4", "h8", "e5", "D4", "i9", "-", "x", "+", " "]),
                    max_size=9))
    def check(parts: list[str]) -> None:
        same("".join(parts))

    check()
    for text in ("d3-d5-f5+e6", "e5xe7xc7", "d3-d5xd7", "d3xd5-d7", "a1-a3", "h8xh6+h5"):
        same(text)
    written = [part for step in random_game("sapos", "5", max_plies=80).steps
               if step.text != "resign" for part in step.text.split(",")]
    assert written and all(sapos._fast_action(text) is not None for text in written)
    for text in written:
        same(text)
