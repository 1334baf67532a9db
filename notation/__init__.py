"""Syntax of gametool records and of the tokens games are written in. Knows no rules.

``notation.record`` reads and writes ``.gtn`` records; ``notation.tokens`` holds the shared token
grammars (squares, cards, dominoes, dice, mahjong tiles) that games build their move grammars
from. Nothing here imports ``gametool``.
"""

from notation.errors import NotationError

__all__ = ["NotationError"]
