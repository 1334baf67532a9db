"""A replay page: one self-contained HTML file that steps through a record picture by picture,
as a game viewer does: a header with the event and the players as the record writes them, the
move list with its NAGs, comments, clock times and variations (each clickable), and the
position's picture beside it.

Every picture is drawn exactly as ``show --svg --as SEAT --ply N`` draws it, so the page
holds nothing that seat may not see; without a seat, the master record's picture (every
hidden value, as ``show --svg`` draws it). The page loads nothing: its style, script and
pictures are all inline.

The positions are the nodes of a tree: the main line's plies, then each variation's. A node's
picture is not written out whole: it shares most of its SVG with the picture of the node
before it (the board, its coordinates, the styles and definitions), so the page carries, for
each node, how its picture differs from its parent's (pieces of SVG copied from it, and the
new ones), and a whole picture every ``KEY_EVERY`` nodes down a line. Those differences are
compressed (gzip, in base64); the browser inflates them once when the page opens and rebuilds
a node's picture when it is shown. :func:`pictures_of` does the same in Python.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from collections.abc import Callable
from typing import Any

from gametool.records import Session, annotations
from gametool.records.annotations import shown_session  # noqa: F401 (the names the page shows)
from gametool.views import render
from gametool.views.html import parts as html_page
from gametool.views.html.parts import alternates, move_text  # noqa: F401 (the page's words)

KEY_EVERY = 50
"""A whole picture every so many nodes down a line: a jump rebuilds at most this many."""

IDS = "pic-"
"""The prefix of the ids inside the pictures; one picture is on the page at a time."""

_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def _tokens(picture: str) -> list[str]:
    """A picture cut before every tag, as the page's script cuts it."""
    head, *rest = picture.split("<")
    return ([head] if head else []) + ["<" + piece for piece in rest]


def difference(before: list[str], after: list[str]) -> list[Any]:
    """``after`` as runs copied from ``before`` ([start, count]) and new text (a string).

    Greedy and linear: each piece of ``after`` is taken from where the last run left off in
    ``before`` when it is the same there, else from its next occurrence further on, else
    written out. Consecutive pictures differ in a few places, so this finds long runs."""
    present = set(before)
    out: list[Any] = []
    at = 0  # the next piece of ``before`` a run would take
    size = len(before)
    index = before.index
    for token in after:
        if at < size and before[at] == token and out and isinstance(out[-1], list):
            out[-1][1] += 1
            at += 1
            continue
        if token not in present:
            if out and isinstance(out[-1], str):
                out[-1] += token
            else:
                out.append(token)
            continue
        try:  # its next occurrence from ``at`` on, else its first
            at = index(token, at)
        except ValueError:
            at = index(token)
        out.append([at, 1])
        at += 1
    return out


def encode(pictures: list[str], parents: list[int] | None = None) -> list[Any]:
    """Each picture as its difference from its parent's (by default the picture before), whole
    every ``KEY_EVERY`` nodes down a line and where the difference would be longer."""
    parents = parents if parents is not None else list(range(-1, len(pictures) - 1))
    frames: list[Any] = []
    tokens: list[list[str]] = []
    depth: list[int] = []
    for node, picture in enumerate(pictures):
        parent = parents[node]
        mine = _tokens(picture)
        tokens.append(mine)
        depth.append(0 if parent < 0 else depth[parent] + 1)
        if parent < 0 or depth[node] % KEY_EVERY == 0:
            frames.append(picture)
            continue
        change = difference(tokens[parent], mine)
        frames.append(change if len(json.dumps(change)) < len(picture) else picture)
    return frames


def decode(frames: list[Any], parents: list[int] | None = None) -> list[str]:
    """The pictures back from :func:`encode`'s frames."""
    parents = parents if parents is not None else list(range(-1, len(frames) - 1))
    out: list[list[str]] = []
    for node, entry in enumerate(frames):
        if isinstance(entry, str):
            out.append(_tokens(entry))
            continue
        before = out[parents[node]]
        tokens: list[str] = []
        for op in entry:
            if isinstance(op, str):
                tokens += _tokens(op)
            else:
                tokens += before[op[0]:op[0] + op[1]]
        out.append(tokens)
    return ["".join(tokens) for tokens in out]


def parents_of(lines: list[list[int]]) -> list[int]:
    """Each node's parent from the lines ``[from, first, start, count]``: the node before it in
    its line, or for a line's first node the node it branches from."""
    total = sum(line[3] for line in lines)
    parents = [-1] * total
    for origin, first, _start, count in lines:
        parents[first] = origin
        for node in range(first + 1, first + count):
            parents[node] = node - 1
    return parents


def page_data(page: str) -> dict[str, Any]:
    """The data a replay page carries: sizes, lines and frames."""
    found = re.search(r'<script type="application/octet-stream" id="plies"[^>]*>(.*?)</script>',
                      page, re.S)
    if found is None:
        raise ValueError("not a replay page: no plies")
    return json.loads(gzip.decompress(base64.b64decode(found.group(1))))  # type: ignore[no-any-return]


def pictures_of(page: str) -> list[str]:
    """Every node's picture held by a replay page, in order (the main line's plies first)."""
    data = page_data(page)
    return decode(data["frames"], parents_of(data["lines"]))


def _packed(data: Any) -> str:
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


PictureMaker = Callable[[Session, int, render.Sight, "bool | None"], str]


def _picture(session: Session, ply: int, seen: render.Sight, flip: bool | None) -> str:
    return render.show_svg(session, ply, seen, flip, ids=IDS).strip()


def replay_page(session: Session, as_seat: str | None = None, flip: bool | None = None,
                picture: PictureMaker = _picture) -> str:
    """The page of ``session`` as :func:`render.sight` decides for ``as_seat`` (None: the
    master record's view, every hidden value). ``picture`` draws one node (by default as
    ``show --svg`` does)."""
    seen = render.sight(session, as_seat)  # raises for an unknown seat
    shown = annotations.shown_session(session)
    tree = html_page.Tree(shown, seen)
    pictures = [picture(view, ply, seen, flip) for view, ply in tree.nodes]
    sizes = [_SIZE.search(p) for p in pictures]
    width = max((float(s.group(1)) for s in sizes if s), default=400)
    height = max((float(s.group(2)) for s in sizes if s), default=400)
    data = {"width": width, "height": height, "lines": tree.lines,
            "frames": encode(pictures, parents_of(tree.lines))}
    return html_page.page(tree, pictures[0], width, height, _packed(data), seen)
