""""Did you mean" for short actions: a mistyped or illegal square such as ``e5`` on a new chess
record gets the closest legal actions, as a longer action does, through the installed command.
The closest are checked against an edit distance worked out here and against python-chess's
list of legal moves."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gametool.core.suggest import close_matches, one_keystroke

COMMAND = shutil.which("gametool") or str(Path(sys.executable).parent / "gametool")


def gametool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMMAND, *args], capture_output=True, text=True, timeout=60)


def new_chess(tmp_path: Path) -> Path:
    path = tmp_path / "ch.gtn"
    done = gametool("start", "chess", "-o", str(path))
    assert done.returncode == 0, done.stderr
    return path


def suggested(stderr: str) -> list[str]:
    found = re.search(r"\(did you mean (.*)\?\)", stderr)
    return re.findall(r"'([^']*)'", found[1]) if found else []


def distance(a: str, b: str) -> int:
    """Edit distance with swaps of neighbours (optimal string alignment), by the table."""
    d = [[i + j if not i * j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@pytest.mark.parametrize(("typed", "expected"), [
    ("e5", ["e4", "e3"]),   # legal-looking, illegal: a pawn moves one or two squares
    ("e9", ["e4", "e3"]),   # no such square
    ("a5", ["a4", "a3"]),
    ("4e", ["e4"]),          # two keys swapped
    ("h", ["h4", "h3"]),     # a key short
    ("E5", ["e4", "e3"]),   # any letter case
])
def test_a_short_mistyped_move_gets_the_closest_legal_ones(tmp_path: Path, typed: str,
                                                           expected: list[str]) -> None:
    path = new_chess(tmp_path)
    before = path.read_bytes()
    done = gametool("move", str(path), typed)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert suggested(done.stderr) == expected, done.stderr
    assert path.read_bytes() == before


def test_the_hint_names_only_legal_moves_one_keystroke_away(tmp_path: Path) -> None:
    chess = pytest.importorskip("chess")
    board = chess.Board()
    legal = [board.san(move) for move in board.legal_moves]
    path = new_chess(tmp_path)
    for typed in ("e5", "d5", "c5", "f5", "b5", "g5", "Nf4", "Nc4"):
        done = gametool("move", str(path), typed)
        assert done.returncode == 1
        hinted = suggested(done.stderr)
        near = [m for m in legal if distance(typed.lower(), m.lower()) == 1]
        assert set(hinted) <= set(legal), hinted
        if near and len(typed) <= 3:
            assert hinted, (typed, near)
            assert set(hinted) <= set(near) | set(close_matches(typed, legal)), (typed, hinted)


def test_one_keystroke_agrees_with_the_edit_distance() -> None:
    words = ["e4", "e3", "d4", "4e", "e", "e44", "ee4", "f5", "nf3", "e5", "a1", "exd5"]
    for word in ["e4", "e5", "4e", "e", "f4", "xx"]:
        found = one_keystroke(word, words)
        assert set(found) == {w for w in words if distance(word, w) == 1}, word


def test_a_long_word_is_left_to_difflib() -> None:
    assert close_matches("exd6", ["exd5", "e4"]) == ["exd5"]
    assert close_matches("zzzz", ["zzz"]) == ["zzz"]  # difflib's own (0.86)
    assert close_matches("qqqq", ["e4", "e3"]) == []


def test_a_seat_not_to_move_is_told_no_move(tmp_path: Path) -> None:
    path = new_chess(tmp_path)
    done = gametool("move", str(path), "e5", "--as", "black")
    assert done.returncode == 1 and "did you mean" not in done.stderr, done.stderr
