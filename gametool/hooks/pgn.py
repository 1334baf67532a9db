"""PGN on the command line: ``gametool import`` and ``gametool export --pgn``."""

from __future__ import annotations

from typing import Any

import click

from gametool import params


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the records to FILE ('-' or no -o: stdout).")
@click.option("--rejects", metavar="BAD", type=click.Path(dir_okay=False),
              help="Write the original text of every refused game to BAD.")
@click.option("--force", is_flag=True, help="With -o or --rejects: overwrite existing files.")
@click.option("--jobs", type=params.Whole(1, 1024), default=1, show_default=True,
              metavar="N", help="Work in N processes (same results, faster).")
@click.option("--scheduler", metavar="ADDRESS", help="Work on a Dask cluster: a scheduler "
              "address (tcp://host:8786) or local:N for a local cluster of N workers (same "
              "results).")
@click.option("--json", "as_json", is_flag=True, help="Write the records as JSON (a list of "
              "objects with tags and plies) instead of text.")
def import_command(file: str, output: str | None, rejects: str | None, force: bool,
                   jobs: int, scheduler: str | None, as_json: bool) -> None:
    """Turn the games of the PGN file FILE into chess records (.gtn).

    Every game that can be read is imported, with its tags, comments, NAGs and variations;
    each game that cannot is refused with one line, FILE:LINE:COL: game N: reason, at the
    offending token, and skipped (--rejects keeps its text). UTF-8 or Latin-1 input. A result
    the moves do not reach (an agreed draw, a time forfeit) becomes the record's ending off the
    board, with the Termination tag as its reason; a result contradicting the moves is refused.
    The count of games imported is printed on stderr. Exit status 1 if any game was refused.

    \b
    Examples:
      gametool import opera.pgn -o opera.gtn
      gametool import games.pgn -o games.gtn --rejects bad.pgn
      curl -s https://example.org/games.pgn | gametool import - -o -
    """
    import sys

    from gametool import storage
    from gametool.cli import Rejected, deliver, fail
    from gametool.clierrors import refuse_record_for_import
    from gametool.errors import GameError
    from gametool.formats import pgn

    try:
        refuse_record_for_import(file)
    except GameError as exc:
        raise fail(exc) from None
    name = None if file == "-" else file
    try:
        if file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(file, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        raise Rejected(f"{file}: cannot read: {exc.strerror}") from None
    text = pgn.decode(data)
    if jobs > 1 or scheduler is not None:
        from gametool import corpus, distribute

        try:
            if scheduler is not None:
                distribute.check_scheduler(scheduler)
            pieces = distribute.split(file, text)
            report = corpus.join_imports(distribute.run(corpus.import_part, pieces, jobs,
                                                        scheduler, "importing"))
        except GameError as exc:
            raise fail(exc) from None
    else:
        report = pgn.import_games(text, name)
    if not report.games and not report.refused:
        raise Rejected(f"{file}: no PGN game found")
    for message in report.messages:
        click.echo(message, err=True)
    try:
        if rejects is not None and report.refused:
            storage.create(rejects, "\n".join(r.text for r in report.refused), force)
        if report.games:
            if as_json:
                from gametool.output import records_json

                deliver(records_json(report.text()), output, force)
            else:
                deliver(report.text(), output, force)
    except GameError as exc:
        raise fail(exc) from None
    if report.refused:
        raise Rejected(f"{len(report.refused)} of {len(report.refused) + len(report.games)} "
                       "games refused")
    count = len(report.games)
    click.echo(f"{count} game{'s' * (count != 1)} imported"
               + (f" to {output}" if output not in (None, "-") else ""), err=True)


def export_pgn(sessions: list[Any], as_seat: str | None) -> str:
    from gametool.formats import pgn

    return "\n".join(pgn.export_pgn(session) for session in sessions)


COMMANDS = [import_command]
OPTIONS = {
    "export": [(click.Option(["--pgn", "pgn"], is_flag=True,
                             help="Write the file's chess records as PGN instead."), export_pgn)],
}
