"""The pip count of the race games (Tawula, Track Gammon): how far each seat still has to go,
checked on random games against what a pip count must do, and drawn on the replay page."""

from __future__ import annotations

import pytest

from gametool.core.engine import CHANCE
from gametool.players.auto import random_game
from gametool.views.html.page import replay_page

RACES = ("tawula", "track-gammon")


def reference_pips(game, state, seat: int) -> int:
    """Worked out from the rules' track positions: off is one point past the last position,
    hand enters as at r = 0, the bar re-enters as at r = -1."""
    geo = game.geo
    total = 0
    for space, count in enumerate(state.counts[seat]):
        total += count * (geo.spaces - (space - geo.starts[seat]) % geo.spaces)
    return total + state.hand[seat] * geo.spaces + state.bar[seat] * (geo.spaces + 1)


@pytest.mark.parametrize("gid", RACES)
@pytest.mark.parametrize("seed", ["s0", "pips-1", "pips-2"])  # s0: Tawula borne off
def test_pips_follow_the_race(gid: str, seed: str) -> None:
    session = random_game(gid, seed)
    game = session.game
    first = game.race(session.states[0])
    assert first == [game.geo.figures * game.geo.spaces] * len(session.names)
    for before, step, after in zip(session.states, session.steps, session.states[1:],
                                   strict=False):
        pips_before, pips_after = game.race(before), game.race(after)
        assert pips_after == [reference_pips(game, after, s) for s in range(len(pips_after))]
        assert min(pips_after) >= 0
        if step.seat == CHANCE:
            assert pips_after == pips_before
            continue
        # the mover only comes nearer home; another seat goes back only when hit (to the bar)
        assert pips_after[step.seat] <= pips_before[step.seat]
        for seat, (b, a) in enumerate(zip(pips_before, pips_after, strict=True)):
            if seat != step.seat and a > b:
                assert after.bar[seat] > before.bar[seat]
        # nothing left to go exactly when every figure is off
        for seat, left in enumerate(pips_after):
            assert (left == 0) == (after.off[seat] == game.geo.figures)


@pytest.mark.parametrize("gid", RACES)
def test_the_page_draws_the_pip_count(gid: str) -> None:
    page = replay_page(random_game(gid, "pips-page", max_plies=80))
    assert 'aria-label="pip count"' in page


def test_a_game_without_a_race_has_no_pip_graph() -> None:
    assert 'aria-label="pip count"' not in replay_page(random_game("chess", "no-race",
                                                                   max_plies=20))
