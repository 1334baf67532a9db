"""The attacker's journey through the installed command, a real SMTP server and a Maildir: in
chess, Ben mails good lines mixed with bad ones while Ann's prepared answer waits; each refused
mail comes back by SMTP as one refusal to Ben alone, the game folder stays byte for byte as it
was, and the good mail that follows gets Ann's prepared answer."""

from __future__ import annotations

import hashlib
import mailbox
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiosmtpd")
from test_mail_transport import Received, compose, parse, smtp_server  # noqa: E402, F401

ANN, BEN = "ann@example.org", "ben@example.net"
KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)


def gametool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True,
                          env={"PATH": __import__("os").environ["PATH"],
                               "GAMETOOL_NOW": "2026-12-01T10:00:00Z"})


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_attackers_mails_by_smtp_and_maildir_change_nothing(
        tmp_path: Path, smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    folders = ["--game-dir", str(tmp_path / "games"), "--outbox", str(tmp_path / "outbox")]
    made = gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}", *folders,
                    "--smtp", address)
    assert made.returncode == 0, made.stderr
    match = made.stdout.strip()
    keys = {rcpts[0]: KEY.search(parse(raw.replace(b"\r\n", b"\n")).get_content()).group(1)
            for rcpts, raw in received.since(0)}
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    inbox = ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"), *folders,
             "--smtp", address]

    def send(sender: str, text: str) -> list[tuple[list[str], str]]:
        seen = len(received.messages)
        box.add(compose(sender, f"Re: [gametool {match}] move", f"#key {keys[sender]}\n{text}\n"))
        done = gametool(*inbox)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return [(rcpts, parse(raw.replace(b"\r\n", b"\n")).get_content())
                for rcpts, raw in received.since(seen)]

    assert len(send(ANN, "#ply 1\ne4\n#if e5 then Nf3")) == 3  # two views and the #if note
    bad = ["#show 999", "#if pass then pass", "#leave 999", "#ply 2\n#accept", "#bogus",
           "#digest weekly", "#ply 2\ne9"]
    good = ["#ply 2\ne5", "#leave 3", "#digest daily", "#say hello", "#ply 2\ne5\n#draw"]
    refusals = 0
    for number, wrong in enumerate(bad):
        before = tree(tmp_path / "games")
        text = f"{good[number % len(good)]}\n{wrong}"
        out = send(BEN, text)
        assert [rcpts for rcpts, _body in out] == [[BEN]], (text, out)
        assert "not applied" in out[0][1] and "nothing has changed" in out[0][1]
        assert tree(tmp_path / "games") == before, text
        refusals += 1
        (tmp_path / "outbox" / ".journal" / "refusals.json").unlink(missing_ok=True)  # one an hour
    out = send(BEN, "#ply 2\ne5")
    assert any("Nf3" in body for _rcpts, body in out)
    assert refusals == len(bad)
