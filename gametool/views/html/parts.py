"""The parts of a replay page (see :mod:`gametool.views.html.page`): the tree of positions, the
move list with its annotations, the header, and the page's style and script."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from gametool.core.diagram import Note, Panel
from gametool.core.engine import CHANCE, REFEREE
from gametool.records import Session, annotations
from notation import record as gtn

_MARKS = re.compile(r"\[%(cal|csl)\s+([^\]]*)\]")
_MARK = re.compile(r"([GRYB])([a-z]\d+)([a-z]\d+)?")
_ENGINE = re.compile(r"^([+-]?(?:\d+(?:\.\d+)?|M\d+))/(\d+)(?:\s+(\d+(?:\.\d+)?)s)?(?=\s|$)\s*")


@dataclass(frozen=True)
class Said:
    """What a comment says for the page: its words, the clock, move time and evaluation
    commands, an engine's ``{+0.69/29 36s}`` (cutechess, Arena: evaluation from the mover's
    side, depth, seconds), and a commentator's arrows and circles (``[%cal Ge2e4]``,
    ``[%csl Rd5]``)."""

    text: str = ""
    clock: str | None = None
    elapsed: str | None = None
    evaluation: str | None = None
    """As shown: from the first seat's side (``+0.31``, ``#-3``)."""
    depth: str | None = None
    marks: tuple[tuple[str, ...], ...] = ()


def read_said(text: str | None, mover: int = 0) -> Said | None:
    """A raw comment read for the page; ``mover`` is the seat that made the move (an
    engine's evaluation is from its side: turned to the first seat's)."""
    comment = annotations.read_comment(text)
    if comment is None:
        return None
    marks: list[tuple[str, ...]] = []
    for _kind, value in _MARKS.findall(text or ""):
        for colour, first, second in _MARK.findall(value):
            marks.append((colour, first, second) if second else (colour, first))
    words, evaluation, depth, elapsed = comment.text, comment.evaluation, None, comment.elapsed
    engine = _ENGINE.match(words)
    if engine is not None and evaluation is None:
        value, depth, seconds = engine.groups()
        evaluation = _turned(value, mover)
        if seconds is not None and elapsed is None:
            elapsed = f"{seconds}s"
        words = words[engine.end():]
    return Said(words, comment.clock, elapsed, evaluation, depth, tuple(marks))


def _turned(value: str, mover: int) -> str:
    """An engine's score from the mover's side as the first seat's: ``+0.69`` by the second
    seat is ``-0.69``; ``M5`` (mate in five) is ``#5`` or ``#-5``."""
    sign = -1 if mover == 1 else 1
    if value.lstrip("+-").startswith("M"):
        plies = int(value.lstrip("+-")[1:])
        return f"#{-plies if (value.startswith('-')) != (sign < 0) else plies}"
    return f"{sign * float(value) + 0.0:+.2f}"


def evaluation_value(text: str | None, cap: float = 10.0) -> float | None:
    """An evaluation shown as a number for a graph (a mate at the cap, on its side)."""
    if text is None:
        return None
    if text.startswith("#"):
        return -cap if text.startswith("#-") else cap
    try:
        return max(-cap, min(cap, float(text)))
    except ValueError:
        return None


def clock_seconds(text: str | None) -> float | None:
    """``H:MM:SS`` (or ``M:SS``, with tenths) in seconds."""
    if text is None:
        return None
    try:
        total = 0.0
        for part in text.split(":"):
            total = total * 60 + float(part)
    except ValueError:
        return None
    return total


def alternates(session: Session) -> bool:
    """True when two seats take one action each in turn and chance never acts: the moves are
    paired by turn (``1. e4 e5``)."""
    seats = [step.seat for step in session.steps]
    if len(session.names) != 2 or not seats or CHANCE in seats:
        return False
    return all(seat == (seats[0] + n) % 2 for n, seat in enumerate(seats))


def move_text(session: Session, ply: int, seat: int | None, whole: bool = False) -> str:
    """The action that led to ``ply`` as ``seat`` may read it (``whole``: as the master record
    holds it), without the seat's name."""
    step = session.steps[ply - 1]
    game = session.game
    before, after = session.states[ply - 1], session.states[ply]
    written = game.format_action(before, step.action)
    text = written if whole else game.mask_action(before, step.action, after, seat)
    note = game.describe_action(before, step.action) if text == written else None
    return f"{text} ({note})" if note else text


def _comment_html(comment: Said | annotations.Comment | None) -> str:
    if comment is None or not comment.text:
        return ""
    return f'<span class="comment">{escape(comment.text)}</span>'


def _extras_html(comment: Said | None) -> str:
    """A move's clock time, time taken and evaluation, shown beside it."""
    if comment is None:
        return ""
    out = ""
    if comment.evaluation is not None:
        deep = f", depth {comment.depth}" if comment.depth else ""
        out += (f'<span class="ev" title="evaluation{deep}">'
                f'{escape(comment.evaluation)}</span>')
    if comment.clock is not None:
        out += f'<span class="clk" title="clock">{escape(comment.clock)}</span>'
    if comment.elapsed is not None:
        out += f'<span class="clk" title="move time">{escape(comment.elapsed)}</span>'
    return out


class Tree:
    """The positions of a record as nodes: the main line's plies 0 to N are nodes 0 to N, then
    each variation's plies, line after line. ``lines`` holds each line as ``[from, first,
    start, count]``: the node it branches from (-1 for the main line), its first node, the
    ply of that node and how many nodes it has. ``html`` is the move list, every move a
    ``.mv`` element naming its node."""

    def __init__(self, session: Session, seen: Any) -> None:
        self.session = session
        self.seat = seen.seat  # as render.sight decides: a seat, a spectator or the referee
        self.whole = seen.whole
        self.paired = alternates(session)
        self.shift = 1 if self.paired and session.steps[0].seat == 1 else 0
        self.nodes: list[tuple[Session, int]] = [(session, p) for p in range(session.ply + 1)]
        self.lines: list[list[int]] = [[-1, 0, 0, session.ply + 1]]
        self.parent_line = [-1]
        self.branches = {id(b.variation): b for b in session.branches}
        self.said: dict[int, Said] = {}
        """What the comment after each node's move says, by node."""
        self.html = self._main(session.record.body)

    def node_at(self, line: int, ply: int) -> int:
        """The node of ``ply`` as seen from ``line`` (an earlier ply is its parent line's)."""
        _origin, first, start, _count = self.lines[line]
        if ply >= start:
            return first + ply - start
        return self.node_at(self.parent_line[line], ply)

    def _number(self, ply: int, always: bool) -> str:
        """The move number before ``ply`` in a variation: ``5.`` before the first seat's move,
        ``5\u2026`` before the second's where the turn's start is not shown."""
        if not self.paired:
            return f"{ply}."
        turn = (ply + self.shift + 1) // 2
        if (ply + self.shift) % 2 == 1:
            return f"{turn}."
        return f"{turn}\u2026" if always else ""

    def _move(self, view: Session, node: int, ply: int, nags: list[int], prefix: str = "",
              who: bool = False) -> str:
        text = escape(move_text(view, ply, self.seat, self.whole))
        if who:
            seat = view.steps[ply - 1].seat
            name = view.seat_name(seat) or ""
            text = f'<span class="who">{escape(name)}</span> {text}'
        if prefix:
            text = f'<span class="num">{prefix}</span>{text}'
        glyph = ""
        move_nags = "".join(annotations.nag_glyph(n) for n in nags
                            if n in annotations.MOVE_GLYPHS)
        other = " ".join(annotations.nag_glyph(n) for n in nags
                         if n not in annotations.MOVE_GLYPHS)
        if move_nags:
            glyph += f'<span class="nag">{escape(move_nags)}</span>'
        if other:
            glyph += f' <span class="nag pos">{escape(other)}</span>'
        return f'<span class="mv" data-node="{node}" data-ply="{ply}">{text}{glyph}</span>'

    def _main(self, body: list[Any]) -> str:
        out: list[str] = []
        ply = 0
        waiting = False  # a turn's first move is shown and its second may follow on its row
        session = self.session
        for item in body:
            if isinstance(item, gtn.CommentLine):
                comment = annotations.read_comment(item.text)
                if comment is not None and comment.text:
                    out.append(f'<div class="note">{_comment_html(comment)}</div>')
                    waiting = False
            elif isinstance(item, gtn.Variation):
                inner = self._variation(item, 0)
                if inner:
                    out.append(f'<div class="note var">{inner}</div>')
                    waiting = False
            elif isinstance(item, gtn.EndingLine):
                reason = f" ({escape(item.reason)})" if item.reason else ""
                out.append(f'<div class="note end"><b>{escape(item.result)}</b>{reason} '
                           f'{_comment_html(annotations.read_comment(item.comment))}</div>')
            elif isinstance(item, gtn.TurnLine):
                for k in range(len(item.actions)):
                    if ply >= session.ply:
                        break
                    ply += 1
                    last = k == len(item.actions) - 1
                    comment = read_said(item.comment, session.steps[ply - 1].seat) \
                        if last else None
                    if comment is not None:
                        self.said[ply] = comment
                    move = self._move(session, ply, ply, item.nags if last else [],
                                      who=not self.paired)
                    cell = f'<span class="cell{"" if self.paired else " wide"}">{move}' \
                           f'{_extras_html(comment)}</span>'
                    if not self.paired:
                        out += [f'<span class="n">{ply}</span>', cell]
                    elif (ply + self.shift) % 2 == 1:
                        out += [f'<span class="n">{(ply + self.shift + 1) // 2}</span>', cell]
                        waiting = True
                    else:
                        if not waiting:
                            out += [f'<span class="n">{(ply + self.shift + 1) // 2}</span>',
                                    '<span class="cell none">\u2026</span>']
                        out.append(cell)
                        waiting = False
                    if comment is not None and comment.text:
                        out.append(f'<div class="note">{_comment_html(comment)}</div>')
                        waiting = False
        return "".join(out)

    def _variation(self, variation: gtn.Variation, parent: int) -> str:
        branch = self.branches.get(id(variation))
        if branch is None or len(branch.states) <= branch.start:
            return ""
        line = len(self.lines)
        view = self.session.branch_view(branch)
        first = len(self.nodes)
        count = len(branch.states) - branch.start
        self.lines.append([self.node_at(parent, branch.start - 1), first, branch.start, count])
        self.parent_line.append(parent)
        self.nodes += [(view, p) for p in range(branch.start, len(branch.states))]
        parts: list[str] = []
        ply = branch.start - 1
        numbered = True  # the next move shows its turn's number
        for item in variation.body:
            if isinstance(item, gtn.TurnLine):
                for k in range(len(item.actions)):
                    if ply + 1 >= len(branch.states):
                        break
                    ply += 1
                    last = k == len(item.actions) - 1
                    comment = read_said(item.comment, view.steps[ply - 1].seat) \
                        if last else None
                    if comment is not None:
                        self.said[first + ply - branch.start] = comment
                    parts.append(self._move(view, first + ply - branch.start, ply,
                                            item.nags if last else [],
                                            self._number(ply, numbered),
                                            who=not self.paired)
                                 + _extras_html(comment))
                    numbered = False
                    if comment is not None and comment.text:
                        parts.append(_comment_html(comment))
                        numbered = True
            elif isinstance(item, gtn.Variation):
                inner = self._variation(item, line)
                if inner:
                    parts.append(f'<span class="sub">({inner})</span>')
                    numbered = True
            elif isinstance(item, gtn.CommentLine):
                comment = annotations.read_comment(item.text)
                if comment is not None and comment.text:
                    parts.append(_comment_html(comment))
                    numbered = True
        return f'<span class="line" data-line="{line}">{" ".join(parts)}</span>'


def header(session: Session, seen: Any) -> tuple[str, str]:
    """The page's title and its header: players as written (with ratings), the event, site,
    date and round, the result and how the game ended."""
    players = annotations.players(session)
    names = [p.name for p in players]
    joined = " \u2013 ".join(names) if len(names) == 2 else ", ".join(names)
    event = annotations.event(session)
    title = joined + (f" \u00b7 {event[0][1]}" if event and event[0][0] == "Event" else "") + \
        f" ({session.game.name})"
    shown = []
    for player in players:
        extra = " ".join(x for x in (player.title, player.rating) if x)
        shown.append(f'<span class="player">{escape(player.name)}'
                     + (f' <span class="elo">{escape(extra)}</span>' if extra else "")
                     + "</span>")
    tag, how = annotations.result(session)
    between = " \u2013 " if len(shown) == 2 else ", "
    lines = [f"<h1>{between.join(shown)}</h1>"]
    if event:
        words = " \u00b7 ".join(escape(f"round {v}" if k == "Round" else v) for k, v in event)
        lines.append(f'<p class="event">{words}</p>')
    who = (" \u00b7 the referee's view" if seen.seat == REFEREE else
           f" \u00b7 as {escape(seen.label)}" if seen.label is not None else "")
    outcome = f'<b id="result">{escape(tag)}</b>' + (f" ({escape(how)})" if how else "")
    lines.append(f'<p class="about">{escape(session.game.name)} \u00b7 {session.ply} plies '
                 f'\u00b7 result {outcome}{who}</p>')
    return title, f'<header id="game">{"".join(lines)}</header>'


def _joined(turn: str, nags: list[str]) -> str:
    """A last move with its NAGs as a reader writes them: ``Nxd5?!``, then ``+=`` apart."""
    move = "".join(n for n in nags if n and n[0] in "!?\u25a1")
    other = " ".join(n for n in nags if not (n and n[0] in "!?\u25a1"))
    return turn + move + (f" {other}" if other else "")


def info_html(view: Session, ply: int, seen: Any, words: list[Any],
              said: Said | None) -> str:
    """What the page writes beside the board for one position: the seat to move, the last
    turns (the last with its NAGs), the comment with its clock, time and evaluation, the
    game's own lines (castling, FEN, counts), its tables (scores), the result."""
    from gametool.views import render

    data = render.show_data(view, ply, seen)
    out = []
    status = f"ply {ply}"
    if data["to_move"] is not None:
        status += f" \u00b7 {escape(data['to_move'])} to move"
    out.append(f'<p class="to">{status}</p>')
    turns = data["last_turns"]
    note = data.get("note", {})
    for n, turn in enumerate(turns):
        last = n == len(turns) - 1
        text = _joined(turn, note.get("nags", [])) if last else turn
        out.append(f'<p class="{"last" if last else "earlier"}"><b>'
                   f'{"last" if last else "earlier"}</b> {escape(text)}</p>')
    if said is not None:
        if said.text:
            out.append(f'<p class="said">{escape(said.text)}</p>')
        facts = [(word, value) for word, value in (
            ("evaluation", said.evaluation), ("depth", said.depth), ("clock", said.clock),
            ("move time", said.elapsed)) if value is not None]
        if facts:
            out.append('<p class="facts">' + " \u00b7 ".join(
                f"{word} <b>{escape(value)}</b>" for word, value in facts) + "</p>")
    for part in words:
        if isinstance(part, Panel):
            out.append(table_html(part))
        elif isinstance(part, Note):
            out += [f'<p class="gline">{escape(line)}</p>' for line in part.lines]
    return "".join(out)


def table_html(panel: Panel) -> str:
    """A diagram's small table (a score sheet, counts) as an HTML table."""
    head = "".join(f"<th>{escape(h)}</th>" for h in panel.headers)
    rows = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                   for row in panel.rows)
    caption = f"<caption>{escape(panel.title)}</caption>" if panel.title else ""
    return (f'<table class="panel">{caption}<thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def legend_html(legend: tuple[tuple[str, str], ...], palette: dict[str, tuple[str, str]]) -> str:
    """Which side or seat each style stands for, each with a swatch of its colour."""
    items = []
    for style, meaning in legend:
        fill = palette.get(style, palette["neutral"])[0]
        items.append(f'<span class="key"><i style="background:{fill}"></i>'
                     f"{escape(meaning)}</span>")
    return f'<p class="legend">{"".join(items)}</p>' if items else ""


def position_text(view: Session, ply: int, seen: Any) -> str:
    """The position to copy: the game's one-line encoding (FEN for chess) where the game has
    one and nothing is hidden from the page's reader, else the position as ``show`` writes it
    for that reader."""
    from gametool.core.errors import GameError

    game = view.game
    state = view.states[ply]
    if seen.whole or type(game).hidden in ("", "none"):
        try:
            return game.encode_position(state)
        except GameError:
            pass
    return game.render(state, seen.seat, view.names).rstrip("\n")
