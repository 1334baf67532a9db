"""Pairings of a tournament: who plays whom, in which seats, round by round.

Players are named by strings; a *table* is the tuple of the players of one game in seat order
(for two seats: white, then black). Nothing here knows a game's rules: only how many seats a
game takes.

Round robin, two seats: the Berger tables (as FIDE publishes them). With the players numbered
1..n (n even; with an odd count a dummy n+1 whose partner has the round off), in round r
(counted from 0) player n meets player p = 1 + (r * n/2) mod (n-1), player n taking black in
the even rounds and white in the odd ones, and the other tables pair p+i (white) with p-i
(black), counted round the circle 1..n-1. Every pair meets once; with ``double`` the whole
cycle is played again with the colours reversed.

Round robin, more seats: every group of ``seats`` players plays one game (the groups in
lexicographic order of the players' numbers), seats rotated by the group's index so that each
player sits in every seat about as often; with ``double`` every group plays again in reversed
seat order. Games are put in rounds greedily: a game goes into the first round where none of
its players plays yet.

Swiss: the players are ranked by points (then by their number in the list). With a count that
is not a multiple of the seats, the lowest-ranked players who have not had a bye yet sit the
round out (a bye; only when every player has had one may a player have a second). The others
are grouped from the top: the best-ranked unpaired player with the best-ranked others with whom
it forms a group in which nobody has met anybody before, and so on down; when the rest cannot
be grouped, the last choice is undone and the next one tried. Of all the groupings with no
repeated meeting, that is the first in rank order: players of equal points meet whenever the
rules allow it. A round that needs more than :data:`MAX_TRIES` groups tried is given up (the
tournament ends there) rather than keep the referee busy. Seats within a group: each player
carries a *seat debt*, the sum over its games of (its seat index - (seats-1)/2); the player
who sat late the most sits first. Ties: the player whose last game was in the later seat
first, then the better ranked. For two seats this is the usual colour rule: whoever has had
black more often, else had black last, gets white.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

Table = tuple[str, ...]
MAX_TRIES = 1_000_000  # groups tried before a swiss round is given up (a referee's cron ends)


@dataclass
class Round:
    """One round: its games (seat order) and the players who have it off."""

    tables: list[Table] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)


class PairingError(ValueError):
    """No pairing exists under the rules (everybody has met everybody it could)."""


def berger(players: Sequence[str]) -> list[Round]:
    """The Berger tables of a two-seat round robin (see the module's docstring)."""
    names = list(players)
    dummy = len(names) % 2 == 1
    n = len(names) + dummy
    if n < 2:
        return []
    half = n // 2

    def name(number: int) -> str | None:  # number 1..n
        return None if dummy and number == n else names[number - 1]

    def circle(k: int) -> int:  # k counted on the circle 1..n-1, any integer
        return (k - 1) % (n - 1) + 1

    rounds = []
    for r in range(n - 1):
        p = 1 + (r * half) % (n - 1)
        pairs = [(p, n) if r % 2 == 0 else (n, p)]
        pairs += [(circle(p + i), circle(p - i)) for i in range(1, half)]
        out = Round()
        for white, black in pairs:
            a, b = name(white), name(black)
            if a is None or b is None:
                out.byes.append(a or b or "")
            else:
                out.tables.append((a, b))
        rounds.append(out)
    return rounds


def round_robin(players: Sequence[str], seats: int = 2, double: bool = False) -> list[Round]:
    """Every game of a round robin, in rounds (see the module's docstring)."""
    if seats == 2:
        rounds = berger(players)
        if double:
            rounds += [Round([(b, a) for a, b in r.tables], list(r.byes)) for r in rounds]
        return rounds
    games: list[Table] = []
    for index, group in enumerate(itertools.combinations(list(players), seats)):
        shift = index % seats
        games.append(tuple(group[shift:] + group[:shift]))
    if double:
        games += [tuple(reversed(table)) for table in games]
    rounds: list[Round] = []
    for table in games:
        for existing in rounds:
            if not any(p in t for t in existing.tables for p in table):
                existing.tables.append(table)
                break
        else:
            rounds.append(Round([table]))
    for existing in rounds:
        playing = {p for t in existing.tables for p in t}
        existing.byes = [p for p in players if p not in playing]
    return rounds


@dataclass
class History:
    """What the swiss pairing needs to know of one player's past games."""

    points: float = 0.0
    met: set[str] = field(default_factory=set)
    seats: list[int] = field(default_factory=list)  # its seat index in each game, in order
    byes: int = 0


def swiss(players: Sequence[str], history: dict[str, History], seats: int = 2) -> Round:
    """The next swiss round among ``players`` (in their list order, which breaks ties of
    points); PairingError when no grouping avoids a repeated meeting."""
    order = {name: i for i, name in enumerate(players)}
    past = {name: history.get(name, History()) for name in players}
    ranked = sorted(players, key=lambda p: (-past[p].points, order[p]))
    spare = len(ranked) % seats
    byes: list[str] = []
    if spare:
        fewest = min(past[p].byes for p in ranked)
        # The lowest ranked first, among those with the fewest byes.
        candidates = [p for p in reversed(ranked) if past[p].byes == fewest]
        others = [p for p in reversed(ranked) if past[p].byes != fewest]
        byes = (candidates + others)[:spare]
    playing = [p for p in ranked if p not in byes]
    groups = _group(playing, past, seats, [MAX_TRIES])
    if groups is None:
        raise PairingError("no pairing is left in which nobody meets anybody a second time")
    tables = [_seat(group, past, seats, order_of=playing) for group in groups]
    return Round(tables, sorted(byes, key=lambda p: ranked.index(p)))


def _group(playing: list[str], past: dict[str, History], seats: int, budget: list[int]
           ) -> list[Table] | None:
    """The first grouping in rank order in which nobody meets anybody twice (backtracking,
    at most ``budget[0]`` groups tried in all)."""
    if not playing:
        return []
    top, rest = playing[0], playing[1:]
    for others in itertools.combinations(rest, seats - 1):
        budget[0] -= 1
        if budget[0] < 0:
            raise PairingError(f"no pairing found within {MAX_TRIES} tries: the players left "
                               "have met too often")
        group = (top, *others)
        if any(b in past[a].met for a, b in itertools.combinations(group, 2)):
            continue
        remaining = [p for p in rest if p not in others]
        found = _group(remaining, past, seats, budget)
        if found is not None:
            return [group, *found]
    return None


def seat_debt(history: History, seats: int) -> float:
    middle = (seats - 1) / 2
    return sum(seat - middle for seat in history.seats)


def _seat(group: Table, past: dict[str, History], seats: int, order_of: list[str]) -> Table:
    """The group in seat order: the largest seat debt first, then the later last seat, then
    the better ranked."""
    def key(player: str) -> tuple[float, int, int]:
        mine = past[player]
        last = mine.seats[-1] if mine.seats else -1
        return (-seat_debt(mine, seats), -last, order_of.index(player))

    return tuple(sorted(group, key=key))
