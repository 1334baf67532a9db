"""The replay page on the command line: ``gametool export FILE --html [--as SEAT]``."""

from __future__ import annotations

from typing import Any

import click


def export_html(sessions: list[Any], as_seat: str | None) -> str:
    from gametool.errors import GameError
    from gametool.formats import html

    if len(sessions) != 1:
        raise GameError(f"the replay page shows one record; the file holds {len(sessions)}: "
                        "choose one with --record N")
    return html.replay_page(sessions[0], as_seat)


OPTIONS = {
    "export": [(click.Option(["--html", "html"], is_flag=True,
                             help="Write a self-contained HTML page that replays the record: "
                             "every position's picture as SEAT sees it (a spectator's without "
                             "--as), the move list, stepping by buttons and arrow keys."),
                export_html)],
}
