"""Special Salvo: the fleet a seat guesses for the other side always gives every result reported
(rules D7, D8), so that a player's file of a valid game reads back; the search's conditions on
single ships agree with replaying the reports (the full computation)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gametool.core.chance import SeedRng
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo import reports as rp
from gametool.games.special_salvo.search import (
    LAYOUT_LIMIT,
    Reports,
    consistent_fleet,
    sample_fleet,
    ship_rows,
)

SHIPS = list(range(len(fl.SHIPS)))


def fleet_of(classic: bool, seed: str) -> tuple[fl.Placement, ...]:
    return sample_fleet(fl.placement_table(classic), SHIPS, (), False, SeedRng(seed, 0))


def log_of(master: tuple[fl.Placement, ...], shots: list[int], name_hits: bool
           ) -> tuple[tuple[int, int, int], ...]:
    return tuple((sq, code, 1) for sq, code in rp.true_results(master, 0, shots, name_hits))


@st.composite
def games(draw: st.DrawFn) -> tuple[bool, bool, tuple[fl.Placement, ...], list[int]]:
    """A fleet, and shots that hunt it: each shot at one of its squares or anywhere."""
    classic, name_hits = draw(st.booleans()), draw(st.booleans())
    master = fleet_of(classic, draw(st.text("0123456789abcdef", min_size=4, max_size=8)))
    ships = 0
    for mask in fl.fleet_masks(master):
        ships |= mask
    count = draw(st.integers(1, 100))
    aim = draw(st.floats(0, 1))
    shots: list[int] = []
    left = list(range(100))
    picks = draw(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 99)), min_size=count,
                          max_size=count))
    for roll, index in picks:
        pool = [sq for sq in left if ships >> sq & 1] if roll < aim else left
        pool = pool or left
        sq = pool[index % len(pool)]
        left.remove(sq)
        shots.append(sq)
    return classic, name_hits, master, shots


def gives(rows: dict[int, list[tuple[int, fl.Placement]]], reports: Reports,
          fleet: tuple[fl.Placement, ...]) -> bool:
    """The search's reading of 'this fleet gives the reports': each ship in its own list, no
    overlap, every hit covered."""
    occupied = 0
    for ship, mask in enumerate(fl.fleet_masks(fleet)):
        if not any(m == mask for m, _p in rows[ship]) or mask & occupied:
            return False
        occupied |= mask
    return not reports.hits & ~occupied


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 16), st.text("0123456789abcdef", min_size=4, max_size=8))
def test_the_conditions_on_single_ships_agree_with_replaying_the_reports(
        game: tuple[bool, bool, tuple[fl.Placement, ...], list[int]], moved: int,
        seed: str) -> None:
    classic, name_hits, master, shots = game
    log = log_of(master, shots, name_hits)
    reports = Reports(log)
    rows = ship_rows(fl.placement_table(classic), SHIPS, reports)
    assert gives(rows, reports, master)
    # Other fleets: the master with one ship moved, and one drawn afresh.
    table = fl.placement_table(classic)
    ship = moved % len(SHIPS)
    row = table[ship][(moved * 37) % len(table[ship])][1]
    others = [tuple(sorted(row if p[0] == ship else p for p in master)), fleet_of(classic, seed)]
    for other in others:
        try:
            fl.check_fleet(other, classic)
        except Exception:  # noqa: BLE001 - overlapping ships: not a fleet
            continue
        assert gives(rows, reports, other) == (rp.first_false_report(log, other, name_hits)
                                               is None), (other, log)


def alone_gives(ship: int, mask: int, log: tuple[tuple[int, int, int], ...],
                name_hits: bool) -> bool:
    """Whether ``ship`` on ``mask``, alone on the ocean, answers every shot on its squares as
    reported, and no shot elsewhere is reported about it (the reports replayed, D7, D8)."""
    masks = [0] * len(fl.SHIPS)
    masks[ship] = mask
    hit = 0
    about = {rp.nt.SUNK + ship, rp.nt.HIT_SHIP + ship}
    for sq, code, _number in log:
        right, hit = rp._answer(masks, hit, sq, name_hits)
        if mask >> sq & 1:
            if right != code:
                return False
        elif code in about:
            return False
    return True


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_each_placement_allowed_is_one_that_answers_as_reported(
        game: tuple[bool, bool, tuple[fl.Placement, ...], list[int]]) -> None:
    """The search's list of each ship (``ship_rows``) holds exactly the placements that, alone,
    answer every shot as reported: every placement of every ship is checked."""
    classic, name_hits, master, shots = game
    log = log_of(master, shots, name_hits)
    reports = Reports(log)
    table = fl.placement_table(classic)
    rows = ship_rows(table, SHIPS, reports)
    for ship in SHIPS:
        allowed = {mask for mask, _p in rows[ship]}
        for mask, p in table[ship]:
            assert (mask in allowed) == alone_gives(ship, mask, log, name_hits), (p, log)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.text("0123456789abcdef", min_size=4, max_size=8))
def test_a_guessed_fleet_gives_every_result_reported(
        game: tuple[bool, bool, tuple[fl.Placement, ...], list[int]], seed: str) -> None:
    classic, name_hits, master, shots = game
    log = log_of(master, shots, name_hits)
    for cut in range(0, len(log) + 1, 7):
        fleet = sample_fleet(fl.placement_table(classic), SHIPS, log[:cut], name_hits,
                             SeedRng(seed, cut))
        fl.check_fleet(fleet, classic)
        assert rp.first_false_report(log[:cut], fleet, name_hits) is None, (log[:cut], fleet)


RESULTS = [nt.MISS, nt.HIT, *(nt.HIT_SHIP + k for k in SHIPS), *(nt.SUNK + k for k in SHIPS)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.lists(st.tuples(st.integers(0, 99), st.sampled_from(RESULTS)), min_size=1,
                         max_size=3),
       st.text("0123456789abcdef", min_size=4, max_size=8))
# A carrier reported sunk at its first square, then hit on its other four: a later true "sunk"
# of it must not stand for the first.
@example((False, False, ((0, 31, 0), (1, 39, 1), (2, 52, 0), (3, 25, 2), (4, 95, 1)),
          [7, 9, 16, 19, 25, 29, 31, 32, 33, 34, 35]), [(6, 7)], "0000")
def test_the_search_settles_far_within_its_bound(
        game: tuple[bool, bool, tuple[fl.Placement, ...], list[int]],
        changes: list[tuple[int, int]], seed: str) -> None:
    """The results of a game settle within a quarter of the search's bound (a fleet is found:
    the master gives them), and so do the same results with some changed (a damaged record:
    a fleet, or the proof that there is none); the bound only stops a search on results no
    game gives, so it never refuses a valid game's player's file."""
    classic, name_hits, master, shots = game
    table = fl.placement_table(classic)
    log = log_of(master, shots, name_hits)
    for cut in range(1, len(log) + 1, 9):
        found = consistent_fleet(table, SHIPS, log[:cut], SeedRng(seed, cut), LAYOUT_LIMIT // 4)
        assert found is not None and rp.first_false_report(log[:cut], found, name_hits) is None
    damaged = list(log)
    for index, code in changes:
        if (code == nt.HIT and name_hits) or (nt.HIT_SHIP <= code < nt.SUNK and not name_hits):
            code = nt.MISS  # a result the report mode does not write
        damaged[index % len(damaged)] = (damaged[index % len(damaged)][0], code, 1)
    found = consistent_fleet(table, SHIPS, damaged, SeedRng(seed, 0), LAYOUT_LIMIT // 4)
    assert found is None or rp.first_false_report(damaged, found, name_hits) is None


def test_a_fleet_hidden_behind_scattered_hits_is_found() -> None:
    """Nine hits, none sinking a ship, one miss (classic fleet, report=sunk): few fleets give
    them, and a search that gives up after a few thousand tries finds none."""
    names = {name: index for index, name in enumerate(fl.SQUARE_NAMES)}
    shots = ["c6", "c7", "c8", "e10", "b9", "i9", "d4", "i8", "g8", "b5"]
    log = tuple((names[sq], 0 if sq == "g8" else 1, 1) for sq in shots)
    for seed in range(20):
        fleet = sample_fleet(fl.placement_table(True), SHIPS, log, False, SeedRng(str(seed), 1))
        assert rp.first_false_report(log, fleet, False) is None


def gametool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def test_a_players_file_behind_scattered_hits_reads_back(tmp_path: Path) -> None:
    """A refereed game played through the command: ann's fleet hides behind nine scattered
    hits. Bob's file (ann's fleet '?') is read by guessing a fleet that gives every report;
    it validates, shows and replays (it once failed: 'wrong call i9 hit; the fleet gives i9
    miss')."""
    master = tmp_path / "game.gtn"
    steps = [("start", "special-salvo", "--players", "ann,bob", "--option", "fleet=classic",
              "-o", str(master)),
             ("move", str(master), "place cv b9 s, bb c8 s, cr i9 s, sub e10 e, pt d4 e"),
             ("move", str(master), "place cv a1 e, bb a3 e, cr a5 e, sub a7 e, pt a9 e"),
             ("move", str(master), "fire j1 j2 j3 j4 j5"),
             ("move", str(master), "fire c6 c7 c8 e10 b9"),
             ("move", str(master), "fire j6 j7 j8 j9 j10"),
             ("move", str(master), "fire i9 d4 i8 g8 b5")]
    for step in steps:
        done = gametool(*step, cwd=tmp_path)
        assert done.returncode == 0, (step, done.stderr)
    assert "10. chance: report i9 hit, d4 hit, i8 hit, g8 miss, b5 hit" in master.read_text()
    mine = tmp_path / "bob.gtn"
    done = gametool("export", str(master), "--as", "bob", "-o", str(mine), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1. ann: place ?, ?, ?, ?, ?" in mine.read_text()
    for command in ("validate", "show", "replay", "moves"):
        done = gametool(command, str(mine), cwd=tmp_path)
        assert done.returncode == 0, (command, done.stderr)
    # Reports that no fleet of ann's gives: each refused at once, in one line naming the first
    # result that none gives (a patrol boat sunk by its first hit; a tenth hit none sinking).
    said = "report i9 hit, d4 hit, i8 hit, g8 miss, b5 hit"
    for wrong, why in (("report i9 sunk pt, d4 hit, i8 hit, g8 miss, b5 hit",
                        "gives i9 sunk pt after the 5 results reported before it"),
                       ("report i9 hit, d4 hit, i8 hit, g8 hit, b5 hit",
                        "gives g8 hit after the 8 results reported before it")):
        bad = tmp_path / "bad.gtn"
        bad.write_text(mine.read_text().replace(said, wrong))
        for command in ("validate", "moves") if "sunk" in wrong else ("show",):
            done = gametool(command, str(bad), cwd=tmp_path)
            assert done.returncode == 1, (command, done.stdout)
            assert done.stderr.count("\n") == 1, done.stderr
            assert f"bad.gtn:18:13: ply 10: '{wrong}': no placement of ann's fleet {why}" \
                in done.stderr, done.stderr
