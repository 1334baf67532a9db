"""Helpers for the race-game tests: positions from a picture, and a plain reference generator.

The reference turn generator is written from the rules files alone, in absolute spaces, trying
every order of the dice sub-move by sub-move; it shares no code with the engine's generator.
"""

from __future__ import annotations

from typing import Any

from gametool.engine import CHANCE
from gametool.games.race.game import RaceGame
from gametool.games.race.state import RaceState

Pos = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def pos(game: RaceGame, board: dict[str, dict[int, int]], *, hand: dict[str, int] | None = None,
        bar: dict[str, int] | None = None, off: dict[str, int] | None = None,
        seat: str = "B", dice: tuple[int, int] | None = (6, 4)) -> RaceState:
    """A position: figures by colour letter and 1-based space; the rest in hand by default."""
    geo = game.geo
    letters = geo.letters
    counts, hands, bars, offs = [], [], [], []
    for letter in letters:
        row = [0] * geo.spaces
        for space, n in board.get(letter, {}).items():
            row[space - 1] = n
        b = (bar or {}).get(letter, 0)
        o = (off or {}).get(letter, 0)
        h = (hand or {}).get(letter, geo.figures - sum(row) - b - o)
        assert sum(row) + b + o + h == geo.figures, letter
        counts.append(tuple(row))
        hands.append(h)
        bars.append(b)
        offs.append(o)
    n = geo.seats
    high = None if dice is None else (max(dice), min(dice))
    return RaceState(tuple(counts), tuple(hands), tuple(bars), tuple(offs),
                     seat=letters.index(seat), dice=high, opening=False, plies=0,
                     places=(0,) * n, out=(False,) * n)


def texts(game: RaceGame, state: RaceState) -> set[str]:
    return {game.format_action(state, a) for a in game.legal_actions(state)}


def play(game: RaceGame, state: RaceState, text: str) -> RaceState:
    return game.apply(state, game.parse_action(state, text))


def reduced(state: RaceState) -> Pos:
    return (state.counts, state.hand, state.bar, state.off)


# -- the reference generator ---------------------------------------------------------------


def _cap(game: RaceGame, r: int) -> int:
    rules = game.id
    if r == 0:
        return 2
    if rules == "tawula":
        return 1 if 1 <= r <= 10 else 99
    if r in (6, 18, 30):
        return 1  # a special space holds one figure of each colour
    return 1 if 1 <= r <= 10 or 13 <= r <= 22 else 99


def _special(game: RaceGame, space: int) -> bool:
    return game.id == "track-gammon" and space in (6, 18, 30)


def _land(game: RaceGame, p: Pos, seat: int, space: int, r: int) -> Pos | None:
    """The position after a figure of ``seat`` lands on ``space`` (r on its track), or None."""
    counts = [list(row) for row in p[0]]
    bars = list(p[2])
    if counts[seat][space] >= _cap(game, r):
        return None
    if not _special(game, space):
        for q in range(len(counts)):
            if q != seat and counts[q][space] >= 2:
                return None
        for q in range(len(counts)):
            if q != seat and counts[q][space] == 1:
                counts[q][space] = 0
                bars[q] += 1
    counts[seat][space] += 1
    return (tuple(tuple(row) for row in counts), p[1], tuple(bars), p[3])


def _minus(p: Pos, seat: int, space: int) -> Pos:
    counts = [list(row) for row in p[0]]
    counts[seat][space] -= 1
    return (tuple(tuple(row) for row in counts), p[1], p[2], p[3])


def _with(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += delta
    return tuple(out)


def single_moves(game: RaceGame, p: Pos, seat: int, d: int) -> list[Pos]:
    """Every position one sub-move with die ``d`` reaches."""
    n = game.geo.spaces
    start = game.geo.starts[seat]
    counts, hand, bar, _off = p
    bar_all = game.settings["bar_priority"] == "all"
    out: list[Pos] = []
    if bar[seat]:
        after = _land(game, p, seat, (start + d - 1) % n, d - 1)
        if after is not None:
            out.append((after[0], after[1], _with(after[2], seat, -1), after[3]))
        if bar_all:
            return out
    if hand[seat]:
        after = _land(game, p, seat, (start + d) % n, d)
        if after is not None:
            out.append((after[0], _with(after[1], seat, -1), after[2], after[3]))
    if bar[seat]:
        return out
    mine = counts[seat]
    rel = {space: (space - start) % n for space in range(n)}
    all_home = not hand[seat] and all(rel[s] >= n - 6 for s in range(n) if mine[s])
    for space in range(n):
        if not mine[space]:
            continue
        r = rel[space]
        if r == 0 and hand[seat]:
            continue
        if r + d < n:
            after = _land(game, _minus(p, seat, space), seat, (space + d) % n, r + d)
            if after is not None:
                out.append(after)
        elif all_home:
            farthest = min(rel[s] for s in range(n) if mine[s])
            if r + d == n or r == farthest:
                left = _minus(p, seat, space)
                out.append((left[0], left[1], left[2], _with(left[3], seat, 1)))
    return out


def _shut_out(game: RaceGame, p: Pos, seat: int, q: int) -> bool:
    """``q`` is on the bar and each of its six re-entry spaces holds 2+ of ``seat``'s figures."""
    n, start = game.geo.spaces, game.geo.starts[q]
    return p[2][q] > 0 and all(p[0][seat][(start + k) % n] >= 2 for k in range(6))


def reference_turns(game: RaceGame, state: RaceState) -> set[Pos]:
    """Every legal end position of the turn of the seat to move."""
    courtesy = game.settings["courtesy"] == "on"
    assert game.to_move(state) not in (None, CHANCE) and state.dice is not None
    seat = state.seat
    a, b = state.dice
    orders = [(a, a, a, a)] if a == b else [(a, b), (b, a)]
    found: dict[Pos, tuple[int, bool]] = {}
    figures = game.geo.figures

    def walk(p: Pos, dice: tuple[int, ...], used: int, first: int | None) -> None:
        if p[3][seat] == figures:
            used = 4 if a == b else 2
            dice = ()
        nexts = single_moves(game, p, seat, dice[0]) if dice else []
        if courtesy or not nexts:  # with the courtesy rule every prefix is a candidate
            best, high = found.get(p, (-1, False))
            found[p] = (max(best, used), high or first == max(a, b))
        for after in nexts:
            walk(after, dice[1:], used + 1, dice[0] if first is None else first)

    start = reduced(state)
    for order in orders:
        walk(start, order, 0, None)
    if courtesy:
        others = [q for q in range(game.geo.seats) if q != seat and not state.out[q]
                  and not _shut_out(game, start, seat, q)]
        found = {p: v for p, v in found.items()
                 if not any(_shut_out(game, p, seat, q) for q in others)}
    most = max(u for u, _ in found.values())
    keep = {p for p, (u, _) in found.items() if u == most}
    if most == 1 and a != b and any(found[p][1] for p in keep):
        keep = {p for p in keep if found[p][1]}
    return keep


def engine_turns(game: RaceGame, state: RaceState) -> set[Pos]:
    return {reduced(game.apply(state, action)) for action in game.legal_actions(state)}


def random_positions(game: RaceGame, seed: str, count: int, every: int = 1) -> list[Any]:
    """Positions with a player to move, taken from seeded random games."""
    from gametool.auto import random_action
    from gametool.chance import SeedRng

    out: list[Any] = []
    index = seen = 0
    while len(out) < count:
        state = game.initial_state(game.players_default())
        ply = 0
        while game.to_move(state) is not None and len(out) < count:
            if game.to_move(state) != CHANCE:
                if seen % every == 0:
                    out.append(state)
                seen += 1
            state = game.apply(state, random_action(game, state, SeedRng(f"{seed}-{index}", ply)))
            ply += 1
        index += 1
    return out
