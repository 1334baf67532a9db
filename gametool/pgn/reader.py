"""PGN in: the games of a PGN file become chess records (``.gtn``) (and back: see pgn_export).

Reading is game by game: a game that cannot be read or played is refused with the line and
column of its offending token, and the others are still imported. What real files hold is read
as the PGN standard and common practice have it: move numbers with any number of periods,
Latin-1 text, ``e.p.`` after en-passant captures, null moves (``--``), a missing result (read as
``*``), unescaped quotes inside tag values, tags and moves on one line, games with tags and no
moves (tags after an empty line that follows tags start another game), and games that go on
past an automatic draw (read under the chess option ``automatic_draws=off``). What is mended is
said in a warning at its place: stray punctuation between moves (a comma) is skipped.

Every tag is kept in order, comments (also the one before the first move; the line breaks in a
comment become spaces, as a record's comment is one line), NAGs (``$n`` and the ``!?`` glyphs)
and variations, which become variations of the record and are checked move by move. A game the
moves do not end (an agreed draw, a time forfeit, a resignation) ends with the record's ending
line, its reason taken from the Termination tag. A result that contradicts the moves is refused
(with ``fix_results``, the moves' result is taken and the tag OriginalResult keeps the other);
a ``*`` stays ``*`` (the tag PGNResult keeps it when the moves end the game).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from gametool.core import collector
from gametool.core.errors import GameError, RecordError, Where
from gametool.records import Session
from notation import record as gtn
from notation.patterns import lazy

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ROSTER_DEFAULTS = {"Date": "????.??.??"}
GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
# Tags the record keeps for itself, never written back as they are.
OWN_TAGS = {"game", "players", "options", "seed", "seedhash", "position", "view", "fen",
            "setup", "result", "termination", "pgntermination", "pgnresult"}
AUTOMATIC_DRAWS = ("fivefold repetition", "75-move rule", "dead position")

# The alternatives start with different characters, except a result and a move number (the
# result is tried first) and castling with zeros and a result (0-0 is no result): the
# commonest tokens come first.
_TOKEN = lazy(
    r"(?P<move>(?:[O0]-[O0](?:-[O0])?|--|[A-Za-z][A-Za-z0-9=\-]*)[+#]?"
    r"(?P<glyph>[!?]{1,2})?(?:[ \t]*e\.p\.)?)"
    r"|(?P<result>(?:1-0|0-1|1/2-1/2|\*)(?![\w/-]))"
    r"|(?P<number>[0-9]+(?:[ \t]*\.)*)"
    r"|(?P<tag>\[[^\n]*)"
    r"|(?P<comment>\{[^}]*\}?)"
    r"|(?P<semi>;[^\n]*)"
    r"|(?P<escape>^%[^\n]*)"
    r"|(?P<nag>\$[0-9]+)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<dots>\.+)"
    r"|(?P<stray>[!?]{1,2})"
    r"|(?P<bad>\S)",
    re.MULTILINE,
)
# The common run of movetext: a move number (if any) and one or two moves ("12. Nf3 Nc6",
# "13. Bb5", "a6") read by one match where the loop over _TOKEN takes a match a token; each
# part is exactly the token _TOKEN reads at its place. The number ends where _TOKEN's does, and
# is no result nor castling with zeros, as the move after it starts with a letter, O, 0 or "--"
# ("1-0", "0-1", "1/2-1/2", "0-0" are no number and move). A move's alternatives are _TOKEN's
# and, held atomic, end where _TOKEN's do; a glyph or an "e.p." after it would belong to
# _TOKEN's move, so such a move is left to the loop, as is everything else.
_MOVE = (r"(?>((?:[O0]-[O0](?:-[O0])?|--|[A-Za-z][A-Za-z0-9=\-]*)[+#]?))"
         r"(?![!?]|[ \t]*e\.p\.)")
_PLAIN = lazy(r"\s*(?:[0-9]++(?:[ \t]*\.)*+\s*)?" + _MOVE + r"(?:\s*" + _MOVE + ")?")
# The common tag line, [Name "value"] alone on its line, read as _tag reads it. The space before
# it holds at most one line break: an empty line between tags is left to the loop (it may end a
# game with tags and no moves), as is every other tag.
_PLAIN_TAG = lazy(
    r'[ \t\r]*\n?[ \t\r]*(\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*'
    r'"([^"\\\n]*+(?:\\.[^"\\\n]*+)*+)"[ \t]*\])'  # _TAG_ONE's value, unrolled
    r"(?=[^\S\n]*(?:\n|\Z))"
)
_TAG = lazy(r'[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"(.*)"[ \t]*\][ \t]*\r?$')
_TAG_ONE = lazy(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
"""One tag pair as the standard writes it, whatever follows it on its line."""
_ONLY_TAGS = lazy(r'[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"[^\n]*\][ \t]*\r?')
"""A line of tags and nothing else (a tag line that ends with its ']')."""
_BLANK_LINE = lazy(r"\n[ \t\r]*\n")
STRAY = set(",:;'\"`|~^&_=<>@\\/+#-.")
"""Punctuation that other tools leave between moves: skipped with a warning."""
_SPACE = lazy(r"\s*")
_NEXT_TAG = lazy(r"^[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*\"", re.MULTILINE)
_UNESCAPE = lazy(r"\\([\\\"])")


class PgnError(Exception):
    """A game that cannot be read: the message and the offset of the offending token."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class Node:
    """One move as written, with what follows it: NAGs, comments and alternatives to it (most
    moves have none: the lists are made for the moves that do)."""

    __slots__ = ("san", "offset", "nags", "comments", "variations")
    NONE: tuple[()] = ()
    san: str
    offset: int
    nags: list[int] | tuple[()]
    comments: list[str] | tuple[()]
    variations: list[Line] | tuple[()]

    def __init__(self, san: str, offset: int) -> None:
        self.san = san
        self.offset = offset
        # The shared empty tuple (Node.NONE) in one assignment: a node is made for every move.
        self.nags = self.comments = self.variations = ()

    def __repr__(self) -> str:
        return f"Node({self.san!r}, {self.offset})"

    def add_nag(self, nag: int) -> None:
        if not self.nags:
            self.nags = []
        self.nags.append(nag)

    def add_comment(self, text: str) -> list[str]:
        if not self.comments:
            self.comments = []
        self.comments.append(text)
        return self.comments

    def add_variation(self, line: Line) -> None:
        if not self.variations:
            self.variations = []
        self.variations.append(line)


@dataclass
class Line:
    """A sequence of moves: the main line or a variation, with the comments before it."""

    nodes: list[Node] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    offset: int = 0


@dataclass
class PgnGame:
    """One game as a PGN text holds it: tags, moves, result, and where they are."""

    index: int
    tags: list[tuple[str, str]]
    main: Line
    result: str | None
    """The result token; None when the game has none."""
    start: int
    end: int
    result_offset: int = 0
    tag_offsets: dict[str, int] = field(default_factory=dict)
    mends: list[tuple[int, str]] = field(default_factory=list)
    """What was mended while reading, as (offset, warning): stray punctuation skipped."""
    nulls: bool = True
    """False when the game's text holds no null move: neither '--' nor 'Z0' anywhere."""

    def tag(self, name: str) -> str | None:
        """The value of a tag; the last one when it is given twice."""
        key = name.lower()
        for tag, value in reversed(self.tags):
            if tag.lower() == key:
                return value
        return None

    @property
    def moves(self) -> list[Node]:
        return self.main.nodes


@dataclass
class Refusal:
    """A game that was not imported: where, why, and its original text."""

    index: int
    line: int
    column: int
    message: str
    text: str

    def where(self, file: str | None) -> str:
        return f"{file or '<stdin>'}:{self.line}:{self.column}: game {self.index}: {self.message}"


@dataclass
class Imported:
    """A game read into a record: the record's text, the warnings met on the way, and the
    session when the caller asked to keep it (a long archive's positions are not kept)."""

    index: int
    text: str
    warnings: list[str]
    session: Session | None = None


@dataclass
class Report:
    """Everything an import produced: records, refusals and warnings in file order."""

    games: list[Imported]
    refused: list[Refusal]
    messages: list[str]

    def text(self) -> str:
        return "\n".join(g.text for g in self.games)


# -- text -------------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """UTF-8 when the bytes are UTF-8, else Latin-1 (the PGN standard's character set)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.lstrip("\ufeff").replace("\r\n", "\n")


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _tag(text: str, start: int) -> tuple[str, str, int]:
    """The tag pair at ``start`` and where reading goes on: after it on the same line (tags
    and moves may share a line), or at the line's end for a value with unescaped quotes."""
    stop = text.find("\n", start)
    stop = len(text) if stop < 0 else stop
    found = _TAG_ONE.match(text, start, stop)
    if found is not None:
        rest = text[found.end():stop].strip()
        if not rest or rest.startswith("[") or _TAG.match(text, start, stop) is None:
            return found.group(1), _UNESCAPE.sub(r"\1", found.group(2)), found.end()
    found = _TAG.match(text, start, stop)
    if found is None:
        raise PgnError('malformed tag pair: expected [Name "value"]', start)
    return found.group(1), _UNESCAPE.sub(r"\1", found.group(2)), stop


def _resync(text: str, offset: int) -> int:
    """Where the next game starts after an error at ``offset``: the next tag line that follows
    a line which is not a tag line."""
    pos = text.find("\n", offset)
    while pos >= 0:
        after = pos + 1
        stop = text.find("\n", after)
        if not _ONLY_TAGS.fullmatch(text, after, len(text) if stop < 0 else stop):
            break  # a line of moves, or of tags and moves: a game of its own follows
        pos = stop
    if pos < 0:
        return len(text)
    found = _NEXT_TAG.search(text, pos)
    return found.start() if found else len(text)


def read_games(text: str, held: list[int] | None = None) -> Iterator[PgnGame | Refusal]:
    """The games of a PGN text in order, each read or refused; never stops at a bad game.

    With ``held`` (the text is the start of a longer one) the last game is not given but its
    offset appended to ``held``: only a game that another follows is read as the whole text
    would read it (each game's reading ends at its result, or where the next game starts; a
    game cut short, or a refusal whose text runs to the end, is read again with more)."""
    index = 0
    pos = 0
    size = len(text)
    last: PgnGame | Refusal | None = None
    last_start = 0
    while True:
        # The next game starts at the next character that is not white space: every such
        # character starts a token.
        start = _SPACE.match(text, pos).end()
        if start == size:
            break
        index += 1
        try:
            item: PgnGame | Refusal = _read_game(text, start, index)
            pos = item.end  # type: ignore[union-attr]
        except PgnError as exc:
            end = _resync(text, exc.offset)
            line, column = _position(text, exc.offset)
            item = Refusal(index, line, column, exc.message, text[start:end].rstrip() + "\n")
            pos = end
        if held is None:
            yield item
            continue
        if last is not None:
            yield last
        last, last_start = item, start
    if held is not None:
        held.append(last_start if last is not None else size)


def _read_game(text: str, start: int, index: int) -> PgnGame:
    tags: list[tuple[str, str]] = []
    offsets: dict[str, int] = {}
    mends: list[tuple[int, str]] = []
    main = Line(offset=start)
    line = main
    stack: list[tuple[Line, int]] = []
    in_moves = False
    pos = start
    last_end = start

    def game(result: str | None, end: int, result_at: int) -> PgnGame:
        nulls = text.find("--", start, end) >= 0 or text.find("Z0", start, end) >= 0
        return PgnGame(index, tags, main, result, start, end, result_at, offsets, mends, nulls)

    # The game's tag lines, a match each, up to anything else (a scanner's matches: each
    # where the last ended).
    next_tag = _PLAIN_TAG.scanner(text, pos).match
    found = next_tag()
    while found is not None:
        name, value = found.group(2, 3)
        tags.append((name, _UNESCAPE.sub(r"\1", value) if "\\" in value else value))
        offsets.setdefault(name.lower(), found.start(1))
        pos = last_end = found.end()
        found = next_tag()
    plain, new = _PLAIN.match, object.__new__
    while True:
        found = plain(text, pos)
        if found is not None:
            # A run of plain moves (and their numbers), up to anything else.
            append = line.nodes.append
            while found is not None:
                # Node(found[1], found.start(1)), made here field by field (a call less).
                node = new(Node)
                node.san, node.offset = found[1], found.start(1)
                node.nags = node.comments = node.variations = ()
                append(node)
                pos = found.end()
                if found[2] is not None:
                    node = new(Node)
                    node.san, node.offset = found[2], found.start(2)
                    node.nags = node.comments = node.variations = ()
                    append(node)
                elif text.startswith(" {", pos):
                    break  # a comment after the move (read below)
                found = plain(text, pos)
            in_moves = True
            last_end = pos
        if text.startswith(" {", pos) or text.startswith("\n{", pos):
            # A comment after a move, as engines write one after every move: read here, as
            # the search below would find it, without the search.
            close = text.find("}", pos + 2)
            if close >= 0:
                said = text[pos + 2:close]
                node = line.nodes[-1] if line.nodes else None
                # The commonest: the move's first comment, printable (so on one line), its only
                # white space single spaces: kept as _brace_comment would keep it.
                if (node is not None and not node.comments and said.isprintable()
                        and "  " not in said and len(said) <= gtn.MAX_COMMENT):
                    node.comments = [said.strip()]
                else:
                    _brace_comment(line, text, pos + 1, close + 1)
                pos = last_end = close + 1
                in_moves = True
                continue
        token = _TOKEN.search(text, pos)
        if token is None:
            break
        kind = token.lastgroup
        at = token.start()
        pos = token.end()
        if kind == "move":
            san = token.group()
            if "e.p." in san:
                san = san.replace("e.p.", "").rstrip()
            node = Node(san, at)
            glyph = token.group("glyph")
            if glyph:
                node.add_nag(GLYPHS[glyph])
            line.nodes.append(node)
            in_moves = True
        elif kind in ("number", "dots", "escape"):
            in_moves = in_moves or kind != "escape"
        elif kind == "comment":
            if not text.endswith("}", at, pos):
                raise PgnError("unclosed comment: this '{' has no '}'", at)
            _brace_comment(line, text, at, pos)
            in_moves = True
        elif kind == "semi":
            _comment(line, token.group()[1:].strip(), at)
            in_moves = True
        elif kind == "tag":
            if in_moves:
                if stack:
                    raise PgnError("unclosed variation: this '(' has no ')'", stack[-1][1])
                # The next game's tags: this game had no result.
                return game(None, at, at)
            name, value, after = _tag(text, at)
            if tags and name.lower() in offsets and _BLANK_LINE.search(text, last_end, at):
                # After an empty line that follows tags, a tag this game has already: the
                # next game's, this one has tags and no moves. (A blank line amid one game's
                # tags, as after ChessBase's [Event], does not end it.)
                return game(None, at, at)
            pos = after
            tags.append((name, value))
            offsets.setdefault(name.lower(), at)
        elif kind in ("nag", "stray"):
            if not line.nodes:
                raise PgnError(f"annotation {token.group()!r} before any move", at)
            value = token.group()
            nag = int(value[1:]) if kind == "nag" else GLYPHS[value]
            if nag > 255:
                raise PgnError(f"annotation {value}: a NAG is $0 to $255", at)
            line.nodes[-1].add_nag(nag)
        elif kind == "open":
            if not line.nodes:
                raise PgnError("a variation must follow the move it replaces", at)
            variation = Line(offset=at)
            line.nodes[-1].add_variation(variation)
            stack.append((line, at))
            line = variation
            in_moves = True
        elif kind == "close":
            if not stack:
                raise PgnError("')' closes no variation", at)
            if not line.nodes:
                raise PgnError("an empty variation", stack[-1][1])
            line = stack.pop()[0]
        elif kind == "result":
            if stack:
                raise PgnError("unclosed variation: this '(' has no ')'", stack[-1][1])
            return game(token.group(), token.end(), at)
        elif token.group() in STRAY and in_moves:
            mends.append((at, f"stray {token.group()!r} between moves skipped"))
        else:
            raise PgnError(f"unexpected {token.group()!r}", at)
        last_end = pos
    if stack:
        raise PgnError("unclosed variation: this '(' has no ')'", stack[-1][1])
    return game(None, len(text), len(text))


def _brace_comment(line: Line, text: str, at: int, end: int) -> None:
    """Keep the comment ``text[at:end]``, from its '{' to its '}' (a '{' inside is text:
    comments do not nest), its white space as single spaces."""
    inner = text[at + 1:end - 1]
    if "\n" in inner:
        # A tag line within it (one that starts after a line break: a comment on one line
        # is never looked through).
        following = _NEXT_TAG.search(inner)
        if following is not None and inner[:following.start()].endswith("\n"):
            raise PgnError("unclosed comment: this '{' runs into the next game's tags", at)
    _comment(line, _one_spaced(inner), at)


def _one_spaced(text: str) -> str:
    """``text`` with its runs of white space as single spaces, stripped."""
    text = text.strip()
    # Printable, its only white space is spaces (an engine's or a clock's comment): the text
    # as it is when no two spaces meet.
    if not text.isprintable() or "  " in text:
        text = " ".join(text.split())
    return text


def _comment(line: Line, text: str, at: int) -> None:
    """Keep a comment after the last move of ``line`` (or before its first move); the comments
    of one place are joined into one, which must fit a record's line."""
    if line.nodes:
        comments = line.nodes[-1].add_comment(text)
    else:
        comments = line.before
        comments.append(text)
    size = len(" ".join(comments))
    if size > gtn.MAX_COMMENT:
        raise PgnError(f"comment of {size:,} characters: a comment holds at most "
                       f"{gtn.MAX_COMMENT:,}", at)


def parse_pgn(text: str, file: str | None = None) -> list[PgnGame]:
    """Every game of a PGN text; RecordError at the first game that cannot be read."""
    games = []
    for item in read_games(text.lstrip("\ufeff").replace("\r\n", "\n")):
        if isinstance(item, Refusal):
            raise RecordError(f"game {item.index}: {item.message}",
                              Where(file, item.line, item.column))
        games.append(item)
    return games


# -- games into records -------------------------------------------------------------------------


_NOT_SEAT = lazy(r"[^\w\-.'+@]+")


def _seat_name(value: str | None, fallback: str) -> str:
    """A PGN player name as a record seat name: letters and digits of any script, and
    _ - . ' + @ (the rest made '_'; letters with accents composed, so that 'Šahović' stays
    whole however it was written)."""
    if not value or value.strip() in ("?", "-", ""):
        return fallback
    if not value.isascii():
        value = unicodedata.normalize("NFC", value)
    name = _NOT_SEAT.sub("_", value.strip()).strip("_")
    return name or fallback


class _Refused(Exception):
    def __init__(self, message: str, offset: int, automatic: bool = False,
                 termination: str = "") -> None:
        super().__init__(message)
        self.message, self.offset, self.automatic = message, offset, automatic
        self.termination = termination
        """The automatic draw the moves went past, when that was the refusal."""


def _uses_nulls(line: Line) -> bool:
    for node in line.nodes:
        if node.san in ("--", "Z0"):
            return True
        if node.variations and any(_uses_nulls(v) for v in node.variations):
            return True
    return False


def to_session(game: PgnGame, file: str | None = None, warnings: list[str] | None = None,
               fix_results: bool = False, made: dict[Any, Any] | None = None) -> Session:
    """One PGN game replayed into a chess record (a refusal names its offset in the text).
    With ``fix_results`` a result the moves or the movetext contradict is mended, not refused.
    ``made`` keeps the games made (by options and seat names) for the next games, when the
    sessions are only written, one after another, and not kept: such a session holds its moves
    as runs of texts and keeps no steps (see Session.append_to_run)."""
    first: list[str] = []
    try:
        session = _to_session(game, file, first, True, fix_results, made)
    except _Refused as exc:
        if not exc.automatic:
            raise
        passed = exc.termination
    else:
        if warnings is not None:
            warnings += first
        return session
    # The game goes on past an automatic draw: read it with automatic draws off. A draw
    # without a Termination tag is then that draw, not an agreement.
    return _to_session(game, file, warnings, False, fix_results, made, passed)


def _to_session(game: PgnGame, file: str | None, warnings: list[str] | None,
                automatic: bool, fix_results: bool = False,
                made: dict[Any, Any] | None = None, passed: str = "") -> Session:
    tags = {name.lower(): value for name, value in game.tags}  # the last value counts
    white = _seat_name(tags.get("white"), "white")
    black = _seat_name(tags.get("black"), "black")
    if white.lower() == black.lower():
        white, black = f"{white}-white", f"{black}-black"
    options = {}
    if not automatic:
        options["automatic_draws"] = "off"
    if game.nulls and _uses_nulls(game.main):
        options["null_moves"] = "on"
    variant = (tags.get("variant") or "standard").strip().lower()
    if variant not in ("standard", "chess", "from position", ""):
        raise _Refused(f"variant {tags['variant']!r}: only standard chess is read",
                       game.tag_offsets["variant"])
    fen = tags.get("fen")
    key = tuple(options.items())  # (a game speaking other seat names is named afresh)
    try:
        session = Session.start("chess", [white, black], options, None, fen,
                                date=_or_default(tags.get("date"), "????.??.??"),
                                game=made.get(key) if made is not None else None)
    except GameError as exc:
        raise _Refused(exc.message, game.tag_offsets.get("fen", game.start)) from None
    if tags.get("date") == "":
        for tag in session.record.tags:  # a Date written empty stays empty
            if tag.name == "Date":
                tag.value = ""
    if made is not None and key not in made:
        if len(made) >= 16:
            made.clear()
        made[key] = session.game
    record = session.record
    termination_at = len(record.tags)
    seen: dict[str, gtn.Tag] = {}
    for name, value in game.tags:
        key = name.lower()
        if key in seen:
            # A record holds each tag once; the last value counts, as other readers have it.
            seen[key].value = value
            if warnings is not None:
                warnings.append(f"tag {name} given twice: the last value is kept")
            continue
        if key == "termination":
            termination_at = len(record.tags)
        if key in ("result", "fen", "setup", "date", "termination"):
            continue
        if key in OWN_TAGS:
            raise _Refused(f"tag {name!r} is a record's own tag", game.tag_offsets[key])
        seen[key] = gtn.Tag(name, value)
        record.tags.append(seen[key])
    if game.main.before:
        record.body.append(gtn.CommentLine(" ".join(game.main.before)))
    game_obj = session.game
    states = session.states
    read_move = game_obj.read_move
    state = states[-1]
    if made is None:
        _replay_lines(game, session, game_obj, read_move, state)
    else:  # a record only written: its turn lines as runs of texts (see gtn.TurnRun)
        _replay_runs(game, session, game_obj, read_move, state)
    last = termination_at == len(record.tags)
    _finish(session, game, tags, warnings if warnings is not None else [], termination_at,
            last, fix_results, automatic, passed)
    return session


def _replay_lines(game: PgnGame, session: Session, game_obj: Any, read_move: Any,
                  state: Any) -> None:
    """The main line of ``game`` read into ``session``, each move on a turn line of its own."""
    states, body, append = session.states, session.record.body, session.append_checked
    for node in game.main.nodes:
        try:
            action, text, after = read_move(state, node.san)
        except GameError:  # another reading, or the refusal, as _next_move words it
            seat, action = _next_move(game_obj, state, node, "")
            line = append(seat, action)
            after = states[-1]
        else:
            line = append(0 if state.white else 1, action, text, after)
        state = after
        if node.comments:
            line.comment = " ".join(node.comments)
        if node.nags:
            line.nags = list(node.nags)
        if node.variations:  # each in place of the move just read
            for variation in node.variations:
                body.append(_variation(game_obj, session, variation, states[:-1]))


def _replay_runs(game: PgnGame, session: Session, game_obj: Any, read_move: Any,
                 state: Any) -> None:
    """What :func:`_replay_lines` does, the turn lines held in runs (see gtn.TurnRun): for a
    record that is only written."""
    states, body, append = session.states, session.record.body, session.append_to_run
    run = gtn.TurnRun(len(states))
    body.append(run)
    for node in game.main.nodes:
        try:
            action, text, after = read_move(state, node.san)
        except GameError:  # another reading, or the refusal, as _next_move words it
            seat, action = _next_move(game_obj, state, node, "")
            at = append(run, seat, action)
            after = states[-1]
        else:
            at = append(run, 0 if state.white else 1, action, text, after)
        state = after
        if node.comments:
            run.comments[at] = " ".join(node.comments)
        if node.nags:
            run.nags[at] = list(node.nags)
        if node.variations:  # each in place of the move just read; then a new run
            for variation in node.variations:
                body.append(_variation(game_obj, session, variation, states[:-1]))
            run = gtn.TurnRun(len(states))
            body.append(run)
    if not run.texts:
        body.pop()  # an empty last run: a record without moves writes no body


def _lenient(text: str) -> list[str]:
    """Other readings of a move that other tools write: without 'x', castling written as the
    king's two-square move, a pawn move with a 'P'."""
    out = []
    if "x" in text:
        out.append(text.replace("x", "", 1))
    king = re.fullmatch(r"K(?:e1|e8)?[-x]?([gc])([18])([+#]?)", text)
    if king:
        out.append(("O-O" if king.group(1) == "g" else "O-O-O") + king.group(3))
    if text.startswith("P") and len(text) > 1 and text[1] in "abcdefgh":
        out.append(text[1:])
    if text == "Z0":
        out.append("--")
    return out


def _read_move(game: Any, state: Any, text: str) -> Any:
    """The action a PGN move names in ``state``: as the record reads it, else leniently."""
    try:
        return game.parse_action(state, text)
    except GameError as first:
        for other in _lenient(text):
            try:
                return game.parse_action(state, other)
            except GameError:
                continue
        raise first from None


def _over(game: Any, state: Any, node: Node) -> _Refused:
    outcome = game.outcome(state)
    termination = outcome.termination if outcome else "over"
    return _Refused(f"move {node.san!r} after the end of the game ({termination})",
                    node.offset, automatic=termination in AUTOMATIC_DRAWS,
                    termination=termination)


def _next_move(game: Any, state: Any, node: Node, where: str) -> tuple[int, Any]:
    """The seat to move in ``state`` and the action that ``node`` names; _Refused (its
    message naming the move, and ``where``) after the end of the game or for a bad move."""
    # The move is read before the end is judged: a legal move read shows that one exists,
    # which spares the search for one (the game reads the end first when the move fails).
    try:
        action = _read_move(game, state, node.san)
    except GameError as exc:
        if game.to_move(state) is None:
            raise _over(game, state, node) from None
        raise _Refused(f"move {_move_number(state)}{node.san}{where}: {exc.message}",
                       node.offset) from None
    seat = game.to_move(state)
    if seat is None:
        raise _over(game, state, node)
    return seat, action


def _move_number(state: Any) -> str:
    return f"{state.fullmove}{'.' if state.white else '...'} "


def _variation(game: Any, session: Session, line: Line, states: list[Any]) -> gtn.Variation:
    """A PGN variation replacing the ply after ``states``: checked, in canonical SAN."""
    variation = gtn.Variation()
    if line.before:
        variation.body.append(gtn.CommentLine(" ".join(line.before)))
    states = list(states)
    for node in line.nodes:
        state = states[-1]
        seat, action = _next_move(game, state, node, " (in a variation)")
        ply = len(states)
        turn = gtn.TurnLine(ply, session.names[seat],
                            [gtn.Action(game.format_action(state, action))],
                            " ".join(node.comments) if node.comments else None,
                            nags=list(node.nags))
        variation.body.append(turn)
        for sub in node.variations:
            variation.body.append(_variation(game, session, sub, states))
        states.append(game.apply(state, action))
    return variation


def _finish(session: Session, game: PgnGame, tags: dict[str, str], warnings: list[str],
            termination_at: int, last: bool, fix: bool = False, automatic: bool = False,
            passed: str = "") -> None:
    """Carry the PGN result into the record: the moves' own result must agree with it; a
    result the moves do not reach is an ending off the board, its reason the Termination tag.

    A '*' stays '*' (the PGNResult tag keeps it when the moves end the game). With ``fix``
    (--fix-results) a result the moves contradict (past an automatic draw: read again without)
    becomes theirs, and a Result tag the movetext contradicts the movetext's; the OriginalResult
    tag keeps the value replaced. ``tags`` holds the game's tags by lower-case name (the last
    value of a name given twice)."""
    stated = game.result
    tagged = tags.get("result")
    tagged = tagged.strip() if tagged is not None else None
    if stated is None:
        if game.moves or tagged is None:
            warnings.append("no result at the end of the movetext: read as '*'")
        stated = "*"
    original = None
    if tagged == "*" and stated != "*":
        # A '*' is never rewritten: the game stays unfinished (--fix-results takes the
        # movetext's result, the tag OriginalResult keeping the '*').
        if not fix:
            warnings.append(f"the Result tag says * but the movetext ends {stated}: '*' kept "
                            "(--fix-results takes the movetext's)")
            stated = "*"
        else:
            warnings.append(f"the Result tag says * but the movetext ends {stated}: "
                            f"{stated} kept, the tag OriginalResult keeps *")
            original = "*"
    if tagged in RESULTS and stated != "*" and tagged not in (stated, "*"):
        if not fix:
            raise _Refused(f"the Result tag says {tagged} but the movetext ends {stated} "
                           "(--fix-results takes the movetext's)", game.result_offset)
        warnings.append(f"the Result tag says {tagged} but the movetext ends {stated}: "
                        f"{stated} kept, the tag OriginalResult keeps {tagged}")
        original = tagged
    if stated == "*" and tagged in RESULTS[:3]:
        stated = tagged
    termination = tags.get("termination")
    outcome = session.outcome()
    kept_star = False
    if outcome is not None:
        if stated == "*":
            warnings.append(f"result '*' kept, but the moves end {outcome.result_tag()} "
                            f"({outcome.termination})")
            kept_star = True
        elif stated != outcome.result_tag():
            if not fix or (automatic and outcome.termination in AUTOMATIC_DRAWS):
                raise _Refused(f"result {stated} contradicts the moves, which end "
                               f"{outcome.result_tag()} ({outcome.termination}); "
                               "--fix-results takes the moves' result",
                               game.result_offset, outcome.termination in AUTOMATIC_DRAWS)
            warnings.append(f"result {stated} contradicts the moves, which end "
                            f"{outcome.result_tag()} ({outcome.termination}): "
                            f"{outcome.result_tag()} kept, the tag OriginalResult keeps {stated}")
            original = original or stated
    elif stated != "*":
        reason = termination.strip() if termination else ""
        if not reason and stated == "1/2-1/2" and passed:
            reason = passed  # the moves went on past this draw, which the rules make
        session.end_off_board(stated, reason)
        outcome = session.outcome()
    if session.ending is None:  # an ending off the board has set the result tags already
        session.update_result_tags()
    record = session.record
    if kept_star:
        record.tags.append(gtn.Tag("PGNResult", "*"))
    if original is not None:
        record.tags.append(gtn.Tag("OriginalResult", original))
    if termination is None:
        record.set("Termination", None)
    elif (outcome is None or termination.strip().lower() != outcome.termination.lower()
          or not last):
        # The record's own Termination is written after every other tag: one that disagrees
        # with the game's, or stands before other tags, keeps its text and place this way.
        record.set("Termination", None)
        record.tags.insert(termination_at, gtn.Tag("PGNTermination", termination))
    else:
        record.set("Termination", termination)


def imports(text: str, file: str | None = None, keep: bool = False, first_line: int = 1,
            base: int = 0, fix_results: bool = False, eco: Any = None,
            held: list[int] | None = None) -> Iterator[tuple[Imported | Refusal, list[str]]]:
    """Each game of a PGN text (a piece of a file that starts at line ``first_line``, after
    ``base`` games) as it is read: the record or the refusal, and the lines to report.
    With ``keep``, each record's session too; with ``eco`` (an opening table), ECO and
    Opening tags; with ``held``, the last game left for the caller (see :func:`read_games`).
    The garbage collector runs less often meanwhile (see gametool.core.collector)."""
    with collector.fewer_collections():
        yield from _imports(text, file, keep, first_line, base, fix_results, eco, held)


def imports_stream(texts: Iterable[str], file: str | None = None, fix_results: bool = False,
                   eco: Any = None) -> Iterator[tuple[Imported | Refusal, list[str]]]:
    """What :func:`imports` gives for the text that ``texts`` make together (pieces of whole
    lines, as :func:`gametool.sources.pgn_texts` reads a file), read about :data:`PIECE`
    characters at a time: the reader finds where its games end, the last game of a piece is
    read again with the next piece, and memory stays small whatever the size."""
    rest = ""  # the start of a game that the text so far may cut short
    pieces: list[str] = []
    size = base = 0
    first_line = 1
    for piece in texts:
        pieces.append(piece)
        size += len(piece)
        if size < PIECE or size < len(rest):  # (a long game is read again twice as long)
            if len(rest) + size > MAX_GAME_CHARACTERS:
                _too_long(file, first_line)
            continue
        text = rest + "".join(pieces)
        held: list[int] = []
        for item, messages in imports(text, file, first_line=first_line, base=base,
                                      fix_results=fix_results, eco=eco, held=held):
            base += 1
            yield item, messages
        at = held[0]
        line_start = text.rfind("\n", 0, at) + 1
        first_line += text.count("\n", 0, line_start)
        # A game that starts within its line (after the last one's result) keeps its column:
        # spaces stand for what precedes it there, which no reading looks back at.
        rest, pieces, size = " " * (at - line_start) + text[at:], [], 0
        if not rest.strip():  # no game begun: empty lines are counted, not kept
            first_line += rest.count("\n")
            rest = ""
    yield from imports(rest + "".join(pieces), file, first_line=first_line, base=base,
                       fix_results=fix_results, eco=eco)


def _too_long(file: str | None, line: int) -> None:
    raise GameError(f"{file or '<stdin>'}:{line}: a game of more than {MAX_GAME_CHARACTERS:,} "
                    "characters (empty lines counted): not a PGN game")


PIECE = 1 << 20
MAX_GAME_CHARACTERS = 32 << 20
"""The most characters one game of a stream may hold, its empty lines counted: a longer one
(a run of empty lines without end) is an error, so that memory stays bounded."""
"""Characters of a PGN text that :func:`imports_stream` reads at once (beside a game that the
last piece cut short)."""


def _imports(text: str, file: str | None, keep: bool, first_line: int, base: int,
             fix_results: bool, eco: Any,
             held: list[int] | None = None) -> Iterator[tuple[Imported | Refusal, list[str]]]:
    where = file or "<stdin>"

    def at(offset: int) -> tuple[int, int]:
        line, column = _position(text, offset)
        return line + first_line - 1, column

    made: dict[Any, Any] | None = None if keep else {}
    for item in read_games(text, held):
        if isinstance(item, Refusal):
            refusal = replace(item, index=item.index + base, line=item.line + first_line - 1)
            yield refusal, [refusal.where(file)]
            continue
        index = item.index + base
        warnings: list[str] = []
        try:
            session = to_session(item, file, warnings, fix_results, made)
            if eco is not None:
                eco.classify(session)
            try:
                # Each turn line made by append_checked, and the seats alternate: the body
                # is canonical as it was built (tests compare it with the canonical writer's).
                written = session.text(as_built=True)
            except RecordError as exc:  # a line beyond what a record holds
                raise _Refused(exc.message, item.start) from None
        except _Refused as exc:
            line, column = at(exc.offset)
            refusal = Refusal(index, line, column, exc.message,
                              text[item.start:item.end].rstrip() + "\n")
            yield refusal, [refusal.where(file)]
            continue
        messages = []
        for offset, mend in item.mends:
            line, column = at(offset)
            messages.append(f"{where}:{line}:{column}: game {index}: warning: {mend}")
        if warnings:
            line, column = at(item.result_offset)
            messages += [f"{where}:{line}:{column}: game {index}: warning: {w}"
                         for w in warnings]
        yield Imported(index, written, [m for _o, m in item.mends] + warnings,
                       session if keep else None), messages


def import_games(text: str, file: str | None = None, keep: bool = False,
                 fix_results: bool = False) -> Report:
    """Every game of a PGN text: the records of the games read, the refusals, the warnings;
    with ``keep``, each record's session too."""
    report = Report([], [], [])
    for item, messages in imports(text, file, keep, fix_results=fix_results):
        if isinstance(item, Refusal):
            report.refused.append(item)
        else:
            report.games.append(item)
        report.messages += messages
    return report


def import_pgn(text: str, file: str | None = None) -> list[Session]:
    """Every game of a PGN text as a chess record; RecordError at the first refused game."""
    report = import_games(text, file, keep=True)
    if report.refused:
        first = report.refused[0]
        raise RecordError(f"game {first.index}: {first.message}",
                          Where(file, first.line, first.column))
    return [g.session for g in report.games if g.session is not None]


def import_text(text: str, file: str | None = None) -> str:
    """The ``.gtn`` text of every game of a PGN text (RecordError if one is refused)."""
    return "\n".join(s.text() for s in import_pgn(text, file))


def _or_default(value: str | None, default: str) -> str:
    return default if value is None else value
