"""Close matches for a mistyped name or action: "did you mean ...?" hints from difflib."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def close_matches(word: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names closest to ``word``: a different letter case first, then difflib's."""
    known = list(dict.fromkeys(known))
    folded = [k for k in known if k.lower() == word.lower() and k != word]
    by_lower: dict[str, str] = {}
    for k in known:
        by_lower.setdefault(k.lower(), k)
    near = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
    out = folded + [by_lower[k] for k in near if by_lower[k] not in folded]
    return out[:n]


def hint(word: str, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` or ``""`` when nothing is close."""
    matches = close_matches(word, known)
    if not matches:
        return ""
    return " (did you mean " + " or ".join(repr(m) for m in matches) + "?)"
