"""The README is a test: every ```sh block of README.md runs, in order, in a fresh folder.

Each block runs through bash with the installed ``gametool`` on the PATH, in a temporary folder
that holds copies of the shipped ``sample_games/`` and ``docs/`` (so the README's paths work as
written and nothing of the checkout changes), with HOME set to that folder. The blocks run as
in one shell session: the shell variables (in lower case) that a block sets are set again in
the blocks after it. Each command of a block (a line, with its ``\\`` continuations, a whole
``for``/``while ... done`` or a here-document) must succeed, unless the comment lines under it
show the one-line error it prints (``# gametool: ...``): then it must fail with exactly that
line. Other comment lines under a command (from the first column) show what it prints: each
must be a line of its output, in that order (blanks compared as one, ``...`` for lines left
out), on stderr when the first of them is ``# stderr:``. A comment ``prints "X"`` on a
command's line asks for X in what it prints. A line with
``<Tab>`` is asked of the shell completion instead: what the comment names must be among the
completions.

An HTML comment just before a block says how to run it:

- ``<!-- readme-test: slow -->``: run only in the slow suite (``-m slow``);
- ``<!-- readme-test: terminal (keys: K1 K2 ...) -->``: each command runs in a pseudo-terminal,
  and the keys named (a character, or Right, Left, Home, End, Space, Enter) are typed in turn,
  each once the screen has settled; each key but the last must draw something, the command
  must then end with status 0, and its ``prints`` are looked for in the whole screen output;
- ``<!-- readme-test: installed -->``: the block installs gametool first; the test runs what
  follows the install on each line (gametool is installed already), but not the test suite.

No block is skipped: an example too slow for the default suite is marked ``slow``.

Two services are real and local, and the README's addresses for them are rewritten, the only
changes made to its text: a real SMTP server (aiosmtpd) runs on 127.0.0.1 for the whole run and
``mail.example.org:587`` becomes its address; a command that names it must leave no message
unsent in its ``--outbox``, every message it wrote must have arrived at that server (by
Message-ID), and every address it names (but its ``--from``) must be among their recipients.
Such commands run one at a time, to tell their messages apart. In a block that starts ``dask
scheduler``, the port ``8786`` becomes a free port, so that two runs on one machine do not meet.
Every process a block starts in the background is killed when the block ends (the block runs in
a process group of its own).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"<!--\s*readme-test:\s*(\w[\w-]*)\s*(?:\((.*?)\))?\s*-->")
OPENING = ("while ", "for ", "if ", "until ", "case ")
CLOSING = ("done", "fi", "esac")
HEREDOC = re.compile(r"(?<!<)<<-?\s*(['\"]?)(\w+)\1")
SMTP_HOST = "mail.example.org:587"
DASK_PORT = "8786"
KEYS = {"Right": "\x1b[C", "Left": "\x1b[D", "Home": "\x1b[H", "End": "\x1b[F", "Space": " ",
        "Enter": "\r"}
VARIABLE = re.compile(r"[a-z][a-z0-9_]*")


@dataclass
class Command:
    line: int  # line number in README.md
    text: str  # the shell text, continuations joined
    error: list[str] = field(default_factory=list)  # the comment lines under it: stderr shown
    prints: list[str] = field(default_factory=list)
    output: list[str] = field(default_factory=list)  # the comment lines under it: its output
    stream: str = "stdout"  # "stderr" when those lines follow "# stderr:"


@dataclass
class Block:
    line: int
    mode: str  # "run", "slow", "terminal" or "installed"
    reason: str
    commands: list[Command]


def _comment(text: str) -> str | None:
    """The comment of a shell line (the text after a '#' that starts a word outside quotes),
    as written, or None."""
    quote = ""
    for index, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or text[index - 1].isspace()):
            return text[index + 1:].strip()
    return None


def parse_blocks(text: str) -> list[Block]:
    """The ```sh blocks of the README in order, with their markers, cut into commands."""
    lines = text.splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        if stripped != "```sh":
            index += 1
            continue
        mode, reason = "run", ""
        back = index - 1
        while back >= 0 and not lines[back].strip():
            back -= 1
        found = MARKER.search(lines[back]) if back >= 0 else None
        if found:
            mode, reason = found.group(1), found.group(2) or ""
        start = index + 1
        end = start
        while lines[end].strip() != "```":
            end += 1
        indent = len(lines[index]) - len(lines[index].lstrip())
        body = [(n + 1, line[indent:]) for n, line in enumerate(lines[start:end], start=start)]
        blocks.append(Block(index + 1, mode, reason, _commands(body)))
        index = end + 1
    return blocks


def _commands(body: list[tuple[int, str]]) -> list[Command]:
    out: list[Command] = []
    pending: Command | None = None
    depth = 0
    heredoc = ""  # the word that ends the here-document being read
    for number, raw in body:
        line = raw.rstrip()
        if heredoc:
            assert pending is not None
            pending.text += "\n" + line
            if line.strip() == heredoc:
                heredoc = ""
                if depth == 0:
                    pending = None
            continue
        if pending is not None and (pending.text.endswith("\\") or depth > 0):
            pending.text += "\n" + line
        elif not line.strip():
            continue
        elif line.lstrip().startswith("#"):
            note = line.lstrip()[1:].strip()
            if not line.startswith("#"):
                continue  # an indented comment goes on the comment of the line above
            if out and not out[-1].output and (out[-1].error or note.startswith("gametool:")):
                out[-1].error.append(note)
            elif out and not out[-1].output and note == "stderr:":
                out[-1].stream = "stderr"
            elif out:
                out[-1].output.append(note)
            continue
        else:
            pending = Command(number, line)
            out.append(pending)
        stripped = line.strip()
        depth += stripped.startswith(OPENING)
        depth -= stripped.split(";")[0].strip() in CLOSING or stripped.startswith(CLOSING)
        comment = _comment(line) or ""
        pending.prints += re.findall(r'\bprints "([^"]*)"', comment)
        opened = HEREDOC.search(line.split(" #", 1)[0])
        if opened:
            heredoc = opened.group(2)
        elif not pending.text.endswith("\\") and depth == 0:
            pending = None
    return out


def _environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(folder)
    env.pop("GAMETOOL_SMTP_USER", None)
    env.pop("GAMETOOL_SMTP_PASSWORD", None)
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    return env


def _installed(text: str) -> str | None:
    """What an install line runs once gametool is installed; None for the test suite itself."""
    rest = re.split(r"pip install [^&]*&&\s*", text)[-1]
    return None if re.match(r"python3? -m pytest", rest) else rest


def _completion(command: Command, folder: Path, env: dict[str, str]) -> str | None:
    """Ask the shell completion what <Tab> offers on the command's line: a failure or None."""
    typed = command.text.split("<Tab>")[0]
    words = shlex.split(typed)
    if typed.endswith(" "):
        words.append("")
    shown = re.findall(r"[\w-]+", (command.text.split("#", 1) + [""])[1])
    run = subprocess.run(
        ["gametool"], cwd=folder, capture_output=True, text=True, timeout=60,
        env={**env, "_GAMETOOL_COMPLETE": "bash_complete",
             "COMP_WORDS": " ".join(shlex.quote(w) if w else "" for w in words),
             "COMP_CWORD": str(len(words) - 1)})
    offered = [line.split(",", 1)[1] for line in run.stdout.splitlines() if "," in line]
    kinds = {line.split(",", 1)[0] for line in run.stdout.splitlines()}
    if run.returncode != 0:
        return f"completion failed (exit {run.returncode}): {run.stderr.strip()}"
    if "file" in shown and "file" in kinds:
        return None
    if shown and shown[-1] in offered:
        return None
    if "seats" in shown and offered:
        return None
    if "actions" in shown and offered:
        return None
    return f"completion offered {offered[:8]} ({sorted(kinds)}), the README names {shown}"


def _keep_variables(state: Path) -> str:
    """Shell text that writes the session's own variables (lower case) to ``state``."""
    return (f"for _v in $(compgen -v); do [[ $_v =~ ^{VARIABLE.pattern}$ ]] && declare -p $_v; "
            f"done >'{state}' 2>/dev/null\n")


def _script(commands: list[tuple[int, str]], out: Path, state: Path) -> str:
    parts = ["exec </dev/null", f"[ -f '{state}' ] && . '{state}'"]
    for number, (_line, text) in enumerate(commands):
        parts.append(f"{{\n{text}\n}} >'{out}/{number}.out' 2>'{out}/{number}.err'\n"
                     f"echo $? >'{out}/{number}.rc'")
    return "\n".join(parts) + "\n" + _keep_variables(state)


def _normal(text: str) -> str:
    return " ".join(text.split())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the block's shell and everything it started in the background."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


def _run_block(script: str, folder: Path, env: dict[str, str]) -> None:
    with subprocess.Popen(["bash", "-c", script], cwd=folder, env=env, start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as process:
        try:
            process.wait(timeout=900)
        finally:
            _kill_group(process)


def _settle(child: Any, first: float = 15.0, quiet: float = 0.5) -> str:
    """Read what the pseudo-terminal shows: wait up to ``first`` seconds for it to draw, then
    until it has been quiet for ``quiet`` seconds (or has ended)."""
    import pexpect

    shown: list[str] = []
    wait = first
    while True:
        try:
            shown.append(child.read_nonblocking(65536, timeout=wait))
        except (pexpect.TIMEOUT, pexpect.EOF):
            return "".join(shown)
        wait = quiet


def _run_in_terminal(block: Block, text: str, folder: Path, env: dict[str, str],
                     state: Path, out: Path, number: int) -> None:
    """Run one command in a pseudo-terminal, type the block's keys, and write its outcome as
    ``_script`` does: the screen output, and the exit status."""
    import pexpect

    keys = block.reason.removeprefix("keys:").split()
    terminal = {k: v for k, v in env.items() if k != "NO_COLOR"}
    terminal["TERM"] = "xterm"
    script = f"[ -f '{state}' ] && . '{state}'\n{text}\n"
    child = pexpect.spawn("bash", ["-c", script], cwd=str(folder), env=terminal,
                          encoding="utf-8", timeout=60, dimensions=(50, 100))
    try:
        screen = _settle(child)
        for index, key in enumerate(keys):
            child.send(KEYS.get(key, key))
            shown = _settle(child)
            if not shown and index < len(keys) - 1:
                screen += f"\n(nothing was drawn after the key {key})"
                status = 125
                break
            screen += shown
        else:
            child.expect(pexpect.EOF, timeout=30)
            screen += child.before or ""
            child.close()
            status = child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus
    except pexpect.TIMEOUT:
        screen += f"\n(still running after the keys {keys})"
        status = 124
    finally:
        if child.isalive():
            child.terminate(force=True)
    (out / f"{number}.out").write_text(screen)
    (out / f"{number}.err").write_text("")
    (out / f"{number}.rc").write_text(f"{status}\n")


class SmtpServer:
    """A real SMTP server on 127.0.0.1 for the README's mail.example.org:587."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.lock = threading.Lock()
        self.messages: list[tuple[list[str], str]] = []  # recipients, Message-ID
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())
        self.address = f"127.0.0.1:{self.controller.port}"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = BytesParser(policy=policy.default).parsebytes(bytes(envelope.content))
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), str(mail["Message-ID"])))
        return "250 OK"

    def count(self) -> int:
        with self.lock:
            return len(self.messages)

    def since(self, start: int) -> list[tuple[list[str], str]]:
        with self.lock:
            return self.messages[start:]


def _outbox(text: str, folder: Path) -> Path | None:
    found = re.search(r"--outbox\s+(\S+)", text)
    return Path(found.group(1).replace("~", str(folder), 1)) if found else None


def _mails(outbox: Path | None) -> set[Path]:
    """Every message file of the outbox, sent or not."""
    return set(outbox.glob("*.eml")) | set(outbox.glob("sent/*.eml")) if outbox else set()


def _mail_check(command: Command, text: str, folder: Path, smtp: SmtpServer, before: int,
                known: set[Path]) -> str | None:
    """What a command that sends mail through the README's SMTP server failed to do, or None:
    every message it wrote must have arrived, none may be left unsent, and every address the
    command names (but its own --from) must be among the recipients of what it wrote."""
    arrived = smtp.since(before)
    if not arrived:
        return f"no message arrived at the SMTP server ({smtp.address})"
    outbox = _outbox(text, folder)
    if outbox is None:
        return "no --outbox on the command: the messages it wrote cannot be checked"
    left = sorted(p.name for p in outbox.glob("*.eml"))
    if left:
        return f"messages left in the outbox, not sent: {left}"
    parser = BytesParser(policy=policy.default)
    written = [parser.parsebytes(p.read_bytes()) for p in sorted(_mails(outbox) - known)]
    delivered = {ident for _rcpts, ident in arrived}
    lost = [str(m["Message-ID"]) for m in written if str(m["Message-ID"]) not in delivered]
    if not written or lost:
        return f"the messages it wrote did not all arrive: {len(written)} written, lost {lost}"
    reached = {str(address.addr_spec) for m in written for address in m["To"].addresses}
    words = re.sub(r"--from\s+\S+", "", command.text.split(" #")[0])
    named = set(re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", words))
    missing = sorted(named - reached)
    if missing:
        return f"it wrote no message to {missing} (only to {sorted(reached)})"
    return None


def run_readme(folder: Path, slow: bool) -> tuple[list[str], dict[str, int]]:
    """Run the README's blocks in ``folder``: the failures, and counts of what ran."""
    for name in ("sample_games", "docs"):
        shutil.copytree(ROOT / name, folder / name)
    env = _environment(folder)
    state = folder / ".readme-test" / "variables.sh"
    failures: list[str] = []
    counts = {"blocks": 0, "commands": 0, "checked outputs": 0, "slow blocks left out": 0,
              "mails checked": 0, "terminal commands": 0}
    smtp = SmtpServer()
    smtp.controller.start()
    try:
        for block in parse_blocks(README.read_text(encoding="utf-8")):
            if block.mode == "slow" and not slow:
                counts["slow blocks left out"] += 1
                continue
            if block.mode not in ("run", "slow", "terminal", "installed"):
                failures.append(f"README.md:{block.line}: a block marked {block.mode!r} "
                                f"({block.reason}): every block runs (mark a long one 'slow')")
                continue
            counts["blocks"] += 1
            _run(block, folder, env, state, smtp, failures, counts)
    finally:
        smtp.controller.stop()
    return failures, counts


def _run(block: Block, folder: Path, env: dict[str, str], state: Path, smtp: SmtpServer,
         failures: list[str], counts: dict[str, int]) -> None:
    dask = any(c.text.startswith("dask scheduler") for c in block.commands)
    port = str(free_port()) if dask else DASK_PORT
    runnable: list[tuple[Command, str]] = []
    for command in block.commands:
        text = command.text.replace(SMTP_HOST, smtp.address)
        if dask:
            text = text.replace(DASK_PORT, port)
        if block.mode == "installed":
            text = _installed(text)
            if text is None:
                continue
        if "<Tab>" in text:
            problem = _completion(command, folder, env)
            counts["commands"] += 1
            if problem:
                failures.append(f"README.md:{command.line}: {command.text}\n  {problem}")
            continue
        runnable.append((command, text))
    out = folder / ".readme-test" / str(block.line)
    out.mkdir(parents=True)
    mail_before: dict[int, tuple[int, set[Path]]] = {}
    if block.mode == "terminal":
        for number, (_command, text) in enumerate(runnable):
            counts["terminal commands"] += 1
            _run_in_terminal(block, text, folder, env, state, out, number)
    elif any(smtp.address in text for _c, text in runnable):
        for number, (command, text) in enumerate(runnable):  # one at a time, to see its mail
            mail_before[number] = (smtp.count(), _mails(_outbox(text, folder)))
            single = out / str(number)
            single.mkdir()
            _run_block(_script([(command.line, text)], single, state), folder, env)
            for suffix in ("out", "err", "rc"):
                if (single / f"0.{suffix}").exists():
                    (single / f"0.{suffix}").rename(out / f"{number}.{suffix}")
    else:
        _run_block(_script([(c.line, t) for c, t in runnable], out, state), folder, env)
    for number, (command, text) in enumerate(runnable):
        counts["commands"] += 1
        rc_file = out / f"{number}.rc"
        if not rc_file.exists():
            failures.append(f"README.md:{command.line}: {command.text}\n  did not finish")
            continue
        rc = int(rc_file.read_text())
        stdout = (out / f"{number}.out").read_text(errors="replace")
        stderr = (out / f"{number}.err").read_text(errors="replace")
        shown = f"\n  exit {rc}\n  stdout: {stdout[-600:]!r}\n  stderr: {stderr[-600:]!r}"
        where = f"README.md:{command.line}: {command.text}"
        if command.error:
            counts["checked outputs"] += 1
            expected = _normal(" ".join(command.error))
            if rc == 0 or _normal(stderr) != expected:
                failures.append(f"{where}\n  expected to fail with {expected!r}{shown}")
            continue
        if rc != 0:
            failures.append(f"{where}\n  failed{shown}")
            continue
        for wanted in command.prints:
            counts["checked outputs"] += 1
            if wanted not in stdout:
                failures.append(f"{where}\n  does not print {wanted!r}{shown}")
        if command.output:
            counts["checked outputs"] += 1
            missing = _shown_lines(command.output, stderr if command.stream == "stderr"
                                   else stdout)
            if missing is not None:
                failures.append(f"{where}\n  does not print the line {missing!r} the README "
                                f"shows under it (on {command.stream}){shown}")
        if number in mail_before and smtp.address in text:
            counts["mails checked"] += 1
            problem = _mail_check(command, text, folder, smtp, *mail_before[number])
            if problem:
                failures.append(f"{where}\n  {problem}{shown}")


def _shown_lines(shown: list[str], printed: str) -> str | None:
    """The first line the README shows under a command that is not printed, in that order,
    by the command (blanks compared as one; a line ``...`` stands for lines left out); None
    when every one is."""
    lines = [" ".join(line.split()) for line in printed.splitlines()]
    at = 0
    for wanted in shown:
        wanted = " ".join(wanted.split())
        if wanted == "...":
            continue
        try:
            at = lines.index(wanted, at) + 1
        except ValueError:
            return wanted
    return None


def _check(tmp_path: Path, slow: bool, record_property: pytest.RecordProperty) -> None:
    failures, counts = run_readme(tmp_path, slow)
    for name, value in counts.items():
        record_property(f"count:README {name}", value)
    assert not failures, (f"{len(failures)} README example(s) failed:\n\n"
                          + "\n\n".join(failures))
    assert counts["commands"] > 50, counts
    assert counts["mails checked"] >= 1 and counts["terminal commands"] >= 1, counts


def test_every_readme_example_runs_in_order(tmp_path: Path,
                                            record_property: pytest.RecordProperty) -> None:
    _check(tmp_path, False, record_property)


@pytest.mark.slow
def test_every_readme_example_runs_in_order_also_the_slow_ones(
        tmp_path: Path, record_property: pytest.RecordProperty) -> None:
    _check(tmp_path, True, record_property)


def test_the_readme_test_reads_blocks_markers_and_shown_errors() -> None:
    text = "\n".join([
        "```sh", "gametool start colors -o g.gtn   # prints \"x\"",
        "gametool export t.gtn --as red", "# gametool: the record's Seed",
        "# can be guessed", "while true; do", "  echo a", "done",
        "cat > m.eml <<EOF   # a mail", "#key $key", "", "EOF", "echo b", "```", "",
        "<!-- readme-test: terminal (keys: Right q) -->", "", "```sh", "a \\", "  b", "```"])
    first, second = parse_blocks(text)
    assert [c.text for c in first.commands] == [
        'gametool start colors -o g.gtn   # prints "x"', "gametool export t.gtn --as red",
        "while true; do\n  echo a\ndone", "cat > m.eml <<EOF   # a mail\n#key $key\n\nEOF",
        "echo b"]
    assert first.commands[0].prints == ["x"]
    assert first.commands[1].error == ["gametool: the record's Seed", "can be guessed"]
    assert first.commands[3].error == []
    assert (second.mode, second.reason) == ("terminal", "keys: Right q")
    assert [c.text for c in second.commands] == ["a \\\n  b"]
    assert _installed("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
                      "gametool replay x") == "gametool replay x"
    assert _installed("pip install -e '.[test]' && python -m pytest -q") is None


def test_the_readme_test_reads_the_output_shown_under_a_command() -> None:
    text = "\n".join([
        "```sh", "gametool stats c.gtn   # tables", "# chess: 2 games", "# ...",
        "# termination    games", "gametool import x.pgn -o x.gtn   # a comment that goes",
        "                                 # on here", "# stderr:", "#   x.pgn:1:1: warning",
        "```"])
    (block,) = parse_blocks(text)
    stats, imported = block.commands
    assert (stats.output, stats.stream) == (["chess: 2 games", "...", "termination    games"],
                                            "stdout")
    assert (imported.output, imported.stream) == (["x.pgn:1:1: warning"], "stderr")
    printed = "chess: 2 games\n\nterminations\ntermination      games\n-----\n"
    assert _shown_lines(stats.output, printed) is None
    assert _shown_lines(stats.output, "termination games\nchess: 2 games\n") == (
        "termination games")  # in the order shown
