"""The query language of ``filter --where``: tests on tags and on what the game's record says.

    WhiteElo >= 2500 and (ECO ~ "^B9" or Opening ~ "Sicilian") and not Result = "1/2-1/2"
    Date >= "2020" and plies > 80
    Termination = "time forfeit" or winner = black

A comparison is a field, an operator (``= != < <= > >= ~``) and a value (a quoted string, a
number or a bare word such as ``1-0`` or ``B90``). A field is any tag, in any letter case, or a
derived field: ``plies`` (of the main line), ``result`` (the record's, a '*' kept as PGN wrote
it), ``winner`` (white, black, draw, or none while unfinished), ``opening`` (the Opening
tag, else the opening table's name), and from the ``[%clk H:MM:SS]`` and ``[%eval N]``
comments of the main line: ``min_clock`` (the least time left on either clock, in seconds),
``min_clock_white``, ``min_clock_black``, ``max_eval`` and ``min_eval`` (in pawns, White's view;
a mate in N counts as 100 - N), and from the ``[%emt H:MM:SS]`` comments ``max_move_time``
(the longest a move took, in seconds), ``max_move_time_white`` and ``max_move_time_black``;
a game without such comments has none of them. Two numbers compare as numbers, anything else as text
(any case); ``~`` searches a regular expression (any case). A test on a tag the record lacks
is false, but ``!=``, which is true. ``and`` binds tighter than ``or``; ``not`` tighter still.
A query whose fields are all tags is judged on a PGN game's tags alone, its moves unread.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from gametool.core.errors import GameError

DERIVED = ("plies", "result", "winner", "opening", "min_clock", "min_clock_white",
           "min_clock_black", "max_move_time", "max_move_time_white", "max_move_time_black",
           "max_eval", "min_eval")
"""Fields judged on the game's record (its moves read), not on its tags."""
OPERATORS = ("!=", "<=", ">=", "=", "<", ">", "~")


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
    name = (~(and_ | or_ | not_) + pp.Regex(r"[A-Za-z][A-Za-z0-9_]*")).set_name("a field")
    operator = pp.one_of(list(OPERATORS)).set_name("an operator (= != < <= > >= ~)")
    quoted = pp.QuotedString('"', esc_char="\\", unquote_results=True).set_name("a value")
    bare = (~(and_ | or_ | not_) + pp.Regex(r"[^\s()\"]+")).set_name("a value")
    value = (quoted | bare).set_name("a value")

    def compare(text: str, at: int, tokens: Any) -> Compare:
        field, op, val = tokens
        return Compare(field, op, val, pp.col(at, text))

    comparison = (name - operator - value).set_parse_action(compare)
    expression = pp.Forward()
    atom = comparison | (pp.Suppress("(") - expression - pp.Suppress(")"))
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


def _check(tree: Any, text: str) -> None:
    if isinstance(tree, Compare):
        if tree.operator == "~":
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
    return not (parse(text).fields() & set(DERIVED))


def keeps(text: str, record: Any, derived: dict[str, Any] | None = None) -> bool:
    """Whether a record (something with ``.get(tag)``) passes the query; ``derived`` holds
    the derived fields, when the query has any."""
    return _judge(parse(text), record, derived or {})


def _judge(tree: Any, record: Any, derived: dict[str, Any]) -> bool:
    if isinstance(tree, Both):
        if tree.every:
            return all(_judge(term, record, derived) for term in tree.terms)
        return any(_judge(term, record, derived) for term in tree.terms)
    if isinstance(tree, Not):
        return not _judge(tree.term, record, derived)
    key = tree.field.lower()
    have = derived.get(key) if key in DERIVED else record.get(tree.field)
    if have is None:
        return tree.operator == "!="
    return _compare(str(have), tree.operator, tree.value)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _compare(have: str, operator: str, want: str) -> bool:
    if operator == "~":
        return re.search(want, have, re.IGNORECASE) is not None
    left, right = _number(have), _number(want)
    if left is None or right is None:
        left, right = have.strip().lower(), want.strip().lower()  # type: ignore[assignment]
    if operator == "=":
        return left == right
    if operator == "!=":
        return left != right
    if operator == "<":
        return left < right  # type: ignore[operator]
    if operator == "<=":
        return left <= right  # type: ignore[operator]
    if operator == ">":
        return left > right  # type: ignore[operator]
    return left >= right  # type: ignore[operator]


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
