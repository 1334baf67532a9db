"""PO-GO: registered so that it is listed, but its rules are not available to play."""

from __future__ import annotations

from typing import ClassVar

from gametool.engine import Game


class PoGo(Game):
    id = "po-go"
    name = "PO-GO"
    min_players = 2
    max_players = 2
    chance = "unknown"
    hidden = "unknown"
    status = "rules unavailable"
    summary: ClassVar[str] = (
        "the rules of PO-GO (Rey Alicea, nestorgames, BoardGameGeek 164626) are not in the "
        "sources; supply them to enable this game."
    )
    notation = "unknown: the rules are not available."
