"""The ``referee`` group: games by email, from the referee's side (new games, the inbox, the
clock, keys and standings)."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from gametool.cli import completion, params
from gametool.cli.commands.common import Rejected, fail, weak_seed_option
from gametool.core import storage
from gametool.core.errors import GameError
from gametool.records import parse_options


class TryAgain(Rejected):
    """The referee could not keep the outcome of a mail (a full disk, a damaged side file):
    exit status 75 (EX_TEMPFAIL), so that a mail server that pipes the mail tries again."""

    exit_code = 75


@click.group()
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


leave_days_option = click.option("--leave-days", type=params.Whole(0, 365), default=30,
                                 show_default=True, metavar="N",
                                 help="Days of leave each player may take in a year.")


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
    from gametool.referee import transport as mailtransport

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
@click.option("--bank", type=params.Whole(1, 365), metavar="DAYS", help="A time bank: days "
              "every seat may spend past its deadlines before a time forfeit.")
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_new(game: str, players: str, options: tuple[str, ...], seed: str | None,
                weak_seed_ok: bool, days: int | None, bank: int | None, game_dir: str,
                outbox: str, address: str, sendmail: str | None, smtp: str | None) -> None:
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
    from gametool.referee.referee import Referee

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        match, _messages = ref.new(game, [p.strip() for p in players.split(",")],
                                   parse_options(" ".join(options)), seed, weak_seed_ok,
                                   days=days, deliver=True, bank=bank)
    click.echo(match)
    send_outbox(outbox, sendmail, smtp)


def _directives() -> str:
    """The referee's table of mail commands, as '#help' lists it."""
    from gametool.referee.mail import directives

    return directives.listing()


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
@leave_days_option
@sending_options
def referee_inbox(message: str | None, maildir: str | None, mbox: str | None, game_dir: str,
                  outbox: str, address: str, max_bytes: int, leave_days: int,
                  sendmail: str | None, smtp: str | None) -> None:
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

    Besides actions, a player may mail the directives below, one per line under the key line
    ('#draw', '#accept', '#decline' and '#undo' with the '#ply N' guard; the others answer
    the sender alone, from its own view). A refused mail changes nothing: no leave is spent, no
    setting changed, and nobody's prepared answer is played or dropped. '#leave' takes from
    --leave-days a year; with no game in the subject and the player's own key (see 'referee
    allow'), '#new' starts a game.

    \b
    Examples:
      gametool referee inbox message.eml --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee inbox - --max-bytes 65536 --game-dir games --outbox outbox < mail.eml
      gametool referee inbox --maildir ~/Maildir/.referee --game-dir ~/referee/games \\
          --outbox ~/referee/outbox --smtp mail.example.org:587
    """
    from gametool.referee import transport as mailtransport
    from gametool.referee.mail.outgoing import Unkept
    from gametool.referee.referee import Referee

    if sum(x is not None for x in (message, maildir, mbox)) > 1:
        raise click.UsageError("give one of MESSAGE, --maildir and --mbox")
    ref = Referee(game_dir, outbox, address, max_bytes)
    ref.leave_days = leave_days  # the allowance '#leave' takes from
    if maildir is not None or mbox is not None:
        with referee_failures(outbox):
            report = (mailtransport.read_maildir(ref, maildir, max_bytes) if maildir is not None
                      else mailtransport.read_mbox(ref, mbox or "", max_bytes))
        for reason in report.rejected:
            click.echo(f"gametool: mail not applied: {reason}", err=True)
        stuck = run_tournaments(ref)
        send_outbox(outbox, sendmail, smtp)
        if report.errors:  # mails left for the next run: the referee's own failure
            for line in stuck:
                click.echo(f"gametool: {line}", err=True)
            raise Rejected(report.errors[0] + (f" (and {len(report.errors) - 1} more)"
                                               if len(report.errors) > 1 else ""))
        tournament_failed(stuck)
        return
    raw, size = _read_mail(message or "-", max_bytes)
    journal = mailtransport.Journal(ref.outbox)
    with referee_failures(outbox), journal.locked():
        mailtransport.finish_orphans(ref, journal, {mailtransport.digest(raw)})
        try:
            outcome = mailtransport.apply_once(ref, journal, raw, size)
        except Unkept as exc:  # the referee's own failure: the mail server tries again later
            raise TryAgain(str(exc)) from None
        # The marker of the mail stays a while: a retry of it by the mail server (this run
        # killed before it could say it was done) is answered by nothing new, once.
    stuck = run_tournaments(ref)
    send_outbox(outbox, sendmail, smtp)
    tournament_failed(stuck, retry=True)
    if not outcome.applied:
        if outcome.reason and not outcome.reason.startswith("dropped"):
            raise Rejected(f"mail rejected: {outcome.reason}")
        raise Rejected(f"mail {outcome.reason}")


referee_inbox.help = (referee_inbox.help or "").replace(
    "    \b\n    Examples:", "    \b\n" + "\n".join(
        f"    {line}" if line else "" for line in _directives().splitlines())
    + "\n\n    \b\n    Examples:", 1)


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
    from gametool.referee.referee import Referee

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
    to GAME_DIR/lapsed/. A player who takes the daily digest ('referee allow --digest daily',
    '#digest daily') gets, at most once a calendar day (UTC, on --now's clock), one mail
    listing every game waiting for its move, each with its view and its deadline. A seat's
    leave does not count against its time, and its time bank ('referee new --bank') is spent
    before the forfeit. Prints one line of what was done.

    \b
    Examples:
      gametool referee tick --game-dir ~/referee/games --outbox ~/referee/outbox --sendmail
      gametool referee tick --now 2026-12-01T12:00:00Z --game-dir games --outbox outbox
    """
    from gametool.referee.referee import Referee

    ref = Referee(game_dir, outbox, address, now=now)
    with referee_failures(game_dir):
        ref.now()
        report = ref.tick()
    click.echo(f"reminded {len(report.reminded)}, forfeited {len(report.forfeited)}, "
               f"left {len(report.left)}, lapsed {len(report.lapsed)}, "
               f"digests {report.digests}; "
               f"{report.messages} message{'s' * (report.messages != 1)} written")
    stuck = run_tournaments(ref)
    send_outbox(outbox, sendmail, smtp)
    if report.errors:
        for reason in [*stuck, *report.errors[:-1]]:
            click.echo(f"gametool: {reason}", err=True)
        raise Rejected(report.errors[-1])
    tournament_failed(stuck)


@referee.command("allow")
@click.argument("addresses", nargs=-1, required=True, metavar="ADDRESS...")
@click.option("--digest", type=click.Choice(["daily", "off"]),
              help="Also set the players' digest: daily, one mail a day (from 'tick') listing "
                   "every game waiting for their move instead of a mail at each move; off, a "
                   "mail at each move.")
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_allow(addresses: tuple[str, ...], digest: str | None, game_dir: str, outbox: str,
                  address: str, sendmail: str | None, smtp: str | None) -> None:
    """Let these players start games by mail ('#new GAME vs ADDRESS...').

    Each gets a player key of its own, by mail (a new one each time; the old one stops
    working); the referee keeps only its salted hash, in GAME_DIR/players.keys. With that key,
    in a mail whose subject names no game, a player may send '#new', '#games', '#standings',
    '#leave DAYS', '#digest daily|off' and '#help'.

    With --digest daily a player gets no mail when a game waits for its move; instead 'referee
    tick' sends at most one mail a calendar day (UTC) listing every game waiting for it, each
    with that seat's view and its deadline. Openings, reminders, the end of a game, notes and
    refusals still go out at once. The player answers a game by replying with that game's tag
    (as the digest shows it) on a line of its own, then the game's key line, '#ply N' and the
    actions. Players set it themselves by mailing '#digest daily' or '#digest off' (under any
    of their games' keys). The setting is kept in GAME_DIR/digest.json.

    \b
    Examples:
      gametool referee allow ann@example.org ben@example.net \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee allow cy@example.com --digest daily \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
    """
    from gametool.referee.referee import Referee

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        ref.allow(list(addresses), deliver=True, digest=digest)
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

    from gametool.referee import standings

    tables = standings.standings(game_dir)
    if as_json:
        click.echo(json.dumps(standings.as_json(tables), indent=2))
    else:
        click.echo(standings.as_text(tables), nl=False)

@referee.command("leave")
@click.argument("player", metavar="ADDRESS")
@click.argument("days", type=params.Whole(1, 365))
@leave_days_option
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_leave(player: str, days: int, leave_days: int, game_dir: str, outbox: str,
                  address: str, sendmail: str | None, smtp: str | None) -> None:
    """Give ADDRESS DAYS days of leave from now, as '#leave DAYS' by mail does.

    The player's clock is paused in every game for those days (each deadline moves by the
    part of the leave that falls in the turn), out of --leave-days a year; the player and,
    once, every player with a running game against it are told by mail.

    \b
    Examples:
      gametool referee leave ann@example.org 10 --game-dir ~/referee/games \\
          --outbox ~/referee/outbox
    """
    from gametool.referee import leave
    from gametool.referee.mail.message import addresses as checked_addresses
    from gametool.referee.referee import Outgoing, Referee

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        (name,) = checked_addresses([player])
        told = leave.grant(game_dir, name, days, ref.now(), leave_days)
        ref.write([Outgoing(*message) for message in told])
    send_outbox(outbox, sendmail, smtp)


@referee.group("tournament")
def referee_tournament() -> None:
    """Tournaments run by the referee: round robin or swiss, paired, withdrawn and ranked.

    \b
    Examples:
      gametool referee tournament new chess --players a@x.org,b@x.org,c@x.org,d@x.org \\
          --format round-robin --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee tournament standings chess-rr-1a2b3c4d --game-dir ~/referee/games
    """


@referee_tournament.command("new")
@click.argument("game", shell_complete=completion.game_ids)
@click.argument("options", nargs=-1, metavar="[OPTION=VALUE]...")
@click.option("--players", required=True, metavar="A@X,B@Y,..",
              help="The players' addresses; their order breaks ties when a swiss pairs.")
@click.option("--format", "fmt", required=True, type=click.Choice(["round-robin", "swiss"]),
              help="round-robin: every pairing (Berger tables); swiss: each round paired by "
                   "points once the round before is over.")
@click.option("--rounds", type=params.Whole(1, 100), metavar="N",
              help="Rounds of a swiss (default: log2 of the players, rounded up).")
@click.option("--double", is_flag=True, help="A round robin played twice, seats reversed.")
@click.option("--seats", type=params.Whole(2, 16), metavar="N",
              help="Seats of each game, for a game that takes several counts (default: the "
                   "game's own).")
@click.option("--days", type=params.Whole(1, 365), metavar="N", help="Days each seat has per "
              "move (default: the game's own).")
@click.option("--bank", type=params.Whole(1, 365), metavar="DAYS", help="A time bank in every "
              "game: days each seat may spend past its deadlines before a time forfeit.")
@game_dir_option
@outbox_option
@from_option
@sending_options
def referee_tournament_new(game: str, options: tuple[str, ...], players: str, fmt: str,
                           rounds: int | None, double: bool, seats: int | None,
                           days: int | None, bank: int | None, game_dir: str, outbox: str,
                           address: str, sendmail: str | None, smtp: str | None) -> None:
    """Start a tournament of GAME among the --players and print its id.

    Its games start as 'referee new' starts one (a key per seat, the seed drawn jointly where
    the game has chance), each opening mail naming the tournament and the round. A round robin
    starts every game at once; a swiss starts round 1, and 'referee inbox' and 'referee tick'
    pair each next round when the one before is over: equal points meet, nobody meets twice,
    seats alternate, a bye (one point) for a count that does not fill the tables. A player who
    loses two games of the tournament by time forfeit is withdrawn: their running games are
    lost by forfeit, told in one mail to every player. Everything is made or nothing.

    \b
    Examples:
      gametool referee tournament new chess --format round-robin --double --days 5 --bank 2 \\
          --players ann@example.org,ben@example.net,cy@example.com,dee@example.com \\
          --game-dir ~/referee/games --outbox ~/referee/outbox
      gametool referee tournament new colors --format swiss --rounds 3 \\
          --players p1@x.org,p2@x.org,p3@x.org,p4@x.org,p5@x.org \\
          --game-dir ~/referee/games --outbox ~/referee/outbox --smtp mail.example.org:587
    """
    from gametool.referee.referee import Referee
    from gametool.referee.tournaments import director

    ref = Referee(game_dir, outbox, address)
    with referee_failures(game_dir):
        tid, _messages = director.create(
            ref, game, [p.strip() for p in players.split(",")], fmt, rounds, double, days,
            parse_options(" ".join(options)), seats, bank)
    click.echo(tid)
    send_outbox(outbox, sendmail, smtp)


@referee_tournament.command("standings")
@click.argument("tournament_id", metavar="ID")
@game_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def referee_tournament_standings(tournament_id: str, game_dir: str, as_json: bool) -> None:
    """Print a tournament's standings: points, then the tie-break (Sonneborn-Berger for a
    round robin, Buchholz for a swiss), wins, draws, losses and byes.

    A win is 1 point, a draw 1/2; a game of more seats gives each seat its score against each
    other seat (better rank 1, same 1/2) divided by the other seats. Players mail
    '#standings' for the same table.

    \b
    Examples:
      gametool referee tournament standings chess-rr-1a2b3c4d --game-dir ~/referee/games
      gametool referee tournament standings colors-swiss-5e6f7a8b --game-dir games --json
    """
    from gametool.referee.tournaments import tournament

    with referee_failures(game_dir):
        made = tournament.load(game_dir, tournament_id)
        if as_json:
            click.echo(json.dumps(tournament.as_json(game_dir, made), indent=2))
        else:
            click.echo(tournament.as_text(game_dir, made), nl=False)


def run_tournaments(ref: Any) -> list[str]:
    """After the inbox or the clock: withdraw, pair the next rounds, finish tournaments. A
    tournament whose step could not be kept is returned as one line (``tournament_failed``
    makes it the exit status once the other work, sending included, is done)."""
    from gametool.referee.tournaments import director

    with referee_failures(ref.game_dir):
        report = director.advance(ref)
    for line in report.lines:
        click.echo(line)
    return report.errors


def tournament_failed(errors: list[str], retry: bool = False) -> None:
    """One line per tournament whose step was not kept, and a non-zero exit (75 with
    ``retry``: a mail server that pipes the mail tries again, and the step is finished)."""
    for line in errors[1:]:
        click.echo(f"gametool: {line}", err=True)
    if errors:
        raise (TryAgain if retry else Rejected)(errors[0])


COMMANDS = [referee]
