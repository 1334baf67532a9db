"""What ``show`` prints and ``show --json`` gives for a race game: spaces, hands, bars, dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gametool.games.race.state import RaceState
from gametool.tables import tabulate

if TYPE_CHECKING:
    from gametool.games.race.game import RaceGame


def position(game: RaceGame, state: RaceState) -> dict[str, Any]:
    """The position as JSON-able data: occupied spaces by colour, hands, bars, off, dice."""
    geo = game.geo
    letters = geo.letters
    spaces: dict[str, dict[str, int]] = {}
    for s in range(geo.spaces):
        figures = {letters[q]: row[s] for q, row in enumerate(state.counts) if row[s]}
        if figures:
            spaces[str(s + 1)] = figures
    to_play = game.to_move(state)
    return {
        "spaces": spaces,
        "special_spaces": [s + 1 for s in range(geo.spaces) if geo.is_special_space(s)],
        "hand": dict(zip(letters, state.hand, strict=True)),
        "bar": dict(zip(letters, state.bar, strict=True)),
        "off": dict(zip(letters, state.off, strict=True)),
        "places": dict(zip(letters, state.places, strict=True)),
        "left": [letters[q] for q in range(geo.seats) if state.out[q]],
        "turn": None if state.ended else letters[state.seat] if not state.opening else None,
        "dice": list(state.dice) if state.dice and to_play is not None else None,
        "last_roll": list(state.last_roll) if state.last_roll else None,
        "opening": state.opening,
        "plies": state.plies,
    }


def cell(game: RaceGame, state: RaceState, s: int) -> str:
    """One space as text: ``B2`` (colour, count), ``.`` empty, ``[BW]`` a special space."""
    letters = game.geo.letters
    if game.geo.is_special_space(s):
        return "[" + "".join(letters[q] for q, row in enumerate(state.counts)
                             if row[s]) + "]"
    for q, row in enumerate(state.counts):
        if row[s]:
            return f"{letters[q]}{row[s]}"
    return "."


def draw(game: RaceGame, state: RaceState, names: Sequence[str]) -> str:
    """The board with space numbers on its edges, a table of the seats, and the dice."""
    geo = game.geo
    board = tabulate(game.board_rows(state), tablefmt="plain", stralign="center")
    rows = []
    final = game.ranks(state) if state.ended is not None else None
    for q in range(geo.seats):
        place: int | str = state.places[q] or ("left" if state.out[q] else "")
        if final is not None:  # at the end every seat has its place, shared ones included
            place = f"{final[q]} (left)" if state.out[q] and geo.seats > 2 else final[q]
        rows.append([f"{geo.letters[q]} {geo.colours[q]}", names[q], state.hand[q],
                     state.bar[q], state.off[q], place])
    seats = tabulate(rows, headers=["colour", "player", "hand", "bar", "off", "place"],
                     tablefmt="simple")
    lines = [board, "", seats, ""]
    if state.last_roll:
        lines.append(f"last roll: {state.last_roll[0]}-{state.last_roll[1]}")
    if state.ended is None and state.opening:
        lines.append("opening roll to come (first die Black's, second White's)")
    elif state.ended is None and state.dice is not None:
        lines.append(f"{geo.colours[state.seat]} plays {state.dice[0]}-{state.dice[1]}")
    elif state.ended is None:
        lines.append(f"{geo.colours[state.seat]} to roll")
    return "\n".join(lines) + "\n"
