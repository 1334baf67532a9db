"""The commands that explain: ``list``, ``rules``, ``help``, ``man`` and ``completion``."""

from __future__ import annotations

import click

from gametool import games
from gametool.cli import completion
from gametool.cli.commands.common import emit_json, fail, json_option
from gametool.core.errors import GameError
from gametool.views import render


@click.command("list")
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


@click.command()
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


@click.command("completion")
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
    click.echo(completion.script(shell, click.get_current_context().find_root().command))


@click.command("help")
@click.argument("names", metavar="[COMMAND [SUBCOMMAND]]", nargs=-1)
def help_command(names: tuple[str, ...]) -> None:
    """Show the help of COMMAND (as 'gametool COMMAND --help' does), or of gametool itself.

    \b
    Examples:
      gametool help
      gametool help move
      gametool help referee inbox
    """
    from gametool.core.suggest import hint

    here = click.get_current_context().find_root()
    command: click.Command = here.command
    for name in names:
        if not isinstance(command, click.Group):
            raise click.UsageError(f"'{here.command_path}' has no subcommands")
        if name not in command.commands:
            raise click.UsageError(f"no command {name!r}{hint(name, command.commands)}")
        command = command.commands[name]
        here = click.Context(command, info_name=name, parent=here)
    click.echo(command.get_help(here))


@click.command("man")
@click.argument("page", required=False, metavar="[PAGE]")
@click.option("--install", is_flag=True, help="Instead, write every page into the "
              "environment's share/man (where 'man' looks when its bin is on the PATH) and "
              "print that folder.")
@click.option("--write", "folder", metavar="DIR", type=click.Path(file_okay=False),
              help="Instead, write every page that differs from the one in DIR into DIR, and "
              "name each page written.")
def man_command(page: str | None, install: bool, folder: str | None) -> None:
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
    from pathlib import Path

    from gametool.cli import manpages

    root = click.get_current_context().find_root().command
    assert isinstance(root, click.Group)
    try:
        if install or folder is not None:
            if page is not None:
                raise click.UsageError(f"{'--install' if install else '--write'} writes every "
                                       "page: give no PAGE")
            if install and folder is not None:
                raise click.UsageError("--install and --write exclude each other")
        if install:
            click.echo(manpages.install(root))
        elif folder is not None:
            try:
                for name in manpages.write(root, Path(folder)):
                    click.echo(f"wrote {Path(folder) / name}")
            except OSError as exc:
                raise GameError(f"{folder}: cannot write the manual pages: "
                                f"{exc.strerror}") from None
        else:
            manpages.open_page(root, page)
    except GameError as exc:
        raise fail(exc) from None


COMMANDS = [list_games, rules, completion_command, help_command, man_command]
