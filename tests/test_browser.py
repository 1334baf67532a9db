"""The replay page in a real browser: headless Chromium driven by Selenium opens a page made by
``export --html``, steps with the arrow keys, the buttons and the move list, and reads the ply
and the board shown. Without a browser the test is skipped and says why."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
OPERA = ROOT / "sample_games" / "chess" / "opera-game-checkmate.gtn"
START_FEN = "FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4 = "FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
AFTER_E5 = "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"


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
                 "--window-size=1200,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
    except Exception as exc:  # a browser that is installed but cannot start
        pytest.skip(f"no browser: chromium did not start ({str(exc).splitlines()[0]})")
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "opera.html"
    done = subprocess.run([sys.executable, "-m", "gametool", "export", str(OPERA), "--html",
                           "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


def shown(driver: Any) -> tuple[str, list[str], str, list[str]]:
    """The ply label, the ply of the picture on screen, the board's text and the squares
    outlined as the last move."""
    from selenium.webdriver.common.by import By

    label = driver.find_element(By.ID, "ply").text
    frames = [f for f in driver.find_elements(By.ID, "frame") if f.is_displayed()]
    texts = " | ".join(t.text for t in frames[0].find_elements(By.CSS_SELECTOR, "text")
                       ) if frames else ""
    lit = sorted(r.get_attribute("data-last") or "" for frame in frames
                 for r in frame.find_elements(By.CSS_SELECTOR, "rect.last"))
    return label, [f.get_attribute("data-ply") or "" for f in frames], texts, lit


def current_move(driver: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#moves .mv.current")]


def test_arrow_keys_buttons_and_moves_step_through_the_game(browser: Any, page: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    label, frames, board, lit = shown(browser)
    assert (label, frames, lit) == ("ply 0 of 33", ["0"], [])
    assert START_FEN in board and current_move(browser) == []

    body.send_keys(Keys.ARROW_RIGHT)
    label, frames, board, lit = shown(browser)
    assert (label, frames) == ("ply 1 of 33", ["1"])
    assert AFTER_E4 in board and "last: Morphy_Paul: e4" in board
    assert lit == ["e2", "e4"] and current_move(browser) == ["e4"]

    body.send_keys(Keys.ARROW_RIGHT)
    assert AFTER_E5 in shown(browser)[2] and current_move(browser) == ["e5"]
    body.send_keys(Keys.ARROW_LEFT)
    label, frames, board, lit = shown(browser)
    assert (label, frames, lit) == ("ply 1 of 33", ["1"], ["e2", "e4"])
    assert AFTER_E4 in board

    body.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)  # not below ply 0
    assert shown(browser)[:2] == ("ply 0 of 33", ["0"])

    body.send_keys(Keys.END)
    label, frames, board, _lit = shown(browser)
    assert (label, frames) == ("ply 33 of 33", ["33"])
    assert "result: 1-0 (checkmate)" in board and current_move(browser) == ["Rd8#"]
    body.send_keys(Keys.ARROW_RIGHT)  # not past the end
    assert shown(browser)[0] == "ply 33 of 33"

    browser.find_element(By.ID, "first").click()
    assert shown(browser)[0] == "ply 0 of 33"
    browser.find_element(By.ID, "next").click()
    assert shown(browser)[0] == "ply 1 of 33"
    browser.find_element(By.CSS_SELECTOR, '#moves .mv[data-ply="3"]').click()
    label, _frames, board, _lit = shown(browser)
    assert label == "ply 3 of 33" and "last: Morphy_Paul: Nf3" in board
    assert current_move(browser) == ["Nf3"]

    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


def test_a_page_opened_at_a_ply_shows_that_ply(browser: Any, page: Path) -> None:
    browser.get(page.as_uri() + "#ply-20")
    label, frames, board, _lit = shown(browser)
    assert (label, frames) == ("ply 20 of 33", ["20"])
    assert "last: Duke_Karl_Count_Isouard: cxb5" in board


def _box(driver: Any, selector: str) -> dict[str, float]:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector).rect  # type: ignore[no-any-return]


def test_board_and_moves_side_by_side_paired_in_a_frame_of_fixed_size(
        browser: Any, page: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    try:
        browser.set_window_size(1000, 700)
        browser.get(page.as_uri())
        frame, moves = _box(browser, "#frame"), _box(browser, "#moves")
        # side by side, both on the first screen: no scrolling to reach the moves
        assert moves["x"] >= frame["x"] + frame["width"]
        assert moves["y"] < 200 and frame["y"] < 200
        view = browser.execute_script("return [window.innerWidth, window.innerHeight]")
        assert frame["y"] + frame["height"] <= view[1] and moves["x"] + moves["width"] <= view[0]
        # moves paired by turn, without the seats' names
        turns = [li.text.split() for li in browser.find_elements(By.CSS_SELECTOR, "#moves li")]
        assert turns[:2] == [["e4", "e5"], ["Nf3", "d6"]] and turns[-1] == ["Rd8#"]
        assert len(turns) == 17 and "Morphy" not in " ".join(sum(turns, []))
        # the frame keeps its size from ply to ply
        body = browser.find_element(By.TAG_NAME, "body")
        sizes = set()
        for _ in range(33):
            body.send_keys(Keys.ARROW_RIGHT)
            box = _box(browser, "#frame")
            sizes.add((box["width"], box["height"]))
        assert len(sizes) == 1, sizes
        # the current move is scrolled into view in a list too short for all of them
        browser.set_window_size(1000, 420)
        browser.get(page.as_uri() + "#ply-1")
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.END)
        listed, current = _box(browser, "#moves"), _box(browser, "#moves .mv.current")
        scrolled = browser.execute_script("return document.getElementById('moves').scrollTop")
        assert scrolled > 0
        assert listed["y"] <= current["y"] and (
            current["y"] + current["height"] <= listed["y"] + listed["height"])
        # a narrow screen stacks them: the moves under the board
        browser.set_window_size(480, 900)
        browser.get(page.as_uri())
        frame, moves = _box(browser, "#frame"), _box(browser, "#moves")
        assert moves["y"] >= frame["y"] + frame["height"]
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert frame["x"] + frame["width"] <= width
    finally:
        browser.set_window_size(1200, 900)
