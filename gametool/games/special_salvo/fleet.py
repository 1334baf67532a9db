"""Oceans, ships and placements of Special Salvo (rules/special-salvo.md).

A square is a whole number ``10 * (rank - 1) + file`` (a1 = 0, j10 = 99); a set of squares is a
bit mask. A ship placement is ``(ship, start, direction)`` in canonical form: the west end (the
north end of a vertical ship) and one of the directions ``e``, ``s``, ``se``, ``ne``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import cache

from gametool.core.errors import IllegalAction

SIZE = 10
FILES = "abcdefghij"
SHIPS = ("cv", "bb", "cr", "sub", "pt")
SHIP_NAMES = ("aircraft carrier", "battleship", "cruiser", "submarine", "PT boat")
LENGTHS = (5, 4, 3, 3, 2)  # D1: 17 squares
FLEET_SQUARES = sum(LENGTHS)
SUB = SHIPS.index("sub")
ALL_SUNK = (1 << len(SHIPS)) - 1

DIRECTIONS = ("e", "s", "se", "ne")
STEPS = ((1, 0), (0, -1), (1, -1), (1, 1))  # (file, rank) steps of the canonical directions
STRAIGHT = (0, 1)
DIAGONAL = (2, 3)
# Input directions that point the other way: the ship is turned round to start at its far end.
REVERSED = {"w": "e", "n": "s", "nw": "se", "sw": "ne"}

SQUARE_NAMES = tuple(f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(SIZE * SIZE))

Placement = tuple[int, int, int]
"""(ship index, start square, canonical direction index)."""


def ship_squares(ship: int, start: int, direction: int) -> tuple[int, ...] | None:
    """The squares of a ship from ``start`` in a canonical direction, or None if off the ocean."""
    df, dr = STEPS[direction]
    file, rank = start % SIZE, start // SIZE
    out = []
    for i in range(LENGTHS[ship]):
        f, r = file + i * df, rank + i * dr
        if not (0 <= f < SIZE and 0 <= r < SIZE):
            return None
        out.append(r * SIZE + f)
    return tuple(out)


def mask_of(squares: Iterable[int]) -> int:
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return mask


def allowed_directions(ship: int, classic: bool) -> tuple[int, ...]:
    """D2: under ``special`` the submarine runs diagonally only; every other ship straight."""
    if ship == SUB and not classic:
        return DIAGONAL
    return STRAIGHT


@cache
def placement_table(classic: bool) -> tuple[tuple[tuple[int, Placement], ...], ...]:
    """For each ship, every (mask, placement) that lies wholly inside the ocean (built once
    per fleet option: every record a command reads makes a game)."""
    table = []
    for ship in range(len(SHIPS)):
        rows = []
        for start in range(SIZE * SIZE):
            for direction in allowed_directions(ship, classic):
                squares = ship_squares(ship, start, direction)
                if squares is not None:
                    rows.append((mask_of(squares), (ship, start, direction)))
        table.append(tuple(rows))
    return tuple(table)


def canonical(ship: int, start: int, word: str) -> Placement:
    """A placement from one end and any of the eight direction words; IllegalAction if it runs
    off the ocean (the message names the square it would reach)."""
    if word in REVERSED:
        word = REVERSED[word]
        df, dr = STEPS[DIRECTIONS.index(word)]
        far_f = start % SIZE - (LENGTHS[ship] - 1) * df
        far_r = start // SIZE - (LENGTHS[ship] - 1) * dr
        if not (0 <= far_f < SIZE and 0 <= far_r < SIZE):
            raise IllegalAction(f"{SHIPS[ship]} {SQUARE_NAMES[start]}: runs off the ocean")
        start = far_r * SIZE + far_f
    direction = DIRECTIONS.index(word)
    if ship_squares(ship, start, direction) is None:
        df, dr = STEPS[direction]
        n = LENGTHS[ship] - 1
        f, r = start % SIZE + n * df, start // SIZE + n * dr
        end = f"{chr(ord('a') + f) if f >= 0 else '?'}{r + 1}"
        raise IllegalAction(f"{SHIPS[ship]} {SQUARE_NAMES[start]} {word}: runs off the ocean "
                            f"to {end!r}")
    return (ship, start, direction)


def format_placement(placement: Placement) -> str:
    ship, start, direction = placement
    return f"{SHIPS[ship]} {SQUARE_NAMES[start]} {DIRECTIONS[direction]}"


def format_fleet(placements: Sequence[Placement]) -> str:
    """Ships in the order cv bb cr sub pt, joined by ', '."""
    return ", ".join(format_placement(p) for p in sorted(placements))


def check_placements(placements: Sequence[Placement], classic: bool, occupied: int = 0,
                     placed: int = 0) -> int:
    """Check ships added to a fleet (D2, D3); return the new occupied mask.

    ``occupied`` is the mask of the ships already placed and ``placed`` the bit set of their
    indices. Raises IllegalAction naming the rule broken.
    """
    for ship, start, direction in placements:
        code = SHIPS[ship]
        if placed >> ship & 1:
            raise IllegalAction(f"the {code} is placed twice; each ship is placed once")
        if direction not in allowed_directions(ship, classic):
            if ship == SUB and not classic:
                raise IllegalAction(f"sub {SQUARE_NAMES[start]} {DIRECTIONS[direction]}: the "
                                    "submarine runs diagonally (D2, fleet=special)")
            raise IllegalAction(f"{code} {SQUARE_NAMES[start]} {DIRECTIONS[direction]}: ships "
                                "run horizontally or vertically" + (" (D2, fleet=classic)"
                                                                   if ship == SUB else ""))
        squares = ship_squares(ship, start, direction)
        if squares is None:
            raise IllegalAction(f"{format_placement((ship, start, direction))}: runs off the "
                                "ocean")
        mask = mask_of(squares)
        if mask & occupied:
            shared = [SQUARE_NAMES[s] for s in squares if occupied >> s & 1]
            raise IllegalAction(f"{format_placement((ship, start, direction))}: overlaps "
                                f"another ship on {', '.join(shared)} (D3)")
        occupied |= mask
        placed |= 1 << ship
    return occupied


def check_fleet(placements: Sequence[Placement], classic: bool) -> None:
    """A whole fleet: every ship once, all legal (raises IllegalAction)."""
    check_placements(placements, classic)
    missing = [SHIPS[s] for s in range(len(SHIPS)) if s not in {p[0] for p in placements}]
    if missing:
        raise IllegalAction(f"the fleet lacks the {', '.join(missing)}; all five ships are "
                            "placed")


_MASKS: dict[tuple[Placement, ...], tuple[int, ...]] = {}
"""The masks of the fleets worked out lately (a fleet is reported on for a whole game)."""


def fleet_masks(placements: Sequence[Placement]) -> tuple[int, ...]:
    """The square mask of each ship, by ship index (0 for a ship not placed)."""
    key = tuple(placements)
    try:
        masks = _MASKS.get(key)
    except TypeError:  # a placement not a tuple: worked out each time
        return _fleet_masks(key)
    if masks is None:
        if len(_MASKS) >= 64:
            _MASKS.clear()
        masks = _MASKS[key] = _fleet_masks(key)
    return masks


def _fleet_masks(placements: Sequence[Placement]) -> tuple[int, ...]:
    masks = [0] * len(SHIPS)
    for ship, start, direction in placements:
        squares = ship_squares(ship, start, direction)
        masks[ship] = mask_of(squares or ())
    return tuple(masks)


def commitment(placements: Sequence[Placement], salt: str) -> str:
    """The commit of a fleet: SHA-256 of the canonical fleet text and the salt, in hex."""
    text = f"special-salvo fleet {format_fleet(placements)} salt {salt.lower()}"
    return hashlib.sha256(text.encode()).hexdigest()
