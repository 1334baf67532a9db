"""The reader every game reads its actions with: the fast way first, the grammar for the rest.

A game writes its actions in a few spellings of its own; a regular expression (or a few string
tests) reads those, giving exactly the tokens the game's pyparsing grammar gives, so that a
record in the tool's own spellings never loads pyparsing. Any other text goes to the grammar,
built on first need, which reads it or raises :class:`NotationError` naming what is wrong and
where (the game words its own refusal from it). A test holds each fast way to its grammar
(``grammar_reads`` gives the grammar's reading of any text).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from notation.errors import NotationError

T = TypeVar("T")

__all__ = ["FastReader"]


class FastReader(Generic[T]):
    """``reader(text)``: ``fast(text)`` when it reads the text (anything but None), else what
    the grammar reads: the tokens of ``grammar()`` (a pyparsing element, made on first need)
    for the whole text, given to ``made(tokens, text)`` when there is one, so that both ways
    give the same kind of value. Where the grammar refuses the text, ``refuse(text, error)``
    gives the exception raised (the game's own words), else the NotationError is raised.

    ``fast`` must give what the grammar way gives, or None: it may take less than the grammar,
    never more, and never read a text otherwise."""

    __slots__ = ("fast", "grammar", "made", "refuse")

    def __init__(self, fast: Callable[[str], T | None], grammar: Callable[[], Any],
                 made: Callable[[Any, str], T] | None = None,
                 refuse: Callable[[str, NotationError], Exception] | None = None) -> None:
        self.fast = fast
        self.grammar = grammar
        self.made = made
        self.refuse = refuse

    def __call__(self, text: str) -> T | Any:
        found = self.fast(text)
        if found is not None:
            return found
        return self.slow(text)

    def slow(self, text: str) -> T | Any:
        """What the grammar way gives for ``text`` (the fast way not tried)."""
        try:
            tokens = self.grammar_reads(text)
        except NotationError as exc:
            if self.refuse is None:
                raise
            raise self.refuse(text, exc) from None
        return tokens if self.made is None else self.made(tokens, text)

    def grammar_reads(self, text: str) -> Any:
        """The grammar's tokens for all of ``text``; NotationError (with the column) if it
        is not one."""
        from notation.tokens import parse_whole

        return parse_whole(self.grammar(), text)

    def __repr__(self) -> str:
        return (f"FastReader({getattr(self.fast, '__qualname__', self.fast)}, "
                f"{getattr(self.grammar, '__qualname__', self.grammar)})")
