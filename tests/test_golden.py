"""Golden playthroughs: a fixed record per game and every position it must produce.

``tests/golden/GAME.gtn`` is a complete seeded game; ``tests/golden/GAME.json`` holds, for every
ply, the position as the referee sees it and as the first seat sees it. Any change to a rule, a
view or the notation shows up here. After a deliberate change, regenerate with
``python tests/regenerate.py GAME`` (or ``GAMETOOL_REGOLD=1 python -m pytest
tests/test_golden.py`` for every game) and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import PLAYABLE
from regenerate import frames, write_golden

from gametool.records import load_one

GOLDEN = Path(__file__).parent / "golden"
REGOLD = os.environ.get("GAMETOOL_REGOLD") == "1"


@pytest.mark.parametrize("gid", PLAYABLE)
def test_golden_playthrough(gid: str) -> None:
    record, expected = GOLDEN / f"{gid}.gtn", GOLDEN / f"{gid}.json"
    if REGOLD or not record.exists():
        if not REGOLD:
            pytest.fail(f"no golden record for {gid}: run python tests/regenerate.py {gid}")
        write_golden(gid)
    text = record.read_text()
    assert load_one(text).text() == text
    assert frames(text) == json.loads(expected.read_text())
