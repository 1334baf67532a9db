"""The commands a player may mail the referee, one per line, besides the actions.

A command is a line of the player's own text that starts with ``#`` and a word of
:data:`COMMANDS`. Those that change a game (``#draw``, ``#accept``, ``#decline``, ``#undo``)
need the seat's key line and the ``#ply N`` guard, like an action; the others only answer, from
the seat's own view, and need the key. ``#new`` is sent with no game in the subject and the
player's own key (from ``referee allow``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gametool.referee.mail import MailRejected

COMMAND_LINE = re.compile(r"#\s*([a-z]+)\b(.*)", re.IGNORECASE)
NOT_COMMANDS = ("key", "ply", "join")
CHANGING = ("draw", "accept", "decline", "undo")
ANSWERING = ("show", "moves", "games", "standings", "help")
STARTING = ("new",)
PREPARING = ("if", "leave", "say", "digest")
COMMANDS = CHANGING + ANSWERING + STARTING + PREPARING
WITH_TEXT = ("new", "if", "say")  # commands whose argument keeps its letter case
MAX_COMMANDS = 20
MAX_ARGUMENT = 2000

HELP = """\
Commands, each on a line of its own, below your key line ('#key' and your key):

  #draw              offer a draw (with '#ply N'; in games that can end drawn)
  #accept            accept the draw offer or the request to take back (with '#ply N')
  #decline           decline it (with '#ply N')
  #undo              ask to take back your last turn (with '#ply N'); it happens when every
                     other seat accepts, and never past a chance action that told anything
  #show              your view of the position
  #show N            your view of the position after ply N (what you could see then)
  #moves             your legal actions when you are to move
  #games             your games, and whose turn it is in each
  #standings         the standings of every game (results and Elo ratings) and of your
                     tournaments (points and tie-breaks)
  #help              this list
  #say TEXT          a note to the other seats, kept in the record for you and the
                     referee ('#say all: TEXT': kept for every seat)
  #leave DAYS        take DAYS days of leave from now: your clock is paused in every game
                     (an allowance of days a year; every other seat is told)
  #if ACTION then ACTION
                     in a game of two seats without hidden information, while your opponent
                     is to move: your answer if their next action is the first one (several
                     lines allowed; the others are dropped); never across chance
  #digest daily      one mail a day listing every game waiting for your move (with your
                     view and its deadline) instead of a mail at each move; answer a game
                     with its tag from the digest on a line of its own, then its key line
  #digest off        a mail at each move again
  #new GAME vs ADDRESS[,ADDRESS...] [option=value...] [days=N]
                     start a game (subject without a game, your own key from the referee):
                     the others are invited and accept by replying '#join'

An action is sent as before: '#ply N' (N as in the last message), then one action per line.
'#draw' may follow the actions of your move, to offer a draw with it. An offer or a request
lapses with the next move.
"""

# Told in every seat's first mail. No line starts with '#', so sending it back changes nothing.
OPENING = (
    "Besides actions, you may mail these commands, each on a line of its own under your key\n"
    "line: '#draw' (offer a draw), '#accept' and '#decline' (answer an offer or a request),\n"
    "'#undo' (ask to take back your last turn), each with the '#ply N' line; '#show' (your\n"
    "view now, or '#show N' after ply N), '#moves' (your legal actions), '#games' (your\n"
    "games), '#standings' (your games and tournaments), '#leave DAYS' (pause your clock),\n"
    "'#say TEXT' (a note to the other seats), '#if ACTION then ACTION' (an answer prepared\n"
    "in advance), '#digest daily' or '#digest off' (one mail a day listing the games waiting\n"
    "for you, instead of a mail at each move) and '#help' (the whole list).")
"""What every seat's first mail of a game says of the mail commands (no line of it starts
with a hash sign: quoted back whole, it asks nothing)."""


@dataclass
class Command:
    """One mail command: its word (without the hash sign) and what follows it."""

    word: str
    argument: str = ""


def split(lines: list[str]) -> tuple[list[Command], list[str]]:
    """The commands among the player's lines, and the other lines (key, guard, actions)."""
    said: list[Command] = []
    rest: list[str] = []
    for line in lines:
        match = COMMAND_LINE.fullmatch(line)
        if match is None or match.group(1).lower() in NOT_COMMANDS:
            rest.append(line)
            continue
        word = match.group(1).lower()
        if word not in COMMANDS:
            raise MailRejected(f"no command '#{word[:30]}': send '#help' for the list")
        argument = match.group(2).strip()
        if len(argument) > MAX_ARGUMENT:
            raise MailRejected(f"'#{word}' is followed by more than {MAX_ARGUMENT} characters")
        if word == "show" and argument and not (argument.isdigit() and len(argument) <= 6):
            raise MailRejected(f"'#show {argument[:20]}': write '#show' alone, or '#show N' "
                               "with N the number of a ply")
        if word == "leave" and not (argument.isdigit() and len(argument) <= 3):
            raise MailRejected("write '#leave DAYS', DAYS a whole number of days")
        if word == "digest" and argument.lower() not in ("daily", "off"):
            raise MailRejected("write '#digest daily' (one mail a day listing the games "
                               "waiting for you) or '#digest off' (a mail at each move)")
        if word == "say" and not argument:
            raise MailRejected("'#say' alone: write '#say TEXT' (or '#say all: TEXT')")
        if word == "if" and not argument:
            raise MailRejected("'#if' alone: write '#if ACTION then ACTION'")
        if word not in WITH_TEXT + ("show", "leave", "digest") and argument and not (
                word in ("accept", "decline") and argument.lower() in ("draw", "undo")):
            raise MailRejected(f"'#{word}' takes nothing after it: write it alone on its line")
        said.append(Command(word, argument.lower() if word not in WITH_TEXT else argument))
        if len(said) > MAX_COMMANDS:
            raise MailRejected(f"more than {MAX_COMMANDS} commands in one mail")
    return said, rest


@dataclass
class NewGame:
    """What '#new' asks for."""

    game: str
    others: list[str]
    options: dict[str, str]
    days: int | None


NEW_GAME = re.compile(r"(\S+)\s+vs\s+(\S+)((?:\s+[^\s=]+=\S*)*)\s*", re.IGNORECASE)


def parse_new(argument: str) -> NewGame:
    match = NEW_GAME.fullmatch(argument)
    if match is None:
        raise MailRejected("write '#new GAME vs ADDRESS[,ADDRESS...] [option=value...]', e.g. "
                           "'#new chess vs ben@example.net'")
    others = [a.strip() for a in match.group(2).split(",") if a.strip()]
    options: dict[str, str] = {}
    days: int | None = None
    for pair in match.group(3).split():
        key, _eq, value = pair.partition("=")
        if key.lower() == "days":
            if not value.isdigit() or len(value) > 3 or not 1 <= int(value) <= 365:
                raise MailRejected(f"days={value[:20]!r}: give a whole number of days from 1 "
                                   "to 365")
            days = int(value)
            continue
        options[key] = value
    return NewGame(match.group(1).lower(), others, options, days)
