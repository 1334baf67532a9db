"""PGN out: a chess record written as one PGN game, as ``export --pgn`` writes it (the roster,
every other tag, comments, NAGs and variations, in pgn-extract's choices of style)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gametool.core.errors import GameError
from gametool.pgn.reader import OWN_TAGS, ROSTER, ROSTER_DEFAULTS, _or_default
from gametool.pgn.text import brace as _brace
from gametool.pgn.text import escape as _escape
from gametool.pgn.text import long_move as _long
from gametool.pgn.text import wrap as _wrap
from gametool.records import Session
from notation import record as gtn


@dataclass(frozen=True)
class Style:
    """How ``export --pgn`` writes a game (pgn-extract's choices)."""

    comments: bool = True
    nags: bool = True
    variations: bool = True
    seven_tags: bool = False
    """Only the Seven Tag Roster (and SetUp and FEN for a set-up position)."""
    notation: str = "san"
    """san, lan (e2-e4, Ng1xf3) or uci (e2e4, e7e8q)."""
    fen_comments: bool = False
    """A comment with the position (FEN) after every move of the main line."""
    plies: int | None = None
    """The main line cut after this many plies (the Result is then '*')."""
    width: int = 80
    plycount: bool = False
    """A PlyCount tag with the plies of the main line written (pgn-extract's --plycount)."""


def export_pgn(session: Session, style: Style | None = None) -> str:
    """A chess record as one PGN game: the roster, every other tag in order, FEN when set up,
    comments, NAGs and variations, in lines of at most ``style.width`` characters with each move
    number beside its move."""
    style = style or Style()
    if session.game.id != "chess":
        raise GameError(f"export --pgn: only chess records can be written as PGN, not "
                        f"{session.game.id}")
    record = session.canonical_record()
    outcome = session.outcome()
    result = outcome.result_tag() if outcome else "*"
    kept = record.get("PGNResult")
    if kept is not None:
        result = kept
    cut = style.plies is not None and style.plies < session.ply
    if cut:
        result = "*"
    # A tag written empty ("") stays empty; a missing one is "?" (or the unknown date).
    values = {name: _or_default(record.get(name), ROSTER_DEFAULTS.get(name, "?"))
              for name in ROSTER}
    values["Result"] = result
    lines = [f'[{name} "{_escape(values[name])}"]' for name in ROSTER]
    if record.get("Position"):
        fen = session.game.encode_position(session.states[0])
        lines += ['[SetUp "1"]', f'[FEN "{_escape(fen)}"]']
    roster = {name.lower() for name in ROSTER}
    if not style.seven_tags:
        for tag in session.record.tags:
            key = tag.name.lower()
            if key == "pgntermination":
                lines.append(f'[Termination "{_escape(tag.value)}"]')
            elif key not in OWN_TAGS and key not in roster and not (
                    style.plycount and key == "plycount"):
                lines.append(f'[{tag.name} "{_escape(tag.value)}"]')
        termination = record.get("Termination")
        if termination is not None and record.get("PGNTermination") is None and not cut:
            lines.append(f'[Termination "{_escape(termination)}"]')
    if style.plycount:
        plies = min(session.ply, style.plies) if style.plies is not None else session.ply
        lines.append(f'[PlyCount "{plies}"]')
    lines.append("")
    first = session.states[0]
    units: list[str] = []
    writer = _Movetext(session, style)
    writer.line(record.body, units, list(session.states[:1]), first.white, first.fullmove,
                main=True)
    units.append(result)
    lines += _wrap(units, style.width)
    return "\n".join(lines) + "\n"


class _Movetext:
    """The movetext of a record's body, in the notation and with the parts a style asks for."""

    def __init__(self, session: Session, style: Style) -> None:
        self.game = session.game
        self.style = style
        self.limit = style.plies
        self.replay = style.notation != "san" or style.fen_comments

    def line(self, body: list[gtn.Item], units: list[str], states: list[Any],
             white_first: bool, fullmove: int, main: bool = False) -> None:
        """``states`` are the positions of this line before each of its plies, from the
        first ply of the record (a variation's: those of the line it leaves, to its start)."""
        style = self.style
        need_number = True
        for item in body:
            if isinstance(item, gtn.CommentLine):
                if style.comments:
                    units.append(_brace(item.text))
                    need_number = True
            elif isinstance(item, gtn.Variation):
                if not style.variations or not item.turns:
                    continue
                start = item.turns[0].ply
                if main and self.limit is not None and start > self.limit:
                    continue
                inner: list[str] = []
                self.line(item.body, inner, list(states[:start]), white_first, fullmove)
                if inner:
                    inner[0] = "(" + inner[0]
                    inner[-1] = inner[-1] + ")"
                    units.extend(inner)
                need_number = True
            elif isinstance(item, gtn.TurnLine):
                wrote = False
                for offset, action in enumerate(item.actions):
                    text = action.text
                    if text.startswith("claim-draw"):
                        text = text[len("claim-draw"):].strip()
                    if text in ("", "resign"):
                        continue
                    ply = item.ply + offset
                    if main and self.limit is not None and ply > self.limit:
                        return
                    index = ply - 1 + (0 if white_first else 1)
                    number, white = fullmove + index // 2, index % 2 == 0
                    written, after = self.move(states, ply, action.text, text)
                    if white:
                        units.append(f"{number}. {written}")
                    elif need_number:
                        units.append(f"{number}... {written}")
                    else:
                        units.append(written)
                    need_number = False
                    wrote = True
                    if after is not None and main and style.fen_comments:
                        units.append(_brace(self.game.encode_position(after)))
                        need_number = True
                if not wrote:
                    continue
                if style.nags:
                    units.extend(f"${nag}" for nag in item.nags)
                if item.comment and style.comments:
                    units.append(_brace(item.comment))
                    need_number = True

    def move(self, states: list[Any], ply: int, action_text: str,
             text: str) -> tuple[str, Any]:
        """The move in the style's notation, and the position after it (None unless needed);
        ``states`` gains that position."""
        if not self.replay:
            return text, None
        if ply - 1 >= len(states):
            return text, None
        state = states[ply - 1]
        action = self.game.parse_action(state, action_text)
        after = self.game.apply(state, action)
        del states[ply:]
        states.append(after)
        if self.style.notation == "san":
            return text, after
        return _long(state, action, text, self.style.notation == "uci"), after
