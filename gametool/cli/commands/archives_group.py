"""The archive commands: ``split``, ``filter`` and ``stats``.

They take files and folders (searched for ``*.gtn`` and ``*.pgn``), read every record with its
game, report the records that cannot be read and go on. The work is spread over ``--jobs``
processes or a Dask cluster (``--scheduler``) with the same output as in one process.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from gametool.cli import params
from gametool.cli.commands.common import fail as _fail
from gametool.cli.commands.common import jobs_option, quiet_option, scheduler_option
from gametool.core.errors import GameError
from gametool.views import render


def _options(function: Any) -> Any:
    """The --jobs, --scheduler and --quiet options (validate and selfplay have them too)."""
    return jobs_option(scheduler_option(quiet_option(function)))


def spread(files: list[str], work: Any, jobs: int, scheduler: str | None) -> Iterator[Any]:
    """(part, ``work`` of the part) for every part of ``files``, in order, as they come: in
    this process a large file is read part by part, so that memory stays small whatever its
    size; with --jobs or --scheduler the parts are spread."""
    from gametool.archives import corpus
    from gametool.sources import distribute

    if scheduler is not None:
        distribute.check_scheduler(scheduler)
    if jobs == 1 and scheduler is None:
        return corpus.streamed(files, work)
    pieces = [part for path in files for part in distribute.parts(path)]
    return zip(pieces, distribute.run(work, pieces, jobs, scheduler), strict=True)


def results(inputs: tuple[str, ...], criteria: Any, jobs: int, scheduler: str | None,
            label: str, quiet: bool = True) -> Iterator[Any]:
    """The part results of every record of the inputs that passes ``criteria``, in order, as
    they come (see :func:`spread`), with a progress line named ``label`` unless ``quiet``."""
    from gametool import sources
    from gametool.archives import corpus
    from gametool.sources import progress

    files = sources.expand(inputs)
    work = functools.partial(corpus.read_part, criteria=criteria)
    with progress.shown(label, files, quiet):
        done = progress.through(spread(files, work, jobs, scheduler),
                                lambda result: result.count)
        yield from corpus.numbered(result for _part, result in done)


@click.command()
@click.argument("file")
@click.option("-o", "--output", "folder", default=".", show_default=True, metavar="DIR",
              help="The folder the records are written to (made if missing).")
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
@click.option("--json", "as_json", is_flag=True, help="Print the files written as JSON.")
@quiet_option
def split(file: str, folder: str, force: bool, as_json: bool, quiet: bool) -> None:
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
    from gametool import sources
    from gametool.archives import corpus
    from gametool.core import storage
    from gametool.sources import boundaries, progress

    if folder == "-":
        raise click.UsageError("-o -: split writes one file per record into a folder; "
                               "'gametool filter FILE' prints the records")
    try:
        stem, suffix = os.path.splitext(os.path.basename(file if file != "-" else "stdin.gtn"))
        whole = file != "-" and sources.is_pgn(file)
        if whole:
            # A PGN file is read twice, game by game, as bytes (its line ends and encoding
            # kept): to count and check the names, to write.
            try:
                with progress.shown("counting", [file], quiet):
                    count = sum(1 for _piece in progress.counting(boundaries.split_bytes(file)))
            except OSError as exc:
                raise GameError(f"{file}: cannot read: {exc.strerror}") from None
            pieces: Any = boundaries.split_bytes(file)
        else:
            pieces = corpus.split_text(sources.read_file(file), None if file == "-" else file)
            count = len(pieces)
        width = max(4, len(str(count)))
        names = [os.path.join(folder, f"{stem}-{n:0{width}d}{suffix or '.gtn'}")
                 for n in range(1, count + 1)]
        if not force:
            for name in names:
                if os.path.exists(name):
                    raise GameError(f"{name}: already exists (use --force to overwrite)")
        made = storage.make_folders(folder)
        try:
            # The names go to stdout as they are written: no line beside them on a terminal.
            with progress.shown("splitting", [file], quiet or not as_json and
                                sys.stdout.isatty(), games_total=count):
                written = (boundaries.write_files(pieces, names) if whole
                           else _created(names, pieces))
                for name in progress.counting(written):
                    if not as_json:
                        click.echo(name)
        except (GameError, OSError):
            storage.undo_folders(made)  # the folders made, when they are still empty
            raise
    except GameError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _fail(GameError(f"{folder}: cannot write: {exc.strerror}")) from None
    if as_json:
        import json

        click.echo(json.dumps([{"record": n, "file": name} for n, name in
                               enumerate(names, start=1)], indent=2, ensure_ascii=False))


def _created(names: list[str], texts: list[str]) -> Iterator[str]:
    """Each record text written to its file, the name given as it is."""
    from gametool.core import storage

    for name, text in zip(names, texts, strict=False):
        storage.create(name, text, force=True)
        yield name


def _elo_option(value: str | None, option: str) -> Any:
    from gametool.archives import corpus

    return None if value is None else corpus.elo_range(value, option)


SAME = click.Choice(["moves", "position"])


@click.command("filter")
@click.argument("files", nargs=-1, required=True)
@click.option("--game", metavar="G", help="Only records of game G.")
@click.option("--tag", "tags", multiple=True, metavar="NAME=REGEX", help="Only records whose "
              "tag NAME matches REGEX (searched, any letter case; repeatable).")
@click.option("--player", metavar="NAME", help="Only records where NAME plays: a seat's name "
              "or a player as the White or Black tag writes it ('Fischer, Robert J.'), any "
              "case; a first word names the player too ('carlsen' for Carlsen_Magnus).")
@click.option("--result", metavar="R", help="Only records with this Result (1-0, 1/2-1/2, "
              "1-2-3, *).")
@click.option("--termination", metavar="T", help="Only games that ended this way, by the "
              "rules or as the record says: checkmate, stalemate, resignation, agreement, "
              "'time forfeit', abandoned, adjudication, repetition, '50 moves', '75 moves', "
              "'dead position', 'rules infraction' (as a Termination tag writes it, too).")
@click.option("--min-plies", type=params.Whole(0, params.PLY_MAXIMUM), metavar="N",
              help="Only records of at least N plies.")
@click.option("--max-plies", type=params.Whole(0, params.PLY_MAXIMUM), metavar="N",
              help="Only records of at most N plies.")
@click.option("--elo-min", type=params.Whole(0, 4000), metavar="N",
              help="Only games where either player's Elo (WhiteElo, BlackElo) is at least N.")
@click.option("--elo-max", type=params.Whole(0, 4000), metavar="N",
              help="Only games where either player's Elo is at most N.")
@click.option("--white-elo", metavar="RANGE", help="Only games where White's Elo is in RANGE "
              "(2400-2600, 2400-, -1800).")
@click.option("--black-elo", metavar="RANGE", help="Only games where Black's Elo is in RANGE.")
@click.option("--date-from", metavar="DATE", help="Only games whose Date may fall on DATE or "
              "later (YYYY.MM.DD; PGN's partial dates such as 1972.??.?? are read).")
@click.option("--date-to", metavar="DATE", help="Only games whose Date may fall on DATE or "
              "earlier.")
@click.option("--eco", metavar="RANGE", help="Only chess games whose ECO code is in RANGE "
              "(A00-B99, B20, or a volume: C); a game without an ECO tag is classified by "
              "the opening table.")
@click.option("--position", "--fen", "position", metavar="FEN", help="Only games whose main "
              "line reaches this placement: a FEN's placement field (the fields after it do "
              "not count); with --game, a position in that game's one-line encoding.")
@click.option("--side", metavar="SEAT", help="With --position: only when that side (white or "
              "black) is to move in the placement.")
@click.option("--where", metavar="EXPR", help="Only records for which the query EXPR holds: "
              "comparisons (= != < <= > >= ~) of tags as written (Result, Opening) or of "
              "what the moves say: game.plies, game.result, game.winner, game.opening, and "
              "from [%clk], [%emt] and [%eval] comments game.min_clock, "
              "game.min_clock_white, game.min_clock_black, game.max_move_time, "
              "game.max_move_time_white, game.max_move_time_black, game.max_eval, "
              "game.min_eval (seconds, pawns), with and, or, not, parentheses and "
              "exists(Tag) ('WhiteElo >= 2500 and ECO ~ \"^B9\"'). Unknown is not a value, "
              "as SQL's NULL: a comparison with a missing, empty or '?' value, or a date whose "
              "parts needed are '??', is false, and so is its 'not'; exists(Tag) (the tag is "
              "written) and Tag = \"?\" (its value is unknown) ask for them. A number asked "
              "compares as a number, a date (Date >= \"2020.06\") by its known parts. A "
              "query on tags alone never reads a PGN game's moves.")
@click.option("--material", metavar="'KRP v KR'", help="Only chess games whose main line "
              "reaches this material: White's pieces, 'v', Black's (K, Q, R, B, N, P).")
@click.option("--duplicates", "duplicates", type=SAME, is_flag=False, flag_value="moves",
              metavar="[moves|position]", help="Only the records that repeat an earlier one: "
              "its moves, or (position) its last position, so that transpositions count.")
@click.option("--unique", "unique", type=SAME, is_flag=False, flag_value="moves",
              metavar="[moves|position]", help="Leave out the records that repeat an earlier "
              "one (its moves, or its last position).")
@click.option("--against", metavar="FILE", help="Only the records whose game (the same "
              "moves) is also in FILE (records or PGN); with --duplicates position, the same "
              "last position.")
@click.option("--limit", type=params.Whole(1, 10**9), metavar="N",
              help="Stop after N records kept.")
@click.option("-o", "--output", metavar="OUT", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the records to OUT ('-' or no -o: stdout).")
@click.option("--force", is_flag=True, help="With -o: overwrite an existing file.")
@click.option("--json", "as_json", is_flag=True, help="Write the records as JSON (a list of "
              "objects with tags and plies) instead of text.")
@_options
def filter_command(files: tuple[str, ...], game: str | None, tags: tuple[str, ...],
                   player: str | None, result: str | None, termination: str | None,
                   min_plies: int | None, max_plies: int | None, elo_min: int | None,
                   elo_max: int | None, white_elo: str | None, black_elo: str | None,
                   date_from: str | None, date_to: str | None, eco: str | None,
                   position: str | None, side: str | None, where: str | None,
                   material: str | None,
                   duplicates: str | None,
                   unique: str | None,
                   against: str | None, limit: int | None, output: str | None, force: bool,
                   as_json: bool, jobs: int, scheduler: str | None, quiet: bool) -> None:
    """Write the records of FILES that pass every test given, in canonical form.

    FILES are records (.gtn), PGN files (.pgn) and folders, searched for both. A game's result
    and how it ended are the record's: by the rules, or its ending off the board (a PGN game's
    Result and Termination tags). A record that cannot be read is reported on stderr and left
    out (exit status 1). Records are the same game for --duplicates, --unique and --against
    when their game, options, start and moves are (or, with 'position', their last positions).
    The records are read and written one by one: memory stays small whatever the size. The
    count of records kept is printed on stderr ('3 of 120 records kept').

    \b
    Examples:
      gametool filter archive/ --game chess --player carlsen --result 1-0 -o wins.gtn
      gametool filter games.pgn --player "Fischer, Robert J." --termination resignation
      gametool filter archive/ --tag Event='^World' --min-plies 80 --unique
      gametool filter games.pgn --elo-min 2600 --date-from 1972 --eco B20-B99 --limit 10
      gametool filter games.pgn --duplicates position --against old.gtn
      gametool filter games.pgn --position 8/8/8/4k3/8/8/4P3/4K3 --side white
      gametool filter games.pgn --where 'WhiteElo >= 2500 and (ECO ~ "^B9" or game.plies > 100)'
    """
    from gametool import games
    from gametool.archives import corpus
    from gametool.records import sink
    from gametool.sources import progress

    if duplicates is not None and unique is not None:
        raise click.UsageError("--duplicates and --unique: choose one")
    pairs = []
    for item in tags:
        name, eq, pattern = item.partition("=")
        if not eq or not name.strip():
            raise click.UsageError(f"--tag {item}: write NAME=REGEX")
        pairs.append((name.strip(), pattern))
    out = None
    try:
        dates = None
        if date_from is not None or date_to is not None:
            first = corpus.date_bounds(date_from, "--date-from")[0] if date_from else 0
            last = corpus.date_bounds(date_to, "--date-to")[1] if date_to else 99999999
            dates = (first, last)
        elo = None if elo_min is None and elo_max is None else (elo_min, elo_max)
        criteria = corpus.Criteria(
            game=games.canonical_id(game) if game is not None else None, tags=tuple(pairs),
            player=player, result=result, termination=termination, min_plies=min_plies,
            max_plies=max_plies, position=position, side=side, keep_text=True, elo=elo,
            white_elo=_elo_option(white_elo, "--white-elo"),
            black_elo=_elo_option(black_elo, "--black-elo"), dates=dates,
            eco=corpus.eco_range(eco) if eco is not None else None, where=where,
            material=material)
        criteria.check()
        by = duplicates or unique or "moves"
        mode = "duplicates" if duplicates else "unique" if unique else None
        others: set[str] | None = None
        if against is not None:
            others = set()
            for part in results((against,), None, jobs, scheduler, "reading", quiet):
                others.update(s.position if by == "position" else s.digest for s in part.kept)
        if output and sink.exists(output) and not force:
            raise GameError(f"{output}: already exists (use --force to overwrite)")
        kept = total = 0
        errors = False
        seen: set[str] = set()
        out = sink.Sink(output, True)
        for part in results(files, criteria, jobs, scheduler, "filtering",
                            quiet or progress.stdout_shown(output)):
            total += part.count
            for line in part.errors:
                errors = True
                progress.clear()
                click.echo(render.without_decisions(line), err=True)
            chosen = corpus.dedupe(part.kept, mode, by, seen)
            for summary in chosen:
                if others is not None and (summary.position if by == "position"
                                           else summary.digest) not in others:
                    continue
                if as_json:
                    from gametool.cli.output import records_json

                    one = records_json(summary.text or "", many=False).rstrip("\n")
                    out.write((",\n" if kept else "[\n") + one)
                else:
                    out.write(("\n" if kept else "") + (summary.text or ""))
                kept += 1
                if limit is not None and kept >= limit:
                    break
            if limit is not None and kept >= limit:
                break
        if as_json:
            out.write("\n]\n" if kept else "[]\n")
        out.commit()
    except GameError as exc:
        if out is not None:
            out.discard()
        raise _fail(exc) from None
    except BaseException:  # interrupted (SIGINT, SIGTERM): nothing left behind
        if out is not None:
            out.discard()
        raise
    click.echo(f"{kept} of {total} record{'s' * (total != 1)} kept", err=True)
    if errors:
        sys.exit(1)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@_options
def stats(files: tuple[str, ...], as_json: bool, jobs: int, scheduler: str | None,
          quiet: bool) -> None:
    """Print statistics of the records of FILES, game by game.

    For each game: games and plies; each seat's results (by seat name and by seat position:
    first player, second, ...); how the games ended; their length; the most common first turns;
    and, where the records have ECO or Opening tags, the most common openings. A game's result
    and how it ended are the record's: by the rules, or its ending off the board (a PGN game's
    Result and Termination tags: resignation, agreement, time forfeit, ...). FILES are records
    (.gtn), PGN files (.pgn) and folders, searched for both. A record that cannot be read is
    reported on stderr and left out (exit status 1). The records are read one by one: memory
    stays small whatever the size.

    \b
    Examples:
      gametool stats archive/
      gametool stats corpus/ --json --scheduler tcp://scheduler:8786
    """
    import json

    from gametool.archives import corpus
    from gametool.sources import progress

    tally = corpus.Tally()
    errors = False
    try:
        for part in results(files, None, jobs, scheduler, "reading", quiet):
            for line in part.errors:
                errors = True
                progress.clear()
                click.echo(line, err=True)
            for summary in part.kept:
                tally.add(summary)
    except GameError as exc:
        raise _fail(exc) from None
    data = tally.result(None if as_json else corpus.TOP)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        from gametool.views.render import table

        blocks = [f"{title}\n{table(headers, rows)}"
                  for title, headers, rows in corpus.statistics_tables(data)]
        if blocks:
            click.echo("\n\n".join(blocks))
    if errors:
        sys.exit(1)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--moves", metavar="SAN", help="The position after these moves from the "
              "standard start ('e4 c5' or '1. e4 c5'); the start without --moves or --fen.")
@click.option("--fen", metavar="FEN", help="The position, as a FEN.")
@click.option("--depth", type=params.Whole(1, 20), default=1, show_default=True, metavar="N",
              help="Each move with the tree of the replies to it, N plies deep.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_options
def tree(files: tuple[str, ...], moves: str | None, fen: str | None, depth: int,
         as_json: bool, jobs: int, scheduler: str | None, quiet: bool) -> None:
    """Print the moves played from a position in the chess games of FILES.

    For each move: the games that played it, how they ended (white wins, draws, black wins, in
    percent), the average rating of the player moving (WhiteElo or BlackElo) and the best-rated
    game (file and number). A game counts from the first time its main line reaches the
    position, whatever the moves that led there. FILES are PGN files, records (.gtn) and
    folders; they are read game by game, so that memory stays small whatever their size. A game
    that cannot be read is reported on stderr and left out (exit status 1).

    \b
    Examples:
      gametool tree games.pgn --moves "e4 c5"
      gametool tree archive/ --fen "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
      gametool tree games.pgn --moves "d4 Nf6" --depth 3 --json --jobs 4
    """
    import json

    from gametool import sources
    from gametool.archives import corpus
    from gametool.archives import tree as trees
    from gametool.sources import progress

    if moves is not None and fen is not None:
        raise click.UsageError("--moves and --fen: choose one")
    try:
        root = trees.target(moves, fen)
        files_list = sources.expand(files)
        work = functools.partial(trees.tree_part, root=root, depth=depth)
        top = trees.Branch()
        errors = False
        offsets: dict[str, int] = {}
        with progress.shown("reading", files_list, quiet):
            done = progress.through(spread(files_list, work, jobs, scheduler),
                                    lambda result: result[2])
            for part, (part_tree, part_errors, count) in done:
                # A part's games are numbered within the part: as within the file.
                base = offsets.get(part.path, 0) if part.number else 0
                offsets[part.path] = base + count
                trees.renumber(part_tree, base)
                top.merge(part_tree)
                for line in part_errors:
                    errors = True
                    progress.clear()
                    click.echo(corpus.renumbered(line, base), err=True)
    except GameError as exc:
        raise _fail(exc) from None
    if as_json:
        click.echo(json.dumps({"games": top.games, "moves": trees.as_json(top)}, indent=2,
                              ensure_ascii=False))
    else:
        from gametool.views.render import table

        click.echo(f"{top.games} game{'s' * (top.games != 1)} reach the position")
        if top.next:
            click.echo(table(["move", "games", "white %", "draw %", "black %", "average Elo",
                              "best game (Elo)"], trees.rows(top)))
    if errors:
        sys.exit(1)


COMMANDS = [split, filter_command, stats, tree]
