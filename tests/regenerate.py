"""Write what the project generates from its games: ``python tests/regenerate.py [GAME...]``.

One command for everything a game's code determines and the tests compare:

- the golden playthrough of a game, ``tests/golden/GAME.gtn`` and ``GAME.json`` (a seeded
  random game and every position it produces, see ``tests/test_golden.py``);
- two seeded sample records, ``sample_games/GAME/random-1.gtn`` and ``random-2.gtn``, for a
  game with fewer than two samples (samples written by hand are never replaced);
- the manual pages in ``man/`` (as ``gametool man --write man`` does; pages of games or
  commands that no longer exist are removed);
- the games table of ``README.md``, from the registry (as ``gametool list`` shows it).

Without GAME it writes only what is missing (a golden pair, samples) besides the pages and the
table; naming a game (or ``--all``) rewrites its golden pair too, after a deliberate change to
its rules, views or notation: then review the diff. It prints each file it wrote.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
SAMPLES = ROOT / "sample_games"
MAN = ROOT / "man"
README = ROOT / "README.md"
TABLE_HEAD = "| id | game | players | chance | hidden information |"


def frames(text: str) -> list[dict[str, object]]:
    """Every position of a record, as the referee and as its first seat see it."""
    from gametool.records import load_one
    from gametool.views import render

    session = load_one(text)
    first = session.names[0]
    return [{"referee": render.show_data(session, ply),
             first: render.show_data(session, ply, first)}
            for ply in range(session.ply + 1)]


def write_golden(gid: str) -> list[Path]:
    from gametool.players.auto import random_game

    text = random_game(gid, "golden").text()
    record, expected = GOLDEN / f"{gid}.gtn", GOLDEN / f"{gid}.json"
    record.write_text(text)
    expected.write_text(json.dumps(frames(text), indent=1, sort_keys=True) + "\n")
    return [record, expected]


def write_samples(gid: str) -> list[Path]:
    """Seeded random records for a game with fewer than two samples; none otherwise."""
    from gametool.players.auto import random_game

    folder = SAMPLES / gid
    if len(list(folder.glob("*.gtn"))) >= 2:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index in (1, 2):
        path = folder / f"random-{index}.gtn"
        if not path.exists():
            path.write_text(random_game(gid, f"sample-{gid}-{index}").text())
            written.append(path)
    return written


def write_pages() -> list[Path]:
    from gametool.cli import cli
    from gametool.cli.manpages import pages, write

    written = [MAN / name for name in write(cli, MAN)]
    for stale in sorted(set(p.name for p in MAN.iterdir()) - set(pages(cli))):
        (MAN / stale).unlink()
        written.append(MAN / stale)
    return written


def games_table() -> list[str]:
    """The README's table of games, one row per registered game, in the registry's order."""
    from gametool import games

    rows = [TABLE_HEAD, "|---|---|---|---|---|"]
    for cls in games.all_classes():
        name = cls.name if cls.status == "playable" else \
            f"{cls.name}: {cls.status}, listed but not playable"
        seats = str(cls.min_players) if cls.min_players == cls.max_players else \
            f"{cls.min_players}-{cls.max_players}"
        rows.append(f"| `{cls.id}` | {name} | {seats} | {cls.chance or 'none'} | "
                    f"{cls.hidden or 'none'} |")
    return rows


def readme_table(text: str) -> tuple[int, int]:
    """Where the games table stands among the README's lines: (first line, line after)."""
    lines = text.split("\n")
    start = lines.index(TABLE_HEAD)
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return start, end


def write_readme_table() -> list[Path]:
    text = README.read_text(encoding="utf-8")
    start, end = readme_table(text)
    lines = text.split("\n")
    new = "\n".join([*lines[:start], *games_table(), *lines[end:]])
    if new == text:
        return []
    README.write_text(new, encoding="utf-8")
    return [README]


def main(argv: list[str]) -> int:
    from gametool import games
    from gametool.core.errors import GameError

    everything = "--all" in argv
    try:
        named = [games.canonical_id(name) for name in argv if name != "--all"]
    except GameError as exc:
        print(f"regenerate: {exc}", file=sys.stderr)
        return 2
    written: list[Path] = []
    for gid in games.playable_ids():
        if everything or gid in named or not (GOLDEN / f"{gid}.gtn").exists():
            written += write_golden(gid)
        written += write_samples(gid)
    written += write_pages()
    written += write_readme_table()
    for path in written:
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main(sys.argv[1:]))
