"""A record's comments, NAGs, clock times and variations at the terminal: ``show`` and
``replay`` print a ply's comment, its NAGs as glyphs and its clock and evaluation, in text and
in JSON; ``show --variations`` and ``replay --variations`` also the variations."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANNOTATED = ROOT / "tests" / "data" / "annotated.pgn"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametool", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_show_prints_the_comment_nags_clock_and_evaluation_of_the_ply() -> None:
    done = run("show", str(ANNOTATED), "--ply", "10")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # the text names the players as the tags write them; JSON keeps the seat names
    assert lines[0] == "Chess (chess)  players: O'Brien, Siobhán; Østergaard, Jörg"
    assert lines[2:5] == ["last: Østergaard, Jörg: Nxd5  ?!",
                          "comment: Risky; the usual move is Na5.",
                          "clock 0:04:30, evaluation +1.20"]
    assert "variation" not in done.stdout  # only with --variations
    data = json.loads(run("show", str(ANNOTATED), "--ply", "10", "--json").stdout)
    assert data["players"] == ["O'Brien_Siobhán", "Østergaard_Jörg"]
    assert data["last"] == "Østergaard_Jörg: Nxd5"
    assert data["note"] == {"comment": "Risky; the usual move is Na5.", "clock": "0:04:30",
                            "eval": "+1.20", "nags": ["?!"]}
    # a ply without a word of comment: its clock only; the start of the game: nothing
    assert json.loads(run("show", str(ANNOTATED), "--ply", "1", "--json").stdout)["note"] == {
        "clock": "0:05:00"}
    assert "note" not in json.loads(run("show", str(ANNOTATED), "--ply", "0", "--json").stdout)


def test_show_variations_lists_the_lines_that_replace_the_ply() -> None:
    done = run("show", str(ANNOTATED), "--ply", "18", "--variations")
    assert done.returncode == 0, done.stderr
    assert ("variation: 18. Østergaard, Jörg: c6 19. O'Brien, Siobhán: axb4 20. "
            "Østergaard, Jörg: Bxb4 \u00b1") in " ".join(done.stdout.split())  # wrapped at 80
    data = json.loads(run("show", str(ANNOTATED), "--ply", "10", "--variations",
                          "--json").stdout)
    assert data["note"]["variations"] == [
        "10. Østergaard_Jörg: Na5 11. O'Brien_Siobhán: Bb5+ 12. Østergaard_Jörg: c6 "
        "13. O'Brien_Siobhán: dxc6 14. Østergaard_Jörg: bxc6 += (14. Østergaard_Jörg: Qb6!? "
        "{a rare try}) 15. O'Brien_Siobhán: Be2 16. Østergaard_Jörg: h6",
        "10. Østergaard_Jörg: b5!? {the Ulvestad Variation}"]


def test_replay_prints_each_ply_with_its_annotations_also_in_variations() -> None:
    done = run("replay", str(ANNOTATED), "--from", "17", "--to", "18")
    assert done.returncode == 0, done.stderr
    assert "last: O'Brien, Siobhán: a3  !\nclock 0:04:21\n" in done.stdout
    assert "last: Østergaard, Jörg: Nxc2+  ??\ncomment: Greed.\n" in done.stdout
    data = json.loads(run("replay", str(ANNOTATED), "--variations", "--json").stdout)
    assert data["main"][23]["note"] == {"clock": "0:04:00", "nags": ["!!"]}
    inner = next(v for v in data["variations"] if v["depth"] == 2)
    assert inner["frames"][-1]["note"] == {"comment": "a rare try", "nags": ["!?"]}
    text = run("replay", str(ANNOTATED), "--variations").stdout
    assert "last: Østergaard, Jörg: b5  !?\ncomment: the Ulvestad Variation\n" in text


def test_replay_html_refuses_what_does_not_go_with_a_page(tmp_path: Path) -> None:
    for args in (["--html", "--json"], ["-o", str(tmp_path / "x.txt")]):
        done = run("replay", str(ANNOTATED), *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "--html" in done.stderr
    assert not (tmp_path / "x.txt").exists()
