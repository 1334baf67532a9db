"""Special Salvo (rules/special-salvo.md): placement, the diagonal submarine, salvo sizes,
referee reports, the two endings, every option, and commit-reveal play with private files."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameError, IllegalAction, MalformedAction
from gametool.games.special_salvo import SpecialSalvo
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import reports as rp
from gametool.games.special_salvo.fleet import SQUARE_NAMES
from gametool.games.special_salvo.game import SalvoState
from gametool.records import Session, check_text, load_one

GAME = SpecialSalvo()
FLEET1 = "cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s"
FLEET2 = "cv a1 e, bb e4 e, cr b5 e, sub c3 ne, pt j2 s"
MISSES = "fire a10 b10 c10 d10 e10"  # five misses against FLEET2
SAMPLES = Path(__file__).parent.parent.parent / "sample_games" / "special-salvo"
RUNNER = CliRunner()


def sq(name: str) -> int:
    return SQUARE_NAMES.index(name)


def act(game: SpecialSalvo, state: SalvoState, *texts: str) -> SalvoState:
    """Apply typed actions, and the referee's report whenever it is due."""
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
        if game.to_move(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, SeedRng("x", 0)))
    return state


def placed(game: SpecialSalvo = GAME, one: str = FLEET1, two: str = FLEET2) -> SalvoState:
    return act(game, game.initial_state(2), f"place {one}", f"place {two}")


def last_report(game: SpecialSalvo, state: SalvoState, salvo: str) -> str:
    """The referee's report on ``salvo`` fired by the seat to move."""
    state = game.apply(state, game.parse_action(state, salvo))
    assert game.to_move(state) == CHANCE
    return game.format_action(state, game.chance_outcomes(state)[0])


def option(**settings: str) -> SpecialSalvo:
    return SpecialSalvo(settings)


# -- placement (D1-D4) ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [FLEET1, FLEET2])
def test_the_example_fleets_are_legal(text: str) -> None:
    state = GAME.initial_state(2)
    action = GAME.parse_action(state, f"place {text}")
    assert GAME.format_action(state, action) == f"place {text}"


def test_example_fleet_squares() -> None:
    state = placed()
    ships = {fl.SHIPS[s]: [SQUARE_NAMES[q] for q in fl.ship_squares(s, a, d)]
             for s, a, d in state.placed[0]}
    assert ships == {"cv": ["a1", "b1", "c1", "d1", "e1"], "bb": ["j10", "j9", "j8", "j7"],
                     "cr": ["c5", "d5", "e5"], "sub": ["f8", "g7", "h6"], "pt": ["a10", "a9"]}
    assert sum(len(v) for v in ships.values()) == 17  # D1


def test_the_crossing_submarine_passes_between_touching_corners() -> None:
    state = placed()
    sub = next(p for p in state.placed[1] if p[0] == fl.SUB)
    assert [SQUARE_NAMES[q] for q in fl.ship_squares(*sub)] == ["c3", "d4", "e5"]


@pytest.mark.parametrize(("text", "reason"), [
    ("cv a1 e, bb j10 s, cr c3 s, sub f8 se, pt a10 s", "overlaps another ship on c1"),
    ("cv g1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s", "runs off the ocean to 'k1'"),
    ("cv a1 e, bb j10 s, cr c5 e, sub d4 e, pt a10 s", "submarine runs diagonally"),
    ("cv a1 e, bb j10 s, cr c5 e, sub f8 se", "lacks the pt"),
    ("cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s, pt c8 e", "placed twice"),
    ("cv a1 e, cv a3 e, cr c5 e, sub f8 se, pt a10 s", "placed twice"),
])
def test_illegal_placements_name_the_rule(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        GAME.parse_action(GAME.initial_state(2), f"place {text}")


def test_an_unknown_ship_code_is_rejected() -> None:
    with pytest.raises(IllegalAction, match="'dd' is no ship of the fleet"):
        GAME.parse_action(GAME.initial_state(2), "place cv a1 e, bb j10 s, cr c5 e, sub f8 se, "
                                                 "dd a10 s")


@pytest.mark.parametrize(("ship", "special", "classic"), [
    ("sub d4 e", False, True), ("sub d4 s", False, True), ("sub d4 ne", True, False),
    ("sub d4 se", True, False), ("sub d4 sw", True, False), ("sub d4 n", False, True),
])
def test_submarine_shape_under_special_and_classic(ship: str, special: bool,
                                                   classic: bool) -> None:
    for game, legal in ((GAME, special), (option(fleet="classic"), classic)):
        state = game.initial_state(2)
        if legal:
            game.parse_action(state, f"place {ship}")
        else:
            with pytest.raises(IllegalAction):
                game.parse_action(state, f"place {ship}")


@pytest.mark.parametrize(("ship", "legal"), [("sub i9 ne", False), ("sub h8 ne", True),
                                             ("cv f1 e", True), ("cv g1 e", False),
                                             ("pt a1 s", False), ("pt a2 s", True)])
def test_board_edges(ship: str, legal: bool) -> None:
    state = GAME.initial_state(2)
    if legal:
        GAME.parse_action(state, f"place {ship}")
    else:
        with pytest.raises(IllegalAction, match="runs off the ocean"):
            GAME.parse_action(state, f"place {ship}")


def test_ships_may_touch() -> None:
    state = act(GAME, GAME.initial_state(2), "place cv a1 e")
    GAME.parse_action(state, "place pt a2 e")  # side by side with the carrier
    GAME.parse_action(state, "place pt f2 e")  # corner to corner


@pytest.mark.parametrize(("given", "written"), [
    ("pt a9 n", "pt a10 s"), ("PT A9 N", "pt a10 s"), ("cv e1 w", "cv a1 e"),
    ("sub h6 nw", "sub f8 se"), ("sub e5 sw", "sub c3 ne"), ("bb j7 n", "bb j10 s"),
])
def test_input_directions_are_turned_to_the_canonical_end(given: str, written: str) -> None:
    state = GAME.initial_state(2)
    assert GAME.format_action(state, GAME.parse_action(state, f"place {given}")) == (
        f"place {written}")


def test_ships_are_written_in_the_order_cv_bb_cr_sub_pt() -> None:
    state = GAME.initial_state(2)
    action = GAME.parse_action(state, "place pt a10 s, sub f8 se, cr c5 e, bb j10 s, cv a1 e")
    assert GAME.format_action(state, action) == f"place {FLEET1}"


def test_a_fleet_may_be_placed_one_ship_at_a_time() -> None:
    state = GAME.initial_state(2)
    for ship in FLEET1.split(", "):
        assert GAME.to_move(state) == 0
        state = act(GAME, state, f"place {ship}")
    assert GAME.to_move(state) == 1
    with pytest.raises(IllegalAction, match="overlaps"):
        GAME.parse_action(act(GAME, state, "place cv a1 e"), "place pt a2 s")
    assert len(GAME.legal_actions(GAME.initial_state(2))) == sum(
        len(rows) for rows in GAME.table)


def test_fire_before_both_placements_is_illegal() -> None:
    for state in (GAME.initial_state(2), act(GAME, GAME.initial_state(2), f"place {FLEET1}")):
        with pytest.raises(IllegalAction, match="placed first"):
            GAME.parse_action(state, "fire a1 b1 c1 d1 e1")


def test_a_second_placement_by_the_same_player_is_illegal() -> None:
    session = Session.start("special-salvo", seed="twice")
    session.play([f"place {FLEET1}"])
    with pytest.raises(IllegalAction, match="not p1's turn"):
        session.play([f"place {FLEET2}"], as_seat="p1")
    with pytest.raises(IllegalAction, match="already placed"):
        GAME.parse_action(placed(), "place pt c8 e")


def test_resign_during_placement_loses() -> None:
    state = act(GAME, GAME.initial_state(2), "place cv a1 e", RESIGN)
    outcome = GAME.outcome(state)
    assert outcome.termination == "resignation" and outcome.result_tag() == "0-1"


# -- salvos (D5, D6) --------------------------------------------------------------------------


@pytest.mark.parametrize(("shots", "due"), [("ships", 5), ("squares", 17), ("fixed5", 5)])
def test_first_salvo_size(shots: str, due: int) -> None:
    state = placed(option(shots=shots))
    assert state.due == due
    assert GAME.to_move(state) == 0


def test_a_salvo_must_use_its_full_count() -> None:
    state = placed()
    with pytest.raises(IllegalAction, match="4 shots, but the salvo has 5 left"):
        GAME.parse_action(state, "fire a1 b2 c3 d4")
    with pytest.raises(IllegalAction, match="6 shots"):
        GAME.parse_action(state, "fire a1 b2 c3 d4 e5 f6")
    with pytest.raises(IllegalAction, match="a1 is named twice"):
        GAME.parse_action(state, "fire a1 a1 b2 c3 d4")
    with pytest.raises(IllegalAction, match="k1 is off the ocean"):  # illegal, as the rules say
        GAME.parse_action(state, "fire k1 a1 b2 c3 d4")
    with pytest.raises(MalformedAction, match="Expected direction"):
        GAME.parse_action(GAME.initial_state(2), "place cv a1 x")


def test_a_salvo_may_be_fired_one_shot_at_a_time() -> None:
    state = act(GAME, placed(), "fire a1", "fire b2")
    assert state.salvo == (sq("a1"), sq("b2")) and GAME.to_move(state) == 0
    with pytest.raises(IllegalAction, match="2 shots, but the salvo has 3 left"):
        GAME.parse_action(state, "fire c3 d4")
    state = act(GAME, state, "fire c3 d4 e5")
    assert GAME.to_move(state) == 1


def test_repeats_are_illegal_even_after_a_hit() -> None:
    state = act(GAME, placed(), "fire a1 b1 c9 d9 e9", "fire a1 b1 c1 d1 e1")
    assert "hit" in GAME.view(state, 0)["shots"]["p1"]["a1"]
    with pytest.raises(IllegalAction, match="a1 was fired at before"):
        GAME.parse_action(state, "fire a1 f9 g9 h9")
    assert ("fire", (sq("a1"),)) not in GAME.legal_actions(state)


def test_the_cap_fires_exactly_the_squares_left() -> None:
    left = {sq("h3"), sq("i3"), sq("j3")}
    everything = (1 << 100) - 1
    state = placed()
    state = replace(state, fired=(everything & ~fl.mask_of(left), 0))
    state = GAME._start_salvo(state, 0)
    assert state.due == 3
    with pytest.raises(IllegalAction):
        GAME.parse_action(state, "fire h3 i3")
    assert GAME.to_move(act(GAME, state, "fire h3 i3 j3")) == 1


def test_losses_reduce_the_count() -> None:
    # Player 1 sinks Player 2's PT boat (j2 j1) with the first salvo.
    for shots, due in (("ships", 4), ("squares", 15), ("fixed5", 5)):
        game = option(shots=shots)
        state = placed(game)
        first = "fire j1 j2 a10 b10 c10"
        if shots == "squares":
            first = "fire j1 j2 " + " ".join(SQUARE_NAMES[80 + i] for i in range(15))
        state = act(game, state, first)
        assert state.sunk[1] == 1 << fl.SHIPS.index("pt")
        assert state.turn == 1 and state.due == due


# -- reports (D7, D8, D11) ------------------------------------------------------------------------


def test_the_example_salvo_report() -> None:
    state = act(GAME, placed(), MISSES)
    assert last_report(GAME, state, "fire a10 a9 c5 j1 j2") == (
        "report a10 hit, a9 sunk pt, c5 hit, j1 miss, j2 miss")
    game = option(report="ships")
    state = act(game, placed(game), MISSES)
    assert last_report(game, state, "fire a10 a9 c5 j1 j2") == (
        "report a10 hit pt, a9 sunk pt, c5 hit cr, j1 miss, j2 miss")


def test_two_shots_finishing_one_ship_report_hit_then_sunk() -> None:
    state = act(GAME, placed(), MISSES)
    assert last_report(GAME, state, "fire a9 a10 b2 b3 b4") == (
        "report a9 hit, a10 sunk pt, b2 miss, b3 miss, b4 miss")
    assert last_report(GAME, state, "fire a10 a9 b2 b3 b4") == (
        "report a10 hit, a9 sunk pt, b2 miss, b3 miss, b4 miss")


def test_report_option_names_the_battleship() -> None:
    fleet = "cv a1 e, bb b2 e, cr c5 e, sub f8 se, pt a10 s"
    for game, text in ((GAME, "b2 hit"), (option(report="ships"), "b2 hit bb")):
        state = act(game, placed(game, fleet), MISSES)
        assert last_report(game, state, "fire b2 h1 h2 i1 i2").startswith(f"report {text},")


def test_a_wrong_call_is_rejected_on_replay() -> None:
    session = Session.start("special-salvo", seed="calls")
    session.play([f"place {FLEET1}", f"place {FLEET2}", "fire j1 j2 a10 b10 c10"])
    text = session.text()
    assert "4. chance: report j1 hit, j2 sunk pt, a10 miss, b10 miss, c10 miss" in text
    forged = text.replace("j1 hit, j2 sunk pt", "j1 miss, j2 sunk pt")
    (verdict,) = check_text(forged, "f.gtn")
    assert "wrong call j1 miss" in str(verdict.errors[0])
    no_ship = text.replace("b10 miss, c10 miss\n", "b10 miss, c10 hit\n")
    (verdict,) = check_text(no_ship, "f.gtn")
    assert "wrong call c10 hit" in str(verdict.errors[0])


def test_without_a_seed_the_forced_report_is_written_at_once(tmp_path: Path) -> None:
    session = Session.start("special-salvo")
    session.play([f"place {FLEET1}", f"place {FLEET2}", MISSES])
    assert session.to_move() == 1  # the report has one possible outcome: it is written now
    assert session.steps[-1].text == "report a10 miss, b10 miss, c10 miss, d10 miss, e10 miss"
    path = tmp_path / "s.gtn"
    assert RUNNER.invoke(cli, ["start", "special-salvo", "--no-seed", "--players", "ann,ben",
                               "-o", str(path)]).exit_code == 0
    for action in (f"place {FLEET1}", f"place {FLEET2}", MISSES):
        assert RUNNER.invoke(cli, ["move", str(path), action]).exit_code == 0
    assert path.read_text().endswith(
        "4. chance: report a10 miss, b10 miss, c10 miss, d10 miss, e10 miss\n")
    shown = RUNNER.invoke(cli, ["show", str(path)]).output
    assert "to report" not in shown and "ben" in shown
    # A record typed at a real table still carries the calls, and a wrong one is caught.
    wrong = path.read_text().replace("a10 miss", "a10 hit")
    (verdict,) = check_text(wrong, "s.gtn")
    assert "wrong call a10 hit" in str(verdict.errors[0])


# -- endings (D10) ------------------------------------------------------------------------------

SINK_ALL_OF_2 = ("fire a1 b1 c1 d1 e1", "fire e4 f4 g4 h4 b5", "fire c5 d5 c3 d4 e5",
                 "fire j2 j1 a2 a3 a4")


def test_rounds_off_sinking_the_last_square_ends_the_game_at_once() -> None:
    state = placed()
    replies = ("fire a8 b8 c8 d8", "fire e8 f8 g8", "fire h8")
    for i, salvo in enumerate(SINK_ALL_OF_2):
        state = act(GAME, state, salvo)
        if i < 3:
            assert state.due == len(replies[i].split()) - 1
            state = act(GAME, state, replies[i])
    assert GAME.to_move(state) is None
    outcome = GAME.outcome(state)
    assert outcome.result_tag() == "1-0" and outcome.termination == "fleet sunk"
    assert state.salvos == (4, 3)  # Player 2 got no reply to the last salvo


SAME = "cv a1 e, bb a3 e, cr a5 e, sub a7 ne, pt a9 e"
ROUNDS = ("fire a1 b1 c1 d1 e1", "fire a3 b3 c3 d3", "fire a5 b5 c5", "fire a7 b8",
          "fire a9 j10")


def two_ships_each() -> tuple[SpecialSalvo, SalvoState]:
    """rounds=on, both fleets alike, both shot down to the submarine (c9) and PT boat (b9)."""
    game = option(rounds="on")
    state = placed(game, SAME, SAME)
    for salvo in ROUNDS:
        state = act(game, state, salvo, salvo)  # Player 1, then Player 2 the same squares
    assert state.sunk == (0b00111, 0b00111) and state.turn == 0 and state.due == 2
    return game, act(game, state, "fire c9 b9")  # Player 1 sinks Player 2's last ships


def test_rounds_on_player_2_replies_with_the_count_from_before_the_salvo() -> None:
    game, state = two_ships_each()
    assert state.sunk[1] == fl.ALL_SUNK
    assert game.to_move(state) == 1 and state.due == 2  # two ships were afloat before


def test_rounds_on_a_reply_that_sinks_the_last_ship_ties() -> None:
    game, state = two_ships_each()
    tie = act(game, state, "fire c9 b9")
    outcome = game.outcome(tie)
    assert outcome.result_tag() == "1/2-1/2" and outcome.termination == "both fleets sunk"


def test_rounds_on_a_reply_that_misses_loses() -> None:
    game, state = two_ships_each()
    win = act(game, state, "fire c9 j9")
    assert game.outcome(win).result_tag() == "1-0"


def test_rounds_on_the_round_is_completed_before_the_end() -> None:
    game = option(rounds="on")
    state = placed(game, SAME, SAME)
    for salvo in ROUNDS:
        state = act(game, state, salvo)
        assert game.outcome(state) is None
        state = act(game, state, salvo)
    state = act(game, state, "fire c9 b9")
    assert game.outcome(state) is None and game.to_move(state) == 1


# -- commit-reveal mode ---------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def play_through_cli(path: Path, private: dict[str, Path] | None = None,
                     aim: bool = False) -> None:
    """Play to the end: salvos are the first squares 'moves' lists; reports and reveals come
    from 'answer' with the private files (commit-reveal) or from the tool (referee). With
    ``aim``, fire as :func:`next_salvo` does (ann aims at FLEET_B). In every position before
    the end, the seat to move has something to do: 'moves' lists actions or says what to do."""
    for _ in range(500):
        data = json.loads(run("show", str(path), "--json")[1])
        seat, phase = data["to_move"], data["position"]["phase"]
        if seat is None:
            return
        listed = json.loads(run("moves", str(path), "--json")[1])
        assert listed["actions"] or listed["next"], f"{seat} is stuck in the {phase} phase"
        if phase == "fire" and aim:
            code, _, err = run("move", str(path), next_salvo(path, data))
        elif phase == "fire":
            listed = run("moves", str(path))[1].split()
            squares = [w for w in listed if w != "fire"][:data["position"]["due"]
                                                         - len(data["position"]["salvo"])]
            code, _, err = run("move", str(path), "fire " + " ".join(squares))
        else:
            assert private is not None, phase
            code, _, err = run("answer", str(path), "--as", seat, "--private",
                               str(private[seat]))
            if code and phase == "report" and listed["actions"]:
                # A liar's true answer may fit no fleet after its lies: it answers as listed.
                code, _, err = run("move", str(path), "--as", seat, listed["actions"][0])
        assert code == 0, err
    raise AssertionError("the game did not end")


def commit_reveal_game(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    path = tmp_path / "g.gtn"
    assert run("start", "special-salvo", "--option", "referee=off", "--players", "ann,ben",
               "-o", str(path))[0] == 0
    private = {"ann": tmp_path / "ann.fleet", "ben": tmp_path / "ben.fleet"}
    for seat, fleet in (("ann", FLEET1), ("ben", FLEET2)):
        code, _, err = run("commit", str(path), "--as", seat, "--private", str(private[seat]),
                           "--fleet", fleet)
        assert code == 0, err
    return path, private


def test_commit_reveal_game_through_the_cli(tmp_path: Path) -> None:
    path, private = commit_reveal_game(tmp_path)
    text = path.read_text()
    assert "cv a1 e" not in text and text.count("commit ") == 2
    assert "Fleet: " + FLEET1 in private["ann"].read_text()
    play_through_cli(path, private)
    session = load_one(path.read_text())
    assert session.game.is_over(session.state)
    assert path.read_text().count("reveal ") == 2
    assert run("validate", str(path))[0] == 0
    assert session.game.outcome(session.state).result_tag() in ("1-0", "0-1")


def test_a_false_miss_is_rejected_naming_the_liar(tmp_path: Path) -> None:
    path, private = commit_reveal_game(tmp_path)
    play_through_cli(path, private)
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if ": report " in line and " hit" in line)
    seat = lines[at].split()[1].rstrip(":")
    liar = seat  # the record names the liar by its seat name
    lines[at] = lines[at].replace(" hit", " miss", 1)
    forged = tmp_path / "forged.gtn"
    forged.write_text("\n".join(lines) + "\n")
    code, out, err = run("validate", str(forged))
    assert code == 1
    # Here the false miss leaves too few hits for the sinking reported later: caught at once.
    assert f"a false report by {liar}" in out + err


def tags(path: Path) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', path.read_text(), re.M))


def lying_game(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    """ann (player 1) calls two of her carrier's squares misses at ply 6, a count no fleet
    rules out, so the tool takes the report; the game goes on."""
    path, private = commit_reveal_game(tmp_path)
    assert run("move", str(path), MISSES)[0] == 0  # ply 3
    assert run("answer", str(path), "--as", "ben", "--private", str(private["ben"]))[0] == 0
    assert run("move", str(path), "fire a1 b1 c1 d1 e1")[0] == 0  # ply 5
    lie = "report a1 miss, b1 hit, c1 hit, d1 hit, e1 miss"  # truly a1-e1 hit, e1 sunk cv
    code, _, err = run("move", str(path), "--as", "ann", lie)
    assert code == 0, err
    assert "6. ann: " + lie in path.read_text()
    return path, private


def test_a_false_miss_caught_at_the_reveal_loses_the_game(tmp_path: Path) -> None:
    """ann's lie wins her the game on the reports; her own tool then reveals her fleet, and the
    reveal is recorded and ends the game against her, naming the ply of her first false report;
    validate agrees, and refuses the result the reports gave."""
    path, private = lying_game(tmp_path)
    assert play_to_reveal(path, private)["to_move"] == "ann"
    decided = load_one(path.read_text()).state
    assert (decided.ending, decided.winner) == ("fleet sunk", 0)  # her lie won on the reports
    play_through_cli(path, private)
    assert tags(path)["Termination"] == "false report by ann at ply 6"
    assert tags(path)["Result"] == "0-1"
    assert path.read_text().count("reveal ") == 1  # the game ended at ann's reveal
    session = load_one(path.read_text())
    assert session.game.outcome(session.state).results[1].result == "win"
    code, out, err = run("validate", str(path))
    assert code == 0, err
    claimed = path.read_text().replace('[Result "0-1"]', '[Result "1-0"]')
    forged = tmp_path / "forged.gtn"
    forged.write_text(claimed)
    code, out, err = run("validate", str(forged))
    assert code == 1 and "Result tag says '1-0' but the game's result is '0-1'" in err
    forged.write_text(path.read_text().replace("false report by ann at ply 6",
                                               "fleet sunk"))
    code, out, err = run("validate", str(forged))
    assert code == 1 and "'false report by ann at ply 6'" in err


def test_a_false_report_by_player_2_is_caught_at_player_2s_reveal(tmp_path: Path) -> None:
    """ben calls two squares of his carrier misses at ply 4 (typed, not from his tool); then
    play goes on and both reveal: ann's reveal is accepted, ben's ends the game against him."""
    path, private = commit_reveal_game(tmp_path)
    assert run("move", str(path), "fire a1 b1 c1 d1 e1")[0] == 0  # ply 3: FLEET2's carrier
    lie = "report a1 miss, b1 hit, c1 hit, d1 hit, e1 miss"  # truly e1 sunk cv
    code, _, err = run("move", str(path), "--as", "ben", lie)
    assert code == 0, err
    assert "4. ben: " + lie in path.read_text()
    play_through_cli(path, private)
    assert tags(path)["Termination"] == "false report by ben at ply 4"
    assert tags(path)["Result"] == "1-0"
    assert path.read_text().count("reveal ") == 2
    assert run("validate", str(path))[0] == 0


def test_a_reveal_that_breaks_the_commitment_loses(tmp_path: Path) -> None:
    """ann reveals another fleet than the one she committed to: the reveal is recorded and
    she loses by a broken commitment at the ply of the reveal."""
    path, private = commit_reveal_game(tmp_path)
    assert play_to_reveal(path, private)["to_move"] == "ann"
    ply = len(load_one(path.read_text()).steps) + 1
    code, _, err = run("move", str(path), "--as", "ann", f"reveal {FLEET2} salt 00")
    assert code == 0, err
    assert tags(path)["Termination"] == f"broken commitment by ann at ply {ply}"
    assert tags(path)["Result"] == "0-1"
    assert run("validate", str(path))[0] == 0


def play_to_reveal(path: Path, private: dict[str, Path]) -> dict[str, object]:
    """Play as :func:`play_one` until the reveals; the position then, as 'show --json' gives."""
    for _ in range(500):
        data = json.loads(run("show", str(path), "--json")[1])
        if data["position"]["phase"] == "reveal":
            return data
        play_one(path, private, data)
    raise AssertionError("no reveal came")


def play_one(path: Path, private: dict[str, Path], data: dict[str, object]) -> None:
    """One step of :func:`play_through_cli` (the first squares listed, or the seat's tool)."""
    seat, position = data["to_move"], data["position"]
    assert isinstance(position, dict) and isinstance(seat, str)
    if position["phase"] == "fire":
        listed = run("moves", str(path))[1].split()
        squares = [w for w in listed if w != "fire"][:position["due"] - len(position["salvo"])]
        code, _, err = run("move", str(path), "fire " + " ".join(squares))
    else:
        code, _, err = run("answer", str(path), "--as", seat, "--private", str(private[seat]))
    assert code == 0, err


def test_resign_is_accepted_in_the_reveal_phase(tmp_path: Path) -> None:
    """Either seat due to reveal may resign instead, and loses."""
    path, private = lying_game(tmp_path)
    data = play_to_reveal(path, private)
    assert data["to_move"] == "ann"
    code, _, err = run("move", str(path), "--as", "ann", "resign")
    assert code == 0, err
    assert tags(path)["Result"] == "0-1" and tags(path)["Termination"] == "resignation"
    assert run("validate", str(path))[0] == 0


def test_a_seat_that_never_reveals_is_ended_off_the_board(tmp_path: Path) -> None:
    """ann, who lied, never reveals: the record cannot make her, and ben ends the game with an
    ending line (as for any game ended off the board); validate takes it."""
    path, private = lying_game(tmp_path)
    assert play_to_reveal(path, private)["to_move"] == "ann"
    text = path.read_text().replace('[Result "*"]', '[Result "1-0"]')
    path.write_text(text + "end: 1-0 time forfeit\n")
    code, out, err = run("validate", str(path))
    assert code == 0, err
    assert load_one(path.read_text()).outcome().termination == "time forfeit"


def test_resign_is_never_refused_to_the_seat_to_move_in_commit_reveal_play() -> None:
    """In every phase (commit, fire, report, reveal) the seat to move may resign and lose."""
    game = option(referee="off")
    good = GAME.parse_action(GAME.initial_state(2), f"place {FLEET2}")[1]
    state = game.initial_state(2)
    phases = []
    for text in (f"commit {fl.commitment(good, 'aa')}", f"commit {fl.commitment(good, 'bb')}",
                 "fire a1 b1 c1 d1 e1", "report a1 hit, b1 hit, c1 hit, d1 hit, e1 sunk cv"):
        phases.append(state.phase)
        over = act(game, state, RESIGN)
        assert game.outcome(over).result_tag() == ("0-1" if state.turn == 0 else "1-0")
        state = act(game, state, text)
    reveal = replace(state, phase="reveal", turn=1, ending="fleet sunk", winner=0)
    assert game.outcome(act(game, reveal, RESIGN)).result_tag() == "1-0"
    assert phases == ["place", "place", "fire", "report"]


def test_a_committed_fleet_that_breaks_the_rules_loses_at_the_reveal() -> None:
    game = option(referee="off")
    bad = ((0, sq("a1"), 0), (1, sq("a4"), 1), (2, sq("c5"), 0), (3, sq("f8"), 2),
           (4, sq("a10"), 1))  # the battleship a4 a3 a2 a1 overlaps the carrier
    good = GAME.parse_action(GAME.initial_state(2), f"place {FLEET2}")[1]
    state = act(game, game.initial_state(2), f"commit {fl.commitment(bad, 'aa')}",
                f"commit {fl.commitment(good, 'bb')}")
    state = replace(state, phase="reveal", turn=0, ending="fleet sunk", winner=0)
    over = act(game, state, f"reveal {fl.format_fleet(bad)} salt aa")
    outcome = game.outcome(over)
    assert outcome.termination == "fleet against the rules by p1 at ply 1"
    assert outcome.result_tag() == "0-1"
    outcome = game.outcome(act(game, state, f"reveal {fl.format_fleet(bad)} salt ab"))
    assert outcome.termination == "broken commitment by p1 at ply 3"
    outcome = game.outcome(act(game, state, RESIGN))
    assert outcome.termination == "resignation" and outcome.result_tag() == "0-1"
    second = act(game, replace(state, turn=1), f"reveal {fl.format_fleet(bad)} salt aa")
    assert game.outcome(second).termination == "broken commitment by p2 at ply 3"


def test_commit_and_answer_refuse_the_wrong_seat_or_file(tmp_path: Path) -> None:
    path, private = commit_reveal_game(tmp_path)
    code, _, err = run("answer", str(path), "--as", "ben", "--private", str(private["ann"]))
    assert code == 1 and "belongs to ann" in err
    code, _, err = run("answer", str(path), "--as", "ann", "--private", str(private["ann"]))
    assert code == 1 and "nothing for ann to answer" in err
    before = path.read_bytes()
    code, _, err = run("commit", str(path), "--as", "ann", "--private", str(tmp_path / "x"),
                       "--fleet", "cv a1 e")
    assert code == 1 and path.read_bytes() == before and not (tmp_path / "x").exists()
    fresh = tmp_path / "fresh.gtn"
    run("start", "special-salvo", "--option", "referee=off", "--players", "ann,ben", "-o",
        str(fresh))
    before = fresh.read_bytes()
    code, _, err = run("commit", str(fresh), "--as", "ann", "--private", str(private["ann"]),
                       "--fleet", FLEET1)
    assert code == 1 and "already exists" in err and fresh.read_bytes() == before


def test_a_copied_commitment_is_refused() -> None:
    game = option(referee="off")
    state = act(game, game.initial_state(2), "commit " + "ab" * 32)
    with pytest.raises(IllegalAction, match="this is p1's commitment"):
        game.parse_action(state, "commit " + "AB" * 32)


def test_commit_in_referee_mode_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "-o", str(path))
    code, _, err = run("commit", str(path), "--as", "p1", "--private", str(tmp_path / "p"),
                       "--fleet", FLEET1)
    assert code == 1 and "referee=off" in err


def test_commit_reveal_defender_reports_may_be_listed_and_typed() -> None:
    game = option(referee="off")
    state = act(game, game.initial_state(2), "commit " + "0" * 64, "commit " + "1" * 64,
                "fire a1 b1 c1 d1 e1")
    assert game.to_move(state) == 1
    listed = [game.format_action(state, a) for a in game.legal_actions(state)]
    assert listed == ["report a1 miss", "report a1 hit"]  # no ship is sunk by its first hit
    with pytest.raises(IllegalAction, match="in that order"):
        game.parse_action(state, "report b1 miss")
    with pytest.raises(IllegalAction, match="names a ship only when it is sunk"):
        game.parse_action(state, "report a1 hit cv")
    with pytest.raises(IllegalAction, match="the cv .5 squares. is sunk by the hit on its last"):
        game.parse_action(state, "report a1 sunk cv")
    after = act(game, state, "report a1 hit")
    assert [game.format_action(after, a) for a in game.legal_actions(after)] == [
        "report b1 miss", "report b1 hit", "report b1 sunk pt"]
    state = act(game, state, "report a1 hit", "report b1 hit, c1 hit, d1 hit, e1 sunk cv")
    assert state.sunk[1] == 1 and game.to_move(state) == 1 and state.due == 4


# -- hidden fleets: views, exports, the leak check ------------------------------------------


def test_a_seat_sees_its_own_fleet_and_never_the_other() -> None:
    state = act(GAME, placed(), "fire j1 j2 a10 b10 c10")
    other = placed(GAME, FLEET1, "cv a8 e, bb f1 e, cr h5 s, sub d4 ne, pt j2 s")
    other = act(GAME, other, "fire j1 j2 a10 b10 c10")
    for seat, changed in ((0, other), (None, other)):
        assert GAME.view(state, seat)["fleets"]["p2"] is None
        assert GAME.view(state, seat) == GAME.view(changed, seat)
        assert GAME.render(state, seat, ["a", "b"]) == GAME.render(changed, seat, ["a", "b"])
    assert GAME.view(state, 1)["fleets"]["p2"]["cv"] == ["a1", "b1", "c1", "d1", "e1"]


@pytest.mark.parametrize("game", [GAME, option(report="ships"), option(fleet="classic")],
                         ids=["special", "report-ships", "classic"])
def test_a_sampled_hidden_fleet_agrees_with_every_reported_result(game: SpecialSalvo) -> None:
    # Random salvos until both sides have misses, hits and sinks on record; every sample of
    # the hidden fleet is a legal fleet that gives each reported result again.
    fleets = (FLEET1, FLEET2) if not game.classic else (
        FLEET1.replace("sub f8 se", "sub f8 s"), FLEET2.replace("sub c3 ne", "sub h7 s"))
    rng, state, checked = SeedRng("salvos", 3), placed(game, *fleets), 0
    while game.to_move(state) is not None:
        seat = game.to_move(state)
        if seat == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if state.salvos[seat] % 4 == 3 and not state.salvo:
            for k in range(3):
                sample = game.randomize_hidden(state, seat, SeedRng("sample", k))
                fleet = sample.placed[1 - seat]
                fl.check_fleet(fleet, game.classic)
                assert game.view(sample, seat) == game.view(state, seat)
                assert rp.first_false_report(state.log[seat], fleet, game.name_hits) is None
                checked += 1
        actions = game.legal_actions(state)
        state = game.apply(state, actions[rng.randbelow(len(actions))])
    assert checked >= 10
    assert all(state.sunk) and all(state.hits)


def test_a_sampled_fleet_lies_on_the_reported_hits_and_off_the_misses() -> None:
    state = act(GAME, placed(), "fire a1 b1 c1 d1 e1")  # Player 1 sinks the carrier of FLEET2
    state = act(GAME, state, "fire b2 b3 b4 d2")  # four misses against FLEET1
    state = act(GAME, state, "fire e4 a10 b10 c10 d10")  # a hit on the battleship, four misses
    seen = GAME.view(state, 0)["shots"]["p1"]
    assert seen["e1"] == "sunk cv" and seen["e4"] == "hit" and seen["a10"] == "miss"
    for k in range(20):
        fleet = GAME.randomize_hidden(state, 0, SeedRng("s", k)).placed[1]
        masks = fl.fleet_masks(fleet)
        assert masks[0] == fl.mask_of(sq(n) for n in ("a1", "b1", "c1", "d1", "e1"))
        ships = 0
        for mask in masks:
            ships |= mask
        assert ships >> sq("e4") & 1
        assert not ships & fl.mask_of(sq(n) for n in ("a10", "b10", "c10", "d10"))


def test_the_fleet_never_appears_in_the_other_seats_outputs(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "--players", "ann,ben", "-o", str(path))
    run("move", str(path), f"place {FLEET1}")
    run("move", str(path), f"place {FLEET2}")
    run("move", str(path), "fire j1 j2 a10 b10 c10")
    outputs = [run("show", str(path), "--as", "ann")[1],
               run("show", str(path), "--as", "ann", "--json")[1],
               run("export", str(path), "--as", "ann")[1],
               run("moves", str(path), "--as", "ann")[1],
               run("replay", str(path), "--as", "ann")[1]]
    for out in outputs:
        assert FLEET2 not in out and "bb e4 e" not in out
    exported = outputs[2]
    assert "2. ben: place ?" in exported and f"1. ann: place {FLEET1}" in exported
    # ann's show is the same whatever ben's fleet, as long as the reports agree.
    other = tmp_path / "h.gtn"
    run("start", "special-salvo", "--players", "ann,ben", "-o", str(other))
    run("move", str(other), f"place {FLEET1}")
    run("move", str(other), "place cv a8 e, bb f1 e, cr h5 s, sub d4 ne, pt j2 s")
    run("move", str(other), "fire j1 j2 a10 b10 c10")
    assert run("show", str(other), "--as", "ann")[1] == outputs[0]


def test_an_exported_record_validates_as_the_player_s_file(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "-o", str(path))
    run("move", str(path), f"place {FLEET1}", f"place {FLEET2}")
    exported = tmp_path / "e.gtn"
    exported.write_text(run("export", str(path), "--as", "p1")[1])
    code, out, _err = run("validate", str(exported))
    # The player's file reads on its own: p2's hidden placement is read, not checked.
    assert code == 0 and "not checked" in out and "hidden values" in out


# -- a whole refereed game, the record, the samples -------------------------------------------


def test_a_whole_referee_game_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "--option", "fleet=classic", "-o", str(path))
    assert run("move", str(path), "place cv a1 e, bb b3 e, cr c7 s, sub h8 e, pt j2 s")[0] == 0
    assert run("move", str(path), "place cv a1 e, bb e4 e, cr b5 e, sub c3 e, pt j2 s")[0] == 0
    play_through_cli(path)
    assert run("validate", str(path))[0] == 0
    assert "[Result \"" in path.read_text() and "chance: report" in path.read_text()


def test_resign_and_game_over() -> None:
    state = act(GAME, placed(), RESIGN)
    assert GAME.outcome(state).result_tag() == "0-1"
    with pytest.raises(GameError):
        GAME.parse_action(state, "fire a1")


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.gtn")), ids=lambda p: p.name)
def test_sample_records_validate_and_are_complete(path: Path) -> None:
    (verdict,) = check_text(path.read_text(), str(path))
    assert verdict.ok, verdict.errors
    session = load_one(path.read_text())
    assert session.game.is_over(session.state)


def test_samples_cover_both_modes_and_both_fleets() -> None:
    settings = set()
    for path in SAMPLES.glob("*.gtn"):
        game = load_one(path.read_text()).game
        settings.add((game.settings["referee"], game.settings["fleet"]))
    assert settings >= {("on", "special"), ("on", "classic"), ("off", "special"),
                        ("off", "classic")}


def test_samples_include_a_tie_with_rounds_on() -> None:
    session = load_one((SAMPLES / "rounds-tie.gtn").read_text())
    assert session.game.settings["rounds"] == "on"
    assert session.game.outcome(session.state).result_tag() == "1/2-1/2"


def test_a_game_by_mail_ends_and_no_mail_quotes_the_other_placement(tmp_path: Path) -> None:
    from email.message import EmailMessage

    from gametool.referee.referee import Referee

    ann, ben = "ann@example.org", "ben@example.net"
    fleets = {ann: FLEET1, ben: FLEET2}
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, messages = ref.new("special-salvo", [ann, ben], seed="mail", weak_seed_ok=True)
    keys = {m.to: re.search(r"seat key: (\S+)", m.body).group(1) for m in messages}
    master = tmp_path / "games" / f"{match}.gtn"
    for _ in range(200):
        for message in messages:
            other = ben if message.to == ann else ann
            assert fleets[other] not in message.body or "The game is over" in message.body
        session = load_one(master.read_text())
        if session.game.is_over(session.state):
            break
        mover = session.names[session.to_move()]
        state = session.state
        if state.phase == "place":
            action = f"place {fleets[mover]}"
        else:
            free = [SQUARE_NAMES[q] for q in range(100) if not state.fired[state.turn] >> q & 1]
            action = "fire " + " ".join(free[:state.due])
        mail = EmailMessage()
        mail["From"], mail["To"] = mover, "referee@localhost"
        mail["Subject"] = f"[gametool {match}] move"
        mail.set_content(f"#key {keys[mover]}\n#ply {session.ply + 1}\n{action}\n")
        applied, messages, _reason = ref.receive(bytes(mail))
        assert applied, messages[0].body
    final = load_one(master.read_text())
    assert final.game.is_over(final.state)
    assert check_text(master.read_text())[0].ok


def test_show_with_the_private_file_draws_the_seats_own_ships(tmp_path: Path) -> None:
    path, private = commit_reveal_game(tmp_path)
    code, plain, _ = run("show", str(path), "--as", "ann")
    code2, mine, _ = run("show", str(path), "--as", "ann", "--private", str(private["ann"]))
    assert code == code2 == 0
    row1 = next(line for line in mine.splitlines() if line.startswith(" 1 "))
    assert row1.split()[1:6] == ["C"] * 5  # the carrier a1-e1 of FLEET1
    assert "C" not in next(line for line in plain.splitlines() if line.startswith(" 1 "))
    code, _, err = run("show", str(path), "--as", "ann", "--private", str(private["ben"]))
    assert code == 1 and "belongs to ben" in err
    assert run("show", str(path), "--private", str(private["ann"]))[0] == 2
    assert "commit " in path.read_text() and "Fleet" not in path.read_text()


@pytest.mark.parametrize("prefer", ["miss", "hit", "any"])
@pytest.mark.parametrize("settings", [
    {"shots": "squares"}, {"shots": "ships", "report": "ships"},
    {"shots": "fixed5", "rounds": "on"}, {"shots": "squares", "report": "ships", "rounds": "on"},
])
def test_commit_reveal_claims_can_never_stall_the_game(settings: dict[str, str],
                                                       prefer: str) -> None:
    """Defenders who call every shot a miss, or a hit that sinks nothing, or anything at
    random, never leave a salvo of no shots (all squares fired, or 17 - hits <= 0 under
    shots=squares) or a seat with nothing to play: a claim must fit some fleet (by counting)."""
    game = option(referee="off", **settings)
    rng = SeedRng("claims", 0)
    for _ in range(4 if prefer != "any" else 15):
        state = act(game, game.initial_state(2), "commit " + "0" * 64, "commit " + "1" * 64)
        for _ply in range(game.max_plies):
            if state.phase == "reveal":
                break
            listed = game.legal_actions(state)
            assert listed, f"{state.phase} with nothing to play"
            if state.phase == "fire":
                assert state.due >= 1
            texts = [game.format_action(state, a) for a in listed]
            liked = [a for a, t in zip(listed, texts, strict=True) if f" {prefer}" in t]
            pool = liked or listed
            action = pool[rng.randbelow(len(pool))]
            assert game.parse_action(state, game.format_action(state, action)) == action
            state = game.apply(state, action)
        assert state.phase == "reveal" and fl.ALL_SUNK in state.sunk


# -- the leak check at every ply, both modes ------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"
FLEET_B = "cv a8 e, bb f1 e, cr h5 s, sub d4 ne, pt j2 s"  # shares no ship position with FLEET1
B_SQUARES = [SQUARE_NAMES[q] for p in GAME.parse_action(GAME.initial_state(2),
                                                        f"place {FLEET_B}")[1]
             for q in fl.ship_squares(*p)]


def next_salvo(path: Path, data: dict) -> str:
    """ann aims at ben's ships (a short game), ben at the last squares 'moves' lists."""
    free = [w for w in run("moves", str(path))[1].split() if w != "fire"]
    due = data["position"]["due"]
    if data["to_move"] == "ann":
        aimed = [q for q in B_SQUARES if q in free][:due]
        return "fire " + " ".join(aimed + [q for q in free if q not in aimed][:due - len(aimed)])
    return "fire " + " ".join(free[-due:])


def assert_nothing_of_the_other_fleet(path: Path, seat: str, other: str, fleet: str,
                                      extra: tuple[str, ...] = ()) -> None:
    """Every output for ``seat`` (show, show --json, moves, export, at this ply) hides the
    fleet ``fleet`` of ``other``: no ship position of it, no fleet in the JSON, and nothing
    drawn on the other ocean but ``seat``'s own shots."""
    shown = run("show", str(path), "--as", seat, *extra)
    data = run("show", str(path), "--as", seat, "--json", *extra)
    listed = run("moves", str(path), "--as", seat)
    listed_json = run("moves", str(path), "--as", seat, "--json")
    exported = run("export", str(path), "--as", seat)
    for code, out, _ in (shown, data, listed, listed_json, exported):
        assert code == 0
        for ship in fleet.split(", "):
            assert ship not in out, (ship, out)
    position = json.loads(data[1])["position"]
    assert position["fleets"][other] is None
    mine = set(position["shots"][seat])
    rows = [line.split() for line in shown[1].splitlines()
            if len(line.split()) == 22 and line.split()[0].isdigit()]
    assert len(rows) == 10
    for row in rows:
        rank = row[0]
        for file, cell in zip(fl.FILES, row[12:], strict=True):
            assert cell == "." or f"{file}{rank}" in mine, (f"{file}{rank}", cell)
    assert f"{other}: place {fleet}" not in exported[1]
    # the picture: on the other ocean nothing is drawn but seat's own shots
    picture = ET.fromstring(run("show", str(path), "--as", seat, "--svg", *extra)[1])
    grids = [g for g in picture.iter(f"{SVG}g") if g.get("class") == "grid"]
    assert len(grids) == 2
    drawn = [g for g in grids[1].iter(f"{SVG}g") if g.get("class") == "piece"]
    assert len(drawn) == len(mine), (len(drawn), sorted(mine))


def test_no_fleet_leaks_to_the_other_seat_at_any_ply_referee_mode(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "--players", "ann,ben", "--seed",
        "1eaf5eed0123456789abcdef4e5a1b2c", "-o", str(path))
    fleets = {"ann": FLEET1, "ben": FLEET_B}
    for seat in ("ann", "ben"):
        assert_nothing_of_the_other_fleet(path, "ben" if seat == "ann" else "ann", seat,
                                          fleets[seat])
        assert run("move", str(path), f"place {fleets[seat]}")[0] == 0
    for _ in range(200):
        for seat, other in (("ann", "ben"), ("ben", "ann")):
            assert_nothing_of_the_other_fleet(path, seat, other, fleets[other])
        data = json.loads(run("show", str(path), "--json")[1])
        if data["over"]:
            assert data["result"]["tag"] == "1-0"
            break
        assert run("move", str(path), next_salvo(path, data))[0] == 0
    else:
        raise AssertionError("the game did not end")
    session = load_one(path.read_text())
    for ply in range(session.ply + 1):
        for seat, other in (("ann", "ben"), ("ben", "ann")):
            for extra in (["--ply", str(ply)], ["--ply", str(ply), "--json"]):
                out = run("show", str(path), "--as", seat, *extra)[1]
                assert all(ship not in out for ship in fleets[other].split(", "))
    replayed = run("replay", str(path), "--as", "ann", "--json")[1]
    assert all(ship not in replayed for ship in FLEET_B.split(", "))


def test_no_fleet_leaks_to_the_other_seat_before_the_reveal_commit_reveal(
        tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "--option", "referee=off", "--players", "ann,ben", "-o",
        str(path))
    fleets = {"ann": FLEET1, "ben": FLEET_B}
    private = {seat: tmp_path / f"{seat}.fleet" for seat in fleets}
    for seat in fleets:
        code, _, err = run("commit", str(path), "--as", seat, "--private", str(private[seat]),
                           "--fleet", fleets[seat])
        assert code == 0, err
    for _ in range(300):
        data = json.loads(run("show", str(path), "--json")[1])
        phase = data["position"]["phase"]
        if phase in ("reveal", "over"):
            break
        for seat, other in (("ann", "ben"), ("ben", "ann")):
            assert_nothing_of_the_other_fleet(path, seat, other, fleets[other])
            assert_nothing_of_the_other_fleet(path, seat, other, fleets[other],
                                              ("--private", str(private[seat])))
        assert fleets["ann"] not in path.read_text() and fleets["ben"] not in path.read_text()
        mover = data["to_move"]
        if phase == "fire":
            code, _, err = run("move", str(path), next_salvo(path, data))
        else:
            code, _, err = run("answer", str(path), "--as", mover, "--private",
                               str(private[mover]))
        assert code == 0, err
    else:
        raise AssertionError("the game did not reach the reveals")
    play_through_cli(path, private)
    assert run("validate", str(path))[0] == 0


# -- validate catches a fleet that breaks the placement rules ---------------------------------


@pytest.mark.parametrize(("fleet", "reason"), [
    ("cv a1 e, bb j10 s, cr c3 s, sub f8 se, pt a10 s", "overlaps another ship on c1"),
    ("cv a1 e, bb j10 s, cr c5 e, sub d4 e, pt a10 s", "the submarine runs diagonally"),
    ("cv g1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s", "runs off the ocean to 'k1'"),
])
def test_validate_catches_an_illegal_placement_in_a_referee_record(
        tmp_path: Path, fleet: str, reason: str) -> None:
    path = tmp_path / "g.gtn"
    path.write_text('[Game "special-salvo"]\n[Players "ann; ben"]\n[Result "*"]\n\n'
                    f"1. ann: place {FLEET_B}\n2. ben: place {fleet}\n")
    code, _out, err = run("validate", str(path))
    assert code == 1 and "g.gtn:6:" in err and "ply 2" in err and reason in err


def test_a_committed_fleet_that_breaks_the_rules_loses_through_the_cli(tmp_path: Path) -> None:
    """ann commits to a fleet with a straight submarine (a hand-made private file and a typed
    commit), plays to the end answering from it; her reveal ends the game against her, naming
    her commitment, and validate agrees. (An overlapping fleet is caught sooner: its answers
    fit no fleet by counting.)"""
    bad = "cv a1 e, bb j10 s, cr c5 e, sub d4 e, pt a10 s"  # D2: the submarine is diagonal
    path = tmp_path / "g.gtn"
    run("start", "special-salvo", "--option", "referee=off", "--players", "ann,ben", "-o",
        str(path))
    mine = tmp_path / "ann.fleet"
    mine.write_text(f"Game: special-salvo\nSeat: ann\nFleet: {bad}\nSalt: 00ff\n")
    code, _, err = run("commit", str(path), "--as", "ann", "--private", str(mine))
    assert code == 1 and "submarine runs diagonally" in err  # the tool will not commit it
    placements = nt_read_fleet(bad)
    assert run("move", str(path), "--as", "ann",
               f"commit {fl.commitment(placements, '00ff')}")[0] == 0
    theirs = tmp_path / "ben.fleet"
    assert run("commit", str(path), "--as", "ben", "--private", str(theirs), "--fleet",
               FLEET_B)[0] == 0
    play_through_cli(path, {"ann": mine, "ben": theirs}, aim=True)
    assert tags(path)["Termination"] == "fleet against the rules by ann at ply 1"
    assert tags(path)["Result"] == "0-1"
    code, _out, err = run("validate", str(path))
    assert code == 0, err


def nt_read_fleet(text: str) -> tuple[fl.Placement, ...]:
    """A fleet as written in a placement, read without the placement rules."""
    from gametool.games.special_salvo import notation as nt

    return nt.read(f"place {text}")[1]


def test_a_commit_reveal_game_mailed_back_and_forth(tmp_path: Path) -> None:
    """Each seat keeps its own folder: its private file and its copy of the record. It acts on
    its copy with its own file only, then mails the record (a copy) to the other seat. The
    game ends with both reveals, and no mail carries a fleet before its owner's reveal."""
    folders = {seat: tmp_path / seat for seat in ("ann", "ben")}
    for folder in folders.values():
        folder.mkdir()
    fleets = {"ann": FLEET1, "ben": FLEET_B}
    copy = {seat: folders[seat] / "game.gtn" for seat in folders}
    mine = {seat: folders[seat] / "mine.fleet" for seat in folders}
    assert run("start", "special-salvo", "--option", "referee=off", "--players", "ann,ben",
               "-o", str(copy["ann"]))[0] == 0
    seat = "ann"
    for _ in range(400):
        path = copy[seat]
        data = json.loads(run("show", str(path), "--as", seat, "--json")[1])
        if data["over"]:
            break
        assert data["to_move"] == seat
        phase = data["position"]["phase"]
        if phase == "place":
            args = ["commit", str(path), "--as", seat, "--private", str(mine[seat]), "--fleet",
                    fleets[seat]]
        elif phase == "fire":
            args = ["move", str(path), "--as", seat, next_salvo(path, data)]
        else:
            args = ["answer", str(path), "--as", seat, "--private", str(mine[seat])]
        code, _, err = run(*args)
        assert code == 0, err
        mover = seat
        seat = json.loads(run("show", str(path), "--json")[1])["to_move"] or seat
        text = path.read_text()
        if f"{mover}: reveal" not in text:
            assert fleets[mover] not in text
        if seat != mover:
            copy[seat].write_text(text)  # the mail
    else:
        raise AssertionError("the game did not end")
    final = copy[seat].read_text()
    assert final.count("reveal ") == 2 and '[Result "1-0"]' in final
    assert run("validate", str(copy[seat]))[0] == 0


def test_a_record_without_reports_validates_and_moves_through_the_cli(tmp_path: Path) -> None:
    """D11: the reports left out of a record (seed or not, ply numbers counting them or not)
    are added by the reader: validate accepts it and move writes them in."""
    full = (SAMPLES / "referee-special.gtn").read_text()
    bare = [line for line in full.splitlines() if "chance: report" not in line]
    number = iter(range(1, 1000))
    renumbered = [f"{next(number)}.{line.split('.', 1)[1]}" if line[:1].isdigit() else line
                  for line in bare if not line.startswith("[Seed")]
    for name, lines in (("gapped.gtn", bare), ("renumbered.gtn", renumbered)):
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        code, out, _ = run("validate", str(path))
        assert code == 0, out
    # The opening of the unseeded record, with its result tags removed, then one more salvo.
    head = [line for line in renumbered if not line.startswith(("[Result", "[Termination"))]
    path = tmp_path / "open.gtn"
    path.write_text("\n".join(head[:head.index("") + 5]) + "\n")
    assert "report" not in path.read_text()
    data = json.loads(run("show", str(path), "--json")[1])
    # The report of ply 4 is added; the last one (ply 6) waits for the next player's action.
    assert data["ply"] == 5 and data["to_move"] == "chance"
    code, _, err = run("move", str(path), "fire a1 b1 c1 d1 e1")
    assert code == 0, err
    written = path.read_text()
    assert "4. chance: report j6 miss, h4 miss, g3 miss, e2 miss, g8 miss" in written
    assert "7. ann: fire a1 b1 c1 d1 e1" in written
    assert "6. chance: report" in written
    assert "8. chance: report a1 miss, b1 hit, c1 miss, d1 miss, e1 miss" in written  # at once
    assert run("validate", str(path))[0] == 0
    lie = written.replace("4. chance: report j6 miss", "4. chance: report j6 hit")
    path.write_text(lie)
    code, _out, err = run("validate", str(path))
    assert code == 1 and "wrong call j6 hit; the fleet gives j6 miss" in err and "D11" not in err


def test_in_commit_reveal_moves_says_what_the_seat_must_do_next(tmp_path: Path) -> None:
    path = tmp_path / "cr.gtn"
    assert RUNNER.invoke(cli, ["start", "special-salvo", "--option", "referee=off",
                               "--players", "ann,ben", "-o", str(path)]).exit_code == 0
    result = RUNNER.invoke(cli, ["moves", str(path)])
    assert result.exit_code == 0 and result.stdout == ""  # still no action to list
    assert "commits to a fleet: gametool commit" in result.stderr
    data = json.loads(RUNNER.invoke(cli, ["moves", str(path), "--json"]).stdout)
    assert data["actions"] == [] and "gametool commit" in data["next"]
    game = SpecialSalvo({"referee": "off"})
    reveal = replace(game.initial_state(2), phase="reveal", turn=1)
    assert "p2 reveals the fleet and salt: gametool answer" in game.next_step(reveal)
    assert GAME.next_step(GAME.initial_state(2)) is None  # the referee mode lists its actions
