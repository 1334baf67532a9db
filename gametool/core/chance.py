"""Seeded chance that gives the same outcomes on every platform and Python version.

Each chance action at ply ``p`` of a record with seed ``s`` draws from the byte stream
``SHA-256("gametool:" s ":" p ":" counter)`` for counter = 0, 1, 2, ... (counter mode). Whole
numbers below ``n`` are taken by rejection sampling, so every value is equally likely. Nothing
here uses the ``random`` module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from notation.patterns import lazy

T = TypeVar("T")


class SeedRng:
    """A deterministic stream of random choices for one ply of one seeded record."""

    def __init__(self, seed: str, ply: int) -> None:
        self._prefix = f"gametool:{seed}:{ply}:".encode()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, count: int) -> bytes:
        import hashlib

        while len(self._buffer) < count:
            block = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def randbelow(self, n: int) -> int:
        """A whole number in ``range(n)``, uniformly, by rejection sampling."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
            if value < n:
                return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def die(self, sides: int = 6) -> int:
        return 1 + self.randbelow(sides)


STRONG_BITS = 128
"""A seed whose hash is handed out must hold at least this many bits of random hex."""

_HEX = lazy(r"[0-9a-f]+")


def new_seed() -> str:
    """A fresh random seed for a new record: 128 bits from the operating system, in hex."""
    import secrets  # only when a seed is drawn: not at every start

    return secrets.token_hex(STRONG_BITS // 8)


def weak_seed_reason(seed: str) -> str | None:
    """Why ``seed`` can be guessed from its hash (or from what it deals), or None if it cannot.

    A seed counts as strong only when it is at least 128 bits of hex digits, written as
    ``new_seed`` writes them; any other string (a word, a date, a short hex number) is assumed
    to have been chosen by a person and so to be within reach of a search.
    """
    text = seed.strip().lower()
    if not _HEX.fullmatch(text):
        return "it is not a string of random hex digits"
    if len(text) * 4 < STRONG_BITS:
        return f"it holds {len(text) * 4} bits, fewer than {STRONG_BITS}"
    if len(set(text)) < 8:
        return "its hex digits repeat too much to be random"
    return None


def seed_hash(seed: str) -> str:
    """The commitment published in place of a seed: SHA-256 of its UTF-8 bytes, in hex."""
    import hashlib

    return hashlib.sha256(seed.encode()).hexdigest()


# -- a seed drawn jointly by the referee and the players -------------------------------------------


def new_contribution() -> str:
    """A player's random contribution to a jointly drawn seed: 128 bits, in hex."""
    import secrets

    return secrets.token_hex(STRONG_BITS // 8)


def check_contribution(text: str) -> str:
    """A contribution as written in mail or a record: 32 to 128 hex digits, lower-cased.

    Raises ValueError with the reason when ``text`` is not one.
    """
    value = text.strip().lower()
    if not _HEX.fullmatch(value) or not 32 <= len(value) <= 128:
        raise ValueError(f"contribution {text.strip()[:40]!r} is not 32 to 128 hex digits")
    return value


def joint_seed(secret: str, contributions: Sequence[str]) -> str:
    """The seed of a jointly drawn record: SHA-256 of the referee's secret and every seat's
    contribution, in seat order, one per line after a fixed label."""
    import hashlib

    text = "\n".join(["gametool joint seed", secret, *contributions])
    return hashlib.sha256(text.encode()).hexdigest()
