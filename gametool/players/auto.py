"""Automatic players. ``random_game`` plays a whole seeded game with uniformly random actions.

The choices come from the seeded stream of :mod:`gametool.core.chance` (with a ``players`` salt, so
they never coincide with the record's chance actions): the same seed gives the same game on
every platform.
"""

from __future__ import annotations

from typing import Any

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, Game
from gametool.core.errors import GameError
from gametool.records import Session


def random_action(game: Game[Any, Any], state: Any, rng: SeedRng) -> Any:
    """A uniformly random legal action for the seat to move (or chance)."""
    if game.to_move(state) == CHANCE:
        return game.sample_chance(state, rng)
    actions = game.legal_actions(state)
    if not actions:
        raise GameError(f"{game.id}: the seat to move has no legal action (a dead end)")
    return rng.choice(actions)


def random_game(game_id: str, seed: str, names: list[str] | None = None,
                options: dict[str, str] | None = None, max_plies: int | None = None) -> Session:
    """A complete game (or ``max_plies`` plies) of random play, as a seeded record."""
    session = Session.start(game_id, names, options, seed)
    limit = max_plies if max_plies is not None else session.game.max_plies
    while not session.game.is_over(session.state) and session.ply < limit:
        rng = SeedRng(f"{seed}:players", session.ply + 1)
        actions = session.game.legal_actions(session.state)
        if not actions:
            raise GameError(f"{game_id}: the seat to move has no legal action (a dead end)")
        session.push(rng.choice(actions))
    return session


def random_playout(game: Game[Any, Any], state: Any, seed: str, limit: int) -> tuple[Any, int]:
    """Play random actions (chance included) from ``state``; return the final state and plies."""
    ply = 0
    while ply < limit and game.to_move(state) is not None:
        state = game.apply(state, random_action(game, state, SeedRng(seed, ply)))
        ply += 1
    return state, ply
