"""Chess and Super Horse Chess on one core (board, moves, FEN, SAN, PGN)."""

from gametool.games.chess.game import Chess
from gametool.games.chess.horse import SuperHorseChess

__all__ = ["Chess", "SuperHorseChess"]
