"""The parts of a replay page (see :mod:`gametool.views.html.page`): the tree of positions, the
move list with its annotations, the header, and the page's style and script."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from gametool.core.engine import CHANCE, REFEREE
from gametool.records import Session, annotations
from notation import record as gtn


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


def _comment_html(comment: annotations.Comment | None) -> str:
    if comment is None or not comment.text:
        return ""
    return f'<span class="comment">{escape(comment.text)}</span>'


def _extras_html(comment: annotations.Comment | None) -> str:
    """A move's clock time, time taken and evaluation, shown beside it."""
    if comment is None:
        return ""
    out = ""
    if comment.evaluation is not None:
        out += f'<span class="ev" title="evaluation">{escape(comment.evaluation)}</span>'
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
                    comment = annotations.read_comment(item.comment) if last else None
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
                    comment = annotations.read_comment(item.comment) if last else None
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


def page(tree: Tree, first: str, width: float, height: float, packed: str,
         seen: Any) -> str:
    """The page, for ``seen`` (a :class:`gametool.views.render.Sight`)."""
    session = tree.session
    title, head = header(session, seen)
    kind = "paired" if tree.paired else "plies"
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>:root {{ --width: {width + 2:g}px; --shape: {width:g} / {height:g}; }}"
        f"{STYLE}</style>",
        "</head>",
        '<body data-ply="0" data-node="0">',
        head,
        '<div class="layout">',
        '<div id="board">',
        f'<figure id="frame" data-ply="0" data-node="0">{first}</figure>',
        "</div>",
        '<div id="side">',
        '<nav><button id="first" title="the start (Home)">&laquo;</button>'
        '<button id="prev" title="back (Left arrow; Page Up: ten)">&#x25C0;</button>'
        f'<span id="ply">ply 0 of {session.ply}</span>'
        '<button id="next" title="forward (Right arrow; Page Down: ten)">&#x25B6;</button>'
        '<button id="last" title="the end of this line (End)">&raquo;</button>'
        '<button id="up" title="back to the line this variation leaves (Up arrow)" disabled>'
        '&#x2191;</button>'
        f'<input id="goto" type="number" min="0" max="{session.ply}" value="0" '
        'title="go to ply (Enter)" aria-label="ply"></nav>',
        f'<div id="moves" class="{kind}">{tree.html}</div>',
        '<p class="help">\u2190 \u2192 step, PgUp PgDn ten plies, Home End, \u2191 leaves a '
        "variation; a click on a move shows it.</p>",
        "</div>",
        "</div>",
        f'<script type="application/octet-stream" id="plies" data-encoding="gzip">{packed}'
        "</script>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]) + "\n"


STYLE = """
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: .6em; color: #000;
       background: #fff; }
#game h1 { font-size: 1.15em; margin: 0; }
#game p { margin: .1em 0; color: #333; font-size: .9em; }
#game .elo { color: #555; font-weight: normal; font-size: .85em; }
.layout { display: flex; gap: 1em; align-items: flex-start; margin-top: .4em; }
#board { flex: 0 1 var(--width); max-width: var(--width); min-width: 0; }
#side { flex: 1 1 17em; min-width: 15em; max-width: 30em; position: sticky; top: .3em;
        display: flex; flex-direction: column; gap: .35em; max-height: calc(100vh - .6em); }
#frame { margin: 0; width: 100%; overflow: hidden; border: 1px solid #999;
         aspect-ratio: var(--shape); }
#frame svg { display: block; height: auto; }
nav { display: flex; flex-wrap: wrap; gap: .25em; align-items: center; background: #fff; }
nav button { font-size: 1em; min-width: 2em; padding: .15em .3em; }
#ply { flex: 1 1 auto; text-align: center; font-weight: bold; white-space: nowrap;
       font-size: .9em; }
#goto { width: 4.5em; }
#moves { flex: 1 1 auto; min-height: 8em; overflow-y: auto; border: 1px solid #ccc;
         display: grid; grid-template-columns: 2.6em 1fr 1fr; align-content: start;
         font-variant-numeric: tabular-nums; }
#moves .n { color: #666; text-align: right; padding: .1em .4em .1em 0; background: #f3f3f3; }
#moves .cell { padding: .1em .2em; display: flex; gap: .3em; align-items: baseline; }
#moves .cell.wide { grid-column: span 2; }
#moves .mv { cursor: pointer; padding: 0 .25em; border-radius: 3px; }
#moves .mv:hover { background: #dde8f3; }
#moves .mv.current { background: #F0E442; outline: 2px solid #0072B2; }
#moves .nag { color: #a0410d; font-weight: bold; }
#moves .clk, #moves .ev { font-size: .75em; color: #555; margin-left: auto; }
#moves .ev { margin-left: 0; color: #0b5394; }
#moves .cell .ev:first-of-type { margin-left: auto; }
#moves .note { grid-column: 1 / -1; padding: .2em .5em; font-size: .9em; background: #fafafa;
               border-top: 1px solid #eee; border-bottom: 1px solid #eee; }
#moves .comment { color: #1b5e20; font-style: italic; }
#moves .var .mv { padding: 0 .15em; }
#moves .var .num { color: #666; margin-right: .15em; }
#moves .sub { color: #444; }
#moves .sub::before { content: ""; }
#moves .who { color: #555; }
#moves .end { font-weight: normal; text-align: center; }
.help { color: #444; font-size: .8em; margin: 0; }
@media (max-width: 760px) {
  .layout { flex-direction: column; }
  #board { flex: none; width: 100%; }
  #side { position: static; max-height: none; width: 100%; max-width: none; }
  #moves { max-height: 40vh; }
  nav { position: fixed; left: 0; right: 0; bottom: 0; padding: .3em .5em;
        border-top: 1px solid #999; z-index: 2; }
  body { padding-bottom: 3em; }
}
@media print { nav, .help { display: none; } #moves { max-height: none; } }
"""

SCRIPT = """
(function () {
  var frame = document.getElementById("frame");
  var label = document.getElementById("ply");
  var list = document.getElementById("moves");
  var input = document.getElementById("goto");
  var up = document.getElementById("up");
  var moves = {};
  var spans = list.querySelectorAll(".mv");
  for (var m = 0; m < spans.length; m++) { moves[spans[m].dataset.node] = spans[m]; }
  var data, lines, lineOf = [], current = -1, built = {};
  function pieces(text) { return text.split(/(?=<)/); }
  function parent(node) {
    var line = lines[lineOf[node]];
    return node === line[1] ? line[0] : node - 1;
  }
  function plyOf(node) { var line = lines[lineOf[node]]; return line[2] + node - line[1]; }
  function tokens(node) {
    if (built[node]) { return built[node]; }
    var entry = data.frames[node], out;
    if (typeof entry === "string") {
      out = pieces(entry);
    } else {
      var before = tokens(parent(node));
      out = [];
      for (var i = 0; i < entry.length; i++) {
        var op = entry[i];
        if (typeof op === "string") { Array.prototype.push.apply(out, pieces(op)); }
        else { for (var k = op[0]; k < op[0] + op[1]; k++) { out.push(before[k]); } }
      }
    }
    built[node] = out;
    return out;
  }
  function nodeAt(index, ply) {
    var line = lines[index];
    while (ply < line[2]) { index = parentLine[index]; line = lines[index]; }
    return line[1] + Math.min(ply, line[2] + line[3] - 1) - line[2];
  }
  var parentLine = [];
  function show(node) {
    if (node < 0 || node >= data.frames.length || node === current) { return; }
    if (moves[current]) { moves[current].classList.remove("current"); }
    current = node;
    var ply = plyOf(node), index = lineOf[node];
    frame.innerHTML = tokens(node).join("");
    var svg = frame.firstElementChild;
    if (svg) {
      svg.style.width = (100 * Number(svg.getAttribute("width")) / data.width) + "%";
    }
    frame.dataset.ply = String(ply);
    frame.dataset.node = String(node);
    var move = moves[node];
    if (move) {
      move.classList.add("current");
      var box = list.getBoundingClientRect(), at = move.getBoundingClientRect();
      if (at.top < box.top) { list.scrollTop -= box.top - at.top + 4; }
      else if (at.bottom > box.bottom) { list.scrollTop += at.bottom - box.bottom + 4; }
    } else if (node === 0) { list.scrollTop = 0; }
    var last = lines[index][2] + lines[index][3] - 1;
    label.textContent = "ply " + ply + " of " + last + (index ? " \\u00b7 variation " + index : "");
    if (document.activeElement !== input) { input.value = String(ply); }
    input.max = String(last);
    up.disabled = index === 0;
    document.body.dataset.ply = String(ply);
    document.body.dataset.node = String(node);
    document.body.dataset.line = String(index);
    var hash = (index ? "#v" + index + "-" : "#") + "ply-" + ply;
    if (location.hash !== hash && history.replaceState) { history.replaceState(null, "", hash); }
  }
  function step(count) {
    var node = current, index = lineOf[node], line = lines[index];
    if (count > 0) {
      node = Math.min(node + count, line[1] + line[3] - 1);
    } else {
      for (var i = 0; i < -count && parent(node) >= 0; i++) { node = parent(node); }
    }
    show(node);
  }
  function leave() {
    var index = lineOf[current];
    if (index === 0) { return; }
    show(nodeAt(parentLine[index], plyOf(current)));
  }
  function fromHash() {
    var wanted = /^#(?:v(\\d+)-)?ply-(\\d+)$/.exec(location.hash);
    var index = wanted && wanted[1] ? Number(wanted[1]) : 0;
    if (!wanted || index >= lines.length) { show(0); return; }
    show(nodeAt(index, Number(wanted[2])));
  }
  function start(loaded) {
    data = loaded;
    lines = data.lines;
    for (var l = 0; l < lines.length; l++) {
      for (var n = lines[l][1]; n < lines[l][1] + lines[l][3]; n++) { lineOf[n] = l; }
      parentLine[l] = l === 0 ? -1 : lineOf[lines[l][0]];
    }
    document.getElementById("first").onclick = function () { show(0); };
    document.getElementById("prev").onclick = function () { step(-1); };
    document.getElementById("next").onclick = function () { step(1); };
    document.getElementById("last").onclick = function () { step(1e9); };
    up.onclick = leave;
    list.onclick = function (event) {
      var target = event.target.closest ? event.target.closest(".mv") : null;
      if (target) { show(Number(target.dataset.node)); }
    };
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        var ply = Math.max(0, Number(input.value) || 0);
        show(nodeAt(lineOf[current], ply));
        input.blur();
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.target === input || event.altKey || event.ctrlKey || event.metaKey) { return; }
      var keys = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, PageDown: 10, PageUp: -10,
                  End: 1e9, Home: -1e9};
      if (event.key in keys) { event.preventDefault(); step(keys[event.key]); }
      else if (event.key === "ArrowUp" || event.key === "Escape") {
        event.preventDefault(); leave();
      }
    });
    window.addEventListener("hashchange", fromHash);
    fromHash();
    document.body.dataset.ready = "1";
  }
  var packed = document.getElementById("plies");
  var bytes = Uint8Array.from(atob(packed.textContent), function (c) { return c.charCodeAt(0); });
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream).text().then(function (text) { start(JSON.parse(text)); });
})();
"""
