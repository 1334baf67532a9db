"""Two-Headed Dragon: a domino game for 3 or 4 where the chain's open end alternates.

Tiles are (low, high) pairs. Every hand deals 7 tiles to each player; the leader lays any tile
and names the open end; each later player must match the open end if they can (the other end
then opens), or else expose a tile as a sheep. Sheep pips are penalty points, doubled when some
player has no sheep. Ten hands; the lowest total wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from gametool.core.chance import SeedRng
from gametool.core.engine import (
    CHANCE,
    REFEREE,
    RESIGN,
    Game,
    Option,
    Outcome,
    SeatResult,
    seat_text,
)
from gametool.core.errors import GameOver, IllegalAction, MalformedAction
from gametool.core.tables import tabulate
from notation.errors import NotationError
from notation.fast import FastReader

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

Tile = tuple[int, int]
HANDS = 10
HAND_SIZE = 7
# The share of a hand's pips the evaluation counts as risk of future sheep.
HAND_RISK = 0.15
# A typical sheep's pips, for the chance that the next player has to expose one.
NEXT_WEIGHT = 4.0
RARE_WEIGHT = 6.0
ALL_TILES: tuple[Tile, ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
# D1: three players use the 21 tiles without a blank half.
TILES_IN_USE = {3: tuple(t for t in ALL_TILES if 0 not in t), 4: ALL_TILES}


def tile_text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def pips(tile: Tile) -> int:
    return tile[0] + tile[1]


class DragonState(NamedTuple):
    """One position. ``ends`` is (open value, closed value) once the hand has been led."""

    nseats: int
    hand_no: int = 1
    totals: tuple[int, ...] = ()
    leader: int | None = None
    hands: tuple[tuple[Tile, ...], ...] = ()
    dealt: int = 0
    seat: int = 0
    actions: int = 0
    """Player actions so far in this hand (7 rounds of ``nseats``)."""
    ends: tuple[int, int] | None = None
    chain: tuple[tuple[int, Tile, int], ...] = ()
    """Tiles played in this hand: (seat, tile, value of the open end after it)."""
    sheep: tuple[tuple[Tile, ...], ...] = ()
    sheets: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Finished hands: (leader, hand scores)."""
    result: tuple[str, int | None] | None = None
    """(termination, resigner or None) once the game is over."""


def hand_scores(sheep: Sequence[Sequence[Tile]]) -> tuple[int, ...]:
    """Each player's hand score: sheep pips, doubled for all when some player has none (D7)."""
    bases = [sum(pips(t) for t in mine) for mine in sheep]
    factor = 2 if any(not mine for mine in sheep) else 1
    return tuple(factor * base for base in bases)


@lru_cache(maxsize=4096)
def chain_line(chain: tuple[tuple[int, Tile, int], ...]) -> tuple[tuple[str, ...], bool]:
    """The chain laid out left to right, each tile written with its touching halves adjacent
    (``2-1 1-1``), and whether the open end is on the right.

    The lead lies with its closed half on the left; every played tile joins the open end (D4).
    """
    line: list[str] = []
    open_right = True
    for k, (_seat, tile, after) in enumerate(chain):
        if k == 0:
            closed = tile[1] if tile[0] == after else tile[0]
            line.append(f"{closed}-{after}")
            continue
        # The tile joins the open end; its other half faces outwards.
        joined = int(line[-1][-1]) if open_right else int(line[0][0])
        outer = tile[1] if tile[0] == joined else tile[0]
        if open_right:
            line.append(f"{joined}-{outer}")
        else:
            line.insert(0, f"{outer}-{joined}")
        open_right = not open_right
    return tuple(line), open_right


def next_leader(scores: Sequence[int], leader: int) -> int:
    """The lowest hand score leads; ties go to the first counting from the leader (D8)."""
    n = len(scores)
    order = [(leader + k) % n for k in range(n)]
    return min(order, key=lambda seat: (scores[seat], order.index(seat)))


# -- notation ------------------------------------------------------------------------------------

@cache
def _action():  # noqa: ANN202 (a pyparsing element, built on first need)
    """The full grammar, for the spellings the fast reader does not take (it names the error)."""
    import pyparsing as pp

    from notation.tokens import domino, keyword

    tile = pp.Group(domino(6)).set_name("domino")
    seat = pp.Regex(r"[pP][1-4]").set_name("seat p1-p4")
    seat.set_parse_action(lambda t: int(t[0][1]) - 1)
    pip = pp.Regex(r"[0-6]").set_name("pip 0-6")
    pip.set_parse_action(lambda t: int(t[0]))
    return (
        (keyword("lead") - tile("tile") - keyword("open").suppress() - pip("pip"))
        | (keyword("play") - tile("tile"))
        | (keyword("sheep") - tile("tile"))
        | (keyword("deal") - seat("seat") - pp.Suppress(":").set_name("':'")
           - pp.Group(tile * HAND_SIZE)("tiles"))
        | (keyword("leader") - seat("seat"))
        | keyword("resign")
    ).set_name("action (lead T open N, play T, sheep T, resign, deal, leader)")


_FAST_TILE = r"([0-6])-([0-6])"
_FAST = re.compile(rf"(lead) {_FAST_TILE} open ([0-6])|(play|sheep) {_FAST_TILE}"
                   rf"|(deal) p([1-4]): ((?:[0-6]-[0-6] ){{{HAND_SIZE - 1}}}[0-6]-[0-6])"
                   r"|(leader) p([1-4])|(resign)", re.IGNORECASE)


def _fast(text: str) -> tuple[str, Any] | None:
    """An action as the tool writes it, read without the grammar exactly as the grammar reads
    it; None for any other spelling."""
    match = _FAST.fullmatch(text.strip())
    if match is None:
        return None
    g = match.groups()

    def tile(a: str, b: str) -> Tile:
        x, y = int(a), int(b)
        return (min(x, y), max(x, y))

    if g[0]:
        return "lead", (tile(g[1], g[2]), int(g[3]))
    if g[4]:
        return g[4].lower(), tile(g[5], g[6])
    if g[7]:
        return "deal", (int(g[8]) - 1, [tile(t[0], t[2]) for t in g[9].split(" ")])
    if g[10]:
        return "leader", int(g[11]) - 1
    return "resign", None


def _tile(group: Any) -> Tile:
    """A parsed domino as a (low, high) tile: halves in either order (``5-1`` = ``1-5``)."""
    half = group[0]
    return (min(half.left, half.right), max(half.left, half.right))


def _refused(text: str, exc: NotationError) -> MalformedAction:
    return MalformedAction(
        f"malformed action {text.strip()!r}: {exc.message} (column {exc.column})")


def _from_tokens(parsed: Any, _text: str) -> tuple[str, Any]:
    """An action read by the grammar, as ``_fast`` gives it."""
    word = parsed[0].lower()
    if word == "deal":
        return word, (parsed["seat"], [_tile(t) for t in parsed["tiles"]])
    if word == "leader":
        return word, parsed["seat"]
    if word == "resign":
        return word, None
    tile = _tile(parsed["tile"])
    return word, (tile, parsed["pip"]) if word == "lead" else tile


_read = FastReader(_fast, _action, _from_tokens, _refused)
"""An action's word and its parts; MalformedAction quoting the input."""


SUMMARY = """\
Three or four players (as many as the seats named: start --players A,B,C; default 4) play
10 hands with a double-six domino set: with 4 players all 28 tiles, with 3 the 21 tiles
without a blank half. Every hand each player is dealt 7 tiles; chance names the leader of
hand 1.

The leader plays any tile and names one of its values: that end of the chain is open, the other
closed. Then, in seat order from the leader, each player must play a tile showing the open
value if they have one (their choice among several): its matching half joins the open end,
which then shows the tile's other half and is closed, while the opposite end opens. A player
without a match exposes any tile of their choice as a sheep; the chain does not change. Every
action uses one tile, so a hand lasts 7 rounds.

Hand score: the pips on one's sheep; if at least one player has no sheep, every player who has
sheep scores double (a 0-0 sheep is still a sheep). The lowest hand score leads the next hand
(ties: the first counting seats from the current leader). After 10 hands the lowest total wins;
tied lowest totals share the win. A player who resigns ends the game and ranks last.
"""

NOTATION = """\
lead 5-1 open 1         lead a tile, naming the open value (one of its halves)
play 1-3                play a tile matching the open value (halves in either order)
sheep 6-6               expose a tile as a sheep (only without a match)
resign
chance: deal p1: 5-1 6-6 1-1 1-4 4-4 5-5 4-6   each player's 7 tiles, every hand
chance: leader p1                               the leader of hand 1

Canonical forms write the touching half first (play 1-3 on an open 1); input takes the halves
in either order. show draws the chain left to right, each tile's touching halves side by side,
between the marks [open N] and [closed N].
"""


@lru_cache(maxsize=2048)
def _table(headers: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


class TwoHeadedDragon(Game[DragonState, Any]):
    id = "two-headed-dragon"
    aliases = ("dragon",)
    name = "Two-Headed Dragon"
    names_seats = True
    notation_words = frozenset("deal leader lead open play sheep resign".split())
    notation_tokens = r"[0-9]+(-[0-9]+)?"
    min_players = 3
    max_players = 4
    default_players = 4
    chance = "deal, first leader"
    hidden = "hands"
    options: ClassVar[tuple[Option, ...]] = ()
    summary = SUMMARY
    notation = NOTATION
    max_plies = HANDS * (4 + 4 * HAND_SIZE) + 1
    lower_scores_win = True

    # -- the rules ---------------------------------------------------------------------------

    def initial_state(self, nseats: int) -> DragonState:
        return DragonState(nseats, totals=(0,) * nseats, hands=((),) * nseats,
                           sheep=((),) * nseats)

    def to_move(self, state: DragonState) -> int | None:
        if state.result is not None:
            return None
        if state.dealt < state.nseats or state.leader is None:
            return CHANCE
        return state.seat

    def legal_actions(self, state: DragonState) -> list[Any]:
        hand = state.hands[state.seat]
        if state.ends is None:
            # D3: any tile, naming either of its values.
            return [("lead", t, v) for t in hand for v in sorted({t[0], t[1]})]
        open_value = state.ends[0]
        matches = [("play", t) for t in hand if open_value in t]
        # D5: a player who can match must play; D6: otherwise any tile is a sheep.
        return matches or [("sheep", t) for t in hand]

    def _undealt(self, state: DragonState) -> list[Tile]:
        dealt = {t for hand in state.hands[:state.dealt] for t in hand}
        return [t for t in TILES_IN_USE[state.nseats] if t not in dealt]

    def chance_outcomes(self, state: DragonState) -> list[Any] | None:
        if state.dealt == state.nseats:
            return [("leader", seat) for seat in range(state.nseats)]
        if state.dealt == state.nseats - 1:
            return [("deal", state.dealt, tuple(self._undealt(state)))]
        return None

    def sample_chance(self, state: DragonState, rng: SeedRng) -> Any:
        if state.dealt == state.nseats:
            return ("leader", rng.randbelow(state.nseats))  # D2
        tiles = rng.shuffled(self._undealt(state))
        return ("deal", state.dealt, tuple(sorted(tiles[:HAND_SIZE])))

    def apply(self, state: DragonState, action: Any) -> DragonState:
        kind = action[0] if isinstance(action, tuple) else action
        n = state.nseats
        if kind == "deal":
            hands = state.hands[:action[1]] + (action[2],) + state.hands[action[1] + 1:]
            return state._replace(hands=hands, dealt=state.dealt + 1,
                                  seat=state.leader if state.leader is not None else 0)
        if kind == "leader":
            return state._replace(leader=action[1], seat=action[1])
        seat = state.seat
        if kind == RESIGN:
            return state._replace(result=("resignation", seat))
        tile = action[1]
        hand = tuple(t for t in state.hands[seat] if t != tile)
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
        ends, chain, sheep = state.ends, state.chain, state.sheep
        if kind == "lead":
            value = action[2]
            ends = (value, tile[1] if tile[0] == value else tile[0])
            chain = ((seat, tile, value),)
        elif kind == "play":
            open_value, closed = state.ends  # type: ignore[misc]
            # D4: the played end shows the other half and closes; the opposite end opens.
            other = tile[1] if tile[0] == open_value else tile[0]
            ends = (closed, other)
            chain = (*chain, (seat, tile, closed))
        else:
            sheep = sheep[:seat] + ((*sheep[seat], tile),) + sheep[seat + 1:]
        actions = state.actions + 1
        nxt = state._replace(hands=hands, ends=ends, chain=chain, sheep=sheep, actions=actions,
                             seat=(seat + 1) % n)
        if actions == HAND_SIZE * n:  # D10: the hand always runs its 7 rounds
            return self._score_hand(nxt)
        return nxt

    def _score_hand(self, state: DragonState) -> DragonState:
        scores = hand_scores(state.sheep)
        totals = tuple(a + b for a, b in zip(state.totals, scores, strict=True))
        leader = state.leader
        assert leader is not None
        sheets = (*state.sheets, (leader, scores))
        new_leader = next_leader(scores, leader)
        n = state.nseats
        if state.hand_no == HANDS:  # D9
            return state._replace(totals=totals, sheets=sheets, result=("ten hands", None))
        return state._replace(hand_no=state.hand_no + 1, totals=totals, sheets=sheets,
                              leader=new_leader, seat=new_leader, hands=((),) * n, dealt=0,
                              actions=0, ends=None, chain=(), sheep=((),) * n)

    def outcome(self, state: DragonState) -> Outcome | None:
        if state.result is None:
            return None
        termination, resigner = state.result
        totals = state.totals
        n = state.nseats
        seats = [s for s in range(n) if s != resigner]
        best = min(totals[s] for s in seats)
        results = []
        for s in range(n):
            if s == resigner:
                results.append(SeatResult("loss", n, totals[s]))  # D11: the resigner is last
                continue
            rank = 1 + sum(1 for o in seats if totals[o] < totals[s])
            # D9: the lowest total wins; tied lowest totals share the win.
            results.append(SeatResult("win" if totals[s] == best else "loss", rank, totals[s]))
        return Outcome(termination, tuple(results))

    def scores(self, state: DragonState) -> list[int | float]:
        return list(state.totals)

    def evaluate(self, state: DragonState, seat: int) -> float:
        """Higher is better for ``seat``: the others' mean projected total less its own.

        A seat's projection is its total plus its sheep pips this hand, doubled while some
        player still has no sheep (D7; a seat without sheep adds nothing). The seat adds a
        share of the pips in its own hand, which may yet become sheep; the next player, when
        it is not the seat, adds the chance that none of its tiles shows the open value (from
        the tiles the seat cannot see) times a typical sheep. Only what the seat sees counts.
        """
        if state.result is not None:
            return super().evaluate(state, seat)
        n = state.nseats
        factor = 2 if any(not mine for mine in state.sheep) else 1
        projected = [state.totals[i] + factor * sum(pips(t) for t in state.sheep[i])
                     for i in range(n)]
        seen = set(state.hands[seat]) | {t for _s, t, _v in state.chain} | {
            t for mine in state.sheep for t in mine}
        pool = [t for t in TILES_IN_USE[n] if t not in seen]
        # A tile whose values few unseen tiles show is less likely to be playable later.
        showing = [sum(1 for t in pool if v in t) for v in range(7)]
        projected[seat] += HAND_RISK * sum(
            pips(t) * (1 + RARE_WEIGHT / (1 + showing[t[0]] + showing[t[1]] * (t[0] != t[1])))
            for t in state.hands[seat])
        nxt = state.seat
        if state.ends is not None and nxt != seat and state.hands[nxt]:
            held = len(state.hands[nxt])
            matching = sum(1 for t in pool if state.ends[0] in t)
            projected[nxt] += NEXT_WEIGHT * factor * (
                comb(len(pool) - matching, held) / comb(len(pool), held))
        others = [projected[i] for i in range(n) if i != seat]
        return sum(others) / len(others) - projected[seat]

    # -- notation ----------------------------------------------------------------------------

    def parse_action(self, state: DragonState, text: str) -> Any:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver("the game is over: no more actions")
        word, parts = _read(text)
        written = text.strip()
        if word in ("deal", "leader"):
            if seat != CHANCE:
                raise IllegalAction(f"{written!r}: only chance deals and names the leader")
            return self._check_chance(state, word, parts)
        if seat == CHANCE:
            due = "deal" if state.dealt < state.nseats else "leader"
            raise IllegalAction(f"{written!r}: chance is to move (a {due} action is due)")
        if word == "resign":
            return RESIGN
        hand = state.hands[seat]
        tile = parts[0] if word == "lead" else parts
        if word == "lead" and state.ends is not None:
            raise IllegalAction(f"{written!r}: the hand has been led already; play or sheep")
        if word != "lead" and state.ends is None:
            raise IllegalAction(f"{written!r}: the leader starts the hand with lead T open N")
        if tile not in hand:
            raise IllegalAction(f"{written!r}: {seat_text(seat)} holds no {tile_text(tile)}")
        if word == "lead":
            if parts[1] not in tile:
                raise IllegalAction(f"{written!r}: {parts[1]} is not on {tile_text(tile)}; the "
                                    "open value must be one of the led tile's halves (D3)")
            return ("lead", tile, parts[1])
        open_value = state.ends[0]
        if word == "play":
            if open_value not in tile:
                raise IllegalAction(f"{written!r}: {tile_text(tile)} does not show the open "
                                    f"value {open_value}")
            return ("play", tile)
        if any(open_value in t for t in hand):
            raise IllegalAction(f"{written!r}: a tile showing the open value {open_value} must "
                                "be played (D5); a sheep only without a match")
        return ("sheep", tile)

    def _check_chance(self, state: DragonState, word: str, parts: Any) -> Any:
        n = state.nseats
        if word == "leader":
            if state.hand_no != 1 or state.leader is not None:
                raise IllegalAction(f"leader {seat_text(parts)}: chance names the leader of hand 1 "
                                    "only; later leaders follow the scoring (D8)")
            if state.dealt < n:
                raise IllegalAction(f"leader {seat_text(parts)}: the hands are dealt first")
            if parts >= n:
                raise IllegalAction(f"leader {seat_text(parts)}: there are {n} players")
            return ("leader", parts)
        seat, tiles = parts
        label = f"deal {seat_text(seat)}"
        if state.dealt >= n:
            raise IllegalAction(f"{label}: every player has been dealt for this hand; the next "
                                "deal comes after the hand is scored")
        if seat != state.dealt:
            raise IllegalAction(f"{label}: {seat_text(state.dealt)} is dealt now (seat order)")
        if len(set(tiles)) != len(tiles):
            raise IllegalAction(f"{label}: a tile is named twice")
        undealt = set(self._undealt(state))
        for tile in tiles:
            if 0 in tile and n == 3:
                raise IllegalAction(f"{label}: {tile_text(tile)} has a blank half; 3 players "
                                    "use the 21 tiles without blanks (D1)")
            if tile not in undealt:
                raise IllegalAction(f"{label}: {tile_text(tile)} has been dealt already")
        return ("deal", seat, tuple(sorted(tiles)))

    def format_action(self, state: DragonState, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        kind = action[0]
        if kind == "deal":
            return f"deal {seat_text(action[1])}: " + " ".join(tile_text(t) for t in action[2])
        if kind == "leader":
            return f"leader {seat_text(action[1])}"
        tile = action[1]
        if kind == "lead":
            value = action[2]
            other = tile[1] if tile[0] == value else tile[0]
            return f"lead {other}-{value} open {value}"
        if kind == "play":
            open_value = state.ends[0] if state.ends else tile[0]
            other = tile[1] if tile[0] == open_value else tile[0]
            return f"play {open_value}-{other}"
        return f"sheep {tile_text(tile)}"

    def mask_action(self, before: DragonState, action: Any, final: DragonState,
                    seat: int | None) -> str:
        if isinstance(action, tuple) and action[0] == "deal" and action[1] != seat:
            return f"deal {seat_text(action[1])}: ?"
        return self.format_action(before, action)

    def arrange_hidden(self, state: DragonState, seat: int | None, text: str,
                       rng: SeedRng) -> DragonState:
        """A tile another player plays must be in its hand (and a sheep leaves it no tile
        showing the open value), and the tiles dealt to ``seat`` must still be undealt."""
        word, parts = _read(text)
        if word == "deal":
            return _arrange(state, seat, None, parts[1], None, rng)
        if word in ("play", "lead", "sheep"):
            tile = parts[0] if word == "lead" else parts
            banned = state.ends[0] if word == "sheep" and state.ends else None
            return _arrange(state, seat, state.seat, (tile,), banned, rng)
        return state

    def describe_action(self, state: DragonState, action: Any) -> str | None:
        if isinstance(action, tuple) and action[0] in ("play", "sheep", "lead"):
            if state.actions + 1 == HAND_SIZE * state.nseats:
                return "the hand is scored"
        return None

    # -- views -------------------------------------------------------------------------------

    def view(self, state: DragonState, seat: int | None) -> dict[str, Any]:
        n = state.nseats
        line, open_right = chain_line(state.chain)
        return {
            "hand": state.hand_no,
            "leader": None if state.leader is None else seat_text(state.leader),
            "open": state.ends[0] if state.ends else None,
            "closed": state.ends[1] if state.ends else None,
            "chain": [f"{seat_text(s)} {tile_text(t)} open {v}" for s, t, v in state.chain],
            "line": " ".join(line),
            "open_end": None if not line else "right" if open_right else "left",
            "hands": {seat_text(i): " ".join(tile_text(t) for t in state.hands[i])
                      if seat in (i, REFEREE) else None for i in range(n)},
            "hand_sizes": {seat_text(i): len(state.hands[i]) for i in range(n)},
            "sheep": {seat_text(i): " ".join(tile_text(t) for t in state.sheep[i])
                      for i in range(n)},
            "totals": {seat_text(i): total for i, total in enumerate(state.totals)},
            "hand_scores": [{seat_text(i): score for i, score in enumerate(scores)}
                            for _leader, scores in state.sheets],
        }

    def render(self, state: DragonState, seat: int | None, names: Sequence[str]) -> str:
        n = state.nseats
        leader = "chance to name" if state.leader is None else names[state.leader]
        lines = [f"hand {state.hand_no} of {HANDS}, leader {leader}"]
        if state.ends is None:
            lines.append("chain: empty (the leader leads)")
        else:
            open_value, closed = state.ends
            line, open_right = chain_line(state.chain)
            left, right = (f"[closed {closed}]", f"[open {open_value}]") if open_right else (
                f"[open {open_value}]", f"[closed {closed}]")
            lines.append(f"chain: {left} {' '.join(line)} {right}")
        lines.append("")
        # The table holds public facts only, so every viewer of a position shares it (cached).
        rows = tuple((names[i], str(len(state.hands[i])),
                      " ".join(tile_text(t) for t in state.sheep[i]) or "-",
                      str(sum(pips(t) for t in state.sheep[i]))) for i in range(n))
        lines.append(_table(("seat", "tiles in hand", "sheep", "sheep pips"), rows))
        shown = range(n) if seat == REFEREE else () if seat is None else (seat,)
        if shown:
            lines.append("")
        for i in shown:  # the seat's own hand; the referee's view holds every hand
            lines.append(f"hand of {names[i]}: "
                         + (" ".join(tile_text(t) for t in state.hands[i]) or "-"))
        if state.sheets:  # the running totals follow in show's score table
            sheet = tuple((str(k), names[lead], *map(str, scores))
                          for k, (lead, scores) in enumerate(state.sheets, start=1))
            lines += ["", _table(("hand", "leader", *names[:n]), sheet)]
        return "\n".join(lines) + "\n"

    def diagram(self, state: DragonState, seat: int | None, names: Sequence[str]) -> Diagram:
        """The chain as laid, with its open and closed ends; the seat's own hand face up,
        every other hand as backs; each seat's sheep."""
        from gametool.core.diagram import Card, Diagram, Note, Row, back

        view = self.view(state, seat)

        def laid(tile: str) -> Card:  # a double lies across the line, as at a table
            ends = tile.split("-")
            return Card(tile, kind="domino", across=len(ends) == 2 and ends[0] == ends[1])

        dominoes = tuple(laid(tile) for tile in view["line"].split())
        ends = ("" if view["open"] is None else
                f"open {view['open']} on the {view['open_end']}, closed {view['closed']}")
        parts: list[Any] = [Note((self.render(state, seat, names).splitlines()[0],)),
                            Row("chain", dominoes, ends or "empty")]
        # the seats' entries in seat order (keyed by the names this call's view says)
        hands, sizes, sheep = (list(view[key].values()) for key in ("hands", "hand_sizes",
                                                                   "sheep"))
        for i, name in enumerate(names[:state.nseats]):
            items = (tuple(Card(t, kind="domino") for t in hands[i].split())
                     if hands[i] is not None else (back(kind="domino"),) * sizes[i])
            parts.append(Row(f"hand of {name}", items, f"{sizes[i]} tiles"))
            if sheep[i]:
                parts.append(Row(f"sheep of {name}",
                                 tuple(Card(t, kind="domino") for t in sheep[i].split())))
        return Diagram(tuple(parts))

    def randomize_hidden(self, state: DragonState, seat: int | None,
                         rng: SeedRng) -> DragonState:
        """Deal every tile ``seat`` cannot see afresh to the hands it cannot see.

        The unseen tiles (others' hands and, mid-deal, the tiles not dealt yet) are the tiles in
        use less the seat's own hand, the chain and the sheep: they are taken in a fixed order
        before the shuffle, so the result depends only on the seat's view and ``rng``.
        """
        own = set(state.hands[seat]) if seat is not None else set()
        seen = own | {t for _s, t, _v in state.chain} | {t for s in state.sheep for t in s}
        pool = rng.shuffled([t for t in TILES_IN_USE[state.nseats] if t not in seen])
        hands = list(state.hands)
        for i in range(state.dealt):
            if i != seat:
                size = len(hands[i])
                hands[i], pool = tuple(sorted(pool[:size])), pool[size:]
        return state._replace(hands=tuple(hands))


def _arrange(state: DragonState, seat: int | None, target: int | None, tiles: Sequence[Tile],
             banned: int | None, rng: SeedRng) -> DragonState:
    """``state`` with ``tiles`` moved into the hand of ``target`` (None: the undealt tiles)
    from the other places ``seat`` cannot see, each swapped for a tile not asked for; with
    ``banned``, the target hand also gives away every other tile showing that value."""
    undealt = -1
    zones: dict[int, list[Tile]] = {i: list(state.hands[i]) for i in range(state.dealt)
                                     if i != seat}
    dealt = {t for i in range(state.dealt) for t in state.hands[i]}
    played = {t for _s, t, _v in state.chain} | {t for pile in state.sheep for t in pile}
    zones[undealt] = [t for t in TILES_IN_USE[state.nseats] if t not in dealt | played]
    key = undealt if target is None else target
    if key not in zones:
        return state

    def swap(tile: Tile, source: int, fits: Any) -> bool:
        spare = [t for t in zones[key] if t not in tiles and fits(t)]
        if not spare:
            return False
        back = rng.choice(spare)
        zones[source].remove(tile)
        zones[key].append(tile)
        zones[key].remove(back)
        zones[source].append(back)
        return True

    for tile in tiles:
        source = next((z for z in zones if z != key and tile in zones[z]), None)
        if source is not None:
            swap(tile, source, lambda _t: True)
    if banned is not None:
        for tile in [t for t in zones[key] if banned in t and t not in tiles]:
            source = next((z for z in zones if z != key and any(
                banned not in t for t in zones[z])), None)
            if source is None:
                break
            other = rng.choice([t for t in zones[source] if banned not in t])
            zones[source].remove(other)
            zones[key].append(other)
            zones[key].remove(tile)
            zones[source].append(tile)
    hands = tuple(tuple(sorted(zones[i])) if i in zones else state.hands[i]
                  for i in range(len(state.hands)))
    return state._replace(hands=hands)
