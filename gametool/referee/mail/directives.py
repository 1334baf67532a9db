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

from gametool.records.notes import MAX_NOTE
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

@dataclass(frozen=True)
class Directive:
    """One line of the table of mail commands: how it is written, what ``#help`` says of it,
    and the few words the opening mail gives it (None: the opening mail leaves it out)."""

    usage: str
    text: str
    brief: str | None = None


MAX_SAY = MAX_NOTE  # the longest note '#say' takes, in characters

TABLE: tuple[Directive, ...] = (
    Directive("#draw", "offer a draw (with '#ply N'; in games that can end drawn)",
              "offer a draw"),
    Directive("#accept", "accept the draw offer or the request to take back (with '#ply N')",
              "answer an offer or a request"),
    Directive("#decline", "decline it (with '#ply N')"),
    Directive("#undo", "ask to take back your last turn (with '#ply N'); it happens when every "
              "other seat accepts, and never past a chance action that told anything",
              "ask to take back your last turn"),
    Directive("#show", "your view of the position", "your view now"),
    Directive("#show N", "your view of the position after ply N (what you could see then)",
              "your view after ply N"),
    Directive("#moves", "your legal actions when you are to move", "your legal actions"),
    Directive("#games", "your games, and whose turn it is in each", "your games"),
    Directive("#standings", "the standings of every game (results and Elo ratings) and of your "
              "tournaments (points and tie-breaks)", "your games and tournaments"),
    Directive("#help", "this list", "the whole list"),
    Directive("#say TEXT", f"a note of at most {MAX_SAY} characters to the other seats, kept in "
              "the record for you and the referee ('#say all: TEXT': kept for every seat)",
              "a note to the other seats"),
    Directive("#leave DAYS", "take DAYS days of leave from now (DAYS in digits 0-9, 1 to 365): "
              "your clock is paused in every game; each player has an allowance of days a "
              "calendar year (30 unless the referee says otherwise), counted in the year the "
              "leave starts; every other seat is told", "pause your clock"),
    Directive("#if ACTION then ACTION", "in a game of two seats without hidden information, "
              "while your opponent is to move: your answer if their next action is the first "
              "one (several lines allowed, one per action of theirs; the others are dropped); "
              "never across chance, so not after a move of yours that chance answers",
              "an answer prepared in advance"),
    Directive("#digest daily", "one mail a day listing every game waiting for your move (with "
              "your view and its deadline) instead of a mail at each move; answer a game with "
              "its tag from the digest on a line of its own, then its key line",
              "one mail a day listing the games waiting for you"),
    Directive("#digest off", "a mail at each move again", "a mail at each move again"),
    Directive("#new GAME vs ADDRESS[,ADDRESS...] [option=value...] [days=N]",
              "start a game (subject without a game, your own key from the referee): the others "
              "are invited and accept by replying '#join'"),
)
"""Every mail command: ``#help``, the opening mail, ``referee inbox --help`` (and so its man
page) and the README's list are made from it."""


def _wrapped(text: str, width: int, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False, break_long_words=False)


def listing(width: int = 92) -> str:
    """The table as a list: each command, then what it does (no line starts with '#' but
    the commands' own)."""
    lines = []
    for item in TABLE:
        lead = f"  {item.usage}"
        if len(lead) <= 20:
            body = _wrapped(item.text, width, " " * 21)
            lines.append(lead.ljust(21) + body[0].lstrip())
            lines.extend(body[1:])
        else:
            lines.append(lead)
            lines.extend(_wrapped(item.text, width, " " * 21))
    return "\n".join(lines)


HELP = ("Commands, each on a line of its own, below your key line ('#key' and your key):\n\n"
        + listing() + "\n\n"
        "An action is sent as before: '#ply N' (N as in the last message), then one action per "
        "line.\n'#draw' may follow the actions of your move, to offer a draw with it. An offer "
        "or a request\nlapses with the next move, and so does one made with a move that an "
        "answer prepared in\nadvance follows.\n")

# Told in every seat's first mail. No line starts with '#', so sending it back changes nothing.
OPENING = "\n".join(_wrapped(
    "Besides actions, you may mail these commands, each on a line of its own under your key "
    "line ('#draw', '#accept', '#decline' and '#undo' with the '#ply N' line): "
    + ", ".join(f"'{item.usage}' ({item.brief})" for item in TABLE if item.brief)
    + ".", 90, ""))
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
        if word == "show" and argument and not (argument.isascii() and argument.isdigit()
                                                and len(argument) <= 6):
            raise MailRejected(f"'#show {argument[:20]}': write '#show' alone, or '#show N' "
                               "with N the number of a ply")
        if word == "leave" and not (argument.isascii() and argument.isdigit()
                                    and len(argument) <= 3):
            raise MailRejected("write '#leave DAYS', DAYS a whole number of days in the digits "
                               "0 to 9")
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
