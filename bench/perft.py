"""Perft speed of gametool's chess move generator beside python-chess, in the same run.

    python bench/perft.py                 # the rules file's positions, depth 3
    python bench/perft.py --depth 4 --position kiwipete

Both sides count the same trees the same way: legal moves are generated at every node and the
last level is bulk-counted (the number of legal moves, without playing them), as perft programs
usually do. Prints nodes per second for each side and the ratio gametool/python-chess, per
position and in total. python-chess is an optional install (``pip install chess``).
"""

from __future__ import annotations

import argparse
import time

from gametool.games.chess import board as core
from gametool.games.chess.position import read_fen

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}


def gametool_perft(fen: str, depth: int) -> tuple[int, float]:
    pos = read_fen(fen)
    start = time.perf_counter()
    nodes = core.perft(pos.board, pos.white, pos.castling, pos.ep, depth)
    return nodes, time.perf_counter() - start


def python_chess_perft(fen: str, depth: int) -> tuple[int, float]:
    import chess  # optional peer

    board = chess.Board(fen)

    def count(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += count(d - 1)
            board.pop()
        return total

    start = time.perf_counter()
    nodes = count(depth)
    return nodes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--position", choices=sorted(POSITIONS), action="append",
                        help="a position of the rules file (repeatable; default: all)")
    args = parser.parse_args()
    names = args.position or list(POSITIONS)
    ours_nodes = ours_time = peer_nodes = peer_time = 0.0
    for name in names:
        fen = POSITIONS[name]
        nodes, seconds = gametool_perft(fen, args.depth)
        pnodes, pseconds = python_chess_perft(fen, args.depth)
        if nodes != pnodes:
            raise SystemExit(f"{name}: gametool counts {nodes}, python-chess {pnodes}")
        ours_nodes, ours_time = ours_nodes + nodes, ours_time + seconds
        peer_nodes, peer_time = peer_nodes + pnodes, peer_time + pseconds
        print(f"{name:>9} depth {args.depth}: {nodes:>9} nodes  gametool "
              f"{nodes / seconds:>11,.0f} n/s  python-chess {pnodes / pseconds:>11,.0f} n/s  "
              f"ratio {(nodes / seconds) / (pnodes / pseconds):.2f}")
    ours, peer = ours_nodes / ours_time, peer_nodes / peer_time
    print(f"total: gametool {ours:,.0f} nodes/s, python-chess {peer:,.0f} nodes/s, "
          f"ratio gametool/peer: {ours / peer:.2f}")


if __name__ == "__main__":
    main()
