"""'gametool play' through a pseudo-terminal (pexpect): a whole game of Colors against the
random player, Tab completion, rejected actions, undo, quit and resume, colours."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gametool.record import load_one

pexpect = pytest.importorskip("pexpect")

TIMEOUT = 60
ESC = "\x1b["


def spawn(*args: str, cwd: Path, env: dict[str, str] | None = None) -> pexpect.spawn:
    full = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full.update(TERM="xterm", **(env or {}))
    child = pexpect.spawn(sys.executable, ["-m", "gametool", "play", *args], cwd=str(cwd),
                          env=full, encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 120))
    return child


def legal(path: Path) -> list[str]:
    session = load_one(path.read_text(encoding="utf-8"), str(path))
    game, state = session.game, session.state
    return [game.format_action(state, a) for a in game.legal_actions(state)]


def test_a_whole_game_of_colors_against_random(tmp_path: Path) -> None:
    path = tmp_path / "game.gtn"
    child = spawn("colors", "--vs", "random", "--player-seed", "7", "-o", str(path),
                  cwd=tmp_path)
    turns = 0
    while True:
        index = child.expect([r"p1> ", r"game over"])
        if index == 1:
            break
        actions = legal(path)
        choice = actions[turns * 7 % len(actions)]
        child.sendline(choice)
        turns += 1
        assert turns < 40
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    session = load_one(path.read_text(encoding="utf-8"), str(path))
    assert session.game.outcome(session.state) is not None
    assert turns == sum(1 for s in session.steps if s.seat == 0)
    assert '[Result "*"]' not in path.read_text()
    done = subprocess.run([sys.executable, "-m", "gametool", "validate", str(path)],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr


def test_tab_completes_commands_and_lists_actions(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    child = spawn("colors", "-o", str(path), cwd=tmp_path)
    child.expect("p1> ")
    child.send("mov\t")
    child.expect("moves")
    child.send("\r")
    child.expect("g7=R")  # the listing of every legal action
    child.expect("p1> ")
    child.send("c3=\t\t")  # several completions: readline lists them
    child.expect("c3=Y")
    child.send("R\r")
    child.expect("p2> ")
    assert "c3=R" in path.read_text()
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_rejected_action_is_explained_with_close_matches(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    child = spawn("colors", "-o", str(path), cwd=tmp_path)
    child.expect("p1> ")
    before = path.read_text()
    child.sendline("d4")
    child.expect("did you mean 'd4=")
    child.expect("p1> ")
    assert path.read_text() == before
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_undo_quit_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    child = spawn("colors", "--vs", "greedy", "-o", str(path), cwd=tmp_path)
    child.expect("p1> ")
    child.sendline("d4=R")
    child.expect(r"2\. p2: ")
    child.expect("p1> ")
    assert "2. p2:" in path.read_text()
    child.sendline("undo")
    child.expect("took back 2 plies")
    child.expect("p1> ")
    assert "d4=R" not in path.read_text()
    child.sendline("e5=Y")
    child.expect("p1> ")
    child.sendline("quit")
    child.expect(f"gametool play {path}")
    child.expect(pexpect.EOF)
    again = spawn(str(path), "--vs", "greedy", cwd=tmp_path)
    again.expect("ply 2, p1 to move")
    again.expect("p1> ")
    again.sendline("help")
    again.expect("resign")
    again.sendline("resign")
    again.expect("game over")
    again.expect(pexpect.EOF)
    assert "1. p1: e5=Y" in path.read_text() and "resign" in path.read_text()


def test_colour_on_a_terminal_none_under_no_color_or_in_a_pipe(tmp_path: Path) -> None:
    child = spawn("colors", "-o", str(tmp_path / "a.gtn"), cwd=tmp_path)
    child.expect("p1> ")
    assert ESC in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn("colors", "-o", str(tmp_path / "b.gtn"), cwd=tmp_path,
                  env={"NO_COLOR": "1"})
    child.expect("p1> ")
    assert ESC not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    done = subprocess.run([sys.executable, "-m", "gametool", "play", "colors", "-o",
                           str(tmp_path / "c.gtn")], input="d4=R\nquit\n",
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0 and ESC not in done.stdout
    assert "d4=R" in (tmp_path / "c.gtn").read_text()


def test_a_real_table_game_asks_chance_for_each_card_turned_up(tmp_path: Path) -> None:
    path = tmp_path / "table.gtn"
    child = spawn("belemmer", "--no-seed", "-o", str(path), cwd=tmp_path)
    child.expect("chance> ")
    child.sendline("reveal red KH")
    child.expect("chance> ")
    child.sendline("reveal black 3C")
    child.expect("red> ")
    child.sendline("place b3")
    child.expect("chance> ")
    child.sendline("reveal red KH")
    child.expect("KH has been seen already")
    child.expect("chance> ")
    child.send("reveal red K\t")  # KH is on the board: Tab completes the one king left
    child.expect("reveal red KD")
    child.send("\r")
    child.expect("black> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    text = path.read_text()
    assert "1. chance: reveal red KH" in text and "2. chance: reveal black 3C" in text
    assert "3. red: place b3" in text and "4. chance: reveal red KD" in text
