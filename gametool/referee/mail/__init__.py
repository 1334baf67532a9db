"""Reading players' mail for the referee, apart from how mail arrives or leaves.

``message`` turns the raw bytes of one mail into its sender, subject and plain text, in time
linear in the mail's size and never trusting a header it cannot read unambiguously; ``body``
finds the player's own lines (the seat key, the ``#ply N`` guard and the actions) in that text;
``keys`` makes seat keys and checks them against their salted hashes.
"""

from __future__ import annotations

from gametool.core.errors import GameError


class MailRejected(GameError):
    """A mail that cannot be applied: the reason goes back to the sender's seat."""


class MailDropped(GameError):
    """A mail with nobody to answer (no single readable sender): it is dropped, not answered."""
