"""A replay page: one self-contained HTML file with the picture of every position of a record,
the move list, and stepping by buttons and the arrow keys.

Every picture is drawn for one seat (None: a spectator) exactly as ``show --svg --as SEAT
--ply N`` draws it, so the page holds nothing that seat may not see. The page loads nothing:
its style, script and pictures are all inline.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from gametool import render
from gametool.engine import CHANCE
from gametool.record import Session

STYLE = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 1em; color: #000;
       background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 .2em 0; }
.layout { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.frame svg { max-width: 100%; height: auto; border: 1px solid #999; }
nav { margin: .5em 0; display: flex; gap: .4em; align-items: center; }
nav button { font-size: 1.1em; min-width: 2.5em; padding: .2em .5em; }
#ply { min-width: 9em; text-align: center; font-weight: bold; }
#moves { max-height: 80vh; overflow-y: auto; margin: 0; padding-left: 3.5em;
         min-width: 16em; }
#moves li { cursor: pointer; padding: .1em .3em; }
#moves li.current { background: #F0E442; outline: 2px solid #0072B2; }
.help { color: #444; font-size: .9em; }
@media print { nav, .help { display: none; } #moves { max-height: none; } }
"""

SCRIPT = """
(function () {
  var frames = document.querySelectorAll(".frame");
  var moves = document.querySelectorAll("#moves li");
  var label = document.getElementById("ply");
  var last = frames.length - 1;
  var current = 0;
  function show(ply) {
    current = Math.max(0, Math.min(last, ply));
    for (var i = 0; i < frames.length; i++) { frames[i].hidden = i !== current; }
    for (var j = 0; j < moves.length; j++) {
      moves[j].classList.toggle("current", Number(moves[j].dataset.ply) === current);
    }
    label.textContent = "ply " + current + " of " + last;
    document.body.dataset.ply = String(current);
    if (history.replaceState) { history.replaceState(null, "", "#ply-" + current); }
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(current - 1); };
  document.getElementById("next").onclick = function () { show(current + 1); };
  document.getElementById("last").onclick = function () { show(last); };
  for (var k = 0; k < moves.length; k++) {
    moves[k].onclick = function () { show(Number(this.dataset.ply)); };
  }
  document.addEventListener("keydown", function (event) {
    var keys = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last};
    if (event.key in keys) { event.preventDefault(); show(keys[event.key]); }
  });
  function fromHash() {
    var wanted = /^#ply-(\\d+)$/.exec(location.hash);
    show(wanted ? Number(wanted[1]) : 0);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
"""


def replay_page(session: Session, as_seat: str | None = None,
                flip: bool | None = None) -> str:
    """The page of ``session`` for ``as_seat`` (None: a spectator)."""
    game = session.game
    seat = None
    if as_seat is not None:
        index = session.seat_index(as_seat)  # raises for an unknown seat
        seat = None if index == CHANCE else index
    title = f"{game.name}: {', '.join(session.names)}"
    frames = []
    for ply in range(session.ply + 1):
        # ids differ per picture: a pattern in a hidden picture would not paint the shown one
        picture = render.show_svg(session, ply, as_seat, flip, ids=f"p{ply}-")
        frames.append(f'<figure class="frame" id="frame-{ply}" data-ply="{ply}"'
                      f'{" hidden" if ply else ""}>{picture.strip()}</figure>')
    items = []
    for ply in range(1, session.ply + 1):
        move = render.last_action(session, ply, seat) or ""
        items.append(f'<li value="{ply}" data-ply="{ply}">{escape(move)}</li>')
    seen = f" as {escape(as_seat)}" if as_seat is not None else ""
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        '<body data-ply="0">',
        f"<h1>{escape(title)}</h1>",
        f'<p class="help">{session.ply} {"ply" if session.ply == 1 else "plies"}{seen}. '
        "Step with the buttons, the arrow keys "
        "(Home, End: first and last position) or a click on a move.</p>",
        '<nav><button id="first" title="first position (Home)">&laquo;</button>'
        '<button id="prev" title="back (Left arrow)">&#x25C0;</button>'
        f'<span id="ply">ply 0 of {session.ply}</span>'
        '<button id="next" title="forward (Right arrow)">&#x25B6;</button>'
        '<button id="last" title="last position (End)">&raquo;</button></nav>',
        '<div class="layout">',
        '<div id="board">',
        *frames,
        "</div>",
        f'<ol id="moves">{"".join(items)}</ol>',
        "</div>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]) + "\n"
