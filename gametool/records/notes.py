"""Notes between seats: ``#say TEXT`` by mail.

A note goes by mail to every other seat of the game at once, and is kept in the master record
as a comment line ``{ say SENDER to others: TEXT }``: a seat's exported record (its player's
file) holds its own notes and none of the others', a spectator's none. Written ``#say all:
TEXT``, the comment reads ``{ say SENDER to all: TEXT }`` and every export keeps it. A note is
the player's own words on one line; the referee adds nothing to it and reads nothing from it.
"""

from __future__ import annotations

import re

from notation import record as gtn
from notation.patterns import lazy

MAX_NOTE = 500
NOTE = lazy(r"say (\S+) to (others|all): ", re.IGNORECASE)


def make(sender: str, argument: str) -> tuple[gtn.CommentLine, bool, str]:
    """The comment line of a note, whether it is for all, and its text."""
    text = argument.strip()
    public = text.lower().startswith("all:")
    if public:
        text = text[4:].strip()
    if not text:
        raise ValueError("'#say' with nothing to say: write '#say TEXT' (or '#say all: TEXT')")
    if len(text) > MAX_NOTE:
        raise ValueError(f"a note holds at most {MAX_NOTE} characters")
    return gtn.CommentLine(f"say {sender} to {'all' if public else 'others'}: {text}"), \
        public, text


def hidden_from(item: object, seat_name: str | None) -> bool:
    """Whether the record item is a note that the export for ``seat_name`` leaves out."""
    if not isinstance(item, gtn.CommentLine):
        return False
    found = NOTE.match(item.text)
    if found is None or found.group(2).lower() == "all":
        return False
    return seat_name is None or found.group(1).lower() != seat_name.lower()
