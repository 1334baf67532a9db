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
CHESS_DATA = ROOT / "tests" / "data" / "python-chess"
IMMORTAL = CHESS_DATA / "old-games-immortal-games.pgn"
WIDE, PHONE = (1280, 800), (390, 844)
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
    fragment, the current move, the picture's text and the words beside it, the picture's
    drawn size, its board's drawn size (the squares of its first board), whether the current
    move is inside the move list and the window, and whether the picture is in the window."""
    return driver.execute_script(WHAT_IS_SEEN)  # type: ignore[no-any-return]


WHAT_IS_SEEN = """
    var svg = document.querySelector('#frame svg'), box = svg.getBoundingClientRect();
    var current = document.querySelectorAll('#moves .mv.current');
    var cells = svg.querySelectorAll('.grid')[0];
    var board = null;
    if (cells) {
      var squares = cells.querySelectorAll('rect[data-cell]'), l = 1e9, t = 1e9, r = -1e9,
          b = -1e9;
      for (var i = 0; i < squares.length; i++) {
        var q = squares[i].getBoundingClientRect();
        l = Math.min(l, q.left); t = Math.min(t, q.top);
        r = Math.max(r, q.right); b = Math.max(b, q.bottom);
      }
      board = [r - l, b - t];
    }
    var inView = null;
    if (current.length === 1) {
      var m = current[0].getBoundingClientRect();
      var list = document.getElementById('moves').getBoundingClientRect();
      inView = m.top >= list.top - 1 && m.bottom <= list.bottom + 1 && m.top >= 0
        && m.bottom <= window.innerHeight && m.left >= list.left - 1 && m.left >= 0
        && m.left < window.innerWidth && current[0].getAttribute('aria-current') === 'step';
    }
    return {label: document.getElementById('ply').textContent,
            ply: Number(document.body.dataset.ply), node: Number(document.body.dataset.node),
            line: Number(document.body.dataset.line), hash: location.hash,
            current: Array.prototype.map.call(current, function (m) { return m.textContent; }),
            text: Array.prototype.map.call(svg.querySelectorAll('text'),
                                           function (t) { return t.textContent; }).join(' | '),
            info: document.getElementById('info').innerText,
            drawn: [box.width, box.height], board: board, inView: inView,
            fits: box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight + 1
              && box.right <= window.innerWidth + 1,
            natural: [Number(svg.getAttribute('data-width')),
                      Number(svg.getAttribute('data-height'))]};
"""

WALK = """
    // every stride-th ply from the start to the end by the Right arrow, and what is seen at
    // each (as seen() tells it)
    var stride = arguments[0], see = new Function(arguments[1]), out = [];
    function press(key) {
      document.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true}));
    }
    function jump(ply) {  // as an address typed in: the page shows that ply at once
      history.replaceState(null, '', '#ply-' + ply);
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    }
    press('Home');
    var last = -1;
    for (var guard = 0; guard < 100000; guard++) {
      if (stride === 1) { press('ArrowRight'); } else { jump(last + stride); }
      var ply = Number(document.body.dataset.ply);
      if (ply === last && stride > 1) { press('End'); ply = Number(document.body.dataset.ply); }
      if (ply === last) { break; }
      last = ply;
      var what = see();
      out.push([ply, {inView: what.inView, board: what.board, fits: what.fits,
                      current: what.current}]);
    }
    return out;
"""


def walk(driver: Any, stride: int = 1) -> list[tuple[int, dict[str, Any]]]:
    """The page stepped from the start to the end, every ``stride`` plies: what is seen."""
    return [(ply, what) for ply, what in driver.execute_script(WALK, stride, WHAT_IS_SEEN)]


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


def page_of(tmp: Path, record: Path, *args: str) -> Path:
    out = tmp / (record.stem + "".join(args).replace("-", "_") + ".html")
    done = subprocess.run([sys.executable, "-m", "gametool", "replay", str(record), "--html",
                           "-o", str(out), "--force", *args], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def annotated_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return page_of(tmp_path_factory.mktemp("page"), ANNOTATED)


@pytest.fixture(scope="module")
def classics(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """python-chess's annotated games: Marshall - Lasker 1907 (long comments), the game of
    variations, NAGs and comments, and a cutechess game with evaluations and times."""
    tmp = tmp_path_factory.mktemp("classics")
    return {"marshall": page_of(tmp, IMMORTAL, "--record", "36"),
            "variations": page_of(tmp, CHESS_DATA / "old-games-variations-nags-and-comments.pgn"),
            "cutechess": page_of(tmp, CHESS_DATA / "stockfish-learning.pgn")}


def in_view_everywhere(driver: Any, stride: int) -> None:
    walked = walk(driver, stride)
    assert walked, "no ply walked"
    for ply, what in walked:
        assert what["inView"] and len(what["current"]) == 1, (ply, what)
        assert what["fits"], (ply, what)


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
    assert shown["current"] == ["Nxd5?!"] and shown["inView"]
    # the words are beside the picture, the NAG joined to its move; the picture is the board
    assert "last Østergaard, Jörg: Nxd5?!" in shown["info"]
    assert "Risky; the usual move is Na5." in shown["info"]
    assert "evaluation +1.20" in shown["info"] and "clock 0:04:30" in shown["info"]
    assert "FEN: r1bqkb1r/ppp2ppp/2n5/3np1N1/2B5/8/PPPP1PPP/RNBQK2R w KQkq - 0 6" in \
        shown["info"].replace("\n", " ")
    for words in ("Østergaard", "Risky", "FEN", "last", "castling", "White"):
        assert words not in shown["text"], (words, shown["text"])
    assert min(shown["board"]) >= 600, shown
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
    assert "result: 1-0 (Normal)" in shown["info"] and shown["inView"]
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
    assert "last O'Brien, Siobhán: Bb5+" in shown["info"]
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
    in_view_everywhere(browser, 1)
    no_errors(browser)


def test_an_annotated_game_on_a_phone(browser: Any, annotated_page: Path) -> None:
    from selenium.webdriver.common.by import By

    size(browser, *PHONE)
    open_page(browser, annotated_page, "#ply-18")
    shown = seen(browser)
    assert min(shown["board"]) >= 340 and shown["fits"], shown
    for button in ("#prev", "#next", "#first", "#last", "#goto", "#flip", "#copy"):
        assert visible(browser, button), button
    assert "Østergaard, Jörg 2187" in browser.find_element(By.ID, "game").text
    assert shown["inView"], shown
    screenshot(browser, "annotated-390x844")
    browser.find_element(By.ID, "next").click()
    assert seen(browser)["current"] == ["Kd1"]
    in_view_everywhere(browser, 1)
    no_errors(browser)


def square_top(driver: Any, name: str) -> float:
    return driver.execute_script(  # type: ignore[no-any-return]
        "return document.querySelector('#frame rect[data-cell=\"' + arguments[0] + '\"]')"
        ".getBoundingClientRect().top;", name)


def test_f_and_the_button_turn_the_board_and_back(browser: Any, annotated_page: Path) -> None:
    from selenium.webdriver.common.by import By

    size(browser, *WIDE)
    open_page(browser, annotated_page, "#ply-5")
    before = seen(browser)
    assert square_top(browser, "a1") > square_top(browser, "a8")  # White's side below
    keys(browser, "f")
    assert square_top(browser, "a1") < square_top(browser, "a8")
    turned = seen(browser)
    # the orientation only: the same ply, the same pieces, the same words
    assert (turned["ply"], turned["info"], turned["current"]) == (
        before["ply"], before["info"], before["current"])
    assert sorted(turned["text"].split(" | ")) == sorted(before["text"].split(" | "))
    assert min(turned["board"]) >= 600
    # a piece stays upright: its figure is drawn the same size, on the square turned round
    screenshot(browser, "annotated-turned-1280x800")
    keys(browser, "\ue014")  # Right arrow: the board stays turned while stepping
    assert square_top(browser, "a1") < square_top(browser, "a8")
    browser.find_element(By.ID, "flip").click()
    assert square_top(browser, "a1") > square_top(browser, "a8")
    keys(browser, "f", "f")
    assert square_top(browser, "a1") > square_top(browser, "a8")
    no_errors(browser)


def background(driver: Any) -> str:
    return driver.execute_script(  # type: ignore[no-any-return]
        "return getComputedStyle(document.body).backgroundColor;")


def test_dark_mode_follows_the_system_and_the_toggle(browser: Any, annotated_page: Path) -> None:
    from selenium.webdriver.common.by import By

    size(browser, *WIDE)
    try:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        open_page(browser, annotated_page, "#ply-3")
        assert background(browser) == "rgb(27, 26, 23)"
        assert browser.execute_script("return document.body.dataset.theme") == "dark"
        screenshot(browser, "annotated-dark-1280x800")
        browser.find_element(By.ID, "theme").click()
        assert background(browser) == "rgb(255, 255, 255)"
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "light"}]})
        open_page(browser, annotated_page, "#ply-3")
        assert background(browser) == "rgb(255, 255, 255)"
        browser.find_element(By.ID, "theme").click()
        assert background(browser) == "rgb(27, 26, 23)"
        browser.find_element(By.ID, "theme").click()
        assert background(browser) == "rgb(255, 255, 255)"
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    no_errors(browser)


def click_graph(driver: Any, name: str, fraction: float) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    plot = driver.find_element(By.CSS_SELECTOR, f'svg[role="img"][aria-label="{name}"]')
    width = plot.size["width"]
    ActionChains(driver).move_to_element_with_offset(
        plot, int(width * fraction - width / 2), 0).click().perform()


def marked_at(driver: Any, name: str) -> float:
    return float(driver.execute_script(
        "return document.querySelector('svg[aria-label=\"' + arguments[0] + '\"] .at')"
        ".getAttribute('x1');", name))


@pytest.mark.parametrize("screen", [WIDE, PHONE], ids=["1280x800", "390x844"])
def test_the_evaluation_and_clock_graphs_move_to_the_ply_clicked(
        browser: Any, annotated_page: Path, classics: dict[str, Path],
        screen: tuple[int, int]) -> None:
    size(browser, *screen)
    open_page(browser, annotated_page)
    for name in ("evaluation", "clock"):
        click_graph(browser, name, 0.6)
        shown = seen(browser)
        assert abs(shown["ply"] - 15) <= 1 and shown["inView"], (name, shown)
        assert abs(marked_at(browser, name) - 600 * shown["ply"] / 25) < 0.01
    open_page(browser, classics["cutechess"])  # a cutechess game: evaluation, depth and time
    click_graph(browser, "evaluation", 0.5)
    shown = seen(browser)
    assert abs(shown["ply"] - 77) <= 2 and shown["inView"], shown
    assert "depth" in shown["info"] and "move time" in shown["info"]
    screenshot(browser, f"cutechess-{screen[0]}x{screen[1]}")
    no_errors(browser)


def test_copy_gives_the_fen_and_download_the_records(browser: Any, annotated_page: Path) -> None:
    import chess.pgn
    from selenium.webdriver.common.by import By

    size(browser, *WIDE)
    game = chess.pgn.read_game(ANNOTATED.open(encoding="utf-8"))
    assert game is not None
    board = game.board()
    fens = [board.fen(en_passant="fen")]
    for move in game.mainline_moves():
        board.push(move)
        fens.append(board.fen(en_passant="fen"))  # as FEN writes it: after every double step
    open_page(browser, annotated_page)
    for ply in (0, 1, 10, 25):
        browser.execute_script("location.hash = arguments[0]", f"#ply-{ply}")
        browser.find_element(By.ID, "copy").click()
        assert browser.execute_script("return document.body.dataset.copied") == fens[ply], ply
    fetched = """
        var done = arguments[arguments.length - 1];
        fetch(document.getElementById(arguments[0]).getAttribute('href'))
          .then(function (r) { return r.text(); }).then(done);"""
    pgn = browser.execute_async_script(fetched, "save-pgn")
    gtn = browser.execute_async_script(fetched, "save-gtn")
    assert browser.find_element(By.ID, "save-pgn").get_attribute("download").endswith(".pgn")
    exported = subprocess.run([sys.executable, "-m", "gametool", "export", str(ANNOTATED),
                               "--pgn"], capture_output=True, text=True, cwd=ROOT)
    assert pgn == exported.stdout
    assert "[Game \"chess\"]" in gtn and "Nxd5" in gtn
    no_errors(browser)


def test_arrows_and_circles_of_a_comment_are_drawn_on_the_board(browser: Any,
                                                                  tmp_path: Path) -> None:
    record = tmp_path / "marks.pgn"
    record.write_text('[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
                      "1. e4 { [%cal Gd2d4,Rg1f3] [%csl Yd5] the centre } e5 *\n")
    page = page_of(tmp_path, record)
    size(browser, *WIDE)
    open_page(browser, page, "#ply-1")
    marks = browser.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#frame [data-mark]'),"
        " function (m) { var b = m.getBoundingClientRect();"
        " return [m.dataset.mark, m.tagName, b.top, b.height]; });")
    assert [(m[0], m[1]) for m in marks] == [("Gd2d4", "polygon"), ("Rg1f3", "polygon"),
                                             ("Yd5", "circle")]
    arrow = marks[0]
    assert arrow[3] > 150  # two squares long
    assert "the centre" in seen(browser)["info"]
    screenshot(browser, "marks-1280x800")
    keys(browser, "f")  # the arrows turn with the board: d2 to d4 now points down
    assert square_top(browser, "d2") < square_top(browser, "d4")
    assert seen(browser)["ply"] == 1
    keys(browser, "\ue014")
    assert browser.execute_script("return document.querySelectorAll('#frame [data-mark]')"
                                  ".length") == 0  # the next move's comment has none
    no_errors(browser)


@pytest.mark.parametrize("screen", [WIDE, PHONE], ids=["1280x800", "390x844"])
def test_python_chess_classics_keep_a_large_board_and_the_move_in_view(
        browser: Any, classics: dict[str, Path], screen: tuple[int, int]) -> None:
    """Marshall - Lasker 1907 has comments of hundreds of words: the board keeps its size."""
    size(browser, *screen)
    least = 600 if screen == WIDE else 340
    for name, page in classics.items():
        open_page(browser, page)
        walked = walk(browser, 1)
        for ply, what in walked:
            assert what["inView"] and what["fits"], (name, ply, what)
            assert min(what["board"]) >= least, (name, ply, what)
        screenshot(browser, f"{name}-{screen[0]}x{screen[1]}")
    no_errors(browser)


@pytest.mark.slow
@pytest.mark.parametrize("screen", [WIDE, PHONE], ids=["1280x800", "390x844"])
def test_every_readable_immortal_game_keeps_its_board(browser: Any, tmp_path: Path,
                                                     screen: tuple[int, int]) -> None:
    size(browser, *screen)
    least = 600 if screen == WIDE else 340
    for number in range(1, 47):
        out = tmp_path / f"{number}.html"
        done = subprocess.run([sys.executable, "-m", "gametool", "replay", str(IMMORTAL),
                               "--record", str(number), "--html", "-o", str(out)],
                              capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            continue  # a game python-chess's file writes with an ambiguous move
        open_page(browser, out)
        for ply, what in walk(browser, 1):
            assert what["inView"] and min(what["board"]) >= least, (number, ply, what)


def _long_record(game_id: str) -> Any:
    """A seeded random game of ``game_id`` of LONG plies, or shorter where the rules end it
    sooner (a full board, a race run)."""
    from gametool.players.auto import random_game

    return random_game(game_id, "long", max_plies=LONG)


def _long_game(game: str, tmp_path: Path, browser: Any, stride: int | None) -> None:
    from selenium.webdriver.common.by import By

    from gametool.views.html import page as html

    session = _long_record(game)
    plies = session.ply
    page = tmp_path / f"{game}.html"
    page.write_text(html.replay_page(session), encoding="utf-8")
    for screen in (WIDE, PHONE):
        size(browser, *screen)
        open_page(browser, page)
        shown = seen(browser)
        assert (shown["ply"], shown["label"]) == (0, f"ply 0 of {plies}")
        assert shown["fits"], shown
        shown = keys(browser, "\ue010")  # End
        assert (shown["ply"], shown["hash"]) == (plies, f"#ply-{plies}")
        assert shown["fits"] and shown["inView"] and len(shown["current"]) == 1, shown
        # the picture fills its space: the height of the window, or its width on a phone
        width, height = shown["drawn"]
        assert (height >= 0.95 * (screen[1] - 14) or width >= 0.95 * (screen[0] - 414)
                if screen == WIDE
                else width >= 0.95 * (screen[0] - 7) or height >= 0.45 * screen[1]), shown
        assert keys(browser, "\ue00e")["ply"] == max(0, plies - 10)  # Page Up
        for control in ("#first", "#prev", "#next", "#last", "#up", "#goto", "#flip"):
            assert visible(browser, control), control
        screenshot(browser, f"{game}-{screen[0]}x{screen[1]}")
        middle = plies // 2
        open_page(browser, page, f"#ply-{middle}")
        assert seen(browser)["inView"]
        browser.find_element(By.ID, "next").click()
        assert seen(browser)["ply"] == min(middle + 1, plies)
        walked = walk(browser, stride or max(1, plies // 6))
        for ply, what in walked:
            assert what["inView"] and what["fits"], (game, screen, ply, what)
    no_errors(browser)


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_long_game_of_every_kind_at_both_sizes(browser: Any, game: str,
                                                 tmp_path: Path) -> None:
    _long_game(game, tmp_path, browser, None)


@pytest.mark.slow
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_long_game_of_every_kind_at_every_ply(browser: Any, game: str,
                                                tmp_path: Path) -> None:
    _long_game(game, tmp_path, browser, 1)


def test_a_file_of_several_games_lists_them_with_each_viewer(browser: Any,
                                                             tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page = page_of(tmp_path, ROOT / "tests" / "data" / "famous.pgn")
    size(browser, *WIDE)
    browser.get("about:blank")
    browser.get(page.as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    assert len(rows) == 7 and "Byrne, Donald" in rows[3].text and "0-1" in rows[3].text
    rows[3].find_element(By.TAG_NAME, "a").click()
    frame = browser.find_element(By.CSS_SELECTOR, "#game-4 iframe")
    assert browser.execute_script("return arguments[0].getBoundingClientRect().top;",
                                  frame) < 80  # the link brought the game's viewer up
    screenshot(browser, "famous-list-1280x800")
    browser.switch_to.frame(frame)
    try:
        WebDriverWait(browser, 60).until(lambda d: d.execute_script(
            "return document.body && document.body.dataset.ready === '1'"))
        browser.find_element(By.ID, "last").click()
        shown = seen(browser)
        assert shown["inView"] and shown["label"].endswith(f"of {shown['ply']}"), shown
        assert "Fischer" in browser.find_element(By.ID, "game").text
        assert min(shown["board"]) >= 500, shown
    finally:
        browser.switch_to.default_content()
    no_errors(browser)
