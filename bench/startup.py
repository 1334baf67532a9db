"""Start-up cost of the commands a shell loop calls most, against the bare imports.

    python bench/startup.py [--runs 9]

Times ``gametool show``, ``moves`` and ``move`` on a chess record of about 300 plies, ``show``
and ``moves`` on a record that ends with a draw claim, and ``gametool --version``, each the
median of several runs, beside ``python -c "import click, pyparsing, tabulate"`` measured in the
same run; the target is a ratio of at most 1.0 for ``show``, ``moves`` and ``move``. Runs are
interleaved (one of each in turn) so that a change of load on the machine touches every command
alike.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 1.0
CLAIM_RECORD = Path(__file__).resolve().parent.parent / "sample_games" / "chess" / \
    "threefold-claim.gtn"
"""A record that ends with ``claim-draw Ng8``: read without the grammar like any other."""


def chess_record(plies: int = 300) -> str:
    """A chess record of ``plies`` plies (random play from fixed seeds, the first long one)."""
    from gametool.players.auto import random_game

    for index in range(100):
        session = random_game("chess", f"startup-{index}", max_plies=plies)
        if session.ply == plies:
            return session.text()
    raise SystemExit("no random chess game of that length")


def startup_rows(runs: int = 9) -> list[list[object]]:
    # As after an install: byte code compiled and used (PYTHONDONTWRITEBYTECODE would make
    # every run compile gametool from source, while the peers' byte code is installed).
    import gametool
    import notation

    for package in (gametool, notation):
        compileall.compile_dir(os.path.dirname(package.__file__), quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.gtn"
        path.write_text(chess_record())
        scratch = Path(folder) / "scratch.gtn"
        from gametool.records import load_one

        session = load_one(path.read_text())
        action = session.game.format_action(session.state,
                                            session.game.legal_actions(session.state)[0])
        gametool = [sys.executable, "-m", "gametool"]
        commands = {
            "bare imports": [sys.executable, "-c", "import click, pyparsing, tabulate"],
            "show (300 plies)": [*gametool, "show", str(path)],
            "moves (300 plies)": [*gametool, "moves", str(path)],
            "move (300 plies)": [*gametool, "move", str(scratch), action],
            "show (a claim-draw ending)": [*gametool, "show", str(CLAIM_RECORD)],
            "moves (a claim-draw ending)": [*gametool, "moves", str(CLAIM_RECORD)],
            "--version": [*gametool, "--version"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                shutil.copy(path, scratch)
                start = time.perf_counter()
                subprocess.run(command, check=True, capture_output=True, env=env)
                times[name].append(time.perf_counter() - start)
    bare = statistics.median(times["bare imports"])
    rows = []
    for name in commands:
        if name == "bare imports":
            continue
        median = statistics.median(times[name])
        ratio = median / bare
        target = "" if name == "--version" else (
            "met" if ratio <= TARGET else f"missed (target {TARGET})")
        rows.append([name, f"{median * 1000:.0f} ms", f"bare imports {bare * 1000:.0f} ms",
                     f"{ratio:.2f}", target])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    from tabulate import tabulate

    print(tabulate(startup_rows(args.runs), headers=["command", "time", "baseline", "ratio",
                                                     "target"], tablefmt="github"))


if __name__ == "__main__":
    main()
