"""PO-GO: registered so that it is listed, but its rules are not available to play."""

from __future__ import annotations

from typing import ClassVar

from gametool.core.engine import Game


class PoGo(Game):
    id = "po-go"
    name = "PO-GO"
    min_players = 2
    max_players = 2
    chance = "unknown"
    hidden = "unknown"
    status = "rules unavailable"
    summary: ClassVar[str] = (
        "PO-GO (Rey Alicea, nestorgames, BoardGameGeek 164626) is listed, but its rules are "
        "not available to gametool, so it cannot be played, checked or replayed."
    )
    notation = "unknown: the rules are not available."
