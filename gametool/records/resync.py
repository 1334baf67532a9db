"""Reading on after a rejected action (``validate --all``): the actions most likely meant in
its place, so that one typo gives one error rather than a cascade of actions read for the
wrong seat.

The search is over the game alone (a state, the seat written on the next line, the next written
actions); the record applies what it returns.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from gametool.core.engine import CHANCE, Game
from gametool.core.errors import GameError, MalformedAction

if TYPE_CHECKING:
    from difflib import SequenceMatcher

    from notation import record as gtn

RESYNC_WINDOW = 48
"""The written actions after a rejected one are looked for in at most this many lines after
it (a variation counts as one): the record is read as a stream, and only these are held
ahead of the line being checked."""
RESYNC_LOOKAHEAD = 16
"""Written actions tried after a guessed completion of a rejected turn (validate --all)."""
RESYNC_DEPTH = 2
RESYNC_BREADTH = 400
"""At most this many actions (over at most two per completion) are tried in place of one."""
RESYNC_TURN = 50
"""A turn is completed action by action (the first legal one) up to this many actions."""


def completion(game: Game, state: Any, seat: int, rejected: str,
               upcoming: list[tuple[int, str]]) -> list[tuple[int, Any]]:
    """After a rejected action, bring ``seat`` (written on the next line) to move.

    The rejected action's turn is completed by the legal actions (at most two) after which
    the most of the ``upcoming`` written actions apply, the nearest in spelling to the
    ``rejected`` text among equals (a typo is most often near the action meant), so that
    one typo gives one error rather than a cascade of actions read for the wrong seat.
    Returns those actions as (seat, action), to be applied with no record line; none when
    ``seat`` is to move already or no completion brings it to move.
    """
    if game.to_move(state) == seat:
        return []
    best: list[tuple[int, Any]] = []
    best_score: tuple[int, float] = (-1, 0.0)
    wanted = rejected.lower()
    malformed: set[str] = set()
    from difflib import SequenceMatcher  # (loaded when a record needs mending)

    matcher = SequenceMatcher(None, wanted, "")
    nearness: dict[int, float] = {}
    if not _reads_next(game, state, upcoming, malformed):
        # No written action after the rejected one reads: only the spelling can choose,
        # so the nearest first action that brings ``seat`` to move wins, tried in order.
        near = _nearest_completion(game, state, seat, wanted)
        if near is not None:
            return near
    frontier: list[tuple[Any, list[tuple[int, Any]]]] = [(state, [])]
    budget = RESYNC_BREADTH
    for _depth in range(RESYNC_DEPTH):
        following = []
        for here, path in frontier:
            mover = game.to_move(here)
            if budget <= 0:
                break
            if mover is None or mover == CHANCE:
                continue
            for action in game.legal_actions(here)[:budget]:
                budget -= 1
                steps = path + [(mover, action)]
                after = _with_forced_chance(game, here, action, seat, steps)
                if game.to_move(after) != seat:
                    following.append((after, steps))
                    continue
                reach = _lookahead(game, after, upcoming, malformed)
                if reach < best_score[0]:
                    continue
                # The spelling only breaks ties, and depends only on the first action.
                key = id(steps[0][1])  # a first action, alive for the whole search
                near = nearness.get(key)
                if near is None:
                    matcher.set_seq2(game.format_action(state, steps[0][1]).lower())
                    if reach == best_score[0] and matcher.quick_ratio() <= best_score[1]:
                        continue  # an upper bound of the nearness: it cannot win
                    near = nearness[key] = matcher.ratio()
                score = (reach, near)
                if score > best_score:
                    best, best_score = steps, score
        if best:
            break
        frontier = following
    return best or _complete_turns(game, state, seat)


def _reads_next(game: Game, state: Any, upcoming: list[tuple[int, str]],
                malformed: set[str]) -> bool:
    """False when the first upcoming written action does not read as an action of the game
    at all (it is then added to ``malformed``): no candidate can make it apply."""
    if not upcoming:
        return False
    text = upcoming[0][1]
    try:
        game.parse_action(state, text)
    except MalformedAction:
        malformed.add(text)
        return False
    except GameError:
        pass
    return True

def _nearest_completion(game: Game, state: Any, seat: int, wanted: str
                        ) -> list[tuple[int, Any]] | None:
    """The legal action nearest in spelling to ``wanted`` after which ``seat`` is to move
    (with the forced chance actions after it), the first in legal order among equals."""
    mover = game.to_move(state)
    if mover is None or mover == CHANCE:
        return None
    from difflib import SequenceMatcher

    matcher = SequenceMatcher(None, wanted, "")
    actions = game.legal_actions(state)[:RESYNC_BREADTH]
    # In order of nearness, each action's ratio worked out only when its upper bounds
    # could still put it first: (key, index, stage), key -bound or -ratio. Stage 0 bounds
    # it from its stem where the game has one (its text may have one more character),
    # stage 1 from its text's characters, stage 2 is the ratio.
    signs = game.stem_signs
    written: list[str] = []  # each action's stem, or its text where it has none
    stemmed: list[bool] = []
    for action in actions:
        stem = game.action_stem(state, action)
        stemmed.append(stem is not None)
        written.append((stem if stem is not None else game.format_action(state, action)
                        ).lower())
    # Only the characters of ``wanted`` that some action's text may hold can be shared: the
    # others are left out of every bound (a stem's text gains at most one of ``signs``).
    chars = set("".join(written))
    if any(stemmed):
        chars.update(signs if signs is not None else wanted)
    tally: dict[str, int] = {}
    for char in wanted:
        if char in chars:
            tally[char] = tally.get(char, 0) + 1
    counts = Counts(tally)
    if not counts:
        # No action shares a character with ``wanted``: every ratio is 0, so the first
        # action in legal order that brings ``seat`` to move is the nearest.
        for action in actions:
            steps = [(mover, action)]
            after = _with_forced_chance(game, state, action, seat, steps)
            if game.to_move(after) == seat:
                return steps
        return None
    size = len(wanted)
    # The sign a stem may lack can only add to the characters shared with ``wanted`` when
    # ``wanted`` holds one of the signs; otherwise the stem's bound needs no extra character
    # (the full text only grows longer).
    more = 1 if signs is None or any(sign in counts for sign in signs) else 0
    texts: list[str | None] = []
    heap: list[tuple[float, int, int]] = []
    for index, seen in enumerate(written):
        if stemmed[index]:
            texts.append(None)
            heap.append((-_ratio_of(_shared(counts, seen, more), size, seen, more), index, 0))
        else:
            texts.append(seen)
            shared = _shared(counts, seen)
            # at most one character shared: the ratio is this bound (a run of one)
            heap.append((-_ratio_of(shared, size, seen), index, 1 if shared > 1 else 2))
    heapq.heapify(heap)
    while heap:
        _key, index, stage = heapq.heappop(heap)
        action = actions[index]
        if stage == 0:
            text = texts[index] = game.format_action(state, action).lower()
            shared = _shared(counts, text)
            heapq.heappush(heap, (-_ratio_of(shared, size, text), index,
                                  1 if shared > 1 else 2))
            continue
        if stage == 1:
            heapq.heappush(heap, (-_ratio(wanted, texts[index] or "", matcher), index, 2))
            continue
        steps = [(mover, action)]
        after = _with_forced_chance(game, state, action, seat, steps)
        if game.to_move(after) == seat:
            return steps
    return None

def _complete_turns(game: Game, state: Any, seat: int) -> list[tuple[int, Any]]:
    """The first legal actions, one after another, until ``seat`` is to move (a long turn
    that lost several actions); none if that takes more than RESYNC_TURN actions."""
    steps: list[tuple[int, Any]] = []
    while len(steps) < RESYNC_TURN:
        mover = game.to_move(state)
        if mover == seat:
            return steps
        if mover is None:
            return []
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            if outcomes is None or len(outcomes) != 1:
                return []
            action = outcomes[0]
        else:
            actions = game.legal_actions(state)
            if not actions:
                return []
            action = actions[0]
        steps.append((mover, action))
        state = game.apply(state, action)
    return []


def _with_forced_chance(game: Game, state: Any, action: Any, seat: int,
                        steps: list[tuple[int, Any]]) -> Any:
    """The state after ``action`` and the chance actions with one outcome that follow it
    (added to ``steps``), unless the seat to bring to move is chance itself."""
    after = game.apply(state, action)
    while seat != CHANCE and game.to_move(after) == CHANCE:
        outcomes = game.chance_outcomes(after)
        if outcomes is None or len(outcomes) != 1:
            break
        steps.append((CHANCE, outcomes[0]))
        after = game.apply(after, outcomes[0])
    return after


def _ratio(wanted: str, text: str, matcher: SequenceMatcher) -> float:
    """``SequenceMatcher(None, wanted, text).ratio()``, worked out without the matcher for a
    short ``text`` (every action's text): the same blocks, found the same way (the longest
    common run, the first in ``wanted`` and then in ``text`` among equals, then the same on
    each side of it), with less bookkeeping. ``matcher`` (whose first text is ``wanted``)
    serves a long ``text``, where difflib also sets aside the most frequent characters."""
    total = len(wanted) + len(text)
    if len(text) >= 200:
        matcher.set_seq2(text)
        return matcher.ratio()
    where: dict[str, list[int]] = {}
    for j, char in enumerate(text):
        where.setdefault(char, []).append(j)
    matched = 0
    todo = [(0, len(wanted), 0, len(text))]
    while todo:
        alo, ahi, blo, bhi = todo.pop()
        besti, bestj, bestsize = alo, blo, 0
        runs: dict[int, int] = {}
        for i in range(alo, ahi):
            found = where.get(wanted[i])
            fresh: dict[int, int] = {}
            if found:
                for j in found:
                    if j < blo:
                        continue
                    if j >= bhi:
                        break
                    k = fresh[j] = runs.get(j - 1, 0) + 1
                    if k > bestsize:
                        besti, bestj, bestsize = i - k + 1, j - k + 1, k
            runs = fresh
        if bestsize:
            matched += bestsize
            if alo < besti and blo < bestj:
                todo.append((alo, besti, blo, bestj))
            if besti + bestsize < ahi and bestj + bestsize < bhi:
                todo.append((besti + bestsize, ahi, bestj + bestsize, bhi))
    return 2.0 * matched / total if total else 1.0


def _shared(counts: Counts, text: str, more: int = 0) -> int:
    """The characters that ``text`` shares with the ``wanted`` text whose characters
    ``counts`` counts (as many times as both hold them), plus ``more``: with ``more`` = 1 a
    bound for ``text`` and for ``text`` with one character more. ``counts`` is a
    :class:`Counts` (the characters ``wanted`` holds once are counted in one step)."""
    shared = more + len(counts.once.intersection(text))
    for char, wanted in counts.many:
        found = text.count(char)
        shared += found if found < wanted else wanted
    return shared


class Counts(dict[str, int]):
    """How many times each character is in a text, split for :func:`_shared`: ``once`` the
    characters it holds once, ``many`` the others with their counts."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__(counts)
        self.once = frozenset(char for char, count in counts.items() if count == 1)
        self.many = tuple((char, count) for char, count in counts.items() if count > 1)


def _ratio_of(shared: int, size: int, text: str, more: int = 0) -> float:
    """``SequenceMatcher(None, wanted, text).quick_ratio()`` for the ``wanted`` text of
    length ``size`` sharing ``shared`` characters with ``text`` (see :func:`_shared`): the
    characters shared over the mean length, an upper bound of the ratio, and the ratio itself
    when at most one character is shared. Worked out here without the matcher's index of
    ``text``, which costs more.

    With ``more`` = 1 the bound holds for ``text`` and for ``text`` with one character
    more (2(m + 1) / (n + 1) is at least 2m / n whenever n >= m)."""
    total = size + len(text) + more
    return 2.0 * shared / total if total else 1.0


def _lookahead(game: Game, state: Any, upcoming: list[tuple[int, str]],
               malformed: set[str] | None = None) -> int:
    """How many of the written ``upcoming`` actions apply one after another from ``state``.

    ``malformed`` collects the texts that do not read as an action of the game at all: they
    are not read again (reading a text against the grammar is the costly part), so a search
    over many candidate states costs little when the next lines are damaged too."""
    count = 0
    for seat, text in upcoming:
        if malformed is not None and text in malformed:
            break
        while seat != CHANCE and game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            if outcomes is None or len(outcomes) != 1:
                break
            state = game.apply(state, outcomes[0])
        if game.to_move(state) != seat:
            break
        try:
            state = game.apply(state, game.parse_action(state, text))
        except MalformedAction:
            if malformed is not None:
                malformed.add(text)
            break
        except GameError:
            break
        count += 1
    return count


def nothing_ahead(offset: int) -> None:
    """Nothing: what a body read to its end holds ahead."""
    return None


class Items:
    """The items of a parsed body one after another, with a look at the next few."""

    def __init__(self, body: list[gtn.Item]) -> None:
        self.body = body
        self.index = 0

    def __iter__(self) -> Items:
        return self

    def __next__(self) -> gtn.Item:
        if self.index >= len(self.body):
            raise StopIteration
        self.index += 1
        return self.body[self.index - 1]

    def ahead(self, offset: int) -> gtn.Item | None:
        at = self.index + offset
        return self.body[at] if offset < RESYNC_WINDOW and at < len(self.body) else None
