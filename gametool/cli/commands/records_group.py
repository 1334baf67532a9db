"""The commands that play a record: ``start``, ``move``, ``moves``, ``undo``, ``validate``,
``perft`` and ``join``."""

from __future__ import annotations

import functools
import sys
from typing import Any

import click

from gametool import games
from gametool.cli import completion, params
from gametool.cli.commands.common import (
    DEFAULT_THINK,
    RECORD_FILE,
    Rejected,
    as_option,
    deliver,
    emit_json,
    fail,
    force_option,
    jobs_option,
    json_option,
    load,
    output_option,
    ply_lines,
    quiet_option,
    record_option,
    rewrite,
    scheduler_option,
)
from gametool.core import storage
from gametool.core.chance import new_contribution, new_seed
from gametool.core.engine import CHANCE, perft, perft_divide
from gametool.core.errors import GameError
from gametool.players import computer as players
from gametool.records import Session, parse_options, replace_one, rewrite_one


@click.command()
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
            from gametool.cli.output import records_json

            deliver(records_json(session.text(), many=False), output, force)
        else:
            deliver(session.text(), output, force)
    except GameError as exc:
        raise fail(exc) from None


@click.command()
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
            from gametool.players import selfplay

            selfplay.play_turn(session, auto, auto_seed, budget, as_seat, expect_ply,
                               think or None)
        else:
            try:
                session.play(list(actions), as_seat, expect_ply)
            except GameError as exc:
                from gametool.core.hints import typed_action, with_hint

                raise with_hint(exc, session, typed_action(exc, actions, first),
                                 as_seat) from None
        added[:] = ply_lines(session, first, as_seat)

    def change(text: str) -> str:
        return rewrite_one(text, None if file == "-" else file, number, play)

    rewrite(file, change)
    if quiet:
        return
    to_stderr = file == "-"
    if as_json:
        import json  # (only the commands asked for JSON load it)

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
        from gametool.core.hints import typed_action, with_hint

        raise fail(with_hint(exc, session, typed_action(exc, actions, first), as_seat)) from None
    plies = [{"ply": first + i, "seat": session.seat_name(step.seat), "action": step.text}
             for i, step in enumerate(steps, start=1)]
    from gametool.views import render

    follows = render.what_follows(session)
    if as_json:
        emit_json({"plies": plies, "then": follows})
        return
    for item in plies:
        click.echo(f"{item['ply']}. {item['seat']}: {item['action']}")
    click.echo(follows)


@click.command()
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


@click.command()
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
@quiet_option
def validate(files: tuple[str, ...], all_errors: bool, seed_hash: str | None,
             exported: str | None, contributions: tuple[str, ...], referee_only: bool,
             jobs: int, scheduler: str | None, as_json: bool, quiet: bool) -> None:
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

    from gametool import sources
    from gametool.referee import verify
    from gametool.sources import distribute, progress

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
        paths = sources.expand(files)
        with progress.shown("validating", paths, quiet):
            if jobs == 1 and scheduler is None:  # part by part as read: little memory
                pairs: Any = verify.streamed(paths, check)
            else:
                pieces = [part for path in paths for part in distribute.parts(path)]
                pairs = zip(pieces, distribute.run(check, pieces, jobs, scheduler), strict=True)
            counted = progress.through(pairs, lambda result: len(result)
                                       if isinstance(result, list) else 0)
            reports = [verify.report(path, [result for _part, result in group])
                       for path, group in groupby(counted, key=lambda pair: pair[0].path)]
    except GameError as exc:
        raise fail(exc) from None
    for item in reports:
        if not as_json:
            if item.errors:
                from gametool.views import render

            for line in item.errors:
                click.echo(render.without_decisions(line), err=True)
            for line in item.lines:
                click.echo(line)
    if as_json:
        emit_json([item.entry for item in reports])
    if not all(item.ok for item in reports):
        sys.exit(1)


@click.command("perft")
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


@click.command()
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
    from gametool.records import undo as taking

    removed: list[dict[str, Any]] = []

    def change(text: str) -> str:
        from gametool.records import pick, read_text

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
        import json

        click.echo(json.dumps(removed, indent=2, ensure_ascii=False), err=file == "-")
        return
    for item in removed:
        click.echo(f"taken back: {item['ply']}. {item['seat']}: {item['action']}",
                   err=file == "-")


@click.command()
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
        try:  # the line whole, or nothing (a full disk leaves no empty file)
            storage.write_new(save, line + "\n")
        except GameError as exc:
            raise Rejected(str(exc)) from None
    click.echo(line)


COMMANDS = [start, move, moves, validate, perft_command, undo, join]
