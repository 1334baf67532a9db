"""The one error kind of the notation layer: text that does not follow the grammar."""

from __future__ import annotations


class NotationError(ValueError):
    """Malformed text, with the line and column (1-based) where reading stopped."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return f"{self.line}:{self.column}: {self.message}"
