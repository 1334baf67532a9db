"""The commands where the computer plays: ``selfplay`` and ``play``."""

from __future__ import annotations

import json

import click

from gametool import games
from gametool.cli import completion, params
from gametool.cli.commands.common import (
    DEFAULT_THINK,
    as_option,
    fail,
    jobs_option,
    json_option,
    load,
    scheduler_option,
)
from gametool.core import storage
from gametool.core.chance import new_seed
from gametool.core.errors import GameError
from gametool.players import computer as players
from gametool.records import Session, check_names, parse_options
from gametool.views import render, term


@click.command("selfplay")
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

    from gametool.players import selfplay

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
            from gametool.sources.distribute import check_scheduler

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


@click.command()
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

    from gametool.cli import play as table

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


COMMANDS = [selfplay_command, play]
