"""The replay page on the command line: ``gametool replay FILE --html [--as SEAT]``, the same
as ``gametool export FILE --html``. A file of several games makes one page with the list of the
games and each game's viewer, or, with ``-o FOLDER/``, one page per game and an index."""

from __future__ import annotations

import os
from typing import Any

import click


def export_html(sessions: list[Any], as_seat: str | None) -> str:
    from gametool.views.html import collection
    from gametool.views.html import page as html

    if len(sessions) == 1:
        return html.replay_page(sessions[0], as_seat)
    return collection.games_page(sessions, as_seat)


def write_folder(sessions: list[Any], as_seat: str | None, folder: str, force: bool) -> None:
    """One page per game and ``index.html`` in ``folder``; nothing is written when a page
    would replace a file without ``force``."""
    from gametool.core import storage
    from gametool.core.errors import GameError
    from gametool.views.html import collection

    pages = collection.folder_pages(sessions, as_seat)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise GameError(f"{folder}: not a folder")
    there = [name for name in pages if os.path.exists(os.path.join(folder, name))]
    if there and not force:
        raise GameError(f"{os.path.join(folder, there[0])}: already exists "
                        "(use --force to overwrite)")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise GameError(f"{folder}: cannot make the folder ({exc.strerror})") from None
    for name, text in pages.items():
        storage.create(os.path.join(folder, name), text, True)


export_html.folder = write_folder  # type: ignore[attr-defined]

HELP = ("Write a self-contained HTML page that replays the record as a game viewer: the "
        "players and event, every position's board as SEAT sees it (without --as, the "
        "master record's: every hidden value; --as spectator: what every seat sees) with the "
        "words about it beside, the move list with its comments, NAGs, clock times and "
        "variations, graphs of the evaluation, clocks and scores; stepping by buttons, arrow "
        "keys, Page Up/Down, Home/End, a ply number and the address's #ply-N; f turns the "
        "board. A file of several games: one page listing them with each game's viewer, or "
        "with -o FOLDER/ one page per game and index.html.")

OPTIONS = {
    "export": [(click.Option(["--html", "html"], is_flag=True, help=HELP), export_html)],
    "replay": [(click.Option(["--html", "html"], is_flag=True, help=HELP), export_html)],
}
