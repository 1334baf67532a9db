"""Checking a typed turn sub-move by sub-move, with the rule that forbids each bad step.

This is the slow, explaining path used when reading actions; the turn generator in ``turns``
is the fast one. A typed turn is accepted when it is legal step by step and reaches one of the
positions the generator lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gametool.core.errors import IllegalAction
from gametool.games.race.geometry import BAR, HAND
from gametool.games.race.notation import OFF, Spec
from gametool.games.race.turns import (
    Key,
    SubMove,
    Turn,
    courtesy_ok,
    courtesy_start,
    landing,
    own_counts,
)

if TYPE_CHECKING:
    from gametool.games.race.rules import RaceRules, Table
    from gametool.games.race.state import RaceState


def follow(game: RaceRules, state: RaceState, specs: Sequence[Spec]
           ) -> tuple[Key, int, list[int], Turn]:
    """Play typed sub-moves in order; return the reached key, dice used, which dice, and the
    sub-moves as played (the turn as typed, in the generator's form)."""
    geo = game.geo
    seat = state.seat
    assert state.dice is not None
    length, home, cap = geo.spaces, geo.spaces - geo.home_size, geo.cap
    rel, track = geo.rel[seat], geo.tracks[seat]
    mine = own_counts(geo, state, seat)
    land = landing(geo, state, seat)
    hand, bar, off = state.hand[seat], state.bar[seat], state.off[seat]
    hits = 0
    dice = list(state.dice) * (2 if state.dice[0] == state.dice[1] else 1)
    rem = list(dice)
    used_dice: list[int] = []
    path: list[SubMove] = []
    roll = f"{state.dice[0]}-{state.dice[1]}"
    word = game.space_word

    def name(r: int) -> str:
        return str(track[r] + 1)

    def closer(r: int) -> str:
        s = track[r]
        for q, row in enumerate(state.counts):
            if q != seat and row[s] >= 2:
                return geo.colours[q]
        return "another colour"

    for index, spec in enumerate(specs):
        where = f"sub-move {index + 1} {spec.text!r}"

        def fail(reason: str, where: str = where) -> IllegalAction:
            return IllegalAction(f"{where}: {reason}")

        if off == geo.figures:
            raise fail("the game is already won; nothing may follow")
        if not rem:
            raise fail(f"no die left to play (roll {roll})")
        if spec.source in (HAND, BAR):
            if spec.target == OFF:
                raise fail("a figure cannot bear off from the hand or the bar")
            t = rel[spec.target]
            die = t if spec.source == HAND else t + 1
            src = spec.source
            if not 1 <= die <= 6:
                first = 1 if src == HAND else 0
                where_to = f"{name(first)}-{name(first + 5)}"
                raise fail(f"{'an entry from hand' if src == HAND else 'a re-entry from the bar'}"
                           f" lands on {where_to} for {geo.colours[seat]}")
        else:
            src = rel[spec.source]
            if spec.target == OFF:
                if src < home:
                    raise fail(f"{name(src)} is outside {geo.colours[seat]}'s home table "
                               f"({name(home)}-{name(length - 1)}); only figures in the home "
                               f"table bear off ({game.cite('D7')})")
                t = length
                need = length - src
                larger = sorted(d for d in rem if d > need)
                die = need if need in rem else larger[0] if larger else need
            else:
                t = rel[spec.target]
                die = t - src
                if die <= 0:
                    raise fail(f"{geo.colours[seat]} moves forward from {name(src)} along "
                               "its track and cannot reach that space")
                if die > 6:
                    raise fail(f"a sub-move goes 1 to 6 spaces, not {die}")
        if die not in rem:
            kind = (f"an entry from hand lands at the die's number of {word}s past the start"
                    if src == HAND else
                    f"a re-entry lands one {word} short of the die (the start counts 1)"
                    if src == BAR else "a move uses exactly one die")
            raise fail(f"needs a {die}, and no unused die shows it (roll {roll}, "
                       f"{'left: ' + ', '.join(map(str, rem)) if rem else 'none left'}); {kind}")
        # bar first (D6), then the source, then the landing
        if bar and src != BAR and not (src == HAND and not game.bar_all):
            raise fail(f"a figure on the bar must re-enter first ({game.cite('D6')})")
        if src == BAR and not bar:
            raise fail(f"{geo.colours[seat]} has no figure on the bar")
        if src == HAND and not hand:
            raise fail(f"{geo.colours[seat]} has no figure in hand")
        if src >= 0:
            if not mine[src]:
                raise fail(f"{geo.colours[seat]} has no figure on {name(src)}")
            if src == 0 and hand:
                raise fail(f"the {game.start_word} is frozen while figures are in hand "
                           f"({game.cite('D4')})")
        if t == length:
            outside = hand + bar + sum(mine[:home])
            if outside:
                raise fail("bearing off needs every remaining figure in the home table, none "
                           f"in hand or on the bar ({game.cite('D7')})")
            if die > length - src and any(mine[home:src]):
                raise fail("a larger die bears off only the farthest-back figure "
                           f"({game.cite('D7')})")
            mine[src] -= 1
            off += 1
            path.append((src, length, False))
        else:
            if land[t] == 2:
                raise fail(f"{name(t)} is closed by 2 or more {closer(t)} figures")
            if mine[t] >= cap[t]:
                if t in geo.special:
                    raise fail(f"special space {name(t)} already holds a "
                               f"{geo.colours[seat]} figure")
                if t == 0:
                    raise fail(f"the {game.start_word} holds at most {geo.start_limit} own "
                               "figures")
                raise fail(f"packing limit: at most one own figure on {name(t)}")
            hit = land[t] == 1 and not hits >> t & 1
            if hit:
                hits |= 1 << t
            path.append((src, t, hit))
            if src >= 0:
                mine[src] -= 1
            elif src == HAND:
                hand -= 1
            else:
                bar -= 1
            mine[t] += 1
        rem.remove(die)
        used_dice.append(die)
    used = len(dice) if off == geo.figures else len(used_dice)
    return (tuple(mine), hand, bar, off, hits), used, used_dice, tuple(path)


def explain_rejection(game: RaceRules, state: RaceState, table: Table, key: Key, used: int,
                      dice_used: list[int]) -> str:
    """Why a turn that is legal step by step is still not a legal turn."""
    assert state.dice is not None
    high, low = state.dice
    listed = table.actions
    example = game.format_action(state, listed[0]) if listed else "pass"
    if used < table.best:
        return (f"the turn plays {used} of the dice but {table.best} can be played, for "
                f"example {example!r} ({game.cite('D5')}: use as many dice as possible)")
    if game.courtesy and key in table.results:
        if not courtesy_ok(game.geo, state, state.seat, key,
                           courtesy_start(game.geo, state, state.seat)):
            return (f"courtesy rule ({game.cite('D9')}): the turn may not leave an opponent on "
                    f"the bar while each of their six re-entry {game.space_word}s holds 2 or "
                    "more of your figures")
    if used == table.best == 1 and high != low and dice_used == [low]:
        return (f"when only one die can be played, the higher die {high} must be played if it "
                f"can be ({game.cite('D5')}), for example {example!r}")
    if used > table.best:
        return f"the turn plays more dice than any legal turn: {example!r}"
    return f"not a legal turn here; for example {example!r}"


