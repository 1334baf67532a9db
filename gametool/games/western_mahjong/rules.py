"""Western Mahjong moves: what may be played and what it does (decisions D1-D12)."""

from __future__ import annotations

from typing import Any

from gametool.core.engine import RESIGN
from gametool.games.western_mahjong.state import DEAL, DRAW, DRAWN, EMPTY, FULL, PLAY, MahjongState
from gametool.games.western_mahjong.tiles import (
    NFACES,
    additions,
    canonical,
    meld_sets,
    orders,
    value,
)

WALL: Any = ("wall",)
TAKE: Any = ("take",)
OUT: Any = ("out",)
OPENING_MINIMUM = 12


def minus(hand: tuple[int, ...], faces: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    counts = list(hand)
    for f in faces:
        counts[f] -= 1
    return tuple(counts)


def plus(hand: tuple[int, ...], faces: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    counts = list(hand)
    for f in faces:
        counts[f] += 1
    return tuple(counts)


def can_add_somewhere(hand: tuple[int, ...], melds: Any) -> bool:
    """Whether some tiles of ``hand`` can join some table meld (for out_by_discard=off, D8)."""
    return any(additions(tiles, hand) for _owner, tiles in melds)


def meld_actions(state: MahjongState, out_by_discard: bool) -> list[Any]:
    seat = state.seat
    hand = state.hands[seat]
    size = state.sizes[seat]
    opened = state.opened[seat]
    out = []
    for chosen in meld_sets(hand, size) if size >= 2 else []:
        laid = sum(len(m) for m in chosen)
        # D7: the opening is one meld action worth at least 12.
        if not opened and sum(value(m) for m in chosen) < OPENING_MINIMUM:
            continue
        if not out_by_discard and size - laid == 1:
            rest = hand
            for m in chosen:
                rest = minus(rest, m)
            if not can_add_somewhere(rest, state.melds + tuple((seat, m) for m in chosen)):
                continue
        out += [("meld", order) for order in orders(chosen)]
    return out


def add_actions(state: MahjongState, out_by_discard: bool) -> list[Any]:
    seat = state.seat
    if not state.opened[seat]:
        return []  # D7: no add before one's opening
    hand = state.hands[seat]
    size = state.sizes[seat]
    out = []
    for index, (_owner, tiles) in enumerate(state.melds):
        for added in additions(tiles, hand):
            if not out_by_discard and size - len(added) == 1:
                grown = canonical(tiles + added)
                melds = state.melds[:index] + ((_owner, grown),) + state.melds[index + 1:]
                if not can_add_somewhere(minus(hand, added), melds):
                    continue
            out.append(("add", added, index + 1))
    return out


def discard_actions(state: MahjongState, out_by_discard: bool) -> list[Any]:
    seat = state.seat
    hand = state.hands[seat]
    if state.sizes[seat] == 1 and not out_by_discard:
        return []  # D8 option off: a discard may not empty the hand
    faces = [f for f in range(NFACES) if hand[f]]
    taken = state.taken
    if taken is not None and faces != [taken] and taken in faces:
        faces.remove(taken)  # D3: not the face just taken, unless every tile left has it
    return [("discard", f) for f in faces]


def legal(state: MahjongState, out_by_discard: bool) -> list[Any]:
    if state.phase == DRAW:
        return [WALL, TAKE] if state.discard is not None else [WALL]
    if state.sizes[state.seat] == 0:
        return [OUT]
    return (meld_actions(state, out_by_discard) + add_actions(state, out_by_discard)
            + discard_actions(state, out_by_discard))


# -- applying -------------------------------------------------------------------------------


def new_round(state: MahjongState, leader: int, **changes: Any) -> MahjongState:
    return state._replace(round=state.round + 1, leader=leader, hands=(EMPTY, EMPTY),
                   sizes=(0, 0), wall=FULL, wall_size=136, dealt=0, seat=leader, phase=DEAL,
                   discard=None, pile=(), melds=(), opened=(False, False), taken=None,
                   drawn=None, **changes)


def win_round(state: MahjongState, how: str) -> MahjongState:
    """The seat to move emptied its hand: the opponent loses a point (D10) and leads (D11)."""
    winner = state.seat
    loser = 1 - winner
    points = list(state.points)
    points[loser] -= 1
    history = (*state.history, (state.round, winner, how))
    if points[loser] == 0:
        return state._replace(points=tuple(points), history=history, taken=None, drawn=None,
                       result=("out of points", winner))
    return new_round(state, loser, points=tuple(points), history=history)


def end_turn(state: MahjongState, face: int) -> MahjongState:
    seat = state.seat
    nxt = state._replace(seat=1 - seat, phase=DRAW, discard=face, taken=None, drawn=None,
                  pile=(*state.pile, (seat, face, False)))
    if nxt.wall_size == 0:
        # D9: an empty wall at the start of a turn makes the round void; same leader.
        return new_round(nxt, state.leader,
                         history=(*state.history, (state.round, None, "wall empty")))
    return nxt


def apply_player(state: MahjongState, action: Any, max_plies: int) -> MahjongState:
    seat = state.seat
    if action == RESIGN:
        return state._replace(result=("resignation", 1 - seat))
    kind = action[0]
    plies = state.plies + 1
    if kind == "wall":
        nxt = state._replace(phase=DRAWN, plies=plies)
    elif kind == "take":
        face = state.discard
        assert face is not None
        hands = list(state.hands)
        hands[seat] = plus(hands[seat], (face,))
        sizes = list(state.sizes)
        sizes[seat] += 1
        pile = (*state.pile[:-1], (1 - seat, face, True))
        nxt = state._replace(hands=tuple(hands), sizes=tuple(sizes), pile=pile, discard=None,
                      taken=face, phase=PLAY, plies=plies)
    elif kind == "meld":
        laid = [f for group in action[1] for f in group]
        hands = list(state.hands)
        hands[seat] = minus(hands[seat], laid)
        sizes = list(state.sizes)
        sizes[seat] -= len(laid)
        opened = list(state.opened)
        opened[seat] = True
        melds = state.melds + tuple((seat, group) for group in action[1])
        nxt = state._replace(hands=tuple(hands), sizes=tuple(sizes), melds=melds,
                      opened=tuple(opened), plies=plies)
    elif kind == "add":
        added, number = action[1], action[2]
        hands = list(state.hands)
        hands[seat] = minus(hands[seat], added)
        sizes = list(state.sizes)
        sizes[seat] -= len(added)
        owner, tiles = state.melds[number - 1]
        melds = (state.melds[:number - 1] + ((owner, canonical(tiles + added)),)
                 + state.melds[number:])
        nxt = state._replace(hands=tuple(hands), sizes=tuple(sizes), melds=melds, plies=plies)
    elif kind == "discard":
        face = action[1]
        hands = list(state.hands)
        hands[seat] = minus(hands[seat], (face,))
        sizes = list(state.sizes)
        sizes[seat] -= 1
        nxt = state._replace(hands=tuple(hands), sizes=tuple(sizes), plies=plies)
        if sizes[seat] == 0:
            # D8: a discard that empties the hand wins the round.
            nxt = win_round(nxt._replace(pile=(*state.pile, (seat, face, False))),
                            "last discard")
        else:
            nxt = end_turn(nxt, face)
    else:  # out
        nxt = win_round(state._replace(plies=plies), "out")
    if nxt.result is None and plies >= max_plies:
        nxt = nxt._replace(result=("max plies", None))  # D12
    return nxt


def apply_chance(state: MahjongState, action: Any) -> MahjongState:
    if action[0] == "deal":
        seat, faces = action[1], action[2]
        hands = list(state.hands)
        hands[seat] = plus(EMPTY, faces)
        sizes = list(state.sizes)
        sizes[seat] = len(faces)
        dealt = state.dealt + 1
        return state._replace(hands=tuple(hands), sizes=tuple(sizes),
                       wall=minus(state.wall, faces), wall_size=state.wall_size - len(faces),
                       dealt=dealt, phase=DRAW if dealt == 2 else DEAL, seat=state.leader)
    face = action[1]
    seat = state.seat
    hands = list(state.hands)
    hands[seat] = plus(hands[seat], (face,))
    sizes = list(state.sizes)
    sizes[seat] += 1
    return state._replace(hands=tuple(hands), sizes=tuple(sizes), wall=minus(state.wall, (face,)),
                   wall_size=state.wall_size - 1, phase=PLAY, drawn=face)
