"""The player's own lines in a mail, and the key, guard and actions among them.

A reply often carries the message it answers. Only what the player wrote counts: lines quoted
with ``>`` are skipped, and reading stops at a signature (``-- ``) or at the first sign of a
pasted original: an attribution (``On ... wrote:``), ``-----Original Message-----``, a rule of
underscores, or a header block (``From:`` followed by ``Sent:`` or ``Date:``). In what is left
the player writes ``#key KEY``, then ``#ply N``, then one action per line up to a blank line.
A seat's first mail in a game whose seed is drawn jointly also holds ``#join HEX``, its
contribution to the seed, before any ``#ply``.
Nothing is guessed: a mail without those lines is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gametool.referee.mail import MailRejected

KEY_LINE = re.compile(r"#\s*key\b(.*)", re.IGNORECASE)
PLY_LINE = re.compile(r"#\s*ply\b(.*)", re.IGNORECASE)
JOIN_LINE = re.compile(r"#\s*join\b(.*)", re.IGNORECASE)
PLY_NUMBER = re.compile(r"\s*(\d+)\s*")
MAX_ACTION = 500      # characters in one action line
MAX_ACTIONS = 1000    # action lines in one mail

ORIGINAL = re.compile(r"-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|"
                      r"message d'origine|mensaje original)\s*-{2,}|begin forwarded message:",
                      re.IGNORECASE)
RULE = re.compile(r"_{4,}")
HEADER_START = re.compile(r"\*?(from|von|de|van)\s?:\*?\s.*", re.IGNORECASE)
HEADER_NEXT = re.compile(r"\*?(sent|date|gesendet|datum|envoyé|enviado|to|an|à|para)\s?:\*?\s.*",
                         re.IGNORECASE)


def own_lines(text: str) -> list[str]:
    """The lines the player wrote, before any quoted or pasted original."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    for index, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith(">"):
            continue
        if _starts_an_original(lines, index, raw, line):
            break
        out.append(line)
    return out


def _starts_an_original(lines: list[str], index: int, raw: str, line: str) -> bool:
    first = line[:1]
    if first in ("-", "_", "b", "B") and (raw.rstrip() in ("--", "-- ") or ORIGINAL.fullmatch(line)
                                          or RULE.fullmatch(line)):
        return True
    if line.endswith(":") and is_attribution(line):
        return True
    if first in ("o", "O") and _attribution_over_two_lines(lines, index):
        return True
    return bool(HEADER_START.fullmatch(line)) and any(
        HEADER_NEXT.fullmatch(following.strip()) for following in lines[index + 1:index + 4])


def is_attribution(line: str) -> bool:
    """``On <date>, <name> wrote:`` and its common translations (plain string tests: linear)."""
    low = line.lower()
    if len(low) > 600 or not low.endswith(":"):
        return False
    head = low[:-1].rstrip()
    return ((head.endswith(" wrote") and (low.startswith("on ") or "@" in low))
            or (low.startswith("am ") and " schrieb " in f"{head} ")
            or (low.startswith("le ") and head.endswith(" a écrit"))
            or (low.startswith("el ") and head.endswith(" escribió")))


def _attribution_over_two_lines(lines: list[str], index: int) -> bool:
    """``On Sun, 22 Nov 2026, Referee <ref@x`` then ``> wrote:`` as mail clients wrap it."""
    line = lines[index].strip()
    if not line.lower().startswith("on ") or index + 1 >= len(lines):
        return False
    following = lines[index + 1].strip().lower()
    return len(following) <= 400 and following.endswith("wrote:")


@dataclass
class Instructions:
    """What a player's mail asks: the ply its first action must get and the actions."""

    ply: int
    actions: list[str]


def find_key(lines: list[str]) -> str:
    """The text of the one ``#key`` line before the ``#ply`` guard."""
    found: list[str] = []
    guard_seen = False
    for line in lines:
        if PLY_LINE.fullmatch(line):
            guard_seen = True
            continue
        match = KEY_LINE.fullmatch(line)
        if match and guard_seen:
            raise MailRejected("the '#key' line must come before '#ply N': write your key "
                               "line first")
        if match:
            found.append(match.group(1).strip())
    if not found:
        raise MailRejected("no '#key' line: write '#key' and the key you were sent, on a line "
                           "of its own, before '#ply N'")
    if len(found) > 1:
        raise MailRejected("more than one '#key' line: write exactly one")
    return found[0]


def has_guard(lines: list[str]) -> bool:
    """Whether the player's lines hold a ``#ply`` guard (a mail may only join)."""
    return any(PLY_LINE.fullmatch(line) for line in lines)


def find_join(lines: list[str]) -> str | None:
    """The text of the one ``#join`` line before the ``#ply`` guard, or None."""
    found: list[str] = []
    for line in lines:
        if PLY_LINE.fullmatch(line):
            break
        match = JOIN_LINE.fullmatch(line)
        if match:
            found.append(match.group(1).strip())
    if len(found) > 1:
        raise MailRejected("more than one '#join' line: write exactly one")
    return found[0] if found else None


def find_instructions(lines: list[str], max_ply: int) -> Instructions:
    """The ``#ply N`` guard after the key line and the action lines below it."""
    guard: int | None = None
    actions: list[str] = []
    for line in lines:
        if guard is None:
            match = PLY_LINE.fullmatch(line)
            if match:
                guard = _ply_number(match.group(1), max_ply)
            continue
        if not line:
            if actions:
                break
            continue
        if KEY_LINE.fullmatch(line) or PLY_LINE.fullmatch(line) or JOIN_LINE.fullmatch(line):
            raise MailRejected("a '#key', '#join' or '#ply' line among the actions: write "
                               "'#key' (and '#join'), then '#ply N', then the actions")
        if len(line) > MAX_ACTION:
            raise MailRejected(f"an action line is longer than {MAX_ACTION} characters")
        actions.append(line)
        if len(actions) > MAX_ACTIONS:
            raise MailRejected(f"more than {MAX_ACTIONS} action lines")
    if guard is None:
        raise MailRejected("no '#ply N' line: write '#ply N' (N as in the last message), "
                           "then one action per line")
    if not actions:
        raise MailRejected(f"no action after '#ply {guard}': write one action per line")
    return Instructions(guard, actions)


def _ply_number(text: str, max_ply: int) -> int:
    match = PLY_NUMBER.fullmatch(text)
    if match is None:
        raise MailRejected("the '#ply' line holds no number: write '#ply N' with N as in the "
                           "last message")
    digits = match.group(1).lstrip("0") or "0"
    if len(digits) > len(str(max_ply)) or int(digits) > max_ply:
        shown = f"'#ply {digits}'" if len(digits) <= 12 else f"a '#ply' of {len(digits)} digits"
        raise MailRejected(f"{shown} is beyond the last ply of this game ({max_ply})")
    if int(digits) < 1:
        raise MailRejected("'#ply 0': plies are numbered from 1")
    return int(digits)
