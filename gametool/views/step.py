"""Stepping through a game at the terminal, one position at a time (``replay FILE --step``).

Keys are read one by one with the terminal in cbreak mode (no echo, no line editing; output
as usual), and the terminal is given back as it was on every way out. Right arrow, Space, ``n``
and Enter go forward; Left arrow, Backspace and ``p`` go back; Home and End go to the first and
last ply; Page Down and Page Up move ten plies; digits typed then Enter jump to that ply; ``q``,
Escape, Ctrl-C or Ctrl-D leave.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable

CLEAR = "\x1b[H\x1b[2J"

KEYS = {
    "\x1b[C": "next", "\x1bOC": "next", " ": "next", "n": "next", "l": "next",
    "\x1b[D": "back", "\x1bOD": "back", "\x7f": "back", "\x08": "back", "p": "back", "h": "back",
    "\x1b[H": "first", "\x1bOH": "first", "\x1b[1~": "first", "\x1b[7~": "first", "g": "first",
    "\x1b[F": "last", "\x1bOF": "last", "\x1b[4~": "last", "\x1b[8~": "last", "G": "last",
    "\x1b[6~": "down", "\x1b[5~": "up",
    "q": "quit", "Q": "quit", "\x1b": "quit", "\x03": "quit", "\x04": "quit",
    "\r": "enter", "\n": "enter",
}

HELP = ("\u2192 next  \u2190 back  Home/End first/last  PgUp/PgDn 10  "
        "N Enter: ply N  q quit")


def on_a_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def read_key(fd: int) -> str:
    """One key: a character, or a whole escape sequence (read until the terminal pauses)."""
    key = os.read(fd, 1).decode("latin-1")
    if key != "\x1b":
        return key or "\x04"
    while select.select([fd], [], [], 0.05)[0]:
        key += os.read(fd, 1).decode("latin-1")
        if len(key) > 2 and (key[-1].isalpha() or key[-1] == "~"):
            break
    return key


def step(frame: Callable[[int], str], first: int, last: int,
         write: Callable[[str], None], start: int | None = None) -> None:
    """Show ``frame(n)`` for one ply at a time between ``first`` and ``last``, moved by keys,
    until the person leaves."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    ply = first if start is None else start
    typed = ""
    try:
        tty.setcbreak(fd)
        while True:
            status = f"ply {ply} of {last}" + (f"  go to: {typed}_" if typed else "")
            write(f"{CLEAR}{frame(ply).rstrip()}\n\n{status}    {HELP}\n")
            while True:
                key = read_key(fd)
                action = KEYS.get(key)
                if key.isdigit():
                    typed = (typed + key)[-7:]
                    break
                if action == "enter" and typed:
                    ply, typed = min(max(int(typed), first), last), ""
                    break
                if action == "back" and typed:
                    typed = typed[:-1]
                    break
                moves = {"next": ply + 1, "back": ply - 1, "first": first, "last": last,
                         "down": ply + 10, "up": ply - 10, "enter": ply + 1}
                if action == "quit":
                    return
                if action in moves:
                    ply, typed = min(max(moves[action], first), last), ""
                    break
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        write("\n")
