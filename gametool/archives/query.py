"""The query language of ``filter --where``: tests on tags and on what the game's moves say.

    WhiteElo >= 2500 and (ECO ~ "^B9" or Opening ~ "Sicilian") and not Result = "1/2-1/2"
    Date >= "2020" and game.plies > 80
    Termination = "time forfeit" or game.winner = black
    not exists(WhiteElo) or WhiteElo = "?"

A comparison is a field, an operator (``= != < <= > >= ~``) and a value (a quoted string, a
number or a bare word such as ``1-0`` or ``B90``). A field is a tag, spelled as the PGN writes
it (any letter case): ``Result`` and ``Opening`` are the tags. What is read from the moves has a
name no tag can have, after ``game.``: ``game.plies`` (of the main line), ``game.result`` (the
record's, a '*' kept as PGN wrote it), ``game.winner`` (white, black, draw, or none while
unfinished), ``game.opening`` (the Opening tag, else the opening table's name), and from the
``[%clk H:MM:SS]`` and ``[%eval N]`` comments of the main line ``game.min_clock`` (the least
time left on either clock, in seconds), ``game.min_clock_white``, ``game.min_clock_black``,
``game.max_eval`` and ``game.min_eval`` (in pawns, White's view; a mate in N counts as
100 - N), and from the ``[%emt H:MM:SS]`` comments ``game.max_move_time`` (the longest a move
took, in seconds), ``game.max_move_time_white`` and ``game.max_move_time_black``; a game
without such comments has none of them.

Unknown is not a value, as SQL's NULL: a comparison with a field that is missing, empty or
``?`` (``????.??.??`` for a date) is unknown, and so is one that cannot be decided (a number
asked of a field that holds no number; a date asked whose parts needed are ``??``). ``not`` of
the unknown is unknown, ``and`` and ``or`` are as SQL's, and a record whose query ends unknown
is left out: ``WhiteElo >= 2400`` and ``not WhiteElo >= 2400`` both leave out a game with
``[WhiteElo "?"]``. To ask for the unknown on purpose: ``exists(Tag)`` holds when the tag is
written (whatever its value), ``Tag = "?"`` when its value is unknown (missing, empty or
``?``), ``Tag != "?"`` when it is known.

A number asked (``WhiteElo >= 2400``) compares as a number; a date asked of a field named
``...Date`` (``Date >= "2020.06"``) compares as a date by its parts, year, month, day, as far
as the value asked goes, a ``??`` part deciding nothing (``2019.??.??`` is before ``2020.06``,
``2020.??.??`` unknown); anything else compares as text (any case); ``~`` searches a regular
expression (any case). ``and`` binds tighter than ``or``; ``not`` tighter still. A query whose
fields are all tags is judged on a PGN game's tags alone, its moves unread.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from gametool.core.errors import GameError

PREFIX = "game."
"""What the names of the fields read from the moves begin with (no PGN tag has a dot)."""
DERIVED = ("plies", "result", "winner", "opening", "min_clock", "min_clock_white",
           "min_clock_black", "max_move_time", "max_move_time_white", "max_move_time_black",
           "max_eval", "min_eval")
"""The fields judged on the game's moves (after :data:`PREFIX`), not on its tags."""
OPERATORS = ("!=", "<=", ">=", "=", "<", ">", "~")
UNKNOWN = "?"
"""The value asked by ``Tag = "?"``: the tag is missing, empty or ``?``."""


@dataclass(frozen=True)
class Compare:
    """A comparison of a field (a tag or a derived field) with a value, at its column."""

    field: str
    operator: str
    value: str
    column: int

    def fields(self) -> set[str]:
        return {self.field.lower()}


@dataclass(frozen=True)
class Exists:
    """``exists(Field)``: the field is written, whatever its value."""

    field: str
    column: int

    def fields(self) -> set[str]:
        return {self.field.lower()}


@dataclass(frozen=True)
class Not:
    """The negation of a term (``not``)."""

    term: Any

    def fields(self) -> set[str]:
        return self.term.fields()


@dataclass(frozen=True)
class Both:
    """All of the terms (``and``), or any of them (``or``)."""

    terms: tuple[Any, ...]
    every: bool

    def fields(self) -> set[str]:
        return set().union(*(term.fields() for term in self.terms))


@functools.cache
def _grammar() -> Any:
    import pyparsing as pp

    keyword = pp.CaselessKeyword
    and_, or_, not_ = keyword("and"), keyword("or"), keyword("not")
    name = (~(and_ | or_ | not_) + pp.Regex(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?")
            ).set_name("a field")
    operator = pp.one_of(list(OPERATORS)).set_name("an operator (= != < <= > >= ~)")
    quoted = pp.QuotedString('"', esc_char="\\", unquote_results=True).set_name("a value")
    bare = (~(and_ | or_ | not_) + pp.Regex(r"[^\s()\"]+")).set_name("a value")
    value = (quoted | bare).set_name("a value")

    def compare(text: str, at: int, tokens: Any) -> Compare:
        field, op, val = tokens
        return Compare(field, op, val, pp.col(at, text))

    def exists(text: str, at: int, tokens: Any) -> Exists:
        return Exists(tokens[0], pp.col(at, text))

    written = (pp.Suppress(keyword("exists") + "(") - name - pp.Suppress(")")
               ).set_parse_action(exists)
    comparison = (name - operator - value).set_parse_action(compare)
    expression = pp.Forward()
    atom = written | comparison | (pp.Suppress("(") - expression - pp.Suppress(")"))
    negated = pp.Forward()
    negated <<= ((pp.Suppress(not_) - negated).set_parse_action(lambda t: Not(t[0])) | atom
                 ).set_name("a comparison, 'not' or '('")
    conjunction = (negated + pp.ZeroOrMore(pp.Suppress(and_) - negated)).set_parse_action(
        lambda t: t[0] if len(t) == 1 else Both(tuple(t), True))
    expression <<= (conjunction + pp.ZeroOrMore(pp.Suppress(or_) - conjunction)
                    ).set_parse_action(lambda t: t[0] if len(t) == 1 else Both(tuple(t), False))
    return expression


@functools.lru_cache(maxsize=16)
def parse(text: str) -> Any:
    """The query of ``text``; GameError in one line naming the column at fault."""
    import pyparsing as pp

    try:
        tree = _grammar().parse_string(text, parse_all=True)[0]
    except pp.ParseBaseException as exc:
        found = f"at {text[exc.loc:exc.loc + 12]!r}" if exc.loc < len(text) else "at its end"
        raise GameError(f"--where: column {exc.column}: {_expected(exc)}, {found}") from None
    _check(tree, text)
    return tree


def _expected(exc: Any) -> str:
    message = str(exc.msg)
    return message[0].lower() + message[1:] if message else "unexpected text"


_MOVED = {name for name in DERIVED if name not in ("result", "opening")}
"""The fields read from the moves whose bare names were once fields (``plies``): no tag has
them, and a query that names one is told its new name."""


def _check(tree: Any, text: str) -> None:
    if isinstance(tree, (Compare, Exists)):
        key = tree.field.lower()
        if key.startswith(PREFIX) and key[len(PREFIX):] not in DERIVED:
            raise GameError(f"--where: column {tree.column}: {tree.field!r} is no field of "
                            "the game: " + ", ".join(PREFIX + name for name in DERIVED))
        if "." in key and not key.startswith(PREFIX):
            raise GameError(f"--where: column {tree.column}: {tree.field!r} is no tag (a tag "
                            f"has no dot) and no field of the game ({PREFIX}plies, ...)")
        if key in _MOVED:
            raise GameError(f"--where: column {tree.column}: {tree.field!r} is read from the "
                            f"moves: write {PREFIX}{key}")
        if isinstance(tree, Compare) and tree.operator == "~":
            try:
                re.compile(tree.value)
            except re.error as exc:
                raise GameError(f"--where: column {tree.column}: {tree.value!r} is not a "
                                f"regular expression ({exc})") from None
        return
    for term in (tree.terms if isinstance(tree, Both) else (tree.term,)):
        _check(term, text)


def on_tags(text: str) -> bool:
    """Whether the query needs only tags."""
    return not any(key.startswith(PREFIX) for key in parse(text).fields())


def keeps(text: str, record: Any, derived: dict[str, Any] | None = None) -> bool:
    """Whether a record (something with ``.get(tag)``) passes the query; ``derived`` holds
    the derived fields (by their names after ``game.``), when the query has any. A query
    whose answer is unknown does not pass."""
    return _judge(parse(text), record, derived or {}) is True


def _value(field: str, record: Any, derived: dict[str, Any]) -> Any:
    key = field.lower()
    if key.startswith(PREFIX):
        return derived.get(key[len(PREFIX):])
    if key == "result":
        # The tag as the PGN wrote it: a record imported keeps it in PGNResult when the moves
        # end the game otherwise.
        written = record.get("PGNResult")
        if written is not None:
            return written
    return record.get(field)


def _judge(tree: Any, record: Any, derived: dict[str, Any]) -> bool | None:
    """True, False, or None for unknown (as SQL's three values)."""
    if isinstance(tree, Both):
        answers = [_judge(term, record, derived) for term in tree.terms]
        if tree.every:
            return False if False in answers else (None if None in answers else True)
        return True if True in answers else (None if None in answers else False)
    if isinstance(tree, Not):
        answer = _judge(tree.term, record, derived)
        return None if answer is None else not answer
    have = _value(tree.field, record, derived)
    if isinstance(tree, Exists):
        return have is not None
    if tree.operator in ("=", "!=") and tree.value.strip() == UNKNOWN:
        return is_unknown(have) == (tree.operator == "=")
    if is_unknown(have):
        return None
    return _compare(tree.field, str(have), tree.operator, tree.value)


_ALL_UNKNOWN = re.compile(r"[?.\-/ ]*")


def is_unknown(value: Any) -> bool:
    """Whether a field's value says nothing: missing, empty, ``?``, or a date of ``?`` alone."""
    if value is None:
        return True
    if not isinstance(value, str):
        return False
    return _ALL_UNKNOWN.fullmatch(value.strip()) is not None


_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_DATE = re.compile(r"(\d{4}|\?{4})(?:[.\-/](\d\d|\?\?)(?:[.\-/](\d\d|\?\?))?)?")


def _number(text: str) -> float | None:
    text = text.strip()
    return float(text) if _NUMBER.fullmatch(text) else None


def _date_parts(text: str) -> list[int | None] | None:
    """A date's year, month and day as far as written, None for a part written ``??``."""
    found = _DATE.fullmatch(text.strip())
    if found is None:
        return None
    return [None if part.startswith("?") else int(part) for part in found.groups() if part]


def _order(sign: int, operator: str) -> bool:
    return {"=": sign == 0, "!=": sign != 0, "<": sign < 0, "<=": sign <= 0, ">": sign > 0,
            ">=": sign >= 0}[operator]


def _compare(field: str, have: str, operator: str, want: str) -> bool | None:
    if operator == "~":
        return re.search(want, have, re.IGNORECASE) is not None
    if field.lower().endswith("date"):
        asked = _date_parts(want)
        if asked is not None and None not in asked:
            return _compare_dates(have, asked, operator)
    right = _number(want)
    if right is not None:
        left = _number(have)
        if left is None:
            return None  # a number asked of a field that holds none
        return _order((left > right) - (left < right), operator)
    text, asked_text = have.strip().lower(), want.strip().lower()
    return _order((text > asked_text) - (text < asked_text), operator)


def _compare_dates(have: str, asked: list[int], operator: str) -> bool | None:
    """A date against the parts asked: decided by the first part that differs, unknown when
    a part needed is ``??`` (or not written)."""
    parts = _date_parts(have)
    if parts is None:
        return None
    for index, want in enumerate(asked):
        part = parts[index] if index < len(parts) else None
        if part is None:
            return None
        if part != want:
            return _order(1 if part > want else -1, operator)
    return _order(0, operator)


def derived_fields(session: Any, plies: int) -> dict[str, Any]:
    """The derived fields of a record."""
    record = session.record
    result = record.get("PGNResult") or record.get("Result") or "*"
    winner = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}.get(result.strip(), "none")
    opening = record.get("Opening")
    if opening is None and session.game.id == "chess":
        from gametool.pgn import eco

        found = eco.table().find(session)
        opening = found[1] if found else None
    out = {"plies": plies, "result": result, "winner": winner, "opening": opening}
    out.update(annotations(session))
    return out


_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
_MOVE_TIME = re.compile(r"\[%emt\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
_EVAL = re.compile(r"\[%eval\s+(#?)([+-]?\d+(?:\.\d+)?)")


def _annotated(session: Any) -> Any:
    """The main line's turns with [%...] commands in their comments, as (seat, comment)."""
    from notation import record as gtn

    names = [name.lower() for name in session.names]
    for item in session.record.body:
        if isinstance(item, gtn.TurnLine) and item.comment and "[%" in item.comment:
            seat = item.seat.lower()
            yield (names.index(seat) if seat in names else -1), item.comment


def clock_readings(session: Any, command: re.Pattern[str] = _CLOCK) -> list[list[float]]:
    """Each seat's [%clk] readings along the main line (or those of ``command``, another
    H:MM:SS command such as [%emt]), in seconds."""
    clocks: list[list[float]] = [[] for _ in session.names]
    for seat, comment in _annotated(session):
        for hours, minutes, seconds in command.findall(comment):
            if 0 <= seat < len(clocks):
                clocks[seat].append(int(hours) * 3600 + int(minutes) * 60 + float(seconds))
    return clocks


def annotations(session: Any) -> dict[str, float]:
    """The clock and evaluation fields of a record, from its main line's comments."""
    readings = clock_readings(session)
    clocks = {0: readings[0] if readings else [], 1: readings[1] if len(readings) > 1 else []}
    evals: list[float] = []
    for _seat, comment in _annotated(session):
        for mate, value in _EVAL.findall(comment):
            number = float(value)
            evals.append((100 - abs(number)) * (1 if number > 0 else -1) if mate else number)
    out: dict[str, float] = {}
    if clocks[0] or clocks[1]:
        out["min_clock"] = min(clocks[0] + clocks[1])
    if clocks[0]:
        out["min_clock_white"] = min(clocks[0])
    if clocks[1]:
        out["min_clock_black"] = min(clocks[1])
    taken = clock_readings(session, _MOVE_TIME)
    for index, suffix in ((0, "_white"), (1, "_black")):
        if len(taken) > index and taken[index]:
            out["max_move_time" + suffix] = max(taken[index])
    if any(taken[:2]):
        out["max_move_time"] = max(value for seat in taken[:2] for value in seat)
    if evals:
        out["max_eval"], out["min_eval"] = max(evals), min(evals)
    return out
