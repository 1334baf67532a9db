"""A replay page: one self-contained HTML file that steps through a record picture by picture,
with the move list beside the board.

Every picture is drawn for one seat (None: a spectator) exactly as ``show --svg --as SEAT
--ply N`` draws it, so the page holds nothing that seat may not see. The page loads nothing:
its style, script and pictures are all inline.

The pictures are not written out one by one: consecutive positions share most of their SVG
(the board, its coordinates, the styles and definitions), so the page carries the first
picture, and every ``KEY_EVERY`` plies another whole one, and for each other ply only how its
picture differs from the one before (pieces of SVG copied from it, and the new ones). The
script rebuilds a ply's picture when it is shown. :func:`pictures_of` does the same in Python,
for tests and tools.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from gametool import render
from gametool.engine import CHANCE
from gametool.record import Session

KEY_EVERY = 50
"""A whole picture every so many plies, so a jump rebuilds at most this many differences."""

IDS = "pic-"
"""The prefix of the ids inside the pictures; one picture is on the page at a time."""

STYLE = """
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: .8em; color: #000;
       background: #fff; }
h1 { font-size: 1.2em; margin: 0 0 .3em 0; }
.layout { display: flex; gap: 1em; align-items: flex-start; }
#board { flex: 1 1 auto; min-width: 0; }
#side { flex: 0 0 18.5em; display: flex; flex-direction: column; gap: .4em; }
#frame { margin: 0; max-width: 100%; overflow: hidden; border: 1px solid #999; }
#frame svg { display: block; height: auto; }
nav { display: flex; gap: .25em; align-items: center; }
nav button { font-size: 1em; min-width: 2.2em; padding: .15em .3em; }
#ply { flex: 1 1 auto; text-align: center; font-weight: bold; white-space: nowrap; }
#moves { max-height: calc(100vh - 9em); overflow-y: auto; margin: 0; padding: 0 0 0 3em;
         border: 1px solid #ccc; font-variant-numeric: tabular-nums; }
#moves li { padding: .05em 0; }
#moves .mv { cursor: pointer; padding: .05em .35em; display: inline-block;
             vertical-align: top; }
#moves.paired .mv { min-width: 5.5em; }
#moves .who { color: #555; }
#moves .mv.current { background: #F0E442; outline: 2px solid #0072B2; }
.help { color: #444; font-size: .85em; margin: 0; }
@media (max-width: 760px) {
  .layout { flex-direction: column; }
  #board, #side { flex: none; width: 100%; }
  #moves { max-height: 35vh; }
}
@media print { nav, .help { display: none; } #moves { max-height: none; } }
"""

SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("plies").textContent);
  var frame = document.getElementById("frame");
  var label = document.getElementById("ply");
  var list = document.getElementById("moves");
  var moves = {};
  var spans = list.querySelectorAll(".mv");
  for (var m = 0; m < spans.length; m++) { moves[spans[m].dataset.ply] = spans[m]; }
  var last = data.frames.length - 1;
  var current = -1;
  var built = {};
  function pieces(text) { return text.split(/(?=<)/); }
  function tokens(ply) {
    if (built[ply]) { return built[ply]; }
    var entry = data.frames[ply], out;
    if (typeof entry === "string") {
      out = pieces(entry);
    } else {
      var before = tokens(ply - 1);
      out = [];
      for (var i = 0; i < entry.length; i++) {
        var op = entry[i];
        if (typeof op === "string") { Array.prototype.push.apply(out, pieces(op)); }
        else { for (var k = op[0]; k < op[0] + op[1]; k++) { out.push(before[k]); } }
      }
    }
    built[ply] = out;
    return out;
  }
  function show(ply) {
    ply = Math.max(0, Math.min(last, ply));
    if (ply === current) { return; }
    if (moves[current]) { moves[current].classList.remove("current"); }
    current = ply;
    frame.innerHTML = tokens(ply).join("");
    var svg = frame.firstElementChild;
    if (svg) {
      svg.style.width = (100 * Number(svg.getAttribute("width")) / data.width) + "%";
    }
    frame.dataset.ply = String(ply);
    var move = moves[ply];
    if (move) {
      move.classList.add("current");
      var top = move.offsetTop - list.offsetTop, bottom = top + move.offsetHeight;
      if (top < list.scrollTop) { list.scrollTop = top; }
      else if (bottom > list.scrollTop + list.clientHeight) {
        list.scrollTop = bottom - list.clientHeight;
      }
    } else if (ply === 0) { list.scrollTop = 0; }
    label.textContent = "ply " + ply + " of " + last;
    document.body.dataset.ply = String(ply);
    if (history.replaceState) { history.replaceState(null, "", "#ply-" + ply); }
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(current - 1); };
  document.getElementById("next").onclick = function () { show(current + 1); };
  document.getElementById("last").onclick = function () { show(last); };
  list.onclick = function (event) {
    var target = event.target.closest ? event.target.closest(".mv") : null;
    if (target) { show(Number(target.dataset.ply)); }
  };
  document.addEventListener("keydown", function (event) {
    var keys = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last,
                ArrowDown: current + 1, ArrowUp: current - 1};
    if (event.key in keys) { event.preventDefault(); show(keys[event.key]); }
  });
  function fromHash() {
    var wanted = /^#ply-(\\d+)$/.exec(location.hash);
    show(wanted ? Number(wanted[1]) : 0);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  document.body.dataset.ready = "1";
})();
"""

_TOKEN = re.compile(r"(?=<)")
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def _tokens(picture: str) -> list[str]:
    """A picture cut before every tag, as the page's script cuts it."""
    return [t for t in _TOKEN.split(picture) if t]


def difference(before: list[str], after: list[str]) -> list[Any]:
    """``after`` as runs copied from ``before`` ([start, count]) and new text (a string).

    Greedy and linear: each piece of ``after`` is taken from where the last run left off in
    ``before`` when it is the same there, else from its next occurrence further on, else
    written out. Consecutive pictures differ in a few places, so this finds long runs."""
    where: dict[str, list[int]] = {}
    for index, token in enumerate(before):
        where.setdefault(token, []).append(index)
    out: list[Any] = []
    at = 0  # the next piece of ``before`` a run would take
    for token in after:
        if at < len(before) and before[at] == token and out and isinstance(out[-1], list):
            out[-1][1] += 1
            at += 1
            continue
        places = where.get(token)
        found = bisect_left(places, at) if places else 0
        if places and found < len(places):
            at = places[found]
        elif places:
            at = places[0]  # only earlier: moved back
        else:
            if out and isinstance(out[-1], str):
                out[-1] += token
            else:
                out.append(token)
            continue
        out.append([at, 1])
        at += 1
    return out


def encode(pictures: list[str]) -> list[Any]:
    """Each picture whole every ``KEY_EVERY`` plies, else as its difference from the last."""
    frames: list[Any] = []
    before: list[str] = []
    for ply, picture in enumerate(pictures):
        tokens = _tokens(picture)
        if ply % KEY_EVERY == 0:
            frames.append(picture)
        else:
            change = difference(before, tokens)
            frames.append(change if len(json.dumps(change)) < len(picture) else picture)
        before = tokens
    return frames


def decode(frames: list[Any]) -> list[str]:
    """The pictures back from :func:`encode`'s frames."""
    out: list[list[str]] = []
    for entry in frames:
        if isinstance(entry, str):
            out.append(_tokens(entry))
            continue
        tokens: list[str] = []
        for op in entry:
            if isinstance(op, str):
                tokens += _tokens(op)
            else:
                tokens += out[-1][op[0]:op[0] + op[1]]
        out.append(tokens)
    return ["".join(tokens) for tokens in out]


def pictures_of(page: str) -> list[str]:
    """Every ply's picture held by a replay page, in order."""
    found = re.search(r'<script type="application/json" id="plies">(.*?)</script>', page, re.S)
    if found is None:
        raise ValueError("not a replay page: no plies")
    return decode(json.loads(found.group(1))["frames"])


def _script_json(data: Any) -> str:
    """JSON that may stand inside a script element: no end tag, no comment opening."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace(
        "</", "<\\/").replace("<!", "<\\u0021")


def move_text(session: Session, ply: int, seat: int | None) -> str:
    """The action that led to ``ply`` as ``seat`` may read it, without the seat's name."""
    step = session.steps[ply - 1]
    game = session.game
    before, after = session.states[ply - 1], session.states[ply]
    text = game.mask_action(before, step.action, after, seat)
    shown_whole = text == game.format_action(before, step.action)
    note = game.describe_action(before, step.action) if shown_whole else None
    return f"{text} ({note})" if note else text


def alternates(session: Session) -> bool:
    """True when two seats take one action each in turn and chance never acts: the moves are
    paired by turn (``1. e4 e5``)."""
    seats = [step.seat for step in session.steps]
    if len(session.names) != 2 or not seats or CHANCE in seats:
        return False
    return all(seat == (seats[0] + n) % 2 for n, seat in enumerate(seats))


def move_list(session: Session, seat: int | None) -> tuple[str, str]:
    """The class and the items of the move list: turns paired where seats alternate, else one
    ply a line after its seat's name."""
    def span(ply: int, inner: str) -> str:
        return f'<span class="mv" data-ply="{ply}">{inner}</span>'

    items = []
    if alternates(session):
        first = session.steps[0].seat
        plies = list(range(1, session.ply + 1))
        if first == 1:  # the second seat moves first (a set-up position): "1. ... e5"
            plies.insert(0, 0)
        for turn, start in enumerate(range(0, len(plies), 2), start=1):
            pair = plies[start:start + 2]
            inner = " ".join(span(p, escape(move_text(session, p, seat))) if p else
                            '<span class="mv none">\u2026</span>' for p in pair)
            items.append(f'<li value="{turn}">{inner}</li>')
        return "paired", "".join(items)
    for ply in range(1, session.ply + 1):
        who = session.seat_name(session.steps[ply - 1].seat) or ""
        inner = f'<span class="who">{escape(who)}</span> {escape(move_text(session, ply, seat))}'
        items.append(f'<li value="{ply}">{span(ply, inner)}</li>')
    return "plies", "".join(items)


PictureMaker = Callable[[Session, int, "str | None", "bool | None"], str]


def _picture(session: Session, ply: int, as_seat: str | None, flip: bool | None) -> str:
    return render.show_svg(session, ply, as_seat, flip, ids=IDS).strip()


def replay_page(session: Session, as_seat: str | None = None, flip: bool | None = None,
                picture: PictureMaker = _picture) -> str:
    """The page of ``session`` for ``as_seat`` (None: a spectator). ``picture`` draws one ply
    (by default as ``show --svg`` does)."""
    game = session.game
    seat = None
    if as_seat is not None:
        index = session.seat_index(as_seat)  # raises for an unknown seat
        seat = None if index == CHANCE else index
    pictures = [picture(session, ply, as_seat, flip) for ply in range(session.ply + 1)]
    sizes = [_SIZE.search(p) for p in pictures]
    width = max((float(s.group(1)) for s in sizes if s), default=400)
    height = max((float(s.group(2)) for s in sizes if s), default=400)
    data = {"width": width, "height": height, "frames": encode(pictures)}
    kind, items = move_list(session, seat)
    title = f"{game.name}: " + " \u2013 ".join(session.names)
    seen = f" as {escape(as_seat)}" if as_seat is not None else ""
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}#frame {{ aspect-ratio: {width:g} / {height:g}; "
        f"width: min(100%, {width:g}px, calc((100vh - 4em) * {width / height:.4f})); }}"
        "</style>",
        "</head>",
        '<body data-ply="0">',
        f"<h1>{escape(title)}</h1>",
        '<div class="layout">',
        '<div id="board">',
        f'<figure id="frame" data-ply="0">{pictures[0]}</figure>',
        "</div>",
        '<div id="side">',
        '<nav><button id="first" title="first position (Home)">&laquo;</button>'
        '<button id="prev" title="back (Left arrow)">&#x25C0;</button>'
        f'<span id="ply">ply 0 of {session.ply}</span>'
        '<button id="next" title="forward (Right arrow)">&#x25B6;</button>'
        '<button id="last" title="last position (End)">&raquo;</button></nav>',
        f'<ol id="moves" class="{kind}">{items}</ol>',
        f'<p class="help">{session.ply} plies{seen}. Arrow keys, Home and End step; '
        "a click on a move shows it.</p>",
        "</div>",
        "</div>",
        f'<script type="application/json" id="plies">{_script_json(data)}</script>',
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]) + "\n"
