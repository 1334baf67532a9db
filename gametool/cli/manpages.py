"""Manual pages generated from one source: the Click help and each game's own text.

``gametool man --write DIR`` writes ``gametool.1``, one ``gametool-COMMAND.1`` per command and
one ``gametool-GAME.6`` per game into DIR (the project keeps them in ``man``). A test
regenerates them and fails when a page on disk is out of date. The pages are made from the
root command given to each function, so this module knows no command of its own.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import click

from gametool import __version__, games
from gametool.core import storage
from gametool.core.engine import OPTION_MAXIMUM, Game
from gametool.views.render import without_decisions
from notation import record as gtn

DATE = "2026-11-22"
SOURCE = f"gametool {__version__}"


def _escape(text: str) -> str:
    out = []
    for line in text.replace("\\", "\\e").split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def _paragraphs(text: str) -> list[str]:
    out: list[str] = []
    for block in text.strip().split("\n\n"):
        if not block.strip():
            continue
        out.append(".PP")
        out.append(_escape(" ".join(line.strip() for line in block.splitlines())))
    return out


def _verbatim(text: str) -> list[str]:
    return [".PP", ".nf", _escape(text.rstrip()), ".fi"]


def _header(name: str, section: int, title: str) -> list[str]:
    return [
        f'.TH {name.upper()} {section} "{DATE}" "{SOURCE}" '
        f'"{"gametool manual" if section == 1 else "gametool games"}"',
        ".SH NAME",
        f"{name} \\- {_escape(title)}",
    ]


def _option_lines(command: click.Command, ctx: click.Context) -> list[str]:
    lines: list[str] = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, help_text = record
        if isinstance(param, click.Argument) and not help_text:
            continue  # arguments are described in the text, not as empty entries
        lines += [".TP", f"\\fB{_escape(names)}\\fR", _escape(help_text or "")]
    return lines


EXAMPLES = "\b\nExamples:\n"


def _split_examples(text: str) -> tuple[str, str | None]:
    """The help text before its ``Examples:`` block, and that block's lines, dedented."""
    text = inspect.cleandoc(text)
    if EXAMPLES not in text:
        return text, None
    head, _, block = text.partition(EXAMPLES)
    lines = block.rstrip().split("\n")
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return head, "\n".join(line[indent:] for line in lines)


def command_page(cli: click.Group, name: str, command: click.Command,
                 group: click.Group | None = None, group_name: str | None = None) -> str:
    """The page of ``gametool NAME`` (``NAME`` may be ``referee new`` under a group), a command
    of the root command ``cli``."""
    # Under the group's context, as when the command runs (it gives the -h, --help names).
    parent = cli.make_context("gametool", [], resilient_parsing=True)
    if group is not None:
        parent = click.Context(group, info_name=group_name, parent=parent)
    ctx = click.Context(command, info_name=name.split()[-1], parent=parent)
    usage = " ".join(command.collect_usage_pieces(ctx))
    title = command.get_short_help_str(limit=120)
    lines = _header(f"gametool-{name.replace(' ', '-')}", 1, title)
    lines += [".SH SYNOPSIS", f"\\fBgametool {name}\\fR {_escape(usage)}", ".SH DESCRIPTION"]
    description, examples = _split_examples(command.help or "")
    lines += _paragraphs(description)
    if isinstance(command, click.Group):
        lines.append(".SH COMMANDS")
        for sub in sorted(command.commands):
            lines += [".TP", f"\\fB{sub}\\fR",
                      _escape(command.commands[sub].get_short_help_str(limit=120))]
    lines += [".SH OPTIONS"] + _option_lines(command, ctx)
    if examples is not None:
        lines += [".SH EXAMPLES"] + _verbatim(examples)
    lines += [".SH EXIT STATUS",
              "0 success; 1 the input was read but rejected; 2 a usage error.",
              ".SH SEE ALSO", "\\fBgametool\\fR(1)"]
    if isinstance(command, click.Group):
        lines[-1] += "".join(f", \\fBgametool-{name}-{sub}\\fR(1)"
                             for sub in sorted(command.commands))
    elif group_name is not None:
        lines[-1] += f", \\fBgametool-{group_name}\\fR(1)"
    return "\n".join(lines) + "\n"


def main_page(cli: click.Group) -> str:
    """The page of the root command ``cli``."""
    ctx = cli.make_context("gametool", [], resilient_parsing=True)
    lines = _header("gametool", 1, "play, check and replay games stored as text records")
    lines += [".SH SYNOPSIS", "\\fBgametool\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]",
              ".SH DESCRIPTION"]
    lines += _paragraphs(cli.help or "")
    lines.append(".SH COMMANDS")
    for name in sorted(cli.commands):
        command = cli.commands[name]
        lines += [".TP", f"\\fB{name}\\fR", _escape(command.get_short_help_str(limit=120))]
    lines += [".SH OPTIONS"] + _option_lines(cli, ctx)
    lines += [
        ".SH RECORDS",
        "A record (.gtn) holds tag pairs such as [Game \"colors\"] and [Players \"p1; p2\"], "
        "then one turn per line: the ply number, the seat, a colon and the actions "
        "(several separated by |), with comments in {} or after ;.",
        r"In a tag value, \e\e and \e\(dq stand for a backslash and a quote, \en, \er, \et "
        r"and \ef for control characters, and \eu{HEX} for any character; every value a "
        "command writes reads back exactly.",
        ".SH LIMITS",
        "What the reader accepts is bounded, and each bound is checked before the work it "
        "bounds: "
        f"a record file holds at most {storage.MAX_FILE_BYTES // (1024 * 1024)} MiB, "
        f"a line at most {gtn.MAX_LINE:,} characters beside its comment, "
        f"a tag name at most {gtn.MAX_TAG_NAME:,} characters, "
        f"a tag value at most {gtn.MAX_TAG_VALUE:,} characters (its line at most "
        f"{gtn.MAX_TAG_LINE:,}, room for a value written all in escapes), "
        f"a ply number at most {gtn.MAX_PLY_DIGITS} digits, "
        f"and a whole-number option at most {OPTION_MAXIMUM:,} unless the game names "
        "another bound (see each game's page). The seats and the plies of a record are bounded by "
        "the game. "
        "A record beyond a bound is refused with one line naming it. No command writes a "
        "record beyond these bounds: it refuses with one line and leaves the file as it was. "
        f"A comment holds at most {gtn.MAX_COMMENT:,} characters and the reason of an ending "
        f"{gtn.MAX_REASON:,}, so that any record read can be written back.",
        ".SH EXAMPLES",
        *_verbatim("gametool start colors -o game.gtn       # a new record\n"
                   "gametool moves game.gtn                 # the legal actions\n"
                   "gametool move game.gtn d4=R             # play one\n"
                   "gametool show game.gtn                  # the position\n"
                   "gametool play chess --vs mcts           # play at the terminal\n"
                   "gametool validate corpus/               # check every record of a folder\n"
                   "man gametool-belemmer                   # the rules of one game"),
        ".SH EXIT STATUS",
        "0 success; 1 the input was read but rejected (illegal or ambiguous action, invalid "
        "record, stale --expect-ply, game over) or a file could not be read or written (a file "
        "where a folder goes, a full or read-only disk); 2 a usage error (an unknown command or "
        "option, a missing or malformed argument, a folder given for a file, --from after --to). "
        "Every refusal is one line on stderr, 'gametool: WHAT', and a usage error 'gametool: "
        "usage: WHAT (see 'gametool COMMAND --help')'.",
        ".SH SEE ALSO",
        ", ".join(f"\\fBgametool-{n}\\fR(1)" for n in sorted(cli.commands)) + ", "
        + ", ".join(f"\\fBgametool-{g}\\fR(6)" for g in games.GAMES),
    ]
    return "\n".join(lines) + "\n"


def game_page(cls: type[Game]) -> str:
    info = cls.info()
    players = (str(info.min_players) if info.min_players == info.max_players
               else f"{info.min_players} to {info.max_players}")
    lines = _header(f"gametool-{cls.id}", 6, cls.name)
    lines += [".SH SYNOPSIS",
              f"\\fBgametool start {cls.id}\\fR [\\fB--players\\fR \\fIA,B,..\\fR] "
              "[\\fB--option\\fR \\fIK=V\\fR]...",
              ".SH DESCRIPTION",
              _escape(f"{cls.name}: {players} players; chance: {info.chance}; "
                      f"hidden information: {info.hidden}; status: {info.status}.")]
    lines += [".SH RULES"] + _paragraphs(without_decisions(cls.summary))
    lines += [".SH NOTATION"] + _verbatim(without_decisions(cls.notation))
    if cls.options:
        lines.append(".SH OPTIONS")
        for opt in cls.options:
            lines += [".TP", f"\\fB{_escape(opt.describe())}\\fR",
                      _escape(without_decisions(opt.help))]
    lines += [".SH SEE ALSO", "\\fBgametool\\fR(1), \\fBgametool-rules\\fR(1)"]
    return "\n".join(lines) + "\n"


def pages(cli: click.Group) -> dict[str, str]:
    """Every page of the root command ``cli`` and of the games, by file name."""
    out = {"gametool.1": main_page(cli)}
    for name, command in cli.commands.items():
        out[f"gametool-{name}.1"] = command_page(cli, name, command)
        if isinstance(command, click.Group):
            for sub, subcommand in command.commands.items():
                out[f"gametool-{name}-{sub}.1"] = command_page(cli, f"{name} {sub}", subcommand,
                                                               command, name)
    for cls in games.all_classes():
        out[f"gametool-{cls.id}.6"] = game_page(cls)
    return out


def page_name(cli: click.Group, page: str | None) -> str:
    """The file name of the page PAGE names: a command ('play', 'referee-new', 'referee new'),
    a game id or alias, or a page's own name ('gametool-play', 'gametool-belemmer.6')."""
    from gametool.core.errors import GameError
    from gametool.core.suggest import hint

    if page is None or page.strip().lower() in ("", "gametool", "gametool.1"):
        return "gametool.1"
    key = page.strip().lower().replace(" ", "-")
    key = key.removeprefix("gametool-")
    key = key.removesuffix(".1").removesuffix(".6")
    commands = [name for name in cli.commands]
    for name, command in cli.commands.items():
        if isinstance(command, click.Group):
            commands += [f"{name}-{sub}" for sub in command.commands]
    if key in commands:
        return f"gametool-{key}.1"
    try:
        return f"gametool-{games.canonical_id(key)}.6"
    except GameError:
        pass
    raise GameError(f"no manual page {page!r}{hint(key, commands + list(games.GAMES))} "
                    "(pages: gametool, a command, a game)")


def plain(page: str) -> str:
    """A page as plain text, for a system with no man: headings, paragraphs and entries."""
    out: list[str] = []
    for line in page.split("\n"):
        if line.startswith(".SH "):
            out += ["", line[4:].strip('"')]
        elif line.startswith((".PP", ".TP")):
            out.append("")
        elif line.startswith(".TH") or line in (".nf", ".fi"):
            continue
        else:
            text = re.sub(r"\\f[BIR]", "", line.removeprefix("\\&"))
            text = text.replace("\\-", "-").replace("\\e", "\\")
            out.append("    " + text)
    return "\n".join(out).strip("\n") + "\n"


def open_page(cli: click.Group, page: str | None) -> None:
    """Show the page PAGE names: through ``man -l`` (its pager, its width), or as plain text
    through the pager where there is no man."""
    import os
    import shutil
    import subprocess
    import tempfile

    from gametool.core.interrupt import pager_owns_ctrl_c

    name = page_name(cli, page)
    if name.endswith(".6"):
        text = game_page(games.game_class(name[len("gametool-"):-2]))
    elif name == "gametool.1":
        text = main_page(cli)
    else:
        text = pages(cli)[name]
    program = shutil.which("man")
    if program is not None:
        with tempfile.TemporaryDirectory(prefix="gametool-man-") as folder:
            path = os.path.join(folder, name)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            with pager_owns_ctrl_c():
                done = subprocess.run([program, "-l", path], check=False)
        if done.returncode in (0, 141):  # 141: the pager was left before the end
            return
    with pager_owns_ctrl_c():
        click.echo_via_pager(plain(text))


def install(cli: click.Group, prefix: str | None = None) -> str:
    """Write every page into PREFIX/share/man/man1 and man6 (default: this environment's
    prefix), as 'pip install .' does; return the folder."""
    from gametool.core.errors import GameError

    root = Path(sys.prefix if prefix is None else prefix) / "share" / "man"
    try:
        for name, text in pages(cli).items():
            folder = root / f"man{name.rsplit('.', 1)[1]}"
            folder.mkdir(parents=True, exist_ok=True)
            storage.write_atomic(str(folder / name), text)
    except OSError as exc:
        raise GameError(f"{root}: cannot write the manual pages: {exc.strerror}") from None
    return str(root)


def write(cli: click.Group, folder: Path) -> list[str]:
    """Write the pages that differ from those in ``folder``; return their names."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages(cli).items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(name)
    return written

