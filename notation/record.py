"""The ``.gtn`` record format: tag pairs, then movetext with one turn per line.

::

    [Game "colors"]
    [Players "p1; p2"]

    1. p1: d4=R                 { a comment }
    2. p2: e4=R ; a comment to the end of the line
    3. chance: toss heads
    4. p1: meld 1b 2b 3b | discard EW

A turn line holds the ply number of its first action, the seat, and one or more actions
separated by ``|``, then optional annotation glyphs (NAGs: ``$1``, ``$14``) on its last action.
Comments are ``{...}`` or ``; ...``; a comment may also stand on a line of its own.

A game that ends off the board (agreement, adjudication, time forfeit, abandonment) ends with
an ending line: ``end:``, the result as the Result tag writes it, and the reason::

    41. white: Qd2
    end: 1/2-1/2 agreement

A variation is a branch of the line it stands in: ``(`` on a line of its own, turn lines whose
first ply number is the ply they replace, and ``)``. Variations nest::

    5. white: Nf3
    (
    5. white: Bc4 { the bishop first }
    6. black: Nf6
    )
    6. black: Nc6
 Input may have a byte-order mark, CRLF line ends, blank lines and any letter case in tag
names; a file may hold several records, each starting with its tag pairs. This module knows the
syntax only: what an action means is the games' business.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from notation.errors import NotationError
from notation.patterns import lazy

if TYPE_CHECKING:
    import pyparsing as pp

ACTION_SEPARATOR = " | "
SEAT_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.'+@"
"""The ASCII characters of a seat name: a plain name (``ann``) or an email address
(``ann@example.org``)."""
SEAT_PATTERN = r"[\w.'+@-]+"
"""A seat name: letters and digits of any script (``Непомнящий_Ян``, ``李_白``) and
``_ - . ' + @``."""

# Limits of what the reader accepts, checked before the work they bound. A record file is
# bounded as a whole by the record layer; these bound one line, one tag value and one number.
MAX_LINE = 65_536
"""Characters of one line of a record (a tag pair, a turn) beside its comment."""
MAX_TAG_VALUE = 16_384
"""Characters of one tag value, after its escapes are read."""
MAX_TAG_NAME = 256
"""Characters of one tag name."""
MAX_TAG_LINE = len('[ ""]') + MAX_TAG_NAME + len("\\u{10ffff}") * MAX_TAG_VALUE
"""Characters of one tag line: room for the longest name and the longest value with every
character written as an escape, so that any tag read can be written back."""
MAX_COMMENT = 1 << 20
"""Characters of one comment: room for the longest notes of real annotated games (some run
past 32,768 characters)."""
MAX_COMMENTED_LINE = MAX_LINE + MAX_COMMENT
"""Characters of a line that holds a comment: the comment and the rest of the line."""
MAX_REASON = 2_048
"""Characters of the reason of an ending off the board, which may be written all in
escapes."""
MAX_PLY_DIGITS = 9
"""Digits of a ply number: no game comes near a thousand million plies."""

# Tags written first, in this order; the others keep the order they were read in.
TAG_ORDER = ("Game", "Players", "Options", "Seed", "SeedHash", "Position", "Date", "Result",
             "Termination")
_TAG_RANK = {name.lower(): rank for rank, name in enumerate(TAG_ORDER)}
_TAG_NAME = {name.lower(): name for name in TAG_ORDER}


@dataclass(slots=True)
class Tag:
    """One tag pair and the line it was read on (0: made, not read)."""

    name: str
    value: str
    line: int = 0


@dataclass(slots=True)
class Action:
    """The text of one action as written, with the column where it starts."""

    text: str
    column: int = 0


@dataclass(slots=True)
class TurnLine:
    """One movetext line: ply number of its first action, the seat, actions, comment."""

    ply: int
    seat: str
    actions: list[Action]
    comment: str | None = None
    comment_style: str = "{"
    line: int = 0
    column: int = 1
    seat_column: int = 0
    nags: list[int] = field(default_factory=list)


@dataclass(slots=True)
class CommentLine:
    """A comment standing on a line of its own in the movetext."""

    text: str
    style: str = "{"
    line: int = 0


@dataclass(slots=True)
class EndingLine:
    """The end of a game that the moves do not end: the result and the reason."""

    result: str
    reason: str
    comment: str | None = None
    comment_style: str = "{"
    line: int = 0
    column: int = 1


@dataclass(slots=True)
class Variation:
    """A branch: turns that replace the enclosing line from the ply of their first turn."""

    body: list[Item] = field(default_factory=list)
    line: int = 0
    column: int = 1

    @property
    def turns(self) -> list[TurnLine]:
        return [item for item in self.body if isinstance(item, TurnLine)]


@dataclass(slots=True)
class TurnRun:
    """Turn lines in a row, one action each, held as texts: what a converter builds for a
    record that it only writes (one object for a game's moves, not three a move). Line ``i``
    is ply ``ply + i``, of the seat ``seats[i]``, its action ``texts[i]``, its comment
    ``comments.get(i)`` ('{' style) and its NAGs ``nags.get(i)``. The writer writes it as it
    would write those turn lines; the reader never makes one."""

    ply: int
    seats: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    nags: dict[int, list[int]] = field(default_factory=dict)


Item = TurnLine | CommentLine | EndingLine | Variation | TurnRun


@dataclass
class Record:
    """A parsed record: its tags and its body, and the line it starts at."""

    tags: list[Tag] = field(default_factory=list)
    body: list[Item] = field(default_factory=list)
    line: int = 1

    def get(self, name: str) -> str | None:
        tag = self.find(name)
        return None if tag is None else tag.value

    def find(self, name: str) -> Tag | None:
        """The first tag of this name, in any case."""
        at = self._place(name)
        return None if at < 0 else self.tags[at]

    def _place(self, name: str) -> int:
        """The index of the first tag of this name, in any case, or -1 (tag names are ASCII: a
        name of another length is never the same name)."""
        key = name.lower()
        size = len(key)
        for at, tag in enumerate(self.tags):
            other = tag.name
            if len(other) == size and (other == name or other.lower() == key):
                return at
        return -1

    def set(self, name: str, value: str | None) -> None:
        """Set a tag (keeping its place if present); None removes it."""
        at = self._place(name)
        if value is None:
            if at >= 0:
                del self.tags[at]
        elif at >= 0:
            self.tags[at].value = value
        else:
            self.tags.append(Tag(name, value))

    @property
    def turns(self) -> list[TurnLine]:
        return [item for item in self.body if isinstance(item, TurnLine)]

    @property
    def ending(self) -> EndingLine | None:
        kinds = list(map(type, self.body))  # (one pass in C: a body has a line a turn)
        if EndingLine in kinds:
            return self.body[kinds.index(EndingLine)]  # type: ignore[return-value]
        return None


# -- tag values --------------------------------------------------------------------------------

_SIMPLE_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t", "f": "\f"}
_WRITE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t",
                  "\f": "\\f"}
_ESCAPE = lazy(r"\\(?:u\{([0-9A-Fa-f]{1,6})\}|u([0-9A-Fa-f]{4})|(.))", re.DOTALL)
# Characters that a tag value never holds raw in a written record: the escaped ones, and every
# character that ends a line (for Python's reader) or cannot be written as UTF-8.
_UNSAFE = lazy(r'[\\"\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]')


def unescape(body: str) -> str:
    """The value of a quoted tag body.

    ``\\\\`` ``\\"`` ``\\n`` ``\\r`` ``\\t`` ``\\f``, ``\\u{HEX}`` and ``\\uHHHH`` are escapes; a
    backslash before anything else stands for itself."""
    if "\\" not in body:
        return body

    def one(match: re.Match[str]) -> str:
        code, char = match.group(1) or match.group(2), match.group(3)
        if code is not None:
            value = int(code, 16)
            # A surrogate is no character: such an escape stands for itself, like an unknown one.
            return chr(value) if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF \
                else match.group(0)
        return _SIMPLE_ESCAPES.get(char, match.group(0))

    return _ESCAPE.sub(one, body)


def escape(value: str) -> str:
    """The quoted body of a tag value; :func:`unescape` gives the value back exactly."""
    # Every character _UNSAFE names but the quote and the backslash is unprintable: a printable
    # value with neither is written as it is.
    if value.isprintable() and '"' not in value and "\\" not in value:
        return value

    def one(match: re.Match[str]) -> str:
        char = match.group(0)
        return _WRITE_ESCAPES.get(char) or f"\\u{{{ord(char):x}}}"

    return _UNSAFE.sub(one, value)


# -- grammar ---------------------------------------------------------------------------------


def _grammar() -> tuple[pp.ParserElement, pp.ParserElement, pp.ParserElement]:
    import pyparsing as pp  # loaded on first need: lines of the usual shapes never need it

    lbrack, rbrack = pp.Suppress("["), pp.Suppress("]")
    tag_name = pp.Word(pp.alphas, pp.alphanums + "_").set_name("tag name")
    tag_value = pp.Regex(r'"(?:[^"\\]|\\.)*"').set_name("quoted tag value")
    tag_value.add_parse_action(lambda tokens: unescape(tokens[0][1:-1]))
    tag_line = (lbrack - tag_name("name") + tag_value("value") + rbrack).set_name("tag pair")

    brace_comment = pp.Regex(r"\{[^}]*\}").set_name("{comment}")
    semi_comment = pp.Regex(r";.*").set_name("; comment")
    comment = (brace_comment | semi_comment)("comment")

    ply = pp.Word(pp.nums).set_name("ply number")
    seat = pp.Regex(SEAT_PATTERN).set_name("seat")
    actions = pp.Regex(r"[^{};]+").set_name("action")
    turn_line = (
        ply("ply")
        - pp.Suppress(".")
        + pp.Located(seat)("seat")
        + pp.Suppress(":")
        + pp.Located(actions)("actions")
        + pp.Optional(comment)
    ).set_name("turn")
    comment_line = comment.copy().set_name("comment")
    return tag_line, turn_line, comment_line


@functools.cache
def grammar() -> tuple[pp.ParserElement, pp.ParserElement, pp.ParserElement]:
    """The tag, turn and comment-line grammars, built on first use: well-formed lines of the
    usual shapes are read by the regular expressions below without them."""
    built = _grammar()
    for element in built:
        element.parse_with_tabs()  # columns count characters, a tab as one, as the fast paths do
    return built

# The well-formed shapes of a turn line, matched directly for speed: 100,000-ply records are
# read line by line. Anything this does not match goes to the pyparsing grammar above, which
# decides and names the error.
_FAST_TURN = lazy(
    r"(?P<ply>[0-9]+)\.[ \t]*(?P<seat>[\w.'+@-]+)[ \t]*:[ \t]*"
    r"(?P<actions>[^{};|\s][^{};]*)"
    r"(?P<comment>\{[^}]*\}|;.*)?"
)


# The well-formed shape of a tag pair, matched directly for speed (short records are mostly
# tags); anything else goes to the grammar, which decides and names the error.
_FAST_TAG = lazy(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]*\]')


_FAST_COMMENT = lazy(r"\{[^}]*\}|;.*")


def _fast_actions(fast: re.Match[str], indent: int) -> list[Action] | None:
    """The actions of a turn line matched by ``_FAST_TURN``, with their columns; None when a
    piece between ``|`` separators is empty (the grammar then names the error)."""
    start = fast.start("actions") + indent + 1
    text = fast["actions"].rstrip()
    if "|" not in text:
        return [Action(text, start)]
    actions = []
    offset = 0
    for piece in text.split("|"):
        stripped = piece.strip()
        if not stripped:
            return None
        actions.append(Action(stripped, start + offset + len(piece) - len(piece.lstrip())))
        offset += len(piece) + 1
    return actions


def _parse_line(grammar: pp.ParserElement, text: str, lineno: int) -> pp.ParseResults:
    import pyparsing as pp

    try:
        return grammar.parse_string(text, parse_all=True)
    except pp.ParseBaseException as exc:
        found = text[exc.column - 1:].strip()
        what = f"found {found[:20]!r}" if found else "found end of line"
        raise NotationError(f"{exc.msg}, {what}", lineno, exc.column) from None


def _split_actions(located: pp.ParseResults, lineno: int) -> list[Action]:
    start, text = located["locn_start"], located["value"][0]
    out: list[Action] = []
    offset = 0
    for piece in text.split("|"):
        stripped = piece.strip()
        lead = len(piece) - len(piece.lstrip())
        column = start + offset + lead + 1
        if not stripped:
            raise NotationError("empty action between '|' separators", lineno, column)
        out.append(Action(stripped, column))
        offset += len(piece) + 1
    return out


_NAGS = lazy(r"(?:\s+\$[0-9]{1,3})+$")
_ENDING = lazy(
    r"end[ \t]*:[ \t]*(?P<result>[^\s{};\"]+)"
    r"(?:[ \t]+(?:\"(?P<quoted>(?:[^\"\\]|\\.)*)\"|(?P<reason>[^{};\"]*?)))?[ \t]*"
    r"(?P<comment>\{[^}]*\}|;.*)?", re.IGNORECASE)
_PLAIN_REASON = lazy(r"[^{};\"\\\x00-\x1f\x7f-\x9f\u2028\u2029]*")


def _take_nags(actions: list[Action]) -> list[int]:
    """Split the annotation glyphs (``$1 $14``) off the end of a turn's last action."""
    last = actions[-1]
    found = _NAGS.search(" " + last.text)
    if found is None:
        return []
    last.text = (" " + last.text)[:found.start()].strip()
    return [int(word[1:]) for word in found.group().split()]


def _comment_parts(raw: str, lineno: int) -> tuple[str, str]:
    body, style = (raw[1:-1].strip(), "{") if raw.startswith("{") else (raw[1:].strip(), ";")
    if len(body) > MAX_COMMENT:
        # bounded below the line, so that the record can always be written back
        raise NotationError(f"comment of {len(body):,} characters: a comment holds at most "
                            f"{MAX_COMMENT:,}", lineno, 1)
    return body, style


def parse(text: str, first_line: int = 1) -> list[Record]:
    """Read every record in ``text``; raise NotationError at the first syntax error.

    ``first_line`` is the number of the text's first line, when ``text`` is a part of a file.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = Reader()
    read = reader.line
    for lineno, raw in enumerate(text.splitlines(), start=first_line):
        read(raw, lineno)
    reader.finish()
    return reader.records


class Reader:
    """The reader of :func:`parse`, fed one line at a time (a line holds no line break).

    With ``keep`` (as :func:`parse` reads) every line goes to the records built in
    :attr:`records`. Without it, only the tag pairs of the current record (:attr:`current`)
    are kept: :meth:`line` returns each line's item as it is read, a new :class:`Record` (its
    first tag in it) where a record starts, a :class:`Tag` for one of its further tag pairs,
    and a variation of the record's own line whole once its ``)`` is read (the lines inside
    it return None); a blank line returns None. The same input gets the same errors either
    way."""

    def __init__(self, keep: bool = True) -> None:
        self.keep = keep
        self.records: list[Record] = []
        self.current: Record | None = None
        self.in_movetext = False
        self.open: list[Variation] = []
        self.target: list[Item] = []  # the body lines go to: the record's, or a variation's
        self.header: dict[str, str] = {}
        """The current record's tag values by name in lower case (a name is given once)."""

    def finish(self) -> None:
        """The end of the text: a variation left open is an error."""
        if self.open:
            var = self.open[-1]
            raise NotationError("unclosed variation: this '(' has no ')'", var.line, var.column)

    def _item(self, item: Item) -> Item | None:
        if self.keep or self.open:
            self.target.append(item)
            return None
        return item

    def tag(self, name: str, value: str, lineno: int) -> Record | Tag:
        """A tag pair read (its name and value within bounds), as :meth:`line` returns it."""
        tag = Tag(name, value, lineno)
        # A tag after movetext, or one the record already has (a record with no movetext
        # followed by the next record's header), begins a new record.
        current = self.current
        key = name.lower()
        if current is None or self.in_movetext or key in self.header:
            self.finish()
            current = self.current = Record(line=lineno)
            if self.keep:
                self.records.append(current)
            self.target = current.body
            self.in_movetext = False
            current.tags.append(tag)
            self.header = {key: value}
            return current
        current.tags.append(tag)
        self.header[key] = value
        return tag

    def line(self, raw: str, lineno: int) -> Record | Tag | Item | None:
        if len(raw) > MAX_LINE:
            bound = _line_bound(raw.lstrip())
            if len(raw) > bound:
                raise NotationError(f"line of {len(raw):,} characters: a line holds at most "
                                    f"{bound:,}", lineno, 1)
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            return None
        indent = len(line) - len(line.lstrip())
        if stripped.startswith("["):
            fast_tag = _FAST_TAG.fullmatch(stripped)
            if fast_tag is not None:
                result = {"name": fast_tag[1], "value": unescape(fast_tag[2])}
            else:
                result = _parse_line(grammar()[0], stripped, lineno)
            if len(result["name"]) > MAX_TAG_NAME:
                raise NotationError(f"tag name of {len(result['name']):,} characters: a tag "
                                    f"name holds at most {MAX_TAG_NAME:,}", lineno, indent + 2)
            if len(result["value"]) > MAX_TAG_VALUE:
                raise NotationError(f"tag value of {len(result['value']):,} characters: a tag "
                                    f"value holds at most {MAX_TAG_VALUE:,}", lineno,
                                    indent + 1)
            return self.tag(result["name"], result["value"], lineno)
        current = self.current
        if current is None:
            raise NotationError("a record must start with its tag pairs, e.g. [Game \"...\"]",
                                lineno, indent + 1)
        self.in_movetext = True
        if stripped[0] in "{;":
            if _FAST_COMMENT.fullmatch(stripped):
                body, style = _comment_parts(stripped, lineno)
            else:
                result = _parse_line(grammar()[2], stripped, lineno)
                body, style = _comment_parts(result["comment"], lineno)
            return self._item(CommentLine(body, style, lineno))
        if stripped == "(":
            variation = Variation(line=lineno, column=indent + 1)
            self.target.append(variation)
            self.open.append(variation)
            self.target = variation.body
            return None
        if stripped == ")":
            if not self.open:
                raise NotationError("')' closes no variation", lineno, indent + 1)
            closed = self.open.pop()
            self.target = self.open[-1].body if self.open else current.body
            if not self.open and not self.keep:
                current.body.clear()
                return closed
            return None
        ending = _ENDING.fullmatch(stripped)
        if ending is not None:
            comment, style = (_comment_parts(ending["comment"], lineno) if ending["comment"]
                              else (None, "{"))
            reason = (unescape(ending["quoted"]) if ending["quoted"] is not None
                      else (ending["reason"] or "").strip())
            if len(reason) > MAX_REASON:
                raise NotationError(f"reason of {len(reason):,} characters: the reason of an "
                                    f"ending holds at most {MAX_REASON:,}", lineno, indent + 1)
            return self._item(EndingLine(ending["result"], reason, comment, style, lineno,
                                         indent + 1))
        digits = len(stripped) - len(stripped.lstrip("0123456789"))
        if digits > MAX_PLY_DIGITS:
            raise NotationError(f"ply number of {digits:,} digits: at most {MAX_PLY_DIGITS}",
                                lineno, indent + 1)
        fast = _FAST_TURN.fullmatch(stripped)
        actions = _fast_actions(fast, indent) if fast is not None else None
        if fast is not None and actions is not None:
            comment_raw = fast["comment"]
            comment, style = _comment_parts(comment_raw, lineno) if comment_raw else (None, "{")
            text = fast["actions"]
            nags = _take_nags(actions) if "$" in text else []
            return self._item(
                TurnLine(
                    ply=int(fast["ply"]),
                    seat=fast["seat"],
                    actions=actions,
                    comment=comment,
                    comment_style=style,
                    line=lineno,
                    column=indent + 1,
                    seat_column=fast.start("seat") + indent + 1,
                    nags=nags,
                )
            )
        try:
            result = _parse_line(grammar()[1], stripped, lineno)
        except NotationError as exc:
            exc.column = (exc.column or 1) + indent
            raise
        seat_loc = result["seat"]
        actions = _split_actions(result["actions"], lineno)
        for action in actions:
            action.column += indent
        comment = style = None
        if "comment" in result:
            comment, style = _comment_parts(result["comment"], lineno)
        nags = _take_nags(actions)
        return self._item(
            TurnLine(
                ply=int(result["ply"]),
                seat=seat_loc["value"][0],
                actions=actions,
                comment=comment,
                comment_style=style or "{",
                line=lineno,
                column=indent + 1,
                seat_column=seat_loc["locn_start"] + indent + 1,
                nags=nags,
            )
        )


# -- writer ------------------------------------------------------------------------------------


_LINE_BREAKS = lazy(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line(text: str) -> str:
    """A comment as one line: characters that would end the line are written as spaces."""
    # Every character _LINE_BREAKS names is unprintable: a printable text has none of them.
    if text.isprintable() or not _LINE_BREAKS.search(text):
        return text
    return _LINE_BREAKS.sub(" ", text).strip()


def _comment_text(text: str, style: str) -> str:
    text = _one_line(text)
    if not text.isascii():  # a lone surrogate becomes '?', as UTF-8 cannot hold it
        text = text.encode("utf-8", "replace").decode("utf-8")
    if style == ";" or "}" in text:
        return f"; {text}".rstrip()
    return f"{{ {text} }}" if text else "{ }"


_ORDERS: dict[tuple[str, ...], tuple[tuple[int, str], ...]] = {}
"""The writing order of the sequences of tag names met (an archive's records repeat a few)."""


def _order(names: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """The writing order of tags with these names, as (index, name as written): the tags of
    TAG_ORDER first, in that order and in its spelling, then the others as they were read."""
    plan = _ORDERS.get(names)
    if plan is None:
        known: list[tuple[int, int, str]] = []
        other: list[tuple[int, str]] = []
        for index, name in enumerate(names):
            key = name.lower()
            place = _TAG_RANK.get(key)
            if place is None:
                other.append((index, name))
            else:
                known.append((place, index, _TAG_NAME[key]))
        known.sort()
        plan = tuple([(index, name) for _place, index, name in known] + other)
        if len(_ORDERS) >= 1_000:
            _ORDERS.clear()
        _ORDERS[names] = plan
    return plan


def write(record: Record) -> str:
    """The canonical text of one record; parsing it and writing again gives the same text."""
    out = []
    tags = record.tags
    for index, name in _order(tuple([tag.name for tag in tags])):
        value = tags[index].value
        if len(value) > MAX_TAG_VALUE or len(name) > MAX_TAG_NAME:
            raise NotationError(f"the tag {name[:40]} would have a value of "
                                f"{len(value):,} characters, and a tag value holds at most "
                                f"{MAX_TAG_VALUE:,}" if len(value) > MAX_TAG_VALUE else
                                f"a tag name of {len(name):,} characters, and a tag name "
                                f"holds at most {MAX_TAG_NAME:,}")
        if value.isprintable() and '"' not in value and "\\" not in value:
            out.append(f'[{name} "{value}"]')  # (what escape gives for it)
        else:
            out.append(f'[{name} "{escape(value)}"]')
    if record.body:
        out.append("")
    _write_body(record.body, out, "")
    text = "\n".join(out)
    for number, line in enumerate(out if len(text) > MAX_LINE else (), start=1):
        bound = _line_bound(line.lstrip())
        if len(line) > bound:
            raise NotationError(f"the record would have a line of {len(line):,} characters, "
                                f"and a line holds at most {bound:,}", number, 1)
    return text + "\n"


def _line_bound(line: str) -> int:
    """The most characters of a line: a tag line's, a line with a comment's, or any other's."""
    if line.startswith("["):
        return MAX_TAG_LINE
    return MAX_COMMENTED_LINE if "{" in line or ";" in line else MAX_LINE


def _write_body(body: list[Item], out: list[str], indent: str) -> None:
    turn_line, add = TurnLine, out.append
    for item in body:
        if type(item) is turn_line or isinstance(item, TurnLine):  # (the commonest first)
            actions = item.actions  # the commonest line: one action
            text = (actions[0].text if len(actions) == 1
                    else ACTION_SEPARATOR.join([a.text for a in actions]))
            line = f"{indent}{item.ply}. {item.seat}: {text}"
            if item.nags or item.comment is not None:
                line = _annotated(line, item.nags, item.comment, item.comment_style)
            add(line)
            continue
        if type(item) is TurnRun:
            _write_run(item, out, indent)
            continue
        if isinstance(item, CommentLine):
            out.append(indent + _comment_text(item.text, item.style))
            continue
        if isinstance(item, Variation):
            out.append(indent + "(")
            _write_body(item.body, out, indent + "  ")
            out.append(indent + ")")
            continue
        reason = item.reason  # an ending line
        if len(reason) > MAX_REASON:
            raise NotationError(f"the reason of the ending would have {len(reason):,} "
                                f"characters, and it holds at most {MAX_REASON:,}")
        if reason.strip() != reason or not _PLAIN_REASON.fullmatch(reason):
            reason = f'"{escape(reason)}"'
        line = f"end: {item.result} {reason}".rstrip()
        if item.comment is not None:
            line += " " + _comment_text(item.comment, item.comment_style)
        out.append(indent + line)


def _write_run(run: TurnRun, out: list[str], indent: str) -> None:
    """The lines of ``run``, as _write_body writes the turn lines it stands for."""
    ply, comments, nags = run.ply, run.comments, run.nags
    if not comments and not nags:
        out += [f"{indent}{ply + i}. {seat}: {text}"
                for i, (seat, text) in enumerate(zip(run.seats, run.texts, strict=True))]
        return
    add = out.append
    for i, (seat, text) in enumerate(zip(run.seats, run.texts, strict=True)):
        line = f"{indent}{ply + i}. {seat}: {text}"
        if i in nags or i in comments:
            line = _annotated(line, nags.get(i), comments.get(i), "{")
        add(line)


def _annotated(line: str, nags: list[int] | None, comment: str | None, style: str) -> str:
    """A turn line's text followed by its NAGs and its comment."""
    if nags:
        line += "".join([f" ${nag}" for nag in nags])
    if comment is not None:
        if comment and style != ";" and comment.isprintable() and "}" not in comment:
            return f"{line} {{ {comment} }}"  # (what _comment_text makes of it)
        line += " " + _comment_text(comment, style)
    return line


def write_all(records: list[Record]) -> str:
    return "\n".join(write(r) for r in records)
