"""Standings across the referee's games: per game, each player's results and an Elo rating.

The rating is computed from the finished games only, in the order they ended (the ``Ended`` tag
the referee writes, else the ``Date`` tag, then the match id). Every player starts at
``START`` and each game moves a rating by ``K`` times (score - expected score), the expected
score being ``1 / (1 + 10 ** ((opponent - own) / 400))``. A game of three or more seats counts
as one result against each other seat (better rank: 1, same rank: 1/2, worse: 0), each such
pair weighted ``K / (seats - 1)``, so that one game moves a rating at most ``K``. Ratings are
updated from the ratings before the game. A time forfeit decides only between the late seats
and those on time: each seat on time wins against the late ones, and the seats on time count
no result among themselves (nor do the late ones). A game that lapsed (nobody played) is in
``lapsed/`` and counts for nobody.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from gametool.core.engine import Outcome
from gametool.records import Session
from gametool.referee import roster

K = 20
START = 1500


@dataclass
class Line:
    """One player's line in one game's table."""

    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    elo: float = START


def expected(own: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - own) / 400))


def rate(ratings: dict[str, float], players: list[str], ranks: list[int],
         forfeit: bool = False) -> None:
    """Move ``ratings`` by one finished game whose seats got ``ranks`` (1 is best). A time
    ``forfeit`` decides only between a late seat and a seat on time: seats of the same rank
    there count no result between them."""
    before = {p: ratings.get(p, START) for p in players}
    weight = K / max(1, len(players) - 1)
    for i, me in enumerate(players):
        change = 0.0
        for j, other in enumerate(players):
            if i == j or (forfeit and ranks[i] == ranks[j]):
                continue
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            change += weight * (score - expected(before[me], before[other]))
        ratings[me] = ratings.get(me, START) + change


def _forfeit(outcome: Outcome) -> bool:
    return (outcome.termination or "").startswith("time forfeit")


def _sessions(game_dir: Path) -> list[tuple[str, Session]]:
    return [(path.stem, session) for path, session in roster.games(game_dir)]


def _order(match: str, session: Session) -> tuple[str, str]:
    ended = session.record.get("Ended")
    date = (session.record.get("Date") or "").replace(".", "-")
    return (ended or date, match)


def standings(game_dir: str | Path) -> dict[str, list[Line]]:
    """Each game's lines (by game name), best rating first."""
    tables: dict[str, dict[str, Line]] = {}
    ratings: dict[str, dict[str, float]] = {}
    finished = []
    for match, session in _sessions(Path(game_dir)):
        table = tables.setdefault(session.game.name, {})
        outcome = session.outcome()
        for seat, name in enumerate(session.names):
            line = table.setdefault(name, Line(name))
            line.games += 1
            if outcome is None:
                line.unfinished += 1
                continue
            kind = outcome.results[seat].result
            if _forfeit(outcome) and kind == "draw":
                kind = "win"  # on time, against the late seats; nothing among the others
            line.wins += kind == "win"
            line.draws += kind == "draw"
            line.losses += kind == "loss"
        if outcome is not None:
            finished.append((_order(match, session), session, outcome))
    for _key, session, outcome in sorted(finished, key=lambda item: item[0]):
        rate(ratings.setdefault(session.game.name, {}), session.names,
             [r.rank for r in outcome.results], _forfeit(outcome))
    out = {}
    for game, table in sorted(tables.items()):
        for name, line in table.items():
            line.elo = round(ratings.get(game, {}).get(name, START), 1)
        out[game] = sorted(table.values(), key=lambda line: (-line.elo, line.player))
    return out


def as_json(tables: dict[str, list[Line]]) -> dict[str, list[dict[str, object]]]:
    return {game: [asdict(line) for line in lines] for game, lines in tables.items()}


def as_text(tables: dict[str, list[Line]]) -> str:
    from tabulate import tabulate

    if not tables:
        return "No games yet.\n"
    parts = []
    for game, lines in tables.items():
        rows = [[line.player, line.games, line.wins, line.draws, line.losses, line.unfinished,
                 f"{line.elo:.0f}"] for line in lines]
        parts.append(f"{game}\n" + tabulate(
            rows, headers=["player", "games", "wins", "draws", "losses", "unfinished", "elo"],
            colalign=("left", "right", "right", "right", "right", "right", "right")))
    return "\n\n".join(parts) + "\n"
