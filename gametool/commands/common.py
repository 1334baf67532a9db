"""One error shape for the command line: every refusal is one line on stderr.

Click prints a usage error as three lines (the usage, a hint, then ``Error: ...``); here it is
one line, ``gametool: usage: WHAT (see 'gametool CMD --help')``, with Click's exit status 2.
Input that was read and refused is ``Rejected`` (exit status 1), also one line. The checks of
a file argument (a folder given for a file, a PGN file given to a command that reads records)
are here too, so that every command says the same thing.
"""

from __future__ import annotations

from typing import Any

import click


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


def read_records(path: str) -> str:
    """The record text of ``path`` for a command that reads records: a PGN file (by its name)
    is read as 'validate' reads it, its games turned into chess records."""
    from gametool import corpus, storage

    if not corpus.is_pgn(path):
        return storage.read(path)
    from gametool.formats import pgn

    return pgn.import_text(corpus.read_file(path), path)


def refuse_record_for_import(path: str) -> None:
    """'import' reads PGN: a gametool record given to it is refused with that reason."""
    from gametool.errors import GameError

    head = ""
    if path != "-":
        try:
            with open(path, "rb") as handle:
                head = handle.read(4096).decode("utf-8", "replace")
        except OSError:
            return  # the import says why it cannot read the file
    first = head.lstrip("\ufeff \t\r\n")[:64].lower()
    if path.lower().endswith(".gtn") or first.replace(" ", "").startswith('[game"'):
        raise GameError(f"{path}: a gametool record, not PGN: import reads PGN files; every "
                        "command reads the record as it is (gametool validate, show, "
                        "export --pgn)")
