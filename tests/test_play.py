"""'gametool play' through a pseudo-terminal (pexpect): a whole game of Colors against the
random player, Tab completion, rejected actions, undo, quit and resume, colours."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gametool.records import load_one

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


# -- hot seat with hidden hands, colour and the step viewer ---------------------------------------

CLEAR = "\x1b[H\x1b[2J"
SEED = "0123456789abcdef0123456789abcdef"


def test_hot_seat_with_hidden_hands_clears_the_screen_between_seats(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    child = spawn("western-mahjong", "--players", "ann,ben", "--seed", SEED, "-o", str(path),
                  cwd=tmp_path)
    child.expect("press Enter, ann")  # ann's hand is dealt: nobody sees it before ann is there
    assert "hand of ann:" not in child.before
    child.sendline("")
    child.expect("hand of ann: ")
    assert "hand of ben: " not in child.before
    turns = 0
    while True:
        index = child.expect([r"ann> ", r"press Enter, ben"])
        if index == 0:  # ann's turn goes on: she draws, then discards
            actions = legal(path)
            child.sendline(next((a for a in actions if a.startswith("discard")), actions[0]))
            turns += 1
            assert turns < 10
            continue
        break
    shown = child.before
    assert CLEAR in shown
    assert "hand of ann:" not in shown.rsplit(CLEAR, 1)[1]  # the screen was cleared after it
    child.sendline("")
    child.expect("hand of ben: ")
    assert "hand of ann: " not in child.before
    child.expect("ben> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "discard" in path.read_text()


def test_hot_seat_without_hidden_information_hands_over_at_once(tmp_path: Path) -> None:
    child = spawn("colors", "--players", "ann,ben", "-o", str(tmp_path / "g.gtn"), cwd=tmp_path)
    child.expect("ann> ")
    child.sendline("d4=R")
    child.expect("ben> ")
    assert "press Enter" not in child.before and CLEAR not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)


def gametool_in_pty(*args: str, cwd: Path, env: dict[str, str] | None = None,
                    size: tuple[int, int] = (50, 100)) -> pexpect.spawn:
    full = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full.update(TERM="xterm", **(env or {}))
    return pexpect.spawn(sys.executable, ["-m", "gametool", *args], cwd=str(cwd), env=full,
                         encoding="utf-8", timeout=TIMEOUT, dimensions=size)


OPERA = Path(__file__).resolve().parent.parent / "sample_games" / "chess" / \
    "opera-game-checkmate.gtn"
COLORS = Path(__file__).resolve().parent.parent / "sample_games" / "colors" / \
    "worked-example.gtn"


def test_show_and_replay_colour_pieces_on_a_terminal_only(tmp_path: Path) -> None:
    red = "\x1b[38;5;166m\x1b[1mR\x1b[0m"  # Colors' R in the diagram's red
    for command in (["show", str(COLORS)], ["replay", str(COLORS), "--from", "49"]):
        child = gametool_in_pty(*command, cwd=tmp_path)
        child.expect(pexpect.EOF)
        assert red in child.before, command
        child = gametool_in_pty(*command, cwd=tmp_path, env={"NO_COLOR": "1"})
        child.expect(pexpect.EOF)
        assert ESC not in child.before and "R  R  R" in child.before
        child = gametool_in_pty(*command, "--color", "never", cwd=tmp_path)
        child.expect(pexpect.EOF)
        assert ESC not in child.before
        piped = subprocess.run([sys.executable, "-m", "gametool", *command],
                               capture_output=True, text=True, timeout=TIMEOUT)
        assert piped.returncode == 0 and ESC not in piped.stdout and "R  R  R" in piped.stdout
        forced = subprocess.run([sys.executable, "-m", "gametool", *command, "--color",
                                 "always"], capture_output=True, text=True, timeout=TIMEOUT)
        assert red in forced.stdout
        for line in forced.stdout.splitlines() + piped.stdout.splitlines():
            assert len(re.sub(r"\x1b\[[0-9;]*m", "", line)) <= 80


def test_unicode_draws_chess_figurines(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "gametool", "show", str(OPERA), "--ply", "0",
                           "--unicode"], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert " 8  \u265c \u265e \u265d \u265b \u265a \u265d \u265e \u265c  8" in done.stdout
    assert " 1  \u2656 \u2658 \u2657 \u2655 \u2654 \u2657 \u2658 \u2656  1" in done.stdout
    letters = subprocess.run([sys.executable, "-m", "gametool", "show", str(OPERA), "--ply",
                              "0"], capture_output=True, text=True, timeout=TIMEOUT)
    assert " 1  R N B Q K B N R  1" in letters.stdout


RIGHT, LEFT, HOME, END = "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F"


def test_replay_step_moves_one_position_at_a_time(tmp_path: Path) -> None:
    child = gametool_in_pty("replay", str(OPERA), "--step", cwd=tmp_path)
    child.expect("ply 0 of 33")
    assert "Morphy, Paul to move" in child.before and "FEN: rnbqkbnr/pppppppp" in child.before
    child.send(RIGHT)
    child.expect("ply 1 of 33")
    assert "last: Morphy, Paul: e4" in child.before and "ply 2" not in child.before
    child.send(RIGHT)
    child.expect("ply 2 of 33")
    child.send(LEFT)
    child.expect("ply 1 of 33")
    child.send(END)
    child.expect("ply 33 of 33")
    assert "result: 1-0 (checkmate)" in child.before
    child.send(RIGHT)  # not past the end
    child.expect("ply 33 of 33")
    child.send(HOME)
    child.expect("ply 0 of 33")
    child.send(LEFT)  # not before the start
    child.expect("ply 0 of 33")
    child.send("20")
    child.expect("go to: 20_")
    child.send("\r")
    child.expect("ply 20 of 33")
    assert "last: Duke Karl / Count Isouard: cxb5" in child.before
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_replay_step_without_a_terminal_says_so_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "gametool", "replay", str(OPERA), "--step"],
                          capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.PIPE)
    assert done.returncode == 2 and done.stdout == ""
    assert "--step needs a terminal" in done.stderr and "Traceback" not in done.stderr
