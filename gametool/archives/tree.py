"""An opening tree: the moves played from one position across an archive, with their games,
results, average rating of the player moving and best-rated game (Scid's tree window).

The archive is read game by game (a part at a time, so that any size takes little memory);
a game counts from the first time its main line reaches the position, moves transposed or not.
With a depth above 1 each move holds the tree of the replies to it, and so on. The work on a
part is a top-level function, so that the parts can be spread over processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gametool.core.errors import GameError
from gametool.sources.distribute import Part


@dataclass
class Branch:
    """What the games that played one move from the position did."""

    games: int = 0
    white: int = 0
    draw: int = 0
    black: int = 0
    elo_sum: int = 0
    elo_games: int = 0
    best: tuple[int, str, int] | None = None
    """(rating of the player moving, file, game number) of the best-rated game."""
    next: dict[str, Branch] = field(default_factory=dict)

    def add(self, result: str, elo: int | None, where: tuple[str, int]) -> None:
        self.games += 1
        if result == "1-0":
            self.white += 1
        elif result == "0-1":
            self.black += 1
        elif result == "1/2-1/2":
            self.draw += 1
        if elo is not None:
            self.elo_sum += elo
            self.elo_games += 1
            if self.best is None or elo > self.best[0]:
                self.best = (elo, *where)

    def merge(self, other: Branch) -> None:
        self.games += other.games
        self.white += other.white
        self.draw += other.draw
        self.black += other.black
        self.elo_sum += other.elo_sum
        self.elo_games += other.elo_games
        if other.best is not None and (self.best is None or other.best[0] > self.best[0]):
            self.best = other.best
        for move, branch in other.next.items():
            self.next.setdefault(move, Branch()).merge(branch)


def target(moves: str | None, fen: str | None) -> str:
    """The position key of the tree's root: after ``moves`` (SAN, move numbers allowed) from
    the standard start, or the position ``fen``; the start without either."""
    from gametool import games

    game = games.playable_class("chess")()
    if fen is not None:
        try:
            return game.position_key(game.decode_position(fen, 2))
        except GameError as exc:
            raise GameError(f"--fen: {exc.message}") from None
    state = game.initial_state(2)
    for number, word in enumerate((moves or "").split(), start=1):
        word = word.split(".")[-1]
        if not word:
            continue
        try:
            action = game.parse_action(state, word)
        except GameError as exc:
            raise GameError(f"--moves: move {number} ({word}): {exc.message}") from None
        state = game.apply(state, action)
    return game.position_key(state)


def _elo(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None


def tree_part(part: Part, root: str, depth: int) -> tuple[Branch, list[str], int]:
    """The tree of one part: (the root's branch, the errors met, the games read)."""
    from gametool.archives import corpus

    top = Branch()
    errors: list[str] = []
    count = 0
    for index, _line, item in corpus.sessions(part):
        count = index
        if isinstance(item, GameError):
            errors.append(str(item.located(file=part.path)))
            continue
        if item.game.id != "chess":
            continue
        game = item.game
        states = item.states
        at = next((ply for ply, state in enumerate(states)
                   if game.position_key(state) == root), None)
        if at is None:
            continue
        record = item.record
        result = (record.get("PGNResult") or record.get("Result") or "*").strip()
        branch = top
        for ply in range(at, min(at + depth, len(item.steps))):
            white = getattr(states[ply], "white", ply % 2 == 0)
            elo = _elo(record.get("WhiteElo" if white else "BlackElo"))
            branch = branch.next.setdefault(item.steps[ply].text, Branch())
            branch.add(result, elo, (part.path, index))
        top.games += 1
    return top, errors, count


def renumber(branch: Branch, base: int) -> None:
    """Number the best games of a part's tree within their file, after ``base`` games."""
    if not base:
        return
    for sub in branch.next.values():
        if sub.best is not None:
            sub.best = (sub.best[0], sub.best[1], sub.best[2] + base)
        renumber(sub, base)


def as_json(branch: Branch) -> list[dict[str, Any]]:
    out = []
    for move, sub in _ordered(branch):
        entry: dict[str, Any] = {
            "move": move, "games": sub.games,
            "white": _percent(sub.white, sub.games), "draw": _percent(sub.draw, sub.games),
            "black": _percent(sub.black, sub.games),
            "average_elo": round(sub.elo_sum / sub.elo_games) if sub.elo_games else None,
            "best": ({"elo": sub.best[0], "file": sub.best[1], "game": sub.best[2]}
                     if sub.best else None)}
        if sub.next:
            entry["next"] = as_json(sub)
        out.append(entry)
    return out


def rows(branch: Branch, before: str = "") -> list[list[Any]]:
    """The tree as table rows: moves (from the position: a reply after the move it
    answers), games, white/draw/black %, average Elo, best game."""
    out = []
    for move, sub in _ordered(branch):
        line = f"{before} {move}".strip()
        best = f"{sub.best[0]} ({sub.best[1]} game {sub.best[2]})" if sub.best else ""
        out.append([line, sub.games, _percent(sub.white, sub.games),
                    _percent(sub.draw, sub.games), _percent(sub.black, sub.games),
                    round(sub.elo_sum / sub.elo_games) if sub.elo_games else "", best])
        out += rows(sub, line)
    return out


def _ordered(branch: Branch) -> list[tuple[str, Branch]]:
    return sorted(branch.next.items(), key=lambda item: (-item[1].games, item[0]))


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0
