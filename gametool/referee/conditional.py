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

Fair play: the lines are checked against what the sender has seen, never past it. After a
move in the same mail that chance answered (a roll), they are refused with words that name no
draw; a refused mail keeps and drops nothing (the file changes with the mail, through
:mod:`gametool.referee.sidefiles`), and the opponent's prepared answer is played only once the
sender's whole mail is checked, so no refusal tells whether one exists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import Session, load_one
from gametool.referee import sidefiles
from gametool.referee.mail import MailRejected
from gametool.referee.sidefiles import Sides

THEN = re.compile(r"\s+then\s+", re.IGNORECASE)
MAX_LINES = 20


def path_of(session: Session) -> Path:
    return Path(session.file).with_suffix(".if")


def allowed(session: Session) -> str | None:
    """Why conditional moves are refused in this game (None: allowed). Depends on the game
    and its seats only, never on the position: the same words under any seed."""
    game = session.game
    if len(session.names) != 2:
        return "conditional moves are for games of two seats"
    if str(game.hidden or "none").lower() not in ("", "none"):
        return (f"a game of {game.name} hides information, and a prepared answer could rest "
                "on what you cannot see: no conditional moves")
    return None


CHANCE_BETWEEN = ("'#if' with a move in the same mail: chance acts after your move, before "
                  "your opponent's, and an answer prepared now would be checked against a draw "
                  "you have not seen; send '#if' in a mail of its own once you have your view "
                  "with your opponent to move")
"""The refusal of ``#if`` past a draw this mail caused: the same bytes whatever was drawn."""


def drawn_since(session: Session, ply: int) -> bool:
    """Whether chance drew anything (an action with more than one outcome) since ply index
    ``ply``: what the sender of a mail begun at ``ply`` has not seen."""
    for index in range(ply, session.ply):
        if session.steps[index].seat != CHANCE:
            continue
        outcomes = session.game.chance_outcomes(session.states[index])
        if outcomes is None or len(outcomes) != 1:
            return True
    return False


def check_lines(session: Session, arguments: list[str]) -> None:
    """What can be refused of ``#if`` lines before anything in the mail is played: the game,
    their number and their shape (the same words in any position)."""
    why = allowed(session)
    if why is not None:
        raise MailRejected(why)
    if len(arguments) > MAX_LINES:
        raise MailRejected(f"more than {MAX_LINES} '#if' lines in one mail")
    triggers: set[str] = set()
    for argument in arguments:
        parts = THEN.split(argument.strip())
        if len(parts) != 2 or not all(parts):
            raise MailRejected(f"'#if {argument[:60]}': write '#if ACTION then ACTION', "
                               "your opponent's action first, then your answer")
        trigger = " ".join(parts[0].split()).lower()
        if trigger in triggers:
            raise MailRejected(f"'#if {parts[0][:60]}' twice: one answer to each action of "
                               "your opponent")
        triggers.add(trigger)


def prepare(session: Session, name: str, arguments: list[str], seen: int | None = None
            ) -> tuple[str, dict]:
    """Check the sender's ``#if`` lines; the note for the sender and what :func:`keep` keeps
    once the whole mail is read. ``seen``: the ply index the mail began at (the position its
    sender saw); past a draw since, the lines are refused unread (:data:`CHANCE_BETWEEN`)."""
    check_lines(session, arguments)
    if seen is not None and drawn_since(session, seen):
        raise MailRejected(CHANCE_BETWEEN)
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
    played: set[str] = set()
    for argument in arguments:
        theirs, mine = THEN.split(argument.strip())
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
        action = " ".join(s.text for s in steps)
        if action in played:  # two spellings of one action
            raise MailRejected(f"'#if {theirs[:60]}': the same action as another '#if' line; "
                               "one answer to each action of your opponent")
        played.add(action)
        kept.append([action, mine])
    return (f"Prepared: {len(kept)} conditional move{'s' * (len(kept) != 1)} for your answer to "
            f"{opponent}'s next action; the others are dropped once one is played."), \
        {"seat": name, "ply": session.ply, "lines": kept}


def read(path: Path, sides: Sides | None = None) -> dict | None:
    """The prepared lines kept at ``path`` (None: none); :class:`Damaged` when the file is not
    one the referee wrote, so that nothing is played or dropped on it."""
    text = sidefiles.read(path, sides)
    if text is None:
        return None
    data = sidefiles.parse_json(text, path, "prepared-moves file")
    what = "not a prepared-moves file the referee wrote"
    if not isinstance(data, dict) or set(data) != {"seat", "ply", "lines"}:
        raise sidefiles.damaged(path, f"{what} (not the table of seat, ply and lines)")
    seat, ply, lines = data["seat"], data["ply"], data["lines"]
    if not isinstance(seat, str) or not isinstance(ply, int) or isinstance(ply, bool) \
            or not 0 <= ply <= 10 ** 6:
        raise sidefiles.damaged(path, f"{what} (its seat or ply)")
    if not isinstance(lines, list) or not 1 <= len(lines) <= MAX_LINES or not all(
            isinstance(line, list) and len(line) == 2
            and all(isinstance(part, str) and 0 < len(part) <= 2000 for part in line)
            for line in lines):
        raise sidefiles.damaged(path, f"{what} (its lines)")
    return data


def respond(session: Session, sides: Sides) -> list[str]:
    """Once a mail is kept: play the prepared answer when the opponent's turn matches a kept
    line, drop the lines otherwise (in ``sides``, written with the mail). Returns the actions
    played (none or one)."""
    path = path_of(session)
    kept = read(path, sides)
    if kept is None:
        return []
    seat, ply, lines = kept["seat"], kept["ply"], kept["lines"]
    me = session.names.index(seat) if seat in session.names else None
    if me is None or session.ply <= ply or session.outcome() is not None:
        if me is None or session.ply < ply or session.outcome() is not None:
            sides.remove(path)
        return []
    turn = session.steps[ply:]
    sides.remove(path)
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


def keep(session: Session, data: dict, sides: Sides) -> None:
    """Keep the lines :func:`prepare` checked (replacing any kept before), with the mail."""
    sides.write(path_of(session), json.dumps(data))
