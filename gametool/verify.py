"""Checks of a published master record against what the players were given.

A referee commits to a seed by sending its SHA-256 (``SeedHash``) to every player. When the
game ends the master record, with the seed, is published; these checks prove that the seed
matches the commitment, and that a player's exported record agrees with the master. That every
chance action follows from the seed is checked by reading the master itself.
"""

from __future__ import annotations

from gametool.chance import seed_hash
from gametool.errors import GameError, RecordError, Where
from gametool.record import Session, read_text


def check_seed_hash(master: Session, expected: str) -> list[GameError]:
    """The master's seed must hash to ``expected`` (the SeedHash the players received)."""
    tag = master.record.find("Seed")
    where = Where(master.file, tag.line if tag else master.record.line, 1)
    if master.seed is None:
        return [RecordError("the record has no Seed tag to check against the seed hash", where)]
    if seed_hash(master.seed) != expected.strip().lower():
        return [RecordError(f"the seed does not match the seed hash {expected.strip()}", where)]
    return []


def check_against_export(master: Session, text: str, file: str | None) -> list[GameError]:
    """An exported record must be the master, as its seat saw it at the ply it was made."""
    errors: list[GameError] = []
    (exported,) = read_text(text, file)[:1]
    view = exported.get("View")
    hashed = exported.get("SeedHash")
    if hashed is not None:
        errors += check_seed_hash(master, hashed)
    for name in ("Game", "Players"):
        if (exported.get(name) or "").lower() != (master.record.get(name) or "").lower():
            tag = exported.find(name)
            errors.append(RecordError(f"{name} differs from the master record",
                                      Where(file, tag.line if tag else 1, 1)))
    if errors:
        return errors
    seat = None
    if view and view != "spectator":
        try:
            seat = master.seat_index(view)
        except GameError as exc:
            return [RecordError(exc.message, Where(file, exported.line, 1))]
    written = [(line, action) for line in exported.turns for action in line.actions]
    if len(written) > master.ply:
        line, action = written[master.ply]
        return [RecordError("the exported record goes beyond the master record",
                            Where(file, line.line, action.column, master.ply + 1))]
    final = master.states[len(written)]
    for ply, (line, action) in enumerate(written):
        step = master.steps[ply]
        expected = master.game.mask_action(master.states[ply], step.action, final, seat)
        if " ".join(action.text.split()).lower() != " ".join(expected.split()).lower():
            errors.append(RecordError(
                f"{action.text!r} differs from the master record, which gives {expected!r}",
                Where(file, line.line, action.column, ply + 1)))
            break
    return errors
