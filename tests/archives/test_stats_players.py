"""``stats`` of many distinct players: exact counts whatever their number, in memory that stays
flat (the counts go to an SQLite file past a bound), and the median of the plies counted."""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_bounded_inputs import MEASURED

ENDINGS = {"1-0": ("win", "loss"), "0-1": ("loss", "win"), "1/2-1/2": ("draw", "draw")}
MOVES = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]


def archive(path: Path, games: int, seed: int, players: int | None = None) -> list[tuple]:
    """Games of distinct players (or of ``players`` names drawn again and again), each with
    a result and a length of its own."""
    rng = random.Random(seed)
    made, out = [], []
    for number in range(games):
        if players is None:
            white, black = f"White{seed}x{number}", f"Black{seed}x{number}"
        else:
            white, black = (f"Player{rng.randrange(players)}" for _ in range(2))
            if white == black:
                black += "B"
        result = rng.choice(list(ENDINGS))
        plies = rng.randrange(1, len(MOVES) + 1)
        moves = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m
                         for i, m in enumerate(MOVES[:plies]))
        made.append(f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n'
                    f"{moves} {result}\n")
        out.append((white, black, result, plies))
    path.write_text("\n".join(made))
    return out


def stats(path: Path, *more: str, limit: str = "2000") -> tuple[subprocess.CompletedProcess,
                                                                 int]:
    env = {**os.environ, "GAMETOOL_SEATS_IN_MEMORY": limit}
    done = subprocess.run([sys.executable, "-c", MEASURED, "stats", str(path), *more],
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr[-800:]
    return done, int(done.stderr.rsplit("measured: ", 1)[1].split(" KiB")[0])


def test_counts_kept_on_disk_are_exact(tmp_path: Path) -> None:
    path = tmp_path / "many.pgn"
    games = archive(path, 900, 1, players=400)
    expected: dict[str, Counter] = {}
    for white, black, result, _plies in games:
        for name, outcome in zip((white, black), ENDINGS[result], strict=True):
            expected.setdefault(name, Counter())[outcome] += 1
    for limit in ("50", "100000"):  # on disk, and in memory
        done, _ = stats(path, "--json", limit=limit)
        seats = json.loads(done.stdout)["chess"]["seats"]
        assert {n: (c["win"], c["draw"], c["loss"]) for n, c in seats.items()} == {
            n: (c["win"], c["draw"], c["loss"]) for n, c in expected.items()}
        order = sorted(expected, key=lambda n: (-sum(expected[n].values()), n))
        assert list(seats) == order
        data = json.loads(done.stdout)["chess"]
        assert data["median_plies"] == statistics.median(g[3] for g in games)
    text, _ = stats(path, limit="50")
    assert f"results by seat (the 10 with most games of {len(expected)})" in text.stdout
    assert text.stdout == stats(path, limit="100000")[0].stdout


@pytest.mark.slow
def test_memory_is_flat_in_the_number_of_distinct_players(tmp_path: Path) -> None:
    """N and 4N games, every player new (not copies of one set of players); N large enough
    that both are read in several parts, whose records are held a part at a time."""
    sizes = {}
    for games in (20000, 80000):
        path = tmp_path / f"distinct-{games}.pgn"
        archive(path, games, games)
        done, peak = stats(path)
        assert f"chess: {games} games" in done.stdout
        sizes[games] = peak
    assert sizes[80000] <= 1.25 * sizes[20000] + 8 * 1024, sizes
