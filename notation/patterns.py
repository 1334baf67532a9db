"""Regular expressions compiled on first use.

A command loads many modules and uses few of their patterns: compiling each pattern when its
module loads costs every command the work of all of them (``re`` compiles in Python, some
hundreds of thousands of instructions for a long pattern). :func:`lazy` gives an object that
stands for the compiled pattern and compiles it when one of its methods is first called; from
then on its methods are the compiled pattern's own, found as fast as the pattern's would be.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any, cast

_METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer",
            "scanner")


class _Lazy:
    """A pattern not compiled yet: each method, first called, compiles it (see :func:`lazy`).
    Its fields are the pattern's (``flags`` once compiled, ``groups`` and ``groupindex``
    too)."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags
        for name in _METHODS:
            setattr(self, name, partial(_first_call, self, name))

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def _first_call(stand_in: _Lazy, name: str, *args: Any, **kwargs: Any) -> Any:
    """Compile the pattern, make its methods and fields the stand-in's, and call one."""
    compiled = re.compile(stand_in.pattern, stand_in.flags)
    for taken in (*_METHODS, "flags", "groups", "groupindex"):
        setattr(stand_in, taken, getattr(compiled, taken))
    return getattr(compiled, name)(*args, **kwargs)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when one of the pattern's methods is first
    called."""
    return cast("re.Pattern[str]", _Lazy(pattern, flags))
