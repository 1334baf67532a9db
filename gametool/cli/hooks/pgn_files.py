"""PGN on the command line: ``gametool import`` and ``gametool export --pgn``."""

from __future__ import annotations

from typing import Any

import click

from gametool.cli import params
from gametool.cli.commands.common import quiet_option


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the records to FILE ('-' or no -o: stdout).")
@click.option("--rejects", metavar="BAD", type=click.Path(dir_okay=False),
              help="Write the original text of every refused game to BAD.")
@click.option("--force", is_flag=True, help="With -o or --rejects: overwrite existing files "
              "(when every game is refused, OUT is emptied).")
@click.option("--fix-results", is_flag=True, help="Import a game whose Result the moves (a "
              "mate) or the movetext contradict with their result; the tag OriginalResult keeps "
              "the value replaced.")
@click.option("--eco", is_flag=True, help="Set each game's ECO and Opening tags from the "
              "opening table (the lichess chess-openings list, CC0): its latest position that "
              "the table names.")
@click.option("--jobs", type=params.Whole(1, 1024), default=1, show_default=True,
              metavar="N", help="Work in N processes (same results, faster).")
@click.option("--scheduler", metavar="ADDRESS", help="Work on a Dask cluster: a scheduler "
              "address (tcp://host:8786) or local:N for a local cluster of N workers (same "
              "results).")
@click.option("--json", "as_json", is_flag=True, help="Write the records as JSON (a list of "
              "objects with tags and plies) instead of text.")
@quiet_option
def import_command(file: str, output: str | None, rejects: str | None, force: bool,
                   fix_results: bool, eco: bool, jobs: int, scheduler: str | None,
                   as_json: bool, quiet: bool) -> None:
    """Turn the games of the PGN file FILE into chess records (.gtn).

    Every game that can be read is imported, with its tags, comments, NAGs and variations,
    also a game with tags and no moves, and tags and moves on one line; each game that cannot
    is refused with one line, FILE:LINE:COL: game N: reason, at the offending token, and
    skipped (--rejects keeps its text). UTF-8 or Latin-1 input. What other tools leave between
    moves (a comma, stray punctuation) is skipped with a warning at its place. A result the
    moves do not reach (an agreed draw, a time forfeit) becomes the record's ending off the
    board, with the Termination tag as its reason; a result contradicting the moves is refused
    (--fix-results takes the moves' result); a '*' stays '*', with a warning when the moves end
    the game. The games are read and written one by one: memory stays small whatever the size.
    The count of games imported is printed on stderr. Exit status 1 if any game was refused.

    \b
    Examples:
      gametool import opera.pgn -o opera.gtn
      gametool import games.pgn -o games.gtn --rejects bad.pgn --eco
      gametool import games.pgn -o /dev/null       # only check: the refusals and warnings
      curl -s https://example.org/games.pgn | gametool import - -o -
    """
    from gametool.cli.commands.common import Rejected, fail
    from gametool.core.errors import GameError
    from gametool.records.sink import exists
    from gametool.sources import progress, refuse_record_for_import

    try:
        refuse_record_for_import(file)
    except GameError as exc:
        raise fail(exc) from None
    for path in (output, rejects):
        if path is not None and exists(path) and not force:
            raise Rejected(f"{path}: already exists (use --force to overwrite)")
    writer = _Writer(output, rejects, as_json)
    try:
        with progress.shown("importing", [file], quiet or progress.stdout_shown(output)):
            if jobs > 1 or scheduler is not None:
                _import_spread(file, writer, fix_results, eco, jobs, scheduler)
            else:
                _import_streamed(file, writer, fix_results, eco)
        if not writer.games and not writer.refused:
            raise GameError(f"{file}: no PGN game found")
        writer.finish(force)
    except GameError as exc:
        writer.discard()
        raise fail(exc) from None
    except BaseException:  # interrupted (SIGINT, SIGTERM): nothing left behind
        writer.discard()
        raise
    if writer.refused:
        raise Rejected(f"{writer.refused} of {writer.refused + writer.games} games refused")
    count = writer.games
    click.echo(f"{count} game{'s' * (count != 1)} imported"
               + (f" to {output}" if output not in (None, "-") else ""), err=True)


class _Writer:
    """The records and the refused games' texts, written as they come; the messages on
    stderr."""

    def __init__(self, output: str | None, rejects: str | None, as_json: bool = False) -> None:
        self.output, self.rejects = output, rejects
        self.as_json = as_json
        """With --json the records are one JSON list, written one object at a time."""
        self.games = self.refused = 0
        self.out: Any = None
        self.bad: Any = None

    def add(self, item: Any, messages: list[str]) -> None:
        from gametool.pgn import reader as pgn
        from gametool.records.sink import Sink
        from gametool.sources import progress

        progress.game()
        if messages:
            progress.clear()
        for message in messages:
            click.echo(message, err=True)
        if isinstance(item, pgn.Refusal):
            self.refused += 1
            if self.rejects is not None:
                self.bad = self.bad or Sink(self.rejects, True)
                self.bad.write(("\n" if self.bad.written else "") + item.text)
            return
        self.games += 1
        self.out = self.out or Sink(self.output, True)
        if self.as_json:
            from gametool.cli.output import records_json

            one = records_json(item.text, many=False).rstrip("\n")
            self.out.write((",\n" if self.out.written else "[\n") + one)
        else:
            self.out.write(("\n" if self.out.written else "") + item.text)

    def finish(self, force: bool) -> None:
        from gametool.records.sink import Sink, exists

        if self.bad is not None:
            self.bad.commit()
        if self.out is not None:
            if self.as_json:
                self.out.write("\n]\n")
            self.out.commit()
        elif self.output is not None and force and exists(self.output):
            empty = Sink(self.output, True)
            empty.commit()
            click.echo(f"{self.output}: emptied: every game was refused", err=True)

    def discard(self) -> None:
        for sink in (self.out, self.bad):
            if sink is not None:
                sink.discard()


def _import_streamed(file: str, writer: _Writer, fix_results: bool, eco: bool) -> None:
    from gametool.pgn import reader as pgn
    from gametool.sources import pgn_texts

    name = None if file == "-" else file
    table = None
    if eco:
        from gametool.pgn import eco as openings

        table = openings.table()
    for item, messages in pgn.imports_stream(pgn_texts(file), name, fix_results, table):
        writer.add(item, messages)


def _import_spread(file: str, writer: _Writer, fix_results: bool, eco: bool, jobs: int,
                   scheduler: str | None) -> None:
    import functools

    from gametool.archives import corpus
    from gametool.sources import distribute, progress

    if scheduler is not None:
        distribute.check_scheduler(scheduler)
    pieces = distribute.parts(file)
    work = functools.partial(corpus.import_part, fix_results=fix_results, eco=eco)
    done = progress.through(zip(pieces, distribute.run(work, pieces, jobs, scheduler),
                                strict=True))
    for item, messages in corpus.joined_imports(result for _part, result in done):
        writer.add(item, messages)


def _style(values: dict[str, Any]) -> Any:
    from gametool.pgn import export as pgn_export

    return pgn_export.Style(
        comments=not values.get("no_comments"), nags=not values.get("no_nags"),
        variations=not values.get("no_variations"), seven_tags=bool(values.get("seven_tags")),
        notation=values.get("notation") or "san", fen_comments=bool(values.get("fen_comments")),
        plies=values.get("plies"), plycount=bool(values.get("plycount")))


def export_pgn(sessions: list[Any], as_seat: str | None, **values: Any) -> str:
    from gametool.pgn import export as pgn_export

    style = _style(values)
    table = _table(values)
    out = []
    for session in sessions:
        if table is not None:
            table.classify(session)
        out.append(pgn_export.export_pgn(session, style))
    return "\n".join(out)


def _table(values: dict[str, Any]) -> Any:
    if not values.get("eco"):
        return None
    from gametool.pgn import eco

    return eco.table()


def _stream(file: str, number: int | None, output: str | None, force: bool,
            values: dict[str, Any]) -> None:
    """``export --pgn`` of a whole file, record by record: memory stays small whatever the
    number of records. A record that cannot be read stops the export (nothing is written to
    OUT)."""
    from gametool.archives import corpus
    from gametool.pgn import export as pgn_export
    from gametool.records.sink import Sink
    from gametool.sources import distribute, progress

    style = _style(values)
    table = _table(values)
    if number is not None:
        from gametool.cli.commands.common import load

        session = load(file, number)
        if table is not None:
            table.classify(session)
        sink = Sink(output, force)
        sink.write(pgn_export.export_pgn(session, style))
        sink.commit()
        return
    sink = Sink(output, force)
    quiet = bool(values.get("quiet")) or progress.stdout_shown(output)
    try:
        with progress.shown("exporting", [file], quiet):
            for part in distribute.stream_parts(file):
                for _index, _line, item in corpus.sessions(part):
                    if isinstance(item, Exception):
                        raise item
                    if table is not None:
                        table.classify(item)
                    sink.write(("\n" if sink.written else "") + pgn_export.export_pgn(item, style))
        if not sink.written:
            from gametool.core.errors import RecordError, Where

            raise RecordError('no record found (a record starts with [Game "..."])',
                              Where(None if file == "-" else file, 1, 1))
        sink.commit()
    except BaseException:
        sink.discard()
        raise


export_pgn.stream = _stream  # type: ignore[attr-defined]


COMMANDS = [import_command]
OPTIONS = {
    "export": [
        (click.Option(["--pgn", "pgn"], is_flag=True,
                      help="Write the file's chess records as PGN instead, record by record."),
         export_pgn),
        (click.Option(["--no-comments", "no_comments"], is_flag=True,
                      help="With --pgn: leave out the comments."), None),
        (click.Option(["--no-nags", "no_nags"], is_flag=True,
                      help="With --pgn: leave out the NAGs ($1, ...)."), None),
        (click.Option(["--no-variations", "no_variations"], is_flag=True,
                      help="With --pgn: leave out the variations."), None),
        (click.Option(["--seven-tags", "seven_tags"], is_flag=True,
                      help="With --pgn: only the Seven Tag Roster (and SetUp and FEN)."), None),
        (click.Option(["--notation", "notation"], type=click.Choice(["san", "lan", "uci"]),
                      help="With --pgn: the moves in SAN (the default), long algebraic "
                      "(Ng1-f3) or UCI (g1f3)."), None),
        (click.Option(["--fen-comments", "fen_comments"], is_flag=True,
                      help="With --pgn: a comment with the position (FEN) after every move "
                      "of the main line."), None),
        (click.Option(["--plies", "plies"], type=params.Whole(0, params.PLY_MAXIMUM),
                      metavar="N", help="With --pgn: the main line cut after N plies "
                      "(the Result is then '*')."), None),
        (click.Option(["--plycount", "plycount"], is_flag=True,
                      help="With --pgn: a PlyCount tag with the plies of the main line "
                      "written (an existing one replaced)."), None),
        (click.Option(["--eco", "eco"], is_flag=True,
                      help="With --pgn: set the ECO and Opening tags from the opening "
                      "table."), None),
    ],
}
