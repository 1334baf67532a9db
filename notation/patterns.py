"""Regular expressions compiled on first use.

A command loads many modules and uses few of their patterns: compiling each pattern when its
module loads costs every command the work of all of them (``re`` compiles in Python, some
hundreds of thousands of instructions for a long pattern). :func:`lazy` gives an object that
stands for the compiled pattern until one of its methods or fields is first looked up. That
compiles the pattern and puts it in the stand-in's place in the module that made it, so that
the module's code then finds the compiled pattern itself, as if it had been compiled at once.
A method looked up before any call (``match = _LINE.match`` ahead of a loop) is already the
compiled pattern's own.
"""

from __future__ import annotations

import re
import sys
from typing import Any, cast

_TAKEN = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer",
          "scanner", "flags", "groups", "groupindex")
"""What a stand-in gives of the compiled pattern: its methods and fields (and ``pattern``)."""


class _Compiling:
    """A method or field of a pattern not compiled yet: looking it up compiles the pattern."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, stand_in: _Lazy | None, owner: type | None = None) -> Any:
        if stand_in is None:
            return self
        return getattr(stand_in.compiled(), self.name)


class _Lazy:
    """A pattern, compiled on first need (see :func:`lazy`)."""

    def __init__(self, pattern: str, flags: int, where: dict[str, Any]) -> None:
        self.pattern = pattern
        self._flags = flags
        self._where = where

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern: compiled now if it was not yet, and then put in the place of
        this stand-in among the globals of the module that made it (a module that imported the
        stand-in keeps it, and finds the compiled pattern's methods through it)."""
        compiled = re.compile(self.pattern, self._flags)
        if "match" not in self.__dict__:
            for name in _TAKEN:  # (instance values come before _Compiling, which has no __set__)
                self.__dict__[name] = getattr(compiled, name)
            for key, value in list(self._where.items()):
                if value is self:
                    self._where[key] = compiled
        return compiled

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


for _name in _TAKEN:
    setattr(_Lazy, _name, _Compiling(_name))


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when the pattern is first used. Meant for a
    module's global patterns: the compiled pattern then takes the stand-in's place there."""
    where = sys._getframe(1).f_globals  # noqa: SLF001 - the calling module's globals
    return cast("re.Pattern[str]", _Lazy(pattern, flags, where))
