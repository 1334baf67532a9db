"""Make the pictures the README shows: one per kind of game, each by a `gametool show` command.

    python docs/make_pictures.py            # writes docs/*.svg
    python docs/make_pictures.py OUT_DIR    # writes them elsewhere (the tests compare)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PICTURES = [
    ("chess.svg", "Chess: the Opera game, Black in check, as Black sees it",
     "sample_games/chess/opera-game-checkmate.gtn --ply 31 --as Duke_Karl_Count_Isouard"),
    ("super-horse-chess.svg", "Super Horse Chess: Trojan horses on the board",
     "sample_games/super-horse-chess/random-game-horse-promotion-checkmate.gtn --ply 17"),
    ("track-gammon.svg", "Track Gammon: the triangle of 36 spaces, hands, bars and trays",
     "sample_games/track-gammon/placings.gtn --ply 1257"),
    ("tawula.svg", "Tawula: a tables board with its bar, hands and bear-off trays",
     "sample_games/tawula/seeded-roll-off.gtn --ply 458"),
    ("space-cards.svg", "Space Cards, as ann sees it: her hand face up, the deck as backs",
     "sample_games/space-cards/three-players.gtn --ply 40 --as ann --weak-seed-ok"),
    ("two-headed-dragon.svg", "Two-Headed Dragon, as ann sees it: the other hands as backs",
     "sample_games/two-headed-dragon/three-players.gtn --ply 12 --as ann --weak-seed-ok"),
    ("western-mahjong.svg", "Western Mahjong, the referee's view: both hands and the melds",
     "sample_games/western-mahjong/random-full-game.gtn --ply 785"),
]
"""(file under docs/, caption, the arguments of `gametool show` before `-o`)."""


def command(args: str, out: str) -> list[str]:
    """The command that makes one picture, as the README gives it."""
    return ["gametool", "show", *args.split(), "-o", out, "--force"]


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, _caption, args in PICTURES:
        argv = command(args, str(out_dir / name))
        done = subprocess.run([sys.executable, "-m", "gametool", *argv[1:]], cwd=ROOT,
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)}: {done.stderr.strip()}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs")
