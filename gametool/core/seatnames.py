"""The record's seat names in the texts a game writes and reads.

A game knows seats by number only. When its texts name a seat (``deal p2: ...``, ``leader
p1``, ``p3 holds no 0-0``) it writes the seat's default name, ``p1`` to ``pN``
(:func:`gametool.core.engine.seat_text`), and declares so with ``Game.names_seats``. For a record
whose seats are named otherwise, :func:`with_names` gives a copy of the game whose texts going
out (action texts, messages, notes, views) say the record's names, and whose texts coming in
may say either the record's names or the default ones (records written before names were used
still read). A game whose actions and messages never name a seat (only its views do) declares
so with ``Game.names_seats_in_actions = False``: its actions are then read and written as they
are, at no cost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, TypeVar

from gametool.core.engine import Game
from gametool.core.errors import GameError, MalformedAction
from notation.patterns import lazy

# A default name stands apart from words, and from the "/" and "*" of a FEN (``/p1*5/``: a
# pawn, a square and a horse), so that a board text is never read as naming a seat.
_DEFAULT = lazy(r"(?<![\w\-/*])p(\d+)(?![\w\-/*])", re.IGNORECASE)
_NAME_CHARS = r"\w\-.'+@"
_MOST_NAMES = 6
"""Names in one text beyond which only the whole translation and the text as written are
tried."""

T = TypeVar("T")


class SeatNames:
    """Translation between default seat names and one record's names."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self._pattern: re.Pattern[str] | None = None  # compiled on first need
        self._index = {n.lower(): i for i, n in enumerate(self.names)}

    @property
    def _name(self) -> re.Pattern[str]:
        """The record's names as one pattern."""
        pattern = self._pattern
        if pattern is None:
            alternatives = "|".join(re.escape(n) for n in sorted(self.names, key=len,
                                                                 reverse=True))
            # A name may end a sentence or be followed by a position
            # (``draw>cy@example.com.out``), so a dot after it ends it.
            pattern = self._pattern = re.compile(
                rf"(?<![{_NAME_CHARS}])(?:{alternatives})(?![\w\-'+@])", re.IGNORECASE)
        return pattern

    def outward(self, text: str) -> str:
        """``text`` with every default seat name replaced by the record's name."""
        if "p" not in text and "P" not in text:  # most texts of a view name no seat
            return text
        return _DEFAULT.sub(self._outward_name, text)

    def _outward_name(self, match: re.Match[str]) -> str:
        number = int(match.group(1)) if len(match.group(1)) < 4 else 0
        return self.names[number - 1] if 1 <= number <= len(self.names) else match.group(0)

    def inward(self, text: str) -> str:
        """``text`` with every record name replaced by the seat's default name."""
        return self._name.sub(lambda m: f"p{self._index[m.group(0).lower()] + 1}", text)

    def outward_data(self, data: Any) -> Any:
        """A JSON-like value with the default names in its keys and strings replaced."""
        kind = type(data)
        if kind is int or kind is bool or data is None:  # the most common, named nowhere
            return data
        if isinstance(data, str):
            return self.outward(data)
        if isinstance(data, dict):
            return {self.outward_data(k): self.outward_data(v) for k, v in data.items()}
        if isinstance(data, list):
            return [self.outward_data(v) for v in data]
        if isinstance(data, tuple):
            return tuple(self.outward_data(v) for v in data)
        return data

    def errors(self, call: Callable[[], T]) -> T:
        """The value of ``call()``; an error it raises says the record's names."""
        try:
            return call()
        except GameError as exc:
            exc.message = self.outward(exc.message)
            exc.args = (exc.message,)
            raise

    def reading(self, text: str, read: Callable[[str], T]) -> T:
        """``read`` applied to ``text`` in default names. A name may also be a word of the game
        (a seat named ``deal`` or ``up``), so where the text with every name translated does
        not read, it is read with one, then two, ... of the names it holds left as written, and
        last as written. Failing all, the error is the first that is not about the syntax
        ("KH has been seen already" rather than "expected colour"), else the first."""
        errors: list[GameError] = []
        for candidate in self._readings(text):
            try:
                return self.errors(lambda: read(candidate))  # noqa: B023 - called at once
            except GameError as exc:
                errors.append(exc)
        raise next((e for e in errors if not isinstance(e, MalformedAction)), errors[0])

    def _readings(self, text: str) -> Iterator[str]:
        """``text`` with its names translated: all, then all but one, ..., then none."""
        spans = [m.span() for m in self._name.finditer(text)]
        if len(spans) > _MOST_NAMES:
            yield self.inward(text)
            yield text
            return
        for kept in range(len(spans) + 1):
            for left in combinations(range(len(spans)), kept):
                out, at = [], 0
                for number, (start, end) in enumerate(spans):
                    out.append(text[at:start])
                    word = text[start:end]
                    out.append(word if number in left else
                               f"p{self._index[word.lower()] + 1}")
                    at = end
                out.append(text[at:])
                yield "".join(out)


class _NamedViews:
    """Overrides of the Game methods that show a position (views, the drawn position, notes).
    Only the outermost call translates: the game's own calls (a render that reads the view)
    see default names."""

    _seat_names: SeatNames
    _busy: bool = False

    def _outer(self, plain: Callable[[], T], named: Callable[[], T]) -> T:
        if self._busy:
            return plain()
        self._busy = True
        try:
            return named()
        finally:
            self._busy = False

    def _write(self, plain: Callable[[], T], out: Callable[[T], T]) -> T:
        return self._outer(plain, lambda: out(self._seat_names.errors(plain)))

    def describe_action(self, state: Any, action: Any) -> str | None:
        inner = super().describe_action
        return self._write(lambda: inner(state, action), self._seat_names.outward_data)

    def next_step(self, state: Any) -> str | None:
        inner = super().next_step
        return self._write(lambda: inner(state), self._seat_names.outward_data)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        inner = super().view
        return self._write(lambda: inner(state, seat), self._seat_names.outward_data)

    def render(self, state: Any, seat: int | None, names: Sequence[str]) -> str:
        inner = super().render
        return self._write(lambda: inner(state, seat, names), self._seat_names.outward)

    def __reduce__(self) -> tuple[Any, ...]:
        return (with_names, (_plain(self), self._seat_names.names))


class _Named(_NamedViews):
    """Overrides of every other Game method whose texts may name seats: actions read and
    written, messages, masked records."""

    def _read(self, text: str, read: Callable[[str], T]) -> T:
        return self._outer(lambda: read(text), lambda: self._seat_names.reading(text, read))

    def format_action(self, state: Any, action: Any) -> str:
        inner = super().format_action
        return self._write(lambda: inner(state, action), self._seat_names.outward)

    def parse_action(self, state: Any, text: str) -> Any:
        inner = super().parse_action
        return self._read(text, lambda t: inner(state, t))

    def check_chance(self, state: Any, text: str) -> Any:
        inner = super().check_chance
        return self._read(text, lambda t: inner(state, t))

    def assume_action(self, state: Any, seat: int | None, text: str, rng: Any) -> Any:
        inner = super().assume_action
        return self._read(text, lambda t: inner(state, seat, t, rng))

    def arrange_hidden(self, state: Any, seat: int | None, text: str, rng: Any) -> Any:
        inner = super().arrange_hidden
        return self._read(text, lambda t: inner(state, seat, t, rng))

    def guess_hidden_action(self, state: Any, seat: int | None, text: str, rng: Any) -> Any:
        inner = super().guess_hidden_action
        return self._read(text, lambda t: inner(state, seat, t, rng))

    def apply(self, state: Any, action: Any) -> Any:
        inner = super().apply
        return self._write(lambda: inner(state, action), lambda new: new)

    def mask_action(self, before: Any, action: Any, final: Any, seat: int | None) -> str:
        inner = super().mask_action
        return self._write(lambda: inner(before, action, final, seat), self._seat_names.outward)

    def mask_record(self, states: Sequence[Any], actions: Sequence[Any],
                    seat: int | None) -> list[str]:
        inner = super().mask_record
        return self._write(lambda: inner(states, actions, seat), self._seat_names.outward_data)


@cache
def _named_class(cls: type[Game]) -> type[Game]:
    mixin = _Named if cls.names_seats_in_actions else _NamedViews
    return type(cls.__name__, (mixin, cls), {"__module__": cls.__module__,
                                             "__qualname__": cls.__qualname__})


def _plain(named: _NamedViews) -> Game:
    """The game under a named one, speaking default names."""
    cls = next(c for c in type(named).__mro__ if not issubclass(c, _NamedViews))
    plain = object.__new__(cls)
    plain.__dict__.update({k: v for k, v in named.__dict__.items()
                           if k not in ("_seat_names", "_busy")})
    return plain


def with_names(game: Game, names: Sequence[str]) -> Game:
    """``game`` speaking the record's seat names, or ``game`` itself when its texts name no
    seat, the names are the default ones or ``game`` speaks them already. Names that look like
    default names of other seats (``p2`` for the first seat) would make texts ambiguous, so
    then the default names stay."""
    if isinstance(game, _NamedViews):  # named already: itself for these names, else afresh
        if game._seat_names.names == list(names):
            return game
        game = _plain(game)
    if not type(game).names_seats:
        return game
    seat_names = _seat_names(tuple(names))
    if seat_names is None:
        return game
    named = object.__new__(_named_class(type(game)))
    named.__dict__.update(game.__dict__)
    named._seat_names = seat_names  # type: ignore[attr-defined]
    return named


@lru_cache(maxsize=256)
def _seat_names(names: tuple[str, ...]) -> SeatNames | None:
    """The translation for these names (one for every game that uses them: it never changes
    once made), or None for the default names and names that look like default ones."""
    defaults = [f"p{i + 1}" for i in range(len(names))]
    if [n.lower() for n in names] == defaults or any(_DEFAULT.fullmatch(n) for n in names):
        return None
    return SeatNames(names)
