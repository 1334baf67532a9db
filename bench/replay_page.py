"""The replay page of a long game of every kind: its size, the CPU time to write it and
Chromium's time to open it.

    python bench/replay_page.py [--plies 1000] [--games chess,western-mahjong] [--runs 3]

For each game, a seeded random record of PLIES plies is played (the first seed whose game lasts
that long, else the longest of the seeds tried: some games end sooner by their rules). Its page
is written as ``replay FILE --html`` writes it; the table gives the plies, the page's size and
the CPU time to write it (in this process, from the record read to the page's text), both also
per 1,000 plies, and the median over RUNS of Chromium's time to open the page (from ``get()`` to
the page's ready signal, ``body[data-ready]``, when every difference is inflated and the first
position shown) and to step to the last ply (the End key, which rebuilds the last picture).
Targets: at most 2 MB and 5 s of CPU per 1,000 plies, and 1 s to open. Needs selenium, chromium
and chromedriver for the last two columns.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

SIZE_TARGET = 2 * 1024 * 1024  # per 1,000 plies
CPU_TARGET = 5.0  # seconds per 1,000 plies
OPEN_TARGET = 1.0
SEEDS = 40


def long_record(game_id: str, plies: int) -> str:
    from gametool.players.auto import random_game

    best = None
    for index in range(SEEDS):
        session = random_game(game_id, f"s{index}", max_plies=plies)
        if best is None or session.ply > best.ply:
            best = session
        if session.ply >= plies:
            break
    assert best is not None
    return best.text()


def browser() -> object | None:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    chromium = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                     if (found := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return None
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--window-size=1280,800"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(driver))


def open_times(driver: object, page: Path, runs: int) -> tuple[float, float]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    opened, stepped = [], []
    for _ in range(runs):
        driver.get("about:blank")  # type: ignore[attr-defined]
        start = time.perf_counter()
        driver.get(page.as_uri())  # type: ignore[attr-defined]
        WebDriverWait(driver, 60).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        opened.append(time.perf_counter() - start)
        body = driver.find_element(By.TAG_NAME, "body")  # type: ignore[attr-defined]
        last = driver.find_element(By.ID, "goto").get_attribute("max")  # type: ignore[attr-defined]
        start = time.perf_counter()
        body.send_keys(Keys.END)
        WebDriverWait(driver, 60).until(
            lambda d, last=last: d.find_element(By.TAG_NAME, "body").get_attribute("data-ply")
            == last)
        stepped.append(time.perf_counter() - start)
    return statistics.median(opened), statistics.median(stepped)


ROOT = Path(__file__).resolve().parent.parent
REAL = [("Marshall - Lasker 1907 (python-chess)",
         ROOT / "tests" / "data" / "python-chess" / "old-games-immortal-games.pgn", 36),
        ("cutechess game (python-chess)",
         ROOT / "tests" / "data" / "python-chess" / "stockfish-learning.pgn", None),
        ("lichess-style game: clocks, evals", ROOT / "tests" / "data" / "annotated.pgn", None),
        ("famous.pgn, 7 games: the list page", ROOT / "tests" / "data" / "famous.pgn", None)]
"""Real games (their sources in the README beside them): each page written by the installed
command in a process of its own, its CPU time that process's."""


def real_rows(folder: str) -> list[list[object]]:
    from gametool.views.html import page as html

    rows: list[list[object]] = []
    for name, path, number in REAL:
        out = Path(folder) / f"{path.stem}.html"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "gametool", "replay", str(path), "--html", "-o",
                        str(out), "--force", *(["--record", str(number)] if number else [])],
                       check=True, cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        text = out.read_text(encoding="utf-8")
        try:
            plies = len(html.pictures_of(text)) - 1
        except ValueError:  # the list page: its games' pages, each in a frame
            plies = sum(len(html.pictures_of(frame)) - 1 for frame in _frames(text))
        size = out.stat().st_size
        per = 1000 / max(plies, 1)
        rows.append([name, plies, f"{size / 1024:,.0f} KB", f"{size * per / 1024:,.0f} KB",
                     "yes" if size * per <= SIZE_TARGET else "NO", f"{cpu:.2f} s",
                     f"{cpu * per:.2f} s", "yes" if cpu * per <= CPU_TARGET else "NO"])
    return rows


def _frames(text: str) -> list[str]:
    import re
    from html import unescape

    return [unescape(frame) for frame in re.findall(r'srcdoc="([^"]*)"', text)]


def main() -> None:
    from gametool import games
    from gametool.records import load_one
    from gametool.views.html import page as html

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=1000)
    parser.add_argument("--games", default=",".join(games.playable_ids()))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    driver = browser()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game_id in args.games.split(","):
            text = long_record(game_id, args.plies)
            start = time.process_time()
            session = load_one(text)
            page_text = html.replay_page(session)
            written = time.process_time() - start
            page = Path(folder) / f"{game_id}.html"
            page.write_text(page_text, encoding="utf-8")
            size = page.stat().st_size
            per = 1000 / max(session.ply, 1)
            row: list[object] = [
                game_id, session.ply, f"{size / 1024:,.0f} KB",
                f"{size * per / 1024:,.0f} KB", "yes" if size * per <= SIZE_TARGET else "NO",
                f"{written:.2f} s", f"{written * per:.2f} s",
                "yes" if written * per <= CPU_TARGET else "NO"]
            if driver is not None:
                opened, stepped = open_times(driver, page, args.runs)
                row += [f"{opened:.2f} s", "yes" if opened <= OPEN_TARGET else "NO",
                        f"{stepped * 1000:.0f} ms"]
            else:
                row += ["(no browser)", "", ""]
            rows.append(row)
            print(*row, sep="  ", file=sys.stderr, flush=True)
        real = real_rows(folder)
    if driver is not None:
        driver.quit()  # type: ignore[attr-defined]
    print(tabulate(real, headers=["real games (whole command, own process)", "plies", "page",
                                  "per 1,000", "<= 2 MB", "CPU", "per 1,000", "<= 5 s"]))
    print()
    print(tabulate(rows, headers=["game", "plies", "page", "per 1,000", "<= 2 MB", "CPU",
                                  "per 1,000", "<= 5 s", "Chromium opens", "<= 1 s",
                                  "End key"]))


if __name__ == "__main__":
    main()
