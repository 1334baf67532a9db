"""What each seat of Special Salvo sees: its own ocean (its ships and the shots at them) and its
tracking grid (its own shots and their results). Another seat's ships appear only once revealed
(commit-reveal mode, at the end)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gametool.core.engine import REFEREE, seat_text
from gametool.core.tables import tabulate
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo.fleet import FILES, SHIPS, SIZE, SQUARE_NAMES
from gametool.games.special_salvo.state import SalvoState, Sight

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

LETTERS = ("C", "B", "R", "S", "P")  # cv bb cr sub pt on the grids
LEGEND = ("C B R S P: carrier, battleship, cruiser, submarine, PT boat (lower case: hit)\n"
          "o miss   x hit   + fired, not yet reported   a capital on a shot: that ship sunk there")


def _fleet_dict(placed: Sequence[fl.Placement]) -> dict[str, list[str]]:
    return {SHIPS[ship]: [SQUARE_NAMES[sq] for sq in fl.ship_squares(ship, start, d) or ()]
            for ship, start, d in placed}


def _shots(state: SalvoState, seat: int) -> dict[str, str]:
    """The results of every shot ``seat`` fired, and its unreported shots as 'fired'."""
    out = {SQUARE_NAMES[sq]: nt.result_text(code) for sq, code, _n in state.log[seat]}
    if state.attacker == seat and state.phase == "report":
        for i, sq in enumerate(state.salvo):
            out[SQUARE_NAMES[sq]] = (nt.result_text(state.answers[i])
                                     if i < len(state.answers) else "fired")
    elif state.phase == "fire" and state.turn == seat:
        for sq in state.salvo:
            out[SQUARE_NAMES[sq]] = "fired"
    return out


def view_state(game: Sight, state: SalvoState, seat: int | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "phase": state.phase,
        "fleets": {seat_text(owner): _fleet_dict(state.placed[owner])
                   if game.visible_fleet(state, owner, seat) else None for owner in (0, 1)},
        "ships_placed": {seat_text(owner): len(state.placed[owner]) if game.referee else None
                         for owner in (0, 1)},
        "shots": {seat_text(owner): _shots(state, owner) for owner in (0, 1)},
        "afloat": {seat_text(owner): len(SHIPS) - state.sunk[owner].bit_count()
                   for owner in (0, 1)},
        "salvo": [SQUARE_NAMES[sq] for sq in state.salvo],
        "due": state.due if state.phase in ("fire", "report") else None,
    }
    if not game.referee:
        data["commits"] = {seat_text(owner): commit for owner, commit in enumerate(state.commits)}
    return data


_CELL_OF = {name: (FILES.index(name[0]), SIZE - int(name[1:])) for name in SQUARE_NAMES}
"""Each square's (column, row) on a drawn ocean, row 0 at the top."""


def _grid(cells: dict[int, str]) -> list[str]:
    """A drawn ocean (not a table): ranks 10 to 1 down the left, files a-j along the top."""
    lines = ["    " + " ".join(FILES)]
    for rank in range(SIZE, 0, -1):
        base = (rank - 1) * SIZE
        lines.append(f"{rank:>2}  " + " ".join(cells.get(base + f, ".") for f in range(SIZE)))
    return lines


def _ocean_cells(state: SalvoState, owner: int, show_ships: bool) -> dict[int, str]:
    """The owner's ocean: its ships (if shown) and every shot fired at it."""
    cells: dict[int, str] = {}
    if show_ships:
        for ship, start, d in state.placed[owner]:
            for sq in fl.ship_squares(ship, start, d) or ():
                cells[sq] = LETTERS[ship]
    shots = _shots(state, 1 - owner)
    for name, result in shots.items():
        sq = SQUARE_NAMES.index(name)
        if result == "fired":
            cells[sq] = "+"
        elif result == "miss":
            cells[sq] = "o"
        else:
            cells[sq] = cells[sq].lower() if sq in cells else _hit_mark(result)
    return cells


def _hit_mark(result: str) -> str:
    words = result.split()
    if len(words) == 2:  # hit or sunk naming the ship
        letter = LETTERS[SHIPS.index(words[1])]
        return letter if words[0] == "sunk" else letter.lower()
    return "x"


def _both_title(game: Sight, state: SalvoState, owner: int, seat: int | None,
                names: Sequence[str]) -> str:
    """The title of an ocean drawn beside the other: its ships and shots, or its shots."""
    if game.visible_fleet(state, owner, seat) and state.placed[owner]:
        return f"{names[owner]}'s ocean"
    return f"shots at {names[owner]}"


def render_state(game: Sight, state: SalvoState, seat: int | None,
                 names: Sequence[str]) -> str:
    if seat is None or seat == REFEREE:  # both oceans alike, with the ships the viewer sees
        panels = [(_both_title(game, state, owner, seat, names),
                   _ocean_cells(state, owner, game.visible_fleet(state, owner, seat)))
                  for owner in (0, 1)]
    else:
        other = 1 - seat
        panels = [(f"{names[seat]}'s ocean", _ocean_cells(state, seat, True)),
                  (f"{names[seat]}'s shots at {names[other]}",
                   _ocean_cells(state, other, game.visible_fleet(state, other, seat)))]
    grids = [_grid(cells) for _title, cells in panels]
    width = len(grids[0][0]) + 6
    lines = [panels[0][0].ljust(width) + panels[1][0]]
    lines += [a.ljust(width) + b for a, b in zip(grids[0], grids[1], strict=True)]
    lines += ["", LEGEND, ""]
    rows = []
    for owner in (0, 1):
        fired = state.fired[owner].bit_count()
        rows.append([names[owner], len(SHIPS) - state.sunk[owner].bit_count(),
                     state.hits[owner].bit_count(), fired])
    lines += tabulate(rows, headers=["seat", "ships afloat", "hits taken", "shots fired"],
                      tablefmt="simple").splitlines()
    status = _status(game, state, names)
    if status:
        lines += ["", status]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _status(game: Sight, state: SalvoState, names: Sequence[str]) -> str:
    """The line under the table of shots: the salvo being fired or reported, or the fleets
    being placed (empty otherwise)."""
    if state.phase == "fire" and state.turn is not None:
        return (f"{names[state.turn]} fires a salvo of {state.due} shots"
                + (f"; so far: {' '.join(SQUARE_NAMES[s] for s in state.salvo)}"
                   if state.salvo else ""))
    if state.phase == "report":
        return (f"salvo of {names[state.attacker]} to report: "
                + " ".join(SQUARE_NAMES[s] for s in state.salvo))
    if state.phase == "place" and game.referee:
        return "placing fleets: " + ", ".join(
            f"{names[o]} {len(state.placed[o])} of {len(SHIPS)} ships" for o in (0, 1))
    return ""


def diagram_state(game: Sight, state: SalvoState, seat: int | None,
                  names: Sequence[str]) -> Diagram:
    """The two oceans side by side, built from the seat's view: ships where the seat may see
    them, each shot as a ring (miss), a cross (hit, lettered once the ship is known) or a plus
    (fired, not yet reported)."""
    from gametool.core.diagram import (
        Beside,
        Diagram,
        Grid,
        Note,
        Panel,
        Piece,
        letters,
        numbers_down,
    )

    view = view_state(game, state, seat)
    both = seat is None or seat == REFEREE  # a spectator or the referee: both oceans alike
    owners = (0, 1) if both else (seat, 1 - seat)
    grids = []
    for owner in owners:
        cells: dict[tuple[int, int], Piece] = {}
        at = _CELL_OF.__getitem__
        for ship, squares in (view["fleets"][seat_text(owner)] or {}).items():
            letter = LETTERS[SHIPS.index(ship)]
            for name in squares:
                cells[at(name)] = Piece(letter, "neutral", "square")
        for name, result in view["shots"][seat_text(1 - owner)].items():
            words = result.split()
            if words[0] == "miss":
                cells[at(name)] = Piece("", "neutral", "ring")
            elif words[0] == "fired":
                cells[at(name)] = Piece("", "neutral", "plus")
            else:
                letter = LETTERS[SHIPS.index(words[1])] if len(words) == 2 else ""
                if not letter and at(name) in cells:
                    letter = cells[at(name)].label
                cells[at(name)] = Piece(letter.lower() if words[0] == "hit" else letter,
                                        "neutral", "cross")
        title = (_both_title(game, state, owner, seat, names) if both else
                 f"{names[seat]}'s ocean" if owner == seat else
                 f"{names[seat]}'s shots at {names[owner]}")
        grids.append(Grid(letters(SIZE), numbers_down(SIZE), cells, title))
    # the legend and the phase line; the table of shots between them is drawn as a panel
    lines = [line.rstrip() for line in LEGEND.splitlines() if line.strip()]
    status = _status(game, state, names)
    if status:
        lines.append(status.rstrip())
    rows = tuple((names[owner], str(len(SHIPS) - state.sunk[owner].bit_count()),
                  str(state.hits[owner].bit_count()), str(state.fired[owner].bit_count()))
                 for owner in (0, 1))
    panel = Panel(("seat", "ships afloat", "hits taken", "shots fired"), rows)
    return Diagram((Beside(tuple(grids)), Note(tuple(lines)), panel))
