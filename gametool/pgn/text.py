"""The text of PGN as ``export --pgn`` writes it: lines of a given width, long algebraic and UCI
moves, comments and tag values escaped."""

from __future__ import annotations

from typing import Any


def wrap(units: list[str], width: int) -> list[str]:
    """Units (a move with its number, a NAG, a comment, a parenthesis) in lines of at most
    ``width`` characters; only a comment is broken inside, between its words."""
    lines: list[str] = []
    current = ""
    for unit in units:
        pieces = unit.split(" ") if unit.startswith("{") and len(unit) > width else [unit]
        for piece in pieces:
            if current and len(current) + 1 + len(piece) > width:
                lines.append(current)
                current = piece
            else:
                current = f"{current} {piece}" if current else piece
    if current:
        lines.append(current)
    return lines


def long_move(state: Any, action: int, san: str, uci: bool) -> str:
    """A move in long algebraic notation (Ng1-f3, e4xd5, e7-e8=Q+) or UCI (g1f3, e7e8q)."""
    from gametool.games.chess.board import EMPTY, PROMO_LETTERS, SQUARE_NAMES
    from gametool.games.chess.game import MOVE_MASK

    if san == "--":
        return "0000" if uci else "--"
    move = action & MOVE_MASK
    start, target, promo = move & 63, (move >> 6) & 63, move >> 12
    if uci:
        return SQUARE_NAMES[start] + SQUARE_NAMES[target] + PROMO_LETTERS[promo].strip().lower()
    if san.startswith("O-O"):
        return san
    piece = state.board[start].upper()
    capture = state.board[target] != EMPTY or (piece == "P" and (start ^ target) & 7)
    suffix = san[-1] if san[-1] in "+#" else ""
    return (("" if piece == "P" else piece) + SQUARE_NAMES[start] + ("x" if capture else "-")
            + SQUARE_NAMES[target] + (f"={PROMO_LETTERS[promo]}" if promo else "") + suffix)


def brace(text: str) -> str:
    return "{" + text.replace("}", ")") + "}"


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
