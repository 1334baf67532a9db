"""Computer play on records: one turn of a seat (``move --auto``) and whole self-play corpora.

A game between computer players is an ordinary seeded record; the players' kinds are kept in an
``Agents`` tag. Each choice is drawn from the stream ``SeedRng(f"{seed}:agent:{seat}", ply)``,
apart from the record's own chance stream, so a corpus is the same on every run and platform.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gametool import games, players
from gametool.chance import SeedRng
from gametool.errors import GameError, GameOver, IllegalAction, RecordError
from gametool.record import Session, Step


def play_turn(session: Session, kind: str, seed: str, budget: int | None = None,
              as_seat: str | None = None, expect_ply: int | None = None) -> list[Step]:
    """Let player ``kind`` play the whole turn of the seat to move; return the steps added."""
    if expect_ply is not None and expect_ply != session.ply + 1:
        raise RecordError(f"stale --expect-ply {expect_ply}: the next ply of this record is "
                          f"{session.ply + 1}")
    game = session.game
    session.draw_chance()
    seat = session.to_move()
    if seat is None:
        raise GameOver("the game is over: no more actions")
    if as_seat is not None and session.seat_index(as_seat) != seat:
        raise IllegalAction(f"it is not {as_seat}'s turn: {session.seat_name(seat)} is to move")
    start = session.ply
    while game.to_move(session.state) == seat:
        rng = SeedRng(f"{seed}:agent:{seat}", session.ply + 1)
        session.push(players.choose(kind, game, session.state, rng, budget, len(session.names)))
    return session.steps[start:]


@dataclass(frozen=True)
class Task:
    """One game of a corpus."""

    game_id: str
    index: int
    kinds: tuple[str, ...]
    seed: str
    options: tuple[tuple[str, str], ...] = ()
    budget: int | None = None
    player_seed: str | None = None
    """The seed of the players' choices (None: the chance seed)."""


@dataclass(frozen=True)
class Played:
    """A finished game of a corpus: its record, result and length."""

    index: int
    text: str
    results: tuple[str, ...]
    termination: str
    plies: int
    seconds: float


def play_game(task: Task) -> Played:
    """Play one complete game between the players of ``task``."""
    began = time.perf_counter()
    cls = games.playable_class(task.game_id)
    names = cls.default_seat_names(len(task.kinds))
    seed = f"{task.seed}-{task.index}"
    player_seed = seed if task.player_seed is None else f"{task.player_seed}-{task.index}"
    session = Session.start(cls.id, names, dict(task.options), seed if cls.chance else None)
    session.record.set("Agents", "; ".join(task.kinds))
    game = session.game
    while (seat := game.to_move(session.state)) is not None:
        if session.ply >= game.max_plies:
            raise GameError(f"{cls.id}: game {task.index} passed {game.max_plies} plies")
        play_turn(session, task.kinds[seat], player_seed, task.budget)
    outcome = game.outcome(session.state)
    assert outcome is not None
    return Played(task.index, session.text(), tuple(r.result for r in outcome.results),
                  outcome.termination, session.ply, time.perf_counter() - began)


def run(tasks: Sequence[Task], jobs: int = 1, scheduler: str | None = None) -> Iterator[Played]:
    """Play every task, in ``jobs`` processes or on the Dask ``scheduler``; yield the games
    in order."""
    from gametool import distribute

    yield from distribute.run(play_game, tasks, jobs, scheduler)


def summary(kinds: Sequence[str], played: Sequence[Played], names: Sequence[str],
            seconds: float) -> tuple[list[str], list[list[object]]]:
    """A table of each seat's results, and the lengths and speed of the games."""
    headers = ["seat", "player", "wins", "draws", "losses", "games", "mean plies", "plies/s"]
    plies = sum(p.plies for p in played)
    count = len(played) or 1
    rows: list[list[object]] = []
    for seat, kind in enumerate(kinds):
        tally = [sum(1 for p in played if p.results[seat] == r) for r in ("win", "draw", "loss")]
        rows.append([names[seat], kind, *tally, len(played), round(plies / count, 1),
                     round(plies / seconds) if seconds > 0 else 0])
    return headers, rows
