"""Computer play on records: one turn of a seat (``move --auto``) and whole self-play corpora.

A game between computer players is an ordinary seeded record; the players' kinds are kept in an
``Agents`` tag. Each choice is drawn from the stream ``SeedRng(f"{seed}:agent:{seat}", ply)``,
apart from the record's own chance stream, so a corpus is the same on every run and platform.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from gametool import games
from gametool.core.chance import SeedRng
from gametool.core.errors import GameError, GameOver, IllegalAction, RecordError
from gametool.players import computer as players
from gametool.records import Session, Step
from gametool.sources.progress import clock_text


def play_turn(session: Session, kind: str, seed: str, budget: int | None = None,
              as_seat: str | None = None, expect_ply: int | None = None,
              think: float | None = None) -> list[Step]:
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
        session.push(players.choose(kind, game, session.state, rng, budget, len(session.names),
                                    think))
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
    think: float | None = None
    """Seconds an mcts choice may take (None: only the budget bounds it)."""


@dataclass(frozen=True)
class Played:
    """A finished game of a corpus: its record, result and length."""

    game_id: str
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
        play_turn(session, task.kinds[seat], player_seed, task.budget, think=task.think)
    outcome = game.outcome(session.state)
    assert outcome is not None
    return Played(cls.id, task.index, session.text(), tuple(r.result for r in outcome.results),
                  outcome.termination, session.ply, time.perf_counter() - began)


def run(tasks: Sequence[Task], jobs: int = 1, scheduler: str | None = None,
        ordered: bool = True) -> Iterator[Played]:
    """Play every task, in ``jobs`` processes or on the Dask ``scheduler``: the games in
    order (or, when not ``ordered``, as each one ends)."""
    from gametool.sources import distribute

    return distribute.run(play_game, tasks, jobs, scheduler, ordered=ordered)


def play_into(tasks: Sequence[Task], out: str, jobs: int = 1, scheduler: str | None = None,
              label: str = "selfplay", force: bool = False) -> list[Played]:
    """Play ``tasks`` and write each game as soon as it ends: to ``out``/GAME-NNNN.gtn (each
    file whole, by an atomic rename), or, for ``out`` '-', to stdout as one stream of records
    in the order of the tasks. Progress goes to stderr on a terminal. An interrupted run keeps
    every game that ended before it. A record already in ``out`` is refused before any game is
    played, unless ``force``."""
    import os
    from contextlib import closing

    from gametool.core import storage

    stream = out == "-"
    made: list[str] = []
    if not stream:
        there = [path for task in tasks if os.path.lexists(
            path := os.path.join(out, f"{task.game_id}-{task.index:04d}.gtn"))]
        if there and not force:
            more = f" and {len(there) - 1} more" if len(there) > 1 else ""
            raise GameError(f"{there[0]}{more}: already exist (use --force to overwrite)"
                            if more else f"{there[0]}: already exists (use --force to "
                            "overwrite)")
        made = storage.make_folders(out)
    done: list[Played] = []
    try:
        games_played = run(tasks, jobs, scheduler, ordered=stream)  # the workers start here
        # On a terminal, records on stdout and a progress line on stderr would mix: no line.
        quiet = stream and sys.stdout.isatty()
        with closing(games_played), Progress(len(tasks), label, quiet=quiet) as progress:
            for played in games_played:
                if stream:
                    sys.stdout.write(("\n" if done else "") + played.text)
                    sys.stdout.flush()
                else:
                    storage.create(os.path.join(out, f"{played.game_id}-{played.index:04d}.gtn"),
                                   played.text, force=True)
                done.append(played)
                progress.update(len(done))
    except GameError:
        if not done:  # no game written (a full disk): the folders made for them go too
            storage.undo_folders(made)
        raise
    return sorted(done, key=lambda p: p.index)


class Progress:
    """A line on stderr, redrawn each second and after each game: games done of all, games
    per second and the time left. Only on a terminal: in a pipe or a log it stays silent."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None,
                 quiet: bool = False) -> None:
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.began = time.monotonic()
        self.shown = False
        self.lock = threading.Lock()
        self.stop = threading.Event()
        try:
            self.enabled = not quiet and self.stream.isatty()
        except (AttributeError, ValueError):
            self.enabled = False

    def __enter__(self) -> Progress:
        if self.enabled:
            self.draw()
            threading.Thread(target=self._tick, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.enabled and self.shown:
            with self.lock:
                self.stream.write("\n")
                self.stream.flush()

    def _tick(self) -> None:
        while not self.stop.wait(1.0):
            self.draw()

    def update(self, done: int) -> None:
        self.done = done
        if self.enabled:
            self.draw()

    def line(self) -> str:
        elapsed = time.monotonic() - self.began
        text = f"{self.label}: {self.done}/{self.total} games, {clock_text(elapsed)}"
        if self.done:
            rate = self.done / elapsed if elapsed > 0 else 0.0
            text += (f", {rate:.2f} games/s" if rate >= 1
                     else f", {elapsed / self.done:.1f} s/game")
            if self.done < self.total and rate > 0:
                text += f", about {clock_text((self.total - self.done) / rate)} left"
        return text

    def draw(self) -> None:
        with self.lock:
            if self.stop.is_set() and self.shown:
                return
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()
            self.shown = True


JSON_KEYS = ("seat", "player", "wins", "draws", "losses", "games", "mean_plies",
             "plies_per_second")
"""The summary's columns as JSON keys."""


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
