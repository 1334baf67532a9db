"""Shell completion: the scripts for bash, zsh and fish, and what each argument completes to.

Click drives the completion (``_GAMETOOL_COMPLETE=bash_complete`` and its siblings); these
functions supply the values Click cannot know: game ids and aliases, the seats of a record and
the legal actions of its seat to move. File arguments are ``click.Path`` parameters, so the
shell falls back to its own file-name completion there. Nothing here is imported unless a
completion is asked for.
"""

from __future__ import annotations

import os
from typing import Any

import click
from click.shell_completion import CompletionItem, get_completion_class

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VAR = "_GAMETOOL_COMPLETE"


def script(shell: str, command: click.Command, prog_name: str = "gametool") -> str:
    """The completion script of ``shell`` for ``command``."""
    cls = get_completion_class(shell)
    if cls is None:
        raise click.UsageError(f"no completion for {shell!r} (shells: {', '.join(SHELLS)})")
    return cls(command, {}, prog_name, COMPLETE_VAR).source()


def _quoted(value: str) -> str:
    """Bash inserts a completion as it is, so an action with a blank is given quoted, to stay
    one word ('place a1'). Click's bash script reads each value with 'read', which would drop a
    backslash, so quotes, not backslashes. zsh and fish quote what they insert themselves."""
    if " " in value and os.environ.get(COMPLETE_VAR, "").startswith("bash"):
        return "'" + value.replace("'", "'\"'\"'") + "'"
    return value


def _rest_of_typed(prior: list[str], incomplete: str, texts: list[str]) -> list[str] | None:
    """When the last words typed before the one completed begin actions with a blank (the
    action was typed unquoted, as several words), the next word of those actions: never the
    words typed again ('place place a1'). None when no typed words begin an action."""
    for start in range(max(0, len(prior) - 8), len(prior)):
        words = [w.lower() for w in prior[start:]]
        if not all(words) or any(" " in w for w in words):
            continue
        nexts = []
        for text in texts:
            parts = text.split()
            if (len(parts) > len(words) and [p.lower() for p in parts[:len(words)]] == words
                    and parts[len(words)].lower().startswith(incomplete.lower())):
                nexts.append(parts[len(words)])
        if nexts:
            return list(dict.fromkeys(nexts))
    return None


def game_ids(_ctx: click.Context, _param: click.Parameter, incomplete: str
             ) -> list[CompletionItem]:
    """Game ids and their aliases."""
    from gametool import games

    key = incomplete.lower()
    out = [CompletionItem(gid) for gid in games.GAMES if gid.startswith(key)]
    out += [CompletionItem(alias, help=f"alias of {target}")
            for alias, target in games.aliases().items() if alias.startswith(key)]
    return out


def games_or_files(ctx: click.Context, param: click.Parameter, incomplete: str
                   ) -> list[CompletionItem]:
    """Game ids and aliases, and file names."""
    return game_ids(ctx, param, incomplete) + [CompletionItem(incomplete, type="file")]


def _session(ctx: click.Context) -> Any:
    """The record named by the command's FILE argument, or None if it cannot be read."""
    from gametool import sources
    from gametool.core.errors import GameError
    from gametool.records import load_one

    path = ctx.params.get("file")
    if path is None:
        # Completing an option's value ("--as <Tab>") stops Click's parse early: the
        # arguments before it are left unparsed in ctx.args.
        path = next((arg for arg in ctx.args if not arg.startswith("-")), None)
    if not path or path == "-" or not os.path.isfile(path):
        return None
    try:
        return load_one(sources.read_records(path), path)
    except (GameError, OSError):
        return None


def seats(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The seat names of the record given as FILE."""
    session = _session(ctx)
    if session is None:
        return []
    return [CompletionItem(name) for name in session.names
            if name.lower().startswith(incomplete.lower())]


def actions(ctx: click.Context, _param: click.Parameter, incomplete: str
            ) -> list[CompletionItem]:
    """The legal actions of the seat to move in the record FILE (with --as SEAT, only if that
    seat is to move): what 'gametool moves FILE' lists."""
    from gametool.core.engine import CHANCE
    from gametool.core.errors import GameError

    session = _session(ctx)
    if session is None:
        return []
    game, state = session.game, session.state
    try:
        to_move = game.to_move(state)
        as_seat = ctx.params.get("as_seat")
        if to_move is None or (as_seat and session.seat_index(as_seat) != to_move):
            return []
        if to_move == CHANCE:
            outcomes = game.chance_outcomes(state) or []
            texts = [game.format_action(state, a) for a in outcomes]
        else:
            texts = [game.format_action(state, a) for a in game.legal_actions(state)]
    except GameError:
        return []
    rest = _rest_of_typed(list(ctx.params.get("actions") or ()), incomplete, texts)
    if rest is not None:
        return [CompletionItem(word) for word in rest]
    key = incomplete.lower()
    return [CompletionItem(_quoted(text)) for text in texts if text.lower().startswith(key)]
