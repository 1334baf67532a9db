"""The answers to salvos: what a fleet truly gives each shot (D7, D8), what a defender may
claim in commit-reveal play, and the check of a seat's reports against its revealed fleet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo.fleet import FLEET_SQUARES, LENGTHS, SHIPS


def _answer(masks: Sequence[int], hit: int, sq: int, name_hits: bool) -> tuple[int, int]:
    """The result of a shot at ``sq`` given the squares already ``hit``; and the new ``hit``."""
    bit = 1 << sq
    ship = next((k for k, mask in enumerate(masks) if mask & bit), None)
    if ship is None:
        return nt.MISS, hit
    hit |= bit
    if not masks[ship] & ~hit:
        return nt.SUNK + ship, hit  # D8: the shot on the last unhit square sinks the ship
    return (nt.HIT_SHIP + ship if name_hits else nt.HIT), hit


def true_results(placements: Sequence[fl.Placement], fired_before: int,
                 squares: Iterable[int], name_hits: bool) -> tuple[tuple[int, int], ...]:
    """(square, result) for each shot in the order written, after the shots ``fired_before``."""
    masks = fl.fleet_masks(placements)
    ships = 0
    for mask in masks:
        ships |= mask
    hit, out = fired_before & ships, []
    for sq in squares:
        code, hit = _answer(masks, hit, sq, name_hits)
        out.append((sq, code))
    return tuple(out)


def first_false_report(log: Iterable[tuple[int, int, int]], placements: Sequence[fl.Placement],
                       name_hits: bool) -> tuple[int, int, int, int, int] | None:
    """The first (index in ``log``, square, reported, true result, salvo number) that the
    fleet contradicts."""
    masks = fl.fleet_masks(placements)
    hit = 0
    for index, (sq, code, number) in enumerate(log):
        right, hit = _answer(masks, hit, sq, name_hits)
        if code != right:
            return index, sq, code, right, number
    return None


def tally(sunk: int, hits: int, named: Sequence[int],
          answers: Iterable[int]) -> tuple[int, int, list[int]]:
    """The ships reported sunk, the number of squares reported hit and the hits reported on
    each ship (report=ships), once the results ``answers`` of the salvo are added."""
    counts = list(named)
    for code in answers:
        if code != nt.MISS:
            hits += 1
        if code >= nt.SUNK:
            sunk |= 1 << (code - nt.SUNK)
        elif code >= nt.HIT_SHIP:
            counts[code - nt.HIT_SHIP] += 1
    return sunk, hits, counts


def claims(sunk: int, hits: int, named: Sequence[int], later: int,
           name_hits: bool) -> list[int]:
    """Commit-reveal: the results a defender may claim for its next shot.

    ``sunk``, ``hits`` and ``named`` are the :func:`tally` so far and ``later`` the squares the
    attacker can still fire at after this shot. A claim is kept only if some fleet could give
    every result reported so far, by counting (not geometry): at most length - 1 hits on a
    ship afloat, a ship sunk by the hit on its last square, and no more squares of ships afloat
    left unhit than squares left to fire at. So every salvo has at least one shot and a game
    always reaches its end; a false claim that passes is caught at the reveal.
    """
    afloat = [k for k in range(len(SHIPS)) if not sunk >> k & 1]
    unsunk = hits - sum(LENGTHS[k] for k in range(len(SHIPS)) if sunk >> k & 1)
    spare = sum(LENGTHS[k] - 1 for k in afloat)
    out: list[int] = []
    if FLEET_SQUARES - hits <= later:
        out.append(nt.MISS)
    if FLEET_SQUARES - hits - 1 > later:
        return out
    if unsunk < spare:
        if name_hits:
            out += [nt.HIT_SHIP + k for k in afloat if named[k] + 1 < LENGTHS[k]]
        else:
            out.append(nt.HIT)
    out += [nt.SUNK + k for k in afloat
            if (named[k] if name_hits else unsunk) >= LENGTHS[k] - 1]
    return out


def named_hits(log: Iterable[tuple[int, int, int]]) -> list[int]:
    """The hits reported on each ship by name (report=ships) in a seat's shot log."""
    counts = [0] * len(SHIPS)
    for _sq, code, _n in log:
        if nt.HIT_SHIP <= code < nt.SUNK:
            counts[code - nt.HIT_SHIP] += 1
    return counts
