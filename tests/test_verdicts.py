"""What a pipeline and a spectator rely on: ``validate`` prints one verdict line per file on
stdout (its errors on stderr), ``selfplay`` never overwrites a record without ``--force``, and
``--as spectator`` shows what every seat may see (the master record without ``--as`` shows
everything)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from gametool.players.auto import random_game
from gametool.views.html import page as html

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametool", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_validate_prints_a_verdict_line_for_every_file(tmp_path: Path) -> None:
    good = tmp_path / "good.gtn"
    good.write_text((ROOT / "sample_games" / "chess" / "stalemate.gtn").read_text())
    bad = tmp_path / "bad.gtn"
    bad.write_text('[Game "chess"]\n[Players "a; b"]\n\n1. a: e4\n2. b: e9\n3. a: d4\n')
    junk = tmp_path / "junk.gtn"
    junk.write_text("not a record\n")
    before = bad.read_bytes()
    done = run("validate", str(bad), str(good), str(junk), str(tmp_path / "none.gtn"))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{bad}: invalid: 5:7: ply 2: malformed chess action 'e9' (column 3): Expected square "
        "(to), found end of text",
        f"{good}: ok (1 record, 1 ply)",
        f"{junk}: invalid: 1:1: a record must start with its tag pairs, e.g. [Game \"...\"]",
        f"{tmp_path / 'none.gtn'}: invalid: cannot read: No such file or directory"]
    # the errors, where they are, on stderr as before; nothing changed
    assert done.stderr.splitlines()[0] == (
        f"{bad}:5:7: ply 2: malformed chess action 'e9' (column 3): Expected square (to), "
        "found end of text")
    assert bad.read_bytes() == before
    # a pipeline keeps the failed files
    failed = [line.split(": invalid: ")[0] for line in done.stdout.splitlines()
              if ": invalid: " in line]
    assert failed == [str(bad), str(junk), str(tmp_path / "none.gtn")]


def test_selfplay_does_not_overwrite_records_without_force(tmp_path: Path) -> None:
    args = ("selfplay", "colors", "-n", "2", "-o", "corpus", "--seed", "keep")
    assert run(*args, cwd=tmp_path).returncode == 0
    first = (tmp_path / "corpus" / "colors-0001.gtn").read_text()
    (tmp_path / "corpus" / "colors-0002.gtn").write_text("mine\n")
    refused = run("selfplay", "colors", "-n", "3", "-o", "corpus", "--seed", "other",
                  cwd=tmp_path)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr == ("gametool: corpus/colors-0001.gtn and 1 more: already exist "
                              "(use --force to overwrite)\n")
    assert (tmp_path / "corpus" / "colors-0001.gtn").read_text() == first
    assert (tmp_path / "corpus" / "colors-0002.gtn").read_text() == "mine\n"
    assert not (tmp_path / "corpus" / "colors-0003.gtn").exists()  # nothing was played
    forced = run("selfplay", "colors", "-n", "3", "-o", "corpus", "--seed", "other", "--force",
                 cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "corpus" / "colors-0002.gtn").read_text() != "mine\n"
    assert (tmp_path / "corpus" / "colors-0003.gtn").exists()


def test_a_spectator_sees_no_hand_and_the_master_record_every_hand(tmp_path: Path) -> None:
    session = random_game("western-mahjong", "view-rule", max_plies=40)
    master = tmp_path / "m.gtn"
    master.write_text(session.text())
    spectator = run("show", str(master), "--as", "spectator", "--weak-seed-ok")
    assert spectator.returncode == 0, spectator.stderr
    assert spectator.stdout == run("show", str(master), "--as", "chance",
                                   "--weak-seed-ok").stdout
    # the pages: the master's draws both hands face up, the spectator's none
    pages = {}
    for who in (None, "spectator"):
        out = tmp_path / f"{who}.html"
        args = ["replay", str(master), "--html", "-o", str(out), "--weak-seed-ok"]
        done = run(*args, *(["--as", who] if who else []))
        assert done.returncode == 0, done.stderr
        pages[who] = html.pictures_of(out.read_text())[-1]

    def faces(picture: str, seat: str) -> list[str]:
        row = re.search(rf'hand of {seat}.*?(?=<g class="row"|$)', picture, re.S)
        assert row is not None
        return re.findall(r'class="item face"', row.group(0))

    for seat in session.names:
        assert faces(pages[None], seat) and not faces(pages["spectator"], seat), seat
