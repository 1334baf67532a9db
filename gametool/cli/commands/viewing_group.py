"""The commands that show a record: ``show``, ``replay`` and ``export``."""

from __future__ import annotations

import json
from typing import Any

import click

from gametool.cli import hooks, params
from gametool.cli.commands.common import (
    RECORD_FILE,
    Rejected,
    as_option,
    deliver,
    emit_json,
    fail,
    flip_option,
    force_option,
    json_option,
    load,
    load_all,
    output_option,
    quiet_option,
    record_option,
    refuse_weak_seed,
    weak_seed_option,
)
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import Session, write_record
from gametool.records.annotations import shown_session
from gametool.views import render, term


@click.command()
@click.argument("file", type=RECORD_FILE)
@as_option("Show only what SEAT may see ('spectator': what every seat sees; without --as, "
           "a master record shows everything, as the referee sees it).")
@click.option("--ply", type=params.PLY, metavar="N", help="Show the position after N plies.")
@hooks.add_options("show")
@json_option
@weak_seed_option
@click.option("--svg", "as_svg", is_flag=True, help="Draw the position as an SVG picture "
              "(implied by -o NAME.svg).")
@flip_option
@term.color_option
@term.unicode_option
@output_option("the position (text, JSON or, for NAME.svg, a picture)")
@force_option
@record_option
def show(file: str, as_seat: str | None, ply: int | None, as_json: bool, weak_seed_ok: bool,
         as_svg: bool, flip: bool | None, color: str, unicode: bool, output: str | None,
         force: bool, number: int | None, **extra: Any) -> None:
    """Show the position: board or hands, scores, the seat to move and the result.

    With --json, the same as data, each seat named by its name in the record wherever it is
    meant: the seat to move, the scores, and in the game's position every value that names a
    seat or is held per seat (an object keyed by the seat names; a seat's colour, where the
    game has one, under "colours").

    With --svg, a picture of the same position: boards with coordinates, the last action
    highlighted, hidden cards as backs. As text on a terminal, pieces, cards and figures are in
    colour (see --color) and long lines wrap within 80 columns; --unicode draws chess pieces as
    figurines.

    One view for text, JSON and picture: without --as, a master record shows everything it
    holds (every hand, fleet and face-down value, every action written out: the referee's
    view); --as spectator what every seat sees; --as SEAT what SEAT sees. A record exported for
    a seat (export --as SEAT) shows that seat's view. With --as on a record whose Seed can be
    guessed, refused unless --weak-seed-ok.

    \b
    Examples:
      gametool show game.gtn
      gametool show master.gtn --as ann
      gametool show master.gtn --as spectator
      gametool show game.gtn --ply 10 --json
      gametool show game.gtn --as bob -o pos.svg
    """
    as_svg = as_svg or (output or "").lower().endswith(".svg")
    if as_svg and as_json:
        raise click.UsageError("--svg and --json exclude each other")
    session = load(file, number)
    refuse_weak_seed(session, as_seat, weak_seed_ok)
    if ply is not None and not 0 <= ply <= session.ply:
        raise Rejected(f"--ply {ply}: the record ends at ply {session.ply}")
    try:
        as_seat = session.view_as(as_seat)
        for handler, value in hooks.chosen("show", extra):
            session = handler(session, as_seat, value)
        if as_json:
            text = json.dumps(render.show_data(session, ply, as_seat), indent=2,
                              ensure_ascii=False) + "\n"
        elif as_svg:
            text = render.show_svg(session, ply, as_seat, flip)
        else:
            colour = output in (None, "-") and term.colour_wanted(color)
            text = render.show_text(shown_session(session), ply, as_seat, flip,
                                    term.painter(colour), unicode, term.WIDTH)
            if colour:
                term.echo(text, colour, nl=False)
                return
        deliver(text, output, force)
    except GameError as exc:
        raise fail(exc) from None


@click.command()
@click.argument("file", type=RECORD_FILE)
@as_option("Show only what SEAT may see ('spectator': what every seat sees; without --as, "
           "a master record shows everything, as the referee sees it).")
@click.option("--from", "first", type=params.PLY, default=0, metavar="N", help="First ply shown.")
@click.option("--to", "last", type=params.PLY, metavar="N", help="Last ply shown.")
@click.option("--variations", is_flag=True, help="Also show every variation of the record.")
@click.option("--step", "stepping", is_flag=True, help="On a terminal: one position at a time, "
              "stepped with the arrow keys, Home, End, a ply number and Enter; q leaves.")
@json_option
@term.color_option
@term.unicode_option
@weak_seed_option
@record_option
@hooks.add_options("replay")
@output_option("the page (with --html)")
@force_option
def replay(file: str, as_seat: str | None, first: int, last: int | None, variations: bool,
           stepping: bool, as_json: bool, color: str, unicode: bool, weak_seed_ok: bool,
           number: int | None, output: str | None, force: bool, **extra: Any) -> None:
    """Show every position of the record in turn, with the action that led to it.

    With --variations, each variation of the record follows, position by position from the ply
    it replaces. Views as for show: without --as, a master record shows everything (the
    referee's view); --as spectator what every seat sees. With --as on a record whose Seed can
    be guessed, refused unless --weak-seed-ok.

    With --step (on a terminal only), one position at a time: Right arrow or Space forward,
    Left arrow back, Home and End the first and last ply, Page Up and Page Down ten plies, a
    ply number then Enter to jump there, q to leave. Colours as for show (--color).

    \b
    Examples:
      gametool replay game.gtn
      gametool replay game.gtn --from 10 --to 12 --as ann
      gametool replay game.gtn --step --unicode
      gametool replay game.pgn --html -o game.html
    """
    from gametool.views import step

    if stepping and (as_json or variations):
        raise click.UsageError("--step shows the main line's positions as text: it goes with "
                               "neither --json nor --variations")
    if stepping and not step.on_a_terminal():
        raise click.UsageError("--step needs a terminal (stdin and stdout); without it, replay "
                               "prints every position in turn")
    pages = hooks.chosen("replay", extra)
    if (pages and (stepping or as_json)) or (output and not pages):
        raise click.UsageError("-o goes with --html, and --html with neither --step nor --json")
    if pages:  # the replay as a page (--html); a file of several games: a page listing them
        sessions = load_all(file) if number is None else [load(file, number)]
        for one in sessions:
            refuse_weak_seed(one, as_seat, weak_seed_ok)
        return _pages(pages[0][0], sessions, as_seat, output, force)
    session = load(file, number)
    refuse_weak_seed(session, as_seat, weak_seed_ok)
    if last is not None and first > last:
        raise click.UsageError(f"--from {first} comes after --to {last}")
    if first > session.ply:
        raise Rejected(f"--from {first}: the record ends at ply {session.ply}")
    last = session.ply if last is None else min(last, session.ply)  # up to the end
    colour = term.colour_wanted(color)

    shown = shown_session(session)  # the text names the players as the record writes them

    def text(view: Session, n: int) -> str:
        return render.show_text(view, n, as_seat, None, term.painter(colour), unicode,
                                term.WIDTH)

    try:
        as_seat = session.view_as(as_seat)
        if stepping:
            step.step(lambda n: text(shown, n), first, last,
                      lambda out: term.echo(out, colour, nl=False))
            return
        branches = [(branch, session.branch_view(branch)) for branch in session.branches
                    ] if variations else []
        if as_json:
            frames = [render.show_data(session, n, as_seat) for n in range(first, last + 1)]
            if not variations:
                emit_json(frames)
                return
            emit_json({"main": frames, "variations": [
                {"from": branch.start, "depth": branch.depth,
                 "frames": [render.show_data(view, n, as_seat)
                            for n in range(branch.start, view.ply + 1)]}
                for branch, view in branches]})
            return
        for n in range(first, last + 1):
            if n > first:
                click.echo("")
            term.echo(text(shown, n), colour, nl=False)
        for number, (branch, _view) in enumerate(branches, start=1):
            click.echo("")
            click.echo(f"variation {number} (depth {branch.depth}), replacing ply "
                       f"{branch.start}:")
            view = shown.branch_view(branch)
            for n in range(branch.start, view.ply + 1):
                click.echo("")
                term.echo(text(view, n), colour, nl=False)
    except GameError as exc:
        raise fail(exc) from None


@click.command()
@click.argument("file", type=RECORD_FILE)
@as_option("The seat the record is exported for (required unless a format is chosen).")
@output_option("the exported record")
@force_option
@json_option
@hooks.add_options("export")
@weak_seed_option
@record_option
@quiet_option
def export(file: str, as_seat: str | None, output: str | None, force: bool, as_json: bool,
           weak_seed_ok: bool, number: int | None, quiet: bool, **extra: Any) -> None:
    """Print the record as SEAT may see it: hidden values as '?', SeedHash in place of Seed.

    A Seed that can be guessed (fewer than 128 bits of random hex, or any chosen word) would be
    recovered from its SeedHash, so such a record is refused unless --weak-seed-ok.

    With --pgn, print every chess record of FILE as a PGN game (SAN moves, every tag, comments,
    NAGs and variations; FEN when the game starts from a set-up position). With --json, the
    exported record's tags and actions as JSON (a spectator's record without --as). With
    --html, one self-contained page that replays the game picture by picture, as SEAT sees it
    (without --as, a master record's page shows everything, as show does; --as spectator what
    every seat sees).

    \b
    Examples:
      gametool export master.gtn --as ann -o ann.gtn
      gametool export game.gtn --as p1 --json
      gametool export game.gtn --pgn -o game.pgn
      gametool export games.gtn --pgn --seven-tags --no-comments --notation uci --plies 20
      gametool export game.gtn --html --as ann -o game.html
    """
    formats = hooks.chosen("export", extra)
    if len(formats) + as_json > 1:
        raise click.UsageError("choose one output format")
    if not formats and hooks.modifiers("export", extra):
        raise click.UsageError(f"{', '.join(hooks.modifiers('export', extra))}: "
                               "with a format (--pgn)")
    if formats:
        handler, _value = formats[0]
        if hasattr(handler, "stream"):  # a format written record by record
            try:
                handler.stream(file, number, output, force, {**extra, "quiet": quiet})
            except GameError as exc:
                raise fail(exc) from None
            return
        sessions = load_all(file) if number is None else [load(file, number)]
        for session in sessions:  # a page for a seat is that seat's view
            refuse_weak_seed(session, as_seat, weak_seed_ok)
        _pages(handler, sessions, as_seat, output, force)
        return
    if as_seat is None and not as_json:
        raise click.UsageError("export needs --as SEAT")
    session = load(file, number)
    refuse_weak_seed(session, as_seat, weak_seed_ok)
    try:
        seat = session.seat_index(as_seat) if as_seat is not None else CHANCE
        record = session.exported(None if seat == CHANCE else seat)
        if as_json:
            text = json.dumps(render.record_json(record), indent=2, ensure_ascii=False) + "\n"
        else:
            text = write_record(record)
        deliver(text, output, force)
    except GameError as exc:
        raise fail(exc) from None


def _pages(handler: Any, sessions: list[Session], as_seat: str | None, output: str | None,
           force: bool) -> None:
    """The output of a format written from whole records: to ``output`` (a file, stdout, or
    for a format that writes a folder of pages, ``-o FOLDER/``)."""
    import os

    folder = output is not None and output != "-" and (
        output.endswith(("/", os.sep)) or os.path.isdir(output))
    try:
        if hasattr(handler, "folder") and folder:
            assert output is not None
            handler.folder(sessions, as_seat, output, force)
            return
        deliver(handler(sessions, as_seat), output, force)
    except GameError as exc:
        raise fail(exc) from None


COMMANDS = [show, replay, export]
