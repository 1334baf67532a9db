"""Close matches for a mistyped name or action: "did you mean ...?" hints from difflib, and
for a short word (a square such as ``e5``, which difflib finds close to nothing) the known
words one keystroke away."""

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
    if len(out) < n and 0 < len(word) <= SHORT:
        out += [by_lower[k] for k in one_keystroke(word.lower(), by_lower)
                if by_lower[k] not in out]
    return out[:n]


SHORT = 3
"""Words this long or shorter also get the known words one keystroke away: difflib's ratio
of two two-letter words that differ in one letter is 0.5, below any useful cutoff."""


def one_keystroke(word: str, known: Iterable[str]) -> list[str]:
    """The known words (lower case, like ``word``) one edit from ``word``: a character changed,
    added, dropped, or two neighbours swapped. Nearest first: a changed character by how far
    apart the two characters are (``e4`` before ``e3`` for ``e5``), a swap as a neighbour, an
    added or dropped character last; ties in the order given."""
    found: list[tuple[int, int, str]] = []
    for index, other in enumerate(known):
        if other == word or abs(len(other) - len(word)) > 1:
            continue
        if len(other) == len(word):
            at = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
            if len(at) == 1:
                found.append((abs(ord(word[at[0]]) - ord(other[at[0]])), index, other))
            elif len(at) == 2 and at[1] == at[0] + 1 and word[at[0]] == other[at[1]] \
                    and word[at[1]] == other[at[0]]:
                found.append((1, index, other))
        else:
            shorter, longer = sorted((word, other), key=len)
            if any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer))):
                found.append((1_000, index, other))
    return [other for _gap, _index, other in sorted(found)]


def hint(word: str, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` or ``""`` when nothing is close."""
    matches = close_matches(word, known)
    if not matches:
        return ""
    return " (did you mean " + " or ".join(repr(m) for m in matches) + "?)"
