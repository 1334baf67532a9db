"""The terminal: whether to colour, the colour of each role, and the options that choose them.

The text views (:func:`gametool.views.render.show_text`) mark what they print by role: the header's
lines, the result, and each piece, card or figure by its style in the game's diagram (``red``,
``seat1``, ``light``...). This module maps those roles to terminal colours, so no game and no
command holds a colour of its own. Colour is on for a terminal, off in a pipe or a file and under
``NO_COLOR`` (https://no-color.org); ``--color always|never`` overrides both.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click

WIDTH = 80
"""Text views are wrapped to this many columns where the game's lines allow."""

ROLES: dict[str, dict[str, Any]] = {
    "title": {"bold": True},
    "last": {"fg": "cyan"},
    "earlier": {"fg": "cyan"},
    "result": {"fg": "green", "bold": True},
    # pieces by the diagram's styles (256-colour codes near the pictures' Okabe-Ito palette,
    # readable on a dark and on a light background); the letters still tell them apart
    "light": {"fg": 214, "bold": True},
    "dark": {"fg": 33, "bold": True},
    "seat0": {"fg": 214, "bold": True},
    "seat1": {"fg": 74, "bold": True},
    "seat2": {"fg": 36, "bold": True},
    "seat3": {"fg": 175, "bold": True},
    "red": {"fg": 166, "bold": True},
    "orange": {"fg": 214, "bold": True},
    "yellow": {"fg": 178, "bold": True},
    "green": {"fg": 34, "bold": True},
    "blue": {"fg": 33, "bold": True},
    "purple": {"fg": 133, "bold": True},
    "black": {"fg": 231, "bg": 16, "bold": True},
    "white": {"fg": 16, "bg": 253, "bold": True},
    "neutral": {},
    "changed": {"reverse": True},
}
"""click.style arguments per role; a role of several words (``"red changed"``) takes them all."""

CHOICES = ("auto", "always", "never")


def colour_wanted(choice: str = "auto", stream: Any = None) -> bool:
    """``always``, ``never``, or (``auto``) on a terminal and not under NO_COLOR."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stdout
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def paint(text: str, role: str) -> str:
    """``text`` in the colours of ``role`` (words of :data:`ROLES`; unknown words add none)."""
    style: dict[str, Any] = {}
    for word in role.split():
        style.update(ROLES.get(word, {}))
    return click.style(text, **style) if style else text


def painter(colour: bool) -> Callable[[str, str], str] | None:
    """The painter for :func:`gametool.views.render.show_text`: None (plain) without colour."""
    return paint if colour else None


def echo(text: str, colour: bool, nl: bool = True) -> None:
    """Print ``text``; its colours are kept when ``colour`` was chosen (even in a pipe, for
    ``--color always``) and dropped otherwise."""
    click.echo(text, nl=nl, color=True if colour else None)


def color_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--color", "--colour", "color", type=click.Choice(CHOICES),
                        default="auto", show_default=True,
                        help="Colour the board, pieces, cards and figures: on a terminal "
                        "(auto; never under NO_COLOR), always, or never.")(command)


def unicode_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--unicode", is_flag=True,
                        help="Draw chess pieces as Unicode figurines (\u2654 \u265a) in place "
                        "of letters.")(command)
