"""The one-line position encoding of the race games (``start --position``, the Position tag).

One group per seat, then the turn::

    B:1x2,5,12x12,h0 W:13x2,8,h12 turn=B dice=6-4

A group is the seat's letter, a colon and comma-separated items: ``S`` one figure on space S,
``SxN`` N figures on S, ``hN`` in hand, ``barN`` on the bar, ``offN`` borne off, ``left`` (the
seat resigned and left), ``placeN`` (the seat's final place). Figures the items do not place
are in hand, so ``hN`` may be left out; the total is checked (a seat that left Track Gammon
keeps only the figures it bore off). ``turn=L`` names the seat to move; with ``dice=A-B`` it
plays that roll, without it chance rolls first; ``turn=opening`` is Tawula's opening roll-off.
A finished game has ``end=HOW`` instead (``borne-off``, ``resignation``, ``dead-position``,
``max-plies``): the rules must end the game in that position, and in that way. ``plies=N``
counts the player actions so far, at most ``max_plies``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gametool.core.errors import GameError
from gametool.games.race import standing
from gametool.games.race.standing import END_WORDS, end_word
from gametool.games.race.state import RaceState

if TYPE_CHECKING:
    from gametool.games.race.rules import RaceRules

_ITEM = re.compile(r"(?:([0-9]+)(?:x([0-9]+))?|(h|bar|off|place)([0-9]+)|(left))\Z",
                   re.IGNORECASE)


def encode(game: RaceRules, state: RaceState) -> str:
    """The position as one line (the inverse of :func:`decode`)."""
    geo = game.geo
    groups = []
    for q, letter in enumerate(geo.letters):
        items = []
        for r in range(geo.spaces):  # spaces in the seat's own track order, from its start
            s = geo.tracks[q][r]
            n = state.counts[q][s]
            if n:
                items.append(f"{s + 1}" if n == 1 else f"{s + 1}x{n}")
        items.append(f"h{state.hand[q]}")
        if state.bar[q]:
            items.append(f"bar{state.bar[q]}")
        if state.off[q]:
            items.append(f"off{state.off[q]}")
        if state.out[q]:
            items.append("left")
        if state.places[q]:
            items.append(f"place{state.places[q]}")
        groups.append(f"{letter}:{','.join(items)}")
    if state.ended is not None:  # no turn: the rules say how the game ended
        groups.append(f"end={end_word(state.ended)}")
    elif state.opening:
        groups.append("turn=opening")
    else:
        groups.append(f"turn={geo.letters[state.seat]}")
        if state.dice is not None:
            groups.append(f"dice={state.dice[0]}-{state.dice[1]}")
    if state.plies:
        groups.append(f"plies={state.plies}")
    return " ".join(groups)


def decode(game: RaceRules, text: str) -> RaceState:
    """A position from its one-line encoding, checked for what the rules allow."""
    geo = game.geo
    n = geo.seats
    counts = [[0] * geo.spaces for _ in range(n)]
    hand: list[int | None] = [None] * n
    bar, off, places = [0] * n, [0] * n, [0] * n
    out = [False] * n
    seen: set[int] = set()
    seat, dice, opening, plies = None, None, False, 0
    end: str | None = None

    shown = " ".join(text.split())
    if len(shown) > 160:  # a position is short; quote the start of anything longer
        shown = shown[:150] + " ..."

    def bad(why: str) -> GameError:
        return GameError(f"position {shown!r}: {why}")

    fields: set[str] = set()
    for field in text.split():
        key, eq, value = field.partition("=")
        if eq:
            key = key.lower()
            if key in fields:
                raise bad(f"{key}= is given twice")
            fields.add(key)
            if key == "turn":
                if value.lower() == "opening":
                    opening = True
                elif value.upper() in geo.letters:
                    seat = geo.letters.index(value.upper())
                else:
                    raise bad(f"turn={value}: expected one of {', '.join(geo.letters)}"
                              f"{' or opening' if game.opening_roll else ''}")
            elif key == "end":
                end = value.lower().replace("_", "-")
                if end not in END_WORDS:
                    raise bad(f"end={value}: expected one of {', '.join(END_WORDS)}")
            elif key == "dice":
                m = re.fullmatch(r"([1-6])-([1-6])", value)
                if not m:
                    raise bad(f"dice={value}: expected two dice such as 6-4")
                a, b = int(m[1]), int(m[2])
                dice = (max(a, b), min(a, b))
            elif key == "plies":
                plies = _plies(game, value, bad)
            else:
                raise bad(f"unknown field {key!r} (fields: turn=, end=, dice=, plies=)")
            continue
        letter, colon, items = field.partition(":")
        if not colon or letter.upper() not in geo.letters:
            raise bad(f"{field!r}: expected a seat group such as "
                      f"{geo.letters[0]}:1x2,h13 (seats {', '.join(geo.letters)})")
        q = geo.letters.index(letter.upper())
        if q in seen:
            raise bad(f"seat {letter.upper()} is given twice")
        seen.add(q)
        given: set[str] = set()
        for item in filter(None, items.split(",")):
            m = _ITEM.match(item)
            if not m:
                raise bad(f"{item!r}: expected S, SxN, hN, barN, offN, placeN or left")
            if any(len(digits.lstrip("0")) > 3 for digits in (m[1], m[2], m[4]) if digits):
                raise bad(f"{item[:24]!r}: too large a number for a space or a count")
            what = (m[3] or m[5] or f"space {int(m[1])}").lower()
            if what in given:
                raise bad(f"{letter.upper()}: {what} is given twice"
                          + (f" (write {int(m[1])}xN for N figures)" if m[1] else ""))
            given.add(what)
            if m[1]:
                space, many = int(m[1]), int(m[2] or 1)
                if not 1 <= space <= geo.spaces:
                    raise bad(f"{item!r}: spaces run 1-{geo.spaces}")
                counts[q][space - 1] += many
            elif m[5]:
                out[q] = True
            else:
                number = int(m[4])
                kind = m[3].lower()
                if kind == "h":
                    hand[q] = number
                elif kind == "bar":
                    bar[q] = number
                elif kind == "off":
                    off[q] = number
                else:
                    if not 1 <= number <= n:
                        raise bad(f"{item!r}: places run 1-{n}")
                    places[q] = number
    if len(seen) != n:
        missing = [geo.letters[q] for q in range(n) if q not in seen]
        raise bad(f"no group for seat {', '.join(missing)}")
    for q in range(n):
        hand[q] = _figures(game, q, counts[q], hand[q], bar[q], off[q], out[q], bad)
    _check_spaces(game, counts, bad)
    if end is not None and (seat is not None or opening or dice is not None):
        given = "dice=" if seat is None and not opening else "turn="
        raise bad(f"{given} and end=: give turn= (and dice=) for a game in play, or end= for "
                  "a finished game, not both")
    if opening:
        fresh = all(hand[q] == geo.figures - 2 and counts[q][geo.starts[q]] == 2
                    for q in range(n))
        if not game.opening_roll or not fresh:
            raise bad("turn=opening: only a Tawula start with opening=roll begins with the "
                      "roll-off")
        seat = 0
    if seat is None and end is None:
        raise bad(f"no turn= field: name the seat to move (turn={geo.letters[0]}), or give "
                  "end= for a finished game")
    if dice is not None and opening:
        raise bad("the opening roll-off has no dice yet")
    state = RaceState(tuple(tuple(row) for row in counts), tuple(h or 0 for h in hand),
                      tuple(bar), tuple(off), seat=seat or 0, dice=dice, opening=opening,
                      plies=plies, places=tuple(places), out=tuple(out),
                      ended=END_WORDS[end] if end is not None else None, last_roll=dice)
    state = state._replace(places=standing.places(game, state, bad))
    if end is None:
        standing.check_turn(game, state, bad)
    else:
        standing.check_end(game, state, end, bad)
    return state


def _plies(game: RaceRules, value: str, bad: Callable[[str], GameError]) -> int:
    """The player actions played so far: a whole number up to the game's ``max_plies``."""
    if not re.fullmatch(r"[0-9]+", value):
        raise bad(f"plies={value[:24]}: expected a whole number of player actions")
    digits = value.lstrip("0") or "0"
    if len(digits) > len(str(game.cap)) or int(digits) > game.cap:
        shown = value if len(value) <= 24 else value[:20] + "..."
        raise bad(f"plies={shown}: more player actions than max_plies={game.cap}; the game is "
                  f"drawn when it reaches them ({game.cite('D13')})")
    return int(digits)


def _figures(game: RaceRules, q: int, row: list[int], hand: int | None, bar: int, off: int,
             gone: bool, bad: Callable[[str], GameError]) -> int:
    """Check that seat ``q`` has all its figures; return how many are in hand. A seat that
    left Track Gammon took every figure not borne off with it (D12)."""
    geo = game.geo
    letter, colour = geo.letters[q], geo.colours[q]
    placed = sum(row) + bar + off
    if gone and off >= geo.figures:
        raise bad(f"{colour} has borne off all {geo.figures} figures, so it finished and "
                  "cannot have left")
    if gone and geo.seats > 2:
        if sum(row) or bar or hand:
            raise bad(f"{colour} left the game (D12), so none of its figures stays on the "
                      "board, on the bar or in hand")
        return 0
    rest = geo.figures - placed if hand is None else hand
    if placed + rest != geo.figures or rest < 0:
        raise bad(f"{letter} has {placed + max(rest, 0)} figures, not {geo.figures}")
    return rest


def _check_spaces(game: RaceRules, counts: list[list[int]],
                  bad: Callable[[str], GameError]) -> None:
    """One colour per ordinary space, one figure per colour on a special space, the packing
    limit and the start limit of every seat (D6)."""
    geo = game.geo
    for s in range(geo.spaces):
        colours = [q for q in range(geo.seats) if counts[q][s]]
        if len(colours) > 1 and not geo.is_special_space(s):
            raise bad(f"space {s + 1} holds figures of {len(colours)} colours")
        for q in colours:
            r = geo.rel[q][s]
            if counts[q][s] > geo.cap[r]:
                raise bad(f"{geo.letters[q]} has {counts[q][s]} figures on {s + 1}; at most "
                          f"{geo.cap[r]} may stand there")
