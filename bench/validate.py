"""validate of a long record of every game, each command in a process of its own, beside an
older build in the same run.

    python bench/validate.py [--old COMMIT] [--plies 10000] [--rounds 3] [--games chess,sapos]
                             [--no-instructions] [--instruction-plies 1000]

For each game a corpus of random self-play games (fixed seeds, at least ``--plies`` plies, made
by this build and written as one file) is validated by ``python -m gametool validate FILE`` in a
new process, by this build and by the build of ``--old`` (checked out into a temporary
worktree, removed after). A rate is plies per second of the child's CPU time (user + system,
``resource.getrusage`` of the children), the start-up included, as a user pays it; the best of
``--rounds`` rounds, the two builds taking turns first. Then each command is counted in
instructions (valgrind's callgrind) on the first games of the same corpus (at least
``--instruction-plies`` plies), a figure that other work on a shared machine does not move:
instructions per ply of the whole command. Both builds must give the same verdict, byte for
byte; a difference is printed and the run exits 1.

Byte code is written and used, as an installed package does (``PYTHONDONTWRITEBYTECODE`` is
cleared, and each build runs once before it is measured).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from tabulate import tabulate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from gametool import games  # noqa: E402
from gametool.players import selfplay  # noqa: E402

DEFAULT_OLD = "a679824"  # the last build before the house by subsystem
TARGET = 20_000


def corpus(gid: str, plies: int) -> list[tuple[str, int]]:
    """Random self-play games of ``gid`` (seeds bench-0, bench-1, ...) until ``plies``."""
    seats = games.playable_class(gid).players_default()
    made: list[tuple[str, int]] = []
    total = 0
    index = 0
    while total < plies:
        played = selfplay.play_game(selfplay.Task(gid, index, ("random",) * seats, "bench"))
        made.append((played.text, played.plies))
        total += played.plies
        index += 1
    return made


def environment(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    return env


def command(tree: Path, *args: str) -> tuple[list[str], dict[str, str]]:
    return [sys.executable, "-m", "gametool", *args], environment(tree)


def run_cpu(tree: Path, path: Path, cwd: Path) -> tuple[float, str]:
    """The child's CPU seconds and its output (stdout, then stderr and the exit code)."""
    argv, env = command(tree, "validate", str(path))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, f"{done.stdout}{done.stderr}exit {done.returncode}"


def run_instructions(tree: Path, path: Path, cwd: Path) -> int:
    argv, env = command(tree, "validate", str(path))
    out = cwd / "callgrind.out"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
                          env=env, cwd=cwd, capture_output=True, text=True, check=False)
    out.unlink(missing_ok=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise RuntimeError(f"callgrind gave no count: {done.stderr[-400:]}")
    return int(found.group(1))


def old_tree(commit: str, into: Path) -> Path:
    tree = into / f"old-{commit}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree),
                    commit], check=True)
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", default=DEFAULT_OLD, help="The older build's commit.")
    parser.add_argument("--plies", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", help="Comma-separated game ids (default: every game).")
    parser.add_argument("--no-instructions", action="store_true")
    parser.add_argument("--instruction-plies", type=int, default=1_000)
    args = parser.parse_args()
    ids = args.games.split(",") if args.games else games.playable_ids()
    counting = not args.no_instructions and shutil.which("valgrind") is not None
    # A run ended by a signal still removes its worktree (the finally below).
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit(1))
    work = Path(tempfile.mkdtemp(prefix="gametool-validate-bench-"))
    old = old_tree(args.old, work)
    new = ROOT
    failed = False
    rows = []
    try:
        for tree in (new, old):  # byte code written once, before anything is measured
            argv, env = command(tree, "--version")
            subprocess.run(argv, env=env, cwd=work, capture_output=True, check=False)
        for gid in ids:
            made = corpus(gid, args.plies)
            path = work / f"{gid}.gtn"
            path.write_text("\n".join(text for text, _ in made), encoding="utf-8")
            plies = sum(count for _, count in made)
            best = {new: float("inf"), old: float("inf")}
            outputs = {}
            for turn in range(args.rounds):
                for tree in ((new, old) if turn % 2 == 0 else (old, new)):
                    seconds, output = run_cpu(tree, path, work)
                    best[tree] = min(best[tree], seconds)
                    outputs[tree] = output.replace(str(path), f"{gid}.gtn")
            if outputs[new] != outputs[old]:
                failed = True
                print(f"{gid}: the verdicts differ\n  new: {outputs[new]!r}\n"
                      f"  old: {outputs[old]!r}", file=sys.stderr)
            row: list[object] = [gid, plies, round(plies / best[new]), round(plies / best[old]),
                                 f"{best[old] / best[new]:.2f}"]
            if counting:
                short, short_plies = [], 0
                for text, count in made:
                    if short_plies >= args.instruction_plies:
                        break
                    short.append(text)
                    short_plies += count
                short_path = work / f"{gid}-short.gtn"
                short_path.write_text("\n".join(short), encoding="utf-8")
                ours = run_instructions(new, short_path, work)
                theirs = run_instructions(old, short_path, work)
                row += [short_plies, round(ours / short_plies), round(theirs / short_plies),
                        f"{theirs / ours:.2f}"]
            row.append("met" if plies / best[new] >= TARGET else "missed")
            rows.append(row)
            print(f"{gid} done", file=sys.stderr, flush=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                       check=False)
        shutil.rmtree(work, ignore_errors=True)
    headers = ["game", "plies", "plies/CPU s", f"old {args.old}", "speed-up"]
    if counting:
        headers += ["plies (instructions)", "instructions/ply", f"old {args.old}", "fewer by"]
    headers.append(f"target {TARGET:,}")
    print(f"validate of a long record, each command in its own process: this build against "
          f"{args.old} (best of {args.rounds} rounds of CPU time"
          + ("; instructions by callgrind" if counting else "") + ")")
    print(tabulate(rows, headers=headers, tablefmt="github"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
