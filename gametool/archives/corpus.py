"""Archives of records: folders as inputs, filters and statistics over every record they hold.

Every record of every file is replayed by its game, so a criterion such as "the position
arises" or "at least 40 plies" is judged on the game itself, never on its text. A record that
cannot be read is reported and skipped; the others go on, as pgn-extract does. The work on each
file (or part of a large file) is a top-level function, so that it can run in another process
or on a Dask worker (see :mod:`gametool.sources.distribute`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import OFF_THE_BOARD, Session
from gametool.sources import is_pgn, lines, progress
from gametool.sources.boundaries import Starts
from gametool.sources.distribute import Part, stream_parts
from notation.patterns import lazy


def streamed(files: list[str], work: Any) -> Iterator[tuple[Part, Any]]:
    """``work`` over every part of ``files`` in this process, part after part as they are
    read, as (part, result)."""
    return ((part, work(part)) for path in files for part in stream_parts(path))


def sessions(part: Part, fix_results: bool = False
             ) -> Iterator[tuple[int, int, Session | GameError]]:
    """Each record of a part as (index in the part from 1, line, session or the error that
    stopped its reading), one after the other (each counted on the progress line)."""
    from gametool import sources

    return progress.counting(sources.records_of(part, fix_results))


def one_record(path: str, number: int) -> Session:
    """Record (or PGN game) ``number`` of a file, read up to its end and no further: the
    records before it are passed over line by line and never kept, so that one record of a
    file of any size takes the memory of that record. A file with fewer records is read to
    its end, to say how many it holds. The records are those :func:`split_lines` finds."""
    from contextlib import closing

    from gametool.core.errors import RecordError, Where
    from gametool.records import read_text

    file = None if path == "-" else path
    pgn = is_pgn(path)
    starts = Starts(pgn)
    done = 0  # the records read before the current piece
    kept: list[str] = []
    first = 1
    begun = blank = False
    with closing(lines(path)) as stream:
        for line_number, line in enumerate(stream, start=1):
            if starts.starts(line) and begun:
                done += not blank
                if done == number:
                    break
                kept, first, blank = [], line_number, True
            if not begun:
                begun, blank, first = True, True, line_number
            blank = blank and not line.strip()
            if done + 1 == number:
                kept.append(line)
        else:
            done += begun and not blank
            if done < number:
                raise RecordError(f"--record {number}: the file holds {done} "
                                  f"record{'s' * (done != 1)}", Where(file))
    text = "".join(kept)
    if pgn:
        from gametool.pgn import reader as pgn_format

        for item, _messages in pgn_format.imports(text, file, first_line=first,
                                                  base=number - 1):
            if isinstance(item, pgn_format.Refusal):
                raise RecordError(f"game {item.index}: {item.message}",
                                  Where(file, item.line, item.column))
            text, first = item.text, 1
            break
    return Session.load(read_text(text, file, first)[0], file)


def split_text(text: str, file: str | None) -> list[str]:
    """The text of each record of a file (or each game of a PGN file), as it was written."""
    lines = text.splitlines(keepends=True)
    if file is not None and is_pgn(file):
        return list(split_lines(lines, file))
    from gametool.records import read_text

    starts = [record.line - 1 for record in read_text(text, file)]
    starts[0] = 0
    pieces = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        pieces += _piece(lines[start:end])
    return pieces


def split_lines(lines: Iterable[str], file: str | None) -> Iterator[str]:
    """The text of each record (or PGN game) of a file given line by line, as it was written,
    one after the other."""
    pgn = file is not None and is_pgn(file)
    starts = Starts(pgn)
    piece: list[str] = []
    for line in lines:
        if starts.starts(line) and piece:
            yield from _piece(piece)
            piece = []
        piece.append(line)
    yield from _piece(piece)


def _piece(lines: list[str]) -> Iterator[str]:
    piece = "".join(lines).rstrip("\r\n \t")
    if piece.startswith("\ufeff"):
        piece = piece[1:]
    if piece:
        yield piece + "\n"


def import_part(part: Part, fix_results: bool = False, eco: bool = False) -> tuple[Any, int]:
    """The PGN import of a part of a file (a top-level function, for worker processes and
    Dask): its report, its games numbered from 1 within the part, and how many it read."""
    from gametool.pgn import reader as pgn

    report = pgn.Report([], [], [])
    table = None
    if eco:
        from gametool.pgn import eco as openings

        table = openings.table()
    for item, messages in pgn.imports(part.read(), None if part.path == "-" else part.path,
                                      first_line=part.first_line, fix_results=fix_results,
                                      eco=table):
        (report.refused if isinstance(item, pgn.Refusal) else report.games).append(item)
        report.messages += messages
    return report, len(report.games) + len(report.refused)


_GAME_NUMBER = lazy(r"^(.*?:\d+:\d+: game )(\d+)(: )")


def game_number(message: str) -> int:
    """The number of the game a message of an import is about (0 for none)."""
    found = _GAME_NUMBER.match(message)
    return int(found[2]) if found else 0


def renumbered(message: str, base: int) -> str:
    """A message about game N of a part as about game N + ``base`` of its file."""
    return _GAME_NUMBER.sub(lambda m: f"{m[1]}{int(m[2]) + base}{m[3]}", message, count=1)


def joined_imports(results: Iterable[tuple[Any, int]]) -> Iterator[tuple[Any, list[str]]]:
    """The games of a whole PGN file from the reports on its parts, in order, as they come:
    each record or refusal with its messages, the games numbered within the file (as from
    the whole file read at once). One part's report is held at a time."""
    from dataclasses import replace

    base = 0
    for report, count in results:
        pending: dict[int, list[str]] = {}
        for line in report.messages:
            number = game_number(line)
            pending.setdefault(number + base if number else 0, []).append(
                _GAME_NUMBER.sub(lambda m, b=base: f"{m[1]}{int(m[2]) + b}{m[3]}", line))
        items = sorted([replace(item, index=item.index + base)
                        for item in (*report.games, *report.refused)],
                       key=lambda item: item.index)
        for item in items:
            yield item, pending.pop(item.index, [])
        base += count


def moves_digest(session: Session) -> str:
    """A hash of what makes two records the same game: game, options, start and actions."""
    import hashlib

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
    position: str = ""
    """A hash of the game's last position (``--duplicates position``)."""
    opening: str | None = None
    """The opening as the record's ECO and Opening tags name it."""
    time_use: tuple[tuple[float, int], ...] = ()
    """Per seat, the seconds its clock ran and the moves they were for, from the main line's
    [%clk] comments (empty without them)."""

    def tag(self, name: str) -> str | None:
        key = name.lower()
        return next((value for tag, value in self.tags if tag.lower() == key), None)


TERMINATIONS = ("checkmate", "stalemate", "resignation", "agreement", "time forfeit",
                "abandoned", "adjudication", "repetition", "50 moves", "75 moves",
                "dead position", "rules infraction", "unterminated")
"""The words ``filter --termination`` and ``stats`` use for how a game ended."""
_WORDS = (("stalemate", "stalemate"), ("mate", "checkmate"), ("resign", "resignation"),
          ("agree", "agreement"), ("mutual", "agreement"), ("abandon", "abandoned"),
          ("adjudicat", "adjudication"), ("insufficient", "dead position"),
          ("dead position", "dead position"), ("repetition", "repetition"),
          ("50", "50 moves"), ("fifty", "50 moves"), ("75", "75 moves"),
          ("seventy", "75 moves"), ("time", "time forfeit"), ("flag", "time forfeit"),
          ("infraction", "rules infraction"), ("illegal", "rules infraction"),
          ("disconnect", "abandoned"), ("unterminated", "unterminated"))


def termination_word(reason: str | None, results: tuple[str, ...] | None = None) -> str | None:
    """How a game ended, in one of :data:`TERMINATIONS` when the reason says so: the board's
    ("checkmate", "fivefold repetition", "75-move rule") or the record's as a PGN Termination
    tag or another tool writes it ("Time forfeit", "Fischer won by resignation", "Game drawn by
    agreement"). An ending off the board with no other reason (no Termination tag, or "normal")
    is a resignation when someone won and an agreement when it is a draw, as archives mean it.
    Any other reason is kept as written, in lower case."""
    if reason is None:
        return None
    text = reason.strip().lower()
    for word, meaning in _WORDS:
        if word in text:
            return meaning
    if text in ("", "normal", OFF_THE_BOARD) and results:
        return "agreement" if all(r == "draw" for r in results) else "resignation"
    return text


def _termination_criterion(text: str) -> str:
    word = termination_word(text) or ""
    return word


_ELO_RANGE = lazy(r"^\s*(\d*)\s*-\s*(\d*)\s*$|^\s*(\d+)\s*$")
_ECO_CODE = lazy(r"^[A-Ea-e](\d\d?)?$")


def elo_range(text: str, option: str) -> tuple[int | None, int | None]:
    """An Elo range as written on the command line: 2400-2600, 2400- , -1800 or 2500."""
    found = _ELO_RANGE.match(text)
    if found is None or text.strip() in ("-", ""):
        raise GameError(f"{option} {text}: write a rating or a range, e.g. 2400-2600, "
                        "2400- or -1800")
    if found.group(3):
        return int(found.group(3)), int(found.group(3))
    low, high = found.group(1), found.group(2)
    return (int(low) if low else None), (int(high) if high else None)


def eco_range(text: str) -> tuple[str, str]:
    """An ECO range: A00-B99, B20 (one code) or B (a volume), as (first, last) codes."""
    low, dash, high = text.strip().partition("-")
    high = high if dash else low
    if not _ECO_CODE.match(low) or not _ECO_CODE.match(high):
        raise GameError(f"--eco {text}: write ECO codes such as A00-B99, B20 or B")
    low, high = low.upper(), high.upper()
    low, high = low.ljust(3, "0"), high.ljust(3, "9")
    if len(low) == 2:
        low = low[0] + "0" + low[1]
    if low > high:
        raise GameError(f"--eco {text}: the first code comes after the last")
    return low, high


def date_bounds(text: str, option: str) -> tuple[int, int]:
    """The earliest and latest day a PGN date may stand for, as YYYYMMDD numbers: 1972.??.??
    is the whole of 1972, 1972.07.?? July; the year must be known."""
    parts = text.strip().replace("-", ".").replace("/", ".").split(".")
    if not parts or len(parts) > 3 or not re.fullmatch(r"\d{4}", parts[0]):
        raise GameError(f"{option} {text}: write a date as YYYY.MM.DD, YYYY.MM or YYYY (PGN's "
                        "?? for an unknown month or day)")
    low, high = [int(parts[0])], [int(parts[0])]
    for part, (first, last) in zip(parts[1:], ((1, 12), (1, 31)), strict=False):
        if re.fullmatch(r"\d{1,2}", part):
            if not first <= int(part) <= last:
                raise GameError(f"{option} {text}: {part} is not a month or a day")
            low.append(int(part))
            high.append(int(part))
        elif re.fullmatch(r"\?{1,2}", part):
            break
        else:
            raise GameError(f"{option} {text}: write a date as YYYY.MM.DD (?? for unknown)")
    low += [1, 1][len(low) - 1:]
    high += [12, 31][len(high) - 1:]
    return low[0] * 10000 + low[1] * 100 + low[2], high[0] * 10000 + high[1] * 100 + high[2]


def _game_date(value: str | None) -> tuple[int, int] | None:
    if not value:
        return None
    try:
        return date_bounds(value, "Date")
    except GameError:
        return None


def _elo(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None


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
    """A placement the main line must reach, in the game's one-line encoding (for chess, a
    FEN's placement field; the game is chess unless ``game`` is given)."""
    side: str | None = None
    """With ``position``: the seat (white, black) whose turn it must be there."""
    keep_text: bool = False
    elo: tuple[int | None, int | None] | None = None
    """Either player's rating (WhiteElo or BlackElo) within (lowest, highest)."""
    white_elo: tuple[int | None, int | None] | None = None
    black_elo: tuple[int | None, int | None] | None = None
    dates: tuple[int, int] | None = None
    """The Date may fall from the first day to the last (YYYYMMDD numbers)."""
    eco: tuple[str, str] | None = None
    """The ECO tag (or, without one, the opening table's code) from the first to the last."""
    where: str | None = None
    """A query of ``filter --where`` (see :mod:`gametool.archives.query`)."""
    material: str | None = None
    """Chess material the main line must reach, White's then Black's: "KRP v KR"."""

    def check(self) -> None:
        """Refuse a malformed criterion before any record is read."""
        if self.where is not None:
            from gametool.archives import query

            query.parse(self.where)
        if self.material is not None:
            material_key(self.material)
        for name, pattern in self.tags:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise GameError(f"--tag {name}={pattern}: not a regular expression ({exc})") \
                    from None
        if self.termination is not None and not self.termination.strip():
            raise GameError("--termination: name a way a game ends: "
                            + ", ".join(TERMINATIONS))
        if self.side is not None and self.position is None:
            raise GameError("--side: with --position, the placement that side is to move in")
        if self.position is not None:
            from gametool import games

            cls = games.playable_class(self.position_game)
            try:
                cls().read_placement(self.position, cls.players_default())
            except GameError as exc:
                raise GameError(f"--position: {exc}") from None
            seats = cls.default_seat_names(cls.players_default())
            if self.side is not None and self.side.strip().lower() not in seats:
                raise GameError(f"--side {self.side}: a seat of {self.position_game}: "
                                + " or ".join(seats))

    @property
    def position_game(self) -> str:
        """The game whose encoding ``position`` is written in."""
        return self.game or "chess"

    def on_tags(self) -> bool:
        """Whether some test needs only tags (a record that fails it need not be read)."""
        return (self.game is not None or bool(self.tags) or self.player is not None
                or self.elo is not None or self.white_elo is not None
                or self.black_elo is not None or self.dates is not None
                or self._where_on_tags())

    def _where_on_tags(self) -> bool:
        from gametool.archives import query

        return self.where is not None and query.on_tags(self.where)

    def keeps_header(self, session: Any) -> bool:
        """The tests that need no replay: game, tags, players, ratings, dates."""
        if self.game is not None and session.game.id != self.game:
            return False
        record = session.record
        for name, pattern in self.tags:
            value = record.get(name)
            if value is None or not re.search(pattern, value, re.IGNORECASE):
                return False
        if self.player is not None and not (
                any(_names_player(n, self.player) for n in session.names)
                or any(_names_player(record.get(tag) or "", self.player)
                       for tag in ("White", "Black"))):
            return False
        white, black = _elo(record.get("WhiteElo")), _elo(record.get("BlackElo"))
        if self.elo is not None and not (_within(white, self.elo) or _within(black, self.elo)):
            return False
        if self.white_elo is not None and not _within(white, self.white_elo):
            return False
        if self.black_elo is not None and not _within(black, self.black_elo):
            return False
        if self.dates is not None:
            date = _game_date(record.get("Date"))
            if date is None or date[1] < self.dates[0] or date[0] > self.dates[1]:
                return False
        if self._where_on_tags():
            from gametool.archives import query

            return query.keeps(self.where, record)
        return True

    def keeps(self, session: Session, summary: Summary) -> bool:
        if not self.keeps_header(session):
            return False
        if self.result is not None:
            # A '*' the PGN had where the moves end the game is kept in PGNResult.
            tag = session.record.get("PGNResult") or session.record.get("Result") or "*"
            if tag.strip() != self.result.strip():
                return False
        if self.termination is not None:
            if summary.termination != _termination_criterion(self.termination):
                return False
        if self.min_plies is not None and summary.plies < self.min_plies:
            return False
        if self.max_plies is not None and summary.plies > self.max_plies:
            return False
        if self.eco is not None:
            code = (session.record.get("ECO") or "").strip().upper()
            if not code and session.game.id == "chess":
                from gametool.pgn import eco

                code = (eco.table().find(session) or ("", ""))[0]
            if not code or not self.eco[0] <= code[:3] <= self.eco[1]:
                return False
        if self.where is not None and not self._where_on_tags():
            from gametool.archives import query

            if not query.keeps(self.where, session.record,
                               query.derived_fields(session, summary.plies)):
                return False
        if self.material is not None and not reaches_material(session, self.material):
            return False
        return self.position is None or (session.game.id == self.position_game and reaches(
            session, self.position, self.side))


def _within(value: int | None, bounds: tuple[int | None, int | None]) -> bool:
    low, high = bounds
    return value is not None and (low is None or value >= low) and (high is None or value <= high)


def _names_player(seat: str, player: str) -> bool:
    """Whether a seat's name (or a player's name as a tag writes it) is ``player`` (any case),
    or begins with it as a word: ``carlsen`` names the seat ``Carlsen_Magnus`` (imported from
    "Carlsen, Magnus") and the player "Carlsen, Magnus", not ``Carlsenius``."""
    seat, player = seat.strip().lower(), player.strip().lower()
    if not player:
        return False
    return seat == player or (seat.startswith(player) and not seat[len(player)].isalnum())


_MATERIAL = lazy(r"^\s*([KQRBNP]+)\s*v\s*([KQRBNP]+)\s*$", re.IGNORECASE)


def material_key(text: str) -> str:
    """The material of ``text`` ("KRP v KR": White's pieces, 'v', Black's) as the board
    writes it (White's letters in capitals, Black's in small letters, each side sorted)."""
    found = _MATERIAL.match(text)
    if found is None or "K" not in found[1].upper() or "K" not in found[2].upper():
        raise GameError(f"--material {text}: write each side's pieces from K, Q, R, B, N, P, "
                        "White's first: 'KRP v KR'")
    return "".join(sorted(found[1].upper())) + "".join(sorted(found[2].lower()))


def reaches_material(session: Session, material: str) -> bool:
    """Whether a chess record's main line reaches exactly this material (see
    :func:`material_key`)."""
    if session.game.id != "chess":
        return False
    want = material_key(material)
    size = len(want)
    for state in session.states:
        pieces = state.board.replace(".", "")
        if len(pieces) == size and "".join(sorted(c for c in pieces if c.isupper())) + "".join(
                sorted(c for c in pieces if c.islower())) == want:
            return True
    return False


def reaches(session: Session, position: str, side: str | None = None) -> bool:
    """Whether a state of the record's main line has the placement ``position`` (in the
    game's encoding: a FEN's placement field for chess), with the seat ``side`` to move there
    when it is given."""
    game = session.game
    try:
        target = game.read_placement(position, len(session.names))
    except GameError:
        return False
    mover = None
    if side is not None:
        seats = type(game).default_seat_names(len(session.names))
        if side.strip().lower() not in seats:
            return False
        mover = seats.index(side.strip().lower())
    return any(game.placement_key(state) == target
               and (mover is None or game.mover(state) == mover) for state in session.states)


def summarise(session: Session, file: str, index: int, line: int,
              keep_text: bool = False) -> Summary:
    """What the archive commands need of a record: its result and how it ended as the record
    has them (by the rules, or its ending off the board with the Termination tag's reason)."""
    outcome = session.outcome()
    results = tuple(r.result for r in outcome.results) if outcome else None
    record = session.record
    code, name = record.get("ECO"), record.get("Opening")
    opening = " ".join(part.strip() for part in (code, name) if part and part.strip() != "?")
    return Summary(
        file=file, index=index, line=line, game=session.game.id, names=tuple(session.names),
        tags=tuple((t.name, t.value) for t in record.tags),
        results=results,
        termination=termination_word(outcome.termination, results) if outcome else None,
        plies=session.ply, first_turn=first_turn(session), digest=moves_digest(session),
        text=session.text() if keep_text else None,
        position=position_digest(session), opening=opening or None,
        time_use=time_use(session))


def time_use(session: Session) -> tuple[tuple[float, int], ...]:
    """Per seat, (seconds used, moves) from the main line's [%clk] comments: what each clock
    lost from its first reading to its last, with the increment of a TimeControl such as
    "180+2" given back for each move; empty when the record has no clocks."""
    from gametool.archives import query

    clocks = query.clock_readings(session)
    if not any(clocks):
        return ()
    control = (session.record.get("TimeControl") or "").partition("+")[2]
    increment = float(control) if control.replace(".", "", 1).isdigit() else 0.0
    out = []
    for readings in clocks:
        moves = len(readings) - 1
        used = readings[0] - readings[-1] + increment * moves if moves > 0 else 0.0
        out.append((max(used, 0.0), max(moves, 0)))
    return tuple(out)


def position_digest(session: Session) -> str:
    """A hash of the game's last position (placement, side to move, castling for chess)."""
    import hashlib

    game = session.game
    try:
        key = game.position_key(session.state)
    except (GameError, NotImplementedError, AttributeError):
        key = repr(session.state)
    return hashlib.sha256(f"{game.id}\n{key}".encode()).hexdigest()


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
    if criteria is not None and criteria.on_tags() and part.is_pgn():
        from gametool.archives import tagscan

        # A game whose tags fail is never read past them.
        items: Iterable[tuple[int, int, Session | GameError | None]] = progress.counting(
            tagscan.sessions(part, criteria))
    else:
        items = sessions(part)
    for index, line, item in items:
        out.count = index
        if item is None:
            continue
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
            result.errors = [renumbered(line, base) for line in result.errors]
        offset[path] = base + result.count
        yield result


def _renumber(summary: Summary, index: int) -> Summary:
    from dataclasses import replace

    return replace(summary, index=index)


def dedupe(summaries: Iterable[Summary], mode: str | None, by: str = "moves",
           seen: set[str] | None = None) -> Iterator[Summary]:
    """All records; only the first of each game (``unique``); or only the later copies
    (``duplicates``). Games are the same when their move sequences are (``by="moves"``) or
    their last positions (``by="position"``, so that transpositions count). ``seen`` holds
    the games met so far, and may be given to go on from another run."""
    seen = set() if seen is None else seen
    for summary in summaries:
        key = summary.position if by == "position" else summary.digest
        repeated = key in seen
        seen.add(key)
        if mode is None or (mode == "unique") != repeated:
            yield summary


# -- statistics --------------------------------------------------------------------------------

TOP = 10
"""The most common first turns shown, and seats shown by name, in the text tables."""


class Tally:
    """Statistics gathered record by record (the records themselves are not kept)."""

    def __init__(self) -> None:
        self.games: dict[str, dict[str, Any]] = {}

    def add(self, s: Summary) -> None:
        g = self.games.get(s.game)
        if g is None:
            from gametool.archives.seats import SeatCounts

            g = self.games[s.game] = {"lengths": Counter(), "names": SeatCounts(),
                                      "positions": {},
                                      "terminations": Counter(), "turns": Counter(),
                                      "openings": Counter(), "time": {}}
        g["lengths"][s.plies] += 1
        for seat, name in enumerate(s.names):
            result = s.results[seat] if s.results else "unfinished"
            g["names"].add(name, result)
            g["positions"].setdefault(seat + 1, Counter())[result] += 1
        g["terminations"][s.termination or "unfinished"] += 1
        if s.first_turn is not None:
            g["turns"][s.first_turn] += 1
        if s.opening:
            g["openings"][s.opening] += 1
        for seat, (used, moves) in enumerate(s.time_use):
            if moves:
                entry = g["time"].setdefault(seat + 1, [0, 0.0, 0])
                entry[0] += 1
                entry[1] += used
                entry[2] += moves

    def result(self, top: int | None = None) -> dict[str, Any]:
        """Per game: games and plies, results per seat name (the ``top`` with most games, when
        given, and ``seat_names``, how many there are) and per seat position, terminations,
        game length, the most common first turns and openings."""
        out: dict[str, Any] = {}
        for game in sorted(self.games):
            g = self.games[game]
            lengths: Counter[int] = g["lengths"]
            count = sum(lengths.values())
            plies = sum(length * times for length, times in lengths.items())
            low, high = min(lengths), max(lengths)
            median = _median(lengths, count)
            names = g["names"]
            out[game] = {
                "games": count,
                "plies": plies,
                "length": {"min": low, "median": median,
                           "max": high, "mean": round(plies / count, 1)},
                "min_plies": low, "median_plies": median,
                "max_plies": high, "mean_plies": round(plies / count, 1),
                "seats": dict(names.ranked(top)),
                "positions": {str(p): _tally(c) for p, c in sorted(g["positions"].items())},
                "terminations": dict(sorted(g["terminations"].items(),
                                            key=lambda item: (-item[1], item[0]))),
                "first_turns": [{"turn": t, "games": n} for t, n in
                                sorted(g["turns"].items(), key=lambda item: (-item[1], item[0]))],
            }
            if g["time"]:
                out[game]["time_use"] = {
                    str(p): {"games": n, "seconds": round(used, 1), "moves": moves,
                             "seconds_per_move": round(used / moves, 2)}
                    for p, (n, used, moves) in sorted(g["time"].items())}
            if g["openings"]:
                out[game]["openings"] = [
                    {"opening": o, "games": n} for o, n in
                    sorted(g["openings"].items(), key=lambda item: (-item[1], item[0]))[:TOP]]
            if top is not None:
                out[game]["seat_names"] = len(names)
        return out


def _median(lengths: Counter[int], count: int) -> float | int:
    """The median of the lengths counted (as statistics.median has it), from the counts."""
    wanted = [count // 2] if count % 2 else [count // 2 - 1, count // 2]
    found: list[int] = []
    seen = 0
    for length in sorted(lengths):
        seen += lengths[length]
        while wanted and wanted[0] < seen:
            found.append(length)
            wanted.pop(0)
        if not wanted:
            break
    return found[0] if len(found) == 1 else (found[0] + found[1]) / 2


def statistics_of(summaries: Iterable[Summary]) -> dict[str, Any]:
    """Per game: games and plies, results per seat name and per seat position,
    terminations, game length and the most common first turns (and openings)."""
    tally = Tally()
    for summary in summaries:
        tally.add(summary)
    return tally.result()


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
        named = g.get("seat_names", len(seats))
        title = "results by seat" + (f" (the {TOP} with most games of {named})"
                                     if named > TOP else "")
        tables.append((title, ["seat", *heads], [[n, *_row(t)] for n, t in seats[:TOP]]))
        tables.append(("terminations", ["termination", "games"],
                       [[t, n] for t, n in g["terminations"].items()]))
        turns = g["first_turns"]
        tables.append((_first_turns_title(turns, g["games"]),
                       ["first turn", "games"],
                       [[t["turn"], t["games"]] for t in turns[:TOP]]))
        if g.get("time_use"):
            tables.append(("time use per side (from [%clk] comments)",
                           ["position", "games", "moves", "seconds", "seconds per move"],
                           [[_ordinal(int(p)), t["games"], t["moves"], t["seconds"],
                             t["seconds_per_move"]] for p, t in g["time_use"].items()]))
        if g.get("openings"):
            tables.append(("most common openings", ["opening", "games"],
                           [[o["opening"], o["games"]] for o in g["openings"]]))
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
