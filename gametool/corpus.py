"""Archives of records: folders as inputs, filters and statistics over every record they hold.

Every record of every file is replayed by its game, so a criterion such as "the position
arises" or "at least 40 plies" is judged on the game itself, never on its text. A record that
cannot be read is reported and skipped; the others go on, as pgn-extract does. The work on each
file (or part of a large file) is a top-level function, so that it can run in another process
or on a Dask worker (see :mod:`gametool.distribute`).
"""

from __future__ import annotations

import hashlib
import os
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gametool.distribute import Part
from gametool.engine import CHANCE
from gametool.errors import GameError
from gametool.record import Session

SUFFIXES = (".gtn", ".pgn")
"""The files a folder given as input contributes (searched recursively)."""


def expand(inputs: Iterable[str]) -> list[str]:
    """Files as given; each folder replaced by its ``*.gtn`` and ``*.pgn`` files, recursively,
    in sorted order."""
    out: list[str] = []
    for name in inputs:
        if name != "-" and os.path.isdir(name):
            found = []
            for folder, subfolders, files in os.walk(name):
                subfolders.sort()
                found += [os.path.join(folder, f) for f in files
                          if f.lower().endswith(SUFFIXES)]
            if not found:
                raise GameError(f"{name}: no .gtn or .pgn file in this folder")
            out += sorted(found)
        else:
            out.append(name)
    return out


def is_pgn(path: str) -> bool:
    return path.lower().endswith(".pgn")


def read_file(path: str) -> str:
    """The text of a record file (UTF-8), or of a PGN file (UTF-8 or else Latin-1)."""
    from gametool import storage

    if not is_pgn(path):
        return storage.read(path)
    from gametool.formats import pgn

    try:
        if path == "-":
            import sys

            return pgn.decode(sys.stdin.buffer.read())
        with open(path, "rb") as handle:
            return pgn.decode(handle.read())
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror}") from None


def parts(path: str) -> list[Part]:
    """A file as parts of whole records (or PGN games), for spreading the work."""
    from gametool import distribute

    return distribute.parts(path, read=read_file)


def sessions(part: Part) -> Iterator[tuple[int, int, Session | GameError]]:
    """Each record of a part as (index in the part from 1, line, session or the error that
    stopped its reading)."""
    try:
        text = part.read()
    except GameError as exc:
        yield 1, 1, exc
        return
    file = None if part.path == "-" else part.path
    if is_pgn(part.path):
        from gametool.errors import RecordError, Where
        from gametool.formats import pgn

        report = pgn.import_games(_padded(part, text), file, keep=True)
        items: list[tuple[int, int, Session | GameError]] = [
            (r.index, r.line, RecordError(f"game {r.index}: {r.message}",
                                          Where(file, r.line, r.column)))
            for r in report.refused]
        items += [(g.index, 0, g.session) for g in report.games if g.session is not None]
        yield from sorted(items, key=lambda item: item[0])
        return
    from gametool.record import read_text

    try:
        records = read_text(text, file, part.first_line)
    except GameError as exc:
        yield 1, exc.where.line or part.first_line, exc
        return
    for index, record in enumerate(records, start=1):
        try:
            yield index, record.line, Session.load(record, file)
        except GameError as exc:
            yield index, record.line, exc


def split_text(text: str, file: str | None) -> list[str]:
    """The text of each record of a file (or each game of a PGN file), as it was written."""
    from gametool.distribute import record_starts

    lines = text.splitlines(keepends=True)
    if file is not None and is_pgn(file):
        starts = [0, *record_starts(lines)]
    else:
        from gametool.record import read_text

        starts = [record.line - 1 for record in read_text(text, file)]
        starts[0] = 0
    pieces = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        piece = "".join(lines[start:end]).rstrip("\r\n \t")
        if piece.startswith("\ufeff"):
            piece = piece[1:]
        if piece:
            pieces.append(piece + "\n")
    return pieces


def _padded(part: Part, text: str) -> str:
    """A part's text preceded by as many empty lines as come before it in its file, so that
    the PGN reader, which counts lines from the start of its text, names the file's lines."""
    return "\n" * (part.first_line - 1) + text


def import_part(part: Part) -> tuple[Any, int]:
    """The PGN import of a part of a file (a top-level function, for worker processes and
    Dask): its report, its games numbered from 1 within the part, and how many it read."""
    from gametool.formats import pgn

    report = pgn.import_games(_padded(part, part.read()), None if part.path == "-" else part.path)
    return report, len(report.games) + len(report.refused)


_GAME_NUMBER = re.compile(r"^(.*?:\d+:\d+: game )(\d+)(: )")


def join_imports(results: Iterable[tuple[Any, int]]) -> Any:
    """The report on a whole PGN file from the reports on its parts, in order, with the games
    numbered within the file (the same report as from the whole file read at once)."""
    from dataclasses import replace

    from gametool.formats.pgn import Report

    out = Report([], [], [])
    base = 0
    for report, count in results:
        out.games += [replace(g, index=g.index + base) for g in report.games]
        out.refused += [replace(r, index=r.index + base) for r in report.refused]
        out.messages += [_GAME_NUMBER.sub(lambda m, b=base: f"{m[1]}{int(m[2]) + b}{m[3]}", line)
                         for line in report.messages]
        base += count
    return out


def moves_digest(session: Session) -> str:
    """A hash of what makes two records the same game: game, options, start and actions."""
    parts = [session.game.id, repr(session.game.non_default_options()),
             session.record.get("Position") or session.record.get("FEN") or ""]
    parts += [f"{step.seat}:{step.text}" for step in session.steps]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def first_turn(session: Session) -> str | None:
    """The first turn a player took (chance actions before it left out), as written."""
    texts: list[str] = []
    seat = None
    for step in session.steps:
        if step.seat == CHANCE:
            if texts:
                break
            continue
        if seat is not None and step.seat != seat:
            break
        seat = step.seat
        texts.append(step.text)
    return " | ".join(texts) if texts else None


@dataclass(frozen=True)
class Summary:
    """What filters and statistics need of one record, small enough to send between
    processes."""

    file: str
    index: int
    line: int
    game: str
    names: tuple[str, ...]
    tags: tuple[tuple[str, str], ...]
    results: tuple[str, ...] | None
    """Each seat's result (win, draw, loss), None while the game is not over."""
    termination: str | None
    plies: int
    first_turn: str | None
    digest: str
    text: str | None = None
    """The record in canonical form, when the matching records are to be written."""

    def tag(self, name: str) -> str | None:
        key = name.lower()
        return next((value for tag, value in self.tags if tag.lower() == key), None)


@dataclass(frozen=True)
class Criteria:
    """The tests a record must pass to be kept (every one given, all together)."""

    game: str | None = None
    tags: tuple[tuple[str, str], ...] = ()
    """(tag name, regular expression searched in the tag's value), case-insensitive."""
    player: str | None = None
    result: str | None = None
    termination: str | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    position: str | None = None
    """A position in the game's one-line encoding (FEN for chess) the main line must reach."""
    keep_text: bool = False

    def check(self) -> None:
        """Refuse a malformed criterion before any record is read."""
        for name, pattern in self.tags:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise GameError(f"--tag {name}={pattern}: not a regular expression ({exc})") \
                    from None
        if self.position is not None:
            if self.game is None:
                raise GameError("--fen/--position needs --game: the game whose position "
                                "encoding it is written in")
            from gametool import games

            cls = games.playable_class(self.game)
            cls().decode_position(self.position, cls.players_default())

    def keeps_header(self, session: Session) -> bool:
        """The tests that need no replay: game, tags, players."""
        if self.game is not None and session.game.id != self.game:
            return False
        for name, pattern in self.tags:
            value = session.record.get(name)
            if value is None or not re.search(pattern, value, re.IGNORECASE):
                return False
        if self.player is not None and not any(_names_player(n, self.player)
                                               for n in session.names):
            return False
        return True

    def keeps(self, session: Session, summary: Summary) -> bool:
        if not self.keeps_header(session):
            return False
        if self.result is not None:
            tag = session.record.get("Result") or "*"
            if tag.strip() != self.result.strip():
                return False
        if self.termination is not None:
            if (summary.termination or "").lower() != self.termination.strip().lower():
                return False
        if self.min_plies is not None and summary.plies < self.min_plies:
            return False
        if self.max_plies is not None and summary.plies > self.max_plies:
            return False
        return self.position is None or reaches(session, self.position)


def _names_player(seat: str, player: str) -> bool:
    """Whether a seat's name is ``player`` (any case), or begins with it as a word: ``carlsen``
    names the seat ``Carlsen_Magnus`` (imported from "Carlsen, Magnus"), not ``Carlsenius``."""
    seat, player = seat.lower(), player.strip().lower()
    return seat == player or (seat.startswith(player) and not seat[len(player)].isalnum())


def reaches(session: Session, position: str) -> bool:
    """Whether a state of the record's main line is ``position`` (in the game's encoding)."""
    game = session.game
    try:
        target = game.position_key(game.decode_position(position, len(session.names)))
    except GameError:
        return False
    return any(game.position_key(state) == target for state in session.states)


def summarise(session: Session, file: str, index: int, line: int,
              keep_text: bool = False) -> Summary:
    outcome = session.game.outcome(session.state)
    return Summary(
        file=file, index=index, line=line, game=session.game.id, names=tuple(session.names),
        tags=tuple((t.name, t.value) for t in session.record.tags),
        results=tuple(r.result for r in outcome.results) if outcome else None,
        termination=outcome.termination if outcome else None,
        plies=session.ply, first_turn=first_turn(session), digest=moves_digest(session),
        text=session.text() if keep_text else None)


@dataclass
class PartResult:
    """The records of one part that passed the criteria, and the errors of the others."""

    part: Part
    count: int = 0
    kept: list[Summary] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def read_part(part: Part, criteria: Criteria | None = None) -> PartResult:
    """Read every record of ``part`` and keep those ``criteria`` accept (all without)."""
    out = PartResult(part)
    for index, line, item in sessions(part):
        out.count = index
        if isinstance(item, GameError):
            out.errors.append(str(item.located(file=part.path)))
            continue
        if criteria is not None and not criteria.keeps_header(item):
            continue
        summary = summarise(item, part.path, index, line,
                            criteria is not None and criteria.keep_text)
        if criteria is None or criteria.keeps(item, summary):
            out.kept.append(summary)
    return out


def numbered(results: Iterable[PartResult]) -> Iterator[PartResult]:
    """Part results with their records numbered within the whole file, not the part."""
    offset: dict[str, int] = {}
    for result in results:
        path = result.part.path
        base = offset.get(path, 0) if result.part.number else 0
        if base:
            result.kept = [_renumber(s, s.index + base) for s in result.kept]
        offset[path] = base + result.count
        yield result


def _renumber(summary: Summary, index: int) -> Summary:
    from dataclasses import replace

    return replace(summary, index=index)


def dedupe(summaries: Iterable[Summary], mode: str | None) -> Iterator[Summary]:
    """All records; only the first of each game (``unique``); or only the later copies
    (``duplicates``), games being the same when their move sequences are."""
    seen: set[str] = set()
    for summary in summaries:
        repeated = summary.digest in seen
        seen.add(summary.digest)
        if mode is None or (mode == "unique") != repeated:
            yield summary


# -- statistics --------------------------------------------------------------------------------

TOP = 10
"""The most common first turns shown, and seats shown by name, in the text tables."""


def statistics_of(summaries: Sequence[Summary]) -> dict[str, Any]:
    """Per game: games and plies, results per seat name and per seat position,
    terminations, game length and the most common first turns."""
    out: dict[str, Any] = {}
    for game in sorted({s.game for s in summaries}):
        mine = [s for s in summaries if s.game == game]
        lengths = sorted(s.plies for s in mine)
        by_name: dict[str, Counter[str]] = {}
        by_position: dict[int, Counter[str]] = {}
        for s in mine:
            for seat, name in enumerate(s.names):
                result = s.results[seat] if s.results else "unfinished"
                by_name.setdefault(name, Counter())[result] += 1
                by_position.setdefault(seat + 1, Counter())[result] += 1
        terminations = Counter(s.termination or "unfinished" for s in mine)
        turns = Counter(s.first_turn for s in mine if s.first_turn is not None)
        out[game] = {
            "games": len(mine),
            "plies": sum(lengths),
            "length": {"min": lengths[0], "median": statistics.median(lengths),
                       "max": lengths[-1], "mean": round(sum(lengths) / len(lengths), 1)},
            "seats": {name: _tally(c) for name, c in sorted(
                by_name.items(), key=lambda item: (-sum(item[1].values()), item[0]))},
            "positions": {str(p): _tally(c) for p, c in sorted(by_position.items())},
            "terminations": dict(terminations.most_common()),
            "first_turns": [{"turn": t, "games": n} for t, n in
                            sorted(turns.items(), key=lambda item: (-item[1], item[0]))],
        }
    return out


RESULTS = ("win", "draw", "loss", "unfinished")


def _tally(counts: Counter[str]) -> dict[str, int]:
    return {"games": sum(counts.values()), **{r: counts.get(r, 0) for r in RESULTS}}


def statistics_tables(data: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The statistics as (title, headers, rows) tables, game by game."""
    tables = []
    for game, g in data.items():
        length = g["length"]
        tables.append((f"{game}: {_counted(g['games'], 'game')}, {_counted(g['plies'], 'ply')}",
                       ["games", "plies", "min plies", "median plies", "max plies",
                        "mean plies"],
                       [[g["games"], g["plies"], length["min"], length["median"],
                         length["max"], length["mean"]]]))
        heads = ["games", "wins", "draws", "losses", "unfinished"]
        tables.append(("results by seat position", ["position", *heads],
                       [[_ordinal(int(p)), *_row(t)] for p, t in g["positions"].items()]))
        seats = list(g["seats"].items())
        title = "results by seat" + (f" (the {TOP} with most games of {len(seats)})"
                                     if len(seats) > TOP else "")
        tables.append((title, ["seat", *heads], [[n, *_row(t)] for n, t in seats[:TOP]]))
        tables.append(("terminations", ["termination", "games"],
                       [[t, n] for t, n in g["terminations"].items()]))
        turns = g["first_turns"]
        tables.append((_first_turns_title(turns, g["games"]),
                       ["first turn", "games"],
                       [[t["turn"], t["games"]] for t in turns[:TOP]]))
    return tables


def _row(tally: dict[str, int]) -> list[int]:
    return [tally["games"], *(tally[r] for r in RESULTS)]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _counted(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else 'plies' if word == 'ply' else word + 's'}"


def _first_turns_title(turns: list[dict[str, Any]], games: int) -> str:
    """The title of the first turns' table: how many turns it shows, and how many of the
    games they stand for (a game that ended before any turn has none)."""
    shown = turns[:TOP]
    played = sum(t["games"] for t in turns)
    title = (f"most common first turns ({len(shown)} of {len(turns)}, in "
             f"{sum(t['games'] for t in shown)} of {_counted(games, 'game')}")
    if played < games:
        title += f"; {games - played} with no turn played"
    return title + ")"
