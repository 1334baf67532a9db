"""A tournament run by the referee: its file, its games' results, its standings.

A tournament is ``GAME_DIR/tournaments/ID.json`` (mode 0600): the game and its options, the
format (``round-robin`` or ``swiss``), the players in the order given (which breaks ties of
points when a swiss pairs), the number of rounds, the days per move and of time bank, and each
round started so far: its games (match id and seats in seat order) and its byes; then the
players withdrawn and whether the tournament is over. The games themselves are ordinary
master records of the game folder, so their results are read from the records and nothing is
kept twice.

Points: a game of two seats gives 1 for a win, 1/2 for a draw, 0 for a loss; a game of more
seats gives each seat its score against every other seat (1 ranked better, 1/2 the same rank,
0 worse), divided by the number of other seats, so that a game is worth 1 point in all. A bye
gives 1 point in a swiss, none in a round robin (where every player of an odd count has one).
Only finished games count.

Tie-breaks: Sonneborn-Berger for a round robin (for each game, the player's score against each
opponent, divided by the other seats, times that opponent's points), Buchholz for a swiss (the
points of every opponent met, each divided by the other seats of that game; a bye adds none).
Players are ordered by points, then the tie-break, then their place in the list given.

This module reads; :mod:`gametool.referee.tournaments.director` starts games, pairs rounds and
withdraws players.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.records import Session, load_one
from gametool.referee import sidefiles

FOLDER = "tournaments"
FORMATS = ("round-robin", "swiss")
TOURNAMENT_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,80}")
TIEBREAK = {"round-robin": "Sonneborn-Berger", "swiss": "Buchholz"}


@dataclass
class Game:
    """One game of a round: its match's name and the players in seat order."""

    match: str
    seats: list[str]


@dataclass
class Played:
    """One round started: its games and its byes."""

    number: int
    games: list[Game] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)


@dataclass
class Tournament:
    """A tournament's settings as its file keeps them."""

    id: str
    game: str
    format: str
    players: list[str]
    rounds: int
    seats: int = 2
    double: bool = False
    days: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    bank: int | None = None  # days of time bank each seat of each game has
    played: list[Played] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    finished: bool = False

    def text(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_text(cls, text: str, where: str) -> Tournament:
        data = sidefiles.parse_json(text, where, "tournament file")
        try:
            if not isinstance(data, dict) or not isinstance(data.get("played"), list):
                raise TypeError(where)
            played = [Played(int(r["number"]), [Game(str(g["match"]), [str(s) for s in g["seats"]])
                                                for g in r["games"]],
                             [str(b) for b in r["byes"]]) for r in data.pop("played")]
            made = cls(**data, played=played)
            if made.format not in FORMATS or not TOURNAMENT_ID.fullmatch(str(made.id)) \
                    or not _shaped(made):
                raise ValueError(where)
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
            raise GameError(f"{where}: not a tournament file the referee wrote") from None
        return made

    def games(self) -> list[tuple[int, Game]]:
        return [(r.number, g) for r in self.played for g in r.games]


def _shaped(made: Tournament) -> bool:
    """Whether every field has the type the referee writes (a file is state, read strictly)."""
    def whole(value: object, low: int, high: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    return (isinstance(made.game, str) and isinstance(made.players, list)
            and all(isinstance(p, str) for p in made.players) and whole(made.rounds, 0, 1000)
            and whole(made.seats, 2, 8) and isinstance(made.double, bool)
            and (made.days is None or whole(made.days, 1, 365))
            and (made.bank is None or whole(made.bank, 1, 365))
            and isinstance(made.options, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in made.options.items())
            and isinstance(made.withdrawn, list)
            and all(isinstance(w, str) for w in made.withdrawn)
            and isinstance(made.finished, bool))


def folder(game_dir: str | Path) -> Path:
    return Path(game_dir) / FOLDER


def path_of(game_dir: str | Path, tid: str) -> Path:
    return folder(game_dir) / f"{tid}.json"


def load(game_dir: str | Path, tid: str) -> Tournament:
    if not TOURNAMENT_ID.fullmatch(tid) or not path_of(game_dir, tid).is_file():
        raise GameError(f"no tournament {tid[:80]!r} in {game_dir}")
    path = path_of(game_dir, tid)
    return Tournament.from_text(_text(path), str(path))


def _text(path: Path) -> str:
    text = sidefiles.read_text(path)
    if text is None:
        raise GameError(f"{path}: no such tournament file")
    return text


def every(game_dir: str | Path) -> list[Tournament]:
    """Every tournament of the game folder; one that does not read is a failure naming its
    file (never skipped silently: a player's standings would leave it out)."""
    return [Tournament.from_text(_text(path), str(path))
            for path in sorted(folder(game_dir).glob("*.json"))]


# -- results ------------------------------------------------------------------------------------


def pairwise(ranks: list[int], i: int, j: int) -> float:
    """Seat i's score against seat j in one game: 1 ranked better, 1/2 the same, 0 worse."""
    return 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0


@dataclass
class Result:
    """One finished game of the tournament: seats, their ranks and how it ended."""

    match: str
    round: int
    seats: list[str]
    ranks: list[int]
    termination: str


def results(game_dir: str | Path, tournament: Tournament) -> tuple[list[Result], list[Game]]:
    """The finished games (from their records) and the games still running."""
    done: list[Result] = []
    running: list[Game] = []
    for number, game in tournament.games():
        session = record_of(game_dir, game.match)
        outcome = session.outcome() if session is not None else None
        if outcome is None:
            running.append(game)
            continue
        done.append(Result(game.match, number, list(session.names),
                           [r.rank for r in outcome.results], outcome.termination or ""))
    return done, running


def record_of(game_dir: str | Path, match: str) -> Session | None:
    path = Path(game_dir) / f"{match}.gtn"
    try:
        return load_one(storage.read(str(path)), str(path))
    except GameError:
        return None


def time_forfeits(done: list[Result]) -> dict[str, int]:
    """How many games each player lost by time forfeit."""
    count: dict[str, int] = {}
    for result in done:
        if not result.termination.lower().startswith("time forfeit"):
            continue
        best = min(result.ranks)
        for seat, name in enumerate(result.seats):
            if result.ranks[seat] > best:
                count[name] = count.get(name, 0) + 1
    return count


@dataclass
class Line:
    """One player's line of the standings."""

    player: str
    games: int = 0
    points: float = 0.0
    tiebreak: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    withdrawn: bool = False
    rank: int = 0


def standings(game_dir: str | Path, tournament: Tournament) -> list[Line]:
    """Every player's line, best first, with the tie-break of the tournament's format."""
    done, _running = results(game_dir, tournament)
    lines = {p: Line(p, withdrawn=p in tournament.withdrawn) for p in tournament.players}
    for r in tournament.played:
        for name in r.byes:
            lines[name].byes += 1
            if tournament.format == "swiss":  # in a round robin every player has one bye
                lines[name].points += 1.0
    for result in done:
        others = len(result.seats) - 1
        best = min(result.ranks)
        for i, name in enumerate(result.seats):
            line = lines[name]
            line.games += 1
            line.points += sum(pairwise(result.ranks, i, j)
                               for j in range(len(result.seats)) if j != i) / others
            if result.ranks[i] == best and result.ranks.count(best) == 1:
                line.wins += 1
            elif result.ranks[i] == best:
                line.draws += 1
            else:
                line.losses += 1
    points = {name: line.points for name, line in lines.items()}
    for result in done:
        others = len(result.seats) - 1
        for i, name in enumerate(result.seats):
            for j, other in enumerate(result.seats):
                if i == j:
                    continue
                weight = (pairwise(result.ranks, i, j) if tournament.format == "round-robin"
                          else 1.0)
                lines[name].tiebreak += weight * points[other] / others
    order = {p: i for i, p in enumerate(tournament.players)}
    ranked = sorted(lines.values(), key=lambda line: (-round(line.points, 9),
                                                      -round(line.tiebreak, 9),
                                                      order[line.player]))
    for index, line in enumerate(ranked):
        before = ranked[index - 1] if index else None
        same = (before is not None and round(before.points, 9) == round(line.points, 9)
                and round(before.tiebreak, 9) == round(line.tiebreak, 9))
        line.points = round(line.points, 4)
        line.tiebreak = round(line.tiebreak, 4)
        line.rank = before.rank if same and before is not None else index + 1
    return ranked


def _number(value: float) -> str:
    return f"{value:g}"


def as_text(game_dir: str | Path, tournament: Tournament) -> str:
    from tabulate import tabulate

    lines = standings(game_dir, tournament)
    done, running = results(game_dir, tournament)
    state = ("over" if tournament.finished
             else f"round {len(tournament.played)} of {tournament.rounds}")
    head = (f"Tournament {tournament.id}: {tournament.game}, {tournament.format}, "
            f"{len(tournament.players)} players; {state}; {len(done)} games finished, "
            f"{len(running)} running.")
    rows = [[line.rank, line.player + (" (withdrawn)" if line.withdrawn else ""), line.games,
             _number(line.points), _number(line.tiebreak), line.wins, line.draws, line.losses,
             line.byes] for line in lines]
    table = tabulate(rows, headers=["#", "player", "games", "points",
                                    TIEBREAK[tournament.format], "wins", "draws", "losses",
                                    "byes"],
                     colalign=("right", "left", "right", "right", "right", "right", "right",
                               "right", "right"))
    return f"{head}\n{table}\n"


def as_json(game_dir: str | Path, tournament: Tournament) -> dict[str, Any]:
    done, running = results(game_dir, tournament)
    return {"tournament": tournament.id, "game": tournament.game, "format": tournament.format,
            "tiebreak": TIEBREAK[tournament.format], "rounds": tournament.rounds,
            "rounds_started": len(tournament.played), "finished": tournament.finished,
            "games_finished": len(done), "games_running": len(running),
            "lines": [asdict(line) for line in standings(game_dir, tournament)]}


def mail_text(game_dir: str | Path, player: str) -> str:
    """The standings of every tournament ``player`` plays in, for '#standings' by mail
    (empty when none): results only, which every player may know."""
    parts = [as_text(game_dir, t).rstrip() for t in every(game_dir)
             if player.lower() in (p.lower() for p in t.players)]
    return "".join(f"\n\n{part}" for part in parts)
