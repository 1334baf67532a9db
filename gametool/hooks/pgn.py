"""PGN on the command line: ``gametool import`` and ``gametool export --pgn``."""

from __future__ import annotations

from typing import Any

import click


@click.command("import")
@click.argument("file")
@click.option("-o", "--output", metavar="OUT", help="Write the records to OUT (default: stdout).")
@click.option("--force", is_flag=True, help="With -o: overwrite an existing file.")
def import_command(file: str, output: str | None, force: bool) -> None:
    """Turn the games of the PGN file FILE into chess records (.gtn).

    Tag pairs, comments and variations (as comments) are kept; NAGs are dropped. An illegal or
    ambiguous move is reported as FILE:LINE:COL with the game and move, and nothing is written.
    """
    from gametool import storage
    from gametool.cli import fail
    from gametool.errors import GameError
    from gametool.formats import pgn

    try:
        text = pgn.import_text(storage.read(file), None if file == "-" else file)
        if output:
            storage.create(output, text, force)
        else:
            click.echo(text, nl=False)
    except GameError as exc:
        raise fail(exc) from None


def export_pgn(session: Any, as_seat: str | None) -> str:
    from gametool.formats import pgn

    return pgn.export_pgn(session)


COMMANDS = [import_command]
OPTIONS = {
    "export": [(click.Option(["--pgn", "pgn"], is_flag=True,
                             help="Write a chess record as PGN instead."), export_pgn)],
}
