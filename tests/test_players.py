"""Computer players: legal, deterministic, blind to what their seat cannot see, and strong
enough to beat random play."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import PLAYABLE, sample_session

from gametool import games
from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE
from gametool.players import computer as players
from gametool.players import selfplay
from gametool.records import Session, load_one


def _player_positions(gid: str) -> list[tuple[object, object]]:
    session = sample_session(gid, 0)
    game = session.game
    states = [s for s in session.states if game.to_move(s) not in (None, CHANCE)]
    return [(game, s) for s in states[:: max(1, len(states) // 6)]]


@pytest.mark.parametrize("kind", players.KINDS)
@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_player_chooses_a_legal_action_deterministically(gid: str, kind: str) -> None:
    for game, state in _player_positions(gid):
        first = players.choose(kind, game, state, SeedRng("choice", 1), budget=8)
        again = players.choose(kind, game, state, SeedRng("choice", 1), budget=8)
        assert first == again
        assert first in game.legal_actions(state)


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
@pytest.mark.parametrize("gid", [g for g in PLAYABLE if games.playable_class(g).hidden])
def test_a_player_never_reads_what_its_seat_cannot_see(gid: str, kind: str) -> None:
    # Two positions that differ only in what the seat to move cannot see get the same choice.
    for game, state in _player_positions(gid):
        seat = game.to_move(state)
        other = game.randomize_hidden(state, seat, SeedRng("other", 0))
        assert game.view(other, seat) == game.view(state, seat)
        assert (players.choose(kind, game, state, SeedRng("blind", 1), budget=8)
                == players.choose(kind, game, other, SeedRng("blind", 1), budget=8))


@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_game_is_played_to_the_end_by_each_player(gid: str, tmp_path: Path) -> None:
    cls = games.playable_class(gid)
    seats = cls.players_default()
    kinds = ("greedy", "mcts", "random", "greedy")[:seats]
    result = CliRunner().invoke(cli, ["selfplay", gid, "-n", "1", "--out", str(tmp_path),
                                      "--players", ",".join(kinds), "--budget", "2",
                                      "--seed", "ends"])
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.gtn")
    session = load_one(path.read_text())
    assert session.game.is_over(session.state)
    assert session.record.get("Agents") == "; ".join(kinds)


def test_move_auto_plays_the_turn_of_the_seat_to_move(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    runner = CliRunner()
    assert runner.invoke(cli, ["start", "colors", "-o", str(path)]).exit_code == 0
    result = runner.invoke(cli, ["move", str(path), "--auto", "greedy", "--seed", "s"])
    assert result.exit_code == 0, result.output
    assert load_one(path.read_text()).ply == 1
    again = tmp_path / "h.gtn"
    runner.invoke(cli, ["start", "colors", "-o", str(again)])
    runner.invoke(cli, ["move", str(again), "--auto", "greedy", "--seed", "s"])
    assert again.read_text().splitlines()[-1] == path.read_text().splitlines()[-1]
    stale = runner.invoke(cli, ["move", str(path), "--auto", "random", "--expect-ply", "1"])
    assert stale.exit_code == 1 and "stale" in stale.output
    wrong = runner.invoke(cli, ["move", str(path), "--auto", "random", "--as", "p1"])
    assert wrong.exit_code == 1 and "not p1's turn" in wrong.output
    both = runner.invoke(cli, ["move", str(path), "e4=R", "--auto", "random"])
    assert both.exit_code == 2


def test_selfplay_writes_valid_records_and_a_summary(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "corpus"
    result = runner.invoke(cli, ["selfplay", "colors", "-n", "3", "--out", str(out),
                                 "--players", "greedy,random", "--seed", "c"])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "wins" in result.output
    files = sorted(out.glob("*.gtn"))
    assert len(files) == 3
    checked = runner.invoke(cli, ["validate", "--jobs", "2", *map(str, files)])
    assert checked.exit_code == 0 and checked.output.count(": ok") == 3
    serial = runner.invoke(cli, ["validate", *map(str, files)])
    assert serial.output == checked.output


def test_selfplay_is_the_same_for_the_same_seed() -> None:
    task = selfplay.Task("colors", 1, ("mcts", "greedy"), "same", budget=5)
    assert selfplay.play_game(task).text == selfplay.play_game(task).text


def test_greedy_takes_the_placement_that_scores_most() -> None:
    session = Session.start("colors")
    session.play(["d4=R", "a7=B"])
    game = session.game
    choice = players.choose("greedy", game, session.state, SeedRng("g", 1))
    after = game.apply(session.state, choice)
    best = max(game.evaluate(game.apply(session.state, a), 0)
               for a in game.legal_actions(session.state))
    assert game.evaluate(after, 0) == best > 0


def _wins(gid: str, kind: str, games_count: int, budget: int) -> int:
    """Games won by player ``kind`` against random players, taking each seat in turn."""
    seats = games.playable_class(gid).players_default()
    wins = 0
    for index in range(games_count):
        hero = index % seats
        kinds = tuple(kind if seat == hero else "random" for seat in range(seats))
        played = selfplay.play_game(selfplay.Task(gid, index, kinds, "strength", budget=budget))
        wins += played.results[hero] == "win"
    return wins


# Games where mcts must win at least 16 of 20 games (80%) against random play, with its budget
# (each seat in turn; the games are seeded, so the count is the same on every run).
MCTS_STRENGTH = {"colors": 60, "colors-8x8": 30, "belemmer": 60, "gami-four": 60,
                 "gami-seven": 60}
# Scoring games where greedy must win clearly more than its share against random play.
GREEDY_STRENGTH = ["colors", "colors-8x8", "desdemona", "space-cards", "johari-bones",
                   "two-headed-dragon"]


@pytest.mark.parametrize("gid", [g for g in MCTS_STRENGTH if g in PLAYABLE])
def test_mcts_beats_random(gid: str) -> None:
    assert _wins(gid, "mcts", 20, MCTS_STRENGTH[gid]) >= 16


@pytest.mark.parametrize("gid", [g for g in GREEDY_STRENGTH if g in PLAYABLE])
def test_greedy_beats_random_in_scoring_games(gid: str) -> None:
    seats = games.playable_class(gid).players_default()
    count = 30
    # Twice the share of a random player, and at least 80% in two-seat games.
    assert _wins(gid, "greedy", count, 1) >= min(0.8, 2 / seats) * count
