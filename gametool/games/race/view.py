"""What ``show`` prints and ``show --json`` gives for a race game: spaces, hands, bars, dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gametool.core.engine import seat_text
from gametool.core.tables import tabulate
from gametool.games.race.state import RaceState

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram
    from gametool.games.race.rules import RaceRules


def position(game: RaceRules, state: RaceState) -> dict[str, Any]:
    """The position as JSON-able data: each seat's colour, the figures on each occupied space
    by seat, each seat's hand, bar, borne-off figures and place, the dice."""
    geo = game.geo
    seats = [seat_text(q) for q in range(geo.seats)]
    spaces: dict[str, dict[str, int]] = {}
    for s in range(geo.spaces):
        figures = {seats[q]: row[s] for q, row in enumerate(state.counts) if row[s]}
        if figures:
            spaces[str(s + 1)] = figures
    to_play = game.to_move(state)
    return {
        "colours": dict(zip(seats, geo.colours, strict=True)),
        "spaces": spaces,
        "special_spaces": [s + 1 for s in range(geo.spaces) if geo.is_special_space(s)],
        "hand": dict(zip(seats, state.hand, strict=True)),
        "bar": dict(zip(seats, state.bar, strict=True)),
        "off": dict(zip(seats, state.off, strict=True)),
        "places": dict(zip(seats, state.places, strict=True)),
        "left": [seats[q] for q in range(geo.seats) if state.out[q]],
        "turn": None if state.ended else seats[state.seat] if not state.opening else None,
        "dice": list(state.dice) if state.dice and to_play is not None else None,
        "last_roll": list(state.last_roll) if state.last_roll else None,
        "opening": state.opening,
        "plies": state.plies,
        "encoding": game.encode_position(state),
    }


def cell(game: RaceRules, state: RaceState, s: int) -> str:
    """One space as text: ``B2`` (colour, count), ``.`` empty, ``[BW]`` a special space."""
    letters = game.geo.letters
    if game.geo.is_special_space(s):
        return "[" + "".join(letters[q] for q, row in enumerate(state.counts)
                             if row[s]) + "]"
    for q, row in enumerate(state.counts):
        if row[s]:
            return f"{letters[q]}{row[s]}"
    return "."


def draw(game: RaceRules, state: RaceState, names: Sequence[str]) -> str:
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
    return "\n".join([board, "", seats, "", *_status(game, state)]) + "\n"


def _status(game: RaceRules, state: RaceState) -> list[str]:
    """The lines under the table of seats: the last roll, and what comes next."""
    geo = game.geo
    lines = []
    if state.last_roll:
        lines.append(f"last roll: {state.last_roll[0]}-{state.last_roll[1]}")
    if state.ended is None and state.opening:
        lines.append("opening roll to come (first die Black's, second White's)")
    elif state.ended is None and state.dice is not None:
        lines.append(f"{geo.colours[state.seat]} plays {state.dice[0]}-{state.dice[1]}")
    elif state.ended is None:
        lines.append(f"{geo.colours[state.seat]} to roll")
    return lines


def diagram(game: RaceRules, state: RaceState, names: Sequence[str]) -> Diagram:
    """The board as it lies on the table (a tables board, or Track Gammon's triangle) with every
    space once, the special spaces hatched, each figure shaped and coloured by its seat, and each
    seat's hand, bar and borne-off figures in trays of their own; a table of the seats and the
    dice under it."""
    from gametool.core.diagram import Diagram, Note, Panel, Piece, Point, Track
    from gametool.games.race.picture import layout

    geo = game.geo
    board = layout(geo)

    def piece(q: int, count: int) -> Piece:
        letter = geo.letters[q]
        colour = geo.colours[q].lower()
        style = colour if colour in ("black", "white", "green", "red", "blue") else f"seat{q}"
        # round figures as on the table; the colour's letter on each tells them apart in grey
        return Piece(letter, style, "disc", count)

    points = []
    for s, (at, toward) in enumerate(board.spaces):
        points.append(Point(str(s + 1), tuple(piece(q, row[s]) for q, row in
                                              enumerate(state.counts) if row[s]),
                            marked=geo.is_special_space(s), at=at, toward=toward,
                            shade=s % 2))
    trays = []
    for q in range(geo.seats):
        held = {"hand": state.hand[q], "bar": state.bar[q], "off": state.off[q]}
        for kind in ("hand", "bar", "off"):
            at, toward = board.trays[(q, kind)]
            trays.append(Point(f"{geo.letters[q]} {kind}",
                               (piece(q, held[kind]),) if held[kind] else (),
                               at=at, toward=toward, kind="tray"))
    panel = Panel(("colour", "player", "hand", "bar", "off"),
                  tuple((f"{letter} {geo.colours[q]}", names[q], str(state.hand[q]),
                         str(state.bar[q]), str(state.off[q]))
                        for q, letter in enumerate(geo.letters)))
    notes = _status(game, state)
    if geo.special:
        notes.append("special spaces (hatched): " + ", ".join(
            str(s + 1) for s in range(geo.spaces) if geo.is_special_space(s)))
    legend = tuple((piece(q, 1).style, f"{geo.colours[q]}: {names[q]}")
                   for q in range(geo.seats))
    track = Track((tuple(points), tuple(trays)), outline=board.outline,
                  labels="tip" if geo.seats == 3 else "base")
    return Diagram((track, panel, Note(tuple(notes))), legend=legend)
