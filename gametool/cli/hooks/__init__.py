"""Commands and options that a game or a format adds to the command line.

The CLI names no game and no format. Each module listed in ``MODULES`` is a hook: it may give

- ``COMMANDS``: Click commands of its own (``import``, ``commit``, ...), and
- ``OPTIONS``: options it adds to a core command, as ``{command: [(option, handler), ...]}``.
  For ``export`` a handler takes ``(sessions, as_seat, **values)``, the file's records and the
  values of every hook option, and returns the text to print (a handler with a ``stream``
  function writes a whole file record by record instead); an option whose handler is None only
  modifies another's output; for
  ``show`` it takes ``(session, as_seat, value)`` and returns the session to display.

A hook module imports only Click at load time; the work is imported when a command runs.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import Any

import click

MODULES = ("gametool.cli.hooks.pgn_files", "gametool.cli.hooks.fleet_files", "gametool.cli.hooks.replay_page",
           "gametool.cli.hooks.variations")


def modules() -> list[ModuleType]:
    return [import_module(name) for name in MODULES]


def commands() -> list[click.Command]:
    """Every command the hooks add."""
    return [command for module in modules() for command in getattr(module, "COMMANDS", ())]


def _entries(command: str) -> list[tuple[click.Option, Callable[..., Any]]]:
    return [entry for module in modules()
            for entry in getattr(module, "OPTIONS", {}).get(command, ())]


def options(command: str) -> list[click.Option]:
    """The options the hooks add to the core command ``command``."""
    return [option for option, _handler in _entries(command)]


def add_options(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator giving a core command's function the options the hooks add to it."""
    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        params = getattr(function, "__click_params__", [])
        params.extend(options(command))
        function.__click_params__ = params  # type: ignore[attr-defined]
        return function

    return decorate


def chosen(command: str, values: dict[str, Any]) -> list[tuple[Callable[..., Any], Any]]:
    """The handlers of the hook options given on the command line, with their values."""
    out = []
    for option, handler in _entries(command):
        value = values.get(option.name or "")
        if handler is not None and value not in (None, False):
            out.append((handler, value))
    return out


def modifiers(command: str, values: dict[str, Any]) -> list[str]:
    """The hook options without a handler of their own (they modify a format's output) that
    were given on the command line, as written (``--no-comments``)."""
    return [option.opts[0] for option, handler in _entries(command)
            if handler is None and values.get(option.name or "") not in (None, False)]
