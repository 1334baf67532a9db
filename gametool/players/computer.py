"""Computer players for every game: ``random``, ``greedy`` and ``mcts``.

A player picks an action for the seat to move. It reads the position only through what that
seat may see: before looking ahead it replaces everything the seat cannot see by a sample
(:meth:`Game.randomize_hidden`, "determinisation"), so a hidden card, tile or deck order can
never steer its choice. Every choice is drawn from a :class:`SeedRng` stream, so a given seed
gives the same play on every platform.

- ``random``: a uniformly random legal action.
- ``greedy``: the action whose resulting position the game's :meth:`Game.evaluate` rates best
  for the seat (score gain, material, pip count, ...); ties are broken at random.
- ``mcts``: open-loop Monte Carlo tree search with UCT selection and random playouts, over a
  fresh determinisation per iteration (information-set MCTS); ``budget`` iterations per choice,
  and, with ``think``, no more than that many seconds (the search stops at whichever comes
  first, so the same seed gives the same choice whenever the budget, not the clock, ends it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, Game, Outcome
from gametool.core.errors import GameError

KINDS = ("random", "greedy", "mcts")
DEFAULT_BUDGET = 200
DEFAULT_THINK = 0.5
"""Seconds an ``mcts`` choice may take at the terminal (``play``) and in ``move --auto``."""
EXPLORATION = 1.2
PLAYOUT_LIMIT = 400
SHORT_PLAYOUT = 8


def choose(kind: str, game: Game[Any, Any], state: Any, rng: SeedRng,
           budget: int | None = None, nseats: int | None = None,
           think: float | None = None, clock: Callable[[], float] = time.monotonic) -> Any:
    """The action that player ``kind`` takes for the seat to move in ``state``.

    ``nseats`` is the number of seats (by default the length of the game's score list, else 2).
    ``think`` bounds an ``mcts`` search in seconds (None or 0: only ``budget`` does), as
    ``clock`` tells them: the search reads it before each iteration and stops once ``think``
    seconds have passed since it began.
    """
    seat = game.to_move(state)
    if seat is None or seat == CHANCE:
        raise GameError("no player is to move")
    actions = game.legal_actions(state)
    if not actions:
        raise GameError(f"{game.id}: the seat to move has no legal action")
    if len(actions) == 1 or kind == "random":
        return rng.choice(actions)
    if kind == "greedy":
        return _greedy(game, state, seat, actions, rng)
    if kind == "mcts":
        if nseats is None:
            scores = game.scores(state)
            nseats = len(scores) if scores else 2
        deadline = clock() + think if think else None
        return _mcts(game, state, seat, actions, rng, budget or DEFAULT_BUDGET, nseats,
                     deadline, clock)
    raise GameError(f"unknown player {kind!r} (players: {', '.join(KINDS)})")


def _greedy(game: Game[Any, Any], state: Any, seat: int, actions: list[Any],
            rng: SeedRng) -> Any:
    sample = game.randomize_hidden(state, seat, rng)
    best: list[Any] = []
    best_value = -math.inf
    for action in actions:
        value = game.evaluate(game.apply(sample, action), seat)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best)


class _Node:
    """One node of the open-loop tree: the statistics of the action that leads to it."""

    __slots__ = ("children", "visits", "reward")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0


def rewards(outcome: Outcome) -> list[float]:
    """Each seat's reward in [0, 1] from an outcome: by rank, or by score when playing alone."""
    results = outcome.results
    n = len(results)
    if n == 1:
        score = results[0].score
        if score is None:
            return [1.0 if results[0].result == "win" else 0.0]
        return [0.5 + 0.5 * math.tanh(float(score) / 100.0)]
    worst = max(r.rank for r in results)
    if worst == 1:
        return [0.5] * n
    return [1.0 - (r.rank - 1) / (worst - 1) for r in results]


def _mcts(game: Game[Any, Any], state: Any, seat: int, actions: list[Any], rng: SeedRng,
          budget: int, nseats: int, deadline: float | None = None,
          clock: Callable[[], float] = time.monotonic) -> Any:
    root = _Node()
    step: Callable[[Any], Any] = game.apply
    informed = game.scores(state) is not None or type(game).evaluate is not Game.evaluate
    limit = SHORT_PLAYOUT if informed else PLAYOUT_LIMIT
    for iteration in range(budget):
        if deadline is not None and iteration and clock() >= deadline:
            break
        current = game.randomize_hidden(state, seat, rng)
        node = root
        path: list[tuple[_Node, int]] = []
        # Selection and expansion: follow UCT over the actions legal in this sample.
        while True:
            mover = game.to_move(current)
            if mover is None:
                break
            if mover == CHANCE:
                current = step(current, game.sample_chance(current, rng))
                continue
            legal = game.legal_actions(current)
            if not legal:
                break  # a sample the seat's view allows but the rules cannot go on from
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = rng.choice(untried)
                child = node.children[action] = _Node()
                current = step(current, action)
                path.append((child, mover))
                break
            log_parent = math.log(max(1, node.visits))
            action = max(legal, key=lambda a: _uct(node.children[a], log_parent))
            node = node.children[action]
            current = step(current, action)
            path.append((node, mover))
        # Playout: random to the end; where the game has a measure of its own (scores or an
        # evaluation), only a short way and then that measure decides.
        plies = 0
        while plies < limit:
            mover = game.to_move(current)
            if mover is None:
                break
            if mover == CHANCE:
                current = step(current, game.sample_chance(current, rng))
            else:
                legal = game.legal_actions(current)
                if not legal:
                    break
                current = step(current, rng.choice(legal))
            plies += 1
        outcome = game.outcome(current)
        if outcome is not None:
            values: list[float] | None = rewards(outcome)
        elif limit < PLAYOUT_LIMIT:
            values = _estimate(game, current, nseats)
        else:
            values = None
        for visited, mover in path:
            visited.visits += 1
            visited.reward += values[mover] if values is not None else 0.5
        root.visits += 1
    return max(actions, key=lambda a: (root.children[a].visits, root.children[a].reward)
               if a in root.children else (-1, 0.0))


def _estimate(game: Game[Any, Any], state: Any, nseats: int) -> list[float]:
    """Rewards of an unfinished position from the game's evaluation: the share of the other
    seats that each seat's evaluation beats (ties count half)."""
    values = [game.evaluate(state, seat) for seat in range(nseats)]
    if nseats == 1:
        return [0.5 + 0.5 * math.tanh(values[0] / 100.0)]
    return [(sum(1.0 if mine > other else 0.5 if mine == other else 0.0 for other in values)
             - 0.5) / (nseats - 1) for mine in values]


def _uct(node: _Node, log_parent: float) -> float:
    if node.visits == 0:
        return math.inf
    return node.reward / node.visits + EXPLORATION * math.sqrt(log_parent / node.visits)
