"""The PGN reader (text -> games) against a frozen copy of the reader it replaced: the same
games, the same refusals, field by field, on every PGN text the project has, on pgn-extract's
ECO file when installed, on generated archives, on hand-written awkward games and on thousands
of mutated ones (characters and PGN fragments deleted and inserted at random places).

The reference below is the earlier reader verbatim (a token loop over one regular expression);
it is frozen here so that any change of behaviour of the faster reader shows up as a difference.
"""

from __future__ import annotations

import ast
import importlib.util
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametool.pgn import reader as pgn
from notation import record as gtn

ROOT = Path(__file__).resolve().parent.parent.parent
ECO = Path("/usr/share/pgn-extract/eco.pgn")
FILES = sorted(path for folder in ("tests/data", "sample_games/chess", "docs")
               for path in (ROOT / folder).glob("*.pgn"))

# -- the reference: the earlier reader, frozen ---------------------------------------------------

GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


class PgnError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


# The alternatives start with different characters, except a result and a move number (the
# result is tried first) and castling with zeros and a result (0-0 is no result): the
# commonest tokens come first.
_TOKEN = re.compile(
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
_TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"(.*)"[ \t]*\][ \t]*\r?$')
_TAG_ONE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
"""One tag pair as the standard writes it, whatever follows it on its line."""
_ONLY_TAGS = re.compile(r'[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"[^\n]*\][ \t]*\r?')
"""A line of tags and nothing else (a tag line that ends with its ']')."""
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
STRAY = set(",:;'\"`|~^&_=<>@\\/+#-.")
"""Punctuation that other tools leave between moves: skipped with a warning."""
_NEXT_TAG = re.compile(r"^[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*\"", re.MULTILINE)
_UNESCAPE = re.compile(r"\\([\\\"])")



class Node:
    """One move as written, with what follows it: NAGs, comments and alternatives to it (most
    moves have none: the lists are made for the moves that do)."""

    __slots__ = ("san", "offset", "nags", "comments", "variations")
    NONE: tuple[()] = ()

    def __init__(self, san: str, offset: int) -> None:
        self.san = san
        self.offset = offset
        self.nags: list[int] | tuple[()] = Node.NONE
        self.comments: list[str] | tuple[()] = Node.NONE
        self.variations: list[Line] | tuple[()] = Node.NONE

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


def read_games(text: str) -> Iterator[PgnGame | Refusal]:
    """The games of a PGN text in order, each read or refused; never stops at a bad game."""
    index = 0
    pos = 0
    while True:
        found = _TOKEN.search(text, pos)
        if found is None:
            return
        index += 1
        start = found.start()
        try:
            game = _read_game(text, start, index)
        except PgnError as exc:
            end = _resync(text, exc.offset)
            line, column = _position(text, exc.offset)
            yield Refusal(index, line, column, exc.message, text[start:end].rstrip() + "\n")
            pos = end
            continue
        yield game
        pos = game.end


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
        return PgnGame(index, tags, main, result, start, end, result_at, offsets, mends)

    while True:
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
            body = token.group()
            if not body.endswith("}"):
                raise PgnError("unclosed comment: this '{' has no '}'", at)
            inner = body[1:-1]
            following = _NEXT_TAG.search(inner)
            if following is not None and inner[:following.start()].endswith("\n"):
                raise PgnError("unclosed comment: this '{' runs into the next game's tags", at)
            _comment(line, " ".join(inner.split()), at)
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
                # A tag this game has, after an empty line: a game with tags and no moves.
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




# -- the comparison -----------------------------------------------------------------------------


def _line(line: Any) -> tuple[Any, ...]:
    return (line.offset, type(line.before).__name__, list(line.before),
            [_node(node) for node in line.nodes])


def _node(node: Any) -> tuple[Any, ...]:
    return (node.san, node.offset,
            type(node.nags).__name__, list(node.nags),
            type(node.comments).__name__, list(node.comments),
            type(node.variations).__name__, [_line(v) for v in node.variations])


def _shape(item: Any) -> tuple[Any, ...]:
    """Everything a reader's answer holds, as plain values (types of the lists included: a
    move's empty NAGs, comments and variations are the shared empty tuple)."""
    if hasattr(item, "message"):
        return ("refusal", item.index, item.line, item.column, item.message, item.text)
    return ("game", item.index, list(item.tags), list(item.tag_offsets.items()),
            _line(item.main), item.result, item.start, item.end, item.result_offset,
            list(item.mends))


def expect_same(text: str) -> int:
    """Read ``text`` with both readers and compare; the number of games and refusals."""
    expected = [_shape(item) for item in read_games(text)]
    items = list(pgn.read_games(text))
    assert all(isinstance(item, (pgn.PgnGame, pgn.Refusal)) for item in items)
    got = [_shape(item) for item in items]
    if got != expected:
        for number, (one, other) in enumerate(zip(got, expected, strict=False), 1):
            assert one == other, f"item {number} of {text!r}"
        assert len(got) == len(expected), f"{len(got)} items, expected {len(expected)}: {text!r}"
    return len(items)


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_pgn", ROOT / "bench" / "pgn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_project_pgn_files_read_the_same(path: Path) -> None:
    assert expect_same(pgn.decode(path.read_bytes())) >= 1


@pytest.mark.skipif(not ECO.exists(), reason="pgn-extract's ECO file is not installed")
def test_the_eco_file_reads_the_same() -> None:
    assert expect_same(pgn.decode(ECO.read_bytes())) > 2000


def test_generated_archives_read_the_same() -> None:
    bench = _bench()
    for seed in (1, 2):
        assert expect_same(bench.generated(40, seed)) == 40


AWKWARD = [
    "",
    "   \n\t\n",
    "*",
    "1-0",
    '[Event "x"] 1. e4 e5 *',
    '[Event "x"][Site "y"] 1. e4 *\n[Event "z"]\n1. d4 *',
    '[Event "a"]\n[Site "b"]\n\n[Event "c"]\n\n1. e4 *',
    '[Event "a"]\n\n[Event "b"]\n',
    '[Event "the "big" one"]\n[Site "x"] "y"]\n\n1. e4 *',
    '[Event "a \\"q\\" b\\\\"]\n1. d4 *',
    '[Event "x"\n1. e4 *',
    '[1Event "x"]\n1. e4 *',
    '[Event x]\n\n1. e4 *\n\n[Event "y"]\n\n1. d4 *',
    "1. e4 d5 2. e5 f5 3. exf6 e.p. Nf6 4. exf6e.p. *",
    "1. e4 d5 2. e5 f5 3. exf6\te.p.! Nf6 4. d4 e.p. *",
    "1. e4\ne.p. e5 *",
    "1. e4 -- 2. Z0 d5 3. -- -- *",
    "1. e4 e5\n\n[Event \"n\"]\n1. d4 d5",
    "1. e4, e5 , 2. Nf3 : Nc6 ' 3. Bb5 ` a6 | ~ ^ & _ = < > @ \\ / + # - . *",
    ", 1. e4 *",
    '1. e4 {oops\n\n[Event "x"]\n1. d4 *',
    "1. e4 {oops e5 *",
    "1. e4 {a {b} c} *",
    "1. e4 {a\n  b\n\n c} {d} e5 {e} *",
    '{before} {again} 1. e4 {x\n[Event "y"] z} *',
    '%escape line\n[Event "x"]\n1. e4 *\n% another\n1. d4 %not one *',
    "1. e4 ; a rest-of-line comment\ne5 ;\n*",
    "1. e4 $1 $255 e5 $256 *",
    "$1 1. e4 *",
    "1. e4 $ *",
    "1. e4!? e5?? 2. Nf3! ! Nc6 ?! 3. Bb5!!? ??? *",
    "!? 1. e4 *",
    "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 (1... c5 (1... e6)) *",
    "1. e4 ) *",
    "1. e4 ( e5 *",
    "( 1. e4 ) *",
    "1. e4 () *",
    "1. e4 (e5 1-0) *",
    "1. e4 é *",
    "1. e4 \u00ab *",
    "1. e4 e5 1-0x 2. Nf3 *",
    "1. e4 e5 1/2 *",
    "1. O-O-O-O 0-0-0-0 0-0 O-O+ 0-0-0# O-O!? *",
    "1. e4 e5 0-1",
    "1. e4 1/2-1/2",
    "1. e4 1-0 2. d4 *",
    "1 . e4 1 .. e5 2 . . Nf3 *",
    "12...Nf6 13.e4e5 14e4 15... *",
    "1.e4 e5 2.-- 3--",
    "10-1 1-01 01-0 1-0/",
    "1.\u00a0e4\u2003e5\x0c2.\x1cNf3\x85Nc6 *",
    "1. e4 e5\r\n2. Nf3\r*",
    "1. e4 e5 *\n\n\n1. d4 d5 *\n1. c4 *",
    "1. e8=Q+ exd8=N# a1=R h8Q *",
    "1. e4 " + "{" + "x" * (gtn.MAX_COMMENT + 5) + "} *",
    "1. e4 {" + "x" * (gtn.MAX_COMMENT // 2) + "} {" + "y" * (gtn.MAX_COMMENT // 2) + "} *",
    "{" + "x" * (gtn.MAX_COMMENT + 1) + "} 1. e4 *",
    "1. e4 ;" + "x" * (gtn.MAX_COMMENT + 1) + "\n*",
    "1. e4 e5 [Event \"late\"]\n1. d4 *",
    "1. e4 (1. d4 [Event \"late\"]\n1. d4 *",
    "1. e4 (1. d4\n\n[Event \"x\"]\n1. c4 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *",
    # A comment after every move, as engines and servers write them.
    "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } 2. Nf3 {[%eval 0.2]} Nc6 {x} *",
    "1. d4 {book, mb=+0+0,} g6 {d=28, pv=e4 Bg7}\n2. e4 {a}\nBg7 {b} 3. c4 {c} *",
    "1. e4 {two  spaces} e5 { lead} 2. Nf3 {trail } Nc6 {\ttab} 3. Bb5 {ctl\x01x} *",
    "1. e4 {nbsp\u00a0here} e5 {\u2028} 2. Nf3 {} Nc6 { } 3. Bb5 {\u00e9t\u00e9} *",
    "1. e4 {a} {b} e5 {c} $1 {d} 2. Nf3 {e} (2. d4 {f}) Nc6 {g} *",
    "1. e4 {a}e5 {b}2. Nf3{c} Nc6 {unclosed",
    "1. e4 {a} e5 {b\n[Event \"x\"] c} *",
    "1. e4 {" + "x" * (gtn.MAX_COMMENT + 1) + "} e5 *",
]


@pytest.mark.parametrize("text", AWKWARD)
def test_awkward_texts_read_the_same(text: str) -> None:
    expect_same(text)


def _test_texts() -> list[str]:
    """The PGN written into the project's other tests (string constants that hold a move
    number or a tag)."""
    texts = []
    for name in ("test_pgn.py", "test_pgn_crosscheck.py", "test_corpus.py", "test_limits.py"):
        for path in (ROOT / "tests").rglob(name):
            texts.extend(node.value for node in ast.walk(ast.parse(path.read_text("utf-8")))
                         if isinstance(node, ast.Constant) and isinstance(node.value, str)
                         and re.search(r'[0-9]\.|\[[A-Za-z]+ "', node.value))
    return texts


def test_the_pgn_of_other_tests_reads_the_same() -> None:
    texts = _test_texts()
    assert len(texts) > 50
    for text in texts:
        expect_same(text)


# -- mutated games ------------------------------------------------------------------------------

ALPHABET = " \n\t\r.0123456789abcdefghxKQRBNOZ+#=-!?{}()[];%$*/,\"'\\:e.p@é\u00a0"
FRAGMENTS = [" e.p.", "e.p.", " $300", " $12", " {", "}", " (", ")", "[Event \"x\"]\n", "\n\n",
             " 1-0", " 0-1", " 1/2-1/2", " *", " 0-0-0", " O-O", " --", " Z0", "\n%", " ;",
             "!?", "??", " 12.", " 12...", " 1 .", " ,", " Nf3", " exd5", " e8=Q+", "\"",
             "[", "]", "\n[Site \"y\"]", " {a\nb}", "1-0x", "e4e5", " { [%clk 0:03:00] }",
             " {a  b }", "\n{x}", " {\x01}"]


def _corpus_games() -> list[str]:
    texts = [pgn.decode(path.read_bytes()) for path in FILES]
    texts.append(_bench().generated(6, 3))
    games: list[str] = []
    for text in texts:
        games.extend(g for g in re.split(r"\n(?=\[Event )", text) if g.strip())
    return games + [text for text in _test_texts() if len(text) > 20]


GAMES = _corpus_games()


def mutate(rng: random.Random, text: str) -> str:
    """``text`` with a few characters or fragments deleted, inserted or replaced."""
    for _ in range(rng.randint(1, 5)):
        at = rng.randint(0, len(text))
        kind = rng.random()
        if kind < 0.3:
            text = text[:at] + text[at + rng.randint(1, 4):]
        elif kind < 0.65:
            text = text[:at] + rng.choice(ALPHABET) + text[at:]
        elif kind < 0.9:
            text = text[:at] + rng.choice(FRAGMENTS) + text[at:]
        else:
            text = text[:at] + rng.choice(ALPHABET) + text[at + 1:]
    return text


def test_mutated_games_read_the_same() -> None:
    rng = random.Random(20261126)
    count = 0
    for _ in range(5000):
        text = "\n".join(rng.choice(GAMES) for _ in range(rng.randint(1, 3)))
        count += expect_same(mutate(rng, text))
    assert count > 3000


@settings(max_examples=1500, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 2**32))
def test_hypothesis_mutated_games_read_the_same(game: int, seed: int) -> None:
    expect_same(mutate(random.Random(seed), GAMES[game]))


@settings(max_examples=1500, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(ALPHABET, max_size=4)),
                max_size=30),
       st.lists(st.sampled_from([" ", "", "\n", "\n\n", "\t", " 1. ", " 2... "]), min_size=1))
def test_hypothesis_token_soup_reads_the_same(pieces: list[str], gaps: list[str]) -> None:
    expect_same("".join(piece + gaps[i % len(gaps)] for i, piece in enumerate(pieces)))
