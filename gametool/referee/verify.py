"""Checks of a published master record against what the players were given and sent.

A referee commits to a seed by sending its SHA-256 (``SeedHash``) to every player. In a jointly
drawn record that seed is the referee's secret, and the seed chance draws from is the hash of
the secret and every seat's contribution (the ``Contributions`` tag). When the game ends the
master record, with every part, is published; these checks prove that the secret matches the
commitment, that each contribution is the one its seat sent, and that a player's exported
record agrees with the master. That every chance action follows from the parts is checked by
reading the master itself.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

from gametool import sources
from gametool.core.chance import check_contribution, seed_hash
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError, RecordError, Where
from gametool.records import (
    Checked,
    Session,
    check_lines,
    check_text,
    parse_contributions,
    read_text,
)
from gametool.sources import progress
from gametool.sources.distribute import Part
from notation import record as gtn


def check_seed_hash(master: Session, expected: str,
                    referee_only: bool = False) -> list[GameError]:
    """The master's seed must hash to ``expected`` (the SeedHash the players received), and,
    unless ``referee_only`` says it was agreed, chance must not have drawn from the referee's
    secret alone: a record that drew with no seat's contribution says so."""
    tag = master.record.find("Seed")
    where = Where(master.file, tag.line if tag else master.record.line, 1)
    if master.secret is None:
        return [RecordError("the record has no Seed tag to check against the seed hash", where)]
    if seed_hash(master.secret) != expected.strip().lower():
        return [RecordError(f"the seed does not match the seed hash {expected.strip()}", where)]
    if not referee_only and master.contributions is None and drew_from_seed(master):
        return [RecordError("no seat contributed to the seed: chance drew from the referee's "
                            "secret alone, which the referee could choose (add "
                            "--referee-only-seed if that was agreed)", where)]
    return []


def drew_from_seed(session: Session) -> bool:
    """Whether some chance action of the record was drawn (had more than one outcome)."""
    for ply, step in enumerate(session.steps):
        if step.seat == CHANCE:
            outcomes = session.game.chance_outcomes(session.states[ply])
            if outcomes is None or len(outcomes) != 1:
                return True
    return False


def check_contribution_sent(master: Session, seat_name: str, sent: str) -> list[GameError]:
    """The master's contribution for ``seat_name`` must be ``sent``, as that seat sent it."""
    tag = master.record.find("Contributions")
    where = Where(master.file, tag.line if tag else master.record.line, 1)
    if master.contributions is None:
        return [RecordError("the record's seed is not drawn jointly: it has no Contributions "
                            "tag", where)]
    try:
        seat = master.seat_index(seat_name)
        value = check_contribution(sent)
    except (GameError, ValueError) as exc:
        return [RecordError(str(getattr(exc, "message", exc)), where)]
    if seat < 0:
        return [RecordError("the chance seat sends no contribution", where)]
    recorded = master.contributions[seat]
    if recorded is None:
        return [RecordError(f"{master.names[seat]}'s contribution is missing", where)]
    if recorded != value:
        return [RecordError(f"{master.names[seat]}'s contribution is {recorded}, not {value} as "
                            "sent", where)]
    return []


def _check_exported_contributions(master: Session, exported: gtn.Record,
                                  file: str | None) -> list[GameError]:
    """Every contribution an exported record shows must be the master's."""
    shown = exported.get("Contributions")
    if shown is None:
        return []
    tag = exported.find("Contributions")
    where = Where(file, tag.line if tag else exported.line, 1)
    if master.contributions is None:
        return [RecordError("the exported record has contributions but the master has none",
                            where)]
    try:
        parts = parse_contributions(shown, len(master.names))
    except GameError as exc:
        return [RecordError(exc.message, where)]
    for name, part, recorded in zip(master.names, parts, master.contributions, strict=True):
        if part is not None and part != recorded:
            return [RecordError(f"{name}'s contribution differs from the master record", where)]
    return []


def check_against_export(master: Session, text: str, file: str | None) -> list[GameError]:
    """An exported record must be the master, as its seat saw it at the ply it was made."""
    errors: list[GameError] = []
    (exported,) = read_text(text, file)[:1]
    view = exported.get("View")
    hashed = exported.get("SeedHash")
    if hashed is not None:
        errors += check_seed_hash(master, hashed, referee_only=True)
    errors += _check_exported_contributions(master, exported, file)
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
    masked = master.game.mask_record(master.states[:len(written) + 1],
                                     [step.action for step in master.steps[:len(written)]], seat)
    for ply, (line, action) in enumerate(written):
        expected = masked[ply]
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
               exported: str | None = None,
               contributions: tuple[tuple[str, str], ...] = (),
               referee_only: bool = False) -> FileReport:
    """Validate every record of the file ``path``: the first error of each record, or all
    with ``all_errors``."""
    return report(path, [check_part(Part(path), all_errors, expected_hash, exported,
                                    contributions, referee_only)])


def check_part(part: Part, all_errors: bool = False, expected_hash: str | None = None,
               exported: str | None = None,
               contributions: tuple[tuple[str, str], ...] = (),
               referee_only: bool = False, lines: Iterable[str] | None = None
               ) -> list[Checked] | GameError:
    """The verdicts on the records of a file or of a part of one (a top-level function, so
    that it can run in a worker process or on a Dask worker); the error if it cannot be read.
    ``lines``, when given, are the lines of the record file ``part.path``, read as a stream
    (an error reading them is raised, not returned)."""
    try:
        extra = None
        if expected_hash is not None or exported is not None or contributions:
            extra = _commitment_check(expected_hash, exported, contributions, referee_only)
        if lines is not None:
            return check_lines(lines, part.path, all_errors, extra, part.first_line)
        if sources.is_pgn(part.path):
            return _check_pgn(part, extra)
        return check_text(part.read(), part.path, all_errors, extra, part.first_line)
    except GameError as exc:
        if isinstance(lines, _Lines) and lines.failed is exc:
            raise
        return exc


class _Lines:
    """The lines of a record file read one by one, with the error that stopped the reading."""

    def __init__(self, path: str) -> None:
        self.blocks = sources.line_blocks(path)
        self.failed: GameError | None = None

    def __iter__(self) -> Iterator[str]:
        lines = chain.from_iterable(self._blocks())  # no generator to resume for each line
        return lines if not progress.active() else self._counted(lines)

    def _blocks(self) -> Iterator[list[str]]:
        try:
            yield from self.blocks
        except GameError as exc:
            self.failed = exc
            raise

    @staticmethod
    def _counted(lines: Iterator[str]) -> Iterator[str]:
        for line in lines:
            # A record starts with its Game tag: counted for the progress line.
            progress.game(1 if line.startswith("[Game ") else 0)
            yield line


def streamed(files: list[str], check: Callable[..., list[Checked] | GameError]
             ) -> Iterator[tuple[Part, list[Checked] | GameError]]:
    """``check`` (a :func:`check_part` with its options) over every file in this process, as
    (part, result). A record file larger than a part, or standard input, is read line by line
    as a stream, in memory bounded by its longest line whatever the size of its records;
    the others are read part after part (:func:`gametool.archives.corpus.streamed`)."""
    import os

    from gametool.archives import corpus
    from gametool.sources import distribute

    for path in files:
        try:
            large = (path == "-" or sources.is_compressed(path)
                     or os.path.getsize(path) > distribute.PART_BYTES)
        except OSError:
            large = False
        if sources.is_pgn(path) or not large:
            yield from corpus.streamed([path], check)
            continue
        yield Part(path), check(Part(path), lines=_Lines(path))


def _check_pgn(part: Part, extra: Callable[[Session], list[GameError]] | None
               ) -> list[Checked]:
    """The verdicts on the games of a PGN file, each read as a record."""
    from gametool.archives import corpus

    verdicts = []
    for index, line, item in corpus.sessions(part):
        if isinstance(item, GameError):
            verdicts.append(Checked(index, line, None, 0, [item]))
            continue
        errors = extra(item) if extra is not None else []
        verdicts.append(Checked(index, line, item.game.id, item.ply, errors,
                                unchecked=item.unchecked()))
    return verdicts


def verdict_line(path: str, error: str) -> str:
    """A failed file's line on stdout: ``FILE: invalid: LINE:COL: ply N: message`` (its first
    error, where it is), as an ok file has ``FILE: ok (...)``: a pipeline tells which failed."""
    from gametool.views.render import without_decisions

    where = error[len(path) + 1:].lstrip() if error.startswith(f"{path}:") else error
    return f"{path}: invalid: {without_decisions(where)}"


def report(path: str, results: list[list[Checked] | GameError]) -> FileReport:
    """The verdict on a file from the verdicts on its parts, in order: the same as from the
    whole file read at once (a part that cannot be split into records stands for the file)."""
    verdicts: list[Checked] = []
    for result in results:
        if isinstance(result, GameError):
            entry = {"file": path, "ok": False, "records": [], "error": str(result)}
            return FileReport(entry, (verdict_line(path, str(result)),),
                              (f"gametool: {result}",), False)
        if any(v.unread for v in result):
            verdicts = result
            break
        verdicts += result
    if path.lower().endswith(".pgn"):
        # A part's games are numbered within the part: as within the file.
        verdicts = [_numbered(v, index) for index, v in enumerate(verdicts, start=1)]
    records = [{
        "index": index, "line": v.line, "game": v.game, "plies": v.plies, "ok": v.ok,
        "unchecked": v.unchecked,
        "errors": [{"line": e.where.line, "column": e.where.column, "ply": e.where.ply,
                    "kind": e.kind, "message": e.message} for e in v.errors],
    } for index, v in enumerate(verdicts, start=1)]
    ok = all(v.ok for v in verdicts)
    errors = [str(e) for v in verdicts for e in v.errors]
    lines = []
    if ok:
        plies = sum(v.plies for v in verdicts)
        lines.append(f"{path}: ok ({len(verdicts)} record{'s' * (len(verdicts) != 1)}, "
                     f"{plies} {'ply' if plies == 1 else 'plies'})")
        for number, verdict in enumerate(verdicts, start=1):
            if verdict.unchecked:
                which = f"record {number}: " if len(verdicts) > 1 else ""
                lines.append(f"{path}: {which}not checked: " + "; ".join(verdict.unchecked))
    elif errors:
        lines.append(verdict_line(path, errors[0]))
    return FileReport({"file": path, "ok": ok, "records": records}, tuple(lines), tuple(errors),
                      ok)


_GAME = re.compile(r"^game \d+: ")


def _numbered(verdict: Checked, index: int) -> Checked:
    """A verdict whose reading errors name its game by its number in the file."""
    if not any(_GAME.match(e.message) for e in verdict.errors):
        return verdict
    errors = []
    for error in verdict.errors:
        if _GAME.match(error.message):
            error = copy.copy(error)
            error.message = _GAME.sub(f"game {index}: ", error.message, count=1)
            error.args = (error.message, *error.args[1:])
        errors.append(error)
    return dataclasses.replace(verdict, errors=errors)


def _commitment_check(expected_hash: str | None, exported: str | None,
                      contributions: tuple[tuple[str, str], ...] = (),
                      referee_only: bool = False) -> Callable[[Session], list[GameError]]:
    exported_text = sources.read_file(exported) if exported is not None else None

    def check(session: Session) -> list[GameError]:
        errors = []
        if expected_hash is not None:
            errors += check_seed_hash(session, expected_hash, referee_only)
        if exported_text is not None:
            errors += check_against_export(session, exported_text, exported)
        for seat, sent in contributions:
            errors += check_contribution_sent(session, seat, sent)
        return errors

    return check
