"""What each seat sees of a Johari Bones position: views, the drawn board and the hidden bones
that a seat's view does not depend on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, REFEREE
from gametool.core.tables import tabulate
from gametool.games.johari_bones.scoring import BOXES, Bone
from gametool.games.johari_bones.state import (
    HANDS,
    HIDDEN,
    POSITIONS,
    ROUNDS,
    JohariState,
    bone_text,
    seat_label,
    sees,
)

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram


def randomize_hidden(state: JohariState, seat: int | None, rng: SeedRng) -> JohariState:
    """A state differing from ``state`` only in bones ``seat`` cannot see (pile, set-aside,
    hidden positions, another player's drawn bone), shuffled among those places.

    The unseen bones are put in sorted order before the shuffle, so the sample depends only on
    what the seat sees and on ``rng``, never on where the hidden bones really lie.
    """
    revealed = state.revealed
    slots = [(owner, p) for owner, bones in enumerate(state.positions) if bones
             for p in range(4) if not sees(owner, p, seat, revealed)]
    drawer_sees = state.drawn is not None and seat == state.mover()
    hidden = [state.positions[o][p] for o, p in slots]  # type: ignore[index]
    hidden += list(state.pile) + list(state.aside)
    if state.drawn is not None and not drawer_sees:
        hidden.append(state.drawn)
    mixed = rng.shuffled(sorted(hidden))
    positions = [list(p) if p else p for p in state.positions]
    for o, p in slots:
        positions[o][p] = mixed.pop()  # type: ignore[index]
    drawn = state.drawn
    if state.drawn is not None and not drawer_sees:
        drawn = mixed.pop()
    aside = tuple(mixed.pop() for _ in state.aside)
    pile = tuple(sorted(mixed))
    return replace(state, positions=tuple(tuple(p) if p else p for p in positions),
                   pile=pile, aside=aside, drawn=drawn)


def seen_bones(states: Sequence[JohariState], seat: int | None) -> set[tuple[int, Bone]]:
    """Every (hand, bone) that ``seat`` sees in one of ``states``: in a position it may see,
    or as the bone it has just drawn. A player remembers what it saw once."""
    seen: set[tuple[int, Bone]] = set()
    for state in states:
        if state.drawn is not None and seat is not None and seat == state.mover():
            seen.add((state.hand, state.drawn))
        revealed = state.revealed
        for owner, bones in enumerate(state.positions):
            for p, bone in enumerate(bones or ()):
                if sees(owner, p, seat, revealed):
                    seen.add((state.hand, bone))
    return seen


def to_pile(state: JohariState, seat: int | None, bones: Sequence[Bone],
            rng: SeedRng) -> JohariState:
    """``state`` with ``bones`` back in the pile, each swapped for a pile bone from wherever
    ``seat`` cannot see it (a hidden position, the set-aside bones, another's drawn bone)."""
    pile = list(state.pile)
    positions = [list(p) if p else p for p in state.positions]
    aside = list(state.aside)
    drawn = state.drawn
    drawer_sees = drawn is not None and seat == state.mover()
    for bone in bones:
        spare = [b for b in pile if b not in bones]
        if bone in pile or not spare:
            continue
        other = rng.choice(spare)
        place = next(((o, p) for o, held in enumerate(positions) if held
                      for p, b in enumerate(held) if b == bone), None)
        if place is not None and not sees(*place, seat, state.revealed):
            positions[place[0]][place[1]] = other  # type: ignore[index]
        elif bone in aside:
            aside[aside.index(bone)] = other
        elif bone == drawn and not drawer_sees:
            drawn = other
        else:
            continue
        pile.remove(other)
        pile.append(bone)
    return replace(state, positions=tuple(tuple(p) if p else p for p in positions),
                   pile=tuple(sorted(pile)), aside=tuple(aside), drawn=drawn)


def view(state: JohariState, seat: int | None, to_move: int | None) -> dict[str, Any]:
    """The position as ``seat`` may see it (None: a spectator, who sees up bones only;
    ``REFEREE``: every bone)."""
    revealed = state.revealed
    drawn = None
    if state.drawn is not None:
        drawn = bone_text(state.drawn) if seat in (state.mover(), REFEREE) else HIDDEN
    data = {
        "hand": min(state.hand, HANDS - 1) + 1,
        "dealer": seat_label(state.dealer),
        "first": seat_label(state.first),
        "round": min(state.turn // state.nseats, ROUNDS - 1) + 1,
        "turns_played": state.turn,
        "revealed": revealed,
        "positions": {
            seat_label(owner): (None if bones is None else {
                POSITIONS[p]: bone_text(b) if sees(owner, p, seat, revealed) else HIDDEN
                for p, b in enumerate(bones)})
            for owner, bones in enumerate(state.positions)},
        "pile": len(state.pile),
        "set_aside": len(state.aside),
        "drawing": state.drawing,
        "drawn": drawn,
        "sheets": {seat_label(i): dict(zip(BOXES, sheet, strict=True))
                   for i, sheet in enumerate(state.sheets)},
        "to_move": None if to_move is None else
        ("chance" if to_move == CHANCE else seat_label(to_move)),
    }
    if seat == REFEREE:  # the master record also holds the bones no seat sees
        data["set_aside_bones"] = [bone_text(b) for b in state.aside]
        data["pile_bones"] = [bone_text(b) for b in state.pile]
    return data


def render(data: dict[str, Any], state: JohariState, names: Sequence[str]) -> str:
    """The positions table, pile and score sheets drawn from the view ``data``."""
    names = list(names) or [seat_label(i) for i in range(state.nseats)]
    lines = [f"hand {data['hand']} of {HANDS}, dealer {names[state.dealer]}, "
             f"first {names[state.first]}, round {data['round']} of {ROUNDS}"
             + ("  (all bones shown)" if data["revealed"] else "")]
    rows = []
    for i, name in enumerate(names):
        held = data["positions"][seat_label(i)]
        rows.append([name, *(held[p] if held else "" for p in POSITIONS)])
    lines += ["", tabulate(rows, headers=["seat", *POSITIONS], tablefmt="simple",
                           disable_numparse=True)]
    lines += ["", f"pile: {data['pile']} bones, set aside: {data['set_aside']}"]
    if data.get("set_aside_bones"):
        lines.append(f"set aside: {' '.join(data['set_aside_bones'])}")
    if data.get("pile_bones"):
        lines.append(f"in the pile: {' '.join(data['pile_bones'])}")
    if data["drawn"] is not None:
        lines.append(f"drawn: {data['drawn']}")
    elif data["drawing"]:
        lines.append("drawing from the pile")
    lines += ["", score_sheet(state.sheets, tuple(names))]
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=64)
def score_sheet(sheets: tuple[tuple[int | None, ...], ...], names: tuple[str, ...]) -> str:
    """The score sheets as one table, a column per player (cached: sheets change rarely)."""
    rows: list[list[Any]] = [[box, *("" if sheet[b] is None else sheet[b] for sheet in sheets)]
                             for b, box in enumerate(BOXES)]
    rows.append(["total", *(sum(v for v in sheet if v is not None) for sheet in sheets)])
    return tabulate(rows, headers=["box", *names], tablefmt="simple", disable_numparse=True)


def diagram(data: dict[str, Any], state: JohariState, names: Sequence[str]) -> Diagram:
    """Each seat's four positions as dominoes (hidden ones as backs), the pile, the bone drawn
    and the score sheets, drawn from the view ``data``."""
    from gametool.core.diagram import Card, Diagram, Note, Panel, Row, back

    names = list(names) or [seat_label(i) for i in range(state.nseats)]

    def bone(text: str) -> Card:
        return back(kind="domino") if text == HIDDEN else Card(text, kind="domino")

    parts: list[Any] = [Note((render(data, state, names).splitlines()[0],))]
    for i, name in enumerate(names):
        held = data["positions"][seat_label(i)]
        if held:
            parts.append(Row(name, tuple(bone(held[p]) for p in POSITIONS),
                             " ".join(POSITIONS)))
    pile = (back(data["pile"], "domino"),) if data["pile"] else ()
    if data["drawn"] is not None:
        pile += (bone(data["drawn"]),)
    parts.append(Row("pile", pile, f"{data['pile']} bones, set aside {data['set_aside']}"
                     + (", drawn" if data["drawn"] is not None else "")))
    sheets = [data["sheets"][seat_label(i)] for i in range(len(names))]
    rows = tuple((box, *("" if sheet[box] is None else str(sheet[box]) for sheet in sheets))
                 for box in BOXES)
    total = ("total", *(str(sum(v for v in sheet.values() if v is not None)) for sheet in sheets))
    parts.append(Panel(("box", *names), (*rows, total), "score sheets"))
    return Diagram(tuple(parts))
