"""Commit-reveal Special Salvo on the command line: ``commit``, ``answer`` and
``show --private``, joining a seat's private fleet file to the record."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from gametool.cli import params

if TYPE_CHECKING:
    from gametool.games.special_salvo.game import SpecialSalvo
    from gametool.games.special_salvo.private import PrivateFleet
    from gametool.records import Session


def _game(session: Session) -> SpecialSalvo:
    from gametool.core.errors import GameError
    from gametool.games.special_salvo.game import SpecialSalvo

    game = session.game
    if not isinstance(game, SpecialSalvo) or game.referee:
        raise GameError("a private fleet file is for special-salvo with --option referee=off "
                        "(commit-reveal play)")
    return game


def new_private(session: Session, seat: str, fleet_text: str) -> PrivateFleet:
    """A fresh secret for ``seat``: the fleet checked under the record's options, a new salt."""
    import secrets

    from gametool.games.special_salvo.private import PrivateFleet, read_fleet

    game = _game(session)
    name = session.names[session.seat_index(seat)]
    return PrivateFleet(name, read_fleet(game, fleet_text), secrets.token_hex(16))


def _owner(session: Session, seat: str, secret: PrivateFleet) -> int:
    from gametool.core.errors import GameError

    index = session.seat_index(seat)
    if secret.seat.lower() != session.names[index].lower():
        raise GameError(f"the private file belongs to {secret.seat}, not {session.names[index]}")
    return index


def commit_actions(session: Session, seat: str, secret: PrivateFleet) -> list[str]:
    """The commitment ``seat`` records for its private fleet."""
    from gametool.games.special_salvo import fleet as fl

    game = _game(session)
    _owner(session, seat, secret)
    fl.check_fleet(secret.placements, game.classic)
    return [f"commit {secret.commitment}"]


def answer_actions(session: Session, seat: str, secret: PrivateFleet) -> list[str]:
    """What the record asks of ``seat`` now: a report on the opponent's salvo, or the reveal."""
    from gametool.core.errors import GameError
    from gametool.games.special_salvo import fleet as fl
    from gametool.games.special_salvo.state import REPORT, REVEAL

    game = _game(session)
    index = _owner(session, seat, secret)
    state = session.state
    if state.commits[index] != secret.commitment:
        raise GameError(f"the private file does not match {session.names[index]}'s commitment "
                        "in this record")
    if session.to_move() != index or state.phase not in (REPORT, REVEAL):
        mover = session.seat_name(session.to_move())
        raise GameError(f"nothing for {session.names[index]} to answer now"
                        + (f": {mover} is to move" if mover else ": the game is over"))
    if state.phase == REPORT:
        return [game.format_action(state, game.true_report(state, secret.placements))]
    return [f"reveal {fl.format_fleet(secret.placements)} salt {secret.salt}"]


def with_own_fleet(session: Session, seat: str, path: str) -> Session:
    """A copy of ``session`` for display whose states hold ``seat``'s fleet from its private
    file, so that its own ocean shows its ships (the record itself is not changed)."""
    from gametool.core.errors import GameError
    from gametool.games.special_salvo.private import load_private

    _game(session)
    secret = load_private(path)
    index = _owner(session, seat, secret)
    committed = session.state.commits[index]
    if committed is not None and committed != secret.commitment:
        raise GameError(f"the private file does not match {session.names[index]}'s commitment "
                        "in this record")
    shown = copy.copy(session)
    shown.states = [replace(state, placed=tuple(secret.placements if i == index else fleet
                                                for i, fleet in enumerate(state.placed)))
                    for state in session.states]
    return shown


def _show_private(session: Session, as_seat: str | None, path: str) -> Session:
    if as_seat is None:
        raise click.UsageError("--private goes with --as SEAT")
    return with_own_fleet(session, as_seat, path)


def _complete_seats(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from gametool.cli.completion import seats

    return seats(ctx, param, incomplete)


seat_required = click.option("--as", "as_seat", required=True, metavar="SEAT",
                             help="The seat whose private file this is.",
                             shell_complete=_complete_seats)
private_option = click.option("--private", "private_path", required=True, metavar="MINE",
                              type=click.Path(dir_okay=False),
                              help="The seat's private fleet file (keep it secret).")
expect_option = click.option("--expect-ply", type=params.PLY, metavar="N",
                             help="Refuse unless the first action would be ply N.")
record_option = params.record_option


def _ply_lines(session: Session, first: int, as_seat: str) -> list[dict[str, Any]]:
    """The plies added from ``first`` on, as SEAT may read them."""
    from gametool.cli.commands.common import ply_lines

    return ply_lines(session, first, as_seat)


def _print_plies(added: list[dict[str, Any]], as_json: bool) -> None:
    """Each ply added on a line ('12. ben: report miss'), or all of them as JSON."""
    if as_json:
        import json

        click.echo(json.dumps(added, indent=2, ensure_ascii=False))
        return
    for item in added:
        click.echo(f"{item['ply']}. {item['seat']}: {item['action']}")


json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print the plies added as JSON.")


def _update(file: str, change: Any) -> None:
    from gametool.cli.commands.common import fail
    from gametool.core import storage
    from gametool.core.errors import GameError

    try:
        storage.update(file, change)
    except GameError as exc:
        raise fail(exc) from None


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@seat_required
@private_option
@click.option("--fleet", metavar="SHIPS", help="Create MINE with this fleet, e.g. "
              "'cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s', and a random salt.")
@expect_option
@json_option
@record_option
def commit(file: str, as_seat: str, private_path: str, fleet: str | None,
           expect_ply: int | None, as_json: bool, number: int | None) -> None:
    """Commit-reveal play (special-salvo, referee=off): record SEAT's fleet commitment.

    The fleet and a random salt stay in the private file MINE (created with --fleet, or an
    existing one); FILE gets only their SHA-256 commitment. Prints the plies added.

    \b
    Examples:
      gametool commit salvo.gtn --as ann --private ann.fleet \\
          --fleet "cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s"
      gametool commit salvo.gtn --as ben --private ben.fleet
    """
    from gametool.games.special_salvo import private
    from gametool.records import rewrite_one

    added: list[dict[str, Any]] = []

    def play(session: Session) -> None:
        secret = (new_private(session, as_seat, fleet) if fleet is not None
                  else private.load_private(private_path))
        first = session.ply
        session.play(commit_actions(session, as_seat, secret), as_seat, expect_ply)
        added[:] = _ply_lines(session, first, as_seat)
        if fleet is not None:
            private.save_private(private_path, secret)

    def change(text: str) -> str:
        return rewrite_one(text, file, number, play)

    _update(file, change)
    _print_plies(added, as_json)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@seat_required
@private_option
@expect_option
@json_option
@record_option
def answer(file: str, as_seat: str, private_path: str, expect_ply: int | None,
           as_json: bool, number: int | None) -> None:
    """Commit-reveal play (special-salvo, referee=off): SEAT answers from its private file.

    Appends the report on the opponent's salvo, computed from the fleet in MINE, or, once the
    game is decided, SEAT's reveal (fleet and salt), and prints the plies added. A reveal that
    breaks SEAT's commitment or contradicts a report SEAT made is recorded too, and SEAT loses.

    \b
    Examples:
      gametool answer salvo.gtn --as ben --private ben.fleet
    """
    from gametool.games.special_salvo import private
    from gametool.records import rewrite_one

    added: list[dict[str, Any]] = []

    def play(session: Session) -> None:
        secret = private.load_private(private_path)
        first = session.ply
        session.play(answer_actions(session, as_seat, secret), as_seat, expect_ply)
        added[:] = _ply_lines(session, first, as_seat)

    def change(text: str) -> str:
        return rewrite_one(text, file, number, play)

    _update(file, change)
    _print_plies(added, as_json)


COMMANDS = [commit, answer]
OPTIONS = {
    "show": [(click.Option(["--private", "private_path"], metavar="MINE",
                           type=click.Path(dir_okay=False),
                           help="With --as, in commit-reveal special-salvo: draw SEAT's own "
                                "ships from its private fleet file."), _show_private)],
}
