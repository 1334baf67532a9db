"""What the command groups share: the error shape, the common options, loading and output.

One error shape for the command line: every refusal is one line on stderr.

Click prints a usage error as three lines (the usage, a hint, then ``Error: ...``); here it is
one line, ``gametool: usage: WHAT (see 'gametool CMD --help')``, with Click's exit status 2.
Input that was read and refused is ``Rejected`` (exit status 1), also one line. The checks of
a file argument (a folder given for a file, a PGN file given to a command that reads records)
are here too, so that every command says the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from gametool import sources
from gametool.cli import completion, params
from gametool.core import storage
from gametool.core.chance import weak_seed_reason
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.players import computer as players
from gametool.records import Session, load_one


def _sentence(text: str) -> str:
    """Click's message as a clause of one line: no line breaks, no final period, and a
    lower-case first word ('missing argument', 'no such option')."""
    text = " ".join(text.split())
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1]
    for old, new in ((". (Did you mean", " (did you mean"), ("? Did you mean", "? did you mean"),
                     (". Did you mean", ": did you mean"), (" Did you mean", ": did you mean")):
        text = text.replace(old, new)
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


class Usage(click.UsageError):
    """A usage error shown as one line: exit status 2."""

    def show(self, file: Any = None) -> None:
        words = (self.ctx.command_path if self.ctx is not None else "").split()
        where = " ".join(["gametool", *words[1:]])
        click.echo(f"gametool: usage: {_sentence(self.format_message())} "
                   f"(see '{where} --help')", err=True)


def one_line(exc: click.UsageError) -> click.UsageError:
    """``exc`` as a one-line usage error (the same message, context and exit status)."""
    if isinstance(exc, Usage) or type(exc).__name__ == "NoArgsIsHelpError":
        return exc
    out = Usage(exc.format_message(), exc.ctx)
    out.exit_code = exc.exit_code
    return out


class Refused(click.ClickException):
    """Input or surroundings that were refused: exit status 1, one line on stderr."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        click.echo(f"gametool: {self.format_message()}", err=True)


def system_failure(exc: OSError) -> Refused:
    """A failure of the file system that no command foresaw (a file where a folder must be, a
    read-only disk, no permission) as one line: the path and the system's reason."""
    reason = (exc.strerror or type(exc).__name__).lower()
    where = exc.filename if exc.filename is not None else "a file"
    return Refused(f"{where}: {reason}")


class ToolGroup(click.Group):
    """A group whose usage errors, and those of every command under it, are one line; so is
    a failure of the file system."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise one_line(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise one_line(exc) from None
        except BrokenPipeError:
            raise  # the reader went away: not a failure to report here
        except OSError as exc:
            raise system_failure(exc) from None


class Rejected(click.ClickException):
    """Input that was read but rejected: exit status 1, one line on stderr."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        from gametool.views import render

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
    import json  # (only the commands asked for JSON load it)

    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def rewrite(file: str, change: Callable[[str], str]) -> None:
    """Replace the record ``file`` by ``change`` of its text, under its lock; with '-', read
    stdin and write the new record to stdout."""
    try:
        sources.refuse_change(file)
        if file == "-":
            click.echo(change(sources.read_file("-")), nl=False)
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
    """The record of a file that holds one, or its record ``number``: then the file is read
    up to that record and no further (the records before it are not kept)."""
    try:
        if number is not None:
            from gametool.archives import corpus

            return corpus.one_record(path, number)
        return load_one(sources.read_records(path), None if path == "-" else path, number)
    except GameError as exc:
        raise fail(exc) from None


def load_all(path: str) -> list[Session]:
    """Every record of a file, each read strictly."""
    from gametool.records import read_text

    name = None if path == "-" else path
    try:
        return [Session.load(record, name)
                for record in read_text(sources.read_records(path), name)]
    except GameError as exc:
        raise fail(exc) from None


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


flip_option = click.option("--flip/--no-flip", default=None,
                           help="Turn the board half round, or not (default: chess-like boards "
                           "are seen from the side of the seat given by --as).")



jobs_option = click.option("--jobs", type=params.Whole(1, 1024), default=1, show_default=True,
                           metavar="N", help="Work in N processes (same results, faster).")
scheduler_option = click.option(
    "--scheduler", metavar="ADDRESS", help="Work on a Dask cluster: a scheduler address "
    "(tcp://host:8786) or local:N for a local cluster of N workers (same results).")
quiet_option = click.option(
    "-q", "--quiet", is_flag=True,
    help="No progress line on stderr (it is drawn only on a terminal: games, games/s, the "
    "share of the input read and the time left).")
