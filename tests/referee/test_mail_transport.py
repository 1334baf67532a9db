"""The referee on real mail: a Maildir and an mbox in, sendmail and a real SMTP server out, and a
whole three-player game through them with the referee killed at random moments."""

from __future__ import annotations

import hashlib
import json
import mailbox
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.records import load_one

pytest.importorskip("aiosmtpd")
from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import AuthResult, LoginPassword  # noqa: E402

RUNNER = CliRunner()
ADDRESSES = ["ann@example.org", "ben@example.net", "cy@example.com"]
KEY_IN_MAIL = re.compile(r"seat key: ([a-z2-7]+)$", re.M)


# -- a real SMTP server on 127.0.0.1 ---------------------------------------------------------------


class Received:
    """The SMTP server's handler: keeps every message it accepts, in order."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[tuple[list[str], bytes]] = []
        self.logins: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"

    def since(self, start: int) -> list[tuple[list[str], bytes]]:
        with self.lock:
            return self.messages[start:]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server() -> Any:
    handler = Received()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield handler, f"127.0.0.1:{controller.port}"
    finally:
        controller.stop()


def parse(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)  # type: ignore[return-value]


def compose(sender: str, subject: str, body: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "referee@localhost"
    mail["Subject"] = subject
    mail["Message-ID"] = f"<{hashlib.sha256((sender + subject + body).encode()).hexdigest()}@x>"
    mail.set_content(body)
    return mail


def new_game(tmp_path: Path, game: str = "belemmer", players: list[str] | None = None,
             extra: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    folders = ["--game-dir", str(tmp_path / "games"), "--outbox", str(tmp_path / "outbox")]
    result = RUNNER.invoke(cli, ["referee", "new", game, "--players",
                                 ",".join(players or ADDRESSES[:2]), *folders, *extra])
    assert result.exit_code == 0, result.output
    return result.stdout.strip(), folders


def opening_keys(outbox: Path) -> dict[str, str]:
    keys = {}
    for path in sorted(outbox.glob("*.eml")) + sorted((outbox / "sent").glob("*.eml")):
        mail = parse(path.read_bytes())
        found = KEY_IN_MAIL.search(mail.get_content())
        if found:
            keys[str(mail["To"])] = found.group(1)
    return keys


def join_mail(address: str, key: str, match: str) -> EmailMessage:
    return compose(address, f"Re: [gametool {match}] join",
                   f"#key {key}\n#join {hashlib.sha256(address.encode()).hexdigest()[:32]}\n")


# -- Maildir and mbox in ---------------------------------------------------------------------------


def test_every_new_maildir_message_is_applied_once_and_filed_as_seen(
        tmp_path: Path, smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    match, folders = new_game(tmp_path)
    keys = opening_keys(tmp_path / "outbox")
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    names = [box.add(join_mail(a, keys[a], match)) for a in ADDRESSES[:2]]
    names.append(box.add(compose("eve@example.com", f"[gametool {match}] hi", "#ply 1\nx")))
    result = RUNNER.invoke(cli, ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"),
                                 *folders, "--smtp", address])
    assert result.exit_code == 0, result.output
    assert "holds no seat" in result.stderr and result.stderr.count("\n") == 1
    assert os.listdir(tmp_path / "Maildir" / "new") == []
    assert sorted(os.listdir(tmp_path / "Maildir" / "cur")) == sorted(f"{n}:2,S" for n in names)
    session = load_one((tmp_path / "games" / f"{match}.gtn").read_text())
    assert session.waiting_for() == [] and session.ply == 2
    # Everything the referee wrote was sent and filed; the server has it all, in order.
    assert list((tmp_path / "outbox").glob("*.eml")) == []
    sent = sorted((tmp_path / "outbox" / "sent").glob("*.eml"))
    got = [parse(raw)["Message-ID"] for _to, raw in received.since(0)]
    assert got == [parse(p.read_bytes())["Message-ID"] for p in sent]
    assert all("eve@example.com" not in to for to, _raw in received.since(0))  # no backscatter
    # A second run finds nothing new and changes nothing.
    before = (tmp_path / "games" / f"{match}.gtn").read_bytes()
    again = RUNNER.invoke(cli, ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"),
                                *folders, "--smtp", address])
    assert again.exit_code == 0 and again.output == ""
    assert (tmp_path / "games" / f"{match}.gtn").read_bytes() == before
    assert len(received.since(0)) == len(sent)


def test_an_mbox_is_applied_once_and_emptied(tmp_path: Path) -> None:
    match, folders = new_game(tmp_path)
    keys = opening_keys(tmp_path / "outbox")
    box = mailbox.mbox(str(tmp_path / "inbox.mbox"))
    for a in ADDRESSES[:2]:
        box.add(join_mail(a, keys[a], match))
    box.flush()
    result = RUNNER.invoke(cli, ["referee", "inbox", "--mbox", str(tmp_path / "inbox.mbox"),
                                 *folders])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "inbox.mbox").read_bytes() == b""
    assert load_one((tmp_path / "games" / f"{match}.gtn").read_text()).ply == 2
    assert RUNNER.invoke(cli, ["referee", "inbox", "--mbox", str(tmp_path / "inbox.mbox"),
                               *folders]).exit_code == 0


def test_an_mbox_run_that_dies_after_applying_a_mail_is_finished_not_repeated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gametool.referee.referee import Referee

    match, folders = new_game(tmp_path)
    keys = opening_keys(tmp_path / "outbox")
    box = mailbox.mbox(str(tmp_path / "inbox.mbox"))
    for a in ADDRESSES[:2]:
        box.add(join_mail(a, keys[a], match))
    box.flush()
    master = tmp_path / "games" / f"{match}.gtn"
    real = Referee.write_files

    def dies(self: Referee, files: list[tuple[str, str]]) -> list[Path]:
        raise OSError(28, "No space left on device")  # after the record, before the replies

    monkeypatch.setattr(Referee, "write_files", dies)
    args = ["referee", "inbox", "--mbox", str(tmp_path / "inbox.mbox"), *folders]
    crashed = RUNNER.invoke(cli, args)
    assert crashed.exit_code != 0
    assert load_one(master.read_text()).waiting_for() == [ADDRESSES[1]]  # ann's mail applied
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 2  # only the opening messages
    monkeypatch.setattr(Referee, "write_files", real)
    finished = RUNNER.invoke(cli, args)
    assert finished.exit_code == 0, finished.output
    session = load_one(master.read_text())
    assert session.waiting_for() == [] and session.ply == 2  # ann's mail not applied again
    bodies = [parse(p.read_bytes()).get_content() for p in (tmp_path / "outbox").glob("*.eml")]
    assert sum("contribution to the seed is recorded" in b for b in bodies) == 1
    assert sum("You are to move" in b for b in bodies) == 1
    assert (tmp_path / "inbox.mbox").read_bytes() == b""
    assert list((tmp_path / "outbox" / ".journal").glob("*.json")) == []


def test_a_piped_mail_whose_run_died_has_its_replies_written_by_the_next_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A mail filter does not hand the mail over again: the next run, whatever it reads,
    # writes the replies the dead one had computed.
    from gametool.referee.referee import Referee

    match, folders = new_game(tmp_path)
    keys = opening_keys(tmp_path / "outbox")
    message = tmp_path / "in.eml"
    message.write_bytes(bytes(join_mail(ADDRESSES[0], keys[ADDRESSES[0]], match)))
    real = Referee.write_files

    def dies(self: Referee, files: list[tuple[str, str]]) -> list[Path]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Referee, "write_files", dies)
    assert RUNNER.invoke(cli, ["referee", "inbox", str(message), *folders]).exit_code != 0
    monkeypatch.setattr(Referee, "write_files", real)
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 2
    (tmp_path / "Maildir").mkdir()
    for sub in ("new", "cur", "tmp"):
        (tmp_path / "Maildir" / sub).mkdir()
    result = RUNNER.invoke(cli, ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"),
                                 *folders])
    assert result.exit_code == 0, result.output
    bodies = [parse(p.read_bytes()).get_content() for p in (tmp_path / "outbox").glob("*.eml")]
    assert sum("contribution to the seed is recorded" in b for b in bodies) == 1
    # What stays is the marker of the mail done, for the mail server's retry of it.
    (entry,) = list((tmp_path / "outbox" / ".journal").glob("*.json"))
    assert json.loads(entry.read_text())["done"] is True
    again = RUNNER.invoke(cli, ["referee", "inbox", str(message), *folders])
    assert again.exit_code == 0, again.output
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == len(bodies)


def test_not_a_maildir_is_one_clear_line(tmp_path: Path) -> None:
    result = RUNNER.invoke(cli, ["referee", "inbox", "--maildir", str(tmp_path), "--game-dir",
                                 str(tmp_path / "g"), "--outbox", str(tmp_path / "o")])
    assert result.exit_code == 1 and "not a Maildir" in result.stderr
    both = RUNNER.invoke(cli, ["referee", "inbox", "x.eml", "--maildir", str(tmp_path),
                               "--game-dir", "g", "--outbox", "o"])
    assert both.exit_code == 2


# -- sendmail and SMTP out -------------------------------------------------------------------------

FAKE_SENDMAIL = """
import sys
data = sys.stdin.buffer.read()
assert sys.argv[1:] == ["-t", "-oi"], sys.argv
with open(sys.argv[0] + ".out", "ab") as out:
    out.write(data + b"\\n=====\\n")
"""


def test_sendmail_failure_keeps_the_outbox_and_the_next_run_sends_it(tmp_path: Path) -> None:
    match, folders = new_game(tmp_path)
    outbox = tmp_path / "outbox"
    assert len(list(outbox.glob("*.eml"))) == 2
    failed = RUNNER.invoke(cli, ["referee", "send", "--outbox", str(outbox), "--sendmail",
                                 f"{sys.executable} -c 'import sys; sys.exit(75)'"])
    assert failed.exit_code == 1 and "2 messages left in the outbox" in failed.stderr
    assert "exit status 75" in failed.stderr and failed.stderr.count("\n") == 1
    assert len(list(outbox.glob("*.eml"))) == 2
    script = tmp_path / "fake-sendmail.py"
    script.write_text(FAKE_SENDMAIL)
    sent = RUNNER.invoke(cli, ["referee", "send", "--outbox", str(outbox), "--sendmail",
                               f"{sys.executable} {script} -t -oi"])
    assert sent.exit_code == 0, sent.output
    assert list(outbox.glob("*.eml")) == [] and len(list((outbox / "sent").glob("*"))) == 2
    delivered = Path(f"{script}.out").read_bytes().split(b"\n=====\n")[:-1]
    assert sorted(str(parse(m)["To"]) for m in delivered) == sorted(ADDRESSES[:2])


def test_rekey_sends_the_new_key_at_once(tmp_path: Path,
                                         smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    match, folders = new_game(tmp_path, extra=("--smtp", address))
    assert len(received.since(0)) == 2
    result = RUNNER.invoke(cli, ["referee", "rekey", match, ADDRESSES[1], *folders,
                                 "--smtp", address])
    assert result.exit_code == 0, result.output
    ((to, raw),) = received.since(2)
    assert to == [ADDRESSES[1]] and b"no longer works" in raw
    assert list((tmp_path / "outbox").glob("*.eml")) == []


def test_an_smtp_server_that_is_down_leaves_the_outbox_for_later(
        tmp_path: Path, smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    new_game(tmp_path)
    down = RUNNER.invoke(cli, ["referee", "send", "--outbox", str(tmp_path / "outbox"),
                               "--smtp", f"127.0.0.1:{free_port()}"])
    assert down.exit_code == 1 and "left in the outbox" in down.stderr
    assert "Traceback" not in down.output
    up = RUNNER.invoke(cli, ["referee", "send", "--outbox", str(tmp_path / "outbox"),
                             "--smtp", address])
    assert up.exit_code == 0 and len(received.since(0)) == 2
    assert RUNNER.invoke(cli, ["referee", "send", "--outbox", "x"]).exit_code == 2


class Authenticator:
    def __init__(self) -> None:
        self.users: list[str] = []

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str,
                 data: Any) -> AuthResult:
        if isinstance(data, LoginPassword) and data.password == b"s3cret":
            self.users.append(data.login.decode())
            return AuthResult(success=True)
        return AuthResult(success=False, handled=False)


# The test server asks for a login on 127.0.0.1 without TLS (the tool logs in without TLS only
# to this machine), which aiosmtpd warns about.
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("source", ["environment", "netrc"])
def test_smtp_login_comes_from_the_environment_or_netrc(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    handler, auth = Received(), Authenticator()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(),
                            authenticator=auth, auth_required=True, auth_require_tls=False)
    controller.start()
    try:
        new_game(tmp_path)
        monkeypatch.delenv("GAMETOOL_SMTP_USER", raising=False)
        monkeypatch.delenv("GAMETOOL_SMTP_PASSWORD", raising=False)
        monkeypatch.setenv("HOME", str(tmp_path))
        args = ["referee", "send", "--outbox", str(tmp_path / "outbox"), "--smtp",
                f"127.0.0.1:{controller.port}"]
        refused = RUNNER.invoke(cli, args)
        assert refused.exit_code == 1 and "530" in refused.stderr
        if source == "environment":
            monkeypatch.setenv("GAMETOOL_SMTP_USER", "referee")
            monkeypatch.setenv("GAMETOOL_SMTP_PASSWORD", "s3cret")
        else:
            netrc = tmp_path / ".netrc"
            netrc.write_text("machine 127.0.0.1 login referee password s3cret\n")
            netrc.chmod(0o600)
        accepted = RUNNER.invoke(cli, args)
        assert accepted.exit_code == 0, accepted.output
        assert auth.users == ["referee"] and len(handler.messages) == 2
    finally:
        controller.stop()


def test_starttls_is_used_when_offered_and_the_login_goes_over_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import ssl

    if shutil.which("openssl") is None:
        pytest.skip("no openssl program to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    handler, auth = Received(), Authenticator()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(),
                            tls_context=context, require_starttls=True, authenticator=auth,
                            auth_required=True)
    controller.start()
    try:
        new_game(tmp_path)
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the client trusts this server only
        monkeypatch.setenv("GAMETOOL_SMTP_USER", "referee")
        monkeypatch.setenv("GAMETOOL_SMTP_PASSWORD", "s3cret")
        result = RUNNER.invoke(cli, ["referee", "send", "--outbox", str(tmp_path / "outbox"),
                                     "--smtp", f"127.0.0.1:{controller.port}"])
        assert result.exit_code == 0, result.output
        assert auth.users == ["referee"] and len(handler.messages) == 2
    finally:
        controller.stop()


# -- a whole game through SMTP and a Maildir, the referee killed at random -------------------------


class Players:
    """Three players who read what the SMTP server received and answer into the Maildir."""

    def __init__(self, received: Received, maildir: Path, match: str) -> None:
        self.received, self.match = received, match
        self.box = mailbox.Maildir(str(maildir), create=True)
        self.read = 0
        self.seen_ids: set[str] = set()
        self.keys: dict[str, str] = {}
        self.duplicates = 0     # the same Message-ID delivered again (sent at least once)
        self.rejections: list[str] = []
        self.sent = 0
        self.actions = 0
        self.turn = 0
        self.over: set[str] = set()

    def answer(self) -> int:
        """Read every new delivery, answer what asks for an answer; return the mails sent."""
        written = 0
        for rcpts, raw in self.received.since(self.read):
            self.read += 1
            mail = parse(raw.replace(b"\r\n", b"\n"))
            ident = str(mail["Message-ID"])
            if ident in self.seen_ids:
                self.duplicates += 1
                continue
            self.seen_ids.add(ident)
            (address,) = rcpts
            body = mail.get_content()
            found = KEY_IN_MAIL.search(body)
            if found:
                self.keys[address] = found.group(1)
                line = RUNNER.invoke(cli, ["join"]).stdout.strip()
                self.box.add(compose(address, f"Re: {mail['Subject']}",
                                     f"#key {self.keys[address]}\n{line}\n"))
                written += 1
            if "not applied" in body:
                self.rejections.append(body)
            if "The game is over" in body:
                self.over.add(address)
            move = re.search(r"You are to move at ply (\d+)\.", body)
            if move:
                legal = [a for a in body.split("Legal actions:\n", 1)[1].split("\n\n")[0]
                         .split("\n") if a]
                choice = SeedRng("kill-players", self.turn).choice(legal)
                self.turn += 1
                self.box.add(compose(address, f"Re: {mail['Subject']}",
                                     f"I play:\n\n#key {self.keys[address]}\n#ply "
                                     f"{move.group(1)}\n{choice}\n\n-- \n{address}\n"))
                written += 1
                self.actions += 1
        self.sent += written
        return written


def run_referee(args: list[str]) -> None:
    result = RUNNER.invoke(cli, args)
    assert result.exit_code == 0, result.output


def killed_run(args: list[str], delay: float) -> bool:
    """Run the referee in a child process and SIGKILL it after ``delay`` seconds; return
    whether it was still at work when killed."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: the referee, as the command line runs it
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            cli.main(args=args, prog_name="gametool", standalone_mode=False)
        finally:
            os._exit(0)
    time.sleep(delay)
    done, _status = os.waitpid(pid, os.WNOHANG)
    if done:
        return False
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return True


def test_a_three_player_game_by_smtp_and_maildir_survives_sixty_kills(
        tmp_path: Path, smtp_server: tuple[Received, str], record_property: Any) -> None:
    received, address = smtp_server
    maildir = tmp_path / "Maildir"
    match, folders = new_game(tmp_path, "johari-bones", ADDRESSES, ("--smtp", address))
    master = tmp_path / "games" / f"{match}.gtn"
    players = Players(received, maildir, match)
    args = ["referee", "inbox", "--maildir", str(maildir), *folders, "--smtp", address]
    rng = SeedRng("kill-moments", 0)
    kills = interrupted = 0
    durations = [0.05]
    for _round in range(2000):
        players.answer()
        if len(players.over) == len(ADDRESSES):
            break
        if kills < 60 and rng.randbelow(100) < 45:
            typical = sorted(durations[-9:])[len(durations[-9:]) // 2]
            kills += 1
            interrupted += killed_run(args, typical * rng.randbelow(1200) / 1000)
            session = load_one(master.read_text())  # never torn: it always reads back
            assert session.game.id == "johari-bones"
        began = time.perf_counter()
        run_referee(args)
        durations.append(time.perf_counter() - began)
    else:
        raise AssertionError(f"the game did not end: {master.read_text()[-300:]} "
                             f"{players.rejections[:2]} {os.listdir(tmp_path / 'outbox')} "
                             f"{os.listdir(maildir / 'new')} kills {kills} {players.keys}")
    final = load_one(master.read_text())
    assert final.game.is_over(final.state)
    assert RUNNER.invoke(cli, ["validate", str(master)]).exit_code == 0
    # Every player mail applied once: one turn in the record per action mail, no rejection,
    # every mail filed once as seen, none left new.
    turns = sum(1 for line in final.record.turns if line.seat.lower() != "chance")
    duplicates_applied = len(players.rejections)
    assert duplicates_applied == 0, players.rejections[:1]
    assert turns == players.actions
    assert os.listdir(maildir / "new") == []
    assert len(os.listdir(maildir / "cur")) == players.sent
    assert all(name.endswith(":2,S") for name in os.listdir(maildir / "cur"))
    # Every message the referee wrote reached the server: nothing lost, nothing left unsent.
    written = {str(parse(p.read_bytes())["Message-ID"])
               for p in (tmp_path / "outbox" / "sent").glob("*.eml")}
    lost = written - players.seen_ids
    assert list((tmp_path / "outbox").glob("*.eml")) == [] and not lost
    assert list((tmp_path / "outbox" / ".journal").glob("*.json")) == []
    for name, count in (("messages (player mails and referee mails)", players.sent + len(written)),
                        ("referee kills (SIGKILL)", kills), ("kills in mid-run", interrupted),
                        ("messages lost", len(lost)), ("mails applied twice", duplicates_applied),
                        ("deliveries repeated with the same Message-ID", players.duplicates)):
        record_property(f"count:SMTP + Maildir game, {name}", count)
    print(f"\nSMTP + Maildir game: {players.sent} player mails, {len(written)} referee mails, "
          f"{len(players.seen_ids) + players.duplicates} deliveries; kills {kills} "
          f"({interrupted} mid-run); losses {len(lost)}; duplicates applied "
          f"{duplicates_applied}; duplicate deliveries {players.duplicates} (same Message-ID)")
    assert kills >= 50
