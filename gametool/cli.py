"""The ``gametool`` command line: a thin layer that loads, calls the library and renders.

Exit status: 0 success; 1 the input was read but rejected (illegal or ambiguous action, invalid
record, stale ``--expect-ply``, game over); 2 usage errors. Every failure is one line on stderr.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from gametool import (
    __version__,
    clierrors,
    completion,
    corpus_commands,
    games,
    hooks,
    params,
    players,
    render,
    storage,
    term,
)
from gametool.chance import new_contribution, new_seed, weak_seed_reason
from gametool.corpus_commands import jobs_option, scheduler_option
from gametool.engine import CHANCE, perft, perft_divide
from gametool.errors import GameError
from gametool.record import (
    Session,
    check_names,
    load_one,
    parse_options,
    replace_one,
    rewrite_one,
    write_record,
)


class Rejected(click.ClickException):
    """Input that was read but rejected: exit status 1, one line on stderr."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        # Decision numbers ("(D7)") are for the rules files' readers, not for players.
        click.echo(f"gametool: {render.without_decisions(self.format_message())}", err=True)


def fail(exc: GameError) -> Rejected:
    return Rejected(str(exc))


def as_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--as", "as_seat", metavar="SEAT", help=help_text,
                        shell_complete=completion.seats)


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
weak_seed_option = click.option(
    "--weak-seed-ok", is_flag=True,
    help="Hand out a seat's view or the SeedHash even though the record's Seed can be guessed "
         "(a short or hand-chosen seed: fine for tests, not for a game with stakes).")


def refuse_weak_seed(session: Session, as_seat: str | None, weak_seed_ok: bool) -> None:
    """A seat's view of a record whose seed can be guessed gives the seed away (from the
    SeedHash, or from the cards it deals); refuse it unless the user says it is fine."""
    if as_seat is None or weak_seed_ok or session.secret is None:
        return
    reason = weak_seed_reason(session.secret)
    if reason is not None:
        raise Rejected(f"the record's Seed can be guessed ({reason}), and a seat's view or "
                       "SeedHash would give it away: start with a generated seed, or add "
                       "--weak-seed-ok")


DEFAULT_THINK = players.DEFAULT_THINK

RECORD_FILE = click.Path(dir_okay=False, allow_dash=True)
"""A record file argument ('-' is stdin): completes file names in the shell."""


def output_option(what: str = "the record") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("-o", "--output", metavar="FILE", type=RECORD_FILE,
                        help=f"Write {what} to FILE ('-' or no -o: stdout).")


force_option = click.option("--force", is_flag=True, help="With -o: overwrite an existing file.")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def rewrite(file: str, change: Callable[[str], str]) -> None:
    """Replace the record ``file`` by ``change`` of its text, under its lock; with '-', read
    stdin and write the new record to stdout."""
    if file.lower().endswith(".pgn"):
        raise Rejected(f"{file}: a PGN file is read, never changed: make a record of it first "
                       f"(gametool import {file} -o GAME.gtn)")
    try:
        if file == "-":
            click.echo(change(storage.read("-")), nl=False)
        else:
            storage.update(file, change)
    except GameError as exc:
        raise fail(exc) from None


def deliver(text: str, output: str | None, force: bool = False) -> None:
    """Write ``text`` to the file ``output``, or to stdout when it is None or '-'."""
    if output is None or output == "-":
        click.echo(text, nl=False)
    else:
        storage.create(output, text, force)


record_option = params.record_option


def load(path: str, number: int | None = None) -> Session:
    try:
        return load_one(clierrors.read_records(path), None if path == "-" else path, number)
    except GameError as exc:
        raise fail(exc) from None


def load_all(path: str) -> list[Session]:
    """Every record of a file, each read strictly."""
    from gametool.record import read_text

    name = None if path == "-" else path
    try:
        return [Session.load(record, name)
                for record in read_text(clierrors.read_records(path), name)]
    except GameError as exc:
        raise fail(exc) from None


@click.group(cls=clierrors.ToolGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="gametool")
def cli() -> None:
    """Play, check and replay board, card, dice, domino and tile games stored as plain-text
    records (.gtn files).

    Start a record with 'start', list the legal actions with 'moves', play them with 'move',
    look at the position with 'show', and check or step through whole records with 'validate'
    and 'replay'. 'list' names the games and 'rules GAME' explains one.
    """


@cli.command("list")
@json_option
def list_games(as_json: bool) -> None:
    """List the games: id, name, number of players, chance, hidden information and status.

    \b
    Examples:
      gametool list
      gametool list --json | jq -r '.[].id'
    """
    classes = games.all_classes()
    if as_json:
        emit_json(render.game_list_json(classes))
    else:
        click.echo(render.game_list_text(classes))


@cli.command()
@click.argument("game", shell_complete=completion.game_ids)
@json_option
def rules(game: str, as_json: bool) -> None:
    """Show the rules summary, the options and the notation of GAME.

    GAME is an id or alias from 'gametool list'. The text is wrapped to the terminal's width.
    The same text makes the game's manual page, gametool-GAME(6). Options are chosen with
    'gametool start GAME --option NAME=VALUE'.

    \b
    Examples:
      gametool rules belemmer
      gametool rules mahjong | less
      gametool rules chess --json
    """
    import shutil

    try:
        cls = games.game_class(game)
    except GameError as exc:
        raise fail(exc) from None
    if as_json:
        emit_json(render.rules_json(cls))
        return
    width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    click.echo(render.rules_text(cls, width), nl=False)


@cli.command()
@click.argument("game", shell_complete=completion.game_ids)
@click.option("--players", metavar="A,B,..", help="Seat names in turn order (their number is "
              "the number of players). Default: the game's usual seats.")
@click.option("--option", "options", multiple=True, metavar="K=V",
              help="A rule option (repeatable); 'gametool rules GAME' lists them.")
@click.option("--seed", metavar="S", help="Seed for chance actions (random by default).")
@click.option("--no-seed", is_flag=True, help="No seed: chance actions are typed in like any "
              "other action (games played with real dice or cards).")
@click.option("--position", metavar="P", help="Start from a set-up position in the game's "
              "one-line encoding (FEN for chess).")
@output_option()
@force_option
@json_option
def start(game: str, players: str | None, options: tuple[str, ...], seed: str | None,
          no_seed: bool, position: str | None, output: str | None, force: bool,
          as_json: bool) -> None:
    """Start a new record of GAME.

    With a seed (random unless --seed or --no-seed is given, for games with chance) the tool
    draws the chance actions (shuffles, deals, dice) itself and writes them into the record.
    With --json, the record's tags and plies as JSON (as 'export --json' gives them).

    \b
    Examples:
      gametool start colors -o game.gtn
      gametool start belemmer --players ann,ben --option score=tops -o b.gtn
      gametool start tawula --no-seed -o table.gtn
      gametool start chess --position "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1" -o end.gtn
    """
    if seed is not None and no_seed:
        raise click.UsageError("--seed and --no-seed exclude each other")
    try:
        cls = games.playable_class(game)
        names = ([n.strip() for n in players.split(",")] if players else None)
        given = parse_options(" ".join(options))
        if seed is None and not no_seed and cls.chance:
            seed = new_seed()
        session = Session.start(cls.id, names, given, seed, position)
        if as_json:
            from gametool.output import records_json

            deliver(records_json(session.text(), many=False), output, force)
        else:
            deliver(session.text(), output, force)
    except GameError as exc:
        raise fail(exc) from None


def _with_hint(exc: GameError, session: Session, text: str, as_seat: str | None) -> GameError:
    """Add the closest legal actions to a rejected action's message (see suggest.with_hint)."""
    from gametool.suggest import with_hint

    return with_hint(exc, session, text, as_seat)


def ply_lines(session: Session, first: int, as_seat: str | None) -> list[dict[str, Any]]:
    """The plies from ``first`` on, as the seat that played them (or ``as_seat``) may read them."""
    seat: int | None = None
    if as_seat is not None:
        seat = session.seat_index(as_seat)
    else:
        movers = [s.seat for s in session.steps[first:] if s.seat != CHANCE]
        seat = movers[0] if movers else None
    # Chance typed in at a real table (no seed, no player acting) is printed as it was typed.
    typed = as_seat is None and seat is None and session.seed is None
    if seat == CHANCE:
        seat = None
    final = session.state
    out = []
    for ply in range(first, session.ply):
        step = session.steps[ply]
        text = (step.text if typed else
                session.game.mask_action(session.states[ply], step.action, final, seat))
        out.append({"ply": ply + 1, "seat": session.seat_name(step.seat), "action": text})
    return out


@cli.command()
@click.argument("file", type=RECORD_FILE)
@click.argument("actions", nargs=-1, shell_complete=completion.actions)
@as_option("Play as SEAT (rejected if SEAT is not to move).")
@click.option("--expect-ply", type=params.PLY, metavar="N",
              help="Refuse unless the first action would be ply N (a guard for play by email).")
@click.option("--auto", type=click.Choice(players.KINDS), help="Let a computer player play "
              "the whole turn of the seat to move instead of typed ACTIONS.")
@click.option("--player-seed", metavar="P", help="With --auto: the seed of the player's "
              "choices (the same seed, the same play; random by default).")
@click.option("--seed", "old_seed", metavar="P", hidden=True)
@click.option("--budget", type=params.COUNT, metavar="N",
              help=f"With --auto mcts: search iterations per action (default "
                   f"{players.DEFAULT_BUDGET}).")
@click.option("--think", type=params.THINK, metavar="SECONDS",
              help=f"With --auto mcts: stop each search after SECONDS as well (default "
                   f"{players.DEFAULT_THINK:g}; 0: only --budget, so that the same --player-seed "
                   "gives the same play on any machine).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing.")
@click.option("--dry-run", is_flag=True, help="Only check ACTIONS: print each as it would be "
              "written and what would follow; change nothing and draw no chance action.")
@json_option
@record_option
def move(file: str, actions: tuple[str, ...], as_seat: str | None, expect_ply: int | None,
         auto: str | None, player_seed: str | None, old_seed: str | None, budget: int | None,
         think: float | None, quiet: bool, as_json: bool, number: int | None,
         dry_run: bool) -> None:
    """Check ACTIONS and append them to the record FILE, then the chance actions that follow.

    FILE is rewritten atomically in canonical form, under an exclusive lock; a rejected action
    leaves it untouched. Prints each ply added, one per line ('12. ann: place b3'), chance
    actions as the seat that moved may see them. With '-' as FILE the record is read from
    stdin and written to stdout (the plies then go to stderr). With --auto, a computer player
    (random, greedy or mcts) plays the turn instead; it sees only what its seat may see. With
    --dry-run, ACTIONS are checked (on any record, also one exported for a seat) and printed
    with what would follow; nothing changes and no chance action is drawn.

    \b
    Examples:
      gametool move game.gtn d4=R
      gametool move master.gtn "place b3" --as ann --expect-ply 3
      gametool move game.gtn --auto greedy
      gametool move ann.gtn "place b3" --dry-run
      gametool start colors | gametool move - d4=R > game.gtn
    """
    if player_seed is not None and old_seed is not None:
        raise click.UsageError("--player-seed and --seed are the same option: give one")
    player_seed = player_seed if player_seed is not None else old_seed
    if bool(actions) == bool(auto):
        raise click.UsageError("give either ACTIONS or --auto")
    if auto is None and (player_seed is not None or budget is not None or think is not None):
        raise click.UsageError("--player-seed, --budget and --think go with --auto")
    think = DEFAULT_THINK if think is None else think
    if dry_run:
        if auto is not None:
            raise click.UsageError("--dry-run goes with ACTIONS, not --auto")
        _dry_run(file, number, actions, as_seat, expect_ply, as_json)
        return
    auto_seed = player_seed if player_seed is not None else new_seed()
    added: list[dict[str, Any]] = []

    def play(session: Session) -> None:
        first = session.ply
        if auto is not None:
            from gametool import selfplay

            selfplay.play_turn(session, auto, auto_seed, budget, as_seat, expect_ply,
                               think or None)
        else:
            try:
                session.play(list(actions), as_seat, expect_ply)
            except GameError as exc:
                from gametool.suggest import typed_action

                raise _with_hint(exc, session, typed_action(exc, actions, first),
                                 as_seat) from None
        added[:] = ply_lines(session, first, as_seat)

    def change(text: str) -> str:
        return rewrite_one(text, None if file == "-" else file, number, play)

    rewrite(file, change)
    if quiet:
        return
    to_stderr = file == "-"
    if as_json:
        click.echo(json.dumps(added, indent=2, ensure_ascii=False), err=to_stderr)
    else:
        for item in added:
            click.echo(f"{item['ply']}. {item['seat']}: {item['action']}", err=to_stderr)


def _dry_run(file: str, number: int | None, actions: tuple[str, ...], as_seat: str | None,
             expect_ply: int | None, as_json: bool) -> None:
    """Check ``actions`` on the record and print them with what would follow; no change."""
    session = load(file, number)
    first = session.ply
    try:
        steps = session.play(list(actions), as_seat, expect_ply, draw=False)
    except GameError as exc:
        from gametool.suggest import typed_action

        raise fail(_with_hint(exc, session, typed_action(exc, actions, first), as_seat)) from None
    plies = [{"ply": first + i, "seat": session.seat_name(step.seat), "action": step.text}
             for i, step in enumerate(steps, start=1)]
    follows = render.what_follows(session)
    if as_json:
        emit_json({"plies": plies, "then": follows})
        return
    for item in plies:
        click.echo(f"{item['ply']}. {item['seat']}: {item['action']}")
    click.echo(follows)


@cli.command()
@click.argument("file", type=RECORD_FILE)
@as_option("List only if SEAT is to move (nothing otherwise).")
@json_option
@record_option
def moves(file: str, as_seat: str | None, as_json: bool, number: int | None) -> None:
    """List the legal actions of the seat to move, one per line; nothing once the game is over.

    When chance is to move in a record without a seed, the possible chance actions are listed
    where they can be (dice, coin tosses). On a record exported for a seat (export --as SEAT),
    only that seat's actions are listed, when it is to move.

    \b
    Examples:
      gametool moves game.gtn
      gametool moves game.gtn | shuf -n1
      gametool moves game.gtn --as p2 --json
    """
    session = load(file, number)
    game, state = session.game, session.state
    try:
        as_seat = session.view_as(as_seat)
        to_move = session.to_move()
        if as_seat is not None and to_move is not None and session.seat_index(as_seat) != to_move:
            to_move = None
        if session.player_file and to_move == CHANCE:
            to_move = None  # what chance may do depends on what the file's seat cannot see
    except GameError as exc:
        raise fail(exc) from None
    texts: list[str] = []
    if to_move == CHANCE:
        outcomes = game.chance_outcomes(state)
        if outcomes is None:
            raise Rejected("chance is to move: type the chance action (see 'gametool rules "
                           f"{game.id}'), or start the record with a seed")
        texts = [game.format_action(state, a) for a in outcomes]
    elif to_move is not None:
        texts = [game.format_action(state, a) for a in game.legal_actions(state)]
    hint = game.next_step(state) if to_move not in (None, CHANCE) else None
    if as_json:
        emit_json({"to_move": session.seat_name(to_move), "ply": session.ply + 1,
                   "actions": texts, **({"next": hint} if hint else {})})
    else:
        for text in texts:
            click.echo(text)
        if hint and not texts:
            click.echo(f"gametool: {hint}", err=True)  # stdout stays a list of actions


flip_option = click.option("--flip/--no-flip", default=None,
                           help="Turn the board half round, or not (default: chess-like boards "
                           "are seen from the side of the seat given by --as).")


@cli.command()
@click.argument("file", type=RECORD_FILE)
@as_option("Show only what SEAT may see.")
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
    highlighted, hidden cards as backs (without --as, the master record's picture shows every
    hand: the referee's view). As text on a terminal, pieces, cards and figures are in colour
    (see --color) and long lines wrap within 80 columns; --unicode draws chess pieces as
    figurines. With --as on a record whose Seed can be guessed,
    refused unless --weak-seed-ok. A record exported for a seat (export --as SEAT) shows that
    seat's view.

    \b
    Examples:
      gametool show game.gtn
      gametool show master.gtn --as ann
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
            text = render.show_svg(session, ply, as_seat, flip, referee=as_seat is None)
        else:
            colour = output in (None, "-") and term.colour_wanted(color)
            text = render.show_text(session, ply, as_seat, flip, term.painter(colour), unicode,
                                    term.WIDTH)
            if colour:
                term.echo(text, colour, nl=False)
                return
        deliver(text, output, force)
    except GameError as exc:
        raise fail(exc) from None


@cli.command()
@click.argument("files", nargs=-1, required=True,
                type=click.Path(allow_dash=True))
@click.option("--all", "all_errors", is_flag=True, help="Report every error, not only the first "
              "of each record.")
@click.option("--seed-hash", metavar="H", help="Also check that each record's Seed has this "
              "SHA-256 (the SeedHash the players were sent).")
@click.option("--against", "exported", metavar="EXPORTED", type=click.Path(dir_okay=False),
              help="Also check that the exported record EXPORTED (from 'export --as SEAT') "
                   "agrees with FILE, the master record.")
@click.option("--contribution", "contributions", multiple=True, metavar="SEAT=HEX",
              help="Also check that SEAT's contribution to the joint seed is HEX, as that seat "
                   "sent it (repeatable).")
@click.option("--referee-only-seed", "referee_only", is_flag=True,
              help="With --seed-hash: accept a record whose chance drew from the Seed alone, "
                   "with no seat's contribution (refused otherwise, since whoever held the "
                   "seed could choose it).")
@json_option
@jobs_option
@scheduler_option
def validate(files: tuple[str, ...], all_errors: bool, seed_hash: str | None,
             exported: str | None, contributions: tuple[str, ...], referee_only: bool,
             jobs: int, scheduler: str | None, as_json: bool) -> None:
    """Check every record of every FILE: headers, seats, ply numbers, actions, chance values.

    A folder stands for every .gtn and .pgn file under it. Errors are printed on stderr as
    FILE:LINE:COL: ply N: message, and 'FILE: ok' lines on stdout. Exit status 1 if any record
    is invalid. With --seed-hash, --against or --contribution, a published master record is
    also checked against the commitment the players received and the contributions they sent.

    \b
    Examples:
      gametool validate game.gtn
      gametool validate --jobs 2 corpus/
      gametool validate master.gtn --seed-hash 5f2c...e9
    """
    from itertools import groupby

    from gametool import corpus, distribute, verify

    sent: list[tuple[str, str]] = []
    for item in contributions:
        seat, eq, value = item.partition("=")
        if not eq or not seat.strip() or not value.strip():
            raise click.BadParameter(f"{item!r} is not SEAT=HEX", param_hint="--contribution")
        sent.append((seat.strip(), value.strip()))
    try:
        if scheduler is not None:
            distribute.check_scheduler(scheduler)
        check = functools.partial(verify.check_part, all_errors=all_errors,
                                  expected_hash=seed_hash, exported=exported,
                                  contributions=tuple(sent), referee_only=referee_only)
        if jobs == 1 and scheduler is None:  # part by part as read: little memory
            pairs: Any = verify.streamed(corpus.expand(files), check, "validating")
        else:
            pieces = [part for path in corpus.expand(files) for part in corpus.parts(path)]
            pairs = zip(pieces, distribute.run(check, pieces, jobs, scheduler, "validating"),
                        strict=True)
        reports = [verify.report(path, [result for _part, result in group])
                   for path, group in groupby(pairs, key=lambda pair: pair[0].path)]
    except GameError as exc:
        raise fail(exc) from None
    for item in reports:
        if not as_json:
            for line in item.errors:
                click.echo(render.without_decisions(line), err=True)
            for line in item.lines:
                click.echo(line)
    if as_json:
        emit_json([item.entry for item in reports])
    if not all(item.ok for item in reports):
        sys.exit(1)


@cli.command()
@click.argument("file", type=RECORD_FILE)
@as_option("Show only what SEAT may see.")
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
    it replaces. With --as on a record whose Seed can be guessed, refused unless --weak-seed-ok.

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
    from gametool import step

    if stepping and (as_json or variations):
        raise click.UsageError("--step shows the main line's positions as text: it goes with "
                               "neither --json nor --variations")
    if stepping and not step.on_a_terminal():
        raise click.UsageError("--step needs a terminal (stdin and stdout); without it, replay "
                               "prints every position in turn")
    pages = hooks.chosen("replay", extra)
    if (pages and (stepping or as_json)) or (output and not pages):
        raise click.UsageError("-o goes with --html, and --html with neither --step nor --json")
    session = load(file, number)
    refuse_weak_seed(session, as_seat, weak_seed_ok)
    for handler, _value in pages:  # the replay as a page (--html)
        try:
            return deliver(handler([session], as_seat), output, force)
        except GameError as exc:
            raise fail(exc) from None
    if last is not None and first > last:
        raise click.UsageError(f"--from {first} comes after --to {last}")
    if first > session.ply:
        raise Rejected(f"--from {first}: the record ends at ply {session.ply}")
    last = session.ply if last is None else min(last, session.ply)  # up to the end
    colour = term.colour_wanted(color)

    def text(view: Session, n: int) -> str:
        return render.show_text(view, n, as_seat, None, term.painter(colour), unicode,
                                term.WIDTH)

    try:
        as_seat = session.view_as(as_seat)
        if stepping:
            step.step(lambda n: text(session, n), first, last,
                      lambda out: term.echo(out, colour, nl=False))
            return
        frames = [render.show_data(session, n, as_seat) for n in range(first, last + 1)]
        branches = [(branch, session.branch_view(branch)) for branch in session.branches
                    ] if variations else []
        if as_json:
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
            term.echo(text(session, n), colour, nl=False)
        for number, (branch, view) in enumerate(branches, start=1):
            click.echo("")
            click.echo(f"variation {number} (depth {branch.depth}), replacing ply "
                       f"{branch.start}:")
            for n in range(branch.start, view.ply + 1):
                click.echo("")
                term.echo(text(view, n), colour, nl=False)
    except GameError as exc:
        raise fail(exc) from None


@cli.command()
@click.argument("file", type=RECORD_FILE)
@as_option("The seat the record is exported for (required unless a format is chosen).")
@output_option("the exported record")
@force_option
@json_option
@hooks.add_options("export")
@weak_seed_option
@record_option
def export(file: str, as_seat: str | None, output: str | None, force: bool, as_json: bool,
           weak_seed_ok: bool, number: int | None, **extra: Any) -> None:
    """Print the record as SEAT may see it: hidden values as '?', SeedHash in place of Seed.

    A Seed that can be guessed (fewer than 128 bits of random hex, or any chosen word) would be
    recovered from its SeedHash, so such a record is refused unless --weak-seed-ok.

    With --pgn, print every chess record of FILE as a PGN game (SAN moves, every tag, comments,
    NAGs and variations; FEN when the game starts from a set-up position). With --json, the
    exported record's tags and actions as JSON (a spectator's view without --as). With --html,
    one self-contained page that replays the game picture by picture, as SEAT sees it (a
    spectator without --as).

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
                handler.stream(file, number, output, force, extra)
            except GameError as exc:
                raise fail(exc) from None
            return
        sessions = load_all(file) if number is None else [load(file, number)]
        for session in sessions:  # a page for a seat is that seat's view
            refuse_weak_seed(session, as_seat, weak_seed_ok)
        try:
            deliver(handler(sessions, as_seat), output, force)
        except GameError as exc:
            raise fail(exc) from None
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


@cli.command("perft")
@click.argument("file", type=RECORD_FILE)
@click.argument("depth", type=params.Whole(0, 20))
@click.option("--divide", is_flag=True, help="Also print the count below each first action.")
@json_option
@record_option
def perft_command(file: str, depth: int, divide: bool, as_json: bool,
                  number: int | None) -> None:
    """Count the distinct sequences of DEPTH complete turns from the record's position.

    A turn is every move one seat makes before another seat or chance acts; two turns differ
    when their moves differ. Only moves count: draw claims and resignations are not turns.
    Where the game's rules say so (chess, Super Horse Chess), the count goes on through the
    automatic draws (dead position, repetition, the 75-move rule, max_plies) and stops only
    where no move is left (mate, stalemate). Refused where chance would act within the depth.
    Used to verify move generators; the game's own counter is used where it has one.

    \b
    Examples:
      gametool perft game.gtn 3
      gametool perft game.gtn 2 --divide --json
    """
    session = load(file, number)
    game, state = session.game, session.state
    try:
        if divide:
            rows = [(game.format_action(state, action), count)
                    for action, count in perft_divide(game, state, depth)]
            total = sum(count for _a, count in rows)
            if as_json:
                emit_json({"depth": depth, "nodes": total, "divide": dict(rows)})
                return
            for text, count in rows:
                click.echo(f"{text}: {count}")
            click.echo(f"total: {total}")
        elif as_json:
            emit_json({"depth": depth, "nodes": perft(game, state, depth)})
        else:
            click.echo(perft(game, state, depth))
    except GameError as exc:
        raise fail(exc) from None


@cli.command("selfplay")
@click.argument("game", shell_complete=completion.game_ids)
@click.option("-n", "count", type=params.COUNT, default=10, show_default=True,
              metavar="N", help="The number of games.")
@click.option("-o", "--output", "--out", "out", required=True, metavar="DIR",
              type=click.Path(file_okay=False, allow_dash=True),
              help="Folder the records are written to, each as its game ends ('-': every "
                   "record to stdout, in order, as one stream; the summary then goes to "
                   "stderr).")
@click.option("--players", "kinds", metavar="K,K,..", default="random", show_default=True,
              help="The computer player of each seat in turn order (random, greedy, mcts); "
                   "their number is the number of seats. One kind alone plays every seat.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="A rule option.")
@click.option("--seed", metavar="S", help="Chance seed of the corpus (random by default); "
              "game I is played with seed S-I.")
@click.option("--player-seed", metavar="P", help="Seed of the players' choices (default: the "
              "chance seed); game I uses P-I.")
@click.option("--budget", type=params.COUNT, metavar="N",
              help=f"Search iterations per mcts action (default {players.DEFAULT_BUDGET}).")
@click.option("--think", type=params.THINK, metavar="SECONDS",
              help="Also stop each mcts search after SECONDS (default: only --budget does, so "
                   "that the same seeds give the same games on any machine).")
@jobs_option
@scheduler_option
@json_option
@click.option("--force", is_flag=True, help="Overwrite records already in DIR.")
def selfplay_command(game: str, count: int, out: str, kinds: str, options: tuple[str, ...],
                     seed: str | None, player_seed: str | None, budget: int | None,
                     think: float | None, jobs: int, scheduler: str | None,
                     as_json: bool, force: bool) -> None:
    """Play N complete games of GAME between computer players and write their records to DIR.

    Each record is written as soon as its game ends, so an interrupted run keeps every game
    that ended. On a terminal a line on stderr counts the games done, their rate and the time
    left. Then prints a summary table: each seat's wins, draws and losses, the mean length and
    the speed (with --json, the same as a list of objects, one per seat).

    \b
    Examples:
      gametool selfplay colors -n 100 -o corpus
      gametool selfplay tawula -n 20 -o corpus --players greedy,random --jobs 2
      gametool selfplay tawula -n 10 -o mcts --players mcts,random --think 0.05 --jobs 2
      gametool selfplay colors -n 10 -o - | gametool stats -
    """
    import time

    from gametool import selfplay

    try:
        cls = games.playable_class(game)
        chosen = [k.strip().lower() for k in kinds.split(",") if k.strip()]
        if len(chosen) == 1:
            chosen *= cls.players_default()
        unknown = [k for k in chosen if k not in players.KINDS]
        if unknown:
            raise click.UsageError(f"unknown player {unknown[0]!r} (players: "
                                   f"{', '.join(players.KINDS)})")
        names = cls.default_seat_names(len(chosen))
        check_names(cls, names)
        given = parse_options(" ".join(options))
        cls(given)  # the options are checked before any game is played
        if scheduler is not None:
            from gametool.distribute import check_scheduler

            check_scheduler(scheduler)
    except GameError as exc:
        raise fail(exc) from None
    corpus = seed if seed is not None else new_seed()
    tasks = [selfplay.Task(cls.id, i + 1, tuple(chosen), corpus, tuple(sorted(given.items())),
                           budget, player_seed, think or None)
             for i in range(count)]
    began = time.perf_counter()
    try:
        done = selfplay.play_into(tasks, out, jobs, scheduler, cls.id, force)
    except GameError as exc:
        raise fail(exc) from None
    headers, rows = selfplay.summary(chosen, done, names, time.perf_counter() - began)
    to_stderr = out == "-"
    if as_json:
        click.echo(json.dumps([dict(zip(selfplay.JSON_KEYS, row, strict=True)) for row in rows],
                              indent=2,
                              ensure_ascii=False), err=to_stderr)
    else:
        click.echo(render.table(headers, rows), err=to_stderr)


@cli.command()
@click.argument("file", type=RECORD_FILE)
@click.option("--plies", type=params.Whole(1, params.PLY_MAXIMUM), metavar="N",
              help="Take back the last N plies (default: the last turn of a player and the "
                   "chance actions after it).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing.")
@json_option
@record_option
def undo(file: str, plies: int | None, quiet: bool, as_json: bool, number: int | None) -> None:
    """Take back the last turn (or the last N plies) of the local record FILE.

    The Result and Termination tags are cleared (or set again if the game is still over).
    Refused on a record exported for one seat, and where the seed would draw the chance
    actions after the cut differently. Prints the plies taken back (with --json, as a list of
    objects with ply, seat and action).

    \b
    Examples:
      gametool undo game.gtn
      gametool undo game.gtn --plies 3
    """
    from gametool import undo as taking

    removed: list[dict[str, Any]] = []

    def change(text: str) -> str:
        from gametool.record import pick, read_text

        name = None if file == "-" else file
        records = read_text(text, name)
        session = Session.load(pick(records, name, number), name)
        count = plies if plies is not None else taking.last_turn_plies(session)
        after = taking.take_back(session, count)
        removed[:] = [{"ply": n + 1, "seat": session.seat_name(s.seat), "action": s.text}
                      for n, s in enumerate(session.steps[after.ply:], start=after.ply)]
        return after.text() if number is None else replace_one(text, records, number,
                                                                 after.text())

    rewrite(file, change)
    if quiet:
        return
    if as_json:
        click.echo(json.dumps(removed, indent=2, ensure_ascii=False), err=file == "-")
        return
    for item in removed:
        click.echo(f"taken back: {item['ply']}. {item['seat']}: {item['action']}",
                   err=file == "-")


@cli.command()
@click.option("--save", metavar="FILE", help="Also append the line to FILE (kept private), to "
              "check the published master record against later.")
def join(save: str | None) -> None:
    """Print a fresh random contribution to a jointly drawn seed, as the line '#join HEX'.

    Paste the line into your reply to the referee's opening mail (or into your first action
    mail). The seed of the game is the SHA-256 of the referee's committed secret and every
    seat's contribution, so nobody can choose it alone. When the master record is published,
    'gametool validate MASTER --contribution SEAT=HEX' checks that yours was used as sent.

    \b
    Examples:
      gametool join
      gametool join --save ~/games/joins.txt
    """
    line = f"#join {new_contribution()}"
    if save is not None:
        import os

        try:
            fd = os.open(save, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        except OSError as exc:
            raise Rejected(f"{save}: cannot write: {exc.strerror}") from None
    click.echo(line)


@cli.group()
@click.pass_context
def referee(ctx: click.Context) -> None:
    """Referee games by email: start them, apply the players' mailed actions, renew keys.

    A season: 'allow' lets players start games by mail, 'tick' (from cron) runs every game's
    clock, 'standings' prints results and Elo ratings.

    Seats are the players' email addresses. Each game is a master record in --game-dir, with a
    file of salted hashes of the seats' secret keys beside it; each outgoing message is an .eml
    file in --outbox, for a mail transfer agent to send.

    \b
    Examples:
      gametool referee new belemmer --players ann@example.org,ben@example.net \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee inbox - --game-dir ~/referee/games --outbox ~/referee/outbox < mail.eml
    """
    import os

    # What the referee writes (records, keys, mail) is for its own user only.
    old = os.umask(0o077)
    ctx.call_on_close(lambda: os.umask(old))


game_dir_option = click.option("--game-dir", required=True, metavar="DIR",
                               type=click.Path(file_okay=False),
                               help="Folder of the master records.")
outbox_option = click.option("--outbox", required=True, metavar="DIR",
                             type=click.Path(file_okay=False),
                             help="Folder the outgoing messages (.eml) are written to.")
from_option = click.option("--from", "address", default="referee@localhost", show_default=True,
                           metavar="ADDR", help="The referee's own address.")


def sending_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--sendmail [CMD] and --smtp HOST:PORT: send the outbox once the messages are written."""
    command = click.option(
        "--smtp", metavar="HOST:PORT",
        help="Then send the outbox through this SMTP server (STARTTLS whenever offered; login "
             "from GAMETOOL_SMTP_USER and GAMETOOL_SMTP_PASSWORD or ~/.netrc, never from the "
             "command line).")(command)
    return click.option(
        "--sendmail", metavar="CMD", is_flag=False, flag_value="sendmail -t -oi",
        help="Then send the outbox through the mail program CMD (given alone: "
             "'sendmail -t -oi'). Sent messages move to OUTBOX/sent/; any that cannot be sent "
             "stay and are tried again by the next run.")(command)


@contextlib.contextmanager
def referee_failures(where: str) -> Iterator[None]:
    """A referee command's refusals and its folder or disk failures (a folder that cannot be
    made, a full disk, no permission): one clear line and exit status 1, never a traceback."""
    try:
        with storage.disk_failures(where):
            yield
    except GameError as exc:
        raise fail(exc) from None


def send_outbox(outbox: str, sendmail: str | None, smtp: str | None) -> None:
    """Send the outbox if asked to; one line and exit status 1 when something is left."""
    if sendmail is None and smtp is None:
        return
    if sendmail is not None and smtp is not None:
        raise click.UsageError("--sendmail and --smtp exclude each other")
    from gametool import mailtransport

    with referee_failures(outbox):
        sender = (mailtransport.Smtp(smtp) if smtp is not None
                  else mailtransport.Sendmail(sendmail or mailtransport.DEFAULT_SENDMAIL))
        report = mailtransport.send_outbox(outbox, sender)
    if report.error is not None:
        raise Rejected(f"{report.left} message{'s' * (report.left != 1)} left in the outbox "
                       f"for the next run: {report.error}")


@referee.command("new")
@click.argument("game", shell_complete=completion.game_ids)
@click.option("--players", required=True, metavar="A@X,B@Y,..",
              help="The players' addresses in turn order.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="A rule option.")
@click.option("--seed", metavar="S", help="The referee's secret, committed to by the SeedHash "
              "(random by default); kept secret.")
@weak_seed_option
@click.option("--days", type=params.Whole(1, 365), metavar="N", help="Days each seat has "
              "per move (default: the game's own, 7 for most); see 'referee tick'.")
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_new(game: str, players: str, options: tuple[str, ...], seed: str | None,
                weak_seed_ok: bool, days: int | None, game_dir: str, outbox: str, address: str,
                sendmail: str | None, smtp: str | None) -> None:
    """Start GAME among the --players addresses and write the opening message to each.

    Each opening message carries that seat's secret key (and no other seat's), the SeedHash,
    the seat's view and, for the seat to move, its legal actions. The referee keeps only a
    salted hash of each key. The record, the key file and the messages are written all or
    none, readable by the referee only (folders 0700, files 0600). Prints the match id. In a
    game with chance, the seed is drawn jointly: chance waits until every seat has replied
    with its contribution ('#join HEX', printed by 'gametool join'), and the seed is the
    SHA-256 of the referee's secret and every contribution. Each seat has --days days per
    move (see 'referee tick').

    \b
    Examples:
      gametool referee new chess --players ann@example.org,ben@example.net --days 3 \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee new two-headed-dragon \\
          --players ann@example.org,ben@example.net,cy@example.com \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
    """
    from gametool.referee import Referee

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        match, _messages = ref.new(game, [p.strip() for p in players.split(",")],
                                   parse_options(" ".join(options)), seed, weak_seed_ok,
                                   days=days, deliver=True)
    click.echo(match)
    send_outbox(outbox, sendmail, smtp)


def _read_mail(message: str, limit: int) -> tuple[bytes, int]:
    """At most ``limit + 1`` bytes of the mail, and its whole size (the rest is read and
    dropped)."""
    try:
        handle = sys.stdin.buffer if message == "-" else open(message, "rb")  # noqa: SIM115
    except OSError as exc:
        raise Rejected(f"{message}: cannot read: {exc.strerror}") from None
    try:
        raw = handle.read(limit + 1)
        size = len(raw)
        while chunk := handle.read(1 << 16):
            size += len(chunk)
    except OSError as exc:
        raise Rejected(f"{message}: cannot read: {exc.strerror}") from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()
    return raw, size


@referee.command("inbox")
@click.argument("message", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--maildir", metavar="DIR", help="Apply every message in the Maildir DIR's new/ "
              "folder, oldest first, each once, filing it in cur/ with the flag S.")
@click.option("--mbox", metavar="FILE", help="Apply every message of the mbox FILE once, then "
              "empty it.")
@game_dir_option
@outbox_option
@from_option
@click.option("--max-bytes", type=params.Whole(1024, 1 << 30), default=256 * 1024,
              show_default=True, metavar="N", help="Refuse, unread, a mail larger than N bytes.")
@sending_options
def referee_inbox(message: str | None, maildir: str | None, mbox: str | None, game_dir: str,
                  outbox: str, address: str, max_bytes: int, sendmail: str | None,
                  smtp: str | None) -> None:
    """Apply one incoming mail MESSAGE (an RFC 5322 file, or stdin for '-' or nothing), or
    every new message of a Maildir or an mbox, and write the replies; then send the outbox.

    Each message is applied once, even when the referee is killed half-way: its outcome is
    kept in OUTBOX/.journal until the replies are written and the message is filed, and the
    next run finishes that work instead of applying the message again.

    The subject names the game ([gametool MATCH-ID]). The mail must come from a seat's address
    (one From header holding one address) and, in the player's own text (quoted lines and any
    pasted original are not read), hold the line '#key KEY' with the seat's key, then the guard
    line '#ply N', then one action per line. Exit status 1 when the mail was rejected: then only
    a reply to the seat is written, and nothing else changes (but a contribution to the seed,
    once read, is kept). A mail with no single readable sender, or from anyone who holds no
    seat in the game it names, is dropped unanswered with one line on stderr.

    Besides actions, a player may mail these commands, one per line, below the key line:
    '#draw' (offer a draw), '#accept' and '#decline' (answer an offer, or a request to take
    back), '#undo' (ask to take back one's last turn; every other seat must accept, and never
    past a chance action that told anything), each with the '#ply N' guard; '#show' (one's
    view), '#moves' (one's legal actions), '#games' (one's games and whose turn it is),
    '#standings' and '#help', which answer the sender only. With no game in the subject and
    the player's own key (see 'referee allow'), '#new GAME vs ADDRESS[,ADDRESS...]
    [option=value...] [days=N]' starts a game: the others are invited and accept with '#join'.

    \b
    Examples:
      gametool referee inbox message.eml --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee inbox - --max-bytes 65536 --game-dir games --outbox outbox < mail.eml
      gametool referee inbox --maildir ~/Maildir/.referee --game-dir ~/referee/games \\
          --outbox ~/referee/outbox --smtp mail.example.org:587
    """
    from gametool import mailtransport
    from gametool.referee import Referee

    if sum(x is not None for x in (message, maildir, mbox)) > 1:
        raise click.UsageError("give one of MESSAGE, --maildir and --mbox")
    ref = Referee(game_dir, outbox, address, max_bytes)
    if maildir is not None or mbox is not None:
        with referee_failures(outbox):
            report = (mailtransport.read_maildir(ref, maildir, max_bytes) if maildir is not None
                      else mailtransport.read_mbox(ref, mbox or "", max_bytes))
        for reason in report.rejected:
            click.echo(f"gametool: mail not applied: {reason}", err=True)
        send_outbox(outbox, sendmail, smtp)
        return
    raw, size = _read_mail(message or "-", max_bytes)
    journal = mailtransport.Journal(ref.outbox)
    with referee_failures(outbox), journal.locked():
        mailtransport.finish_orphans(ref, journal, {mailtransport.digest(raw)})
        outcome = mailtransport.apply_once(ref, journal, raw, size)
        journal.remove(mailtransport.digest(raw))
    send_outbox(outbox, sendmail, smtp)
    if not outcome.applied:
        if outcome.reason and not outcome.reason.startswith("dropped"):
            raise Rejected(f"mail rejected: {outcome.reason}")
        raise Rejected(f"mail {outcome.reason}")


@referee.command("send")
@outbox_option
@sending_options
def referee_send(outbox: str, sendmail: str | None, smtp: str | None) -> None:
    """Send every message waiting in the outbox, oldest first, through --sendmail or --smtp.

    Each sent message moves to OUTBOX/sent/; one that cannot be sent stays for the next run
    (exit status 1, with the reason).

    \b
    Examples:
      gametool referee send --outbox ~/referee/outbox --sendmail
      gametool referee send --outbox ~/referee/outbox --smtp mail.example.org:587
    """
    if sendmail is None and smtp is None:
        raise click.UsageError("give --sendmail or --smtp")
    send_outbox(outbox, sendmail, smtp)


@referee.command("rekey")
@click.argument("match")
@click.argument("seat")
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_rekey(match: str, seat: str, game_dir: str, outbox: str, address: str,
                  sendmail: str | None, smtp: str | None) -> None:
    """Give SEAT of game MATCH a new key, for a player who lost theirs.

    The old key stops working at once. The new key goes only to the seat's registered address,
    in a message with its view (and its legal actions when it is to move); nothing is printed.

    \b
    Examples:
      gametool referee rekey two-headed-dragon-1a2b3c4d ben@example.net \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
    """
    from gametool.referee import Referee

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        ref.rekey(match, seat, deliver=True)
    send_outbox(outbox, sendmail, smtp)


@referee.command("tick")
@game_dir_option
@outbox_option
@from_option
@click.option("--now", metavar="TIME", help="The time to act at, in UTC (2026-11-26T09:30:00Z; "
              "default: $GAMETOOL_NOW, else the clock), for tests.")
@sending_options
def referee_tick(game_dir: str, outbox: str, address: str, now: str | None,
                 sendmail: str | None, smtp: str | None) -> None:
    """Run the games' clocks: remind, forfeit, let invitations lapse; run it from cron.

    A seat to move gets one reminder once half of its days per move are gone. When they are
    all gone, the game ends by time forfeit (an 'end:' line in the record, the late seat
    last) and every seat gets the master record; in a game of three or more seats whose rules
    let a seat leave (Track Gammon's 'resign'), the late seat leaves and the others play on.
    A game started by '#new' whose invitation was not accepted in time lapses: its files move
    to GAME_DIR/lapsed/. Prints one line of what was done.

    \b
    Examples:
      gametool referee tick --game-dir ~/referee/games --outbox ~/referee/outbox --sendmail
      gametool referee tick --now 2026-12-01T12:00:00Z --game-dir games --outbox outbox
    """
    from gametool.referee import Referee

    ref = Referee(game_dir, outbox, address, now=now)
    with referee_failures(game_dir):
        ref.now()
        report = ref.tick()
    click.echo(f"reminded {len(report.reminded)}, forfeited {len(report.forfeited)}, "
               f"left {len(report.left)}, lapsed {len(report.lapsed)}; "
               f"{report.messages} message{'s' * (report.messages != 1)} written")
    send_outbox(outbox, sendmail, smtp)
    if report.errors:
        for reason in report.errors[:-1]:
            click.echo(f"gametool: {reason}", err=True)
        raise Rejected(report.errors[-1])


@referee.command("allow")
@click.argument("addresses", nargs=-1, required=True, metavar="ADDRESS...")
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_allow(addresses: tuple[str, ...], game_dir: str, outbox: str, address: str,
                  sendmail: str | None, smtp: str | None) -> None:
    """Let these players start games by mail ('#new GAME vs ADDRESS...').

    Each gets a player key of its own, by mail (a new one each time; the old one stops
    working); the referee keeps only its salted hash, in GAME_DIR/players.keys. With that key,
    in a mail whose subject names no game, a player may send '#new', '#games', '#standings'
    and '#help'.

    \b
    Examples:
      gametool referee allow ann@example.org ben@example.net \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
    """
    from gametool.referee import Referee

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        messages = ref.allow(list(addresses))
        ref.write(messages)
    send_outbox(outbox, sendmail, smtp)


@referee.command("standings")
@game_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def referee_standings(game_dir: str, as_json: bool) -> None:
    """Print, for each game, every player's games, wins, draws, losses, unfinished games and
    Elo rating.

    The rating comes from the finished games, in the order they ended: every player starts
    at 1500, and a game moves a rating by K = 20 times (score - expected score), the expected
    score being 1 / (1 + 10^((opponent - own) / 400)). A game of three or more seats counts
    as one result against each other seat (better rank 1, same 1/2, worse 0), each weighted
    K / (seats - 1). Players mail '#standings' for the same tables.

    \b
    Examples:
      gametool referee standings --game-dir ~/referee/games
      gametool referee standings --game-dir ~/referee/games --json
    """
    import json

    from gametool import standings

    tables = standings.standings(game_dir)
    if as_json:
        click.echo(json.dumps(standings.as_json(tables), indent=2))
    else:
        click.echo(standings.as_text(tables), nl=False)


for _command in hooks.commands() + corpus_commands.COMMANDS:
    cli.add_command(_command)


@cli.command()
@click.argument("game_or_file", metavar="GAME|FILE", type=click.Path(dir_okay=False),
                shell_complete=completion.games_or_files)
@click.option("--players", metavar="A,B,..", help="Seat names of a new game, in turn order.")
@click.option("--vs", type=click.Choice(players.KINDS), help="Play against this computer "
              "player: it takes every seat but yours (default: hot seat, every seat a person).")
@as_option("With --vs: the seat you play (default: the first).")
@click.option("--option", "options", multiple=True, metavar="K=V",
              help="A rule option of a new game (repeatable).")
@click.option("--seed", metavar="S", help="Chance seed of a new game (random by default).")
@click.option("--no-seed", is_flag=True, help="A new game whose chance actions are typed in "
              "(real dice or cards).")
@click.option("--player-seed", metavar="P", help="Seed of the computer player's choices.")
@click.option("--budget", type=params.COUNT, metavar="N",
              help="Search iterations per mcts action.")
@click.option("--think", type=params.THINK, default=players.DEFAULT_THINK, show_default=True,
              metavar="SECONDS", help="Time an mcts player may think per action (0: only "
              "--budget bounds it).")
@term.color_option
@term.unicode_option
@click.option("-o", "--output", metavar="FILE", type=click.Path(dir_okay=False),
              help="The record, saved after every turn (default: GAME.gtn, or FILE itself).")
def play(game_or_file: str, players: str | None, vs: str | None, as_seat: str | None,
         options: tuple[str, ...], seed: str | None, no_seed: bool, player_seed: str | None,
         budget: int | None, think: float, color: str, unicode: bool,
         output: str | None) -> None:
    """Play GAME (a new record) or go on with the record FILE at the terminal.

    Hot seat (every seat typed in turn) or, with --vs, against a computer player. The board is
    drawn after every turn for the seat to move (with --vs: for your seat), in colour on a
    terminal (not in a pipe, nor when NO_COLOR is set; see --color). In hot seat, a game with
    hidden information clears the screen between seats and waits for the next seat to press
    Enter. Tab completes the legal actions; a rejected action is explained, with the closest
    legal ones. The record is saved after every turn, with the computer's seats in its
    Computer tag: 'quit' stops and prints the command that goes on, and playing FILE again
    goes on as it was. Also: 'moves', 'undo', 'resign', 'help'.

    \b
    Examples:
      gametool play colors --vs random
      gametool play chess --players ann,ben -o ann-ben.gtn
      gametool play belemmer --vs mcts --as black --think 2
      gametool play ann-ben.gtn
    """
    import os
    import shlex

    from gametool import play as table

    if seed is not None and no_seed:
        raise click.UsageError("--seed and --no-seed exclude each other")
    if output == "-":
        raise click.UsageError("-o -: play saves the record after every turn, so it needs a "
                               "file (the terminal is for the game)")
    try:
        if os.path.isfile(game_or_file):
            if players or options or seed or no_seed:
                raise click.UsageError("--players, --option, --seed and --no-seed start a new "
                                       "game; FILE goes on with its own")
            session = load(game_or_file)
            path = output if output is not None else game_or_file
            computers = (table.computer_seats(session.names, vs, as_seat)
                         if vs is not None or as_seat is not None else table.computers_of(session))
            session.record.set(table.COMPUTER_TAG, table.computer_tag(session.names, computers))
            if path != game_or_file:
                storage.create(path, session.text())
            elif vs is not None:
                storage.write_atomic(path, session.text())
        else:
            cls = games.playable_class(game_or_file)
            names = [n.strip() for n in players.split(",")] if players else None
            if seed is None and not no_seed and cls.chance:
                seed = new_seed()
            session = Session.start(cls.id, names, parse_options(" ".join(options)), seed)
            computers = table.computer_seats(session.names, vs, as_seat)
            session.record.set(table.COMPUTER_TAG, table.computer_tag(session.names, computers))
            path = output if output is not None else table.free_name(f"{cls.id}.gtn")
            storage.create(path, session.text())
            click.echo(f"recording to {path}")
        again = "".join(f" {name} {shlex.quote(str(value))}" for name, value, given in (
            ("--budget", budget, budget is not None),
            ("--think", f"{think:g}", think != DEFAULT_THINK)) if given)
        game = table.Table(session, path, computers, player_seed or new_seed(), budget,
                           term.colour_wanted(color), think=think or None, again=again,
                           unicode=unicode)
        game.run()
    except GameError as exc:
        raise fail(exc) from None


@cli.command("completion")
@click.argument("shell", type=click.Choice(completion.SHELLS))
def completion_command(shell: str) -> None:
    """Print the shell completion script for SHELL (bash, zsh or fish).

    It completes commands, options, game ids and aliases, the seats of a record after --as,
    file names wherever a file goes, and the legal actions after 'gametool move FILE'. Load it
    in the running shell, or from the shell's start-up file (~/.bashrc, ~/.zshrc,
    ~/.config/fish/config.fish).

    \b
    Examples:
      eval "$(gametool completion bash)"
      eval "$(gametool completion zsh)"
      gametool completion fish | source
    """
    click.echo(completion.script(shell, cli))


@cli.command("help")
@click.argument("names", metavar="[COMMAND [SUBCOMMAND]]", nargs=-1)
def help_command(names: tuple[str, ...]) -> None:
    """Show the help of COMMAND (as 'gametool COMMAND --help' does), or of gametool itself.

    \b
    Examples:
      gametool help
      gametool help move
      gametool help referee inbox
    """
    from gametool.suggest import hint

    ctx = click.get_current_context()
    command: click.Command = cli
    here = ctx.find_root()
    for name in names:
        if not isinstance(command, click.Group):
            raise click.UsageError(f"'{here.command_path}' has no subcommands")
        if name not in command.commands:
            raise click.UsageError(f"no command {name!r}{hint(name, command.commands)}")
        command = command.commands[name]
        here = click.Context(command, info_name=name, parent=here)
    click.echo(command.get_help(here))


@cli.command("man")
@click.argument("page", required=False, metavar="[PAGE]")
@click.option("--install", is_flag=True, help="Instead, write every page into the "
              "environment's share/man (where 'man' looks when its bin is on the PATH) and "
              "print that folder.")
def man_command(page: str | None, install: bool) -> None:
    """Open a manual page: gametool(1), a command's page, or a game's rules page.

    PAGE is a command (play, referee-new), a game id or alias (belemmer, mahjong), or a page's
    name (gametool-play). The pages are made from the installed program itself, so they are
    there after 'pip install -e .' as after 'pip install .'; they open in man (man -l), or,
    where there is no man, as plain text through the pager. 'pip install .' also puts them
    where 'man gametool' finds them; after 'pip install -e .', 'gametool man --install' does.

    \b
    Examples:
      gametool man
      gametool man play
      gametool man belemmer
      gametool man --install && man gametool-referee-inbox
    """
    from gametool import manpages

    try:
        if install:
            if page is not None:
                raise click.UsageError("--install writes every page: give no PAGE")
            click.echo(manpages.install())
        else:
            manpages.open_page(page)
    except GameError as exc:
        raise fail(exc) from None


def stopped(code: int) -> None:
    """End an interrupted command now: one line, no process left, and no clean-up that could
    keep it waiting (files are only ever replaced whole, so there is nothing to finish)."""
    import os

    from gametool.interrupt import end_descendants

    end_descendants()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    try:
        sys.stderr.write("gametool: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(code)


def main() -> None:
    """Entry point: run the CLI; any unexpected failure is still one line, never a traceback."""
    from gametool import engine
    from gametool.interrupt import Interrupted, install

    install()
    engine.REMEMBER_ALL = False  # each record is read once by a command (see engine)
    try:
        cli.main(prog_name="gametool", standalone_mode=True)
    except SystemExit:
        raise
    except (KeyboardInterrupt, Interrupted) as exc:
        stopped(getattr(exc, "exit_code", 130))
    except Exception as exc:  # a bug, not bad input; still one clear line
        click.echo(f"gametool: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
