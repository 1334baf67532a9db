"""Western Mahjong: a two-player rummy with mahjong tiles, played for 3 points each."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, REFEREE, RESIGN, Game, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction
from gametool.core.tables import tabulate
from gametool.games.western_mahjong import grammar
from gametool.games.western_mahjong.rules import (
    OPENING_MINIMUM,
    OUT,
    TAKE,
    WALL,
    additions,
    apply_chance,
    apply_player,
    can_add_somewhere,
    legal,
    minus,
)
from gametool.games.western_mahjong.state import DEAL, DRAW, DRAWN, PLAY, MahjongState
from gametool.games.western_mahjong.tiles import (
    NAMES,
    NFACES,
    PAIR,
    canonical,
    classify,
    hand_faces,
    tile_text,
    value,
)

if TYPE_CHECKING:
    from gametool.core.diagram import Card, Diagram

SUMMARY = """\
Two players each start with 3 points. Every round the 136 tiles (suits 1-9 of bamboo b, circles
c and characters k, the winds EW SW WW NW and the dragons RD GD WD; four of each) are shuffled;
each player is dealt 14 and the other 108 form the wall. p1 leads the first round; the loser of
a round leads the next; a void round keeps its leader.

A turn: draw the top wall tile (draw wall) or take the tile the opponent discarded at the end
of their last turn (draw discard; the leader's first turn must draw from the wall). Then lay any
number of melds (meld, several at once separated by /) and add tiles to table melds (add ... to
N, melds numbered 1, 2, ... in the order laid). Then discard one tile, or declare out when the
hand is empty. After taking the discard you may not discard a tile of that face unless every
tile left has it.

Melds: pung (3 alike), kong (4 alike), run of 3-9 tiles of one suit in sequence (a 1 may sit
below 2 or above 9, never both and never passing through), rank set (one of each suit with the
same number), wind set (3 or 4 different winds), dragon set (one of each dragon). A pair may be
laid only by a meld action that empties the hand. Values: suit tiles their number, winds 3,
dragons 4. A player's first meld action of the round must be worth at least 12; until then they
may not add. Table tiles are never moved or rearranged: a run grows at its ends, a pung becomes
a kong, a 3-wind set takes its missing wind.

The player whose hand becomes empty (by out, or by discarding the last tile when
out_by_discard=on) wins the round and the opponent loses 1 point. With out_by_discard=off the
last tile may not be discarded, so a meld or add that would leave one tile that no table meld
can take is refused (the turn would have no legal end). If the wall is empty at the
start of a turn the round is void. A player at 0 points loses the game. max_plies player actions
end the game as a draw.
"""

NOTATION = """\
draw wall | draw discard               draw from the wall, or take the latest discard
meld 5k 6k 7k / RD GD WD               lay melds (tiles in any order, groups joined by /)
add 8k to 2                            add tiles from hand to table meld 2
discard EW | out | resign
chance: deal p1: 1b 2b ... (14 tiles)  the deal of each hand, every round
chance: drawn 8k                       the tile drawn from the wall (seen by the drawer only)

Tiles: 1b-9b, 1c-9c, 1k-9k, EW SW WW NW, RD GD WD, in any case.
"""


@lru_cache(maxsize=4096)
def _table(headers: tuple[str, ...], rows: tuple[tuple[Any, ...], ...]) -> str:
    """A tabulate table, cached: consecutive positions mostly share their meld table."""
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


class WesternMahjong(Game[MahjongState, Any]):
    id = "western-mahjong"
    aliases = ("mahjong",)
    name = "Western Mahjong"
    names_seats = True
    notation_words = frozenset("deal draw drawn wall discard meld add to out resign".split())
    notation_tokens = r"[0-9]+[bck]?|[eswn]w|[rgw]d"
    min_players = 2
    max_players = 2
    default_players = 2
    chance = "shuffles"
    hidden = "hands, wall"
    draws = True
    options: ClassVar[tuple[Option, ...]] = (
        Option("out_by_discard", "on", ("on", "off"),
               help="a discard that empties the hand wins the round (D8); with off, a meld "
                    "or add leaving one tile that no table meld can take is refused"),
        Option("max_plies", "5000", kind=int, minimum=1,
               help="player actions before the game is drawn (D12)"),
    )
    summary = SUMMARY
    notation = NOTATION
    max_plies = 3 * 5000 + 10

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.out_by_discard: bool = self.settings["out_by_discard"] == "on"
        self.player_cap: int = self.settings["max_plies"]
        # Every wall draw is one player action; a round has at least 3 player actions.
        self.max_plies = 3 * self.player_cap + 10

    # -- the rules ---------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> MahjongState:
        return MahjongState()

    def to_move(self, state: MahjongState) -> int | None:
        if state.result is not None:
            return None
        if state.phase == DEAL or state.phase == DRAWN:
            return CHANCE
        return state.seat

    def legal_actions(self, state: MahjongState) -> list[Any]:
        return legal(state, self.out_by_discard)

    def chance_outcomes(self, state: MahjongState) -> list[Any] | None:
        if state.phase == DRAWN:
            return [("drawn", f) for f in range(NFACES) if state.wall[f]]
        return None

    def sample_chance(self, state: MahjongState, rng: SeedRng) -> Any:
        if state.phase == DRAWN:
            index = rng.randbelow(state.wall_size)
            for face in range(NFACES):
                index -= state.wall[face]
                if index < 0:
                    return ("drawn", face)
        pool = hand_faces(state.wall)
        chosen = []
        for i in range(14):
            j = i + rng.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
            chosen.append(pool[i])
        return ("deal", state.dealt, tuple(sorted(chosen)))

    def apply(self, state: MahjongState, action: Any) -> MahjongState:
        if state.phase == DEAL or state.phase == DRAWN:
            return apply_chance(state, action)
        return apply_player(state, action, self.player_cap)

    def outcome(self, state: MahjongState) -> Outcome | None:
        if state.result is None:
            return None
        termination, winner = state.result
        if winner is None:
            return Outcome.draw(2, termination, list(state.points))
        return Outcome.win(2, winner, termination, list(state.points))

    def scores(self, state: MahjongState) -> list[int | float]:
        return list(state.points)

    # -- notation ----------------------------------------------------------------------------

    def parse_action(self, state: MahjongState, text: str) -> Any:
        if self.to_move(state) is None:
            raise GameOver("the game is over: no more actions")
        word, parts = grammar.read(text)
        seat = self.to_move(state)
        if word in ("deal", "drawn"):
            if seat != CHANCE:
                raise IllegalAction(f"{text.strip()!r}: only chance deals and draws wall tiles")
            return self._check_chance(state, word, parts)
        if seat == CHANCE:
            due = "deal" if state.phase == DEAL else "drawn"
            raise IllegalAction(f"{text.strip()!r}: chance is to move (a {due} action is due)")
        if word == "resign":
            return RESIGN
        if word == "draw":
            return self._check_draw(state, parts)
        if state.phase != PLAY:
            raise IllegalAction(f"{text.strip()!r}: a turn starts with draw wall or draw discard")
        hand = state.hands[seat]
        if word == "out":
            if state.sizes[seat]:
                raise IllegalAction("out: the hand is not empty (D8: out needs an empty hand)")
            return OUT
        if state.sizes[seat] == 0:
            raise IllegalAction(f"{text.strip()!r}: the hand is empty; declare out")
        if word == "meld":
            return self._check_meld(state, hand, parts)
        if word == "add":
            return self._check_add(state, hand, parts)
        return self._check_discard(state, hand, parts)

    def _check_chance(self, state: MahjongState, word: str, parts: Any) -> Any:
        if word == "drawn":
            if state.phase != DRAWN:
                raise IllegalAction(f"drawn {NAMES[parts]}: no tile is being drawn now "
                                    "(a deal is due)")
            if not state.wall[parts]:
                raise IllegalAction(f"drawn {NAMES[parts]}: no {NAMES[parts]} is left in the wall")
            return ("drawn", parts)
        seat, faces = parts
        if state.phase != DEAL:
            raise IllegalAction("deal: hands are dealt only at the start of a round")
        if seat != state.dealt:
            raise IllegalAction(f"deal {seat_text(seat)}: {seat_text(state.dealt)} is dealt now "
                                "(p1 then p2)")
        if len(faces) != 14:
            raise IllegalAction(f"deal {seat_text(seat)}: 14 tiles are dealt, not {len(faces)}")
        for face in set(faces):
            if faces.count(face) > state.wall[face]:
                raise IllegalAction(
                    f"deal {seat_text(seat)}: too many {NAMES[face]} (4 of each face in all, "
                    f"{state.wall[face]} not yet dealt)")
        return ("deal", seat, tuple(sorted(faces)))

    def _check_draw(self, state: MahjongState, source: str) -> Any:
        if state.phase != DRAW:
            raise IllegalAction(f"draw {source}: this turn has drawn already")
        if source == "wall":
            return WALL
        if state.discard is None:
            raise IllegalAction("draw discard: there is no discard to take (D2: the round's "
                                "first turn draws from the wall)")
        return TAKE

    def _take_from_hand(self, hand: tuple[int, ...], faces: Sequence[int], what: str) -> None:
        for face in set(faces):
            if faces.count(face) > hand[face]:
                held = hand[face]
                raise IllegalAction(f"{what}: the hand holds {held} {NAMES[face]}, "
                                    f"not {faces.count(face)}")

    def _check_meld(self, state: MahjongState, hand: tuple[int, ...], groups: Any) -> Any:
        seat = state.seat
        written = "meld " + " / ".join(tile_text(g) for g in groups)
        ordered = []
        for group in groups:
            kind = classify(tuple(sorted(group)))
            if kind is None:
                why = ""
                if len(set(group)) == len(group) and all(f < 27 for f in group) and \
                        len({f // 9 for f in group}) == 1 and 1 in {f % 9 + 1 for f in group}:
                    why = "; D5: a run never passes through the 1"
                raise IllegalAction(f"{written}: {tile_text(group)} is not a meld (D4: pung, "
                                    f"kong, run, rank set, wind set or dragon set{why})")
            ordered.append(canonical(group))
        laid = [f for g in ordered for f in g]
        self._take_from_hand(hand, laid, written)
        empties = len(laid) == state.sizes[seat]
        pairs = sum(classify(g) == PAIR for g in ordered)
        if pairs and not empties:
            raise IllegalAction(f"{written}: a pair may be laid only by a meld that empties "
                                "the hand (D4)")
        if pairs > 1:
            raise IllegalAction(f"{written}: only one pair may be laid when going out (D4, D8)")
        total = sum(value(g) for g in ordered)
        if not state.opened[seat] and total < OPENING_MINIMUM:
            raise IllegalAction(f"{written}: the opening meld must be worth at least "
                                f"{OPENING_MINIMUM}, this is {total} (D7)")
        melds = state.melds + tuple((seat, g) for g in ordered)
        self._check_stranded(state, minus(hand, laid), melds, written)
        return ("meld", tuple(ordered))

    def _check_add(self, state: MahjongState, hand: tuple[int, ...], parts: Any) -> Any:
        faces, number = parts
        written = f"add {tile_text(faces)} to {number}"
        if not state.opened[state.seat]:
            raise IllegalAction(f"{written}: no add before one's opening meld (D7)")
        if not 1 <= number <= len(state.melds):
            raise IllegalAction(f"{written}: there is no table meld {number} "
                                f"(melds 1-{len(state.melds)})" if state.melds
                                else f"{written}: there are no table melds yet")
        self._take_from_hand(hand, faces, written)
        tiles = state.melds[number - 1][1]
        added = tuple(sorted(faces))
        if added not in additions(tiles, hand):
            grown = tuple(sorted(tiles + added))
            kind = classify(tuple(sorted(tiles)))
            raise IllegalAction(
                f"{written}: {tile_text(canonical(grown))} is not a meld (D6: a run grows at "
                f"its ends up to 9 tiles, a pung becomes a kong, a 3-wind set takes its missing "
                f"wind; this {kind} cannot take these tiles)")
        owner = state.melds[number - 1][0]
        melds = (state.melds[:number - 1] + ((owner, canonical(tiles + added)),)
                 + state.melds[number:])
        self._check_stranded(state, minus(hand, added), melds, written)
        return ("add", added, number)

    def _check_stranded(self, state: MahjongState, rest: tuple[int, ...], melds: Any,
                        written: str) -> None:
        """With out_by_discard=off the last tile cannot be discarded, so an action leaving one
        tile that no table meld can take would leave the turn without a legal end."""
        if (not self.out_by_discard and sum(rest) == 1
                and not can_add_somewhere(rest, melds)):
            raise IllegalAction(f"{written}: it would leave one tile that can neither be added "
                                "nor discarded (out_by_discard=off)")

    def _check_discard(self, state: MahjongState, hand: tuple[int, ...], face: int) -> Any:
        name = NAMES[face]
        if not hand[face]:
            raise IllegalAction(f"discard {name}: the hand holds no {name}")
        if state.sizes[state.seat] == 1 and not self.out_by_discard:
            raise IllegalAction(f"discard {name}: with out_by_discard=off the last tile may not "
                                "be discarded (D8)")
        if state.taken == face and any(hand[f] for f in range(NFACES) if f != face):
            raise IllegalAction(f"discard {name}: {name} was taken from the discards this turn "
                                "(D3: discard another face)")
        return ("discard", face)

    def format_action(self, state: MahjongState, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        kind = action[0]
        if kind == "wall":
            return "draw wall"
        if kind == "take":
            return "draw discard"
        if kind == "meld":
            return "meld " + " / ".join(tile_text(g) for g in action[1])
        if kind == "add":
            return f"add {tile_text(action[1])} to {action[2]}"
        if kind in ("discard", "drawn"):
            return f"{kind} {NAMES[action[1]]}"
        if kind == "deal":
            return f"deal {seat_text(action[1])}: {tile_text(action[2])}"
        return "out"

    def describe_action(self, state: MahjongState, action: Any) -> str | None:
        if action == TAKE and state.discard is not None:
            return f"takes {NAMES[state.discard]}"
        if action == OUT or (isinstance(action, tuple) and action[0] == "discard"
                             and state.sizes[state.seat] == 1):
            return "wins the round"
        return None

    def mask_action(self, before: MahjongState, action: Any, final: MahjongState,
                    seat: int | None) -> str:
        if isinstance(action, tuple):
            if action[0] == "deal" and seat != action[1]:
                return f"deal {seat_text(action[1])}: ?"
            if action[0] == "drawn" and seat != before.seat:
                return "drawn ?"
        return self.format_action(before, action)

    def arrange_hidden(self, state: MahjongState, seat: int | None, text: str,
                       rng: SeedRng) -> MahjongState:
        """A tile the other player lays or discards must be in its hand, and a tile dealt to or
        drawn by ``seat`` must be in the wall."""
        word, parts = grammar.read(text)
        faces: tuple[int, ...] = ()
        if word == "meld":
            faces = tuple(f for group in parts for f in group)
        elif word == "add":
            faces = parts[0]
        elif word in ("discard", "drawn"):
            faces = (parts,)
        elif word == "deal":
            faces = parts[1]
        target = None if word in ("deal", "drawn") else state.seat
        return _gather(state, seat, faces, target, rng)

    # -- views -------------------------------------------------------------------------------

    def view(self, state: MahjongState, seat: int | None) -> dict[str, Any]:
        """Compact on purpose: tiles as text, so a long game's frames stay small."""
        data: dict[str, Any] = {
            "round": state.round,
            "leader": seat_text(state.leader),
            "phase": state.phase,
            "points": {seat_text(i): points for i, points in enumerate(state.points)},
            "wall": state.wall_size,
            "hands": {seat_text(i): tile_text(hand_faces(state.hands[i]))
                      if seat in (i, REFEREE) else None
                      for i in range(2)},
            "hand_sizes": {seat_text(i): size for i, size in enumerate(state.sizes)},
            "opened": {seat_text(i): opened for i, opened in enumerate(state.opened)},
            "table": [f"{seat_text(owner)}: {tile_text(tiles)}" for owner, tiles in state.melds],
            "discards": " ".join(NAMES[f] + ("*" if taken else "") for _s, f, taken in state.pile),
            "discard_to_take": None if state.discard is None else NAMES[state.discard],
            "taken": None if state.taken is None else NAMES[state.taken],
            "player_actions": state.plies,
            "rounds": [f"{r}: " + (f"{seat_text(w)} {how}" if w is not None else f"void, {how}")
                       for r, w, how in state.history],
        }
        if seat in (state.seat, REFEREE) and state.drawn is not None:
            data["drawn"] = NAMES[state.drawn]
        return data

    def diagram(self, state: MahjongState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The seat's own hand face up, the other hand and the wall as backs, the melds on the
        table, the discards and the tile that may be taken."""
        from gametool.core.diagram import Diagram, Note, Row, back

        view = self.view(state, seat)

        def tiles(text: str) -> tuple[Card, ...]:
            # a discard marked * was taken: the mark stays on the tile, not in a colour
            return tuple(tile_card(t.rstrip("*"), "*" if t.endswith("*") else "")
                         for t in text.split())

        parts: list[Any] = [Note((self.render(state, seat, names).splitlines()[0],))]
        # the seats' entries in seat order (keyed by the names this call's view says)
        hands, sizes = list(view["hands"].values()), list(view["hand_sizes"].values())
        for i, name in enumerate(names[:2]):
            hand = hands[i]
            items = tiles(hand) if hand is not None else (back(kind="tile"),) * sizes[i]
            drawn = (f", drew {view['drawn']}" if hand is not None and "drawn" in view
                     and i == state.seat else "")
            parts.append(Row(f"hand of {name}", items, f"{sizes[i]} tiles{drawn}"))
        if state.melds:  # on the table, seen by all: side by side, numbered as 'add' names them
            laid = tuple(tiles(tile_text(meld)) for _owner, meld in state.melds)
            parts.append(Row("melds", tuple(t for meld in laid for t in meld),
                             groups=tuple((f"{n} {names[owner]}", len(laid[n - 1]))
                                          for n, (owner, _m) in enumerate(state.melds, 1))))
        parts.append(Row("discards", tiles(view["discards"]),
                         f"may be taken: {view['discard_to_take']}"
                         if view["discard_to_take"] else ""))
        parts.append(Row("wall", (back(view["wall"], "tile"),) if view["wall"] else (),
                         f"{view['wall']} tiles"))
        return Diagram(tuple(parts))

    def render(self, state: MahjongState, seat: int | None, names: Sequence[str]) -> str:
        phase = {DEAL: "dealing", DRAW: "draw", DRAWN: "drawing from the wall",
                 PLAY: "meld, add, discard or out"}[state.phase]
        turn = f"{names[state.seat]}: {phase}" if state.result is None else "game over"
        lines = [f"round {state.round}, leader {names[state.leader]}; wall {state.wall_size} "
                 f"tiles; {turn}", ""]
        # The table holds public facts only, so every viewer of a position shares it (cached).
        rows = tuple((names[i], str(state.points[i]), "yes" if state.opened[i] else "no",
                      str(state.sizes[i])) for i in range(2))
        lines.append(_table(("seat", "points", "opened", "tiles in hand"), rows))
        shown = (0, 1) if seat == REFEREE else () if seat is None else (seat,)
        if shown:
            lines.append("")
        for i in shown:  # the seat's own hand; the referee's view holds both
            own = tile_text(hand_faces(state.hands[i])) or "-"
            if state.drawn is not None and state.seat == i:
                own += f"   (drew {NAMES[state.drawn]})"
            lines.append(f"hand of {names[i]}: {own}")
        lines.append("")
        if state.melds:
            table = tuple((str(n), names[owner], classify(tuple(sorted(tiles))), tile_text(tiles),
                           str(value(tiles)))
                          for n, (owner, tiles) in enumerate(state.melds, start=1))
            lines.append(_table(("meld", "laid by", "kind", "tiles", "value"), table))
        else:
            lines.append("table: no melds")
        pile = " ".join(NAMES[f] + ("*" if taken else "") for _s, f, taken in state.pile)
        lines.append("")
        # A long round's discards wrap under their label.
        pile_text = f"discards: {pile or '-'}" + ("   (* taken)" if "*" in pile else "")
        lines += textwrap.wrap(pile_text, width=100, subsequent_indent=" " * 10)
        if state.discard is not None:
            lines.append(f"may be taken: {NAMES[state.discard]}")
        if state.taken is not None:
            lines.append(f"taken this turn: {NAMES[state.taken]} (D3: not to be discarded)")
        if state.history:
            lines.append("")
            sheet = []
            points = [3, 3]
            for number, winner, how in state.history:
                if winner is not None:
                    points[1 - winner] -= 1
                    note = f"{names[winner]} wins ({how})"
                else:
                    note = f"void ({how})"
                sheet.append((str(number), note, *map(str, points)))
            lines.append(_table(("round", "result", *names), tuple(sheet)))
        return "\n".join(lines) + "\n"

    def randomize_hidden(self, state: MahjongState, seat: int | None,
                         rng: SeedRng) -> MahjongState:
        hidden = [i for i in range(2) if i != seat]
        pool = list(state.wall)
        keep: dict[int, tuple[int, ...]] = {}
        for i in hidden:
            # The face taken this turn is known to both players, while the hand still holds
            # it (it may have been laid since).
            known = ((state.taken,) if state.taken is not None and state.seat == i
                     and state.hands[i][state.taken] else ())
            keep[i] = known
            rest = minus(state.hands[i], known)
            pool = [a + b for a, b in zip(pool, rest, strict=True)]
        faces = rng.shuffled(hand_faces(tuple(pool)))
        hands = list(state.hands)
        drawn = state.drawn
        for i in hidden:
            size = state.sizes[i] - len(keep[i])
            chosen, faces = faces[:size], faces[size:]
            counts = [0] * NFACES
            for f in (*chosen, *keep[i]):
                counts[f] += 1
            hands[i] = tuple(counts)
            if state.seat == i and drawn is not None:
                drawn = next((f for f in chosen), None)
        wall = [0] * NFACES
        for f in faces:
            wall[f] += 1
        return state._replace(hands=tuple(hands), wall=tuple(wall), drawn=drawn)


def _gather(state: MahjongState, seat: int | None, faces: Sequence[int], target: int | None,
            rng: SeedRng) -> MahjongState:
    """``state`` with the tiles ``faces`` moved into the hand of ``target`` (None: the wall)
    from the other places ``seat`` cannot see, each swapped for a tile not asked for; the
    tiles both players know a hand holds (taken this turn) stay where they are."""
    wall = -1
    zones: dict[int, list[int]] = {wall: list(state.wall)}
    for i in range(2):
        if i != seat:
            zones[i] = list(state.hands[i])
    key = wall if target is None else target
    if key not in zones:
        return state
    # A drawn tile is known to its drawer only: for the other seat it may be any tile.
    known = (state.taken, state.drawn) if seat == state.seat else (state.taken,)
    kept = {i: {f for f in known if f is not None} for i in range(2) if i == state.seat}
    drawn = state.drawn
    need = {f: faces.count(f) for f in set(faces)}
    for face, count in need.items():
        while zones[key][face] < count:
            source = next((z for z in zones if z != key and zones[z][face]
                           > (1 if face in kept.get(z, ()) else 0)), None)
            spare = [g for g in range(NFACES) if zones[key][g] > need.get(g, 0)
                     + (1 if g in kept.get(key, ()) else 0)]
            if source is None or not spare:
                break
            swap = rng.choice(spare)
            zones[source][face] -= 1
            zones[key][face] += 1
            zones[key][swap] -= 1
            zones[source][swap] += 1
            if key == state.seat and swap == drawn and not zones[key][swap]:
                drawn = face  # the hidden drawn tile was this one
    hands = tuple(tuple(zones[i]) if i in zones else state.hands[i] for i in range(2))
    return state._replace(hands=hands, wall=tuple(zones[wall]),  # type: ignore[arg-type]
                          drawn=drawn)


SUIT_SIGNS = {"b": ("bamboo", "green"), "c": ("circle", "blue"), "k": ("character", "red")}
HONOURS = {"EW": ("E", "wind", "black"), "SW": ("S", "wind", "black"),
           "WW": ("W", "wind", "black"), "NW": ("N", "wind", "black"),
           "RD": ("", "dragon", "red"), "GD": ("", "dragon", "green"),
           "WD": ("", "frame", "blue")}
"""How a tile's face looks: suits by number and sign (bamboo green, circles blue, characters
red, so shape and colour both tell them), winds by letter and compass, dragons by sign."""


@lru_cache(maxsize=256)
def tile_card(name: str, symbol: str = "") -> Card:
    """The face of the tile ``name`` (``8b``, ``EW``, ``RD``) for a picture."""
    from gametool.core.diagram import Card

    if name in HONOURS:
        label, figure, style = HONOURS[name]
    elif name[-1:] in SUIT_SIGNS:
        label, (figure, style) = name[:-1], SUIT_SIGNS[name[-1]]
    else:
        label, figure, style = name, "", "neutral"
    return Card(label, style, "tile", symbol=symbol, name=name, figure=figure)
