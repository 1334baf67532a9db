"""The whole benchmark table of gametool, against its peers, in one run.

    python bench/run_all.py [--seconds 3] [--games chess,tawula]

For every playable game: random self-play plies per second (a gametool ply is one turn of one
seat), and beside it the peer's rate in actions and in turns and the ratio in turns where the
game has a peer (python-chess for chess; OpenSpiel games through ``pyspiel``, whose amazons
takes three actions a turn); then ``validate`` plies per second on a self-play corpus of the
game (the first 20 games, which build what the game loads on first need, then 20 other games:
the rate of a long archive). After the table: the start-up rows of ``bench/startup.py``
(``show``, ``moves`` and ``move`` on a 300-ply record against a bare ``python -c "import click,
pyparsing, tabulate"``), and the time of ``validate`` on records of growing length, to show
that it grows linearly. Then, run as their own scripts: chess perft through the command line,
PGN import and validate, validate on a Dask cluster of 1 and 2 workers, and the mail reader on
growing mails, each beside its peer or target.

Rates are per second of this process's CPU time (the peers run in it too), so that other work
on a shared machine counts against neither side. Peers are optional installs (``pip install -e
'.[bench]'``); a missing peer is reported, not fatal.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from selfplay import PEER_ACTIONS_PER_TURN, gametool_rate, peer_runner
from startup import startup_rows
from tabulate import tabulate

from gametool import games
from gametool.players import selfplay
from gametool.records import check_text

PEERS = {
    "chess": "python-chess",
    "assembly": "pyspiel:lines_of_action",
    "desdemona": "pyspiel:amazons",
    "tawula": "pyspiel:backgammon",
    "special-salvo": "pyspiel:battleship",
    "space-cards": "pyspiel:yacht",
    "western-mahjong": "pyspiel:gin_rummy",
}
# OpenSpiel's amazons splits a turn into three actions (the queen's from-square, its to-square,
# the arrow); a Desdemona turn (slide and stone) is one action. Rates are compared in turns.
TARGETS = {"chess": 1.0}
DEFAULT_TARGET = 0.25
VALIDATE_TARGET = 20_000


HERE = Path(__file__).resolve().parent
# The other benchmarks, each run as its own script after the tables above (every peer and
# target is printed by the script itself).
SECTIONS = [
    ("chess perft through the command line, beside python-chess (target 1.0)",
     ["perft.py", "--repeat", "3"]),
    ("PGN import and validate, beside python-chess and pgn-extract (target 2.0)",
     ["pgn.py", "--games", "300"]),
    ("validate on a Dask cluster of 1 and 2 workers", ["dask_scale.py"]),
    ("reading hostile mail: time grows linearly with its size", ["mail.py"]),
    ("the replay page of a 1,000-ply game: size and Chromium's open time (targets 3 MB, 2 s)",
     ["replay_page.py", "--runs", "3"]),
]


def corpus(gid: str, count: int) -> list[str]:
    tasks = [selfplay.Task(gid, i, ("random",) * games.playable_class(gid).players_default(),
                           "bench") for i in range(count)]
    return [played.text for played in selfplay.run(tasks)]


def validate_rate(texts: list[str]) -> float:
    start = time.process_time()
    plies = 0
    for text in texts:
        for verdict in check_text(text, "bench.gtn"):
            assert verdict.ok, verdict.errors
            plies += verdict.plies
    return plies / (time.process_time() - start)


def game_rows(ids: list[str], seconds: float) -> list[list[object]]:
    rows = []
    for gid in ids:
        rate, _plies, _played = gametool_rate(gid, seconds, 1, {})
        peer = PEERS.get(gid)
        peer_rate = peer_turns = ratio = None
        verdict = ""
        if peer:
            try:
                peer_rate = peer_runner(peer)(seconds, 1)[0]
                peer_turns = peer_rate / PEER_ACTIONS_PER_TURN.get(peer, 1)
                ratio = rate / peer_turns  # a gametool ply is one turn of one seat
                target = TARGETS.get(gid, DEFAULT_TARGET)
                verdict = "met" if ratio >= target else f"missed (target {target})"
            except ImportError as exc:
                verdict = f"peer not installed ({exc.name})"
        texts = corpus(gid, 40)
        # The first 20 games pay once for what a process builds on first need (a game's
        # grammars, its tables); the other 20, distinct games (nothing read before is read
        # again), give the rate a long archive runs at. Both are shown.
        first = validate_rate(texts[:20])
        vrate = validate_rate(texts[20:])
        rows.append([gid, round(rate), peer or "", round(peer_rate) if peer_rate else "",
                     round(peer_turns) if peer_turns else "",
                     f"{ratio:.2f}" if ratio is not None else "", verdict, round(first),
                     round(vrate),
                     "met" if vrate >= VALIDATE_TARGET else "missed"])
    return rows


def growth_rows(ids: list[str]) -> list[list[object]]:
    """validate time on files of 10,000 to 100,000 plies of distinct random games (no record is
    repeated, so nothing read once is read again)."""
    gid = "chess" if "chess" in ids else ids[0]
    seats = games.playable_class(gid).players_default()
    texts: list[tuple[str, int]] = []
    plies = 0
    index = 0
    while plies < 100_000:
        played = selfplay.play_game(selfplay.Task(gid, index, ("random",) * seats, "growth"))
        texts.append((played.text, played.plies))
        plies += played.plies
        index += 1
    rows = []
    for target in (10_000, 30_000, 100_000):
        chosen, count = [], 0
        for text, length in texts:
            if count >= target:
                break
            chosen.append(text)
            count += length
        start = time.process_time()
        total = sum(c.plies for c in check_text("\n".join(chosen)))
        seconds = time.process_time() - start
        rows.append([f"validate {gid}", total, f"{seconds:.2f} s",
                     f"{total / seconds:,.0f} plies/s"])
    return rows


def actions_per_turn(gid: str, peer: str, games_played: int = 60) -> tuple[float, float]:
    """The mean number of legal actions listed per turn in random games: gametool's (one list
    a turn) and the peer's (the lists of the actions of one turn, added)."""
    import random

    import pyspiel  # optional peer

    game = games.playable_class(gid)({})
    rng = random.Random(1)
    listed = turns = 0
    for _ in range(games_played):
        state = game.initial_state(game.players_default())
        while game.to_move(state) is not None:
            actions = game.legal_actions(state)
            listed, turns = listed + len(actions), turns + 1
            state = game.apply(state, rng.choice(actions))
    ours = listed / turns
    peer_game = pyspiel.load_game(peer.split(":", 1)[1])
    listed = actions = 0
    for _ in range(games_played):
        state = peer_game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            listed, actions = listed + len(legal), actions + 1
            state.apply_action(rng.choice(legal))
    return ours, listed / actions * PEER_ACTIONS_PER_TURN.get(peer, 1)


def self_play_profile(gid: str, seconds: float = 1.0) -> tuple[float, list[tuple[str, float]]]:
    """The share of random self-play time spent listing the legal actions (cProfile, cumulative
    time of legal_actions), and the functions taking most of it by own time, with their share."""
    import cProfile
    import pstats

    profile = cProfile.Profile(time.process_time)
    profile.enable()
    gametool_rate(gid, seconds, 1, {})
    profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = stats.stats.items()  # type: ignore[attr-defined]
    listing = sum(row[3] for key, row in rows if key[2] == "legal_actions" and "gametool" in key[0])
    top = sorted(((row[2] / total, key) for key, row in rows), reverse=True)[:4]
    return listing / total, [(f"{Path(key[0]).name}:{key[2]}" if key[0] != "~" else key[2],
                              share) for share, key in top]


def desdemona_note(ratio: float | None) -> str:
    """Desdemona against amazons in turns per second, and why the rules make a turn dearer."""
    try:
        ours, theirs = actions_per_turn("desdemona", PEERS["desdemona"])
    except ImportError:
        return ""
    share, top = self_play_profile("desdemona")
    target = TARGETS.get("desdemona", DEFAULT_TARGET)
    verdict = ("" if ratio is None else
               f"{ratio:.2f} of amazons in turns, target {target}, "
               + ("met. " if ratio >= target else "missed. "))
    profile = ", ".join(f"{name} {part:.0%}" for name, part in top)
    return (f"desdemona: {verdict}A turn (slide and stone) is one action, so a random turn lists "
            f"every slide-and-stone pair: {ours:.0f} actions a turn on average, against "
            f"{theirs:.0f} for OpenSpiel's amazons, which lists the three parts of a turn one "
            f"after another (the sum, not the product), in C++. Listing them takes {share:.0%} of "
            "self-play time (cProfile: legal_actions): a turn costs about "
            f"{ours / theirs:.0f} times the listing work of an amazons turn by the rules "
            f"alone. Profile, own time: {profile}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", help="Comma-separated game ids (default: every game).")
    args = parser.parse_args()
    ids = args.games.split(",") if args.games else games.playable_ids()
    print(f"gametool benchmarks, {time.strftime('%Y-%m-%d')}, Python "
          f"{platform.python_version()}, {platform.machine()}, {platform.processor() or ''}")
    headers = ["game", "self-play plies (= turns)/s", "peer", "peer actions/s", "peer turns/s",
               "ratio in turns", "target",
               "validate plies/s, first 20 games", "validate plies/s, next 20",
               f"validate target {VALIDATE_TARGET:,}"]
    rows = game_rows(ids, args.seconds)
    print(tabulate(rows, headers=headers, tablefmt="github"))
    if "desdemona" in ids:
        ratio = next((row[5] for row in rows if row[0] == "desdemona"), "")
        print()
        print(desdemona_note(float(ratio) if ratio else None))
    print()
    print(tabulate(startup_rows(), headers=["command", "time", "baseline", "ratio", "target"],
                   tablefmt="github"))
    print()
    print(tabulate(growth_rows(ids), headers=["run", "plies", "time", "rate"],
                   tablefmt="github"))
    if not args.games:
        for title, script in SECTIONS:
            print(f"\n{title}\n")
            sys.stdout.flush()
            subprocess.run([sys.executable, str(HERE / script[0]), *script[1:]], check=False,
                           env={**{k: v for k, v in os.environ.items()
                                   if k != "PYTHONDONTWRITEBYTECODE"},  # byte code, as installed
                                "PYTHONPATH": os.pathsep.join(
                                    filter(None, [str(HERE.parent),
                                                  os.environ.get("PYTHONPATH")]))})


if __name__ == "__main__":
    main()
