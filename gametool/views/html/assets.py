"""The text of a replay page (see :mod:`gametool.views.html.page`): its frame of HTML, its style
and its script. The board's picture fills the space it has (the largest the window allows
beside or above the moves); everything about the position that is words (the seat to move, the
last move, the comment, clocks, the game's own lines and tables, the legend) is HTML beside it.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape


def page(title: str, head: str, first: str, info: str, moves: str, kind: str, plies: int,
         width: float, height: float, packed: str, graphs: list[str], copy_label: str,
         saves: list[tuple[str, str]]) -> str:
    """The whole page: ``first`` the first picture, ``info`` its words, ``moves`` the move
    list, ``graphs`` the graphs' SVG, ``saves`` (id, file name) of the records to download."""
    links = "".join(f'<a class="save" id="{key}" download="{escape(name)}" role="button">'
                    f'{escape(name.rsplit(".", 1)[-1])}</a>' for key, name in saves)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        f"<title>{escape(title)}</title>",
        f"<style>:root {{ --ratio: {width / height:.5f}; --shape: {width:g} / {height:g}; }}"
        f"{STYLE}</style>",
        "</head>",
        '<body data-ply="0" data-node="0">',
        '<div class="layout">',
        '<div id="board">',
        f'<figure id="frame" data-ply="0" data-node="0">{first}</figure>',
        "</div>",
        '<div id="side">',
        head,
        '<nav><button id="first" title="the start (Home)">&laquo;</button>'
        '<button id="prev" title="back (Left arrow; Page Up: ten)">&#x25C0;</button>'
        f'<span id="ply">ply 0 of {plies}</span>'
        '<button id="next" title="forward (Right arrow; Page Down: ten)">&#x25B6;</button>'
        '<button id="last" title="the end of this line (End)">&raquo;</button>'
        '<button id="up" title="back to the line this variation leaves (Up arrow)" disabled>'
        '&#x2191;</button>'
        f'<input id="goto" type="number" min="0" max="{plies}" value="0" '
        'title="go to ply (Enter)" aria-label="ply"></nav>',
        '<div id="tools">'
        '<button id="flip" title="turn the board round (f)" aria-pressed="false">'
        '&#x21C5; turn</button>'
        '<button id="theme" title="dark or light page" aria-pressed="false">&#x25D0; dark'
        '</button>'
        f'<button id="copy" title="copy the position">copy {escape(copy_label)}</button>'
        f'{links}<span id="status" aria-live="polite"></span></div>',
        f'<div id="info">{info}</div>',
        f'<div id="graphs">{"".join(graphs)}</div>' if graphs else "",
        f'<div id="moves" class="{kind}">{moves}</div>',
        '<p class="help">\u2190 \u2192 step, PgUp PgDn ten plies, Home End, \u2191 leaves a '
        "variation, f turns the board; a click on a move or a graph shows it.</p>",
        "</div>",
        "</div>",
        f'<script type="application/octet-stream" id="plies" data-encoding="gzip">{packed}'
        "</script>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]) + "\n"


def games_list(rows: list[dict[str, Any]]) -> str:
    """The list of a file's games: players, result, event, date and opening, each a link to
    its viewer (``href`` a file of a folder, or ``#game-N`` on one page)."""
    head = "".join(f"<th>{word}</th>" for word in
                   ("#", "players", "result", "event", "date", "opening", "plies"))
    body = "".join(
        f'<tr><td>{row["number"]}</td><td><a href="{escape(row["href"])}">'
        f'{escape(row["players"])}</a></td><td>{escape(row["result"])}</td>'
        f'<td>{escape(row["event"])}</td><td>{escape(row["date"])}</td>'
        f'<td>{escape(row["opening"])}</td><td>{row["plies"]}</td></tr>' for row in rows)
    return f'<table id="games"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


STYLE = """
:root { --bg: #ffffff; --fg: #000000; --muted: #555555; --panel: #f3f3f3; --rule: #cccccc;
        --now: #F0E442; --accent: #0072B2; --said: #1b5e20; --ev: #0b5394; --nag: #a0410d;
        --hover: #dde8f3; --adv: #ffffff; --bed: #404040; }
:root[data-theme="dark"] { --bg: #1b1a17; --fg: #e8e6e3; --muted: #a9a59e; --panel: #26241f;
        --rule: #4a4740; --now: #6b5f10; --accent: #56B4E9; --said: #8fd19e; --ev: #9ec9ff;
        --nag: #f0a070; --hover: #33414f; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) { --bg: #1b1a17; --fg: #e8e6e3; --muted: #a9a59e;
        --panel: #26241f; --rule: #4a4740; --now: #6b5f10; --accent: #56B4E9;
        --said: #8fd19e; --ev: #9ec9ff; --nag: #f0a070; --hover: #33414f; }
}
* { box-sizing: border-box; }
html, body { height: 100%; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; color: var(--fg);
       background: var(--bg); overflow: hidden; }
.layout { display: flex; gap: .8em; height: 100vh; padding: .4em; }
#board { flex: none; }
#frame { margin: 0; background: #ffffff; border-radius: 3px; aspect-ratio: var(--shape);
         width: min(calc(100vw - 25em), calc((100vh - .8em) * var(--ratio))); }
#frame svg { display: block; width: 100%; height: 100%; }
#side { flex: 1 1 22em; min-width: 22em; max-width: 40em; display: flex;
        flex-direction: column; gap: .35em; min-height: 0; }
#game h1 { font-size: 1.1em; margin: 0; }
#game p { margin: .1em 0; color: var(--muted); font-size: .85em; }
#game .elo { color: var(--muted); font-weight: normal; font-size: .85em; }
nav, #tools { display: flex; flex-wrap: wrap; gap: .25em; align-items: center; flex: none; }
nav button, #tools button, #tools .save { font-size: .95em; min-width: 2em; padding: .15em .35em;
        background: var(--panel); color: var(--fg); border: 1px solid var(--rule);
        border-radius: 3px; cursor: pointer; text-decoration: none; }
#tools button[aria-pressed="true"] { outline: 2px solid var(--accent); }
#ply { flex: 1 1 auto; text-align: center; font-weight: bold; white-space: nowrap;
       font-size: .9em; }
#goto { width: 4.5em; background: var(--bg); color: var(--fg); }
#status { font-size: .8em; color: var(--muted); }
#info { flex: none; max-height: 26vh; overflow-y: auto; font-size: .85em; padding: .2em .4em;
        background: var(--panel); border-radius: 3px; }
#info p { margin: .1em 0; overflow-wrap: anywhere; }
#info .said { color: var(--said); font-style: italic; }
#info .gline { color: var(--muted); font-family: "DejaVu Sans Mono", monospace; font-size: .9em; }
#info table { border-collapse: collapse; margin: .2em 0; font-size: .95em; }
#info caption { text-align: left; font-weight: bold; }
#info th, #info td { padding: 0 .5em 0 0; text-align: left; }
.legend { margin: .2em 0 0; }
.key { margin-right: .8em; white-space: nowrap; }
.key i { display: inline-block; width: .8em; height: .8em; border: 1px solid #000;
         border-radius: 50%; margin-right: .25em; vertical-align: -.05em; }
#graphs { flex: none; display: flex; flex-direction: column; gap: .2em; }
.graph { margin: 0; }
.graph figcaption { font-size: .75em; color: var(--muted); }
.plot { display: block; width: 100%; height: 2.6em; cursor: crosshair; border-radius: 2px; }
.plot .bed { fill: var(--bed); }
.plot .adv { fill: var(--adv); stroke: none; }
.plot .mid { stroke: #888888; stroke-width: 1; vector-effect: non-scaling-stroke; }
.plot .seat { fill: none; stroke-width: 2; vector-effect: non-scaling-stroke; }
.plot .at { stroke: #D55E00; stroke-width: 2; vector-effect: non-scaling-stroke; }
.graph:not([data-graph="evaluation"]) .bed { fill: var(--panel); }
#moves { flex: 1 1 0; min-height: 6em; overflow-y: auto; border: 1px solid var(--rule);
         display: grid; grid-template-columns: 2.6em 1fr 1fr; align-content: start;
         font-variant-numeric: tabular-nums; }
#moves .n { color: var(--muted); text-align: right; padding: .1em .4em .1em 0;
            background: var(--panel); }
#moves .cell { padding: .1em .2em; display: flex; gap: .3em; align-items: baseline;
               min-width: 0; }
#moves .cell.wide { grid-column: span 2; }
#moves .mv { cursor: pointer; padding: 0 .25em; border-radius: 3px; white-space: nowrap;
             scroll-margin: 1.6em 0; }
#moves .mv:hover { background: var(--hover); }
#moves .mv.current { background: var(--now); outline: 2px solid var(--accent); }
#moves .nag { color: var(--nag); font-weight: bold; }
#moves .clk, #moves .ev { font-size: .75em; color: var(--muted); margin-left: auto; }
#moves .ev { margin-left: 0; color: var(--ev); }
#moves .cell .ev:first-of-type { margin-left: auto; }
#moves .note { grid-column: 1 / -1; padding: .2em .5em; font-size: .9em;
               border-top: 1px solid var(--rule); border-bottom: 1px solid var(--rule); }
#moves .comment { color: var(--said); font-style: italic; }
#moves .var .mv { padding: 0 .15em; }
#moves .var .num { color: var(--muted); margin-right: .15em; }
#moves .who { color: var(--muted); }
#moves .end { font-weight: normal; text-align: center; }
.help { color: var(--muted); font-size: .75em; margin: 0; flex: none; }
#frame.turned .turn { transform: rotate(180deg); transform-box: fill-box;
                      transform-origin: center; }
#frame.turned .turn g.piece, #frame.turned .turn .coord {
  transform: rotate(180deg); transform-box: fill-box; transform-origin: center; }
:root[data-theme="dark"] #frame { filter: brightness(.9); }
#games { border-collapse: collapse; font-size: .85em; margin: .4em; }
#games th, #games td { padding: .1em .6em .1em 0; text-align: left; }
#games a { color: var(--accent); }
@media (max-width: 760px) {
  .layout { flex-direction: column; gap: .3em; padding: .2em; }
  #frame { width: min(calc(100vw - .4em), calc(50vh * var(--ratio))); margin: 0 auto; }
  #side { min-width: 0; max-width: none; flex: 1 1 0; gap: .25em; }
  #game h1 { font-size: .95em; }
  #game p { font-size: .75em; }
  #game .event { display: none; }
  #info { max-height: 12vh; font-size: .8em; }
  .plot { height: 1.8em; }
  .graph figcaption { display: none; }
  .help { display: none; }
  #moves { min-height: 5em; }
}
@media print {
  body { overflow: visible; }
  .layout { display: block; height: auto; }
  nav, #tools, .help, #graphs { display: none; }
  #frame { width: 16cm; filter: none; }
  #moves { overflow: visible; border: none; }
  #info { max-height: none; }
}
"""

SCRIPT = """
(function () {
  var frame = document.getElementById("frame");
  var label = document.getElementById("ply");
  var list = document.getElementById("moves");
  var info = document.getElementById("info");
  var input = document.getElementById("goto");
  var up = document.getElementById("up");
  var status = document.getElementById("status");
  var plots = document.querySelectorAll(".plot");
  var root = document.documentElement;
  var moves = {};
  var spans = list.querySelectorAll(".mv");
  for (var m = 0; m < spans.length; m++) { moves[spans[m].dataset.node] = spans[m]; }
  var data, lines, lineOf = [], parentLine = [], current = -1;
  var built = {pictures: {}, infos: {}, copies: {}};
  function pieces(text, cut) { return text.split(cut); }
  function parent(node) {
    var line = lines[lineOf[node]];
    return node === line[1] ? line[0] : node - 1;
  }
  function plyOf(node) { var line = lines[lineOf[node]]; return line[2] + node - line[1]; }
  function tokens(kind, cut, node) {
    var kept = built[kind];
    if (kept[node]) { return kept[node]; }
    var entry = data[kind][node], out;
    if (typeof entry === "string") {
      out = pieces(entry, cut);
    } else {
      var before = tokens(kind, cut, parent(node));
      out = [];
      for (var i = 0; i < entry.length; i++) {
        var op = entry[i];
        if (typeof op === "string") { Array.prototype.push.apply(out, pieces(op, cut)); }
        else { for (var k = op[0]; k < op[0] + op[1]; k++) { out.push(before[k]); } }
      }
    }
    kept[node] = out;
    return out;
  }
  var TAGS = /(?=<)/, LINES = /(?<=\\n)/;
  function nodeAt(index, ply) {
    var line = lines[index];
    while (ply < line[2]) { index = parentLine[index]; line = lines[index]; }
    return line[1] + Math.min(ply, line[2] + line[3] - 1) - line[2];
  }
  function fit(svg) {
    svg.setAttribute("data-width", svg.getAttribute("width"));
    svg.setAttribute("data-height", svg.getAttribute("height"));
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("viewBox", "0 0 " + data.width + " " + data.height);
    svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  }
  function mark(ply) {
    for (var p = 0; p < plots.length; p++) {
      var plot = plots[p], at = plot.querySelector(".at");
      var x = 600 * Math.min(ply, Number(plot.dataset.plies)) / Math.max(1, plot.dataset.plies);
      at.setAttribute("x1", x); at.setAttribute("x2", x);
    }
  }
  function show(node) {
    if (node < 0 || node >= data.pictures.length || node === current) { return; }
    if (moves[current]) {
      moves[current].classList.remove("current");
      moves[current].removeAttribute("aria-current");
    }
    current = node;
    var ply = plyOf(node), index = lineOf[node];
    frame.innerHTML = tokens("pictures", TAGS, node).join("");
    if (frame.firstElementChild) { fit(frame.firstElementChild); }
    info.innerHTML = tokens("infos", TAGS, node).join("");
    frame.dataset.ply = String(ply);
    frame.dataset.node = String(node);
    var move = moves[node];
    if (move) {
      move.classList.add("current");
      move.setAttribute("aria-current", "step");
      move.scrollIntoView({block: "nearest", inline: "nearest"});
    } else if (node === 0) { list.scrollTop = 0; }
    var last = lines[index][2] + lines[index][3] - 1;
    label.textContent = "ply " + ply + " of " + last + (index ? " \\u00b7 variation " + index : "");
    if (document.activeElement !== input) { input.value = String(ply); }
    input.max = String(last);
    up.disabled = index === 0;
    mark(ply);
    document.body.dataset.ply = String(ply);
    document.body.dataset.node = String(node);
    document.body.dataset.line = String(index);
    var hash = (index ? "#v" + index + "-" : "#") + "ply-" + ply;
    if (location.hash !== hash && history.replaceState) {
      try { history.replaceState(null, "", hash); } catch (e) { /* a page in a frame */ }
    }
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
  function turn() {
    var turned = frame.classList.toggle("turned");
    document.getElementById("flip").setAttribute("aria-pressed", String(turned));
    document.body.dataset.turned = turned ? "1" : "0";
  }
  function dark() {
    return root.dataset.theme ? root.dataset.theme === "dark"
      : !!(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  }
  function theme() {
    root.dataset.theme = dark() ? "light" : "dark";
    shade();
  }
  function shade() {
    var button = document.getElementById("theme");
    button.setAttribute("aria-pressed", String(dark()));
    button.textContent = dark() ? "\\u25D1 light" : "\\u25D0 dark";
    document.body.dataset.theme = dark() ? "dark" : "light";
  }
  function copy() {
    var text = tokens("copies", LINES, current).join("");
    document.body.dataset.copied = text;
    function done() { status.textContent = "copied"; }
    function fallback() {
      var area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      try { document.execCommand("copy"); done(); } catch (e) { status.textContent = text; }
      document.body.removeChild(area);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else { fallback(); }
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
    document.getElementById("flip").onclick = turn;
    document.getElementById("theme").onclick = theme;
    document.getElementById("copy").onclick = copy;
    for (var key in data.saves) {
      var link = document.getElementById(key);
      var blob = new Blob([data.saves[key]], {type: "text/plain;charset=utf-8"});
      if (link) { link.setAttribute("href", URL.createObjectURL(blob)); }
    }
    for (var p = 0; p < plots.length; p++) {
      plots[p].addEventListener("click", function (event) {
        var box = this.getBoundingClientRect(), plies = Number(this.dataset.plies);
        var ply = Math.round(plies * (event.clientX - box.left) / Math.max(1, box.width));
        show(nodeAt(0, Math.max(0, Math.min(plies, ply))));
      });
    }
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
      } else if (event.key === "f" || event.key === "F") { event.preventDefault(); turn(); }
    });
    if (window.matchMedia) {
      var query = matchMedia("(prefers-color-scheme: dark)");
      if (query.addEventListener) { query.addEventListener("change", shade); }
    }
    shade();
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
