"""Ending a game by forfeit, the one way the referee does it: by the clock (``tick``) or by a
withdrawal from a tournament. The seats that forfeit lose to every other seat; nothing is
decided among the others; any offer lapses and the clock marks the end."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from gametool.core.engine import Outcome
from gametool.records import Session
from gametool.referee import leave
from gametool.referee.clock import Clock

OFFER_TAGS = ("DrawOffer", "UndoRequest")


def end_by_forfeit(session: Session, losers: list[str], reason: str, moment: datetime) -> None:
    """End ``session`` off the board: ``losers`` ranked below every other seat, for
    ``reason`` (the record's Termination)."""
    ranks = ["2" if seat in losers else "1" for seat in session.names]
    result = Outcome.from_tag("-".join(ranks), len(ranks), reason).result_tag()
    session.end_off_board(result, reason)
    for tag in OFFER_TAGS:
        session.record.set(tag, None)
    Clock(session.record).mark_ended(moment)


def _days(count: float) -> str:
    whole = round(count, 1)
    text = f"{whole:g}"
    return f"{text} day" if whole == 1 else f"{text} days"


def lateness(session: Session, game_dir: str | Path, name: str, moment: datetime) -> str:
    """Why seat ``name`` is out of time, as it stands: its days a move, the leave that did not
    count and the time bank it spent ("did not move within 3 days a move, 18 days of leave not
    counted, and its time bank of 2 days")."""
    timer = Clock(session.record)
    days = timer.days or 0
    text = f"did not move within {_days(days)} a move"
    start = timer.turn_start()
    if start is not None:
        paused = sum((min(end, moment) - max(begun, start)
                      for begun, end in leave.periods(game_dir, name)
                      if min(end, moment) > max(begun, start)), timedelta(0))
        if paused > timedelta(0):
            text += f", {_days(paused.total_seconds() / 86400)} of leave not counted"
    bank = leave.bank(session).get(name)
    if bank:
        text += f", and its time bank of {_days(bank / 86400)}"
    return text
