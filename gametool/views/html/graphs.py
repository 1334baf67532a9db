"""The graphs of a replay page: the evaluation and the clocks a record's comments give, and the
running scores a game keeps, each over the main line's plies, as an SVG a click on which moves
to that ply (the page's script marks the ply shown). Nothing here knows a game: the scores are
the game's :meth:`~gametool.core.engine.Game.scores`, the rest is read from comments."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

WIDTH, HEIGHT = 600.0, 64.0
CAP = 6.0
"""Evaluations beyond this many pawns (and mates) are drawn at it."""
SEAT_INK = ("#E69F00", "#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")

Series = Sequence[float | None]


def _x(ply: int, plies: int) -> float:
    return WIDTH * ply / max(plies, 1)


def _frame(name: str, label: str, plies: int, body: str, key: str = "") -> str:
    return (f'<figure class="graph" data-graph="{name}"><figcaption>{escape(label)}{key}'
            f'</figcaption><svg class="plot" role="img" aria-label={quoteattr(name)} '
            f'viewBox="0 0 {WIDTH:g} {HEIGHT:g}" preserveAspectRatio="none" '
            f'data-plies="{plies}"><title>{escape(label)}</title>'
            f'<rect class="bed" width="{WIDTH:g}" height="{HEIGHT:g}"/>{body}'
            f'<line class="at" x1="0" x2="0" y1="0" y2="{HEIGHT:g}"/></svg></figure>')


def _key(names: Sequence[str]) -> str:
    return "".join(f' <span class="key"><i style="background:{SEAT_INK[n % len(SEAT_INK)]}">'
                   f"</i>{escape(name)}</span>" for n, name in enumerate(names))


def evaluation(values: Series, plies: int) -> str | None:
    """The first seat's advantage ply by ply (a mate at the cap), as lichess draws it: the
    area above the middle line is the first seat's."""
    if sum(v is not None for v in values) < 2:
        return None
    middle = HEIGHT / 2
    points = [f"0,{HEIGHT:g}"]
    last = 0.0
    for ply, value in enumerate(values):
        last = last if value is None else max(-CAP, min(CAP, value))
        points.append(f"{_x(ply, plies):.1f},{middle - last / CAP * middle:.1f}")
    points.append(f"{_x(len(values) - 1, plies):.1f},{HEIGHT:g}")
    body = (f'<polygon class="adv" points="{" ".join(points)}"/>'
            f'<line class="mid" x1="0" x2="{WIDTH:g}" y1="{middle:g}" y2="{middle:g}"/>')
    return _frame("evaluation", "evaluation", plies, body)


def lines(name: str, label: str, series: Sequence[Series], names: Sequence[str],
          plies: int) -> str | None:
    """One line per seat over the plies (a value missing at a ply continues the line), scaled
    to the largest value: the clocks, the scores."""
    known = [v for values in series for v in values if v is not None]
    if len(known) < 2:
        return None
    low, high = min(0.0, min(known)), max(known)
    span = (high - low) or 1.0
    body = ""
    for seat, values in enumerate(series):
        points = [f"{_x(ply, plies):.1f},{HEIGHT - 3 - (v - low) / span * (HEIGHT - 6):.1f}"
                  for ply, v in enumerate(values) if v is not None]
        if points:
            body += (f'<polyline class="seat" points="{" ".join(points)}" '
                     f'stroke="{SEAT_INK[seat % len(SEAT_INK)]}"/>')
    return _frame(name, label, plies, body, _key(names))
