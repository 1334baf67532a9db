"""Checks of a published master record against what the players were given.

A referee commits to a seed by sending its SHA-256 (``SeedHash``) to every player. When the
game ends the master record, with the seed, is published; these checks prove that the seed
matches the commitment, and that a player's exported record agrees with the master. That every
chance action follows from the seed is checked by reading the master itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gametool import storage
from gametool.chance import seed_hash
from gametool.errors import GameError, RecordError, Where
from gametool.record import Session, check_text, read_text


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


@dataclass(frozen=True)
class FileReport:
    """The verdict on one file: its JSON entry and the lines ``validate`` prints for it."""

    entry: dict[str, Any]
    lines: tuple[str, ...]
    errors: tuple[str, ...]
    ok: bool


def check_file(path: str, all_errors: bool = False, expected_hash: str | None = None,
               exported: str | None = None) -> FileReport:
    """Validate every record of the file ``path`` (a top-level function, so that it can run in
    a worker process): the first error of each record, or all with ``all_errors``."""
    try:
        extra = None
        if expected_hash is not None or exported is not None:
            extra = _commitment_check(expected_hash, exported)
        verdicts = check_text(storage.read(path), path, all_errors, extra)
    except GameError as exc:
        entry = {"file": path, "ok": False, "records": [], "error": str(exc)}
        return FileReport(entry, (), (f"gametool: {exc}",), False)
    records = [{
        "index": v.index, "line": v.line, "game": v.game, "plies": v.plies, "ok": v.ok,
        "errors": [{"line": e.where.line, "column": e.where.column, "ply": e.where.ply,
                    "kind": e.kind, "message": e.message} for e in v.errors],
    } for v in verdicts]
    ok = all(v.ok for v in verdicts)
    lines = [str(e) for v in verdicts for e in v.errors]
    if ok:
        plies = sum(v.plies for v in verdicts)
        lines.append(f"{path}: ok ({len(verdicts)} record{'s' * (len(verdicts) != 1)}, "
                     f"{plies} plies)")
    return FileReport({"file": path, "ok": ok, "records": records}, tuple(lines), (), ok)


def _commitment_check(expected_hash: str | None, exported: str | None
                      ) -> Callable[[Session], list[GameError]]:
    exported_text = storage.read(exported) if exported is not None else None

    def check(session: Session) -> list[GameError]:
        errors = []
        if expected_hash is not None:
            errors += check_seed_hash(session, expected_hash)
        if exported_text is not None:
            errors += check_against_export(session, exported_text, exported)
        return errors

    return check
