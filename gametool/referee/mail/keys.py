"""Seat keys: a secret per seat that proves a mail comes from that seat's player.

A key is 160 random bits from ``secrets``, written as one word of 32 base32 letters and digits
(one word, so it never looks like a move or a card in any game's notation; letter case, spaces
and dashes do not matter when it is typed back). The referee keeps only a salted hash of
each key (HMAC-SHA-256 under a random salt per key), in a small JSON file beside the master
record, and compares with ``hmac.compare_digest``. The key itself is only ever written into the
mail that hands it to its seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets

from gametool.core.errors import GameError

KEY_BYTES = 20
SALT_BYTES = 16
MAX_TYPED = 200  # a typed key longer than this cannot be a key


def new_key() -> str:
    """A fresh key, e.g. ``mzxw6ytboi2dk3tmnzsxg4zamruwizlo`` (32 base32 characters)."""
    return base64.b32encode(secrets.token_bytes(KEY_BYTES)).decode("ascii").lower()


def _normal(typed: str) -> bytes:
    return re.sub(r"[\s-]", "", typed).upper().encode("utf-8", "replace")


def _digest(salt: bytes, typed: str) -> str:
    return hmac.new(salt, _normal(typed), hashlib.sha256).hexdigest()


class Keyring:
    """The salted key hashes of one match, by seat name (the registered address)."""

    def __init__(self, entries: dict[str, dict[str, str]] | None = None) -> None:
        self.entries = entries or {}

    @classmethod
    def from_text(cls, text: str, name: str = "key file") -> Keyring:
        try:
            data = json.loads(text)
            entries = data["seats"]
            if not isinstance(entries, dict) or not all(
                    isinstance(v, dict) and isinstance(v.get("salt"), str)
                    and isinstance(v.get("hash"), str) for v in entries.values()):
                raise ValueError(name)
        except (ValueError, KeyError, TypeError):
            raise GameError(f"{name}: not a key file the referee wrote") from None
        return cls(entries)

    def text(self) -> str:
        return json.dumps({"seats": self.entries}, indent=2, sort_keys=True) + "\n"

    def issue(self, seat: str) -> str:
        """A new key for ``seat``, replacing any old one; only its salted hash is kept."""
        key = new_key()
        salt = secrets.token_bytes(SALT_BYTES)
        self.entries[seat] = {"salt": salt.hex(), "hash": _digest(salt, key)}
        return key

    def matches(self, seat: str, typed: str) -> bool:
        """True when ``typed`` is ``seat``'s current key (constant-time comparison)."""
        entry = self.entries.get(seat)
        if entry is None or len(typed) > MAX_TYPED:
            return False
        try:
            salt = bytes.fromhex(entry["salt"])
        except ValueError:
            return False
        return hmac.compare_digest(_digest(salt, typed), entry["hash"])
