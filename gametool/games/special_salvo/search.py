"""A hidden fleet that gives every result reported about it: the guess a seat makes of the
other fleet (reading its own player's file, or sampling for a computer player).

A fleet gives a report exactly when each shot's result is what :func:`reports.first_false_report`
works out, and that splits into a condition on each ship alone and two on the fleet:

- each ship alone (:func:`ship_rows`): it covers no miss and no square reported for another
  ship; it covers every square reported for it by name; sunk at a shot, it lies on squares hit
  by then; and for every plain hit it covers, it still has a square not hit by that shot (else
  that shot would have sunk it);
- the fleet: no two ships overlap, and every square reported hit or sunk is covered.

So the search lays out ships from their own lists only, covering first the hit square with the
fewest placements left, and is complete: it finds a fleet whenever one exists, and says None
only when none does. Layouts proved to lead nowhere are remembered, so that no part of the
search is done twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from gametool.core.chance import SeedRng
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt

Row = tuple[int, fl.Placement]
"""A placement and its square mask."""
LAYOUT_LIMIT = 20_000
"""Layouts (partial fleets) a search tries at most before it gives up (:class:`GaveUp`): some
0.3 s. On the results of valid games (tens of thousands of searches, up to 100 shots) a search
settles within 3,000 layouts; on damaged ones (every result changed at random, hits scattered
or bunched with no fleet under them) within 10,000."""


class GaveUp(Exception):
    """The search tried ``LAYOUT_LIMIT`` layouts without finding a fleet or proving there is
    none (``tried``: how many)."""

    def __init__(self, tried: int) -> None:
        super().__init__(tried)
        self.tried = tried


class Reports:
    """What the results reported about one ocean say, square by square."""

    def __init__(self, log: Sequence[tuple[int, int, int]]) -> None:
        self.misses = 0
        self.hits = 0  # squares reported hit or sunk
        self.plain: list[tuple[int, int]] = []  # (square, squares hit by then) of each plain hit
        self.sunk_at: dict[int, int] = {}  # ship -> the squares hit when it was sunk
        self.named = [0] * len(fl.SHIPS)  # ship -> squares reported as hits on it, or its sinking
        for sq, code, _number in log:
            bit = 1 << sq
            if code == nt.MISS:
                self.misses |= bit
                continue
            self.hits |= bit
            if code >= nt.SUNK:
                # sunk once, the ship lies on squares hit by then; a later "sunk" of it can only
                # be a shot at one of those squares again
                self.sunk_at.setdefault(code - nt.SUNK, self.hits)
                self.named[code - nt.SUNK] |= bit
                continue
            self.plain.append((sq, self.hits))
            if code >= nt.HIT_SHIP:
                self.named[code - nt.HIT_SHIP] |= bit

    def allows(self, ship: int, mask: int, foreign: int) -> bool:
        """Whether the reports allow ``ship`` on the squares ``mask`` (the conditions on one
        ship alone); ``foreign``: the squares reported for the other ships."""
        own = self.named[ship]
        if mask & (self.misses | foreign) or mask & own != own:
            return False
        sunk = self.sunk_at.get(ship)
        if sunk is not None and mask & ~sunk:
            return False
        covered = mask & self.hits
        if covered:
            for sq, hit_then in self.plain:
                if covered >> sq & 1 and not mask & ~hit_then:
                    return False  # that shot would have sunk it
        return True


def ship_rows(table: Sequence[Sequence[Row]], ships: Sequence[int],
              reports: Reports) -> dict[int, list[Row]]:
    """The placements of each ship that the reports allow, ship by ship."""
    everyone = 0
    for mask in reports.named:
        everyone |= mask
    rows = {}
    for ship in ships:
        foreign = everyone & ~reports.named[ship]
        rows[ship] = [(mask, p) for mask, p in table[ship] if reports.allows(ship, mask, foreign)]
    return rows


def sample_fleet(table: Sequence[Sequence[Row]], ships: Sequence[int],
                 log: Sequence[tuple[int, int, int]], name_hits: bool,
                 rng: SeedRng) -> tuple[fl.Placement, ...]:
    """A random fleet of ``ships`` that gives every result in ``log`` (square, result, salvo).

    Whenever such a fleet exists one is found (see :func:`search`). Only for results that no
    fleet gives, or past the search's bound, does a fleet that avoids the misses stand in
    (reading a player's file does not get here: it refuses such a result, see
    ``SpecialSalvo.assume_action``). ``name_hits`` (report=ships) is
    implied by the results themselves and kept for the callers."""
    try:
        found = consistent_fleet(table, ships, log, rng)
    except GaveUp:
        found = None
    if found is not None:
        return found
    reports = Reports(log)
    occupied, fresh = 0, []
    for ship in ships:
        options = [(m, p) for m, p in table[ship] if not m & (occupied | reports.misses)] or [
            (m, p) for m, p in table[ship] if not m & occupied]
        mask, p = options[rng.randbelow(len(options))]
        occupied |= mask
        fresh.append(p)
    return tuple(sorted(fresh))


def consistent_fleet(table: Sequence[Sequence[Row]], ships: Sequence[int],
                     log: Sequence[tuple[int, int, int]], rng: SeedRng,
                     limit: int = LAYOUT_LIMIT) -> tuple[fl.Placement, ...] | None:
    """A fleet of ``ships`` that gives every result in ``log`` (see :func:`search`), or None
    when no fleet does; GaveUp past ``limit`` layouts."""
    reports = Reports(log)
    return search(ship_rows(table, ships, reports), ships, reports.hits, rng, limit)


def search(rows: dict[int, list[Row]], ships: Sequence[int], hits: int,
           rng: SeedRng, limit: int = LAYOUT_LIMIT) -> tuple[fl.Placement, ...] | None:
    """A fleet of one placement from each ship's ``rows``, no two overlapping, covering every
    square of ``hits``; None when there is none.

    Depth first, in a random order: while a hit square is uncovered, the one with the fewest
    placements left is covered first (by any ship still to place); then the other ships go
    anywhere free, the longest first. Each choice starts at a random candidate and goes round
    its list. A layout is given up when the hit squares left need more ships than are left
    (squares that no one placement covers two of need one ship each), and every layout (ships
    left, squares taken) that led nowhere is remembered. Past ``limit`` layouts tried, GaveUp.
    """
    covering: dict[int, dict[int, list[tuple[int, int, fl.Placement]]]] = {}
    for ship in ships:
        by_square: dict[int, list[tuple[int, int, fl.Placement]]] = {}
        for mask, p in rows[ship]:
            on = mask & hits
            while on:
                low = on & -on
                by_square.setdefault(low.bit_length() - 1, []).append((ship, mask, p))
                on ^= low
        covering[ship] = by_square
    length = {ship: fl.LENGTHS[ship] for ship in ships}
    failed: set[tuple[tuple[int, ...], int]] = set()
    tried = [0]

    def options(left: tuple[int, ...], occupied: int
                ) -> list[tuple[int, int, fl.Placement]] | None:
        """The candidates of the next choice, or None when a hit square can no longer be
        covered (or the ships left are too short for the squares left)."""
        uncovered = hits & ~occupied
        if not uncovered:
            ship = max(left, key=lambda s: (length[s], -s))
            return [(ship, m, p) for m, p in rows[ship] if not m & occupied]
        if uncovered.bit_count() > sum(length[s] for s in left):
            return None
        best: list[tuple[int, int, fl.Placement]] | None = None
        apart = 0  # hit squares no one placement covers two of: one ship each at least
        reach = 0  # the squares the ships placed on those could cover
        while uncovered:
            low = uncovered & -uncovered
            sq = low.bit_length() - 1
            found = [c for s in left for c in covering[s].get(sq, ()) if not c[1] & occupied]
            if not found:
                return None
            if not reach & low:
                apart += 1
                if apart > len(left):
                    return None
                for c in found:
                    reach |= c[1]
            if best is None or len(found) < len(best):
                best = found
            uncovered ^= low
        return best

    def go(left: tuple[int, ...], occupied: int,
           fresh: tuple[fl.Placement, ...]) -> tuple[fl.Placement, ...] | None:
        if not left:
            return tuple(sorted(fresh)) if not hits & ~occupied else None
        key = (left, occupied)
        if key in failed:
            return None
        tried[0] += 1
        if tried[0] > limit:
            raise GaveUp(limit)
        candidates = options(left, occupied)
        if candidates:
            start = rng.randbelow(len(candidates))
            for k in range(len(candidates)):
                ship, mask, p = candidates[(start + k) % len(candidates)]
                found = go(tuple(s for s in left if s != ship), occupied | mask, (*fresh, p))
                if found is not None:
                    return found
        failed.add(key)  # at most LAYOUT_LIMIT of them
        return None

    return go(tuple(sorted(ships)), 0, ())
