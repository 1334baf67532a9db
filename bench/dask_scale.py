"""Validation of one corpus on a Dask cluster of 1 and of 2 workers, in the same run.

    python bench/dask_scale.py                    # 60 chess self-play games, 1 and 2 workers
    python bench/dask_scale.py --game tawula -n 100 --workers 1,2,4

The corpus is played first (random players, fixed seed) into a temporary folder, half of it in
one large file so that the work is split by record as well as by file. Each cluster is a
``LocalCluster`` of worker processes, started before the clock runs; the time is that of
``validate --scheduler ADDRESS`` over the corpus, best of ``--repeat`` runs. Prints plies per
second in one process without Dask, then for each cluster and its speed-up over one worker.
Dask is an optional install (``pip install 'gametool[dask]'``).
"""

from __future__ import annotations

import argparse
import functools
import os
import tempfile
import time

from tabulate import tabulate

from gametool import sources
from gametool.players.selfplay import Task, play_game
from gametool.referee import verify
from gametool.sources import distribute


def build(folder: str, game: str, count: int) -> int:
    """Write ``count`` games: half as files of one record, half in one file; their plies."""
    from gametool import games

    kinds = ("random",) * games.playable_class(game).players_default()
    played = [play_game(Task(game, i + 1, kinds, "dask-scale")) for i in range(count)]
    half = count // 2
    for p in played[:half]:
        with open(os.path.join(folder, f"{game}-{p.index:04d}.gtn"), "w") as handle:
            handle.write(p.text)
    with open(os.path.join(folder, "big.gtn"), "w") as handle:
        handle.write("\n".join(p.text for p in played[half:]))
    return sum(p.plies for p in played)


def validate(folder: str, address: str | None, part_bytes: int) -> float:
    """Seconds to validate every record under ``folder`` on the scheduler ``address`` (None:
    in this process)."""
    began = time.perf_counter()
    pieces = [part for path in sources.expand([folder])
              for part in distribute.parts(path, part_bytes)]
    results = list(distribute.run(verify.check_part, pieces, scheduler=address))
    assert all(not isinstance(r, Exception) and all(v.ok for v in r) for r in results)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("-n", type=int, default=60, help="games in the corpus")
    parser.add_argument("--workers", default="1,2", help="cluster sizes, e.g. 1,2,4")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--part-bytes", type=int, default=64 * 1024,
                        help="size of the parts a large file is cut into")
    args = parser.parse_args()
    from dask.distributed import LocalCluster

    with tempfile.TemporaryDirectory() as folder:
        plies = build(folder, args.game, args.n)
        here = min(validate(folder, None, args.part_bytes) for _ in range(args.repeat))
        rows = [["none (one process)", plies, f"{here:.2f} s", f"{plies / here:,.0f}", ""]]
        base = None
        for workers in (int(w) for w in args.workers.split(",")):
            with LocalCluster(n_workers=workers, threads_per_worker=1,
                              dashboard_address=None) as cluster:
                run = functools.partial(validate, folder, cluster.scheduler_address,
                                        args.part_bytes)
                run()  # warm up: the workers import gametool and the game
                seconds = min(run() for _ in range(args.repeat))
            base = base or seconds
            rows.append([workers, plies, f"{seconds:.2f} s", f"{plies / seconds:,.0f}",
                         f"{base / seconds:.2f}"])
    print(f"validate on Dask: {args.n} {args.game} games, {os.cpu_count()} cores")
    print(tabulate(rows, headers=["workers", "plies", "time", "plies/s",
                                  "ratio to 1 worker"]))


if __name__ == "__main__":
    main()
