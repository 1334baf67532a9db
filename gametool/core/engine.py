"""The game protocol: stateless rules, immutable states, actions, chance, views and outcomes.

A game is a subclass of :class:`Game`. An instance holds the rules with their options resolved
and nothing else; every position is an immutable state object that the game creates and
transforms. Seats are numbered from 0 in turn order; the chance pseudo-seat is ``CHANCE``.
Seat names belong to the record, never to the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from gametool.core.chance import SeedRng
from gametool.core.errors import GameError, IllegalAction, MalformedAction
from notation.patterns import lazy

if TYPE_CHECKING:
    from gametool.core.diagram import Diagram

CHANCE = -1
"""The seat index of the chance pseudo-seat (dice, shuffles, deals, coin tosses)."""

REFEREE = -2
"""The seat a game's ``view``, ``render`` and ``diagram`` are asked for to show the master
record as the referee holds it: every hidden value shown. Only games that hide something (their
``hidden``) are asked; for the others the referee sees what a spectator sees (None)."""

RESIGN = "resign"
"""The text of the resignation action that every game accepts from the seat to move."""

HIDDEN_VALUE = "?"
"""How a record exported for one seat writes a value that seat cannot see."""

REMEMBER_ALL = True
"""Whether a game may remember all it reads for what this process reads later (a program that
imports records, then checks them). The command line sets it False: one command reads each
record once, so a game remembers only what the next records may meet again (openings)."""

GUESSES = 200
"""How many positions or chance actions :meth:`Game.assume_action` tries before giving up."""

OPTION_MAXIMUM = 1_000_000
_WHOLE = lazy(r"[+-]?[0-9]+")
"""The largest value of a whole-number option that names no maximum of its own (plies, points,
rounds): larger ones are refused before any work depends on them."""

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Option:
    """A named rule option with its default; the record stores the non-default ones."""

    name: str
    default: str
    choices: tuple[str, ...] | None = None
    kind: type = str
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None

    def convert(self, text: str) -> Any:
        """Turn the option's text into its value, or raise a GameError saying why not."""
        value = str(text).strip()
        if self.choices is not None:
            lowered = value.lower()
            if lowered not in self.choices:
                raise GameError(
                    f"option {self.name}={value}: expected one of {', '.join(self.choices)}"
                )
            return lowered
        if self.kind is int:
            if len(value) > 12:
                raise GameError(f"option {self.name}={value[:20]}...: a number of "
                                f"{len(value):,} characters is too long")
            if not _WHOLE.fullmatch(value):  # ASCII digits only: int() takes others, and "1_0"
                raise GameError(f"option {self.name}={value}: expected a whole number")
            number = int(value)
            if self.minimum is not None and number < self.minimum:
                raise GameError(f"option {self.name}={value}: at least {self.minimum}")
            maximum = OPTION_MAXIMUM if self.maximum is None else self.maximum
            if number > maximum:
                raise GameError(f"option {self.name}={value}: at most {maximum}")
            return number
        return value

    def describe(self) -> str:
        values = "|".join(self.choices) if self.choices else ("N" if self.kind is int else "TEXT")
        return f"{self.name}={values} (default {self.default})"


@dataclass(frozen=True)
class SeatResult:
    """One seat's result: win, loss or draw, its rank (1 is best) and its score if any."""

    result: str
    rank: int
    score: int | float | None = None


@dataclass(frozen=True)
class Outcome:
    """Why the game ended and what each seat got, never squeezed into one value."""

    termination: str
    results: tuple[SeatResult, ...]

    @classmethod
    def win(
        cls, nseats: int, winner: int, termination: str, scores: Sequence[float] | None = None
    ) -> Outcome:
        """One winner, every other seat loses (ranked 2)."""
        return cls(
            termination,
            tuple(
                SeatResult("win" if i == winner else "loss", 1 if i == winner else 2,
                           None if scores is None else scores[i])
                for i in range(nseats)
            ),
        )

    @classmethod
    def draw(cls, nseats: int, termination: str, scores: Sequence[float] | None = None) -> Outcome:
        return cls(
            termination,
            tuple(SeatResult("draw", 1, None if scores is None else scores[i])
                  for i in range(nseats)),
        )

    @classmethod
    def by_scores(
        cls, scores: Sequence[float], termination: str, higher_wins: bool = True
    ) -> Outcome:
        """Rank seats by score. A unique best seat wins; seats tied for best draw; others lose."""
        sign = -1 if higher_wins else 1
        ordered = sorted(set(scores), key=lambda v: sign * v)
        ranks = [1 + sum(1 for other in scores if sign * other < sign * mine) for mine in scores]
        best = ordered[0]
        tied = sum(1 for v in scores if v == best)
        results = []
        for i, value in enumerate(scores):
            if len(scores) == 1:
                kind = "win"
            elif value == best:
                kind = "win" if tied == 1 else "draw"
            else:
                kind = "loss"
            results.append(SeatResult(kind, ranks[i], value))
        return cls(termination, tuple(results))

    @classmethod
    def from_tag(cls, tag: str, nseats: int, termination: str) -> Outcome:
        """The outcome a Result tag states: ``1-0``, ``0-1``, ``1/2-1/2`` for two seats, else
        each seat's rank joined by ``-`` (``1-2-2``). GameError if it states none."""
        return _outcome_of_tag(cls, tag, nseats, termination)

    @classmethod
    def _from_tag(cls, tag: str, nseats: int, termination: str) -> Outcome:
        text = tag.strip()
        if nseats == 2 and text in ("1-0", "0-1"):
            return cls.win(2, 0 if text == "1-0" else 1, termination)
        if nseats == 2 and text in ("1/2-1/2", "½-½"):
            return cls.draw(2, termination)
        parts = text.split("-")
        if (len(parts) == nseats and all(p.isdigit() for p in parts)
                and all(1 <= int(p) <= nseats for p in parts) and "1" in parts):
            ranks = [int(p) for p in parts]
            first = ranks.count(1)
            return cls(termination, tuple(
                SeatResult("loss" if rank > 1 else "win" if first == 1 else "draw", rank)
                for rank in ranks))
        expected = "1-0, 0-1 or 1/2-1/2" if nseats == 2 else "each seat's rank, e.g. 1-2"
        raise GameError(f"result {tag!r}: expected {expected}")

    @property
    def winners(self) -> list[int]:
        return [i for i, r in enumerate(self.results) if r.result == "win"]

    def result_tag(self) -> str:
        """The value of the record's Result tag: PGN style for two seats, else ranks."""
        kinds = [r.result for r in self.results]
        if len(kinds) == 2 and set(kinds) <= {"win", "loss", "draw"}:
            if kinds == ["win", "loss"]:
                return "1-0"
            if kinds == ["loss", "win"]:
                return "0-1"
            if kinds == ["draw", "draw"]:
                return "1/2-1/2"
        return "-".join(str(r.rank) for r in self.results)

    def to_json(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "termination": self.termination,
            "tag": self.result_tag(),
            "seats": {
                names[i]: {"result": r.result, "rank": r.rank, "score": r.score}
                for i, r in enumerate(self.results)
            },
        }


_OPTION_TABLES: dict[type, tuple[tuple[Any, ...], dict[str, Any], dict[str, Any]]] = {}


def _option_table(cls: type[Game[Any, Any]]
                  ) -> tuple[tuple[Option, ...], dict[str, Option], dict[str, Any]]:
    """A game class's options: the tuple they are read from, each by name, and the value of
    each default (made once per class, again if the class's options are replaced)."""
    entry = _OPTION_TABLES.get(cls)
    if entry is None or entry[0] is not cls.options:
        options = cls.options
        entry = _OPTION_TABLES[cls] = (options, {o.name: o for o in options},
                                       {o.name: o.convert(o.default) for o in options})
    return entry


@lru_cache(maxsize=64)
def _outcome_of_tag(cls: type[Outcome], tag: str, nseats: int, termination: str) -> Outcome:
    """:meth:`Outcome.from_tag`, made once for the few results and reasons archives repeat
    (an outcome never changes)."""
    return cls._from_tag(tag, nseats, termination)


@dataclass(frozen=True)
class GameInfo:
    """Declared metadata of a game, shown by ``gametool list``."""

    id: str
    name: str
    min_players: int
    max_players: int
    chance: str
    hidden: str
    status: str


class Game(Generic[S, A]):
    """The rules of one game, with its options resolved. Stateless: it never changes.

    Subclasses declare metadata as class attributes and implement the abstract methods. An action
    is any hashable value; its text form comes from :meth:`format_action` and is read back by
    :meth:`parse_action`, which also checks legality and so returns only actions that
    :meth:`apply` may take.
    """

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int | None] = None
    seat_names: ClassVar[tuple[str, ...]] = ()
    names_seats: ClassVar[bool] = False
    """True if the game's texts (actions, messages, views) name seats, always by
    :func:`seat_text`; the record puts its own names in their place."""
    notation_words: ClassVar[frozenset[str]] = frozenset()
    """Where actions name seats: the words of the notation (lower case) that a seat name may
    not be, since ``deal ann: ...`` for a seat named ``deal`` reads two ways."""
    notation_tokens: ClassVar[str] = ""
    """Where actions name seats: a regular expression for the other tokens of the notation
    (cards, tiles, squares, numbers) that a seat name may not be."""
    names_seats_in_actions: ClassVar[bool] = True
    """False where, of the game's texts, only the views and the drawn position name seats
    (never an action or a message): actions are then read and written untranslated."""
    chance: ClassVar[str] = ""
    hidden: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    status: ClassVar[str] = "playable"
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    notation: ClassVar[str] = ""
    max_plies: ClassVar[int] = 10_000
    """An upper bound on the plies of any game (the conformance suite checks it)."""
    draws: ClassVar[bool] = False
    """True where a game can end drawn, so that players may agree to a draw (the referee's
    '#draw' by mail)."""
    leave_action: ClassVar[str] = ""
    """The action by which a seat leaves while the others play on (as the rules allow it, e.g.
    'resign'); empty where a seat leaving ends the game. A seat out of time leaves this way."""
    mail_days: ClassVar[int] = 7
    """The days a seat has for each move in a game refereed by mail, unless told otherwise."""
    lower_scores_win: ClassVar[bool] = False
    """True where the lowest score wins (penalty points); used by :meth:`evaluate`."""
    board_in_text: ClassVar[bool] = False
    """True where ``show`` draws the text board from :meth:`diagram` (turned for the second
    seat like the picture) and :meth:`render` gives only what follows the board."""
    scores_in_render: ClassVar[bool] = False
    """True where :meth:`render` already draws every seat's score (a score sheet with totals),
    so that ``show`` adds no table of scores of its own."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.settings: dict[str, Any] = self.resolve_options(options or {})

    # -- metadata -------------------------------------------------------------------------

    @classmethod
    def info(cls) -> GameInfo:
        return GameInfo(cls.id, cls.name, cls.min_players, cls.max_players,
                        cls.chance or "none", cls.hidden or "none", cls.status)

    @classmethod
    def players_default(cls) -> int:
        return cls.default_players or cls.min_players

    @classmethod
    def default_seat_names(cls, nseats: int) -> list[str]:
        if len(cls.seat_names) >= nseats:
            return list(cls.seat_names[:nseats])
        return [f"p{i + 1}" for i in range(nseats)]

    @classmethod
    def resolve_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with the given options, each checked and converted."""
        _options, declared, defaults = _option_table(cls)
        values = dict(defaults)
        for name, text in given.items():
            key = str(name).strip().lower()
            if key not in declared:
                from gametool.core.suggest import hint

                known = ", ".join(declared) or "none"
                raise GameError(f"{cls.id} has no option {key!r}{hint(key, declared)} "
                                f"(options: {known})")
            values[key] = declared[key].convert(text)
        return values

    def non_default_options(self) -> list[tuple[str, str]]:
        """The options that differ from their defaults, in declaration order, as text (worked
        out once: a game's options never change)."""
        known = self.__dict__.get("_non_default")
        if known is None:
            defaults, settings = _option_table(type(self))[2], self.settings
            known = self.__dict__["_non_default"] = tuple(
                (opt.name, str(settings[opt.name])) for opt in self.options
                if settings[opt.name] != defaults[opt.name])
        return list(known)

    # -- the rules (to implement) -----------------------------------------------------------

    def initial_state(self, nseats: int) -> S:
        raise NotImplementedError

    def to_move(self, state: S) -> int | None:
        """The seat to act, ``CHANCE``, or None once the game is over."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[A]:
        """Every legal action of the seat to move (a player seat), without duplicates."""
        raise NotImplementedError

    def chance_outcomes(self, state: S) -> list[A] | None:
        """Every possible chance action when chance is to move, or None if too many to list."""
        return None

    def sample_chance(self, state: S, rng: SeedRng) -> A:
        """Draw the chance action from a seeded stream."""
        raise NotImplementedError

    def apply(self, state: S, action: A) -> S:
        """The next state; the action must be legal. Never mutates ``state``."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def parse_action(self, state: S, text: str) -> A:
        """Read an action for the seat to move; raise Malformed, Illegal or AmbiguousAction."""
        raise NotImplementedError

    def format_action(self, state: S, action: A) -> str:
        """The canonical text of an action in the state before it."""
        raise NotImplementedError

    stem_signs: ClassVar[str | None] = None
    """The characters that the one character ``format_action`` may add to ``action_stem``'s
    text can be (``"+#"`` for a check or mate sign); None: any character."""

    def action_stem(self, state: S, action: A) -> str | None:
        """The canonical text of an action without a last sign that is costly to work out (a
        check or mate sign): ``format_action`` gives this text, or this text and one character
        more (one of ``stem_signs``). Comparing spellings of many actions (resynchronising
        after a damaged line) uses it to skip the costly sign where it cannot matter. None: no
        cheaper text."""
        return None

    def known_step(self, state: S, seat: int, text: str) -> S | None:
        """The state after ``seat`` wrote ``text`` in ``state``, when the game knows it without
        reading the text again (it read exactly that text in exactly that state before, and
        kept what followed); None otherwise, and always by default. What it gives is what
        ``parse_action``, ``to_move`` and ``apply`` would: checking a record may take it
        instead."""
        return None

    def read_step(self, state: S, seat: int, text: str) -> S | None:
        """The state after ``seat`` wrote ``text`` in ``state``, when the text names a legal
        action of that seat, the one to move; None otherwise (the general reading then says
        what is wrong). What ``known_step``, then ``parse_action``, ``to_move`` and ``apply``
        give, which is how this reads it; a game may read its commonest texts a shorter way
        (checking a record takes it for each plain turn)."""
        after = self.known_step(state, seat, text)
        if after is not None:
            return after
        try:
            action = self.parse_action(state, text)
        except Exception:  # noqa: BLE001 - read again the general way, which says what
            return None
        if self.to_move(state) != seat:
            return None
        return self.apply(state, action)

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """The position as ``seat`` may see it (None: a spectator; ``REFEREE``: everything the
        master record holds), as JSON-able data."""
        raise NotImplementedError

    def render(self, state: S, seat: int | None, names: Sequence[str]) -> str:
        """The position drawn as text for ``seat``, from what that seat may see."""
        raise NotImplementedError

    def diagram(self, state: S, seat: int | None, names: Sequence[str]) -> Diagram:
        """The position as a :class:`~gametool.core.diagram.Diagram` (boards, tracks, rows of cards,
        panels), built from what ``seat`` may see; pictures and text boards are drawn from it."""
        raise NotImplementedError

    # -- optional parts ------------------------------------------------------------------------

    def scores(self, state: S) -> list[int | float] | None:
        """The running score of every seat, for games that keep one."""
        return None

    def race(self, state: S) -> list[int] | None:
        """For a race game, how far every seat still has to go (pips left), else None."""
        return None

    def score_table(self, state: S, seat: int | None) -> tuple[list[str], list[list[Any]]] | None:
        """An optional detailed score table (headers, rows) for ``show``."""
        return None

    def evaluate(self, state: S, seat: int) -> float:
        """How good ``state`` looks for ``seat``, higher is better (the greedy player's guide).

        The default: a finished game is worth +/-1e9 by its result (0 for a draw); otherwise the
        seat's score against the best other score, or 0 in a game without scores. Games with a
        better measure (material, pip count, mobility) override it.
        """
        outcome = self.outcome(state)
        if outcome is not None:
            result = outcome.results[seat].result
            return 1e9 if result == "win" else -1e9 if result == "loss" else 0.0
        scores = self.scores(state)
        if not scores:
            return 0.0
        sign = -1.0 if self.lower_scores_win else 1.0
        others = [sign * v for i, v in enumerate(scores) if i != seat]
        return sign * scores[seat] - (max(others) if others else 0.0)

    def perft_refusal(self, state: S) -> str | None:
        """Why ``perft`` cannot count the turns from ``state`` (None: it can).

        Games whose turns are built from many actions (a whole fleet, a salvo) say so here,
        rather than let a count run for ever.
        """
        return None

    def perft_seat(self, state: S) -> int | None:
        """The seat whose turn ``perft`` counts from ``state``, ``CHANCE``, or None where the
        count stops. The seat to move by default; a game whose rules have perft go on through
        automatic ends (chess: dead positions, repetition, the 75-move rule) overrides it."""
        return self.to_move(state)

    def perft_actions(self, state: S) -> list[A]:
        """The actions ``perft`` counts: the moves. Every legal action by default; a game with
        actions that are not moves (a draw claim) leaves them out here."""
        return self.legal_actions(state)

    def perft(self, state: S, depth: int) -> int:
        """The perft count from ``state``: the generic walk (:func:`walk_perft`), which a game
        with a faster counter of its own replaces; tests compare the two."""
        return walk_perft(self, state, depth)

    def next_step(self, state: S) -> str | None:
        """What the seat to move must do when it has no action to list here (a step taken
        with another command, such as a commitment from a private file); None: nothing."""
        return None

    def describe_action(self, state: S, action: A) -> str | None:
        """A short note on what an action did, e.g. a card revealed; None for nothing to add.

        It is shown to every seat and to spectators, so it may say only what all of them see.
        """
        return None

    def randomize_hidden(self, state: S, seat: int | None, rng: SeedRng) -> S:
        """A state that differs from ``state`` only in what ``seat`` cannot see."""
        return state

    def mask_action(self, before: S, action: A, final: S, seat: int | None) -> str:
        """The text of an action as ``seat`` may read it in ``final``; hidden values as ``?``."""
        return self.format_action(before, action)

    def mask_record(self, states: Sequence[S], actions: Sequence[A],
                    seat: int | None) -> list[str]:
        """The text of every action of a record (``states[i]`` is the position before
        ``actions[i]``; the last state is the final one) as ``seat`` may read it at the end.

        By default each action is masked on its own against the final position; a game where a
        value a seat saw once may later be hidden again overrides this, so that the record
        keeps everything the seat has seen.
        """
        final = states[-1]
        return [self.mask_action(states[i], action, final, seat)
                for i, action in enumerate(actions)]

    def assume_action(self, state: S, seat: int | None, text: str,
                      rng: SeedRng) -> tuple[S, A]:
        """Read ``text`` from a record exported for ``seat``, in a position known to that seat
        only up to what it cannot see (``state`` is one guess at it).

        Returns a position that differs from ``state`` only in what ``seat`` cannot see and in
        which the action is possible, with the action. A text with hidden values (``?``) stands
        for any action that ``seat`` reads so. An action that the guess does not allow (a card
        played from a hand the seat cannot see) is tried again after :meth:`arrange_hidden`,
        then in guesses redrawn by :meth:`randomize_hidden`.
        """
        if self.to_move(state) is None:
            return state, self.parse_action(state, text)
        if self.hidden in ("", "none"):  # nothing to guess: read as in the master record
            if HIDDEN_VALUE in text.split():
                raise MalformedAction(f"'{HIDDEN_VALUE}' stands for a hidden value, and "
                                      f"{self.name} hides nothing (every action is written in "
                                      "full)")
            return state, self.parse_action(state, text)
        first: GameError | None = None
        guess = state
        for attempt in range(GUESSES):
            try:
                if HIDDEN_VALUE in text:
                    return guess, self.guess_hidden_action(guess, seat, text, rng)
                return guess, self.parse_action(guess, text)
            except IllegalAction as exc:
                first = first or exc
            guess = self.randomize_hidden(state, seat, rng)
            if attempt == 0:
                try:
                    guess = self.arrange_hidden(state, seat, text, rng)
                except GameError:
                    pass  # the text is not one the game arranges for: redraw instead
        assert first is not None
        raise first

    def arrange_hidden(self, state: S, seat: int | None, text: str, rng: SeedRng) -> S:
        """A guess that differs from ``state`` only in what ``seat`` cannot see, with the values
        that the action ``text`` shows moved where it needs them (a played card into the
        player's hand, a drawn card into the deck), each swapped for one it does not need.
        By default ``state`` itself; games with hands or piles override it."""
        return state

    def guess_hidden_action(self, state: S, seat: int | None, text: str, rng: SeedRng) -> A:
        """An action that ``seat`` may read as ``text`` (hidden values written ``?``).

        A chance action drawn with ``rng`` lends its values: written one word a value, the
        ``?`` words take the drawn values that ``text`` does not show; written as one ``?``,
        the drawn action serves if it is masked to ``text``. A player's hidden action is one of
        its legal actions masked to ``text``. IllegalAction if none fits this guess.
        """
        wanted = " ".join(text.split()).lower()
        if self.to_move(state) == CHANCE:
            action = self.sample_chance(state, rng)
            words, drawn = text.split(), self.format_action(state, action).split()
            if len(words) == len(drawn):
                spare = list(drawn)
                for word in words:
                    if word != HIDDEN_VALUE and word in spare:
                        spare.remove(word)
                spare = rng.shuffled(spare)
                filled = [spare.pop() if w == HIDDEN_VALUE and spare else w for w in words]
                return self.parse_action(state, " ".join(filled))
            candidates: Iterable[A] = [action]
        else:
            candidates = rng.shuffled(self.legal_actions(state))
        hidden = False  # whether any action possible here hides a value from ``seat``
        for action in candidates:
            masked = self.mask_action(state, action, self.apply(state, action), seat)
            if " ".join(masked.split()).lower() == wanted:
                return action
            hidden = hidden or HIDDEN_VALUE in masked
        if not hidden and self.to_move(state) != CHANCE:
            # what a player's action hides depends on the rules, not on the values: no other
            # guess at them writes one of these actions with a '?'
            raise MalformedAction(f"{text.strip()!r}: every action possible here is written in "
                                  f"full for this record's seat ('{HIDDEN_VALUE}' stands for a "
                                  "value it cannot see)")
        raise IllegalAction(f"{text.strip()!r}: no action possible here is written so for "
                            "this record's seat")

    def encode_position(self, state: S) -> str:
        raise GameError(f"{self.id} has no position encoding")

    def decode_position(self, text: str, nseats: int) -> S:
        raise GameError(f"{self.id} has no position encoding")

    def position_key(self, state: S) -> str:
        """What makes two states the same position when a record is searched for one
        (``tree --fen``): by default the whole one-line encoding."""
        return self.encode_position(state)

    def placement_key(self, state: S) -> str:
        """What a search for a placement compares (``filter --position``): by default the
        position key; a game whose position says whose turn it is leaves that out (see
        :meth:`mover`)."""
        return self.position_key(state)

    def read_placement(self, text: str, nseats: int) -> str:
        """The placement key (:meth:`placement_key`) of a position written ``text``."""
        return self.placement_key(self.decode_position(text, nseats))

    def mover(self, state: S) -> int | None:
        """The seat whose turn it is in ``state``, even where the game ended there (a search
        for a placement with that side to move): by default :meth:`to_move`."""
        return self.to_move(state)

    # -- derived helpers -----------------------------------------------------------------------

    def is_over(self, state: S) -> bool:
        return self.to_move(state) is None

    def check_chance(self, state: S, text: str) -> A:
        """Read a typed chance action; the game's parser checks that it is possible."""
        return self.parse_action(state, text)


# -- small shared helpers for games ---------------------------------------------------------


def seat_text(seat: int) -> str:
    """How a game's texts name a seat: ``p1`` to ``pN``. A record with other seat names shows
    its own names instead and reads either (see ``gametool.core.seatnames``)."""
    return f"p{seat + 1}"



def expect_word(text: str, words: Iterable[str]) -> str | None:
    """Case-insensitive match of a whole action against fixed words."""
    key = text.strip().lower()
    for word in words:
        if key == word:
            return word
    return None


def illegal_unless(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalAction(message)


def malformed(text: str, expected: str) -> MalformedAction:
    return MalformedAction(f"malformed action {text.strip()!r}: expected {expected}")


def perft_divide(game: Game[Any, Any], state: Any, depth: int) -> list[tuple[Any, int]]:
    """Each first action of the seat to move with the perft count of the sequences it starts
    (the rest counted by the game's own counter)."""
    return _divide(game, state, depth, game.perft)


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """The number of distinct sequences of ``depth`` complete turns from ``state``, counted by
    the game's own counter (:meth:`Game.perft`).

    A turn is every move one seat makes before another seat or chance acts; two turns differ
    when their action sequences differ. Only moves count (:meth:`Game.perft_actions`), and the
    count goes through the automatic ends that the game's rules tell it to ignore
    (:meth:`Game.perft_seat`). Raises GameError when chance would act within the depth.
    """
    return game.perft(state, depth)


def walk_perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """:func:`perft` by the generic walk over :meth:`Game.perft_actions`: the reference that a
    game's own counter is tested against."""
    if depth <= 0:
        return 1
    return sum(count for _action, count in _divide(game, state, depth,
                                                    lambda s, d: walk_perft(game, s, d)))


def _divide(game: Game[Any, Any], state: Any, depth: int,
            count: Callable[[Any, int], int]) -> list[tuple[Any, int]]:
    seat = game.perft_seat(state)
    if depth <= 0 or seat is None:
        return []
    if seat == CHANCE:
        raise GameError("perft refused: chance acts within the depth")
    reason = game.perft_refusal(state)
    if reason is not None:
        raise GameError(f"perft refused: {reason}")
    return [(action, _perft_turn(game, game.apply(state, action), depth, seat, count))
            for action in game.perft_actions(state)]


def _perft_turn(game: Game[Any, Any], state: Any, depth: int, seat: int,
                count: Callable[[Any, int], int]) -> int:
    """Continue the turn of ``seat`` while it still acts, then count the rest at depth - 1."""
    if game.perft_seat(state) == seat:
        return sum(_perft_turn(game, game.apply(state, action), depth, seat, count)
                   for action in game.perft_actions(state))
    return count(state, depth - 1)
