"""Sapos board geometry and turn mechanics: the position, the knot rule, hop/jump/spawn
sequences, and the check that names the rule a written sequence breaks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from gametool.core.errors import IllegalAction

N = 8
FILES = "abcdefgh"
EMPTY, DARK, LIGHT = 0, 1, 2
SYMBOL = ".DL"
COLOUR = ("Dark", "Light")
RESERVE = 12


def sq_name(s: int) -> str:
    return f"{FILES[s % N]}{s // N + 1}"


def _on(f: int, r: int) -> bool:
    return 0 <= f < N and 0 <= r < N


def _steps(s: int, dirs: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """(square passed over, landing square) of each direction that stays on the board."""
    f, r = s % N, s // N
    return tuple(((r + dr) * N + f + df, (r + 2 * dr) * N + f + 2 * df)
                 for df, dr in dirs if _on(f + 2 * df, r + 2 * dr))


KING = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ROOK = ((0, 1), (1, 0), (0, -1), (-1, 0))
HOPS = tuple(_steps(s, KING) for s in range(N * N))
JUMPS = tuple(_steps(s, ROOK) for s in range(N * N))
NEIGHBOURS = tuple(tuple((s // N + dr) * N + s % N + df for df, dr in KING
                         if _on(s % N + df, s // N + dr)) for s in range(N * N))

Action = tuple[tuple[int, ...], int, int]  # one sequence
"""(squares the active piece stood on, in order; number of hops; spawn square or -1).
The steps after the hops are jumps."""


Turn = tuple[Action, ...]
"""A whole turn: one sequence, or Light's first turn as two."""


class SaposState(NamedTuple):
    """One position; ``turns`` counts completed turns (Light's first turn is turn 2)."""

    cells: bytes
    reserves: tuple[int, int]
    seat: int
    turns: int
    result: tuple[str, int | None] | None

    @property
    def light_first_turn(self) -> bool:
        return self.turns == 1


_OWN = {me: bytes(1 if c == me else 0 for c in range(256)) for me in (DARK, LIGHT)}
_NOT_FILE_H = int.from_bytes(bytes(0 if s % N == N - 1 else 1 for s in range(N * N)), "little")


def knot_pieces(cells: bytes, me: int) -> set[int] | None:
    """The pieces of ``me`` in a full 2x2 block of their own, or None if there is no block."""
    # One byte lane per square: a lane stays 1 where the block with that lower-left corner is full.
    lanes = int.from_bytes(cells.translate(_OWN[me]), "little")
    pairs = lanes & (lanes >> 8) & _NOT_FILE_H
    corners = pairs & (pairs >> (8 * N))
    if not corners:
        return None
    found: set[int] = set()
    for s, full in enumerate(corners.to_bytes(N * N, "little")):
        if full:
            found.update((s, s + 1, s + N, s + N + 1))
    return found


_BYTE = {DARK: bytes([DARK]), LIGHT: bytes([LIGHT])}


def pieces_of(cells: bytes, me: int) -> list[int]:
    """The squares of ``me``'s pieces, in order."""
    out = []
    find = cells.find
    mark = _BYTE[me]
    i = find(mark)
    while i >= 0:
        out.append(i)
        i = find(mark, i + 1)
    return out


def sequences(cells: bytes, me: int, starts: Sequence[int], reserve: int, jumps: bool,
              history: tuple[int, ...] = ()) -> Iterator[Action]:
    """Every complete sequence of an active piece starting on one of ``starts``: hops then a
    spawn (with a reserve), or hops then one or more jumps (when ``jumps``). ``history`` lists
    squares the piece on ``history[-1]`` already stood on this turn (D5, Light's first turn)."""
    enemy = 3 - me
    for start in starts:
        seen = set(history) if history and start == history[-1] else set()
        seen.add(start)
        stack: list[tuple[int, ...]] = [(start,)]
        while stack:
            path = stack.pop()
            here = path[-1]
            hops = len(path) - 1
            if hops and reserve:  # D1: one or more hops, then exactly one spawn
                for n in NEIGHBOURS[here]:
                    if not cells[n]:  # D9: any empty neighbour of the final square
                        yield (path, hops, n)
            if jumps:
                for mid, _land in JUMPS[here]:
                    if cells[mid] == enemy:
                        yield from _jumps(cells, enemy, path, hops, frozenset())
                        break
            for mid, land in HOPS[here]:
                # D5: never back onto a square of this turn; the start square is vacated but
                # also barred, and every earlier square is on this path.
                if cells[mid] == me and not cells[land] and land not in seen \
                        and land not in path:
                    stack.append((*path, land))


def yields(cells: bytes, me: int, action: Action, reserve: int, jumps: bool,
           history: tuple[int, ...] = ()) -> bool:
    """Whether :func:`sequences` from the action's first square yields ``action``, worked out
    along its path alone with the generator's own tables and tests (no other sequence made)."""
    path, hops, spawn = action
    start = path[0]
    last = len(path) - 1
    if not last:
        return False
    seen = set(history) if history and start == history[-1] else set()
    seen.add(start)
    for i in range(hops):
        here, land = path[i], path[i + 1]
        mid = next((m for m, to in HOPS[here] if to == land), -1)
        if (mid < 0 or cells[mid] != me or cells[land] or land in seen
                or land in path[:i + 1]):
            return False
    if hops == last:  # D1: one or more hops, then exactly one spawn
        return bool(reserve) and spawn in NEIGHBOURS[path[hops]] and not cells[spawn]
    if spawn >= 0 or not jumps:
        return False
    enemy = 3 - me
    taken = set()
    for i in range(hops, last):  # D8: the jumps of _jumps, one after another
        here, land = path[i], path[i + 1]
        mid = next((m for m, to in JUMPS[here] if to == land), -1)
        if (mid < 0 or cells[mid] != enemy or mid in taken
                or (cells[land] and land != start)):
            return False
        taken.add(mid)
    return True


def _jumps(cells: bytes, enemy: int, path: tuple[int, ...], hops: int,
           taken: frozenset[int]) -> Iterator[Action]:
    """Jump chains (D8: stop after any jump) from the end of ``path``; ``taken`` are the enemy
    squares already captured this turn. The start square counts as empty (the piece left it)."""
    start = path[0]
    for mid, land in JUMPS[path[-1]]:
        if cells[mid] == enemy and mid not in taken and (not cells[land] or land == start):
            longer = (*path, land)
            yield (longer, hops, -1)
            yield from _jumps(cells, enemy, longer, hops, taken | {mid})


def after_sequence(cells: bytes, me: int, action: Action) -> tuple[bytes, int]:
    """The board after a sequence and the number of pieces it captured."""
    path, hops, spawn = action
    board = bytearray(cells)
    board[path[0]] = EMPTY
    captured = 0
    for i in range(hops, len(path) - 1):
        board[(path[i] + path[i + 1]) // 2] = EMPTY
        captured += 1
    board[path[-1]] = me
    if spawn >= 0:
        board[spawn] = me
    return bytes(board), captured


def explain_sequence(board: bytes, me: int, reserve: int, action: Action, raw: str, knot: bool,
                     first_turn: bool, history: tuple[int, ...] = (), where: str = "") -> None:
    """Raise IllegalAction naming the rule that forbids a sequence, if one does; ``where``
    names the sequence within Light's first turn."""
    raw = f"{raw!r}{where}"
    path, hops, spawn = action
    cells = bytearray(board)
    who = COLOUR[me - 1]
    start = path[0]
    if cells[start] != me:
        raise IllegalAction(f"{raw}: {sq_name(start)} holds no {who} piece")
    if knot:
        pieces = knot_pieces(board, me)
        if pieces is not None and start not in pieces:
            raise IllegalAction(f"{raw}: knot rule: the active piece must be one of "
                                f"{' '.join(sq_name(s) for s in sorted(pieces))} (D3)")
    if first_turn and hops < len(path) - 1:
        raise IllegalAction(f"{raw}: Light's first turn has no jumps (D4)")
    seen = {start, *(history if history and start == history[-1] else ())}
    cells[start] = EMPTY
    enemy = 3 - me
    for i in range(1, len(path)):
        here, land = path[i - 1], path[i]
        df, dr = land % N - here % N, land // N - here // N
        mid = here + df // 2 + (dr // 2) * N
        kind = "hop" if i <= hops else "jump"
        if max(abs(df), abs(dr)) != 2 or df % 2 or dr % 2:
            raise IllegalAction(f"{raw}: {sq_name(here)} to {sq_name(land)} is not a "
                                f"{kind} (it passes over exactly one neighbouring square)")
        if kind == "hop":
            if cells[mid] == enemy:
                raise IllegalAction(f"{raw}: {sq_name(mid)} is an enemy, so that is a "
                                    "jump (x), not a hop")
            if cells[mid] != me:
                raise IllegalAction(f"{raw}: a hop passes over a friendly piece; "
                                    f"{sq_name(mid)} is empty")
            if land in seen:
                raise IllegalAction(f"{raw}: no return: the active piece already stood "
                                    f"on {sq_name(land)} this turn (D5)")
        else:
            if df and dr:
                raise IllegalAction(f"{raw}: jumps are orthogonal only")
            if cells[mid] != enemy:
                what = "friendly" if cells[mid] == me else "empty"
                raise IllegalAction(f"{raw}: {sq_name(mid)} is {what}, a jump needs an "
                                    "enemy")
            cells[mid] = EMPTY
        if cells[land] != EMPTY:
            raise IllegalAction(f"{raw}: the landing square {sq_name(land)} is occupied")
        seen.add(land)
    jumped = hops < len(path) - 1
    if spawn >= 0:
        if jumped:
            raise IllegalAction(f"{raw}: no spawn follows a jump (D1)")
        if reserve < 1:
            raise IllegalAction(f"{raw}: {who}'s reserve is empty, no spawn is possible")
        if spawn not in NEIGHBOURS[path[-1]]:
            raise IllegalAction(f"{raw}: the spawn square {sq_name(spawn)} does not "
                                f"neighbour the final square {sq_name(path[-1])} (D9)")
        if cells[spawn] != EMPTY:
            raise IllegalAction(f"{raw}: the spawn square {sq_name(spawn)} is occupied")
    elif not jumped:
        raise IllegalAction(f"{raw}: incomplete turn: hops must end with a spawn "
                            "(+square) or a jump (D1)")
