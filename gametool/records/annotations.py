"""What a record says about its game beyond the actions, read for display: the players' names
as written, their ratings, the event, the result; the glyphs of NAGs; the clock, move time and
evaluation commands inside comments (``[%clk 0:04:58]``, ``[%emt 0:00:12]``, ``[%eval 0.31]``).

Seat names in a record are identifiers (``O'Brien_Siobh_n``); a record imported from PGN keeps
the names as written in tags named after the seats' colours (``White "O'Brien, Siobhán"``), and
their ratings in ``WhiteElo``. Nothing here knows a game's rules: a seat's colour is the
game's own seat name (``Game.seat_names``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from notation.patterns import lazy

NAG_GLYPHS = {
    1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 7: "\u25a1", 8: "\u25a1",
    10: "=", 11: "=", 12: "=", 13: "\u221e", 14: "+=", 15: "=+", 16: "\u00b1",
    17: "\u2213", 18: "+\u2212", 19: "\u2212+", 20: "+\u2212", 21: "\u2212+",
    22: "\u2a00", 23: "\u2a00", 32: "\u27f3", 33: "\u27f3", 36: "\u2192", 37: "\u2192",
    40: "\u2191", 41: "\u2191", 132: "\u21c6", 133: "\u21c6", 138: "\u2295", 139: "\u2295",
    140: "\u2206", 141: "\u2207", 142: "\u2313", 145: "RR", 146: "N",
}
"""The usual glyph of each NAG (move and position assessments); others are written ``$n``."""

MOVE_GLYPHS = {1, 2, 3, 4, 5, 6, 7, 8}
"""NAGs that judge the move itself: written against it (``Nxd5?!``), the others after it."""


def nag_glyph(nag: int) -> str:
    return NAG_GLYPHS.get(nag, f"${nag}")


def glyphs(nags: list[int]) -> str:
    """NAGs as one text: the move's glyph joined to it, the position's after a space."""
    move = "".join(nag_glyph(n) for n in nags if n in MOVE_GLYPHS)
    other = " ".join(nag_glyph(n) for n in nags if n not in MOVE_GLYPHS)
    return f"{move} {other}" if move and other else move or other


_COMMAND = lazy(r"\[%(\w+)\s+([^\]]*)\]")


@dataclass(frozen=True)
class Comment:
    """A comment split into its words and the commands embedded in it."""

    text: str
    """The words, without the commands (may be empty)."""
    clock: str | None = None
    """``[%clk H:MM:SS]``: the time left to the seat that moved."""
    evaluation: str | None = None
    """``[%eval 0.31]`` or ``[%eval #-3]``: an engine's evaluation, White's point of view."""
    elapsed: str | None = None
    """``[%emt H:MM:SS]``: the time the move took."""


def read_comment(text: str | None) -> Comment | None:
    """A comment's words, clock, move time and evaluation; None for no comment."""
    if text is None:
        return None
    clock = evaluation = elapsed = None
    for name, value in _COMMAND.findall(text):
        if name == "clk":
            clock = value.strip()
        elif name == "emt":
            elapsed = value.strip()
        elif name == "eval":
            evaluation = _evaluation(value.strip().split(",")[0])
    words = " ".join(_COMMAND.sub(" ", text).split())
    if not words and clock is None and evaluation is None and elapsed is None:
        return None
    return Comment(words, clock, evaluation, elapsed)


def _evaluation(value: str) -> str:
    """An evaluation as shown: a sign on a number (``+0.31``), ``#3`` / ``#-3`` for a mate."""
    if value.startswith("#"):
        return value
    try:
        number = float(value)
    except ValueError:
        return value
    return f"{number:+.2f}"


@dataclass(frozen=True)
class Player:
    """A seat's player as a game's picture names them."""

    name: str
    """As written in the record's tags, else the seat's name."""
    seat: str
    rating: str | None = None
    title: str | None = None


_UNKNOWN = {"", "?", "-", "??"}


def players(session: Any) -> list[Player]:
    """Each seat's player as the record writes them: a tag named after the seat's colour
    (``White``, ``Black``) holds the name as written, ``WhiteElo`` the rating, ``WhiteTitle`` the
    title; a seat without such tags keeps its seat name."""
    record = session.record
    colours = type(session.game).seat_names
    out = []
    for index, seat in enumerate(session.names):
        name, rating, title = seat, None, None
        if index < len(colours) and len(colours) >= len(session.names):
            colour = colours[index].capitalize()
            written = (record.get(colour) or "").strip()
            if written not in _UNKNOWN:
                name = written
            rating = _known(record.get(f"{colour}Elo"))
            title = _known(record.get(f"{colour}Title"))
        out.append(Player(name, seat, rating, title))
    return out


def shown_session(session: Any) -> Any:
    """A copy of ``session`` whose seats bear the players' names as the record writes them,
    for what people read (the replay page, text ``show`` and ``replay``): the record, the game
    and the seat names that ``--as`` and JSON use are shared, not changed."""
    names = [player.name for player in players(session)]
    if names == session.names or len(set(names)) != len(names):
        return session
    view = copy.copy(session)
    view.written_names = dict(zip(session.names, names, strict=True))
    view.names = names
    return view


def _known(value: str | None) -> str | None:
    value = (value or "").strip()
    return None if value in _UNKNOWN or value == "0" else value


EVENT_TAGS = ("Event", "Site", "Date", "Round")


def event(session: Any) -> list[tuple[str, str]]:
    """The event, site, date and round the record gives (unknown ones left out)."""
    out = []
    for name in EVENT_TAGS:
        value = _known(session.record.get(name))
        if value is not None and value != "????.??.??":
            out.append((name, value.replace(".??", "")))
    return out


def result(session: Any) -> tuple[str, str | None]:
    """The result tag and how the game ended (``1-0``, ``checkmate``); ``*`` while it goes on."""
    outcome = session.outcome()
    if outcome is not None:
        return outcome.result_tag(), outcome.termination
    return (session.record.get("Result") or "*"), None


@dataclass(frozen=True)
class Note:
    """What a record says of one ply: the comment after it, its NAGs, the variations that
    replace it (each as its moves' text)."""

    comment: Comment | None = None
    nags: tuple[int, ...] = ()
    variations: tuple[str, ...] = ()

    def data(self, variations: bool) -> dict[str, Any]:
        """The note for JSON: only what it holds."""
        out: dict[str, Any] = {}
        if self.comment is not None and self.comment.text:
            out["comment"] = self.comment.text
        if self.comment is not None and self.comment.clock is not None:
            out["clock"] = self.comment.clock
        if self.comment is not None and self.comment.elapsed is not None:
            out["move_time"] = self.comment.elapsed
        if self.comment is not None and self.comment.evaluation is not None:
            out["eval"] = self.comment.evaluation
        if self.nags:
            out["nags"] = [nag_glyph(n) for n in self.nags]
        if variations and self.variations:
            out["variations"] = list(self.variations)
        return out


def _body_of(session: Any) -> tuple[list[Any], int]:
    """The items of the line ``session`` follows (the main line, or the variation a branch
    view follows) and the ply before its first turn."""
    for branch in session.branches:
        if branch.steps is session.steps:
            return branch.variation.body, branch.start - 1
    return session.record.body, 0


_INDEXES: dict[int, tuple[list[Any], int, int, int, dict[int, tuple[Any, list[Any]]]]] = {}
"""Each line's turn and variations by ply (see :func:`_index`), kept while the line is read."""


def _index(session: Any) -> dict[int, tuple[Any, list[Any]]]:
    """The line ``session`` follows, read once: for each ply a turn line ends at, that turn
    line and the variations written after it (before the next turn line). Kept for the next
    ply asked of the same line, until it changes (a ply played, a line added)."""
    from notation import record as gtn

    body, at = _body_of(session)
    kept = _INDEXES.get(id(body))
    if (kept is not None and kept[0] is body and kept[1:4] == (at, len(body),
                                                                len(session.steps))):
        return kept[4]
    index: dict[int, tuple[Any, list[Any]]] = {}
    current: tuple[Any, list[Any]] | None = None
    start = at
    for item in body:
        if isinstance(item, gtn.TurnLine):
            before, at = at, at + len(item.actions)
            # a turn that adds no ply ends what the ply before it says
            current = index.setdefault(at, (item, [])) if at > before else None
        elif isinstance(item, gtn.Variation) and current is not None:
            current[1].append(item)
    if len(_INDEXES) >= 16:
        _INDEXES.pop(next(iter(_INDEXES)))
    _INDEXES[id(body)] = (body, start, len(body), len(session.steps), index)
    return index


def note_at(session: Any, ply: int) -> Note | None:
    """What the record says of ``ply`` on the line ``session`` follows; None for nothing."""
    found = _index(session).get(ply)
    if found is None:
        return None
    turn, variations = found
    names = getattr(session, "written_names", None)
    note = Note(read_comment(turn.comment), tuple(turn.nags),
                tuple(variation_text(item, names) for item in variations))
    if note.comment is None and not note.nags and not note.variations:
        return None
    return note


def variation_text(variation: Any, names: dict[str, str] | None = None) -> str:
    """A variation as one line: ``10. Na5 11. Bb5+ ... (14. Qb6!? {a rare try}) ...``, each
    action after its ply number, NAGs as glyphs, comments in braces; ``names``: the seats as
    shown, by their names in the record."""
    from notation import record as gtn

    parts: list[str] = []
    for item in variation.body:
        if isinstance(item, gtn.TurnLine):
            moves = " ".join(a.text for a in item.actions)
            move = "".join(nag_glyph(n) for n in item.nags if n in MOVE_GLYPHS)
            other = " ".join(nag_glyph(n) for n in item.nags if n not in MOVE_GLYPHS)
            comment = read_comment(item.comment)
            seat = (names or {}).get(item.seat, item.seat)
            text = f"{item.ply}. {seat}: {moves}{move}" + (f" {other}" if other else "")
            if comment is not None and comment.text:
                text += f" {{{comment.text}}}"
            parts.append(text)
        elif isinstance(item, gtn.Variation):
            parts.append(f"({variation_text(item, names)})")
        elif isinstance(item, gtn.CommentLine):
            comment = read_comment(item.text)
            if comment is not None and comment.text:
                parts.append(f"{{{comment.text}}}")
    return " ".join(parts)
