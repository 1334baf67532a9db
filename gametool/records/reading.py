"""Reading records: the records of a text, one record of a file, and the checks of whole files
(``validate``), a file read as a stream of lines in bounded memory."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gametool.core import collector
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError, RecordError, Where
from gametool.records.header import CHANCE_NAME
from gametool.records.resync import RESYNC_WINDOW
from gametool.records.session import Session
from notation import record as gtn
from notation.errors import NotationError
from notation.patterns import lazy


def read_text(text: str, file: str | None = None, first_line: int = 1) -> list[gtn.Record]:
    """Parse the records of a file (or of its part from ``first_line`` on), turning syntax
    errors into located RecordErrors."""
    try:
        records = gtn.parse(text, first_line)
    except NotationError as exc:
        raise RecordError(exc.message, Where(file, exc.line, exc.column)) from None
    if not records:
        raise RecordError("no record found (a record starts with [Game \"...\"])",
                          Where(file, 1, 1))
    return records


def pick(records: list[gtn.Record], file: str | None, number: int | None) -> gtn.Record:
    """Record ``number`` (1-based) of a file; without a number the file must hold one."""
    count = len(records)
    if number is None:
        if count > 1:
            raise RecordError(f"the file holds {count} records: choose one with --record N "
                              f"(1 to {count})", Where(file, records[1].line, 1))
        return records[0]
    if not 1 <= number <= count:
        raise RecordError(f"--record {number}: the file holds {count} "
                          f"record{'s' * (count != 1)}", Where(file))
    return records[number - 1]


def load_one(text: str, file: str | None = None, number: int | None = None) -> Session:
    """The session of record ``number`` of a file, or of its only record."""
    return Session.load(pick(read_text(text, file), file, number), file)


@dataclass
class Checked:
    """The verdict on one record of a file."""

    index: int
    line: int
    game: str | None
    plies: int
    """The plies read and found valid (up to the first error, or all of them with --all)."""
    errors: list[GameError]
    unread: bool = False
    """The text could not be split into records (a syntax error): nothing else was checked."""
    unchecked: list[str] = field(default_factory=list)
    """What could not be checked (in a record exported for one seat)."""

    @property
    def ok(self) -> bool:
        return not self.errors


def check_text(text: str, file: str | None = None, all_errors: bool = False,
               extra: Callable[[Session], list[GameError]] | None = None,
               first_line: int = 1) -> list[Checked]:
    """Validate every record in ``text``: the first error of each, or all of them.

    ``extra`` adds checks of a record that read cleanly (for example against a seed hash).
    ``first_line`` is the line number of the text's start when it is a part of a file.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return check_lines(text.splitlines(), file, all_errors, extra, first_line)


def check_lines(lines: Iterable[str], file: str | None = None, all_errors: bool = False,
                extra: Callable[[Session], list[GameError]] | None = None,
                first_line: int = 1) -> list[Checked]:
    """:func:`check_text` of a text given line by line (with or without line ends), read as
    a stream: what is held is the line being read, the few lines after a rejected action
    that tell how to read on (RESYNC_WINDOW), a variation until its end, and the positions
    of the record's line, never the text. A syntax error anywhere stands for the whole text,
    as when it is read at once."""
    return _Stream(lines, file, all_errors, extra, first_line).run()


# A turn line of the most common shape: one action of a named seat, with no indentation, and
# perhaps glyphs and a short comment in braces, as written by the tool. Such a line is read
# here without the reader of the notation (which reads it the same way), and its action
# applied without the general path when it is the turn of that seat and nothing else is due.
_SEAT = r"[A-Za-z0-9_.'+@-]+"
_WORD = r"[^\s{};|$]+"
_SEAT_ACTION = rf"({_SEAT}): ({_WORD}"
_WORDS = rf"(?:[ \t]+{_WORD})*)(?:[ \t]+\$[0-9]{{1,3}})*[ \t]*"
_AFTER = _WORDS + r"(?:\{[^}\n\r\v\f\x1c-\x1e\x85\u2028\u2029]{0,2048}\}[ \t]*)?\r?\n?"
_PLAIN_TURN = lazy(r"([0-9]{1,9})\. " + _SEAT_ACTION + _AFTER)
_BARE_TURN = lazy(r"([0-9]{1,9})\. " + _SEAT_ACTION + r")\r?\n?")
"""The plainest of them, tried first (one word, nothing after it)."""
_PLAIN_REST = lazy(_SEAT_ACTION + _AFTER)
_BARE_REST = lazy(_SEAT_ACTION + r")()\r?\n?")
"""The same after the ply number expected (``12. ``), which is checked first (and an empty
third group, the comment of _NOTED_REST)."""
_NOTE = r"(?:\{([^}]{0,2048})\}[ \t]*)?\r?\n?"
_NOTED_REST = lazy(_SEAT_ACTION + _WORDS + _NOTE)
"""_PLAIN_REST but for the line breaks in its comment (the third group): a comment without
(its first line is all of it) is read as _PLAIN_REST reads it, a character at a time through
a class of ten, but at once."""
_NOTED_WORDS = lazy(f"({_WORD}" + _WORDS + _NOTE)
"""The same after the seat's name (its action and its comment)."""
_PLY_PREFIX: list[str] = [f"{ply}. " for ply in range(1024)]


def _one_line(note: str, raw: str, at: int) -> bool:
    """Whether the turn line ``raw``, read by _NOTED_REST from ``at`` with the comment
    ``note``, is one _PLAIN_REST reads (no line break in the comment)."""
    return note.splitlines()[0] == note or _PLAIN_REST.fullmatch(raw, at) is not None


def _following(session: Session) -> dict[int, tuple[str | None, int]]:
    """For each seat, the name of the seat after it in turn (what a turn line holds between
    its ply number and ``": "``) and that seat, for a line to be tried first; None where a
    name is not one _SEAT_NAME reads."""
    names = session.names
    count = len(names)
    following: dict[int, tuple[str | None, int]] = {}
    for seat in range(count):
        after = (seat + 1) % count
        name = names[after]
        following[seat] = ((name, after) if _SEAT_NAME.fullmatch(name) is not None
                           and session._seats.get(name) == after else _NO_NEXT)
    return following


def _ply_prefix(ply: int) -> str:
    """``"12. "`` for ply 12 (a table grown as far as the records go)."""
    while len(_PLY_PREFIX) <= ply:
        _PLY_PREFIX.append(f"{len(_PLY_PREFIX)}. ")
    return _PLY_PREFIX[ply]


_BARE_TAG = lazy(
    r'\[([A-Za-z][A-Za-z0-9_]{0,200}) "([^"\\\n\r\v\f\x1c-\x1e\x85\u2028\u2029]{0,4000})"\]\r?\n?')
"""A tag pair as the tool writes one with no escape in its value (read as the reader would)."""
_BLANK = frozenset(("", "\n", "\r\n"))
_NO_FAST: tuple[Any, ...] = ([], {}, 0, None, {}, None)
_SEAT_NAME = lazy(_SEAT)
"""A seat's name, as the turn patterns read one."""
_TOKEN = lazy(f"({_WORD})" + r"\r?\n?")
"""The rest of a turn line of one word after its seat's name, as _BARE_REST reads it."""
_NO_NEXT: tuple[str | None, int] = (None, -1)
_TOKENS: dict[str, str] = {}
"""The rests of turn lines that _TOKEN read, and their word (at most _TOKENS_LIMIT)."""
_TOKENS_LIMIT = 65_536


class _Stream:
    """The verdicts on the records of a text read line by line (see :func:`check_lines`)."""

    def __init__(self, lines: Iterable[str], file: str | None, all_errors: bool,
                 extra: Callable[[Session], list[GameError]] | None, first_line: int) -> None:
        self.lines = iter(lines)
        self.file = file
        self.all_errors = all_errors
        self.extra = extra
        self.lineno = first_line - 1
        self.reader = gtn.Reader(keep=False)
        self.pieces: deque[str] = deque()
        """Lines of one line of input that holds other line breaks (a form feed, ...)."""
        self.pending: deque[Any] = deque()
        """Items read ahead of the one being checked (see :meth:`ahead`)."""
        self.verdicts: list[Checked] = []
        self.starts: dict[Any, Any] = {}
        """The games and initial states made for the records read (see
        :meth:`Session._from_header`; states are never changed in place)."""
        self.record: gtn.Record | None = None
        self.session: Session | None = None
        self.errors: list[GameError] = []
        self.done = True
        """Whether the current record's body is only read (an error ended its check)."""
        self.raised = False
        """Whether an error stopped the check of the current record (nothing more is said)."""

    def run(self) -> list[Checked]:
        with collector.fewer_collections():
            return self._run()

    def _run(self) -> list[Checked]:
        try:
            self._read()
            self.reader.finish()
        except NotationError as exc:
            error = RecordError(exc.message, Where(self.file, exc.line, exc.column))
            return [Checked(1, exc.line or 1, None, 0, [error], unread=True)]
        if self.record is None:
            return [Checked(1, 1, None, 0, [RecordError(
                "no record found (a record starts with [Game \"...\"])",
                Where(self.file, 1, 1))], unread=True)]
        self._close()
        return self.verdicts

    def _next(self) -> Any:
        """The next item read (a record, a tag, a line of the body), or None at the end."""
        reader, pieces = self.reader, self.pieces
        while True:
            if not pieces:
                raw = next(self.lines, None)
                if raw is None:
                    return None
                pieces.extend(raw.splitlines() or ("",))
            self.lineno += 1
            item = reader.line(pieces.popleft(), self.lineno)
            if item is not None:
                return item

    def ahead(self, offset: int) -> gtn.Item | None:
        """The item ``offset`` places after the one being checked in its record's body."""
        if offset >= RESYNC_WINDOW:
            return None
        pending = self.pending
        while len(pending) <= offset:
            if pending and isinstance(pending[-1], gtn.Record):
                return None
            item = self._next()
            if item is None:
                return None
            pending.append(item)
        item = pending[offset]
        return None if isinstance(item, gtn.Record | gtn.Tag) else item

    def _fast(self) -> tuple[Any, ...] | None:
        """What the loop needs to read a plain turn line by itself, when it may: an empty
        tuple when the line is only to be read (the record's check is over)."""
        session = self.session
        if (self.done and self.record is not None and self.reader.in_movetext
                and not self.reader.open and not self.pending and not self.pieces):
            return ()
        if (self.done or session is None or self.pending or self.pieces or session.keep
                or session.ending is not None or session._resync
                or session.player_file or session._offset or session._implied
                or self.reader.open):
            return None
        game = session.game
        return (session.states, session._seats, game.max_plies, game.read_step,
                _following(session), session._chance_step)

    def _read(self) -> None:
        bare, plain = _BARE_TURN.fullmatch, _PLAIN_TURN.fullmatch
        fast: tuple[Any, ...] | None = None
        states, seats, max_plies, step, following, chance = _NO_FAST
        expect, expect_seat = _NO_NEXT
        tokens, token, limit = _TOKENS, _TOKEN.fullmatch, _TOKENS_LIMIT
        lineno = self.lineno
        # The common lines are read in this loop (the next action, a tag pair, a blank line,
        # any plain turn once the record's check is over); the others, and a plain turn
        # that is not simply the next action (a wrong ply number, seat or action: the
        # general path says what), by _slow.
        bare_tag, read_tag, tag_type = _BARE_TAG.fullmatch, self.reader.tag, gtn.Tag
        bare_rest, noted_rest = _BARE_REST.fullmatch, _NOTED_REST.fullmatch
        noted_words = _NOTED_WORDS.fullmatch
        prefixes = _PLY_PREFIX
        for raw in self.lines:
            if raw and raw[0] == "[":
                match = bare_tag(raw)
                if match is not None:
                    lineno += 1
                    self.lineno = lineno
                    item = read_tag(match[1], match[2], lineno)
                    if type(item) is not tag_type:  # a new record: the last one ends
                        self._take(item)
                        fast = self._fast()
                        if fast:
                            states, seats, max_plies, step, following, chance = fast
                            expect, expect_seat = _NO_NEXT
                    continue
            if fast is None and self.session is None and not self.done and raw not in _BLANK:
                # The record's first line of movetext: a plain turn begins its check here.
                match = bare(raw) or plain(raw)
                if match is not None and self._start() is not None:
                    self.reader.in_movetext = True
                    fast = self._fast()
                    if fast:
                        states, seats, max_plies, step, following, chance = fast
                        expect, expect_seat = _NO_NEXT
            if fast:
                ply = len(states)
                try:
                    prefix = prefixes[ply]
                except IndexError:
                    prefix = _ply_prefix(ply)
                seat = None
                if ply > max_plies:
                    pass
                elif expect is not None and (cut := raw.partition(": "))[0] == prefix + expect:
                    # The seat that follows the last one's: what the patterns would read,
                    # without them for one word (most lines of most games), and without its
                    # name for more. (A name holds no ": ", so the line's first one ends it.)
                    rest = cut[2]
                    text = tokens.get(rest)
                    if text is None:
                        word = token(rest) if "{" not in rest else None  # (no word holds "{")
                        if word is not None:
                            text = word[1]
                            if len(tokens) < limit:
                                tokens[rest] = text
                        else:
                            word = noted_words(raw, len(raw) - len(rest))
                            if word is not None:
                                text, note = word.groups()
                                if note and not _one_line(note, raw, len(prefix)):
                                    text = None
                    if text is not None:
                        seat = expect_seat
                elif raw.startswith(prefix):
                    match = bare_rest(raw, len(prefix)) or noted_rest(raw, len(prefix))
                    if match is not None:
                        seat_text, text, note = match.groups()
                        if not note or _one_line(note, raw, len(prefix)):
                            seat = seats.get(seat_text)
                            if seat is None and seat_text == CHANCE_NAME:
                                seat = CHANCE
                if seat is not None:
                    # Whatever goes wrong is read again the general way, which says what (see
                    # Game.read_step).
                    after = (step(states[-1], seat, text) if seat != CHANCE
                             else chance(states[-1], text))
                    if after is not None:
                        states.append(after)
                        lineno += 1
                        expect, expect_seat = following.get(seat, _NO_NEXT)
                        continue
            elif fast is not None and (bare(raw) or plain(raw)):
                lineno += 1  # the record's check is over, and the line is well formed
                continue
            if raw in _BLANK:
                lineno += 1
                continue
            self.lineno = lineno
            self._slow(raw)
            lineno = self.lineno
            fast = self._fast()
            if fast:
                states, seats, max_plies, step, following, chance = fast
                expect, expect_seat = _NO_NEXT
        self.lineno = lineno

    def _slow(self, raw: str) -> None:
        """Read and check a line of input (which may hold other line breaks), then the items
        read ahead meanwhile."""
        pending, pieces = self.pending, self.pieces
        pieces.extend(raw.splitlines() or ("",))
        while pending or pieces:
            if pending:
                self._take(pending.popleft())
                continue
            self.lineno += 1
            item = self.reader.line(pieces.popleft(), self.lineno)
            if item is not None:
                self._take(item)

    def _take(self, item: Any) -> None:
        """Check one item read (the records' own lines, not read ahead)."""
        if isinstance(item, gtn.Record):
            self._close()
            self.record, self.session, self.errors = item, None, []
            self.done = self.raised = False
            return
        if isinstance(item, gtn.Tag):
            return
        if self.done:
            return
        session = self.session or self._start()
        if session is None:
            return
        try:
            session._replay_item(item)
            if session._stopped:
                self.done = True
        except GameError as exc:
            self.errors.append(exc.with_traceback(None))  # not the frames it was raised in
            self.done = self.raised = True

    def _start(self) -> Session | None:
        """The session of the current record, from its header, as its movetext begins; None
        (and the error kept) when the header is refused."""
        assert self.record is not None
        try:
            reader = self.reader
            session = self.session = Session._from_header(
                self.record, self.file, self.starts,
                reader.header if reader.current is self.record else None)
        except GameError as exc:
            self.errors.append(exc.with_traceback(None))
            self.done = self.raised = True
            return None
        session.keep = self.extra is not None
        session._begin_replay(self.errors if self.all_errors else None, self.ahead)
        return session

    def _close(self) -> None:
        """The verdict on the record read so far, at its end."""
        record = self.record
        if record is None:
            return
        errors = self.errors
        session = self.session
        plies = 0
        unchecked: list[str] = []
        try:
            if session is None and not self.raised:
                session = self.session = Session._from_header(record, self.file)
                session.keep = self.extra is not None
                session._begin_replay(errors if self.all_errors else None, self.ahead)
            if session is not None:
                try:
                    if not self.raised:
                        session._end_replay()
                        session._check_result_tags(errors if self.all_errors else None)
                        if self.extra is not None and not errors:
                            errors += self.extra(session)
                finally:
                    plies = session.ply - session.guessed
                    unchecked = session.unchecked()
        except GameError as exc:
            errors.append(exc.with_traceback(None))  # not the frames it was raised in
        self.verdicts.append(Checked(len(self.verdicts) + 1, record.line, record.get("Game"),
                                     plies, errors, unchecked=unchecked))
        self.record = self.session = None
