"""Writing records: the canonical form of a session's record (a session is a
:class:`gametool.records.session.Session`, which this module never imports), a seat's export of it,
and the text of a record.

The canonical writer gives the same bytes again for a record it has written (a fixpoint): tags
in their order, seat names and action texts as the game writes them, a seat's actions in a row
on one line.
"""

from __future__ import annotations

from typing import Any

from gametool.core.chance import seed_hash
from gametool.core.engine import CHANCE
from gametool.core.errors import RecordError
from gametool.records import notes
from gametool.records.header import CHANCE_NAME
from notation import record as gtn
from notation.errors import NotationError

_CANONICAL_OWN = frozenset(("game", "players", "options", "fen"))
"""Tags that :meth:`Session.canonical_record` writes afresh from the session."""



def write_record(record: gtn.Record) -> str:
    """The text of ``record``; a RecordError, and nothing written, when the text would hold a
    line beyond what the reader accepts."""
    try:
        return gtn.write(record)
    except NotationError as exc:
        where = f" (its line {exc.line})" if exc.line else ""
        raise RecordError(f"cannot write the record{where}: {exc.message}") from None


def _plain_copy(variation: gtn.Variation) -> gtn.Variation:
    """A copy of a variation without source positions (for the canonical writer)."""
    body: list[gtn.Item] = []
    for item in variation.body:
        if isinstance(item, gtn.Variation):
            body.append(_plain_copy(item))
        elif isinstance(item, gtn.TurnLine):
            actions = [gtn.Action(a.text) for a in item.actions]
            body.append(gtn.TurnLine(item.ply, item.seat, actions, item.comment,
                                     item.comment_style, nags=list(item.nags)))
        elif isinstance(item, gtn.CommentLine):
            body.append(gtn.CommentLine(item.text, item.style))
    return gtn.Variation(body)



def canonical_record(self: Any, shared: bool = False, as_built: bool = False) -> gtn.Record:
    """The record of the session ``self`` with canonical tags, seat names and action texts,
    turns merged per line.

    With ``shared`` the record's tags and the turn lines that are canonical already (one
    action, its text the step's, its ply and seat right, nothing merged into it) are this
    record's own objects, not copies: the result is for writing only and must not be
    changed. With ``as_built`` too, the caller vouches that the whole body is canonical as it
    stands, and it is taken as it is: each turn line one made by ``append_checked`` for its
    step, and no line the writer would merge into the one before it (a converter's record
    of a game whose seats alternate, as the PGN reader makes them)."""
    record, game, names = self.record, self.game, self.names
    tags = [gtn.Tag("Game", game.id), gtn.Tag("Players", "; ".join(names))]
    extra = game.non_default_options()
    if extra:
        tags.append(gtn.Tag("Options", "; ".join(f"{k}={v}" for k, v in extra)))
    # The record's other tags, and its first FEN (in one pass).
    own_tags, fen, kept = _CANONICAL_OWN, None, []
    for tag in record.tags:
        key = tag.name.lower()
        if key in own_tags:
            if key == "fen" and fen is None:
                fen = tag.value
        else:
            kept.append(tag if shared else gtn.Tag(tag.name, tag.value))
    if fen is not None and record.get("Position") is None:
        tags.append(gtn.Tag("Position", fen))
    tags += kept
    if shared and as_built:
        return gtn.Record(tags=tags, body=record.body)
    out = gtn.Record(tags=tags)
    index = 0
    # The last of this record's own lines put in ``out`` (``shared``): a line merged into
    # is copied first when it is that one (only the last line of ``out`` is merged into).
    own = None
    steps_all, body = self.steps, out.body
    count_steps = len(steps_all)
    turn_line = gtn.TurnLine
    for item in record.body:
        if shared and type(item) is turn_line and index < count_steps:
            # The commonest line, one player's action alone: kept as it is when it is
            # canonical already and nothing merges into the line before it.
            actions = item.actions
            step = steps_all[index]
            text = step._text  # the text of a step made with it, else written on need
            if text is None:
                text = step.text
            seat = step.seat
            if (len(actions) == 1 and item.ply == index + 1 and actions[0].text == text
                    and item.seat == (CHANCE_NAME if seat == CHANCE else names[seat])):
                last = body[-1] if body else None
                if (seat == CHANCE or not isinstance(last, turn_line)
                        or last.seat != item.seat or last.comment is not None
                        or last.nags):
                    index += 1
                    own = item
                    body.append(item)
                    continue
        if isinstance(item, gtn.CommentLine):
            out.body.append(gtn.CommentLine(item.text, item.style))
            continue
        if isinstance(item, gtn.EndingLine):
            out.body.append(gtn.EndingLine(item.result, item.reason, item.comment,
                                           item.comment_style))
            continue
        if isinstance(item, gtn.Variation):
            out.body.append(_plain_copy(item))
            continue
        count = len(item.actions)
        steps = self.steps[index:index + count]
        index += count
        if not steps:
            continue
        last = out.body[-1] if out.body else None
        seat = self.seat_name(steps[0].seat) or ""
        if (steps[0].seat != CHANCE and isinstance(last, gtn.TurnLine)
                and last.seat == seat and last.comment is None and not last.nags):
            if last is own:  # this record's own line: merged into a copy
                last = out.body[-1] = gtn.TurnLine(last.ply, last.seat, list(last.actions),
                                                   nags=list(last.nags))
            last.actions.extend(gtn.Action(s.text) for s in steps)
            last.comment, last.comment_style = item.comment, item.comment_style
            last.nags = list(item.nags)
            continue
        out.body.append(gtn.TurnLine(index - count + 1, seat,
                                     [gtn.Action(s.text) for s in steps], item.comment,
                                     item.comment_style, nags=list(item.nags)))
    return out


def exported(self: Any, seat: int | None) -> gtn.Record:
    """The record of the session ``self`` as ``seat`` may see it: hidden values as ``?``,
    SeedHash for Seed. A player's file speaks for its own seat only (GameError for another)."""
    if self.player_file and seat is not None:
        self.view_as(self.seat_name(seat))
    out = self.canonical_record()
    if self.secret is not None:
        out.set("Seed", None)
        out.set("SeedHash", seed_hash(self.secret))
    out.set("View", self.seat_name(seat) if seat is not None else "spectator")
    if self.game.hidden:
        out.body = [item for item in out.body if not isinstance(item, gtn.Variation)]
    # '#say' notes: a seat's own, and those for all (gametool.records.notes).
    out.body = [item for item in out.body if not notes.hidden_from(item, self.seat_name(seat))]
    masked = iter(self.game.mask_record(self.states, [s.action for s in self.steps], seat))
    for item in out.body:
        if isinstance(item, gtn.TurnLine):
            item.actions = [gtn.Action(next(masked)) for _ in item.actions]
    return out
