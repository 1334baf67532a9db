"""The README is a test: every ```sh block of README.md runs, in order, in a fresh folder.

Each block runs through bash with the installed ``gametool`` on the PATH, in a temporary folder
that holds copies of the shipped ``sample_games/`` and ``docs/`` (so the README's paths work as
written and nothing of the checkout changes), with HOME set to that folder. Each command of a
block (a line, with its ``\\`` continuations, or a whole ``while ... done``) must succeed,
unless the comment lines under it show the one-line error it prints (``# gametool: ...``): then
it must fail with exactly that line. A comment ``prints "X"`` on a command's line asks for X in
what it prints. A line with ``<Tab>`` is asked of the shell completion instead: what the
comment names must be among the completions.

An HTML comment just before a block says how to run it:

- ``<!-- readme-test: slow -->``: run only in the slow suite (``-m slow``);
- ``<!-- readme-test: skip (REASON) -->``: not run, for the reason given (a network service, a
  placeholder value);
- ``<!-- readme-test: installed -->``: the block installs gametool first; the test runs what
  follows the install on each line (gametool is installed already), but not the test suite.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"<!--\s*readme-test:\s*(\w[\w-]*)\s*(?:\((.*?)\))?\s*-->")
OPENING = ("while ", "for ", "if ", "until ", "case ")
CLOSING = ("done", "fi", "esac")


@dataclass
class Command:
    line: int  # line number in README.md
    text: str  # the shell text, continuations joined
    error: list[str] = field(default_factory=list)  # the comment lines under it: stderr shown
    prints: list[str] = field(default_factory=list)


@dataclass
class Block:
    line: int
    mode: str  # "run", "slow", "skip" or "installed"
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
    for number, raw in body:
        line = raw.rstrip()
        if pending is not None and (pending.text.endswith("\\") or depth > 0):
            pending.text += "\n" + line
        elif not line.strip():
            continue
        elif line.lstrip().startswith("#"):
            note = line.lstrip()[1:].strip()
            if out and (out[-1].error or note.startswith("gametool:")):
                out[-1].error.append(note)
            continue
        else:
            pending = Command(number, line)
            out.append(pending)
        stripped = line.strip()
        depth += stripped.startswith(OPENING)
        depth -= stripped.split(";")[0].strip() in CLOSING or stripped.startswith(CLOSING)
        comment = _comment(line) or ""
        pending.prints += re.findall(r'\bprints "([^"]*)"', comment)
        if not pending.text.endswith("\\") and depth == 0:
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


def _script(commands: list[tuple[int, str]], out: Path) -> str:
    parts = ["exec </dev/null"]
    for number, (_line, text) in enumerate(commands):
        parts.append(f"{{\n{text}\n}} >'{out}/{number}.out' 2>'{out}/{number}.err'\n"
                     f"echo $? >'{out}/{number}.rc'")
    return "\n".join(parts) + "\n"


def _normal(text: str) -> str:
    return " ".join(text.split())


def run_readme(folder: Path, slow: bool) -> tuple[list[str], dict[str, int]]:
    """Run the README's blocks in ``folder``: the failures, and counts of what ran."""
    for name in ("sample_games", "docs"):
        shutil.copytree(ROOT / name, folder / name)
    env = _environment(folder)
    failures: list[str] = []
    counts = {"blocks": 0, "commands": 0, "checked outputs": 0, "skipped blocks": 0}
    for block in parse_blocks(README.read_text(encoding="utf-8")):
        if block.mode == "skip" or (block.mode == "slow" and not slow):
            counts["skipped blocks"] += 1
            continue
        assert block.mode in ("run", "slow", "installed"), f"README.md:{block.line}: {block.mode}"
        counts["blocks"] += 1
        runnable: list[tuple[Command, str]] = []
        for command in block.commands:
            text = command.text
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
        script = _script([(c.line, t) for c, t in runnable], out)
        subprocess.run(["bash", "-c", script], cwd=folder, env=env, timeout=900,
                       capture_output=True)
        for number, (command, _text) in enumerate(runnable):
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
            for text in command.prints:
                counts["checked outputs"] += 1
                if text not in stdout:
                    failures.append(f"{where}\n  does not print {text!r}{shown}")
    return failures, counts


def _check(tmp_path: Path, slow: bool, record_property: pytest.RecordProperty) -> None:
    failures, counts = run_readme(tmp_path, slow)
    for name, value in counts.items():
        record_property(f"count:README {name}", value)
    assert not failures, (f"{len(failures)} README example(s) failed:\n\n"
                          + "\n\n".join(failures))
    assert counts["commands"] > 50, counts


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
        "# can be guessed", "while true; do", "  echo a", "done", "```", "",
        "<!-- readme-test: skip (needs a mail server) -->", "", "```sh", "a \\", "  b", "```"])
    first, second = parse_blocks(text)
    assert [c.text for c in first.commands] == [
        'gametool start colors -o g.gtn   # prints "x"', "gametool export t.gtn --as red",
        "while true; do\n  echo a\ndone"]
    assert first.commands[0].prints == ["x"]
    assert first.commands[1].error == ["gametool: the record's Seed", "can be guessed"]
    assert (second.mode, second.reason) == ("skip", "needs a mail server")
    assert [c.text for c in second.commands] == ["a \\\n  b"]
    assert _installed("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
                      "gametool replay x") == "gametool replay x"
    assert _installed("pip install -e '.[test]' && python -m pytest -q") is None
