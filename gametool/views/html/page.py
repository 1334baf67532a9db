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
from typing import Any

from gametool.core.diagram import Beside, Diagram, Note, Panel
from gametool.records import Session, annotations
from gametool.records.annotations import shown_session  # noqa: F401 (the names the page shows)
from gametool.views import render, svg
from gametool.views.html import assets, graphs
from gametool.views.html import parts as html_page
from gametool.views.html.parts import alternates, move_text  # noqa: F401 (the page's words)

KEY_EVERY = 50
"""A whole picture every so many nodes down a line: a jump rebuilds at most this many."""

IDS = "pic-"
"""The prefix of the ids inside the pictures; one picture is on the page at a time."""

_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def _tokens(picture: str, lines: bool = False) -> list[str]:
    """A picture cut before every tag, as the page's script cuts it (``lines``: a text cut
    after every line end)."""
    if lines:
        return [piece for piece in _LINE_ENDS.split(picture) if piece]
    head, *rest = picture.split("<")
    return ([head] if head else []) + ["<" + piece for piece in rest]


_LINE_ENDS = re.compile(r"(?<=\n)")


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


def encode(pictures: list[str], parents: list[int] | None = None,
           lines: bool = False) -> list[Any]:
    """Each picture as its difference from its parent's (by default the picture before), whole
    every ``KEY_EVERY`` nodes down a line and where the difference would be longer (``lines``:
    texts, compared line by line)."""
    parents = parents if parents is not None else list(range(-1, len(pictures) - 1))
    frames: list[Any] = []
    tokens: list[list[str]] = []
    depth: list[int] = []
    for node, picture in enumerate(pictures):
        parent = parents[node]
        mine = _tokens(picture, lines)
        tokens.append(mine)
        depth.append(0 if parent < 0 else depth[parent] + 1)
        if parent < 0 or depth[node] % KEY_EVERY == 0:
            frames.append(picture)
            continue
        change = difference(tokens[parent], mine)
        frames.append(change if len(json.dumps(change)) < len(picture) else picture)
    return frames


def decode(frames: list[Any], parents: list[int] | None = None,
           lines: bool = False) -> list[str]:
    """The pictures back from :func:`encode`'s frames."""
    parents = parents if parents is not None else list(range(-1, len(frames) - 1))
    out: list[list[str]] = []
    for node, entry in enumerate(frames):
        if isinstance(entry, str):
            out.append(_tokens(entry, lines))
            continue
        before = out[parents[node]]
        tokens: list[str] = []
        for op in entry:
            if isinstance(op, str):
                tokens += _tokens(op, lines)
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
    return decode(data["pictures"], parents_of(data["lines"]))


def infos_of(page: str) -> list[str]:
    """Every node's words beside the picture (HTML), in the order of :func:`pictures_of`."""
    data = page_data(page)
    return decode(data["infos"], parents_of(data["lines"]))


def copies_of(page: str) -> list[str]:
    """Every node's position as the page's copy button copies it."""
    data = page_data(page)
    return decode(data["copies"], parents_of(data["lines"]), lines=True)


def _packed(data: Any) -> str:
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


BOARD_SIZE = 384
"""The long side of a board's squares in the page's pictures (eight squares of 48): the
coordinates stay readable when a phone draws the picture 380 pixels wide."""
PAD = 4
"""The blank border of the page's pictures: the page around them is their margin."""


def board_and_words(session: Session, ply: int, seen: render.Sight,
                    flip: bool | None) -> tuple[Diagram, list[Any]]:
    """The position's picture for the page, the board alone (every board, track, row of cards
    or tiles the game draws, without its notes, tables and legend), and those words: the game's
    notes and tables, the scores and the result, which the page writes beside the board."""
    whole = render.picture(session, ply, seen, flip)
    words: list[Any] = []

    def keep(parts: tuple[Any, ...]) -> tuple[Any, ...]:
        out = []
        for part in parts:
            if isinstance(part, Beside):
                inner = keep(part.parts)
                if inner:
                    out.append(Beside(inner))
            elif isinstance(part, Note | Panel):
                words.append(part)
            else:
                out.append(part)
        return tuple(out)

    board = Diagram(keep(whole.parts[1:]), whole.flipped)  # parts[0]: show's header lines
    return board, words


def page_picture(session: Session, ply: int, seen: render.Sight, flip: bool | None,
                 marks: svg.Marks = ()) -> str:
    """The board as the page draws it for ``ply`` (see :func:`board_and_words`)."""
    board, _words = board_and_words(session, ply, seen, flip)
    return _board_svg(session, ply, board, marks)


def _board_svg(session: Session, ply: int, board: Diagram, marks: svg.Marks) -> str:
    return svg.to_svg(board, title=f"{session.game.name}, ply {ply}", ids=IDS,
                      size=BOARD_SIZE, marks=marks, fit=True, pad=PAD).strip()


def _graphs(tree: html_page.Tree, session: Session) -> list[str]:
    """The evaluation and clock graphs the comments give, and the running scores the game
    keeps, over the main line."""
    plies = session.ply
    said = [tree.said.get(ply) for ply in range(plies + 1)]
    out = [graphs.evaluation([html_page.evaluation_value(s.evaluation) if s else None
                              for s in said], plies)]
    seats = len(session.names)
    clocks: list[list[float | None]] = [[None] * (plies + 1) for _ in range(seats)]
    for ply in range(1, plies + 1):
        seat = session.steps[ply - 1].seat
        if said[ply] is not None and 0 <= seat < seats:
            clocks[seat][ply] = html_page.clock_seconds(said[ply].clock)  # type: ignore[union-attr]
    names = [p.name for p in annotations.players(session)]
    out.append(graphs.lines("clock", "clock (time left)", clocks, names, plies))
    game = session.game
    scored = [game.scores(state) for state in session.states[:plies + 1]]
    if plies and any(s is not None for s in scored):
        series: list[list[float | None]] = [
            [None if s is None or seat >= len(s) else float(s[seat]) for s in scored]
            for seat in range(seats)]
        out.append(graphs.lines("scores", "scores", series, names, plies))
    raced = [game.race(state) for state in session.states[:plies + 1]] if plies else []
    if any(r is not None for r in raced):
        pips: list[list[float | None]] = [
            [None if r is None or seat >= len(r) else float(r[seat]) for r in raced]
            for seat in range(seats)]
        out.append(graphs.lines("pip count", "pip count", pips, names, plies))
    return [graph for graph in out if graph is not None]


def _saves(session: Session, seen: render.Sight) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The records the page offers to download: the .gtn the reader may see, and the PGN of a
    chess record."""
    from gametool.core.errors import GameError
    from gametool.pgn.export import export_pgn
    from gametool.records.writing import write_record

    stem = re.sub(r"[^\w.-]+", "-", "-".join(
        p.name for p in annotations.players(session))).strip("-") or session.game.id
    if seen.whole:
        record = session.text()
    else:
        record = write_record(session.exported(seen.seat if isinstance(seen.seat, int) and
                                               seen.seat >= 0 else None))
    names = [("save-gtn", f"{stem}.gtn")]
    texts = {"save-gtn": record}
    try:
        texts["save-pgn"] = export_pgn(session)
        names.insert(0, ("save-pgn", f"{stem}.pgn"))
    except GameError:
        pass
    return names, texts


def replay_page(session: Session, as_seat: str | None = None, flip: bool | None = None) -> str:
    """The page of ``session`` as :func:`render.sight` decides for ``as_seat`` (None: the
    master record's view, every hidden value)."""
    seen = render.sight(session, as_seat)  # raises for an unknown seat
    shown = annotations.shown_session(session)
    tree = html_page.Tree(shown, seen)
    pictures, infos, copies = [], [], []
    legend = ""
    for node, (view, ply) in enumerate(tree.nodes):
        board, words = board_and_words(view, ply, seen, flip)
        said = tree.said.get(node)
        pictures.append(_board_svg(view, ply, board, said.marks if said else ()))
        if not legend:
            drawn = render.picture(view, ply, seen, flip)
            legend = html_page.legend_html(drawn.legend, svg.PALETTE)
        infos.append(html_page.info_html(view, ply, seen, words, said) + legend)
        copies.append(html_page.position_text(view, ply, seen))
    sizes = [_SIZE.search(p) for p in pictures]
    width = max((float(s.group(1)) for s in sizes if s), default=400)
    height = max((float(s.group(2)) for s in sizes if s), default=400)
    parents = parents_of(tree.lines)
    names, texts = _saves(session, seen)
    data = {"width": width, "height": height, "lines": tree.lines,
            "pictures": encode(pictures, parents), "infos": encode(infos, parents),
            "copies": encode(copies, parents, lines=True), "saves": texts}
    title, head = html_page.header(shown, seen)
    copy_label = "position"
    return assets.page(title, head, pictures[0], infos[0], tree.html,
                       "paired" if tree.paired else "plies", shown.ply, width, height,
                       _packed(data), _graphs(tree, shown), copy_label, names)
