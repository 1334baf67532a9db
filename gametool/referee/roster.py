"""The games of the game folder, and the games of one player: the one scan every part of the
referee uses (``#games``, leave, the digest, the standings)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.records import Session, load_one


def games(game_dir: str | Path, player: str | None = None) -> Iterator[tuple[Path, Session]]:
    """Each master record of the folder that reads, in the order of its file name, with its
    session; with ``player``, only the games where that address holds a seat (any letter
    case). A record that does not read counts for nobody."""
    want = player.lower() if player is not None else None
    for path in sorted(Path(game_dir).glob("*.gtn")):
        try:
            session = load_one(storage.read(str(path)), str(path))
        except GameError:
            continue
        if want is None or want in (name.lower() for name in session.names):
            yield path, session
