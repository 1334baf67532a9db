"""Seeded random self-play speed of a gametool game, optionally beside a peer in the same run.

    python bench/selfplay.py colors --seconds 5
    python bench/selfplay.py belemmer --peer pyspiel:backgammon
    python bench/selfplay.py chess --peer python-chess

Prints plies per second for gametool and, with --peer, for the peer (an OpenSpiel game through
``pyspiel``, or python-chess) and the ratio gametool/peer, each also in turns: a gametool ply is
one turn of one seat, while OpenSpiel's amazons takes three actions (plies) a turn. Peers are
optional installs (``pip install open-spiel chess``), never dependencies of gametool. Both
sides play uniformly random legal actions (chance drawn by each side's own means) for about the
same time. Times are the CPU time of this process (``time.process_time``; the peers run in it
too), so that other work on a shared machine does not count against either side.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from gametool import games
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE


def gametool_rate(game_id: str, seconds: float, seed: int, options: dict[str, str]
                  ) -> tuple[float, int, int]:
    game = games.playable_class(game_id)(options)
    rng = random.Random(seed)
    plies = played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.initial_state(game.players_default())
        ply = 0
        while True:
            seat = game.to_move(state)
            if seat is None:
                break
            if seat == CHANCE:
                action = game.sample_chance(state, SeedRng(f"bench-{played}", ply))
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
            ply += 1
        plies += ply
        played += 1
    return plies / (time.process_time() - start), plies, played


def pyspiel_rate(name: str, seconds: float, seed: int) -> tuple[float, int, int]:
    import pyspiel  # optional peer

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    plies = played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        played += 1
    return plies / (time.process_time() - start), plies, played


def python_chess_rate(seconds: float, seed: int) -> tuple[float, int, int]:
    import chess  # optional peer

    rng = random.Random(seed)
    plies = played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        played += 1
    return plies / (time.process_time() - start), plies, played


PEER_ACTIONS_PER_TURN = {"pyspiel:amazons": 3}
"""Actions (plies) a peer takes for one turn where that is not one: OpenSpiel's amazons splits a
turn into the queen's from-square, its to-square and the arrow."""


def peer_runner(peer: str) -> Callable[[float, int], tuple[float, int, int]]:
    if peer == "python-chess":
        return python_chess_rate
    if peer.startswith("pyspiel:"):
        name = peer.split(":", 1)[1]
        return lambda seconds, seed: pyspiel_rate(name, seconds, seed)
    raise SystemExit(f"unknown peer {peer!r}: use python-chess or pyspiel:GAME")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--peer", help="python-chess or pyspiel:GAME (e.g. pyspiel:amazons)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    rate, plies, played = gametool_rate(args.game, args.seconds, args.seed, options)
    print(f"gametool {args.game}: {rate:,.0f} plies/s = {rate:,.0f} turns/s ({played} games, "
          f"{plies} plies, one ply a turn)")
    if args.peer:
        peer_rate, peer_plies, peer_played = peer_runner(args.peer)(args.seconds, args.seed)
        per_turn = PEER_ACTIONS_PER_TURN.get(args.peer, 1)
        print(f"peer {args.peer}: {peer_rate:,.0f} plies/s = {peer_rate / per_turn:,.0f} turns/s "
              f"({peer_played} games, {peer_plies} plies, {per_turn} a turn)")
        print(f"ratio gametool/peer: {rate / peer_rate:.2f} in plies, "
              f"{rate / (peer_rate / per_turn):.2f} in turns")


if __name__ == "__main__":
    main()
