"""Seeded chance that gives the same outcomes on every platform and Python version.

Each chance action at ply ``p`` of a record with seed ``s`` draws from the byte stream
``SHA-256("gametool:" s ":" p ":" counter)`` for counter = 0, 1, 2, ... (counter mode). Whole
numbers below ``n`` are taken by rejection sampling, so every value is equally likely. Nothing
here uses the ``random`` module.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class SeedRng:
    """A deterministic stream of random choices for one ply of one seeded record."""

    def __init__(self, seed: str, ply: int) -> None:
        self._prefix = f"gametool:{seed}:{ply}:".encode()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, count: int) -> bytes:
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


def new_seed() -> str:
    """A fresh random seed for a new record (from the operating system)."""
    return secrets.token_hex(8)


def seed_hash(seed: str) -> str:
    """The commitment published in place of a seed: SHA-256 of its UTF-8 bytes, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()
