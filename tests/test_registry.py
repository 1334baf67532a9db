"""The registry is the one list of games: every game has its samples, its aliases on its class,
and the README's games table is what ``gametool list`` shows."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from regenerate import README, games_table, readme_table

from gametool import games

ROOT = Path(__file__).resolve().parent.parent
COMMAND = shutil.which("gametool") or str(Path(sys.executable).parent / "gametool")


def listed() -> list[dict[str, object]]:
    done = subprocess.run([COMMAND, "list", "--json"], capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("gid", games.playable_ids())
def test_every_game_has_two_valid_sample_records(gid: str) -> None:
    samples = sorted((ROOT / "sample_games" / gid).glob("*.gtn"))
    assert len(samples) >= 2, f"{gid} has {len(samples)} sample records " \
        "(python tests/regenerate.py writes two)"
    done = subprocess.run([COMMAND, "validate", *map(str, samples)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    for sample in samples:
        assert f'[Game "{gid}"]' in sample.read_text(encoding="utf-8"), sample


def test_no_samples_of_a_game_that_is_not_registered() -> None:
    folders = {p.name for p in (ROOT / "sample_games").iterdir() if p.is_dir()}
    assert folders <= set(games.GAMES), sorted(folders - set(games.GAMES))


def test_the_readme_games_table_is_the_registry() -> None:
    """Row by row as ``gametool list --json`` tells each game (id, name, status, seats, chance,
    hidden information), and as ``tests/regenerate.py`` writes it."""
    text = README.read_text(encoding="utf-8")
    start, end = readme_table(text)
    table = text.split("\n")[start:end]
    assert table == games_table(), "run python tests/regenerate.py"
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]
    told = listed()
    assert [row[0].strip("`") for row in rows] == [g["id"] for g in told]
    for row, game in zip(rows, told, strict=True):
        name = game["name"] if game["status"] == "playable" else \
            f"{game['name']}: {game['status']}, listed but not playable"
        seats = str(game["min_players"]) if game["min_players"] == game["max_players"] else \
            f"{game['min_players']}-{game['max_players']}"
        assert row[1:] == [name, seats, game["chance"] or "none", game["hidden"] or "none"]


def test_aliases_are_declared_on_the_classes_and_read_from_there() -> None:
    assert not hasattr(games, "ALIASES")
    declared = {alias: cls.id for cls in games.all_classes() for alias in cls.aliases}
    assert declared == games.aliases()
    assert len(declared) >= 10 and not set(declared) & set(games.GAMES)
    told = {g["id"]: g["aliases"] for g in listed()}
    for alias, gid in declared.items():
        assert games.canonical_id(alias.upper()) == gid
        assert alias in told[gid]


def test_a_game_id_is_found_without_loading_any_game() -> None:
    """Naming a game by its id loads its module alone (aliases need every class)."""
    code = ("import sys; from gametool import games; games.game_class('chess'); "
            "print(sorted(m for m in sys.modules if m.startswith('gametool.games.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    loaded = {name.split(".")[2] for name in json.loads(done.stdout.replace("'", '"'))}
    assert loaded == {"chess"}
