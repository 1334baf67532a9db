"""Hints for a rejected action: the closest legal actions of the seat that typed it, and a word
about quoting an action that the shell cut into several words."""

from __future__ import annotations

from typing import Any

from gametool.core.engine import CHANCE
from gametool.core.errors import GameError, IllegalAction, MalformedAction
from gametool.core.suggest import hint


def typed_action(exc: Exception, actions: list[str] | tuple[str, ...], first: int) -> str:
    """Which of the ``actions`` typed from ply ``first + 1`` on the error ``exc`` is about."""
    where = getattr(exc, "where", None)
    ply = getattr(where, "ply", None) or first + 1
    return actions[min(len(actions) - 1, max(0, ply - first - 1))] if actions else ""


def with_hint(exc: Any, session: Any, text: str, as_seat: str | None,
              shell: bool = True) -> Any:
    """Add the closest legal actions to a rejected action's message, when the seat that typed
    it is the seat to move (a seat never learns another seat's actions). The same hint for
    'move', 'move --dry-run', 'play' and the referee's reply. With ``shell`` (the actions
    were shell words), the first word of actions with a blank gets a word about quoting."""
    if not isinstance(exc, MalformedAction | IllegalAction):
        return exc
    game, state = session.game, session.state
    try:
        to_move = game.to_move(state)
        if to_move is None or (as_seat is not None and session.seat_index(as_seat) != to_move):
            return exc
        if to_move == CHANCE:
            outcomes = game.chance_outcomes(state)
            if outcomes is None or len(outcomes) > 500:
                return exc
            known = [game.format_action(state, a) for a in outcomes]
        else:
            known = [game.format_action(state, a) for a in game.legal_actions(state)]
    except GameError:
        return exc
    word = " ".join(text.split())
    exc.message += (shell and quoting(word, known)) or hint(word, known)
    return exc


def quoting(word: str, known: list[str]) -> str:
    """A hint for an action that holds a blank typed as several shell words: the first word
    of legal actions alone ('place' for 'place a1')."""
    heads = {k.split()[0].lower() for k in known if " " in k}
    if word and " " not in word and word.lower() in heads:
        example = next(k for k in known if k.split()[0].lower() == word.lower())
        return (f" (an action with a blank is one word for the shell: quote it, "
                f"\"{example}\")")
    return ""
