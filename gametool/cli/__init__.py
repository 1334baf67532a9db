"""The ``gametool`` command line: the root that assembles the command groups.

The commands live in :mod:`gametool.cli.commands`, one module per group (playing a record, showing
and replaying, archives, the referee, computer players, manuals); what they share (options,
output, the error shape) is :mod:`gametool.cli.commands.common`. This module only puts them under
one ``gametool`` group and runs it.

The command line is the top floor: it may import every folder of gametool, and none imports
it (``python -m gametool`` starts it). It knows no rule of any game: what a game or a format
adds to it comes through :mod:`gametool.cli.hooks`.

Exit status: 0 success; 1 the input was read but rejected (illegal or ambiguous action, invalid
record, stale ``--expect-ply``, game over); 2 usage errors. Every failure is one line on stderr.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any

import click

from gametool import __version__
from gametool.cli import hooks
from gametool.cli.commands.common import ToolGroup

GROUPS: dict[str, tuple[str, ...]] = {
    "records_group": ("start", "move", "moves", "validate", "perft", "undo", "join"),
    "viewing_group": ("show", "replay", "export"),
    "players_group": ("selfplay", "play"),
    "archives_group": ("split", "filter", "stats", "tree"),
    "referee_group": ("referee",),
    "manuals_group": ("list", "rules", "completion", "help", "man"),
}
"""The command groups, each a module of gametool.cli.commands (its ``COMMANDS``), with the names
of its commands; a game's own commands come from its hooks."""


class Commands(dict[str, click.Command]):
    """The root's commands by name. A group's module is imported when one of its commands is
    first named (a command loads its own group, not the five others); every group's when the
    commands are listed or counted (help, manual pages, completion)."""

    def __init__(self, groups: dict[str, tuple[str, ...]]) -> None:
        super().__init__()
        self._unloaded = {name: group for group, names in groups.items() for name in names}

    def _load(self, name: str) -> None:
        group = self._unloaded.get(name)
        if group is not None:
            for command in import_module(f"gametool.cli.commands.{group}").COMMANDS:
                self._unloaded.pop(command.name, None)
                dict.__setitem__(self, command.name, command)

    def _load_all(self) -> None:
        while self._unloaded:
            self._load(next(iter(self._unloaded)))

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        self._load(name)
        return dict.get(self, name, default)

    def __getitem__(self, name: str) -> click.Command:
        self._load(name)
        return dict.__getitem__(self, name)

    def __contains__(self, name: object) -> bool:
        return name in self._unloaded or dict.__contains__(self, name)

    def __iter__(self) -> Any:
        self._load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._load_all()
        return dict.keys(self)

    def values(self) -> Any:
        self._load_all()
        return dict.values(self)

    def items(self) -> Any:
        self._load_all()
        return dict.items(self)


@click.group(cls=ToolGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="gametool")
def cli() -> None:
    """Play, check and replay board, card, dice, domino and tile games stored as plain-text
    records (.gtn files).

    Start a record with 'start', list the legal actions with 'moves', play them with 'move',
    look at the position with 'show', and check or step through whole records with 'validate'
    and 'replay'. 'list' names the games and 'rules GAME' explains one.
    """


cli.commands = Commands(GROUPS)
for _command in hooks.commands():
    cli.add_command(_command)


def stopped(code: int) -> None:
    """End an interrupted command now: one line, no process left, and no clean-up that could
    keep it waiting (files are only ever replaced whole, so there is nothing to finish)."""
    import os

    from gametool.core.interrupt import end_descendants

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
    from gametool.core import engine
    from gametool.core.interrupt import Interrupted, install

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
