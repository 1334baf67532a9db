"""What the referee sends, and the failure that keeps it from sending anything.

Shared by the reading of mail (``gametool.referee.referee``) and the season
(``gametool.referee.season``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gametool.core.errors import GameError

OUTBOX_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,200}\.eml")
"""The name of a message file in the outbox (a journal entry names its files: none may lead
out of the outbox)."""


@dataclass
class Outgoing:
    """One message for the outbox."""

    to: str
    subject: str
    body: str
    in_reply_to: str | None = None
    refusal: bool = False  # a refusal of a seat's mail (at most one an hour goes out)
    turn: bool = False  # its only news: a move waits for the seat (the digest may take it)


class Unkept(GameError):
    """An outcome could not be kept (a folder that refuses a file, a full disk): the referee's
    own failure, not the sender's. Nothing that describes the outcome is written; the journal
    lets the next run finish the work."""
