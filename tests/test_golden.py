"""Golden playthroughs: a fixed record per game and every position it must produce.

``tests/golden/GAME.gtn`` is a complete seeded game; ``tests/golden/GAME.json`` holds, for every
ply, the position as the referee sees it and as the first seat sees it. Any change to a rule, a
view or the notation shows up here. After a deliberate change, regenerate with
``GAMETOOL_REGOLD=1 python -m pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import PLAYABLE

from gametool.players.auto import random_game
from gametool.records import load_one
from gametool.views import render

GOLDEN = Path(__file__).parent / "golden"
REGOLD = os.environ.get("GAMETOOL_REGOLD") == "1"


def frames(text: str) -> list[dict[str, object]]:
    session = load_one(text)
    first = session.names[0]
    return [{"referee": render.show_data(session, ply),
             first: render.show_data(session, ply, first)}
            for ply in range(session.ply + 1)]


@pytest.mark.parametrize("gid", PLAYABLE)
def test_golden_playthrough(gid: str) -> None:
    record, expected = GOLDEN / f"{gid}.gtn", GOLDEN / f"{gid}.json"
    if REGOLD or not record.exists():
        if not REGOLD:
            pytest.fail(f"no golden record for {gid}: run with GAMETOOL_REGOLD=1")
        text = random_game(gid, "golden").text()
        record.write_text(text)
        expected.write_text(json.dumps(frames(text), indent=1, sort_keys=True) + "\n")
    text = record.read_text()
    assert load_one(text).text() == text
    assert frames(text) == json.loads(expected.read_text())
