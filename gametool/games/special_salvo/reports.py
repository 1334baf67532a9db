"""The answers to salvos: what a fleet truly gives each shot (D7, D8), what a defender may
claim in commit-reveal play, and the check of a seat's reports against its revealed fleet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo.fleet import SHIPS


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
                       name_hits: bool) -> tuple[int, int, int, int] | None:
    """The first (square, reported, true result, salvo number) that the fleet contradicts."""
    masks = fl.fleet_masks(placements)
    hit = 0
    for sq, code, number in log:
        right, hit = _answer(masks, hit, sq, name_hits)
        if code != right:
            return sq, code, right, number
    return None


def claims(sunk: int, answers: Iterable[int], name_hits: bool) -> list[int]:
    """Commit-reveal: the results a defender may claim for its next shot, given the ships it
    has reported sunk before and within the salvo."""
    for code in answers:
        if code >= nt.SUNK:
            sunk |= 1 << (code - nt.SUNK)
    afloat = [k for k in range(len(SHIPS)) if not sunk >> k & 1]
    hits = [nt.HIT_SHIP + k for k in afloat] if name_hits else [nt.HIT]
    return [nt.MISS, *hits, *(nt.SUNK + k for k in afloat)]
