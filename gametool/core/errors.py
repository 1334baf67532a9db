"""The error kinds of the engine and the record reader.

Every error is a ``ValueError`` with a one-line message. Errors raised while reading a record
carry its position (file, line, column, ply) so the CLI can print ``FILE:LINE:COL: ply N: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Where:
    """Where in a record an error was found; every part is optional."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    ply: int | None = None

    def prefix(self) -> str:
        parts = [p for p in (self.file, self.line, self.column) if p is not None]
        head = ":".join(str(p) for p in parts)
        if self.ply is not None:
            head = f"{head}: ply {self.ply}" if head else f"ply {self.ply}"
        return head


class GameError(ValueError):
    """Base of every error the tool reports to a user."""

    kind = "error"

    def __init__(self, message: str, where: Where | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where or Where()

    def located(self, **parts: object) -> GameError:
        """Fill in missing position parts (file, line, column, ply) and return self."""
        for key, value in parts.items():
            if value is not None and getattr(self.where, key) is None:
                setattr(self.where, key, value)
        return self

    def __str__(self) -> str:
        prefix = self.where.prefix()
        return f"{prefix}: {self.message}" if prefix else self.message


class MalformedAction(GameError):
    """The text is not an action of this game at all."""

    kind = "malformed"


class IllegalAction(GameError):
    """A well-formed action that the rules forbid here; the message names the rule."""

    kind = "illegal"


class AmbiguousAction(GameError):
    """An action that matches several legal actions; the message lists them."""

    kind = "ambiguous"

    def __init__(self, message: str, candidates: list[str] | None = None,
                 where: Where | None = None) -> None:
        super().__init__(message, where)
        self.candidates = candidates or []


class RecordError(GameError):
    """A record that cannot be read: syntax, bad header, wrong seat or ply, seed mismatch."""

    kind = "record"


class GameOver(GameError):
    """An action after the end of the game."""

    kind = "over"


class UnavailableGame(GameError):
    """A registered game whose rules cannot be played (for example: rules not available)."""

    kind = "unavailable"


class UnknownGame(GameError):
    """A game id that is not registered."""

    kind = "unknown"
