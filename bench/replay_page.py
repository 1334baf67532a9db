"""The replay page of a long game: its size, the time to write it and Chromium's time to open it.

    python bench/replay_page.py [--plies 1000] [--games track-gammon,western-mahjong] [--runs 3]

For each game, a seeded random record of PLIES plies (the first seed whose game lasts that
long) is written with ``gametool export FILE --html``; the table gives the page's size, the
time of that command, and the median over RUNS of Chromium's time to open the page (from
``get()`` to the page's ready signal, ``body[data-ready]``) and to step to the last ply (the
End key, which rebuilds the last picture). Targets: under 3 MB and under 2 s to open. Needs
selenium, chromium and chromedriver; without them the size and the writing time are printed.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

SIZE_TARGET = 3 * 1024 * 1024
OPEN_TARGET = 2.0


def long_record(game_id: str, plies: int) -> str:
    from gametool.auto import random_game

    for index in range(200):
        session = random_game(game_id, f"s{index}", max_plies=plies)
        if session.ply >= plies:
            return session.text()
    raise SystemExit(f"no random {game_id} game of {plies} plies")


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
                 "--disable-sync", "--no-first-run", "--window-size=1000,800"):
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
        last = driver.find_element(By.ID, "ply").text.split()[-1]  # type: ignore[attr-defined]
        start = time.perf_counter()
        body.send_keys(Keys.END)
        WebDriverWait(driver, 60).until(
            lambda d, last=last: d.find_element(By.TAG_NAME, "body").get_attribute("data-ply")
            == last)
        stepped.append(time.perf_counter() - start)
    return statistics.median(opened), statistics.median(stepped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=1000)
    parser.add_argument("--games", default="track-gammon,western-mahjong")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    driver = browser()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game_id in args.games.split(","):
            record = Path(folder) / f"{game_id}.gtn"
            record.write_text(long_record(game_id, args.plies), encoding="utf-8")
            page = record.with_suffix(".html")
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gametool", "export", str(record), "--html",
                            "-o", str(page)], check=True)
            written = time.perf_counter() - start
            size = page.stat().st_size
            row: list[object] = [game_id, args.plies, f"{size / 1024:,.0f} KB",
                                 "yes" if size < SIZE_TARGET else "NO", f"{written:.1f} s"]
            if driver is not None:
                opened, stepped = open_times(driver, page, args.runs)
                row += [f"{opened:.2f} s", "yes" if opened < OPEN_TARGET else "NO",
                        f"{stepped * 1000:.0f} ms"]
            else:
                row += ["(no browser)", "", ""]
            rows.append(row)
    if driver is not None:
        driver.quit()  # type: ignore[attr-defined]
    print(tabulate(rows, headers=["game", "plies", "page size", "< 3 MB", "export --html",
                                  "Chromium opens", "< 2 s", "End key"]))


if __name__ == "__main__":
    main()
