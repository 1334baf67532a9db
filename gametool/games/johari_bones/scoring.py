"""Johari Bones scoring: the best score the 8 ends of a hand allow for one box (D6, D7, D9)."""

from __future__ import annotations

from collections.abc import Iterable

Bone = tuple[int, int]

BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "fullhouse", "run4", "run5",
         "chance")
VALUES = range(1, 7)


def ends_of(bones: Iterable[Bone]) -> list[int]:
    return [end for bone in bones for end in bone]


def best_score(ends: Iterable[int], box: str, wild_scores_face: bool = True) -> int:
    """The best score of ``box`` for these ends; 0 when nothing qualifies (D8).

    Blank ends count only as wilds, two blanks per wild (D7); a wild takes any value 1-6 and
    scores it with ``wild_scores_face`` on, 0 with it off, but always fills the pattern.
    """
    ends = list(ends)
    count = {v: ends.count(v) for v in VALUES}
    wilds = ends.count(0) // 2
    if box in BOXES[:6]:
        k = BOXES.index(box) + 1
        return k * (count[k] + (wilds if wild_scores_face else 0))
    if box == "chance":
        return sum(e for e in ends if e) + wilds * (6 if wild_scores_face else 0)
    if box == "fullhouse":
        return _full_house(count, wilds, wild_scores_face)
    if box in ("run4", "run5"):
        length = 4 if box == "run4" else 5
        return _run(count, wilds, length, wild_scores_face)
    raise ValueError(f"no box {box!r}")


def _full_house(count: dict[int, int], wilds: int, face: bool) -> int:
    """A pair of a and a triple of b, a != b (D9); wilds fill missing ends."""
    best = 0
    for pair in VALUES:
        for triple in VALUES:
            if pair == triple:
                continue
            real_pair, real_triple = min(count[pair], 2), min(count[triple], 3)
            needed = (2 - real_pair) + (3 - real_triple)
            if needed > wilds:
                continue
            if face:
                points = 2 * pair + 3 * triple
            else:
                points = pair * real_pair + triple * real_triple
            best = max(best, points)
    return best


def _run(count: dict[int, int], wilds: int, length: int, face: bool) -> int:
    """k .. k+length-1 with values 1-6; blanks are never a value, wilds fill gaps."""
    best = 0
    for low in range(1, 8 - length):
        values = range(low, low + length)
        missing = [v for v in values if count[v] == 0]
        if len(missing) > wilds:
            continue
        points = sum(values) if face else sum(v for v in values if count[v])
        best = max(best, points)
    return best
