"""What the race games' parts share below the game class: the table of one position's legal
turns, and what the checks, the position text and the views ask of the game object.

The game class (``game``) builds on these; ``check``, ``standing``, ``encoding`` and ``view``
take the game as a :class:`RaceRules`, so that none of them imports the class that imports them.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from gametool.games.race.geometry import Geometry
from gametool.games.race.state import RaceState
from gametool.games.race.turns import Key


class Table(NamedTuple):
    """The legal turns of one position: listed actions, their reached positions, the raw tree."""

    actions: list[Any]
    key_of: dict[Any, Key]
    chosen: frozenset[Key]
    results: dict[Key, list[Any]]
    best: int


class RaceRules(Protocol):
    """A race game as its parts see it: the board, the options in force, the words of its rules
    file, and the few answers they need from it."""

    geo: Geometry
    bar_all: bool
    courtesy: bool
    placings: bool
    opening_roll: bool
    cap: int
    settings: dict[str, Any]
    space_word: str
    start_word: str

    def cite(self, decision: str) -> str: ...

    def format_action(self, state: RaceState, action: Any) -> str: ...

    def encode_position(self, state: RaceState) -> str: ...

    def to_move(self, state: RaceState) -> int | None: ...

    def ranks(self, state: RaceState) -> list[int]: ...

    def board_rows(self, state: RaceState) -> list[list[str]]: ...
