"""Leave and the time bank: a player's clock paused for days taken off, a reserve past the
deadline.

Leave. ``#leave DAYS`` by mail (or ``referee leave ADDRESS DAYS``) takes DAYS days off from now
(or from the end of a leave already taken), for every game of the player: while a seat is on
leave its time for a move does not run, so each deadline of that seat moves by the part of its
leave that falls in the turn. Each player has an allowance of days per calendar year
(``--leave-days``, 30 by default); leave is counted in the year it starts. The periods are kept
in ``GAME_DIR/leave.json`` (mode 0600): ``{"players": {ADDRESS: [[START, DAYS], ...]}}``.

Time bank. ``referee new --bank DAYS`` gives every seat a reserve, kept in the record's
``Bank`` tag (``SEAT=SECONDS; ...``, the seconds left to each seat, which every seat may know).
A seat whose time for a move is gone plays on its reserve before the game is lost by time
forfeit; a move made late spends the time past the deadline from the reserve of the seat that
made it. Reminders say how much is left.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from gametool.core import storage
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import Session
from gametool.referee import clock, roster, sidefiles
from gametool.referee.clock import Clock
from gametool.referee.mail import MailRejected
from gametool.referee.sidefiles import Sides

FILE = "leave.json"
DEFAULT_DAYS = 30
BANK_TAG = "Bank"


# -- leave ---------------------------------------------------------------------------------------


def _path(game_dir: str | Path) -> Path:
    return Path(game_dir) / FILE


def _load(path: Path, sides: Sides | None = None) -> dict[str, list[list]]:
    """Every player's leave as kept in ``path`` (empty: no file); :class:`Damaged` when the
    file is not one the referee wrote (a seat's leave must never stop counting silently)."""
    text = sidefiles.read(path, sides)
    if text is None:
        return {}
    data = sidefiles.parse_json(text, path, "leave file")
    what = "not a leave file the referee wrote"
    if not isinstance(data, dict) or not isinstance(data.get("players"), dict):
        raise sidefiles.damaged(path, f"{what} (no table of players)")
    players: dict[str, list[list]] = {}
    for player, taken in data["players"].items():
        if not isinstance(taken, list) or len(taken) > 10_000:
            raise sidefiles.damaged(path, f"{what} ({player[:60]!r}: not a list of periods)")
        for item in taken:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                    and isinstance(item[1], int) and not isinstance(item[1], bool)
                    and 1 <= item[1] <= 365):
                raise sidefiles.damaged(path, f"{what} ({player[:60]!r}: a period that is not "
                                        "a start and 1 to 365 days)")
            try:
                clock.parse_time(item[0])
            except GameError:
                raise sidefiles.damaged(path, f"{what} ({player[:60]!r}: the start "
                                        f"{item[0][:30]!r} is not a time)") from None
        players[player] = taken
    return players


def periods(game_dir: str | Path, player: str) -> list[tuple[datetime, datetime]]:
    """The player's leave periods (start, end); :class:`Damaged` when the leave file cannot
    be read (no deadline is computed without the leave it must count)."""
    taken = _load(_path(game_dir)).get(player.lower(), [])
    try:
        return [(clock.parse_time(start), clock.parse_time(start) + timedelta(days=days))
                for start, days in taken]
    except OverflowError:
        raise sidefiles.damaged(_path(game_dir), "a leave that ends past the year 9999"
                                ) from None


def take(game_dir: str | Path, player: str, days: int, moment: datetime,
         allowance: int = DEFAULT_DAYS, sides: Sides | None = None
         ) -> tuple[datetime, datetime, int]:
    """Take ``days`` days of leave for ``player`` from ``moment`` (or the end of the leave
    already running); return the period and the days left this year. Refused over the
    allowance. With ``sides`` (a mail under way) the file's new text is kept there, to be
    written with the mail; without, it is written now."""
    if not 1 <= days <= 365:
        raise MailRejected(f"'#leave {days}': give a whole number of days from 1 to 365")
    path = _path(game_dir)
    holder: list[tuple[datetime, datetime, int]] = []

    def change(players: dict[str, list[list]]) -> str:
        taken = players.setdefault(player.lower(), [])
        start = moment
        for begun, length in taken:
            end = clock.parse_time(begun) + timedelta(days=int(length))
            start = max(start, end)
        used = sum(int(length) for begun, length in taken
                   if clock.parse_time(begun).year == start.year)
        if used + days > allowance:
            raise MailRejected(f"'#leave {days}': you have {max(0, allowance - used)} days of "
                               f"leave left in {start.year} (of {allowance})")
        taken.append([clock.write_time(start), days])
        holder.append((start, start + timedelta(days=days), allowance - used - days))
        return json.dumps({"players": players}, indent=2, sort_keys=True) + "\n"

    if sides is not None:
        sides.write(path, change(_load(path, sides)))
        return holder[0]
    storage.private_folder(Path(game_dir))
    if not path.exists():
        storage.create(str(path), json.dumps({"players": {}}), mode=storage.PRIVATE_FILE)
    storage.update(str(path), lambda text: change(_load(path)), storage.PRIVATE_FILE)
    return holder[0]


def _overlap(spans: list[tuple[datetime, datetime]], start: datetime, end: datetime
             ) -> timedelta:
    total = timedelta(0)
    for begun, ended in spans:
        low, high = max(begun, start), min(ended, end)
        if high > low:
            total += high - low
    return total


def paused_until(spans: list[tuple[datetime, datetime]], start: datetime, span: timedelta
                 ) -> datetime:
    """The moment ``span`` of running time has passed since ``start``, the clock stopped
    during ``spans``."""
    end = start + span
    for _ in range(len(spans) + 1):
        later = start + span + _overlap(spans, start, end)
        if later == end:
            break
        end = later
    return end


# -- the time bank -------------------------------------------------------------------------------


def bank(session: Session) -> dict[str, int]:
    """The seconds left in each seat's reserve (empty: the game has no bank)."""
    text = session.record.get(BANK_TAG)
    out: dict[str, int] = {}
    for part in (text or "").split(";"):
        name, _eq, value = part.strip().rpartition("=")
        if name and value.isdigit():
            out[name] = int(value)
    return out


def set_bank(session: Session, left: dict[str, int]) -> None:
    session.record.set(BANK_TAG, "; ".join(f"{n}={left[n]}" for n in session.names
                                           if n in left) or None)


def start_bank(session: Session, days: int) -> None:
    set_bank(session, {name: days * 86400 for name in session.names})


def spend(session: Session, game_dir: str | Path, moment: datetime) -> None:
    """Before a new turn starts on the clock: the seat that ended the turn spends from its
    reserve the time past its deadline."""
    left = bank(session)
    if not left:
        return
    mover = next((step.seat for step in reversed(session.steps) if step.seat != CHANCE), None)
    if mover is None:
        return
    name = session.names[mover]
    deadline = deadline_of(session, game_dir, name, with_bank=False)
    if deadline is None or moment <= deadline or name not in left:
        return
    left[name] = max(0, left[name] - int((moment - deadline).total_seconds()))
    set_bank(session, left)


def deadline_of(session: Session, game_dir: str | Path, name: str, with_bank: bool = True,
                half: bool = False) -> datetime | None:
    """When seat ``name``'s time for the current turn is up: its days per move (half of them
    with ``half``), its leave not counted, then its reserve (``with_bank``). None when the
    record keeps no clock, or one whose time is up only past the year 9999 (never)."""
    timer = Clock(session.record)
    start, days = timer.turn_start(), timer.days
    if start is None or days is None:
        return None
    spans = periods(game_dir, name)
    try:
        span = timedelta(days=days / 2 if half else days)
        if with_bank and not half:
            span += timedelta(seconds=bank(session).get(name, 0))
        return paused_until(spans, start, span)
    except OverflowError:
        return None


def bank_text(session: Session, name: str) -> str:
    left = bank(session).get(name)
    if left is None:
        return ""
    return f" Your time bank: {left / 86400:.1f} days left."


def grant(game_dir: str | Path, player: str, days: int, moment: datetime,
          allowance: int = DEFAULT_DAYS, sides: Sides | None = None
          ) -> list[tuple[str, str, str]]:
    """Take the leave and say so: to the player, and once to every player it has a running
    game with (which games). Returns (to, subject, text) for each message."""

    start, end, left = take(game_dir, player, days, moment, allowance, sides)
    others: dict[str, list[str]] = {}
    for path, session in roster.games(game_dir, player):
        if session.outcome() is not None:
            continue
        for name in session.names:
            if name.lower() != player.lower():
                others.setdefault(name, []).append(path.stem)
    when = f"from {clock.write_time(start)} to {clock.write_time(end)} (UTC)"
    out = [(player, "[gametool] your leave",
            f"Your leave of {days} day{'s' * (days != 1)} runs {when}: your clock is paused in "
            f"every game meanwhile. Days of leave left in {start.year}: {left}.\n")]
    for name, games in sorted(others.items()):
        out.append((name, f"[gametool] {player} is on leave",
                    f"{player} is on leave {when}: their clock is paused meanwhile in your "
                    f"games {', '.join(games)}.\n"))
    return out
