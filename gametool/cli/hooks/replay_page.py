"""The replay page on the command line: ``gametool replay FILE --html [--as SEAT]``, the same
as ``gametool export FILE --html``."""

from __future__ import annotations

from typing import Any

import click


def export_html(sessions: list[Any], as_seat: str | None) -> str:
    from gametool.core.errors import GameError
    from gametool.views.html import page as html

    if len(sessions) != 1:
        raise GameError(f"the replay page shows one record; the file holds {len(sessions)}: "
                        "choose one with --record N")
    return html.replay_page(sessions[0], as_seat)


HELP = ("Write a self-contained HTML page that replays the record as a game viewer: the "
        "players and event, every position's picture as SEAT sees it (without --as, the "
        "master record's: every hidden value; --as spectator: what every seat sees), the move "
        "list with its comments, NAGs, clock times and "
        "variations; stepping by buttons, arrow keys, Page Up/Down, Home/End, a ply number "
        "and the address's #ply-N.")

OPTIONS = {
    "export": [(click.Option(["--html", "html"], is_flag=True, help=HELP), export_html)],
    "replay": [(click.Option(["--html", "html"], is_flag=True, help=HELP), export_html)],
}
