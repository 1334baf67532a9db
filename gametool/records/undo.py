"""Taking back the last turns of a record, as at a table where both players agree to it.

Only a local record can be taken back: one that holds every chance action in full (its
``Seed``, or no seed at all). The record is cut after an earlier ply and read again, so what
remains is checked like any record; its ``Result`` and ``Termination`` are cleared or set anew.
"""

from __future__ import annotations

import copy

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import Session
from notation import record as gtn


def last_turn_plies(session: Session) -> int:
    """The plies of the last turn of a player, with the chance actions that followed it."""
    steps = session.steps
    n = len(steps)
    while n and steps[n - 1].seat == CHANCE:
        n -= 1
    if n == 0:
        return 0
    seat = steps[n - 1].seat
    while n and steps[n - 1].seat == seat:
        n -= 1
    return len(steps) - n


def check_local(session: Session) -> None:
    """Refuse a record whose chance cannot be drawn again the same way after a cut."""
    record = session.record
    if record.get("View") is not None or (session.seed is None and record.get("SeedHash")):
        raise GameError("this record was exported for one seat: its chance actions cannot be "
                        "drawn again; take back turns on the master record")


def take_back(session: Session, plies: int) -> Session:
    """The session of the record without its last ``plies`` plies.

    Refused if chance would not be drawn again as it was (a seed that no longer gives the
    recorded chance actions), since taking back would then change what was already revealed.
    """
    check_local(session)
    if plies < 1:
        raise GameError("nothing to take back: no player has played yet")
    keep = session.ply - plies
    if keep < 0:
        have = f"{session.ply} {'ply' if session.ply == 1 else 'plies'}"
        raise GameError(f"the record has only {have}; cannot take back {plies}")
    # After the cut the seat to move plays again and chance is drawn again from the seed.
    # Chance that the seat cannot undo (drawn before its turn) must come out the same.
    game = session.game
    if session.seed is not None:
        for ply in range(keep, session.ply):
            step = session.steps[ply]
            if step.seat != CHANCE:
                break
            expected = game.sample_chance(session.states[ply], SeedRng(session.seed, ply + 1))
            if expected != step.action:
                raise GameError(f"ply {ply + 1}: the seed would draw "
                                f"{game.format_action(session.states[ply], expected)!r} instead "
                                f"of {step.text!r}; the record cannot be taken back there")
    record = _cut(session.canonical_record(), keep)
    record.set("Result", "*")
    record.set("Termination", None)
    out = Session.load(record, session.file)
    out.draw_chance()
    out.update_result_tags()
    return out


def _cut(record: gtn.Record, keep: int) -> gtn.Record:
    """A copy of ``record`` holding only its first ``keep`` actions (comments before them)."""
    out = copy.deepcopy(record)
    body: list[gtn.TurnLine | gtn.CommentLine] = []
    left = keep
    for item in out.body:
        if left == 0:
            break
        if isinstance(item, gtn.TurnLine):
            item.actions = item.actions[:left]
            left -= len(item.actions)
        body.append(item)
    out.body = body
    return out
