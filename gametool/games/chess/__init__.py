"""Chess and Super Horse Chess on one core (board, moves, FEN, SAN, PGN).

The game classes are loaded on first use, so that a chess command never loads Super Horse
Chess and the other way round.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_CLASSES = {"Chess": "gametool.games.chess.game", "SuperHorseChess": "gametool.games.chess.horse"}

__all__ = ["Chess", "SuperHorseChess"]


def __getattr__(name: str) -> Any:
    if name in _CLASSES:
        return getattr(import_module(_CLASSES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
