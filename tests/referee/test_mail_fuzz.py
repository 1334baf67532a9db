"""A seeded mail fuzzer: thousands of mutated mails, each answered with a reason or dropped.

Every mutated mail goes through ``Referee.receive`` against a live game. Whatever comes in, the
referee returns a receipt (never raises), gives a one-line reason for anything it does not
apply, renders every reply it writes as a valid message, and leaves the master record byte for
byte as it was unless the mail was applied. A few hundred go through the command line too, where
no traceback and no "internal error" may show.
"""

from __future__ import annotations

import os
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import joined_referee_game

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.referee.referee import Referee

ANN, BEN = "ann@example.org", "ben@example.net"
MAILS = 3000
THROUGH_CLI = 150

HOSTILE_HEADERS = [
    b"From: ann@", b"From: <@>", b"From: ben@example.net<ann@example.org>",
    b"From: team: ann@example.org, ben@example.net;", b"From: ann@example.org, ben@example.net",
    b"From: \"ben@example.net\" <ann@example.org>", b"From:",
    b"From: =?utf-8?q?a=0D=0Ab?= <ann@example.org>",
    b"Message-ID: <@>", b"Message-ID: <a@b>\r\nMessage-ID: <c@d>", b"Message-ID: <a\r\n b@c>",
    b"Subject: =?utf-8?q?=5Bgametool_x=5D=0D=0ABcc:_eve@example.com?=",
    b"Subject: =?bogus?b?!!!?=", b"Subject: =?utf-8?b?W2dhbWV0b29s?=",
    b"Content-Type: multipart/mixed", b"Content-Type: multipart/alternative; boundary=\"\"",
    b"Content-Type: text/plain; charset=utf-7", b"Content-Type: text/plain; charset=base64",
    b"Content-Type: text/plain; charset=\"\x00\"", b"Content-Type: text/html",
    b"Content-Type: text/plain; charset=idna", b"Content-Type: message/rfc822",
    b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: quoted-printable",
    b"Content-Transfer-Encoding: x-uuencode", b"Content-Disposition: attachment",
    b"Bcc: eve@example.com", b"\tfolded at the start", b"No colon here", b": empty name",
]
INSERTS = [
    b"\x00", b"\r", b"\n", b"\r\n", b"\r\n\r\n", b"=?", b"?=", b"--", b">", b"#ply ", b"#key ",
    b"#ply 99999999999999999999", b"[gametool ", b"]", b"<", b"@", b"\xff\xfe", b"\xc3",
    b"On Sun, 22 Nov 2026, Referee wrote:", b"-----Original Message-----", b"____",
    b"From: Referee <referee@localhost>\r\nSent: Sunday", b"\r\n--b\r\n", b"\r\n--b--\r\n",
]


def mail(sender: str, subject: str, body: str, **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "referee@localhost"
    message["Subject"] = subject
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return bytes(message)


def seeds(match: str, key: str) -> list[bytes]:
    """Well-formed mails of every shape the mutations start from."""
    subject = f"Re: [gametool {match}] Belemmer, ply 2"
    move = f"#key {key}\n#ply 3\nplace a1\n"
    multipart = EmailMessage()
    multipart["From"] = f"Ann <{ANN}>"
    multipart["Subject"] = subject
    multipart["Message-ID"] = "<1@example.org>"
    multipart.set_content(move)
    multipart.add_alternative(f"<p>{move}</p>", subtype="html")
    multipart.add_attachment(b"\x00\x01binary", maintype="application", subtype="octet-stream")
    return [
        mail(ANN, subject, move, Message_ID="<m1@example.org>"),
        mail(f'"Smith, Ann" <{ANN}>', subject, f"Hi!\n\n{move}\nthanks\n-- \nAnn\n"
             "On Sunday the referee wrote:\n> #ply 2\n> place b2\n"),
        mail(ANN, subject, f"Tomorrow.\n\n________________________________\nFrom: Referee\n"
             f"Sent: Sunday\nTo: {ANN}\n\n#ply 3\nplace a1\n"),
        mail(BEN, subject, f"#key {key}\n#ply 3\nplace a1\n"),
        mail(ANN, "=?utf-8?q?Re:_=5Bgametool_" + match + "=5D?=", "Grüße\n" + move),
        bytes(multipart),
        b"From ann@example.org Sun Nov 22 10:00:00 2026\r\nFrom: " + ANN.encode()
        + b"\r\nSubject: " + subject.encode() + b"\r\n\r\n" + move.encode(),
    ]


def mutate(rng: SeedRng, data: bytes) -> bytes:
    for _ in range(1 + rng.randbelow(3)):
        kind = rng.randbelow(12)
        at = rng.randbelow(len(data) + 1)
        if kind == 0:
            data = data[:at] + bytes([rng.randbelow(256)]) + data[at + 1:]
        elif kind == 1:
            data = data[:at] + rng.choice(INSERTS) + data[at:]
        elif kind == 2:
            end = min(len(data), at + rng.randbelow(40) + 1)
            data = data[:at] + data[end:]
        elif kind == 3:
            data = data[:at]  # truncated
        elif kind == 4:
            data = rng.choice(HOSTILE_HEADERS) + b"\r\n" + data
        elif kind == 5:
            lines = data.split(b"\n")
            line = lines[rng.randbelow(len(lines))]
            data = line + b"\n" + data  # a duplicated header (or body line) on top
        elif kind == 6:
            data = data.replace(b"#ply 3", b"#ply " + b"7" * (1 + rng.randbelow(6000)), 1)
        elif kind == 7:
            data = data.replace(b"[gametool ", b"[gametool " + b"z" * rng.randbelow(120_000), 1)
        elif kind == 8:
            filler = rng.choice([b"A", b"=?utf-8?q?x?= ", b"X: y\r\n", b"> q\n", b"--b\r\n"])
            data = data[:at] + filler * (1 + rng.randbelow(30_000)) + data[at:]
        elif kind == 9:
            crlf = rng.randbelow(2)
            data = data.replace(b"\n", b"\r\n") if crlf else data.replace(b"\r\n", b"\n")
        elif kind == 10:
            end = min(len(data), at + rng.randbelow(200) + 1)
            data = data[:at] + data[at:end] * (2 + rng.randbelow(4)) + data[end:]
        else:
            data = data[:at] + b"\r\n" + rng.choice(HOSTILE_HEADERS) + data[at:]
    return data


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Referee, str, str, Path]:
    # Durability is tested elsewhere; here each applied mail would wait on the disk for nothing.
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    ref = Referee(tmp_path / "games", tmp_path / "outbox", max_bytes=256 * 1024)
    match, key, master = joined_referee_game(ref, "fuzz", ANN, BEN)
    return ref, match, key, master


def test_thousands_of_mutated_mails_get_a_reason_never_an_error(
        game: tuple[Referee, str, str, Path]) -> None:
    ref, match, key, master = game
    start = master.read_bytes()
    rng = SeedRng("mail-fuzz", 1)
    bases = seeds(match, key)
    counts = {"applied": 0, "answered": 0, "dropped": 0}
    for number in range(MAILS):
        raw = mutate(rng, rng.choice(bases))
        before = master.read_bytes()
        receipt = ref.receive(raw)
        if receipt.applied:
            counts["applied"] += 1
            master.write_bytes(start)  # back to the same position for the next mail
            continue
        reason = receipt.reason or ""
        assert reason and "\n" not in reason and len(reason) < 1200, (number, raw[:200])
        assert "internal error" not in reason and "Traceback" not in reason
        assert master.read_bytes() == before, (number, reason)
        assert len(receipt.messages) <= 1
        for item in receipt.messages:
            ref.render(item)  # the reply, which quotes the mail's reason, can be written
        counts["answered" if receipt.messages else "dropped"] += 1
    print(f"mail fuzz: {MAILS} mutated mails: {counts}")
    assert counts["answered"] > MAILS // 4 and counts["dropped"] > 0


def test_mutated_mails_through_the_command_line_never_show_a_traceback(
        game: tuple[Referee, str, str, Path], tmp_path: Path) -> None:
    ref, match, key, master = game
    start = master.read_bytes()
    rng = SeedRng("mail-fuzz-cli", 2)
    bases = seeds(match, key)
    runner = CliRunner()
    path = tmp_path / "in.eml"
    for number in range(THROUGH_CLI):
        path.write_bytes(mutate(rng, rng.choice(bases)))
        result = runner.invoke(cli, ["referee", "inbox", str(path), "--game-dir",
                                     str(ref.game_dir), "--outbox", str(ref.outbox)])
        assert result.exception is None or isinstance(result.exception, SystemExit), number
        assert result.exit_code in (0, 1), (number, result.output)
        if result.exit_code == 1:
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("gametool: mail "), lines
            assert "internal error" not in result.stderr
        master.write_bytes(start)
