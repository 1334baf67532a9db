"""Race-game notation: ``h/6``, ``bar/25``, ``13/19*``, ``30/off``, ``14/18(2)``, ``pass``.

The grammar is built once per board size from the shared token pieces (a space number outside
the board is malformed); it reads text into sub-move specs (source, target) in 0-based spaces,
with ``HAND``/``BAR`` sources and ``OFF`` as target. Formatting turns a listed turn (track
positions of the mover) back into canonical text.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any, NamedTuple

from gametool.core.errors import MalformedAction
from gametool.games.race.geometry import BAR, HAND, Geometry
from notation.errors import NotationError
from notation.fast import FastReader

OFF = -3


class Spec(NamedTuple):
    """One typed sub-move: 0-based spaces, or HAND/BAR as source and OFF as target."""

    source: int
    target: int
    text: str


def _number(tokens: Any) -> int:
    return int(tokens[0])


def _space_pattern(spaces: int) -> str:
    """A regex for exactly the numbers 1..spaces, without leading zeros (longest first)."""
    return "(?:" + "|".join(str(n) for n in range(spaces, 0, -1)) + ")(?![0-9])"


@cache
def action_grammar(spaces: int, word: str):  # noqa: ANN201 (a pyparsing element)
    """The action grammar of a board of ``spaces`` numbered spaces (built once per board, on
    first need: the fast readers take every action as the tool writes it)."""
    import pyparsing as pp

    from notation.tokens import keyword

    space = pp.Regex(_space_pattern(spaces)).set_name(f"{word} 1-{spaces}").set_parse_action(
        _number)
    hand = keyword("h").set_parse_action(lambda: HAND)
    bar = keyword("bar").set_parse_action(lambda: BAR)
    off = keyword("off").set_parse_action(lambda: OFF)
    source = (space | bar | hand).set_name(f"source ({word} 1-{spaces}, h or bar)")
    target = (space | off).set_name(f"target ({word} 1-{spaces} or off)")
    count = (pp.Suppress("(") - pp.Regex(r"[2-4]").set_name("count 2-4").set_parse_action(
        _number) + pp.Suppress(")")).set_name("(count)")
    submove = pp.Group(
        source("source") + pp.Suppress("/") - target("target")
        + pp.Optional(pp.Literal("*"))("hit") + pp.Optional(count)("count")
    ).set_name("sub-move")
    prefix = (pp.Char(pp.alphas)("player") + pp.Suppress(":")).set_name("player prefix")
    words = (keyword("pass") | keyword("resign")).set_name("pass or resign")
    body = (words("word") | pp.OneOrMore(submove)("turn")).set_name(
        f"pass, resign or sub-moves (from a {word} 1-{spaces}, h or bar)")
    return (pp.Optional(prefix) + body).set_name("race action")


@cache
def _roll_grammar():  # noqa: ANN202 (a pyparsing element)
    from notation.tokens import roll

    return roll(2, 6)


_FAST_ROLL = re.compile(r"\s*roll\s+([1-6])-([1-6])\s*", re.IGNORECASE)
_FAST_WORD = re.compile(r"[ \t]*(?:([A-Za-z]):[ \t]*)?(pass|resign)\s*", re.IGNORECASE)


class Parsed(NamedTuple):
    player: str | None
    word: str | None
    specs: tuple[Spec, ...]


_FAST_ACTION = re.compile(r"[ \t]*(?:([A-Za-z]):[ \t]*)?"
                          r"((?:(?:h|bar|[1-9][0-9]?)/(?:[1-9][0-9]?|off)"
                          r"\*?(?:\([2-4]\))?(?:[ \t]+|$))+)")
_FAST_SUBMOVE = re.compile(r"(h|bar|[1-9][0-9]?)/([1-9][0-9]?|off)(\*?)(?:\(([2-4])\))?")


def _fast_action(text: str, spaces: int) -> Parsed | None:
    """The action read without the grammar, when it has the usual shape and every space
    exists; None otherwise (the grammar then decides)."""
    match = _FAST_ACTION.fullmatch(text.rstrip())
    if match is None:
        return None
    specs: list[Spec] = []
    for sub in _FAST_SUBMOVE.finditer(match.group(2)):
        src, dst, _hit, count = sub.groups()
        source = HAND if src == "h" else BAR if src == "bar" else int(src)
        target = OFF if dst == "off" else int(dst)
        if not 1 <= source <= spaces and source >= 0 or not 1 <= target <= spaces and target >= 0:
            return None
        written = f"{src}/{dst}"
        for _ in range(int(count) if count else 1):
            specs.append(Spec(source if source < 0 else source - 1,
                              target if target == OFF else target - 1, written))
    player = match.group(1)
    return Parsed(player.upper() if player else None, None, tuple(specs))


@lru_cache(maxsize=1 << 14)
def read_action(text: str, spaces: int, word: str = "space") -> Parsed:
    """The typed player action on a board of ``spaces``, or MalformedAction (one line).

    Remembered by text: syntax alone decides it (a typed turn's legality is checked by the
    game every time). Sub-moves written the usual way are read by a regular expression; the
    grammar reads the rest and names any error."""
    return _reader(spaces, word)(text)


def _fast_read(text: str, spaces: int) -> Parsed | None:
    """Sub-moves the usual way, or a word (pass, resign), read without the grammar; None for
    anything else."""
    fast = _fast_action(text, spaces)
    if fast is not None:
        return fast
    plain = _FAST_WORD.fullmatch(text)
    if plain is not None:
        return Parsed(plain[1].upper() if plain[1] else None, plain[2].lower(), ())
    return None


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(
        f"malformed action {text.strip()!r}: {exc.message} (column {exc.column})")


@cache
def _reader(spaces: int, word: str) -> FastReader[Parsed]:
    """The reader of the actions on a board of ``spaces``."""
    return FastReader(lambda text: _fast_read(text, spaces),
                      lambda: action_grammar(spaces, word), _from_tokens, _refused)


def _from_tokens(result: Any, _text: str) -> Parsed:
    """An action read by the grammar, as the fast way gives it."""
    player = result.get("player")
    player = player.upper() if player else None
    if "word" in result:
        return Parsed(player, str(result["word"]).lower(), ())
    specs: list[Spec] = []
    for group in result["turn"]:
        source, target = group["source"], group["target"]
        count = group.get("count")
        repeat = int(count[0]) if count else 1
        label = "h" if source == HAND else "bar" if source == BAR else str(source)
        written = f"{label}/{'off' if target == OFF else target}"
        for _ in range(repeat):
            specs.append(Spec(source if source < 0 else source - 1,
                              target if target == OFF else target - 1, written))
    return Parsed(player, None, tuple(specs))


@lru_cache(maxsize=1 << 10)
def read_roll(text: str) -> tuple[int, int] | None:
    """The two dice of ``roll A-B`` in the order typed, or None if the text is no roll."""
    if not text.strip().lower().startswith("roll"):
        return None  # the grammar's first word is roll, and the fast way's
    try:
        return _ROLLS(text)
    except NotationError:
        return None


def _fast_roll(text: str) -> tuple[int, int] | None:
    fast = _FAST_ROLL.fullmatch(text)
    return None if fast is None else (int(fast[1]), int(fast[2]))


def _roll_values(parsed: Any, _text: str) -> tuple[int, int]:
    values = parsed[0].values
    return values[0], values[1]


_ROLLS = FastReader(_fast_roll, lambda: _roll_grammar(), _roll_values)


def format_turn(geo: Geometry, seat: int, turn: Any) -> str:
    """Canonical text of a listed turn: each sub-move separately, ``*`` on every hit."""
    if not turn:
        return "pass"
    track = geo.tracks[seat]
    parts = []
    for source, target, hit in turn:
        src = "h" if source == HAND else "bar" if source == BAR else str(track[source] + 1)
        dst = "off" if target >= geo.spaces else str(track[target] + 1)
        parts.append(f"{src}/{dst}{'*' if hit else ''}")
    return " ".join(parts)
