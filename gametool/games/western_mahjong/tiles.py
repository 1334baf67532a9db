"""Western Mahjong tiles and melds: faces as numbers, meld classification and enumeration.

A face is a number 0-33: bamboo 1-9 are 0-8, circles 9-17, characters 18-26, the winds
EW SW WW NW 27-30 and the dragons RD GD WD 31-33. A hand is a tuple of 34 counts.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations

NFACES = 34
SUITS = "bck"
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
NAMES: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in SUITS for n in range(1, 10)] + ["EW", "SW", "WW", "NW", "RD", "GD", "WD"]
)
INDEX = {name.lower(): i for i, name in enumerate(NAMES)}
VALUES: tuple[int, ...] = tuple([n for _s in SUITS for n in range(1, 10)] + [3] * 4 + [4] * 3)

# D4: the six meld kinds, plus the pair (going out only).
PUNG, KONG, RUN, RANK, WIND, DRAGON, PAIR = (
    "pung", "kong", "run", "rank set", "wind set", "dragon set", "pair")


def suit_of(face: int) -> int:
    return face // 9 if face < 27 else -1


def number_of(face: int) -> int:
    return face % 9 + 1 if face < 27 else 0


def run_faces(suit: int, low: int, high: int) -> tuple[int, ...]:
    """The faces of the run from ``low`` to ``high`` (10 is the 1 counted high)."""
    return tuple(suit * 9 + (n - 1) % 9 for n in range(low, high + 1))


def run_span(tiles: tuple[int, ...]) -> tuple[int, int, int] | None:
    """(suit, low, high) if ``tiles`` form a run, else None. D5: a 1 is low or high, never both."""
    if not 3 <= len(tiles) <= 9:
        return None
    suit = suit_of(tiles[0])
    if suit < 0 or any(suit_of(t) != suit for t in tiles):
        return None
    numbers = sorted(number_of(t) for t in tiles)
    if len(set(numbers)) != len(numbers):
        return None
    if numbers[-1] - numbers[0] == len(numbers) - 1:
        return suit, numbers[0], numbers[-1]
    if numbers[0] == 1:
        high = sorted(numbers[1:] + [10])
        if high[-1] - high[0] == len(high) - 1:
            return suit, high[0], 10
    return None


@cache
def classify(tiles: tuple[int, ...]) -> str | None:
    """The kind of meld ``tiles`` (sorted faces) form, or None; a pair is reported as PAIR."""
    n = len(tiles)
    distinct = set(tiles)
    if len(distinct) == 1:
        return {2: PAIR, 3: PUNG, 4: KONG}.get(n)
    if run_span(tiles) is not None:
        return RUN
    if n == 3 and all(t < 27 for t in tiles):
        if len({number_of(t) for t in tiles}) == 1 and len({suit_of(t) for t in tiles}) == 3:
            return RANK
    if n in (3, 4) and len(distinct) == n and distinct <= set(WINDS):
        return WIND
    if tuple(sorted(tiles)) == DRAGONS:
        return DRAGON
    return None


def value(tiles: tuple[int, ...]) -> int:
    """A meld's value: the sum of its tiles (a 1 counts 1 wherever it sits)."""
    return sum(VALUES[t] for t in tiles)


def canonical(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """Tiles of a group in written order: runs from low to high (a high 1 last), else sorted."""
    span = run_span(tiles) if len(set(tiles)) == len(tiles) else None
    if span is not None:
        return run_faces(*span)
    return tuple(sorted(tiles))


def _all_melds() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for face in range(NFACES):
        out += [(face,) * 3, (face,) * 4]
    for suit in range(3):
        for low in range(1, 9):
            for high in range(low + 2, min(low + 8, 10) + 1):
                if (low, high) != (2, 10):  # 2-9 with a high 1 is the run 1-9 again
                    out.append(run_faces(suit, low, high))
    for number in range(9):
        out.append((number, number + 9, number + 18))
    out += [tuple(w for w in WINDS if w != skip) for skip in WINDS]
    out += [WINDS, DRAGONS]
    return tuple(out)


ALL_MELDS = _all_melds()
"""Every meld (pairs excluded) that the 136 tiles can form, in canonical order."""
PAIRS = tuple((face, face) for face in range(NFACES))
_NEEDS = {m: tuple((f, m.count(f)) for f in set(m)) for m in ALL_MELDS + PAIRS}


def fits(hand: tuple[int, ...] | list[int], meld: tuple[int, ...]) -> bool:
    return all(hand[f] >= c for f, c in _NEEDS[meld])


def hand_melds(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The melds (pairs excluded) that ``hand`` can lay, each in canonical form. Fast path."""
    out: list[tuple[int, ...]] = []
    for face in range(NFACES):
        count = hand[face]
        if count >= 3:
            out.append((face,) * 3)
            if count == 4:
                out.append((face,) * 4)
    for suit in range(3):
        base = suit * 9
        present = [hand[base + (n - 1) % 9] > 0 for n in range(1, 11)]
        n = 1
        while n <= 10:
            if not present[n - 1]:
                n += 1
                continue
            end = n
            while end < 10 and present[end]:
                end += 1
            for low in range(n, end - 1):
                for high in range(low + 2, min(low + 8, end) + 1):
                    # D5: never through the 1; 2-9 with a high 1 is the run 1-9 again.
                    if high != 10 or low > 2:
                        out.append(run_faces(suit, low, high))
            n = end + 1
    for number in range(9):
        if hand[number] and hand[number + 9] and hand[number + 18]:
            out.append((number, number + 9, number + 18))
    winds = [w for w in WINDS if hand[w]]
    if len(winds) >= 3:
        if len(winds) == 4:
            out += [tuple(w for w in WINDS if w != skip) for skip in WINDS]
        out.append(tuple(winds))
    if all(hand[d] for d in DRAGONS):
        out.append(DRAGONS)
    return out


@lru_cache(maxsize=8192)
def meld_sets(hand: tuple[int, ...], size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every multiset of melds laid together from ``hand`` (as sorted tuples of melds).

    A pair may join only a set that empties the hand (D4, D8). Cached: in a round the same
    hand comes back again and again as discards are taken and thrown.
    """
    melds = hand_melds(hand)
    out: list[tuple[tuple[int, ...], ...]] = []
    counts = list(hand)

    def extend(start: int, chosen: list[tuple[int, ...]], left: int) -> None:
        for i in range(start, len(melds)):
            meld = melds[i]
            if not fits(counts, meld):
                continue
            for f in meld:
                counts[f] -= 1
            chosen.append(meld)
            out.append(tuple(chosen))
            if left - len(meld) >= 2:
                extend(i, chosen, left - len(meld))
            chosen.pop()
            for f in meld:
                counts[f] += 1

    extend(0, [], size)
    # A pair only when it takes the last two tiles.
    full = [s for s in out if sum(len(m) for m in s) == size - 2]
    for chosen in full + [()]:
        rest = list(hand)
        for meld in chosen:
            for f in meld:
                rest[f] -= 1
        if sum(rest) == 2:
            face = next(f for f in range(NFACES) if rest[f])
            if rest[face] == 2:
                out.append(tuple(sorted((*chosen, (face, face)))))
    return tuple(out)


def orders(chosen: tuple[tuple[int, ...], ...]) -> list[tuple[tuple[int, ...], ...]]:
    """Every distinct order of the groups of one meld action (the order numbers table melds)."""
    if len(chosen) == 1:
        return [chosen]
    return sorted(set(permutations(chosen)))


@cache
def _growth(meld: tuple[int, ...]) -> tuple[str | None, tuple[int, int, int]]:
    """A table meld's kind and, for a run, its (suit, low, high)."""
    kind = classify(tuple(sorted(meld)))
    span = run_span(meld) if kind == RUN else None
    return kind, span or (0, 0, 0)


def additions(meld: tuple[int, ...], hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every non-empty set of hand tiles that can join table meld ``meld`` (D6).

    A run grows at either end up to 9 tiles; a pung becomes a kong; a 3-wind set gets its
    missing wind. Rank sets, dragon sets and kongs cannot grow.
    """
    kind, span = _growth(meld)
    if kind == PUNG:
        return [(meld[0],)] if hand[meld[0]] else []
    if kind == WIND and len(meld) == 3:
        missing = next(w for w in WINDS if w not in meld)
        return [(missing,)] if hand[missing] else []
    if kind != RUN:
        return []
    suit, low, high = span
    below = 0
    while low - below - 1 >= 1 and hand[suit * 9 + (low - below - 2) % 9]:
        below += 1
    above = 0
    while high + above + 1 <= 10 and hand[suit * 9 + (high + above) % 9]:
        above += 1
    out = []
    for down in range(below + 1):
        for up in range(above + 1):
            if (down or up) and high - low + 1 + down + up <= 9:
                new_low, new_high = low - down, high + up
                if new_low == 1 and new_high == 10:
                    continue
                added = run_faces(suit, new_low, low - 1) + run_faces(suit, high + 1, new_high)
                # A 1 already on the run and a 1 added at the other end would repeat a number.
                if len(set(added)) != len(added) or set(added) & set(meld):
                    continue
                key = tuple(sorted(added))
                # A 1 joining a 2-9 run fits at either end: one addition, listed once.
                if key not in out:
                    out.append(key)
    return out


def tile_text(faces: tuple[int, ...] | list[int]) -> str:
    return " ".join(NAMES[f] for f in faces)


def hand_faces(hand: tuple[int, ...]) -> list[int]:
    return [f for f in range(NFACES) for _ in range(hand[f])]
