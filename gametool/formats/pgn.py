"""PGN in and out: PGN games become chess records (``.gtn``) and chess records become PGN.

The grammar (pyparsing, built once) reads tag pairs, move numbers, SAN moves, comments (``{}``
and ``;``), NAGs (``$1``), nested variations and the result. Variations are kept as comments on
the move they follow; NAGs are dropped. Every move is checked by the chess engine, and an
illegal or ambiguous move is reported with its line and column in the PGN file.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

import pyparsing as pp

from gametool.errors import GameError, RecordError, Where
from gametool.record import Session
from notation import record as gtn

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


@dataclass
class PgnMove:
    san: str
    line: int
    column: int
    comments: list[str] = field(default_factory=list)


@dataclass
class PgnGame:
    tags: list[tuple[str, str]]
    moves: list[PgnMove]
    result: str
    line: int
    lead: list[str] = field(default_factory=list)  # comments before the first move

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None


def _grammar() -> pp.ParserElement:
    tag = (pp.Suppress("[") + pp.Word(pp.alphanums + "_").set_name("tag name")
           + pp.QuotedString('"', esc_char="\\").set_name("tag value") + pp.Suppress("]"))
    tag.set_name("tag pair")
    tag.set_parse_action(lambda t: ("tag", t[0], t[1]))
    brace = pp.QuotedString("{", end_quote_char="}", multiline=True).set_name("comment")
    brace.set_parse_action(lambda t: ("comment", " ".join(t[0].split())))
    semi = pp.Regex(r";[^\n]*").set_name("comment")
    semi.set_parse_action(lambda t: ("comment", t[0][1:].strip()))
    nag = pp.Regex(r"\$\d+").set_name("NAG").suppress()
    number = pp.Regex(r"\d+\s*\.(\s*\.\s*\.)?").set_name("move number").suppress()
    result = pp.Regex(r"(1-0|0-1|1/2-1/2|\*)(?![\w/-])").set_name("result")
    result.set_parse_action(lambda t: ("result", t[0]))
    san = pp.Regex(r"(?!(?:1-0|0-1|1/2-1/2)(?![\w/-]))[A-Za-z0-9][A-Za-z0-9+#=!?\-/]*")
    san.set_name("move")
    san.set_parse_action(lambda s, loc, t: ("move", t[0], pp.lineno(loc, s), pp.col(loc, s)))
    variation = pp.Forward().set_name("variation")
    inner = pp.ZeroOrMore(brace.copy().suppress() | semi.copy().suppress() | nag | number
                          | variation | san.copy().suppress())
    variation <<= pp.original_text_for(pp.Literal("(") + inner + pp.Literal(")"))
    variation.set_parse_action(lambda t: ("variation", " ".join(t[0].split())))
    element = brace | semi | nag | number | variation | san
    # Every game ends with its result, so each game reads at least one token.
    game = pp.Group(pp.Located(pp.Group(pp.ZeroOrMore(tag)) + pp.Group(pp.ZeroOrMore(element))
                               + result))
    return pp.ZeroOrMore(game) + pp.StringEnd().set_name("end of file")


GRAMMAR = _grammar()


def parse_pgn(text: str, file: str | None = None) -> list[PgnGame]:
    """The games of a PGN file; RecordError with line and column on bad syntax."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    text = re.sub(r"^%[^\n]*", "", text, flags=re.MULTILINE)  # escape lines
    try:
        parsed = GRAMMAR.parse_string(text, parse_all=True)
    except pp.ParseBaseException as exc:
        raise RecordError(f"PGN syntax: {exc.msg}", Where(file, exc.lineno, exc.col)) from None
    games = []
    for located in parsed:
        start, body, _end = located
        tags, elements = body[0], body[1]
        game = PgnGame([(t[1], t[2]) for t in tags], [], body[2][1], pp.lineno(start, text))
        for item in elements:
            kind = item[0]
            if kind == "move":
                game.moves.append(PgnMove(item[1], item[2], item[3]))
            elif kind in ("comment", "variation"):
                note = item[1] if kind == "comment" else f"variation {item[1]}"
                (game.moves[-1].comments if game.moves else game.lead).append(note)
        if tags or game.moves:
            games.append(game)
    if not games:
        raise RecordError("no PGN game found", Where(file, 1, 1))
    return games


def _seat_name(value: str | None, fallback: str) -> str:
    """A PGN player name as a record seat name (letters, digits and _ - . ' + @)."""
    if not value or value.strip() in ("?", "-"):
        return fallback
    name = re.sub(r"[^A-Za-z0-9_\-.'+@]+", "_", value.strip()).strip("_")
    return name or fallback


def to_session(game: PgnGame, index: int, file: str | None = None) -> Session:
    """One PGN game replayed into a chess record; GameError located in the PGN on failure."""
    white = _seat_name(game.tag("White"), "white")
    black = _seat_name(game.tag("Black"), "black")
    if white.lower() == black.lower():
        white, black = f"{white}-white", f"{black}-black"
    fen = game.tag("FEN")
    try:
        session = Session.start("chess", [white, black], None, None, fen,
                                date=game.tag("Date") or "????.??.??")
    except GameError as exc:
        raise RecordError(f"game {index}: {exc.message}", Where(file, game.line, 1)) from None
    for name, value in game.tags:
        if name.lower() not in ("result", "fen", "setup", "date"):
            session.record.set(name, value)
    for move in game.moves:
        try:
            session.play([move.san])
        except GameError as exc:
            raise RecordError(f"game {index}, move {session.ply + 1} ({move.san}): "
                              f"{exc.message}", Where(file, move.line, move.column)) from None
        if move.comments:
            _last_line(session).comment = " ".join(move.comments)
    _finish(session, game)
    if game.lead:
        session.record.body.insert(0, gtn.CommentLine(" ".join(game.lead)))
    return session


def _last_line(session: Session) -> Any:
    return session.record.body[-1]


def _finish(session: Session, game: PgnGame) -> None:
    """Carry a decisive or drawn PGN result into the record where the rules can hold it: the
    loser's resignation when the loser is to move, a draw claim when one is valid. Otherwise the
    PGN result is kept in the tag PGNResult."""
    outcome = session.game.outcome(session.state)
    if outcome is not None or game.result == "*":
        return
    to_move = session.game.to_move(session.state)
    loser = {"1-0": 1, "0-1": 0}.get(game.result)
    try:
        if loser is not None and loser == to_move:
            session.play(["resign"])
            return
        if game.result == "1/2-1/2":
            session.play(["claim-draw"])
            return
    except GameError:
        pass
    session.record.set("PGNResult", game.result)


def import_pgn(text: str, file: str | None = None) -> list[Session]:
    """Every game of a PGN file as a chess record."""
    return [to_session(game, i, file) for i, game in enumerate(parse_pgn(text, file), start=1)]


def import_text(text: str, file: str | None = None) -> str:
    """The ``.gtn`` text of every game of a PGN file."""
    return gtn.write_all([s.canonical_record() for s in import_pgn(text, file)])


def export_pgn(session: Session) -> str:
    """A chess record as one PGN game: the seven tag roster, FEN when set up, SAN movetext."""
    if session.game.id != "chess":
        raise GameError(f"export --pgn: only chess records can be written as PGN, not "
                        f"{session.game.id}")
    record = session.record
    outcome = session.game.outcome(session.state)
    result = outcome.result_tag() if outcome else "*"
    values = {
        "Event": record.get("Event") or "?", "Site": record.get("Site") or "?",
        "Date": record.get("Date") or "????.??.??", "Round": record.get("Round") or "?",
        "White": record.get("White") or session.names[0],
        "Black": record.get("Black") or session.names[1], "Result": result,
    }
    lines = [f'[{name} "{_escape(values[name])}"]' for name in ROSTER]
    position = record.get("Position") or record.get("FEN")
    if position:
        fen = session.game.encode_position(session.states[0])
        lines += ['[SetUp "1"]', f'[FEN "{_escape(fen)}"]']
    if outcome is not None:
        lines.append(f'[Termination "{_escape(outcome.termination)}"]')
    lines.append("")
    words: list[str] = []
    comments = _comments_by_ply(session)
    for ply, step in enumerate(session.steps):
        before = session.states[ply]
        text = step.text
        if text.startswith("claim-draw"):
            text = text[len("claim-draw"):].strip()
        if text in ("", "resign"):
            continue
        number = before.fullmove
        if before.white:
            words.append(f"{number}.")
        elif not words or ply == 0:
            words.append(f"{number}...")
        words.append(text)
        if ply + 1 in comments:
            words.append("{" + comments[ply + 1].replace("}", ")") + "}")
    words.append(result)
    lines += textwrap.wrap(" ".join(words), width=79, break_long_words=False,
                           break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def _comments_by_ply(session: Session) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in session.record.body:
        if isinstance(item, gtn.TurnLine) and item.comment:
            out[item.ply + len(item.actions) - 1] = item.comment
    return out


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
