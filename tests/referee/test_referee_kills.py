"""A piped mail that moves, takes leave and prepares an answer ('#if'), with the opponent's own
answer waiting: the referee killed (SIGKILL) before each of its writes in turn, then the mail
server's retry, and a second one. Every time the game folder ends byte for byte as after a run
never killed, every reply is written once, and no retry is told "not applied"."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import sys
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli

ANN, BEN = "ann@example.org", "ben@example.net"
NOW = "2026-12-01T10:00:00Z"
KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)
RUNNER = CliRunner()
WRITES = ("replace", "rename", "unlink", "fsync", "mkdir")


def folders(root: Path) -> list[str]:
    return ["--game-dir", str(root / "games"), "--outbox", str(root / "outbox")]


def mail(sender: str, key: str, match: str, text: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, "referee@localhost"
    message["Subject"] = f"Re: [gametool {match}] move"
    message.set_content(f"#key {key}\n{text}\n")
    return bytes(message)


def inbox(root: Path, message: Path):  # type: ignore
    return RUNNER.invoke(cli, ["referee", "inbox", str(message), *folders(root)],
                         env={"GAMETOOL_NOW": NOW})


def killed_at(root: Path, message: Path, write: int) -> bool:
    """Run the inbox in a child killed just before its ``write``-th write to the disk;
    return whether it was killed (False: it finished first)."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.environ["GAMETOOL_NOW"] = NOW
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            count = [0]

            def wrapped(real):  # type: ignore
                def call(*args, **kwargs):  # type: ignore
                    count[0] += 1
                    if count[0] == write:
                        os.kill(os.getpid(), signal.SIGKILL)
                    return real(*args, **kwargs)
                return call

            for name in WRITES:
                setattr(os, name, wrapped(getattr(os, name)))
            cli.main(args=["referee", "inbox", str(message), *folders(root)],
                     prog_name="gametool", standalone_mode=False)
        finally:
            os._exit(0)
    _pid, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def state(root: Path) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Every file of the game folder (its hash) and every message of the outbox (without its
    date and Message-ID, which differ from run to run)."""
    # (a temporary file a kill left half written is no state: nothing reads it)
    games = {str(p.relative_to(root / "games")): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted((root / "games").rglob("*"))
             if p.is_file() and not p.name.startswith(".gametool-")}
    mails = []
    for path in (root / "outbox").glob("*.eml"):
        got = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        mails.append((str(got["To"]), str(got["Subject"]), got.get_content()))
    return games, sorted(mails)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Ann has played e4 with '#if e5 then Nf3'; Ben's mail: e5, '#leave 3' and
    '#if Nf3 then Nc6'."""
    root = tmp_path_factory.mktemp("kills") / "base"
    made = RUNNER.invoke(cli, ["referee", "new", "chess", "--players", f"{ANN},{BEN}",
                               *folders(root)], env={"GAMETOOL_NOW": NOW})
    assert made.exit_code == 0, made.output
    match = made.stdout.strip()
    keys = {}
    for path in (root / "outbox").glob("*.eml"):
        got = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        keys[str(got["To"])] = KEY.search(got.get_content()).group(1)  # type: ignore
    first = root.parent / "first.eml"
    first.write_bytes(mail(ANN, keys[ANN], match, "#ply 1\ne4\n#if e5 then Nf3"))
    assert inbox(root, first).exit_code == 0
    message = root.parent / "ben.eml"
    message.write_bytes(mail(BEN, keys[BEN], match,
                             "#ply 2\ne5\n#leave 3\n#if Nf3 then Nc6"))
    return root, message


def kill_everywhere(base: tuple[Path, Path], tmp_path: Path, step: int) -> int:
    """Kill before every ``step``-th write; return the number of kills."""
    root, message = base
    calm = tmp_path / "calm"
    shutil.copytree(root, calm)
    done = inbox(calm, message)
    assert done.exit_code == 0, done.output
    expected = state(calm)
    assert any("Nc6" in body for _to, _s, body in expected[1])
    kills = 0
    for write in range(1, 200, step):
        work = tmp_path / f"k{write}"
        shutil.copytree(root, work)
        if not killed_at(work, message, write):
            break
        kills += 1
        for _retry in range(2):  # the mail server tries again, and once more
            again = inbox(work, message)
            assert again.exit_code == 0, (write, again.output)
            assert "not applied" not in again.output
        assert state(work) == expected, f"killed before write {write}"
        shutil.rmtree(work)
    return kills


def test_a_killed_mail_is_applied_exactly_once(base: tuple[Path, Path], tmp_path: Path,
                                               record_property: object) -> None:
    kills = kill_everywhere(base, tmp_path, 4)
    assert kills >= 6, kills  # (the run writes about 32 times)
    record_property("kills", kills)  # type: ignore[operator]


@pytest.mark.slow
def test_a_mail_killed_before_each_of_its_writes_is_applied_exactly_once(
        base: tuple[Path, Path], tmp_path: Path, record_property: object) -> None:
    kills = kill_everywhere(base, tmp_path, 1)
    assert kills >= 25, kills
    record_property("kills", kills)  # type: ignore[operator]
