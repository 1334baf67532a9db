"""ECO classification: the opening a chess game plays, by the positions of its main line.

The table shipped with the package (``gametool/data/eco.tsv``) holds, for each named line of
the lichess chess-openings list (https://github.com/lichess-org/chess-openings, CC0 1.0,
public domain), its ECO code, its name and the position it reaches (placement, side to move
and castling rights, as ``filter --fen`` compares positions). A game is classified by the
latest position of its main line that the table names, so that a transposition into a named
line counts (the way the list itself advises to classify games); with several names for one
position the one of the shortest line is kept.

    python -m gametool.pgn.eco a.tsv b.tsv c.tsv d.tsv e.tsv > gametool/data/eco.tsv

rebuilds the table from the list's files.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

from gametool.core.errors import GameError

TABLE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "eco.tsv")
SOURCE = ("# ECO codes and opening names from the lichess chess-openings list, "
          "https://github.com/lichess-org/chess-openings ({commit}), released under CC0 1.0 "
          "(public domain). Columns: eco, name, plies, position (placement, side to move, "
          "castling).")


class Openings:
    """The opening table: position key -> (ECO code, name)."""

    def __init__(self, entries: dict[str, tuple[str, str]], depth: int) -> None:
        self.entries = entries
        self.depth = depth
        """The most plies of any named line: no later position is looked up."""

    def find(self, session: Any) -> tuple[str, str] | None:
        """The (ECO, name) of a chess record's opening; None for a game from a set-up
        position (other than the standard start), of another game, or that leaves the table
        at once."""
        if session.game.id != "chess":
            return None
        game = session.game
        if session.record.get("Position") and game.position_key(session.states[0]) != \
                game.position_key(game.initial_state(len(session.names))):
            return None  # a set-up position; a FEN tag of the standard start is none
        found = None
        for state in session.states[1:self.depth + 1]:
            hit = self.entries.get(game.position_key(state))
            if hit is not None:
                found = hit
        return found

    def classify(self, session: Any) -> None:
        """Set the ECO and Opening tags of a chess record from the table (kept as they are
        when the table does not know the game's opening)."""
        found = self.find(session)
        if found is not None:
            session.record.set("ECO", found[0])
            session.record.set("Opening", found[1])


@functools.cache
def table(path: str = TABLE) -> Openings:
    """The opening table shipped with the package (read once)."""
    entries: dict[str, tuple[str, str]] = {}
    depth = 0
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#") or not line.strip():
                    continue
                code, name, plies, key = line.rstrip("\n").split("\t")
                entries.setdefault(key, (code, name))
                depth = max(depth, int(plies))
    except (OSError, ValueError) as exc:
        raise GameError(f"{path}: the opening table cannot be read ({exc})") from None
    return Openings(entries, depth)


def build(paths: list[str], commit: str = "") -> str:
    """The table's text from the list's TSV files (eco, name, pgn)."""
    from gametool.pgn import reader as pgn

    rows: list[tuple[int, int, str, str, str]] = []
    order = 0
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                code, name, moves = line.rstrip("\n").split("\t")
                if code == "eco":
                    continue
                session = pgn.import_pgn(f"{moves} *\n")[0]
                key = session.game.position_key(session.state)
                order += 1
                rows.append((session.ply, order, code, name, key))
    rows.sort()
    seen: set[str] = set()
    out = [SOURCE.format(commit=f"commit {commit}" if commit else "the list")]
    for plies, _order, code, name, key in rows:
        if key in seen:
            continue
        seen.add(key)
        out.append(f"{code}\t{name}\t{plies}\t{key}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    arguments = sys.argv[1:]
    commit = ""
    if arguments and arguments[0].startswith("--commit="):
        commit = arguments.pop(0).partition("=")[2]
    sys.stdout.write(build(arguments, commit))
