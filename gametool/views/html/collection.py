"""A file of several games as replay pages: one page with the list of the games (players,
result, event, date, opening, plies) and each game's viewer under it, or a folder with one page
per game and an index page that lists them. Each viewer is the game's own replay page
(:func:`gametool.views.html.page.replay_page`), so a game looks and steps the same either way.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from gametool.records import Session, annotations
from gametool.views.html import assets
from gametool.views.html.page import replay_page


def row(session: Session, number: int, href: str) -> dict[str, Any]:
    """What the list of games says of one game."""
    record = session.record
    names = [p.name for p in annotations.players(session)]
    opening = " ".join(v for v in (record.get("ECO"), record.get("Opening")) if v and v != "?")
    return {"number": number, "href": href,
            "players": " \u2013 ".join(names) if len(names) == 2 else ", ".join(names),
            "result": annotations.result(session)[0],
            "event": " ".join(v for v in (record.get("Event"), record.get("Site"))
                              if v and v != "?"),
            "date": (record.get("Date") or "").replace("?", "").strip(".") or "",
            "opening": opening, "plies": session.ply}


def _frame(title: str, body: str) -> str:
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">', f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>", "</head>", "<body>", body, "</body>", "</html>"]) + "\n"


def games_page(sessions: list[Session], as_seat: str | None, name: str = "games") -> str:
    """One page: the list of the games, each a link to its viewer further down (each viewer
    the game's own page, in a frame of the window's size)."""
    rows, viewers = [], []
    for number, session in enumerate(sessions, start=1):
        rows.append(row(session, number, f"#game-{number}"))
        page = replay_page(session, as_seat)
        viewers.append(f'<section class="viewer" id="game-{number}"><h2>{number}. '
                       f'{escape(rows[-1]["players"])}</h2><iframe title='
                       f'{quoteattr("game " + str(number))} loading="lazy" '
                       f'srcdoc="{escape(page, {chr(34): "&quot;"})}"></iframe></section>')
    body = (f'<header><h1>{escape(name)}: {len(sessions)} games</h1></header>'
            + assets.games_list(rows) + "".join(viewers))
    return _frame(f"{name}: {len(sessions)} games", body)


def folder_pages(sessions: list[Session], as_seat: str | None,
                 name: str = "games") -> dict[str, str]:
    """One page per game (``game-N.html``) and ``index.html`` listing them, by file name."""
    pages = {f"game-{n}.html": replay_page(session, as_seat)
             for n, session in enumerate(sessions, start=1)}
    rows = [row(session, n, f"game-{n}.html") for n, session in enumerate(sessions, start=1)]
    pages["index.html"] = _frame(f"{name}: {len(sessions)} games",
                                 f'<header><h1>{escape(name)}: {len(sessions)} games</h1>'
                                 f"</header>{assets.games_list(rows)}")
    return pages


STYLE = """
:root { color-scheme: light dark; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: .5em; }
h1 { font-size: 1.2em; margin: .2em 0; }
h2 { font-size: 1em; margin: .8em 0 .2em; }
#games { border-collapse: collapse; font-size: .9em; }
#games th, #games td { padding: .15em .8em .15em 0; text-align: left; vertical-align: top; }
#games tbody tr:nth-child(odd) { background: rgba(128, 128, 128, .12); }
.viewer iframe { display: block; width: 100%; height: 100vh; border: 1px solid #999; }
"""
