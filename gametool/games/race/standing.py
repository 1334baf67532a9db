"""What a set-up position must satisfy beyond its figures: each seat's standing (still
playing, finished or left), its place, and whether the rules say the game is already over.

A position the rules call finished is set up as finished (``end=``), with the outcome the
rules give it; it is never a game in play, and no seat that finished or left has the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gametool.core.errors import GameError
from gametool.games.race.turns import has_submove

if TYPE_CHECKING:
    from gametool.games.race.rules import RaceRules
    from gametool.games.race.state import RaceState

Bad = Callable[[str], GameError]

END_WORDS = {"borne-off": "borne off", "resignation": "resignation",
             "dead-position": "dead position", "max-plies": "max_plies"}
"""How ``end=`` names each way a race game ends, and the termination it stands for."""


def end_word(termination: str) -> str:
    """The ``end=`` word of a termination."""
    return next(word for word, name in END_WORDS.items() if name == termination)


class Standing:
    """The seats of a position by standing: finished (all figures off), left, playing."""

    def __init__(self, game: RaceRules, state: RaceState) -> None:
        geo = game.geo
        self.finished = [q for q in range(geo.seats)
                         if state.off[q] == geo.figures and not state.out[q]]
        self.gone = [q for q in range(geo.seats) if state.out[q]]
        self.playing = [q for q in range(geo.seats)
                        if q not in self.finished and q not in self.gone]


def places(game: RaceRules, state: RaceState, bad: Bad) -> tuple[int, ...]:
    """Each seat's place as the rules fix it: given places are checked, a place the rules
    leave no choice about may be left out. Under ``placings=off`` the first to bear off all
    figures wins (place 1) and a resigner has none; under ``placings=on`` the seats that
    finished hold the best places and those that resigned the lowest (Track Gammon D11, D12).
    The last seat in the game takes the best place still free."""
    geo = game.geo
    n, letters = geo.seats, geo.letters
    std = Standing(game, state)
    a, b = len(std.finished), len(std.gone)
    if not game.placings and a > 1:
        raise bad(f"only one seat can bear off all {geo.figures} figures: the game ends when "
                  "the first does")
    if a + b == n:
        raise bad("one seat at least is still in the game: the game ends as soon as only one "
                  "seat is left")
    allowed: dict[int, tuple[list[int], str]] = {}
    for q in std.finished:
        if game.placings:
            allowed[q] = (list(range(1, a + 1)),
                          f"the seats that finished hold places 1-{a} in the order they "
                          "finished (D11)")
        else:
            allowed[q] = ([1], f"the first to bear off all {geo.figures} figures wins: place1")
    for q in std.gone:
        if game.placings:
            allowed[q] = (list(range(n - b + 1, n + 1)),
                          f"the seats that resigned take the lowest places, {n - b + 1}-{n} "
                          "(D12)")
        else:
            allowed[q] = ([], "a seat that resigns has no place"
                              + (" under placings=off" if "placings" in game.settings else ""))
    for q in std.playing:
        if len(std.playing) == 1 and (game.placings or not a):
            allowed[q] = ([a + 1], f"the last seat in the game takes the best place still "
                                   f"free: place{a + 1}")
        else:
            allowed[q] = ([], "a seat still playing has no place yet")
    out = []
    for q in range(n):
        choices, why = allowed[q]
        given = state.places[q]
        if given and given not in choices:
            raise bad(f"{letters[q]}:place{given}: {why}")
        if not given and len(choices) > 1:
            raise bad(f"{letters[q]} needs its place, one of "
                      f"{', '.join(f'place{p}' for p in choices)}: {why}")
        out.append(given or (choices[0] if choices else 0))
    taken = [p for p in out if p]
    if len(set(taken)) != len(taken):
        twice = next(p for p in taken if taken.count(p) > 1)
        raise bad(f"place{twice} is given to two seats")
    return tuple(out)


def endings(game: RaceRules, state: RaceState) -> list[tuple[str, str]]:
    """How the game has ended in this position, as the engine would have ended it, with the
    reason in words; empty while it goes on. Two entries when the last seat was left alone
    by either a finish or a resignation (placings=on)."""
    geo = game.geo
    std = Standing(game, state)
    colour = geo.colours
    if std.finished and not game.placings:
        q = std.finished[0]
        return [("borne off", f"{colour[q]} has borne off all {geo.figures} figures and wins "
                              "at once")]
    if len(std.playing) <= 1:
        alone = f"only {colour[std.playing[0]]} is still in the game"
        return ([("borne off", alone)] if std.finished else []) + \
            ([("resignation", alone)] if std.gone else [])
    if not any(has_submove(geo, state, q, game.bar_all) for q in std.playing):
        return [("dead position", "no seat in the game could make a sub-move with any roll: "
                                  f"a dead position is drawn at once ({game.cite('D14')})")]
    if state.plies >= game.cap:
        return [("max_plies", f"{state.plies} player actions are played and the game is drawn "
                              f"at max_plies={game.cap} ({game.cite('D13')})")]
    return []


def check_turn(game: RaceRules, state: RaceState, bad: Bad) -> None:
    """A game in play: not over by the rules, and the seat to move still in the game."""
    over = endings(game, state)
    letter = "opening" if state.opening else game.geo.letters[state.seat]
    if over:
        termination, why = over[0]
        raise bad(f"turn={letter}: the game is over: {why}; write end={end_word(termination)} "
                  "to set up the finished game")
    if not state.in_game(state.seat):
        what = "has left the game" if state.out[state.seat] else (
            f"has finished (place {state.places[state.seat]})")
        raise bad(f"turn={letter}: {game.geo.colours[state.seat]} {what} and has no more "
                  "turns")


def check_end(game: RaceRules, state: RaceState, word: str, bad: Bad) -> None:
    """A finished game: the rules end it in this position, and the way ``end=`` says."""
    over = endings(game, state)
    if not over:
        raise bad(f"end={word}: the game is not over in this position; name the seat to "
                  "move with turn=")
    if state.ended not in [termination for termination, _ in over]:
        termination, why = over[0]
        raise bad(f"end={word}: this game ends as end={end_word(termination)}: {why}")
