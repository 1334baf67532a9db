"""The progress line of the long archive runs: games, games/s, the share read and the time
left on a terminal, drawn a few times a second and erased at the end; nothing in a pipe or
with --quiet."""

from __future__ import annotations

import gzip
import io
import lzma
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gametool.sources import boundaries, progress
from gametool.sources.distribute import Part

GAMETOOL = str(Path(sys.executable).parent / "gametool")
DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_gives_rate_share_and_time_left_a_few_times_a_second(tmp_path: Path) -> None:
    archive = tmp_path / "a.pgn"
    archive.write_bytes(b"x" * 4000)
    clock, screen = Clock(), Terminal()
    meter = progress.Meter("reading", [str(archive)], screen, clock=clock)
    for _ in range(50):  # fifty games at once: one drawing, not fifty
        meter.game()
    assert screen.getvalue().count("\r") == 1
    assert screen.getvalue() == "\rreading: 1 game, 0% read\x1b[K"
    clock.now += 10
    meter.part_done(Part(str(archive), None, 1, 0, 0, 1000), games=200)
    assert meter.games == 200
    assert screen.getvalue().endswith(
        "\rreading: 200 games, 20 games/s, 25% read, about 30s left\x1b[K")
    clock.now += 0.1  # too soon to draw again
    meter.game()
    assert screen.getvalue().count("\r") == 2
    clock.now += 20
    meter.part_done(Part(str(archive), None, 1, 1, 1000, 3000), games=400)
    assert screen.getvalue().endswith("\rreading: 600 games, 20 games/s, 100% read\x1b[K")
    meter.close()
    assert screen.getvalue().endswith("\r\x1b[K")  # erased

    counted = progress.Meter("splitting", ["-"], screen, clock=clock, games_total=40)
    clock.now += 5
    counted.game(10)
    assert screen.getvalue().endswith("\rsplitting: 10 of 40 games, 2.0 games/s, "
                                      "about 15s left\x1b[K")
    pipe = io.StringIO()
    silent = progress.Meter("reading", [str(archive)], pipe, clock=clock)
    quiet = progress.Meter("reading", [str(archive)], screen, quiet=True, clock=clock)
    before = screen.getvalue()
    for meter in (silent, quiet):
        meter.game()
        meter.close()
    assert pipe.getvalue() == "" and screen.getvalue() == before
    assert progress.clock_text(3725) == "1h02m" and progress.clock_text(187) == "3m07s"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("progress")
    whole = folder / "all.pgn"
    whole.write_bytes(lzma.decompress((DATA / "hlotze-pgn2tex-examples.pgn.xz").read_bytes()))
    pieces = list(boundaries.split_bytes(str(whole)))[:40]
    packed = folder / "forty.pgn.gz"
    packed.write_bytes(gzip.compress(b"\n".join(pieces)))
    whole.unlink()
    return packed


def on_terminal(*args: str, cwd: Path) -> str:
    """What a command writes to a terminal (stdout and stderr together)."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(GAMETOOL, list(args), cwd=str(cwd), encoding="utf-8", timeout=120,
                          dimensions=(24, 200))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


LINE = r"\r{label}: \d+ games?, [\d,.]+ games/s, \d+% read(, about \d+s left)?\x1b\[K"


def test_each_long_run_shows_its_line_on_a_terminal_and_nothing_in_a_pipe(
        games: Path, tmp_path: Path) -> None:
    screen = on_terminal("import", str(games), "-o", "forty.gtn", cwd=tmp_path)
    assert re.search(LINE.format(label="importing"), screen), screen
    # The line is erased before the count is written.
    assert screen.endswith("\r\x1b[K40 games imported to forty.gtn\r\n"), screen
    for args, label in ((["validate", "forty.gtn"], "validating"),
                        (["filter", str(games), "--where", "game.plies > 60", "-o", "long.gtn"],
                         "filtering"),
                        (["stats", "forty.gtn", "--jobs", "2"], "reading"),
                        (["tree", str(games), "--moves", "e4"], "reading"),
                        (["export", "forty.gtn", "--pgn", "-o", "back.pgn"], "exporting")):
        screen = on_terminal(*args, cwd=tmp_path)
        assert re.search(LINE.format(label=label), screen), (args, screen)
        assert screen.rsplit("\x1b[K", 1)[0].endswith("\r"), screen  # erased at the end
    screen = on_terminal("split", str(games), "-o", "one", "--json", cwd=tmp_path)
    assert re.search(r"\rsplitting: \d+ of 40 games, [\d,.]+ games/s", screen), screen
    # With --quiet, or when stdout (the records) is the terminal too: no line.
    for args in (["import", str(games), "-o", "again.gtn", "--quiet"],
                 ["filter", "forty.gtn", "--where", "game.plies > 60"]):
        screen = on_terminal(*args, cwd=tmp_path)
        assert "\x1b[K" not in screen and "games/s" not in screen, screen
    # In a pipe: the count alone.
    done = subprocess.run([GAMETOOL, "import", str(games), "-o", "piped.gtn"], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    assert done.stderr == "40 games imported to piped.gtn\n"
    assert (tmp_path / "piped.gtn").read_bytes() == (tmp_path / "forty.gtn").read_bytes()
