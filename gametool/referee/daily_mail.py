"""The daily digest: one mail a day listing every game waiting for a player's move, instead of
one mail at each move.

A player asks for it by mail (``#digest daily``, ``#digest off``, under the key of any of its
games or its own player key) or the referee sets it (``referee allow ADDRESS --digest daily``).
The setting is kept in ``GAME_DIR/digest.json`` (mode 0600, replaced atomically under its lock,
as ``leave.json`` is): ``{"players": {ADDRESS: {"digest": "daily", "sent": "YYYY-MM-DD"}}}``,
``sent`` being the last calendar day (UTC, on the referee's clock) a digest went to the player.

Such a player gets no mail whose only news is that a game waits for its move (an ``Outgoing``
marked ``turn``): ``tick`` sends at most one digest per calendar day instead, listing each game
waiting for the player with the view that seat has (the same text as the mail it replaces,
never more) and its deadline. Every other mail (openings with their keys, reminders, game over,
notes, refusals) goes out at once. A digest is journaled as ``tick``'s other work is: its entry
(``digest-...`` in ``OUTBOX/.journal``) is written first, then the day is marked sent, then the
mail is written; a run killed anywhere is finished by the next one, and never sends the same
day's digest twice.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from gametool.core import storage
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.referee import roster, sidefiles
from gametool.referee.mail import MailRejected
from gametool.referee.mail.outgoing import Outgoing
from gametool.referee.sidefiles import Sides

FILE = "digest.json"
MODES = ("daily", "off")
ENTRY = "digest-"  # the journal entries of digests (not a mail's: their keys are not 64 long)


def _path(game_dir: str | Path) -> Path:
    return Path(game_dir) / FILE


def _read(game_dir: str | Path, sides: Sides | None = None) -> dict[str, dict[str, str]]:
    """The players' settings (empty: no file); :class:`Damaged` when the file is not one the
    referee wrote (digests never stop, nor turn into a mail a move, silently)."""
    path = _path(game_dir)
    text = sidefiles.read(path, sides)
    if text is None:
        return {}
    data = sidefiles.parse_json(text, path, "digest file")
    what = "not a digest file the referee wrote"
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, dict):
        raise sidefiles.damaged(path, f"{what} (no table of players)")
    for name, value in players.items():
        if not isinstance(value, dict) or not set(value) <= {"digest", "sent"} or not all(
                isinstance(item, str) and len(item) <= 20 for item in value.values()):
            raise sidefiles.damaged(path, f"{what} ({name[:60]!r}: not a digest setting)")
        if value.get("digest", "daily") != "daily":
            raise sidefiles.damaged(path, f"{what} ({name[:60]!r}: the digest "
                                    f"{value['digest'][:20]!r})")
    return players


def daily_players(game_dir: str | Path) -> set[str]:
    """The addresses (lower case) of the players who take the daily digest."""
    return {name for name, value in _read(game_dir).items() if value.get("digest") == "daily"}


def mode_of(game_dir: str | Path, player: str) -> str:
    return "daily" if player.lower() in daily_players(game_dir) else "off"


def _change(game_dir: str | Path, player: str, edit: Any, sides: Sides | None = None) -> None:
    """Change one player's setting; with ``sides`` (a mail under way) the new text is kept
    there, to be written with the mail."""
    path = _path(game_dir)

    def change(_text: str = "") -> str:
        players = dict(_read(game_dir, sides))
        value = dict(players.get(player.lower(), {}))
        edit(value)
        if value.get("digest") == "daily" or value.get("sent"):
            players[player.lower()] = value
        else:
            players.pop(player.lower(), None)
        return json.dumps({"players": players}, indent=2, sort_keys=True) + "\n"

    if sides is not None:
        sides.write(path, change())
        return
    storage.private_folder(Path(game_dir))
    if not path.exists():
        try:
            storage.create(str(path), json.dumps({"players": {}}) + "\n",
                           mode=storage.PRIVATE_FILE)
        except GameError:
            if not path.exists():
                raise
    storage.update(str(path), change, storage.PRIVATE_FILE)


def set_mode(game_dir: str | Path, player: str, mode: str, sides: Sides | None = None) -> str:
    """Set ``player``'s digest to ``mode`` (daily or off); return the mode it had."""
    if mode not in MODES:
        raise MailRejected(f"'#digest {mode[:20]}': write '#digest daily' or '#digest off'")
    before = "daily" if _read(game_dir, sides).get(player.lower(), {}).get("digest") else "off"

    def edit(value: dict[str, str]) -> None:
        if mode == "daily":
            value["digest"] = "daily"
        else:
            value.pop("digest", None)

    _change(game_dir, player, edit, sides)
    return before


def told(mode: str, player: str) -> Outgoing:
    """The mail that tells a player its digest setting."""
    if mode == "daily":
        text = ("Your digest is daily: from now on you get no mail at each move that waits for "
                "you, but one mail a day listing every game waiting for your move, each with "
                "your view and its deadline. Reminders, the end of a game, notes and refusals "
                "still come at once. To answer a game, reply with the game's tag (as its "
                "heading in the digest shows it) on a line of its own, then that game's key "
                "line, '#ply N' and your actions. The line '#digest off' brings back a mail at "
                "each move.\n")
    else:
        text = ("Your digest is off: each move that waits for you comes by mail at once again, "
                "from the next one on ('#games' lists your games now).\n")
    return Outgoing(player, "[gametool] your digest", text)


def keep(game_dir: str | Path, messages: list[Outgoing]) -> list[Outgoing]:
    """The messages to write now: a mail whose only news is a move waiting for a player who
    takes the digest goes into the digest instead."""
    if not any(m.turn for m in messages):
        return messages
    daily = daily_players(game_dir)
    return [m for m in messages if not (m.turn and m.to.lower() in daily)]


# -- the digest, sent by tick --------------------------------------------------------------------


def _sent_on(game_dir: str | Path, player: str) -> str | None:
    return _read(game_dir).get(player.lower(), {}).get("sent")


def _mark_sent(game_dir: str | Path, player: str, day: str) -> None:
    def edit(value: dict[str, str]) -> None:
        value["sent"] = day

    _change(game_dir, player, edit)


def waiting_games(ref: Any, player: str) -> list[tuple[str, Outgoing]]:
    """Every game that waits for ``player``'s move: its match id and the mail that seat would
    get now (its view, its legal actions and its deadline)."""
    out = []
    for path, session in roster.games(ref.game_dir, player):
        if session.outcome() is not None or session.is_waiting_for_seed():
            continue
        seat = session.to_move()
        if seat is None or seat == CHANCE or session.names[seat].lower() != player.lower():
            continue
        mails = [m for m in ref.messages(path.stem, session) if m.turn
                 and m.to.lower() == player.lower()]
        if mails:
            out.append((path.stem, mails[0]))
    return out


def compose(player: str, day: str, games: list[tuple[str, Outgoing]]) -> Outgoing:
    count = len(games)
    head = (f"Your daily digest of {day}: {count} game{'s' * (count != 1)} "
            f"{'wait' if count != 1 else 'waits'} for your move.\n\n"
            "Answer one game a mail: reply to this mail with, in your own text, the game's tag "
            "as\nits heading below shows it (the word gametool and the game's id in square "
            "brackets)\non a line of its own, then the key line of that game, then the ply line "
            "and your\nactions, as any mail of that game asks. Replying to any mail of the game "
            "works too.\n")
    parts = [head]
    for match, mail in games:
        parts.append(f"==== [gametool {match}] ====\n\n{mail.body.rstrip()}\n")
    return Outgoing(player, f"[gametool] your digest of {day}: {count} game"
                            f"{'s' * (count != 1)} waiting", "\n".join(parts))


def finish_pending(ref: Any, journal: Any) -> int:
    """Finish the digests a run cut short left in the journal; return how many."""
    done = 0
    for key in journal.keys():
        if not key.startswith(ENTRY):
            continue
        entry = journal.read(key)
        player, day = (entry or {}).get("player"), (entry or {}).get("day")
        if entry is None or not isinstance(player, str) or not isinstance(day, str):
            journal.remove(key)
            continue
        _mark_sent(ref.game_dir, player, day)
        ref.write_files([(a, b) for a, b in entry["files"]])
        journal.remove(key)
        done += 1
    return done


def send(ref: Any, journal: Any, moment: datetime) -> tuple[int, int, list[str]]:
    """Send today's digest to every player who takes it and has not had one today, when a game
    waits for it. Returns the digests sent, the mails written and the failures (one line each;
    one player's trouble stops no other's digest)."""
    day = moment.date().isoformat()
    sent = written = 0
    errors: list[str] = []
    for player in sorted(daily_players(ref.game_dir)):
        try:
            if _sent_on(ref.game_dir, player) == day:
                continue
            games = waiting_games(ref, player)
            if not games:
                continue
            files = ref.render_files([compose(player, day, games)])
            key = ENTRY + hashlib.sha256(f"{player}\n{day}".encode()).hexdigest()[:32]
            journal.write(key, {"record": None, "files": files, "player": player, "day": day})
            _mark_sent(ref.game_dir, player, day)
            ref.write_files(files)
            journal.remove(key)
        except GameError as exc:
            errors.append(f"digest for {player}: {exc}")
            continue
        sent += 1
        written += len(files)
    return sent, written, errors
