"""Whole-turn generation: every distinct position a roll can reach, under the use-of-dice rules.

This is the hot path of the race games. The mover's figures are copied into a list indexed by
track position and moved with undo; opponents cannot move during the turn, so closed and hittable
spaces are fixed once per turn (``land``: 0 open, 1 a lone enemy figure, 2 closed). A sub-move is
``(source, target, hit)`` in the mover's track positions: source ``HAND``, ``BAR`` or r, target r
or ``length`` (off). Two sequences reaching the same position are one turn (the first found).
"""

from __future__ import annotations

from typing import Any

from gametool.games.race.geometry import BAR, HAND, Geometry
from gametool.games.race.state import RaceState

SubMove = tuple[int, int, bool]
Turn = tuple[SubMove, ...]
Key = tuple[Any, ...]
"""A reached position: (mover's counts by track position, hand, bar, off, hit bitmask)."""


def own_counts(geo: Geometry, state: RaceState, seat: int) -> list[int]:
    """The seat's figures by its own track position."""
    row = state.counts[seat]
    return [row[s] for s in geo.tracks[seat]]


def landing(geo: Geometry, state: RaceState, seat: int) -> list[int]:
    """Per track position of ``seat``: 0 open, 1 one enemy figure (hit), 2 closed (D7)."""
    track = geo.tracks[seat]
    other = None
    for q, row in enumerate(state.counts):
        if q == seat:
            continue
        mapped = [row[s] for s in track]
        # An ordinary space holds one colour at a time, so the first non-zero count is it.
        other = mapped if other is None else [a or b for a, b in zip(other, mapped, strict=True)]
    assert other is not None
    land = [2 if c > 1 else c for c in other]
    for r in geo.special:  # D8: a special space is never closed and never hit
        land[r] = 0
    return land


def generate(geo: Geometry, state: RaceState, seat: int, dice: tuple[int, int],
             bar_all: bool, courtesy: bool) -> tuple[dict[Key, list[Any]], int]:
    """Every reachable position with [turn, dice used, used the higher die]; and max dice used.

    Without the courtesy rule only complete sequences (no die left that can be played) are
    kept; with it every prefix is a candidate, since the rule filters before D5.
    """
    length = geo.spaces
    home = length - geo.home_size
    cap = geo.cap
    figures = geo.figures
    mine = own_counts(geo, state, seat)
    land = landing(geo, state, seat)
    high = dice[0]
    double = dice[0] == dice[1]
    total = 4 if double else 2
    results: dict[Key, list[Any]] = {}
    seen: set[Key] = set()
    hand0, bar0 = state.hand[seat], state.bar[seat]
    outside0 = hand0 + bar0 + sum(mine[:home])

    def record(rem: tuple[int, ...], hand: int, bar: int, off: int, hits: int,
               path: Turn, used_high: bool) -> None:
        key = (tuple(mine), hand, bar, off, hits)
        used = total if off == figures else total - len(rem)
        entry = results.get(key)
        if entry is None or used > entry[1]:
            # D5: a position some sequence reaches with more dice is reached by using them (a
            # larger die bearing off can equal a smaller move and a bear-off)
            results[key] = [path, used, used_high]
        elif used_high and used == entry[1]:
            entry[2] = True

    get = results.get

    def moves(d: int, hand: int, bar: int, off: int, outside: int, hits: int) -> Any:
        """The sub-moves of the die ``d`` from here, one at a time: while one is yielded (as
        the sub-move and the hand, bar, off, outside and hits after it), ``mine`` holds the
        position after it; it is taken back when the next is asked for."""
        if bar:
            t = d - 1  # re-entry: the start point counts as 1
            if land[t] != 2 and mine[t] < cap[t]:
                hit = land[t] == 1 and not hits >> t & 1
                mine[t] += 1
                yield (BAR, t, hit), hand, bar - 1, off, outside - (t >= home), hits | (hit << t)
                mine[t] -= 1
            if bar_all:  # D6: every sub-move re-enters while the bar is not empty
                return
        if hand:
            t = d
            if land[t] != 2 and mine[t] < cap[t]:
                hit = land[t] == 1 and not hits >> t & 1
                mine[t] += 1
                yield (HAND, t, hit), hand - 1, bar, off, outside - (t >= home), hits | (hit << t)
                mine[t] -= 1
        if bar:
            return  # D6 with bar_priority=board: board figures still wait
        if outside:
            first = 1 if hand else 0  # D4: the start point is frozen while figures are in hand
            for r in range(first, length - d):
                if not mine[r]:
                    continue
                t = r + d
                if land[t] == 2 or mine[t] >= cap[t]:
                    continue
                hit = land[t] == 1 and not hits >> t & 1
                mine[r] -= 1
                mine[t] += 1
                yield (r, t, hit), hand, bar, off, outside - (r < home <= t), hits | (hit << t)
                mine[t] -= 1
                mine[r] += 1
            return
        back = True  # no own figure farther back yet (D7: a larger die)
        for r in range(home, length):
            if not mine[r]:
                continue
            t = r + d
            if t < length:
                if land[t] != 2 and mine[t] < cap[t]:
                    hit = land[t] == 1 and not hits >> t & 1
                    mine[r] -= 1
                    mine[t] += 1
                    yield (r, t, hit), hand, bar, off, outside, hits | (hit << t)
                    mine[t] -= 1
                    mine[r] += 1
            elif t == length or back:
                mine[r] -= 1
                yield (r, length, False), hand, bar, off + 1, outside, hits
                mine[r] += 1
            back = False

    def last(d: int, hand: int, bar: int, off: int, outside: int, hits: int, path: Turn,
             hi: bool) -> bool:
        """The last die of the turn, leaves recorded inline (the hot spot); False if none."""
        moved = False
        for sub, hand_, bar_, off_, _outside, hits_ in moves(d, hand, bar, off, outside, hits):
            moved = True
            key = (tuple(mine), hand_, bar_, off_, hits_)
            entry = get(key)
            if entry is None or entry[1] < total:
                results[key] = [(*path, sub), total, hi]
            elif hi:
                entry[2] = True
        return moved

    def dfs(rem: tuple[int, ...], hand: int, bar: int, off: int, outside: int, hits: int,
            path: Turn, used_high: bool) -> None:
        if off == figures:  # the win ends the turn at once, dice left or not
            record(rem, hand, bar, off, hits, path, used_high)
            return
        if double and path:
            memo = (tuple(mine), hand, bar, off, hits, len(rem))
            if memo in seen:
                return
            seen.add(memo)
        if courtesy:
            record(rem, hand, bar, off, hits, path, used_high)
        moved = False
        if len(rem) == 1 and not courtesy:
            if not last(rem[0], hand, bar, off, outside, hits, path, used_high or rem[0] == high):
                record(rem, hand, bar, off, hits, path, used_high)
            return
        previous = 0
        for i, d in enumerate(rem):
            if d == previous:
                continue
            previous = d
            nrem = rem[:i] + rem[i + 1:]
            hi = used_high or d == high
            for sub, hand_, bar_, off_, outside_, hits_ in moves(d, hand, bar, off, outside,
                                                                   hits):
                moved = True
                dfs(nrem, hand_, bar_, off_, outside_, hits_, (*path, sub), hi)
        if not moved and not courtesy:
            record(rem, hand, bar, off, hits, path, used_high)

    rem0 = (dice[0],) * 4 if double else dice
    dfs(rem0, hand0, bar0, state.off[seat], outside0, 0, (), False)
    best = max(entry[1] for entry in results.values())
    return results, best


def reach(geo: Geometry, state: RaceState, seat: int, turn: Turn) -> Key:
    """The position a turn of legal sub-moves reaches, as the generator keys it."""
    mine = own_counts(geo, state, seat)
    hand, bar, off, hits = state.hand[seat], state.bar[seat], state.off[seat], 0
    for source, target, hit in turn:
        if source == HAND:
            hand -= 1
        elif source == BAR:
            bar -= 1
        else:
            mine[source] -= 1
        if target >= geo.spaces:
            off += 1
        else:
            mine[target] += 1
            hits |= hit << target
    return (tuple(mine), hand, bar, off, hits)


def has_submove(geo: Geometry, state: RaceState, seat: int, bar_all: bool) -> bool:
    """Whether ``seat`` could make any sub-move with some die 1..6 (D14)."""
    length = geo.spaces
    cap = geo.cap
    special = geo.special
    track = geo.tracks[seat]
    counts = state.counts
    own = counts[seat]
    others = [row for q, row in enumerate(counts) if q != seat]

    def can_land(r: int) -> bool:
        s = track[r]
        if own[s] >= cap[r]:
            return False
        return r in special or all(row[s] < 2 for row in others)

    hand, bar = state.hand[seat], state.bar[seat]
    if bar:
        if any(can_land(r) for r in range(6)):
            return True
        if bar_all:
            return False
    if hand and any(can_land(r) for r in range(1, 7)):
        return True
    if bar:
        return False
    home = length - geo.home_size
    all_home = not hand and not any(own[track[r]] for r in range(home))
    for r in range(1 if hand else 0, length):
        if not own[track[r]]:
            continue
        if all_home:
            return True  # the farthest-back home figure can always bear off with a 6
        if any(can_land(t) for t in range(r + 1, min(r + 7, length))):
            return True
    return False


def courtesy_start(geo: Geometry, state: RaceState, seat: int) -> tuple[bool, ...]:
    """Per opponent: already on the bar and shut out by ``seat`` at the start of the turn."""
    row = state.counts[seat]
    return tuple(q != seat and state.bar[q] > 0
                 and all(row[s] >= 2 for s in geo.reentry_spaces(q))
                 for q in range(geo.seats))


def courtesy_ok(geo: Geometry, state: RaceState, seat: int, key: Key,
                before: tuple[bool, ...]) -> bool:
    """D9/D10: the turn may not newly leave an opponent on the bar behind six of its blocks."""
    mine, hits = key[0], key[4]
    rel = geo.rel[seat]
    for q in range(geo.seats):
        if q == seat or before[q] or not state.in_game(q):
            continue
        on_bar = state.bar[q] + sum(1 for s in hit_spaces(geo, seat, hits)
                                    if state.counts[q][s])
        if on_bar and all(mine[rel[s]] >= 2 for s in geo.reentry_spaces(q)):
            return False
    return True


def hit_spaces(geo: Geometry, seat: int, hits: int) -> list[int]:
    """The 0-based spaces of the hits of a turn (a bitmask of the mover's track positions)."""
    if not hits:
        return []
    track = geo.tracks[seat]
    return [track[t] for t in range(geo.spaces) if hits >> t & 1]
