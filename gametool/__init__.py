"""gametool: play, check and replay board, card, dice, domino and tile games as text records."""

__version__ = "0.1.0"
