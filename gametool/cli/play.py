"""Playing at the terminal: hot seat, or against computer players, one turn at a time.

The record is saved after every turn, so a game can be left with ``quit`` and resumed by
playing the same file again. The board is drawn for the seat to move (with computer players:
for the person's seat), so nothing hidden from that seat is shown. Tab completes the legal
actions (readline); a rejected action is explained, with the closest legal actions.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click

from gametool.core import storage
from gametool.core.chance import new_seed
from gametool.core.engine import CHANCE, RESIGN
from gametool.core.errors import GameError
from gametool.core.suggest import hint
from gametool.players import computer as players
from gametool.records import Session
from gametool.views import render

HELP = """\
Type an action to play it (Tab completes; 'moves' lists them), or one of:
  moves    the legal actions of the seat to move
  undo     take back the last turn (yours, and the computer's reply)
  resign   give up the game
  help     this text
  quit     save and stop; 'gametool play FILE' goes on later
"""


CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Clears the screen and the terminal's scrollback, so an earlier seat's hand cannot be read
there."""


def _on_a_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass
class Table:
    """A game at the terminal: its record, its file and who plays each seat."""

    session: Session
    path: str
    computers: dict[int, str] = field(default_factory=dict)
    player_seed: str = field(default_factory=new_seed)
    budget: int | None = None
    colour: bool = False
    think: float | None = players.DEFAULT_THINK
    again: str = ""
    """The options to give 'gametool play FILE' to go on as now (beyond the record's own)."""
    read_line: Callable[[str], str] = input
    write: Callable[[str], None] = click.echo
    unicode: bool = False
    screen: bool = field(default_factory=_on_a_terminal)
    """On a terminal: in hot seat with hidden information, the screen is cleared between two
    seats' views and the next seat presses Enter before its view is drawn."""
    private_to: str | None = None

    def __post_init__(self) -> None:
        if self.colour and self.write is click.echo:  # --color always keeps it in a pipe
            self.write = functools.partial(click.echo, color=True)

    # -- drawing -------------------------------------------------------------------------------

    def paint(self, text: str, **style: Any) -> str:
        return click.style(text, **style) if self.colour else text

    def viewer(self) -> str | None:
        """The seat whose view is drawn: the person to move, else the only person at the table."""
        to_move = self.session.to_move()
        people = [i for i in range(len(self.session.names)) if i not in self.computers]
        if to_move is not None and to_move != CHANCE and to_move not in self.computers:
            return self.session.names[to_move]
        if self.computers and len(people) == 1:
            return self.session.names[people[0]]
        return None

    def draw(self) -> None:
        from gametool.views import term

        text = render.show_text(self.session, None, self.viewer() or "spectator", None,
                                term.painter(self.colour), self.unicode, term.WIDTH)
        self.write(text.rstrip("\n"))

    def hand_over(self) -> bool:
        """Before another seat's view is drawn in hot seat with hidden information: clear the
        screen (the last seat's hand goes) and, for a seat, wait for it to press Enter. False
        when the person quits there."""
        session = self.session
        hides = bool(session.game.hidden) and len(session.names) > 1 and not self.computers
        if not (self.screen and hides):
            return True
        viewer = self.viewer()
        if viewer is not None:  # a view that shows no more than a spectator's is no secret
            game, state = session.game, session.state
            seat = session.seat_index(viewer)
            if game.view(state, seat) == game.view(state, None):
                viewer = None
        if viewer == self.private_to:
            return True
        if self.private_to is not None:
            self.write(CLEAR)
        self.private_to = viewer
        if viewer is None:
            return True
        try:
            line = self.read_line(_for_readline(self.paint(
                f"{viewer}'s turn: the screen is hidden; press Enter, {viewer} ",
                fg="green", bold=True)))
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        if line.strip().lower() in ("quit", "exit", "q"):
            self.save()
            self.say(f"saved {self.path}; go on with: gametool play {self.path}")
            return False
        self.write(CLEAR)
        return True

    def say(self, text: str) -> None:
        self.write(self.paint(text, fg="yellow"))

    def complain(self, text: str) -> None:
        self.write(self.paint(render.without_decisions(text), fg="red"))

    # -- the record ----------------------------------------------------------------------------

    def save(self) -> None:
        storage.write_atomic(self.path, self.session.text())

    def legal_texts(self) -> list[str]:
        game, state = self.session.game, self.session.state
        to_move = game.to_move(state)
        if to_move is None:
            return []
        if to_move == CHANCE:
            return [game.format_action(state, a) for a in game.chance_outcomes(state) or []]
        return [game.format_action(state, a) for a in game.legal_actions(state)]

    def announce(self, first: int) -> None:
        """Print the plies from ``first`` on, as the person at the table may read them."""
        from gametool.cli.commands.common import ply_lines

        for item in ply_lines(self.session, first, self.viewer()):
            self.write(f"{item['ply']}. {item['seat']}: {item['action']}")

    # -- turns ---------------------------------------------------------------------------------

    def computer_turn(self, seat: int) -> None:
        from gametool.players import selfplay

        first = self.session.ply
        selfplay.play_turn(self.session, self.computers[seat], self.player_seed, self.budget,
                           think=self.think)
        self.save()
        self.announce(first)

    def person_turn(self) -> bool:
        """Read one line from the seat to move; False when the person quits."""
        session = self.session
        to_move = session.to_move()
        name = session.seat_name(to_move) or ""
        completions = self.legal_texts()
        _complete_with(completions)
        try:
            line = self.read_line(_for_readline(self.paint(f"{name}> ", fg="green", bold=True)))
        except EOFError:
            self.write("")
            line = "quit"
        except KeyboardInterrupt:
            self.write("")
            line = "quit"
        text = " ".join(line.split())
        word = text.lower()
        if not text:
            return True
        if word in ("quit", "exit", "q"):
            self.save()
            self.say(f"saved {self.path}; go on with: {self.resume_command()}")
            return False
        if word in ("help", "?"):
            self.write(HELP.rstrip("\n"))
            return True
        if word == "moves":
            self.write("\n".join(completions) if completions else "(no legal action)")
            return True
        if word == "undo":
            self.undo()
            return True
        if word == "resign":
            text = RESIGN
        first, before = session.ply, session.text()
        try:
            session.play([text], None)
        except GameError as exc:
            self.reload(before)  # the session may hold part of the rejected turn
            self.complain(f"{exc.message}{hint(text, completions)}")
            return True
        self.save()
        self.announce(first)  # the action as written, and what chance did after it
        return True

    def resume_command(self) -> str:
        """The command that goes on with this game as it is played now."""
        import shlex

        return f"gametool play {shlex.quote(self.path)}{self.again}"

    def reload(self, text: str) -> None:
        from gametool.records import load_one

        self.session = load_one(text, self.path)

    def undo(self) -> None:
        """Take back turns until a person is to move again, before their last turn."""
        from gametool.records import undo as taking

        session = self.session
        try:
            taking.check_local(session)
            count = taking.last_turn_plies(session)
            while True:
                if count == 0:
                    raise GameError("nothing to take back")
                after = taking.take_back(session, count)
                seat = after.to_move()
                if seat is not None and seat != CHANCE and seat not in self.computers:
                    break
                count += taking.last_turn_plies(after)
        except GameError as exc:
            self.complain(f"cannot take back: {exc.message}")
            return
        self.session = after
        self.save()
        self.say(f"took back {count} {'ply' if count == 1 else 'plies'}")

    def run(self) -> None:
        """Play until the game ends or the person quits."""
        shown = -1
        while True:
            session = self.session
            to_move = session.to_move()
            if to_move is not None and to_move in self.computers:
                self.computer_turn(to_move)
                continue
            if shown != session.ply:
                if not self.hand_over():
                    return
                self.write("")
                self.draw()
                shown = session.ply
            if to_move is None:
                self.say(f"game over; the record is in {self.path}")
                return
            if not self.person_turn():
                return


def _for_readline(prompt: str) -> str:
    """Mark a prompt's colour codes as taking no room (readline's \\001 and \\002), so that
    editing the line keeps the cursor in its place."""
    if not sys.stdin.isatty():
        return prompt  # no readline reads a pipe
    return re.sub(r"(\x1b\[[0-9;]*m)", "\x01\\1\x02", prompt)


def _complete_with(texts: list[str]) -> None:
    """Let readline's Tab complete the whole line to one of ``texts``."""
    try:
        import readline
    except ImportError:  # no readline on this platform: play on without Tab
        return
    matches: list[str] = []

    def complete(prefix: str, index: int) -> str | None:
        if index == 0:
            key = prefix.lower()
            words = ["moves", "undo", "help", "resign", "quit"]
            matches[:] = [t for t in texts + words if t.lower().startswith(key)]
        return matches[index] if index < len(matches) else None

    readline.set_completer_delims("")
    readline.set_completer(complete)
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


def free_name(name: str) -> str:
    """``name``, or ``stem-2.ext``, ``stem-3.ext``, ... if it is taken."""
    stem, dot, ext = name.rpartition(".")
    candidate, n = name, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = f"{stem}-{n}{dot}{ext}"
    return candidate


COMPUTER_TAG = "Computer"
"""The tag that names the seats a computer player plays, and which player: "p2=mcts; p3=random"."""


def computer_tag(names: list[str], computers: dict[int, str]) -> str | None:
    """The value of the Computer tag for ``computers`` (None: every seat is a person)."""
    if not computers:
        return None
    return "; ".join(f"{names[seat]}={kind}" for seat, kind in sorted(computers.items()))


def computers_of(session: Session) -> dict[int, str]:
    """The computer seats that the record's Computer tag names (none without the tag)."""
    value = session.record.get(COMPUTER_TAG)
    if value is None or not value.strip():
        return {}
    keys = [n.lower() for n in session.names]
    computers: dict[int, str] = {}
    for item in value.split(";"):
        seat, eq, kind = item.strip().rpartition("=")
        if not eq or seat.strip().lower() not in keys or kind.strip().lower() not in players.KINDS:
            raise GameError(f"[{COMPUTER_TAG} \"{value}\"]: write SEAT=PLAYER; ..., with a seat "
                            f"of the record ({', '.join(session.names)}) and a player "
                            f"({', '.join(players.KINDS)})")
        computers[keys.index(seat.strip().lower())] = kind.strip().lower()
    if len(computers) == len(session.names):
        raise GameError(f"[{COMPUTER_TAG} \"{value}\"]: every seat is a computer's; "
                        "'gametool selfplay' plays such games")
    return computers


def computer_seats(names: list[str], vs: str | None, as_seat: str | None) -> dict[int, str]:
    """With ``vs``, every seat but the person's (``as_seat``, by default the first) is played
    by the computer player ``vs``."""
    if vs is None:
        if as_seat is not None:
            raise GameError("--as goes with --vs (in a hot-seat game every seat is a person)")
        return {}
    if vs not in players.KINDS:
        raise GameError(f"unknown computer player {vs!r}{hint(vs, players.KINDS)}")
    person = 0
    if as_seat is not None:
        keys = [n.lower() for n in names]
        if as_seat.lower() not in keys:
            raise GameError(f"no seat {as_seat!r} in this game{hint(as_seat, names)} "
                            f"(seats: {', '.join(names)})")
        person = keys.index(as_seat.lower())
    return {i: vs for i in range(len(names)) if i != person}
