"""Chess perft through the gametool command line beside python-chess, in the same run.

    python bench/perft.py                  # start depth 4 and Kiwipete depth 3, the targets
    python bench/perft.py --core --depth 3 # the move generator alone, every rules-file position

By default each figure is a whole command run as a subprocess, as a user would run it:
``gametool perft FILE DEPTH`` (and ``--divide``) on a record set up from the position, against
``python -c`` running python-chess's perft, a plain recursive count over ``legal_moves`` (the
last level counted with ``legal_moves.count()``). Both sides pay for starting Python and their
imports. Each figure is the best of ``--repeat`` runs; the ratio is python-chess's time over
gametool's (above 1.0: gametool is faster; the target is 1.0). The counts are compared too.

With ``--core`` the chess core's counter and python-chess run in this process, without start-up.
python-chess is an optional install (``pip install chess``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}
TARGETS = (("start", 4), ("kiwipete", 3))

COUNT = """
def count(board, d):
    if d == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += count(board, d - 1)
        board.pop()
    return total
"""
PEER_SCRIPT = "import sys\nimport chess\n" + COUNT + (
    "print(count(chess.Board(sys.argv[1]), int(sys.argv[2])))\n")


def timed(command: list[str], repeat: int) -> tuple[str, float]:
    """The output of a command and its best wall-clock time over ``repeat`` runs."""
    best, out = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - start)
        out = done.stdout
    return out, best


def cli_figures(pairs: list[tuple[str, int]], repeat: int) -> None:
    gametool = [sys.executable, "-m", "gametool"]
    peer = [sys.executable, "-c", PEER_SCRIPT]
    worst = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        for name, depth in pairs:
            fen = POSITIONS[name]
            record = str(Path(folder) / f"{name}.gtn")
            subprocess.run([*gametool, "start", "chess", "--position", fen, "-o", record],
                           check=True, capture_output=True)
            pout, ptime = timed([*peer, fen, str(depth)], repeat)
            for extra in ([], ["--divide"]):
                out, seconds = timed([*gametool, "perft", record, str(depth), *extra], repeat)
                nodes = out.split()[-1]
                if nodes != pout.strip():
                    raise SystemExit(f"{name} depth {depth}: gametool counts {nodes}, "
                                     f"python-chess {pout.strip()}")
                ratio = ptime / seconds
                worst = min(worst, ratio)
                label = "perft --divide" if extra else "perft"
                print(f"{name:>9} depth {depth} {label:<14} {int(nodes):>9} nodes  gametool "
                      f"{seconds:6.3f} s  python-chess {ptime:6.3f} s  ratio {ratio:.2f}"
                      f"  (target 1.0: {'met' if ratio >= 1.0 else 'missed'})")
    print(f"lowest ratio python-chess time / gametool time: {worst:.2f}")


def core_figures(names: list[str], depth: int) -> None:
    import chess  # optional peer

    from gametool.games.chess import board as core
    from gametool.games.chess.position import read_fen

    scope: dict[str, object] = {}
    exec(COUNT, scope)  # the same count as the subprocess runs
    count = scope["count"]
    ours_nodes = ours_time = peer_nodes = peer_time = 0.0
    for name in names:
        fen = POSITIONS[name]
        pos = read_fen(fen)
        start = time.perf_counter()
        nodes = core.perft(pos.board, pos.white, pos.castling, pos.ep, depth)
        seconds = time.perf_counter() - start
        board = chess.Board(fen)
        start = time.perf_counter()
        pnodes = count(board, depth)
        pseconds = time.perf_counter() - start
        if nodes != pnodes:
            raise SystemExit(f"{name}: gametool counts {nodes}, python-chess {pnodes}")
        ours_nodes, ours_time = ours_nodes + nodes, ours_time + seconds
        peer_nodes, peer_time = peer_nodes + pnodes, peer_time + pseconds
        print(f"{name:>9} depth {depth}: {nodes:>9} nodes  gametool "
              f"{nodes / seconds:>11,.0f} n/s  python-chess {pnodes / pseconds:>11,.0f} n/s  "
              f"ratio {(nodes / seconds) / (pnodes / pseconds):.2f}")
    ours, peer = ours_nodes / ours_time, peer_nodes / peer_time
    print(f"total: gametool {ours:,.0f} nodes/s, python-chess {peer:,.0f} nodes/s, "
          f"ratio gametool/peer: {ours / peer:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--core", action="store_true",
                        help="time the core's counter in this process instead of the command")
    parser.add_argument("--depth", type=int, help="one depth for every position")
    parser.add_argument("--position", choices=sorted(POSITIONS), action="append",
                        help="a position of the rules file (repeatable)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the best counts)")
    args = parser.parse_args()
    if args.core:
        core_figures(args.position or list(POSITIONS), args.depth or 3)
    elif args.position:
        cli_figures([(name, args.depth or 3) for name in args.position], args.repeat)
    else:
        cli_figures([(name, args.depth or depth) for name, depth in TARGETS], args.repeat)


if __name__ == "__main__":
    main()
