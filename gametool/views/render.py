"""Text and JSON presentation of sessions and games; tables through tabulate.

Nothing here knows a rule: it arranges what the game's ``view``, ``render``, ``scores`` and
``outcome`` return, for the seat the output is meant for.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gametool.core.engine import CHANCE, REFEREE, Game
from gametool.core.tables import tabulate
from gametool.records import Session, annotations

TABLE_FORMAT = "simple"


def table(headers: list[str], rows: list[list[Any]]) -> str:
    return tabulate(rows, headers=headers, tablefmt=TABLE_FORMAT, disable_numparse=False)


def game_list_rows(classes: list[type[Game]]) -> tuple[list[str], list[list[Any]]]:
    from gametool.games import aliases_of

    headers = ["id", "name", "aliases", "players", "chance", "hidden information", "status"]
    rows = []
    for cls in classes:
        info = cls.info()
        players = (str(info.min_players) if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        rows.append([info.id, info.name, ", ".join(aliases_of(info.id)), players, info.chance,
                     info.hidden, info.status])
    return headers, rows


LIST_WIDTHS = {"name": 12, "aliases": 11, "chance": 10, "hidden": 11}
"""Columns of ``list`` wrapped to these widths, so that the table holds in 80 columns."""


def game_list_text(classes: list[type[Game]]) -> str:
    """The table of ``list`` for a person: long cells wrapped within their column (never
    inside a word); a game that is not playable is starred, its status said under the table."""
    _headers, rows = game_list_rows(classes)
    notes = []

    def cell(text: Any, width: int) -> str:
        return "\n".join(textwrap.wrap(str(text), width, break_on_hyphens=False)) or ""

    wrapped = []
    for gid, name, aliases, seats, chance, hidden, status in rows:
        if status != "playable":
            name = f"{name} *"
            notes.append(f"* {gid}: {status}")
        wrapped.append([gid, cell(name, LIST_WIDTHS["name"]),
                        cell(aliases, LIST_WIDTHS["aliases"]), seats,
                        cell(chance, LIST_WIDTHS["chance"]), cell(hidden, LIST_WIDTHS["hidden"])])
    text = tabulate(wrapped, headers=["id", "name", "aliases", "players", "chance", "hidden"],
                    tablefmt=TABLE_FORMAT, disable_numparse=True)
    return "\n".join([text, *([""] + notes if notes else [])])


def game_list_json(classes: list[type[Game]]) -> list[dict[str, Any]]:
    from gametool.games import aliases_of

    return [
        {
            "id": cls.id, "name": cls.name, "aliases": aliases_of(cls.id),
            "min_players": cls.min_players, "max_players": cls.max_players,
            "chance": cls.chance or None,
            "hidden": cls.hidden or None, "status": cls.status,
            "options": {o.name: {"default": o.default, "choices": list(o.choices or ())}
                        for o in cls.options},
        }
        for cls in classes
    ]


_D = r"(?:[A-Z][a-z]+ )?D\d+"  # "D7", or another game's decision: "Tawula D5"
# A match that may begin with spaces begins only where a run of them does ("(?<!\s)"): the
# same matches, found in linear time on a long run of spaces (not one try per space).
_DECISIONS = (
    (re.compile(rf"(?<!\s)\s*\({_D}(?:,\s*{_D})*\)"), ""),     # "(D7)", "(D1, D2)"
    (re.compile(rf"\({_D}(?:,\s*{_D})*[;:,]\s*"), "("),          # "(D2; more" -> "(more"
    (re.compile(rf"(?:[,;:]|(?<!\s))\s*\b{_D}(?=\))"), ""),     # "(more, D12)" -> "(more)"
    (re.compile(rf"\b{_D}:\s+"), ""),                              # "D1: a figure" -> "a figure"
)


def without_decisions(text: str) -> str:
    """``text`` without the decision numbers of the rules files ("(D7)", "D1: "): they are for
    the tool's makers, not for players."""
    for pattern, replacement in _DECISIONS:
        text = pattern.sub(replacement, text)
    return text


def _wrap_block(text: str, width: int) -> list[str]:
    """Reflow paragraphs (separated by blank lines) to ``width`` columns."""
    out: list[str] = []
    for block in text.strip().split("\n\n"):
        if out:
            out.append("")
        out += textwrap.wrap(" ".join(block.split()), width) or [""]
    return out


def _wrap_columns(text: str, width: int) -> list[str]:
    """Wrap long lines of a two-column text, continuing under the second column."""
    out: list[str] = []
    for line in text.rstrip().splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        gap = re.search(r"\S\s{2,}(?=\S)", line)
        indent = gap.end() if gap and gap.end() < width // 2 else len(line) - len(line.lstrip())
        out += textwrap.wrap(line, width, subsequent_indent=" " * (indent or 4),
                             drop_whitespace=True) or [""]
    return out


def rules_text(cls: type[Game], width: int = 100) -> str:
    """The rules summary, notation and options of a game, wrapped to ``width`` columns."""
    width = max(width, 30)
    info = cls.info()
    players = (str(info.min_players) if info.min_players == info.max_players
               else f"{info.min_players}-{info.max_players}")
    lines = [f"{cls.name} ({cls.id})", ""]
    lines += textwrap.wrap(f"Players: {players}    Chance: {info.chance}    "
                           f"Hidden information: {info.hidden}", width)
    if cls.status != "playable":
        lines += textwrap.wrap(f"Status: {cls.status}", width)
    lines += ["", "Rules", ""] + _wrap_block(without_decisions(cls.summary), width)
    lines += ["", "Notation", ""] + _wrap_columns(without_decisions(cls.notation), width)
    if cls.options:
        lines += ["", "Options", ""]
        for opt in cls.options:
            text = f"{opt.describe()}" + (f": {without_decisions(opt.help)}" if opt.help else "")
            lines += textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="      ")
    return "\n".join(lines) + "\n"


def rules_json(cls: type[Game]) -> dict[str, Any]:
    """The rules of a game for programs: its entry in ``list --json`` with its texts."""
    data = game_list_json([cls])[0]
    data["summary"] = without_decisions(cls.summary.strip())
    data["notation"] = without_decisions(cls.notation.rstrip())
    for opt in cls.options:
        data["options"][opt.name]["help"] = without_decisions(opt.help)
    return data


def record_json(record: Any) -> dict[str, Any]:
    """A record for programs: its tags and one entry per action."""
    plies = []
    for line in record.turns:
        for offset, action in enumerate(line.actions):
            plies.append({"ply": line.ply + offset, "seat": line.seat, "action": action.text})
    return {"tags": {t.name: t.value for t in record.tags}, "plies": plies}


@dataclass(frozen=True)
class Sight:
    """Whom an output is drawn for, as :func:`sight` decides it for every output."""

    seat: int | None
    """The seat the game's ``view``, ``render`` and ``diagram`` are asked for: a seat, None
    (a spectator) or ``REFEREE`` (the master record of a game that hides something)."""
    label: str | None
    """How the output names the view (JSON's ``as``): the seat's name, ``spectator`` or
    ``chance``; None for the master record, which is what is shown without ``--as``."""
    whole: bool
    """The actions are read as the master record writes them, every value shown."""


def sight(session: Session, as_seat: str | Sight | None) -> Sight:
    """The one view rule of ``show`` (text, JSON and picture), ``replay`` and the replay page.

    Without ``--as``, a master record shows everything it holds: the referee's view (a game
    that hides nothing shows what everyone sees). ``--as spectator`` (or ``chance``) shows what
    every seat sees, ``--as SEAT`` what that seat sees. A record exported for a seat shows that
    seat's view, whatever is asked, and refuses another seat's (:meth:`Session.view_as`)."""
    if isinstance(as_seat, Sight):
        return as_seat
    as_seat = session.view_as(as_seat)
    if as_seat is None:
        if type(session.game).hidden in ("", "none"):
            return Sight(None, None, True)
        return Sight(REFEREE, None, True)
    index = session.seat_index(as_seat)
    if index == CHANCE:  # "chance" names the spectator's view too: one word for one view
        return Sight(None, "spectator", False)
    return Sight(index, session.names[index], False)


def _action_text(session: Session, before: Any, action: Any, final: Any,
                 seen: Sight) -> str:
    """An action's text as ``seen`` reads it: whole for the master record, else masked."""
    game = session.game
    if seen.whole:
        return game.format_action(before, action)
    return game.mask_action(before, action, final, seen.seat)


def last_action(session: Session, ply: int, as_seat: str | Sight | None) -> str | None:
    """The action that led to ply ``ply``, as :func:`sight` lets ``as_seat`` read it."""
    if ply == 0:
        return None
    seen = sight(session, as_seat)
    step = session.steps[ply - 1]
    before, after = session.states[ply - 1], session.states[ply]
    game = session.game
    text = _action_text(session, before, step.action, after, seen)
    shown_whole = text == game.format_action(before, step.action)
    note = game.describe_action(before, step.action) if shown_whole else None
    out = f"{session.seat_name(step.seat)}: {text}"
    return f"{out}  ({note})" if note else out


def last_turns(session: Session, ply: int, as_seat: str | Sight | None) -> list[str]:
    """The turns since the seat to move last acted, oldest first, as :func:`sight` lets
    ``as_seat`` read them: every other seat's last turn and the chance actions between ("p2:
    6/3 6/4", "chance: roll 6-5"). Once the game is over, the turns back to the last seat that
    acts twice. A partly hidden chance action (a deal, a shuffle) starts a hand: nothing
    before it is named."""
    seen = sight(session, as_seat)
    game = session.game
    state = session.states[ply]
    to_move = game.to_move(state)
    turns: list[tuple[int, list[str]]] = []
    acted: set[int] = set()
    n = ply
    while n > 0:
        step = session.steps[n - 1]
        if step.seat != CHANCE and (step.seat == to_move or step.seat in acted):
            if not turns or turns[-1][0] != step.seat:
                break
        before = session.states[n - 1]
        text = _action_text(session, before, step.action, state, seen)
        whole = game.format_action(before, step.action)
        note = game.describe_action(before, step.action) if text == whole else None
        text = f"{text}  ({note})" if note else text
        if turns and turns[-1][0] == step.seat:
            turns[-1][1].insert(0, text)
        else:
            if turns and turns[-1][0] != CHANCE:
                acted.add(turns[-1][0])
            turns.append((step.seat, [text]))
        n -= 1
        if step.seat == CHANCE and (not text.startswith(whole) or game.mask_action(
                before, step.action, state, None) != whole):
            break  # a deal or shuffle, hidden from some seat: a new hand or round begins there
    return [f"{session.seat_name(who)}: {' | '.join(texts)}" for who, texts in reversed(turns)]


def show_data(session: Session, ply: int | None = None,
              as_seat: str | Sight | None = None) -> dict[str, Any]:
    """The JSON of ``show``: the position after ``ply`` plies as ``as_seat`` may see it (see
    :func:`sight`: without it, the master record's view)."""
    ply = session.ply if ply is None else ply
    state = session.states[ply]
    game = session.game
    seen = sight(session, as_seat)
    seat = seen.seat
    outcome = session.outcome_at(ply)
    to_move = session.to_move_at(ply)
    data: dict[str, Any] = {
        "game": game.id,
        "players": list(session.names),
        "options": dict(game.non_default_options()),
        "ply": ply,
        "to_move": session.seat_name(to_move),
        "over": outcome is not None,
        "result": outcome.to_json(session.names) if outcome else None,
        "last": last_action(session, ply, seen),
        "last_turns": last_turns(session, ply, seen),
    }
    if seen.label is not None:
        data["as"] = seen.label
    scores = game.scores(state)
    if scores is not None:
        data["scores"] = {name: scores[i] for i, name in enumerate(session.names)}
    note = annotations.note_at(session, ply) if ply > 0 else None
    if note is not None:  # the record's comment, NAGs (and variations) of this ply
        shown = note.data(getattr(session, "show_variations", False))
        if shown:
            data["note"] = shown
    data["position"] = game.view(state, seat)
    return data


def _header(session: Session, data: dict[str, Any], seen: Sight) -> list[str]:
    """The lines above a position: game, players, options, ply, seat to move, last action."""
    game = session.game
    apart = "; " if any("," in name for name in session.names) else ", "  # "Tal, Mikhail"
    lines = [f"{game.name} ({game.id})  players: {apart.join(session.names)}"]
    if data["options"]:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in data["options"].items()))
    status = f"ply {data['ply']}"
    if data["to_move"] is not None:
        status += f", {data['to_move']} to move"
    if seen.seat == REFEREE:
        status += "  (the referee's view: every hidden value)"
    elif "as" in data:
        status += f"  (as {data['as']})"
    lines.append(status)
    turns = data["last_turns"]
    lines += [f"earlier: {turn}" for turn in turns[:-1]]
    note = data.get("note", {})
    if turns:
        nags = note.get("nags")
        lines.append(f"last: {turns[-1]}" + (f"  {' '.join(nags)}" if nags else ""))
    if "comment" in note:
        lines.append(f"comment: {note['comment']}")
    clock = ", ".join(f"{word} {note[key]}" for key, word in (("clock", "clock"),
                                                              ("move_time", "move time"),
                                                              ("eval", "evaluation"))
                      if key in note)
    if clock:
        lines.append(clock)
    lines += [f"variation: {line}" for line in note.get("variations", ())]
    return lines


def _scores(session: Session, state: Any, seat: int | None,
            data: dict[str, Any]) -> tuple[list[str], list[list[Any]]] | None:
    detail = session.game.score_table(state, seat)
    if detail is not None:
        return detail
    if data.get("scores") is not None:
        return ["seat", "score"], [[k, v] for k, v in data["scores"].items()]
    return None


Paint = Callable[[str, str], str]
"""Paints a text for a role: ``"title"``, ``"last"``, ``"earlier"``, ``"result"``, or a piece's
style (``"red"``, ``"seat0"``, ``"light"``...), followed by ``" changed"`` for a cell the last
action changed. The terminal maps roles to colours; the plain painter returns the text."""


def plain(text: str, role: str) -> str:
    return text


def show_text(session: Session, ply: int | None = None, as_seat: str | Sight | None = None,
              flip: bool | None = None, paint: Paint | None = None, unicode: bool = False,
              width: int | None = None) -> str:
    """The position drawn for a person: header, board, score table, result.

    ``flip`` turns the boards of games that draw their text board from the diagram (None: as
    the game chooses for the seat). ``paint`` marks the header's lines and the pieces, cards and
    figures by their role (their style in the game's diagram), ``unicode`` draws glyph pieces
    (chess) as figurines, and ``width`` wraps the header's and the game's long lines."""
    paint = paint or plain
    seen = sight(session, as_seat)
    data = show_data(session, ply, seen)
    ply = data["ply"]
    state = session.states[ply]
    game = session.game
    seat = seen.seat
    header = _header(session, data, seen)
    lines = [paint(line, _header_role(n, line)) for n, line in
             enumerate(_fit(header, width))]
    painted = paint is not plain
    diagram = (game.diagram(state, seat, session.names)
               if game.board_in_text or painted else None)
    if game.board_in_text and diagram is not None:
        from gametool.core.diagram import Grid, walk

        parts = diagram.parts
        if painted and ply > 0:  # the last action's cells are marked on a terminal
            parts = _mark_changes(game.diagram(session.states[ply - 1], seat,
                                               session.names).parts, parts)
        turned = diagram.flipped if flip is None else flip
        for part in walk(parts):
            if isinstance(part, Grid):
                lines += ["", grid_text(part, turned, paint, unicode)]
    body = _fit(game.render(state, seat, session.names).rstrip("\n").split("\n"), width)
    if painted and diagram is not None:
        # a board drawn from the diagram is painted there; the game's own lines paint cards
        body = _paint_tokens(body, diagram, paint, boards=not game.board_in_text)
    lines += [""] + body
    scores = None if game.scores_in_render else _scores(session, state, seat, data)
    if scores is not None:
        lines += ["", table(*scores)]
    if data["result"] is not None:
        result = data["result"]
        lines += ["", paint(f"result: {result['tag']} ({result['termination']})", "result")]
    return "\n".join(lines) + "\n"


def _header_role(index: int, line: str) -> str:
    if index == 0:
        return "title"
    word = line.split(":", 1)[0]
    return word if word in ("last", "earlier") else "header"


def _fit(lines: list[str], width: int | None) -> list[str]:
    """``lines`` with those longer than ``width`` wrapped between words, continued under the
    text after their label (``earlier: chance: ``, ``  c4: ``) or their indentation."""
    if width is None:
        return lines
    out: list[str] = []
    for line in lines:
        if len(line) <= width or " " not in line.strip():
            out.append(line)
            continue
        label = re.match(r"\s*(?:[^\s:]{1,20}(?: [^\s:]{1,20})?:\s+)*", line)
        indent = label.end() if label and label.end() <= width // 2 else (
            len(line) - len(line.lstrip()))
        out += textwrap.wrap(line, width, subsequent_indent=" " * min(indent, width // 2),
                             break_long_words=False, break_on_hyphens=False) or [line]
    return out


def _piece_styles(diagram: Any, boards: bool = True) -> dict[str, str]:
    """The text of each piece, card and figure of a diagram (without ``boards``: of its cards
    only) and its style, where one text has one style and that style is not neutral."""
    from gametool.core.diagram import Grid, Row, Track, walk

    seen: dict[str, set[str]] = {}

    def add(text: str, style: str) -> None:
        if text and not text.isdigit():
            seen.setdefault(text, set()).add(style)

    for part in walk(diagram.parts):
        if isinstance(part, Grid) and boards:
            for piece in part.cells.values():
                add(piece.text or piece.label, piece.style)
        elif isinstance(part, Track) and boards:
            for row in part.rows:
                for point in row:
                    for piece in point.pieces:
                        add(piece.text or piece.label, piece.style)
        elif isinstance(part, Row):
            for card in part.items:
                if card.face_up:
                    add(card.name or card.label, card.style)
    return {text: styles.pop() for text, styles in seen.items()
            if len(styles) == 1 and "neutral" not in styles}


def _paint_tokens(lines: list[str], diagram: Any, paint: Paint,
                  boards: bool = True) -> list[str]:
    """The game's own text with every word that is a piece's, card's or figure's text painted
    in that piece's style (a figure's count may follow it: ``B2``)."""
    styles = _piece_styles(diagram, boards)
    if not styles:
        return lines
    words = "|".join(re.escape(t) for t in sorted(styles, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w-])({words})(\d*)(?![\w-])")
    return [pattern.sub(lambda m: paint(m.group(0), styles[m.group(1)]), line)
            for line in lines]


FIGURINES = {chr(0x265A + n): chr(0x2654 + n) for n in range(6)}
"""The outlined chess signs for the filled ones, for the light side's pieces."""


def _figure(piece: Any, unicode: bool) -> str:
    """A piece's text on a text board; with ``unicode``, a piece whose figure (or glyph) has a
    Unicode sign is drawn as that sign (outlined for the light side), else as its letter."""
    if unicode:
        from gametool.core.figures import SIGNS

        sign = SIGNS.get(piece.figure, "")
        if not sign and piece.shape == "glyph":
            sign = piece.label.replace("\ufe0e", "")
        if sign:
            return FIGURINES.get(sign, sign) if piece.style == "light" else sign
    return piece.text or piece.label or "?"


def grid_text(grid: Any, flipped: bool = False, paint: Paint | None = None,
              unicode: bool = False) -> str:
    """A diagram's grid as a text board: coordinates on every side, ``.`` for an empty cell,
    a stack's height in brackets; turned half round when ``flipped`` and the board allows.
    ``paint`` marks each piece by its style and the cells the last action changed;
    ``unicode`` draws glyph pieces as figurines."""
    paint = paint or plain
    turn = flipped and grid.flippable
    cols = list(range(len(grid.files)))
    rows = list(range(len(grid.ranks)))
    if turn:
        cols.reverse()
        rows.reverse()

    def cell(col: int, row: int) -> str:
        piece = grid.cells.get((col, row))
        if piece is None:
            return "."
        text = _figure(piece, unicode)
        return text + (f"({piece.count})" if piece.count > 1 else "")

    def painted(col: int, row: int, text: str) -> str:
        piece = grid.cells.get((col, row))
        role = "neutral" if piece is None else piece.style
        if (col, row) in grid.highlight:
            role += " changed"
        return paint(text, role) if piece is not None or (col, row) in grid.highlight else text

    texts = {(c, r): cell(c, r) for c in cols for r in rows}
    width = max([len(t) for t in texts.values()] + [len(f) for f in grid.files])
    margin = max(2, *(len(r) for r in grid.ranks))
    files = " " * (margin + 2) + " ".join(grid.files[c].ljust(width) for c in cols)
    lines = [grid.title] if grid.title else []
    lines.append(files.rstrip())
    for r in rows:
        body = " ".join(painted(c, r, texts[(c, r)]) + " " * (width - len(texts[(c, r)]))
                        for c in cols)
        lines.append(f"{grid.ranks[r].rjust(margin)}  {body}  {grid.ranks[r]}")
    lines.append(files.rstrip())
    return "\n".join(lines)


def _mark_changes(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[Any, ...]:
    """``after``'s parts with the cells and points that differ from ``before`` highlighted."""
    from dataclasses import replace

    from gametool.core.diagram import Beside, Grid, Row, Track

    def titled(parts: tuple[Any, ...]) -> dict[tuple[str, int], Any]:
        """Rows by title and the title's occurrence, so a row may come or go."""
        rows: dict[tuple[str, int], Any] = {}
        for part in parts:
            if isinstance(part, Row):
                rows[(part.title, sum(1 for key in rows if key[0] == part.title))] = part
        return rows

    earlier = {id(row): key for key, row in titled(after).items()}
    rows_before = titled(before)
    # a row that was not there before (a seat's first sheep, a new pile) is all new
    after = tuple(replace(part, items=_new_items(
                      rows_before[earlier[id(part)]].items
                      if earlier.get(id(part)) in rows_before else (), part.items))
                  if isinstance(part, Row) else part
                  for part in after)
    if len(before) != len(after):
        return after
    out = []
    for old, new in zip(before, after, strict=True):
        if isinstance(new, Beside) and isinstance(old, Beside):
            new = Beside(_mark_changes(old.parts, new.parts))
        elif (isinstance(new, Grid) and isinstance(old, Grid)
              and (old.files, old.ranks) == (new.files, new.ranks)):
            keys = set(old.cells) | set(new.cells)
            changed = frozenset(k for k in keys if old.cells.get(k) != new.cells.get(k))
            new = replace(new, highlight=changed)
        elif (isinstance(new, Track) and isinstance(old, Track)
              and [len(r) for r in old.rows] == [len(r) for r in new.rows]):
            # a point is copied only where its mark changes (most points keep theirs)
            rows = tuple(tuple(p if p.highlight == (p.pieces != q.pieces)
                               else replace(p, highlight=p.pieces != q.pieces)
                               for p, q in zip(row, old_row, strict=True))
                         for row, old_row in zip(new.rows, old.rows, strict=True))
            new = replace(new, rows=rows)
        out.append(new)
    return tuple(out)


def _new_items(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[Any, ...]:
    """``after`` with the face-up items that were not in ``before`` highlighted (a card played
    to the table, a tile drawn or discarded); backs tell nothing and stay as they are."""
    from dataclasses import replace

    left = [(c.label, c.name, c.kind) for c in before if c.face_up]
    out = []
    for card in after:
        key = (card.label, card.name, card.kind)
        if card.face_up and key in left:
            left.remove(key)
        elif card.face_up:
            card = replace(card, highlight=True)
        out.append(card)
    return tuple(out)


_DRAWN: dict[tuple[int, int, int | None, tuple[str, ...]], tuple[Any, Any, Any]] = {}
DRAWN_KEPT = 8
"""Diagrams kept: a picture also draws the position before it, which the picture before drew."""


def _drawn(session: Session, state: Any, seat: int | None) -> Any:
    """The game's diagram of ``state`` for ``seat``, kept for the next picture's position
    before."""
    game = session.game
    key = (id(game), id(state), seat, tuple(session.names))
    kept = _DRAWN.get(key)
    if kept is not None and kept[0] is game and kept[1] is state:
        return kept[2]
    drawn = game.diagram(state, seat, session.names)
    if len(_DRAWN) >= DRAWN_KEPT:
        _DRAWN.pop(next(iter(_DRAWN)))
    _DRAWN[key] = (game, state, drawn)
    return drawn


def picture(session: Session, ply: int | None = None, as_seat: str | Sight | None = None,
            flip: bool | None = None) -> Any:
    """The whole position as one diagram, as :func:`sight` decides for ``as_seat`` (without
    it, the master record's: every hidden value): header, the game's parts with the last
    action's cells highlighted, the score table and the result. ``flip``: None lets the game
    choose."""
    from gametool.core.diagram import Diagram, Note, Panel

    seen = sight(session, as_seat)
    data = show_data(session, ply, seen)
    ply = data["ply"]
    state = session.states[ply]
    seat = seen.seat
    drawn = _drawn(session, state, seat)
    parts = drawn.parts
    if ply > 0:
        parts = _mark_changes(_drawn(session, session.states[ply - 1], seat).parts, parts)
    tail: list[Any] = []
    scores = _scores(session, state, seat, data)
    if scores is not None:
        headers, rows = scores
        tail.append(Panel(tuple(str(h) for h in headers),
                          tuple(tuple("" if v is None else str(v) for v in row) for row in rows)))
    if data["result"] is not None:
        tail.append(Note((f"result: {data['result']['tag']} ({data['result']['termination']})",)))
    if flip is not None:  # asked for: every board turns, not only chess-like ones
        parts = _turnable(parts)
    return Diagram((Note(tuple(_header(session, data, seen))), *parts, *tail),
                   drawn.flipped if flip is None else flip, drawn.legend)


def _turnable(parts: tuple[Any, ...]) -> tuple[Any, ...]:
    from dataclasses import replace

    from gametool.core.diagram import Beside, Grid

    return tuple(Beside(_turnable(p.parts)) if isinstance(p, Beside)
                 else replace(p, flippable=True) if isinstance(p, Grid) else p for p in parts)


def show_svg(session: Session, ply: int | None = None, as_seat: str | Sight | None = None,
             flip: bool | None = None, ids: str = "") -> str:
    """The position as an SVG picture, as :func:`sight` decides for ``as_seat`` (without it,
    the master record's: every hidden value); ``ids`` prefixes its ids (for pages holding
    several pictures)."""
    from gametool.views import svg

    diagram = picture(session, ply, as_seat, flip)
    title = f"{session.game.name}, ply {ply if ply is not None else session.ply}"
    return svg.to_svg(diagram, title=title, ids=ids)


def what_follows(session: Session) -> str:
    """One line on what comes after the session's last action: who acts, or the result."""
    outcome = session.outcome()
    if outcome is not None:
        return f"then the game is over: {outcome.result_tag()} ({outcome.termination})"
    mover = session.to_move()
    if mover == CHANCE:
        return "then chance acts"
    return f"then {session.seat_name(mover)} is to move"
