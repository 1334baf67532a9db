"""Tournament pairings: the Berger tables as FIDE publishes them, round robins of more seats,
and swiss rounds checked against a reference written here (every grouping tried, the first in
rank order kept) and against rounds worked out by hand."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametool.referee.tournaments.pairing import History, PairingError, berger, round_robin, swiss

P = [f"p{i}" for i in range(1, 11)]


def numbered(rounds, names):
    index = {name: i + 1 for i, name in enumerate(names)}
    return [[tuple(index[p] for p in table) for table in r.tables] for r in rounds]


# -- round robin -----------------------------------------------------------------------------


def test_berger_tables_of_four_and_six_as_published() -> None:
    assert numbered(berger(P[:4]), P[:4]) == [
        [(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert numbered(berger(P[:6]), P[:6]) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)]]


def test_berger_table_of_five_gives_each_player_one_bye() -> None:
    rounds = berger(P[:5])
    assert len(rounds) == 5
    # Player 6 is the dummy: its partner in the table of six has the round off.
    assert [r.byes for r in rounds] == [["p1"], ["p4"], ["p2"], ["p5"], ["p3"]]
    assert numbered(rounds, P[:5])[1] == [(5, 3), (1, 2)]


@pytest.mark.parametrize("count", range(2, 11))
@pytest.mark.parametrize("double", [False, True])
def test_a_round_robin_pairs_everyone_once_each_way(count: int, double: bool) -> None:
    names = P[:count]
    rounds = round_robin(names, 2, double)
    games = [table for r in rounds for table in r.tables]
    pairs = Counter(frozenset(t) for t in games)
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(names, 2)}
    assert set(pairs.values()) == {2 if double else 1}
    if double:  # both colours in every pairing
        assert Counter(games) == Counter(tuple(reversed(t)) for t in games)
    for r in rounds:
        playing = [p for t in r.tables for p in t]
        assert len(playing) == len(set(playing))
        assert sorted(playing + r.byes) == sorted(names)
    whites = Counter(t[0] for t in games)
    blacks = Counter(t[1] for t in games)
    for name in names:  # colours as even as they can be
        assert abs(whites[name] - blacks[name]) <= 1


@pytest.mark.parametrize("count,seats", [(3, 3), (4, 3), (5, 3), (6, 3), (5, 4), (6, 4)])
def test_a_round_robin_of_more_seats_plays_every_group_once(count: int, seats: int) -> None:
    names = P[:count]
    rounds = round_robin(names, seats)
    games = [t for r in rounds for t in r.tables]
    assert Counter(frozenset(t) for t in games) == Counter(
        frozenset(g) for g in itertools.combinations(names, seats))
    for r in rounds:
        playing = [p for t in r.tables for p in t]
        assert len(playing) == len(set(playing))
    double = round_robin(names, seats, double=True)
    twice = [t for r in double for t in r.tables]
    assert len(twice) == 2 * len(games)
    assert Counter(twice) == Counter(games) + Counter(tuple(reversed(t)) for t in games)


# -- swiss: a reference ----------------------------------------------------------------------


def reference_groupings(players: list[str], seats: int):
    """Every way to cut ``players`` into groups of ``seats`` (each group in list order, groups
    by their first player)."""
    if not players:
        yield []
        return
    first = players[0]
    for others in itertools.combinations(players[1:], seats - 1):
        rest = [p for p in players[1:] if p not in others]
        for tail in reference_groupings(rest, seats):
            yield [(first, *others), *tail]


def reference_round(players: list[str], history: dict[str, History], seats: int):
    """The swiss round as the rules describe it, found by trying every grouping."""
    place = {p: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-history[p].points, place[p]))
    rank = {p: i for i, p in enumerate(ranked)}
    spare = len(players) % seats
    byes = sorted(ranked, key=lambda p: (history[p].byes, -rank[p]))[:spare]
    playing = [p for p in ranked if p not in byes]
    best = None
    for grouping in reference_groupings(playing, seats):
        if any(b in history[a].met for g in grouping for a, b in itertools.combinations(g, 2)):
            continue
        key = [rank[p] for g in grouping for p in g]
        if best is None or key < best[0]:
            best = (key, grouping)
    if best is None:
        return None
    tables = []
    for group in best[1]:
        def order(p: str) -> tuple[float, int, int]:
            mine = history[p]
            debt = sum(s - (seats - 1) / 2 for s in mine.seats)
            return (-debt, -(mine.seats[-1] if mine.seats else -1), rank[p])
        tables.append(tuple(sorted(group, key=order)))
    return tables, sorted(byes, key=lambda p: rank[p])


def play_swiss(players: list[str], seats: int, rounds: int, outcomes: list[int]):
    """A swiss played with the results ``outcomes`` draws from (the winner's seat, or -1 for
    a draw), each round compared with the reference."""
    history = {p: History() for p in players}
    feed = iter(outcomes)
    played = []
    for _ in range(rounds):
        expected = reference_round(players, history, seats)
        if expected is None:
            with pytest.raises(PairingError):
                swiss(players, history, seats)
            break
        got = swiss(players, history, seats)
        assert (got.tables, got.byes) == expected
        played.append(got)
        for name in got.byes:
            history[name].byes += 1
            history[name].points += 1
        for table in got.tables:
            winner = next(feed, -1) % (seats + 1) - 1
            for i, name in enumerate(table):
                history[name].met.update(p for p in table if p != name)
                history[name].seats.append(i)
                history[name].points += (1.0 if winner == i else 0.0 if winner >= 0
                                         else 1 / seats)
    return played


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 9), rounds=st.integers(1, 6),
       outcomes=st.lists(st.integers(0, 9), min_size=60, max_size=60))
def test_swiss_rounds_of_two_seats_match_the_reference(count: int, rounds: int,
                                                       outcomes: list[int]) -> None:
    played = play_swiss(P[:count], 2, rounds, outcomes)
    met = Counter(frozenset(t) for r in played for t in r.tables)
    assert all(times == 1 for times in met.values())  # nobody meets twice
    byes = Counter(b for r in played for b in r.byes)
    if len(played) <= count:
        assert all(times == 1 for times in byes.values())  # a second bye only when all had one


@settings(max_examples=30, deadline=None)
@given(count=st.integers(3, 8), rounds=st.integers(1, 4),
       outcomes=st.lists(st.integers(0, 9), min_size=40, max_size=40))
def test_swiss_rounds_of_three_seats_match_the_reference(count: int, rounds: int,
                                                         outcomes: list[int]) -> None:
    played = play_swiss(P[:count], 3, rounds, outcomes)
    for r in played:
        assert len(r.byes) == count % 3
        assert all(len(t) == 3 for t in r.tables)


# -- swiss: by hand ----------------------------------------------------------------------------


def test_a_swiss_of_six_by_hand() -> None:
    names = P[:6]
    h = {p: History() for p in names}
    first = swiss(names, h, 2)
    # Round 1: nobody has points; the top meets the next in list order.
    assert first.tables == [("p1", "p2"), ("p3", "p4"), ("p5", "p6")] and first.byes == []
    # p1, p4 and p5 won; p1 p4 p5 have 1 point, p2 p3 p6 none.
    for white, black, winner in (("p1", "p2", "p1"), ("p3", "p4", "p4"), ("p5", "p6", "p5")):
        h[white].met.add(black), h[black].met.add(white)
        h[white].seats.append(0), h[black].seats.append(1)
        h[winner].points += 1
    second = swiss(names, h, 2)
    # Ranked p1 p4 p5 | p2 p3 p6: p1-p4 (equal points), p5 drops to p2, p3-p6. The one who
    # had black gets white: p4 over p1, p2 over p5, p6 over p3.
    assert second.tables == [("p4", "p1"), ("p2", "p5"), ("p6", "p3")]


def test_a_swiss_backtracks_rather_than_pair_twice() -> None:
    names = P[:4]
    h = {p: History() for p in names}
    # p1 met p2, p3 met p4; p1 and p3 won. Next: p1-p3 (equal points), p2-p4.
    for a, b in (("p1", "p2"), ("p3", "p4")):
        h[a].met.add(b), h[b].met.add(a)
        h[a].seats.append(0), h[b].seats.append(1)
    h["p1"].points = h["p3"].points = 1
    second = swiss(names, h, 2)
    assert sorted(map(frozenset, second.tables)) == sorted(
        [frozenset({"p1", "p3"}), frozenset({"p2", "p4"})])
    # Round 3: p1 has met p2 and p3, so p1-p4 and p2-p3, though p1 and p3 are top.
    for a, b in (("p1", "p3"), ("p2", "p4")):
        h[a].met.add(b), h[b].met.add(a)
    third = swiss(names, h, 2)
    assert sorted(map(frozenset, third.tables)) == sorted(
        [frozenset({"p1", "p4"}), frozenset({"p2", "p3"})])
    for a, b in (("p1", "p4"), ("p2", "p3")):
        h[a].met.add(b), h[b].met.add(a)
    with pytest.raises(PairingError):
        swiss(names, h, 2)


def test_a_swiss_bye_goes_to_the_lowest_without_one() -> None:
    names = P[:5]
    h = {p: History() for p in names}
    assert swiss(names, h, 2).byes == ["p5"]
    h["p5"].byes = 1
    h["p5"].points = 1
    h["p4"].points = 0
    # p5 now has a point and a bye: the lowest ranked without a bye is p4.
    assert swiss(names, h, 2).byes == ["p4"]
