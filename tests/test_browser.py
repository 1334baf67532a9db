"""The replay page in a real browser: headless Chromium driven by Selenium opens the page that
``replay --html`` writes of an annotated game (tests/data/annotated.pgn: comments, NAGs,
variations within variations, clock times and evaluations, players with accented names) and
the page of a long game of every kind, at 1280x800 and at 700x900, and checks what a reader
sees: the header, the names as written, the comments, NAG glyphs and clock times in place, a
variation clicked into and left, the keys, the ply number, the address's ply, and the size at
which the picture is drawn. Without a browser the tests are skipped and say why.

With GAMETOOL_SCREENS=DIR, a screenshot of each page at each size is saved in DIR."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PLAYABLE

ROOT = Path(__file__).resolve().parent.parent
ANNOTATED = ROOT / "tests" / "data" / "annotated.pgn"
WIDE, NARROW = (1280, 800), (700, 900)
LONG = 1000
SCREENS = os.environ.get("GAMETOOL_SCREENS")


def _browser_or_reason() -> tuple[str, str] | str:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    chromium = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                     if (found := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return ("no browser: chromium and chromedriver are not on PATH "
                "(Debian: apt-get install chromium chromium-driver)")
    return chromium, driver


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    found = _browser_or_reason()
    if isinstance(found, str):
        pytest.skip(found)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", "--no-first-run", "--disable-background-networking"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
    except Exception as exc:  # a browser that is installed but cannot start
        pytest.skip(f"no browser: chromium did not start ({str(exc).splitlines()[0]})")
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


def size(driver: Any, width: int, height: int) -> None:
    """The viewport (not the window) at width x height, as a screen of that size shows it."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def open_page(driver: Any, page: Path, fragment: str = "") -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")
    driver.get(page.as_uri() + fragment)
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "return document.body && document.body.dataset.ready === '1'"))


def seen(driver: Any) -> dict[str, Any]:
    """What the page shows: the ply label, the ply, node and line shown, the address's
    fragment, the current move, the picture's text, its drawn and natural sizes."""
    return driver.execute_script("""
        var svg = document.querySelector('#frame svg'), box = svg.getBoundingClientRect();
        var current = document.querySelectorAll('#moves .mv.current');
        return {label: document.getElementById('ply').textContent,
                ply: Number(document.body.dataset.ply), node: Number(document.body.dataset.node),
                line: Number(document.body.dataset.line), hash: location.hash,
                current: Array.prototype.map.call(current, function (m) { return m.textContent; }),
                text: Array.prototype.map.call(svg.querySelectorAll('text'),
                                               function (t) { return t.textContent; }).join(' | '),
                drawn: [box.width, box.height],
                natural: [Number(svg.getAttribute('width')), Number(svg.getAttribute('height'))]};
    """)  # type: ignore[no-any-return]


def keys(driver: Any, *pressed: str) -> dict[str, Any]:
    from selenium.webdriver.common.by import By

    driver.find_element(By.TAG_NAME, "body").send_keys(*pressed)
    return seen(driver)


def visible(driver: Any, selector: str) -> bool:
    """Whether the element is wholly inside the viewport."""
    return driver.execute_script("""
        var box = document.querySelector(arguments[0]).getBoundingClientRect();
        return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight
            && box.right <= window.innerWidth && box.width > 0;
    """, selector)  # type: ignore[no-any-return]


def screenshot(driver: Any, name: str) -> None:
    if SCREENS:
        Path(SCREENS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SCREENS) / f"{name}.png"))


def no_errors(driver: Any) -> None:
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


@pytest.fixture(scope="module")
def annotated_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "annotated.html"
    done = subprocess.run([sys.executable, "-m", "gametool", "replay", str(ANNOTATED), "--html",
                           "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


def test_an_annotated_game_reads_as_in_a_game_viewer(browser: Any, annotated_page: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    size(browser, *WIDE)
    open_page(browser, annotated_page, "#ply-10")
    # the header: players as written with their ratings, event, site, date, round, result
    header = browser.find_element(By.ID, "game").text
    for words in ("O'Brien, Siobhán 2214", "Østergaard, Jörg 2187", "Cork Autumn Open",
                  "Cork, Ireland", "2025.10.04", "round 3.2", "result 1-0 (Normal)"):
        assert words in header, (words, header)
    assert browser.title.startswith("O'Brien, Siobhán \u2013 Østergaard, Jörg")
    shown = seen(browser)
    assert (shown["ply"], shown["line"], shown["label"]) == (10, 0, "ply 10 of 25")
    assert shown["current"] == ["Nxd5?!"]
    assert "last: Østergaard, Jörg: Nxd5" in shown["text"]
    assert "Siobh_n" not in shown["text"] and "stergaard_J" not in shown["text"]
    # the picture at its size, beside the moves
    assert shown["drawn"][0] >= 0.8 * shown["natural"][0]
    screenshot(browser, "annotated-1280x800")
    # comments in place, NAG glyphs, clock times and evaluations beside the moves
    comments = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#moves .comment")]
    assert comments == ["A Two Knights game that the annotator found instructive.",
                        "The Two Knights Defence.", "Risky; the usual move is Na5.",
                        "a rare try", "the Ulvestad Variation", "The Fried Liver Attack.",
                        "Greed.", "Black resigned: mate follows."]
    nags = [n.text for n in browser.find_elements(By.CSS_SELECTOR, "#moves .nag")]
    assert nags == ["!?", "?!", "+=", "!?", "!?", "!", "!", "??", "\u00b1", "!!"]
    clocks = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#moves .clk")]
    assert len(clocks) == 25 and clocks[:2] == ["0:05:00", "0:05:00"]
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves .ev")] == [
        "+0.31", "+1.20", "+6.50"]
    # keys: arrows, Home, End, Page Down and Up by ten; the address follows
    assert keys(browser, Keys.ARROW_RIGHT)["current"] == ["Nxf7!"]
    assert keys(browser, Keys.ARROW_LEFT, Keys.ARROW_LEFT)["ply"] == 9
    assert keys(browser, Keys.HOME)["ply"] == 0
    assert keys(browser, Keys.PAGE_DOWN)["ply"] == 10
    shown = keys(browser, Keys.PAGE_DOWN)
    assert (shown["ply"], shown["hash"], shown["current"]) == (20, "#ply-20", ["Nxa1"])
    assert keys(browser, Keys.PAGE_UP)["ply"] == 10
    shown = keys(browser, Keys.END)
    assert (shown["ply"], shown["label"], shown["current"]) == (25, "ply 25 of 25", ["Qd5+"])
    assert "result: 1-0 (Normal)" in shown["text"]
    # a ply number typed in
    field = browser.find_element(By.ID, "goto")
    field.clear()
    field.send_keys("7", Keys.ENTER)
    assert (seen(browser)["ply"], seen(browser)["hash"]) == (7, "#ply-7")
    # into a variation by a click: 5... Na5 6. Bb5+, then on, into the one inside it, and out
    browser.find_element(By.XPATH, "//span[@class='mv' and contains(., 'Bb5+')]").click()
    shown = seen(browser)
    assert (shown["ply"], shown["line"], shown["hash"]) == (11, 1, "#v1-ply-11")
    assert shown["label"] == "ply 11 of 16 \u00b7 variation 1"
    assert "last: O'Brien, Siobhán: Bb5+" in shown["text"]
    assert keys(browser, Keys.ARROW_RIGHT)["current"] == ["c6"]
    browser.find_element(By.XPATH, "//span[@class='mv' and contains(., 'Qb6')]").click()
    shown = seen(browser)
    assert (shown["line"], shown["ply"], shown["current"]) == (2, 14, ["7\u2026Qb6!?"])
    shown = keys(browser, Keys.ARROW_LEFT)  # back to the position it branches from
    assert (shown["line"], shown["ply"], shown["current"]) == (1, 13, ["7.dxc6"])
    shown = keys(browser, Keys.ARROW_UP)  # out of the variation: the main line's ply 13
    assert (shown["line"], shown["ply"], shown["hash"]) == (0, 13, "#ply-13")
    assert shown["current"] == ["Qf3+"]
    browser.find_element(By.ID, "up").click()  # nothing to leave on the main line
    assert seen(browser)["ply"] == 13
    # a variation's first move stepped back from is the main line's position before it
    browser.find_element(By.XPATH, "//span[@class='mv' and contains(., 'b5!?')]").click()
    shown = keys(browser, Keys.ARROW_LEFT)
    assert (shown["line"], shown["ply"], shown["current"]) == (0, 9, ["exd5"])
    # an address opens the page at its ply, also in a variation
    open_page(browser, annotated_page, "#v1-ply-12")
    shown = seen(browser)
    assert (shown["line"], shown["ply"], shown["current"]) == (1, 12, ["c6"])
    no_errors(browser)


def test_an_annotated_game_on_a_narrow_screen(browser: Any, annotated_page: Path) -> None:
    from selenium.webdriver.common.by import By

    size(browser, *NARROW)
    open_page(browser, annotated_page, "#ply-18")
    shown = seen(browser)
    assert min(shown["drawn"]) >= 300, shown["drawn"]
    for button in ("#prev", "#next", "#first", "#last", "#goto"):
        assert visible(browser, button), button
    assert "Østergaard, Jörg 2187" in browser.find_element(By.ID, "game").text
    screenshot(browser, "annotated-700x900")
    browser.find_element(By.ID, "next").click()
    assert seen(browser)["current"] == ["Kd1"]
    no_errors(browser)


def _long_record(game_id: str) -> Any:
    """A seeded random game of ``game_id`` of LONG plies, or shorter where the rules end it
    sooner (a full board, a race run)."""
    from gametool.players.auto import random_game

    return random_game(game_id, "long", max_plies=LONG)


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_long_game_of_every_kind_at_both_sizes(browser: Any, game: str,
                                                 tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    from gametool.views.html import page as html

    session = _long_record(game)
    plies = session.ply
    page = tmp_path / f"{game}.html"
    page.write_text(html.replay_page(session), encoding="utf-8")
    size(browser, *WIDE)
    open_page(browser, page)
    shown = seen(browser)
    assert (shown["ply"], shown["label"]) == (0, f"ply 0 of {plies}")
    assert shown["drawn"][0] >= 0.8 * shown["natural"][0], shown
    shown = keys(browser, "\ue010")  # End
    assert (shown["ply"], shown["hash"]) == (plies, f"#ply-{plies}")
    assert shown["drawn"][0] >= 0.8 * shown["natural"][0], shown
    assert len(shown["current"]) == 1
    assert keys(browser, "\ue00e")["ply"] == max(0, plies - 10)  # Page Up
    for control in ("#first", "#prev", "#next", "#last", "#up", "#goto"):
        assert visible(browser, control), control
    screenshot(browser, f"{game}-1280x800")
    size(browser, *NARROW)
    middle = plies // 2
    open_page(browser, page, f"#ply-{middle}")
    shown = seen(browser)
    # at least 300 px, or (a small board of three squares a side) nearly its own size
    least = min(300, 0.8 * min(shown["natural"]))
    assert shown["ply"] == middle and min(shown["drawn"]) >= least, shown
    for control in ("#first", "#prev", "#next", "#last", "#up", "#goto"):
        assert visible(browser, control), control
    browser.find_element(By.ID, "next").click()
    assert seen(browser)["ply"] == min(middle + 1, plies)
    screenshot(browser, f"{game}-700x900")
    no_errors(browser)
