"""Conditional moves by mail: ``#if ACTION then ACTION``, the sender's answer prepared in
advance.

In a game of two seats without hidden information, a seat whose opponent is to move may mail
lines ``#if THEIRS then MINE`` (several in one mail, after its own move if it makes one). Each
is checked at once on a copy of the game: THEIRS must be a legal action of the opponent now,
MINE a legal action of the sender right after it, and no chance action may come between (a
prepared answer never crosses chance). The lines are kept by the referee only, in
``GAME_DIR/MATCH.if`` (mode 0600), never in the record, so the opponent cannot read them.

When the opponent's turn arrives and is exactly THEIRS (the same canonical action), the referee
plays MINE at once, as the sender would have by mail; whatever the opponent plays, every other
prepared line is dropped. A turn taken back, a game over or anything else that moved the game
drops them too. A new ``#if`` mail replaces the lines kept before.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from gametool.core import storage
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import Session, load_one
from gametool.referee.mail import MailRejected

THEN = re.compile(r"\s+then\s+", re.IGNORECASE)
MAX_LINES = 20


def path_of(session: Session) -> Path:
    return Path(session.file).with_suffix(".if")


def allowed(session: Session) -> str | None:
    """Why conditional moves are refused in this game (None: allowed)."""
    game = session.game
    if len(session.names) != 2:
        return "conditional moves are for games of two seats"
    if str(game.hidden or "none").lower() not in ("", "none"):
        return (f"a game of {game.name} hides information, and a prepared answer could rest "
                "on what you cannot see: no conditional moves")
    return None


def prepare(session: Session, name: str, arguments: list[str]) -> tuple[str, dict]:
    """Check the sender's ``#if`` lines; the note for the sender and what :func:`keep` keeps
    once the whole mail is read."""
    why = allowed(session)
    if why is not None:
        raise MailRejected(why)
    if len(arguments) > MAX_LINES:
        raise MailRejected(f"more than {MAX_LINES} '#if' lines in one mail")
    if session.outcome() is not None:
        raise MailRejected("the game is over")
    me = session.seat_index(name)
    mover = session.to_move()
    if mover is None or mover == CHANCE or mover == me or session.is_waiting_for_seed():
        raise MailRejected("'#if' prepares your answer to your opponent's next action: send "
                           "it when your opponent is to move (after your own move, in the "
                           "same mail, if you like)")
    opponent = session.names[mover]
    kept: list[list[str]] = []
    for argument in arguments:
        parts = THEN.split(argument.strip())
        if len(parts) != 2 or not all(parts):
            raise MailRejected(f"'#if {argument[:60]}': write '#if ACTION then ACTION', "
                               "your opponent's action first, then your answer")
        theirs, mine = parts
        trial = load_one(session.text(), session.file)
        try:
            steps = trial.play([theirs], opponent, trial.ply + 1, draw=False)
        except GameError as exc:
            raise MailRejected(f"'#if {theirs[:60]}': not a legal action of {opponent} now: "
                               f"{exc}") from None
        if trial.stops_at_chance() or trial.to_move() != me or trial.outcome() is not None:
            after = ("the game is over" if trial.outcome() is not None
                     else "chance acts or it is not your move")
            raise MailRejected(f"'#if {theirs[:60]}': after it {after}, so no answer can be "
                               "prepared")
        try:
            trial.play([mine], name, trial.ply + 1, draw=False)
        except GameError as exc:
            raise MailRejected(f"'#if {theirs[:60]} then {mine[:60]}': your answer is not "
                               f"legal after it: {exc}") from None
        kept.append([" ".join(s.text for s in steps), mine])
    return (f"Prepared: {len(kept)} conditional move{'s' * (len(kept) != 1)} for your answer to "
            f"{opponent}'s next action; the others are dropped once one is played."), \
        {"seat": name, "ply": session.ply, "lines": kept}


def respond(session: Session) -> list[str]:
    """After a change by mail: play the prepared answer when the opponent's turn matches a
    kept line, drop the lines otherwise. Returns the actions played (none or one)."""
    path = path_of(session)
    if not path.is_file():
        return []
    try:
        kept = json.loads(storage.read(str(path)))
        seat, ply, lines = kept["seat"], int(kept["ply"]), kept["lines"]
    except (GameError, ValueError, KeyError, TypeError):
        _drop(path)
        return []
    me = session.names.index(seat) if seat in session.names else None
    if me is None or session.ply <= ply or session.outcome() is not None:
        if me is None or session.ply < ply or session.outcome() is not None:
            _drop(path)
        return []
    turn = session.steps[ply:]
    _drop(path)
    if any(step.seat in (CHANCE, me) for step in turn) or session.to_move() != me:
        return []
    played = " ".join(step.text for step in turn)
    for theirs, mine in lines:
        if theirs == played:
            try:
                session.play([mine], seat, session.ply + 1)
            except GameError:  # checked when kept; a game that changed otherwise drops it
                return []
            return [mine]
    return []


def keep(session: Session, data: dict) -> None:
    """Keep the lines :func:`prepare` checked (replacing any kept before)."""
    storage.write_atomic(str(path_of(session)), json.dumps(data), storage.PRIVATE_FILE)


def _drop(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
