"""The referee's clock: days per move, kept in the master record as tags, in UTC.

``MoveDays`` is the number of days a seat has for each move, ``TurnStart`` the moment the
current turn began (the last change the referee applied), ``Reminded`` the ``TurnStart`` of the
turn whose seat has been reminded, and ``Ended`` the moment a game refereed by mail ended. Times
are written ``2026-11-26T09:30:00Z``. ``GAMETOOL_NOW`` (the same form) or a command's ``--now``
sets the clock, for tests and for replaying a season.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from gametool.core.errors import GameError

NOW_VARIABLE = "GAMETOOL_NOW"
DAYS_TAG = "MoveDays"
START_TAG = "TurnStart"
REMINDED_TAG = "Reminded"
ENDED_TAG = "Ended"
MAX_DAYS = 365


def parse_time(text: str, where: str = "time") -> datetime:
    """A UTC moment written ``YYYY-MM-DDTHH:MM[:SS]Z`` (or a date alone)."""
    value = text.strip()
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise GameError(f"{where} {text[:40]!r}: write a UTC time as 2026-11-26T09:30:00Z"
                        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def write_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def now(given: str | None = None) -> datetime:
    """``given``, else ``GAMETOOL_NOW``, else the real time; always UTC."""
    if given:
        return parse_time(given, "--now")
    fixed = os.environ.get(NOW_VARIABLE)
    if fixed:
        return parse_time(fixed, NOW_VARIABLE)
    return datetime.now(UTC).replace(microsecond=0)


def check_days(days: int) -> int:
    if not 1 <= days <= MAX_DAYS:
        raise GameError(f"days per move {days}: give a whole number from 1 to {MAX_DAYS}")
    return days


class Clock:
    """The clock tags of one record (``record`` is a notation record with get/set)."""

    def __init__(self, record: object) -> None:
        self.record = record

    def _get(self, tag: str) -> str | None:
        return self.record.get(tag)  # type: ignore[attr-defined]

    def _set(self, tag: str, value: str | None) -> None:
        self.record.set(tag, value)  # type: ignore[attr-defined]

    @property
    def days(self) -> int | None:
        text = self._get(DAYS_TAG)
        return int(text) if text and text.strip().isdigit() else None

    def start(self, days: int, moment: datetime) -> None:
        self._set(DAYS_TAG, str(check_days(days)))
        self.restart(moment)

    def restart(self, moment: datetime) -> None:
        """A new turn begins now (a move, a join, a move taken back); a clock read behind the
        turn's start never moves it back."""
        if self._get(DAYS_TAG) is None:
            return
        try:
            start = self.turn_start()
        except GameError:
            start = None
        if start is None or moment > start:
            self._set(START_TAG, write_time(moment))

    def turn_start(self) -> datetime | None:
        text = self._get(START_TAG)
        return parse_time(text, START_TAG) if text else None

    def deadline(self) -> datetime | None:
        """When the turn's time is up; None when the record keeps no clock, or one whose
        time is up only past the year 9999 (which is never)."""
        return self._after(1)

    def half_time(self) -> datetime | None:
        return self._after(0.5)

    def _after(self, share: float) -> datetime | None:
        start, days = self.turn_start(), self.days
        if start is None or days is None:
            return None
        try:
            return start + timedelta(days=days * share)
        except OverflowError:
            return None

    def reminded(self) -> bool:
        """Whether the seat of the current turn has been reminded already."""
        reminded = self._get(REMINDED_TAG)
        return reminded is not None and reminded == self._get(START_TAG)

    def mark_reminded(self) -> None:
        self._set(REMINDED_TAG, self._get(START_TAG))

    def mark_ended(self, moment: datetime) -> None:
        self._set(ENDED_TAG, write_time(moment))
