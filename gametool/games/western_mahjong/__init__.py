"""Western Mahjong (``western-mahjong``): tiles and melds, the position, the rules, the game."""

from gametool.games.western_mahjong.game import WesternMahjong

__all__ = ["WesternMahjong"]
