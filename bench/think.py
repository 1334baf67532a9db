"""How long an mcts search bounded by --think takes on this machine, against the think asked.

    python bench/think.py [--game tawula] [--think 0.2,0.5] [--runs 5]

The search reads its own clock before each iteration and stops at the first reading past its
think (see players.choose); what it overruns is one iteration and the set-up. The table gives,
for each think, the median wall time of a search with a budget it cannot reach, and its ratio
to the think (about 1 on an idle machine; a busy one stretches both the iterations and the
wall time).
"""

from __future__ import annotations

import argparse
import statistics
import time

from tabulate import tabulate


def main() -> None:
    from gametool.core.chance import SeedRng
    from gametool.players import computer as players
    from gametool.records import Session

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tawula")
    parser.add_argument("--think", default="0.2,0.5")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    session = Session.start(args.game, None, None, "think")
    session.draw_chance()
    rows = []
    for think in (float(t) for t in args.think.split(",")):
        took = []
        for run in range(args.runs):
            began = time.monotonic()
            players.choose("mcts", session.game, session.state, SeedRng("p", run), 10 ** 7, 2,
                           think=think)
            took.append(time.monotonic() - began)
        median = statistics.median(took)
        rows.append([args.game, f"{think:g} s", f"{median:.3f} s", f"{median / think:.2f}"])
    print(tabulate(rows, headers=["game", "think", "search took", "ratio"]))


if __name__ == "__main__":
    main()
