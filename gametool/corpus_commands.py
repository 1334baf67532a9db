"""The archive commands: ``split``, ``filter`` and ``stats``.

They take files and folders (searched for ``*.gtn`` and ``*.pgn``), read every record with its
game, report the records that cannot be read and go on. The work is spread over ``--jobs``
processes or a Dask cluster (``--scheduler``) with the same output as in one process.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

import click

from gametool import params
from gametool.errors import GameError


def _fail(exc: GameError) -> click.ClickException:
    from gametool.cli import fail

    return fail(exc)


jobs_option = click.option("--jobs", type=params.Whole(1, 1024), default=1, show_default=True,
                           metavar="N", help="Work in N processes (same results, faster).")
scheduler_option = click.option(
    "--scheduler", metavar="ADDRESS", help="Work on a Dask cluster: a scheduler address "
    "(tcp://host:8786) or local:N for a local cluster of N workers (same results).")


def _options(function: Any) -> Any:
    """The --jobs and --scheduler options (validate and selfplay have them too)."""
    return jobs_option(scheduler_option(function))


def _read_all(inputs: tuple[str, ...], criteria: Any, jobs: int,
              scheduler: str | None, label: str) -> tuple[list[Any], list[str], int]:
    """Every record of the inputs that passes ``criteria``: (summaries, errors, records)."""
    from gametool import corpus, distribute

    files = corpus.expand(inputs)
    if scheduler is not None:
        distribute.check_scheduler(scheduler)
    pieces = [part for path in files for part in corpus.parts(path)]
    work = functools.partial(corpus.read_part, criteria=criteria)
    kept, errors, total = [], [], 0
    for result in corpus.numbered(distribute.run(work, pieces, jobs, scheduler, label)):
        kept += result.kept
        errors += result.errors
        total += result.count
    return kept, errors, total


@click.command()
@click.argument("file")
@click.option("-o", "--output", "folder", default=".", show_default=True, metavar="DIR",
              help="The folder the records are written to (made if missing).")
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
@click.option("--json", "as_json", is_flag=True, help="Print the files written as JSON.")
def split(file: str, folder: str, force: bool, as_json: bool) -> None:
    """Write each record (or PGN game) of FILE to a file of its own in DIR.

    The files are named after FILE and numbered from 1 (games-0001.gtn, games-0002.gtn, ...)
    and hold each record's text as it was. Their names are printed (with --json, a list of
    objects with record and file). Nothing is written if any of them exists already, unless
    --force. DIR cannot be '-': the records of a file are printed by 'gametool filter FILE'.

    \b
    Examples:
      gametool split collection.gtn -o games/
      gametool split open.pgn -o games/ --force
    """
    from gametool import corpus, storage

    if folder == "-":
        raise click.UsageError("-o -: split writes one file per record into a folder; "
                               "'gametool filter FILE' prints the records")
    try:
        pieces = corpus.split_text(storage.read(file), None if file == "-" else file)
        stem, suffix = os.path.splitext(os.path.basename(file if file != "-" else "stdin.gtn"))
        width = max(4, len(str(len(pieces))))
        names = [os.path.join(folder, f"{stem}-{n:0{width}d}{suffix or '.gtn'}")
                 for n in range(1, len(pieces) + 1)]
        if not force:
            for name in names:
                if os.path.exists(name):
                    raise GameError(f"{name}: already exists (use --force to overwrite)")
        os.makedirs(folder, exist_ok=True)
        for name, text in zip(names, pieces, strict=True):
            storage.create(name, text, force=True)
            if not as_json:
                click.echo(name)
    except GameError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _fail(GameError(f"{folder}: cannot write: {exc.strerror}")) from None
    if as_json:
        import json

        click.echo(json.dumps([{"record": n, "file": name} for n, name in
                               enumerate(names, start=1)], indent=2, ensure_ascii=False))


@click.command("filter")
@click.argument("files", nargs=-1, required=True)
@click.option("--game", metavar="G", help="Only records of game G.")
@click.option("--tag", "tags", multiple=True, metavar="NAME=REGEX", help="Only records whose "
              "tag NAME matches REGEX (searched, any letter case; repeatable).")
@click.option("--player", metavar="NAME", help="Only records where NAME has a seat (any "
              "case; 'carlsen' also names the seat Carlsen_Magnus).")
@click.option("--result", metavar="R", help="Only records with this Result (1-0, 1/2-1/2, "
              "1-2-3, *).")
@click.option("--termination", metavar="T", help="Only games that ended this way "
              "(checkmate, resignation, ...).")
@click.option("--min-plies", type=params.Whole(0, params.PLY_MAXIMUM), metavar="N",
              help="Only records of at least N plies.")
@click.option("--max-plies", type=params.Whole(0, params.PLY_MAXIMUM), metavar="N",
              help="Only records of at most N plies.")
@click.option("--position", "--fen", "position", metavar="P", help="With --game: only records "
              "whose main line reaches position P, in the game's one-line encoding (FEN for "
              "chess; the clocks do not count).")
@click.option("--duplicates", "dedupe", flag_value="duplicates", help="Only the records that "
              "repeat the moves of an earlier one.")
@click.option("--unique", "dedupe", flag_value="unique", help="Leave out the records that "
              "repeat the moves of an earlier one.")
@click.option("-o", "--output", metavar="OUT", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the records to OUT ('-' or no -o: stdout).")
@click.option("--force", is_flag=True, help="With -o: overwrite an existing file.")
@click.option("--json", "as_json", is_flag=True, help="Write the records as JSON (a list of "
              "objects with tags and plies) instead of text.")
@_options
def filter_command(files: tuple[str, ...], game: str | None, tags: tuple[str, ...],
                   player: str | None, result: str | None, termination: str | None,
                   min_plies: int | None, max_plies: int | None, position: str | None,
                   dedupe: str | None, output: str | None, force: bool, as_json: bool,
                   jobs: int, scheduler: str | None) -> None:
    """Write the records of FILES that pass every test given, in canonical form.

    FILES are records (.gtn), PGN files (.pgn) and folders, searched for both. A record that
    cannot be read is reported on stderr and left out (exit status 1). Records are the same
    game for --duplicates and --unique when their game, options, start and moves are. The
    count of records kept is printed on stderr ('3 of 120 records kept').

    \b
    Examples:
      gametool filter archive/ --game chess --player carlsen --result 1-0 -o wins.gtn
      gametool filter archive/ --tag Event='^World' --min-plies 80 --unique
      gametool filter games.gtn --game chess --fen '8/8/8/4k3/8/8/4P3/4K3 w - -'
    """
    from gametool import corpus, games, storage

    pairs = []
    for item in tags:
        name, eq, pattern = item.partition("=")
        if not eq or not name.strip():
            raise click.UsageError(f"--tag {item}: write NAME=REGEX")
        pairs.append((name.strip(), pattern))
    try:
        criteria = corpus.Criteria(
            game=games.canonical_id(game) if game is not None else None, tags=tuple(pairs),
            player=player, result=result, termination=termination, min_plies=min_plies,
            max_plies=max_plies, position=position, keep_text=True)
        criteria.check()
        if output == "-":
            output = None
        if output and os.path.exists(output) and not force:
            raise GameError(f"{output}: already exists (use --force to overwrite)")
        kept, errors, total = _read_all(files, criteria, jobs, scheduler, "filtering")
    except GameError as exc:
        raise _fail(exc) from None
    for line in errors:
        click.echo(line, err=True)
    chosen = list(corpus.dedupe(kept, dedupe))
    text = "\n".join(s.text for s in chosen)
    try:
        if as_json:
            from gametool.output import records_json

            text = records_json(text)
        if output:
            storage.create(output, text, force=True)
        else:
            click.echo(text, nl=False)
    except GameError as exc:
        raise _fail(exc) from None
    click.echo(f"{len(chosen)} of {total} record{'s' * (total != 1)} kept", err=True)
    if errors:
        sys.exit(1)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@_options
def stats(files: tuple[str, ...], as_json: bool, jobs: int, scheduler: str | None) -> None:
    """Print statistics of the records of FILES, game by game.

    For each game: games and plies; each seat's results (by seat name and by seat position:
    first player, second, ...); how the games ended; their length; and the most common first
    turns. FILES are records (.gtn), PGN files (.pgn) and folders, searched for both. A record
    that cannot be read is reported on stderr and left out (exit status 1).

    \b
    Examples:
      gametool stats archive/
      gametool stats corpus/ --json --scheduler tcp://scheduler:8786
    """
    import json

    from gametool import corpus

    try:
        kept, errors, _total = _read_all(files, None, jobs, scheduler, "reading")
    except GameError as exc:
        raise _fail(exc) from None
    for line in errors:
        click.echo(line, err=True)
    data = corpus.statistics_of(kept)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        from gametool.render import table

        blocks = [f"{title}\n{table(headers, rows)}"
                  for title, headers, rows in corpus.statistics_tables(data)]
        if blocks:
            click.echo("\n\n".join(blocks))
    if errors:
        sys.exit(1)


COMMANDS = [split, filter_command, stats]
