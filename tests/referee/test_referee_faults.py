"""The referee's word under faults: at each writing step of a season by mail (allow, '#new',
'#join', a move, '#draw', '#undo', the last join that makes the deal, tick, rekey, send), the
step's folder refuses new files, or the disk is full. The run leaves one line and no mail that
tells of an outcome the record does not hold; once the fault is repaired, the next run finishes
the work once, and the deal is the one a run without faults makes."""

from __future__ import annotations

import contextlib
import hashlib
import mailbox
import os
import re
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import made_once

from gametool.records import load_one
from gametool.referee.clock import write_time
from gametool.referee.mail.keys import Keyring

pytest.importorskip("aiosmtpd")
import test_mail_transport  # noqa: E402
from test_mail_transport import Received, compose, parse  # noqa: E402

smtp_server = test_mail_transport.smtp_server  # the real SMTP server on 127.0.0.1

ANN, BEN = "ann@example.org", "ben@example.net"
SEED = hashlib.sha256(b"the referee's own secret").hexdigest()
SEAT_KEY = re.compile(r"seat key[^:]*: ([a-z2-7]+)$", re.M)
PLAYER_KEY = re.compile(r"player key: ([a-z2-7]+)$", re.M)
MATCH = re.compile(r"\[gametool ([a-z0-9-]+)\]")
FAULTS = ("games", "outbox", "full")


def _probe_chattr(folder: Path) -> str | None:
    """Why a folder cannot be made to refuse new files here (None: it can)."""
    probe = folder / "probe"
    probe.mkdir()
    try:
        done = subprocess.run(["chattr", "+i", str(probe)], capture_output=True, text=True)
    except OSError as exc:
        return f"no chattr here ({exc.strerror})"
    if done.returncode != 0:
        return f"chattr +i is refused here: {done.stderr.strip()}"
    try:
        (probe / "x").touch()
        refused = False
    except OSError:
        refused = True
    subprocess.run(["chattr", "-i", str(probe)], check=True)
    probe.rmdir()
    return None if refused else "an immutable folder still takes new files here (run as root)"


class Desk:
    """A referee's folders on a small file system of their own (so that it can be filled),
    players who mail it through a Maildir, and a clock the test sets."""

    def __init__(self, root: Path, fault: str | None) -> None:
        self.root, self.fault = root, fault
        self.desk = root / "desk"
        self.desk.mkdir()
        self.mounted = False
        if fault is not None:
            reason = _probe_chattr(root)
            if reason is not None and fault != "full":
                pytest.skip(reason)
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs",
                                   str(self.desk)], capture_output=True, text=True)
            if done.returncode != 0 and fault == "full":
                pytest.skip(f"no small file system can be mounted here to fill: "
                            f"{done.stderr.strip()}")
            self.mounted = done.returncode == 0
        self.games, self.outbox = self.desk / "games", self.desk / "outbox"
        self.folders = ["--game-dir", str(self.games), "--outbox", str(self.outbox)]
        self.box = mailbox.Maildir(str(root / "Maildir"), create=True)
        self.time = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        self.keys: dict[tuple[str, str | None], str] = {}
        self.frozen: list[Path] = []
        self.count = 0

    def close(self) -> None:
        for folder in self.frozen:
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        if self.mounted:
            subprocess.run(["umount", str(self.desk)], check=True)

    # -- running the referee ---------------------------------------------------------------

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "GAMETOOL_NOW": write_time(self.time)}
        return subprocess.run(["gametool", *args], capture_output=True, text=True, env=env)

    def inbox(self) -> list[str]:
        return ["referee", "inbox", "--maildir", str(self.root / "Maildir"), *self.folders]

    def mail(self, sender: str, match: str | None, text: str) -> None:
        self.count += 1
        subject = f"Re: [gametool {match}] your move" if match else f"gametool {self.count}"
        self.box.add(compose(sender, subject, f"#key {self.keys[(sender, match)]}\n{text}\n"))

    def mails(self) -> dict[str, bytes]:
        """Every message the referee has written: in the outbox, or sent."""
        found = {}
        for folder in (self.outbox, self.outbox / "sent"):
            if folder.is_dir():
                found.update({p.name: p.read_bytes() for p in folder.glob("*.eml")})
        return found

    @contextlib.contextmanager
    def broken(self, folder: Path) -> Iterator[None]:
        """The fault: ``folder`` refuses new files (the kinds 'games' and 'outbox' name which
        folder is the step's), or the disk is full."""
        if self.fault == "full":
            filler = self.desk / "filler"
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            for size in (1 << 20, 1 << 12, 1):
                while True:
                    try:
                        if os.write(fd, b"\0" * size) < size:
                            continue
                    except OSError:
                        break
            os.close(fd)
            try:
                yield
            finally:
                filler.unlink()
            return
        with self.refusing(folder):
            yield

    @contextlib.contextmanager
    def refusing(self, folder: Path) -> Iterator[None]:
        """``folder`` refuses new files (and renames into it or out of it)."""
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        self.frozen.append(folder)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
            self.frozen.remove(folder)

    def step(self, args: list[str], folder: dict[str, Path] | None = None,
             expect: int | None = None) -> dict[str, bytes]:
        """Run one writing step, first under the fault when this desk has one, then again once
        it is repaired; return the messages written, checked against the records."""
        before = self.mails()
        faulty = self.fault is not None and (self.fault == "full" or
                                             (folder or {}).get(self.fault) is not None)
        if faulty:
            target = (folder or {}).get(self.fault or "", self.desk)
            with self.broken(target):
                done = self.run(*args)
            assert done.returncode == 1, (args, done.stdout, done.stderr)
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("gametool: "), done.stderr
            assert "Traceback" not in done.stderr and "internal error" not in done.stderr
            assert self.mails() == before, f"{args}: a mail was written for nothing kept"
            self.nothing_half_made()
        done = self.run(*args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        new = {name: raw for name, raw in self.mails().items() if name not in before}
        if expect is not None:
            assert len(new) == expect, (args, [parse(raw)["Subject"] for raw in new.values()])
        self.check_word(new)
        assert list((self.outbox / ".journal").glob("*.json")) == []  # nothing left to finish
        return new

    def nothing_half_made(self) -> None:
        for folder in (self.games, self.outbox):
            for path in folder.rglob("*"):
                if path.is_file() and not path.name.endswith("lock"):
                    assert path.stat().st_size > 0, f"{path}: left empty"
                assert not path.name.startswith(".gametool-"), f"{path}: left half-made"

    # -- what the mails say, against what the records hold -------------------------------------

    def check_word(self, mails: dict[str, bytes]) -> None:
        for raw in mails.values():
            mail = parse(raw)
            to, subject, body = str(mail["To"]), str(mail["Subject"]), mail.get_content()
            found = PLAYER_KEY.search(body)
            if found:
                players = Keyring.from_text((self.games / "players.keys").read_text(), "players")
                assert players.matches(to, found.group(1)), "a player key not kept"
                self.keys[(to, None)] = found.group(1)
            started = re.search(r"Your game (\S+) is started", body)
            if started:
                assert (self.games / f"{started.group(1)}.gtn").is_file()
            named = MATCH.search(subject)
            if named is None:
                continue
            match = named.group(1)
            text = (self.games / f"{match}.gtn").read_text()
            record = load_one(text)
            found = SEAT_KEY.search(body)
            if found:
                ring = Keyring.from_text((self.games / f"{match}.keys").read_text(), "keys")
                assert ring.matches(to, found.group(1)), "a seat key not kept"
                self.keys[(to, match)] = found.group(1)
            ply = re.search(r", ply (\d+)$", subject)
            if ply:
                assert record.ply == int(ply.group(1)), (subject, record.ply)
            seat = record.names.index(to)
            parts = record.contributions
            facts = {
                "contribution received": parts is not None and parts[seat] is not None,
                "offers a draw": "[DrawOffer " in text,
                "asks to take back": "[UndoRequest " in text,
                "is taken back": record.ply == 0,
                "drawn by agreement": "draw by agreement" in text,
                "Every seat has accepted": "[Invited " not in text,
                "half of your time": "[Reminded " in text,
                "ends by time forfeit": "time forfeit" in text,
                "The game is over": record.outcome() is not None,
            }
            for words, holds in facts.items():
                if words in body:
                    assert holds, f"{subject!r} says {words!r}; the record does not hold it"


def first_legal(raw: bytes) -> str:
    return parse(raw).get_content().split("Legal actions:\n", 1)[1].split("\n", 1)[0]


def to_whom(mails: dict[str, bytes], address: str) -> list[bytes]:
    return [raw for raw in mails.values() if str(parse(raw)["To"]) == address]


def journey(desk: Desk, received: Received | None = None, smtp: str | None = None) -> str:
    """A season of two games, each writing step under the desk's fault; returns the master
    record of the game with chance."""
    games, outbox = desk.games, desk.outbox
    both = {"games": games, "outbox": outbox}
    made = desk.run("referee", "new", "belemmer", "--players", f"{ANN},{BEN}", "--seed", SEED,
                    *desk.folders)
    assert made.returncode == 0, made.stderr
    match = made.stdout.strip()
    desk.check_word(desk.mails())
    assert desk.run(*desk.inbox()).returncode == 0  # an empty inbox: the journal is made

    # A player allowed, who starts a game by mail; the invitation accepted.
    desk.step(["referee", "allow", ANN, *desk.folders], both, expect=1)
    desk.mail(ANN, None, f"#new chess vs {BEN} days=3")
    started = desk.step(desk.inbox(), both, expect=2)
    chess = MATCH.search(str(parse(next(iter(started.values())))["Subject"])).group(1)
    desk.mail(BEN, chess, "#join")
    desk.step(desk.inbox(), both, expect=2)

    # A move, a take-back asked and accepted, a draw offered and accepted.
    desk.mail(ANN, chess, "#ply 1\ne4")
    desk.step(desk.inbox(), both, expect=2)
    desk.mail(ANN, chess, "#ply 2\n#undo")
    desk.step(desk.inbox(), both, expect=2)
    desk.mail(BEN, chess, "#ply 2\n#accept")
    desk.step(desk.inbox(), both, expect=2)
    desk.mail(ANN, chess, "#ply 1\n#draw")
    desk.step(desk.inbox(), both, expect=2)
    desk.mail(BEN, chess, "#ply 1\n#accept")
    desk.step(desk.inbox(), both, expect=2)
    assert "draw by agreement" in (games / f"{chess}.gtn").read_text()

    # The game with chance: two contributions, the last one makes the deal; a move.
    for seat in (ANN, BEN):
        desk.mail(seat, match, f"#join {hashlib.sha256(seat.encode()).hexdigest()[:32]}")
        dealt = desk.step(desk.inbox(), both, expect=1 if seat == ANN else 2)
    mover = next(raw for raw in dealt.values() if b"Legal actions:" in raw)
    seat = str(parse(mover)["To"])
    desk.mail(seat, match, f"#ply {load_one((games / f'{match}.gtn').read_text()).ply + 1}\n"
                           f"{first_legal(mover)}")
    desk.step(desk.inbox(), both, expect=2)

    # A new key; the clock's reminder and its forfeit.
    desk.step(["referee", "rekey", match, BEN, *desk.folders], both, expect=1)
    desk.time += timedelta(days=4)
    desk.step(["referee", "tick", *desk.folders], both, expect=1)
    assert desk.run("referee", "tick", *desk.folders).stdout.startswith("reminded 0, forfeited 0")
    desk.time += timedelta(days=4)
    desk.step(["referee", "tick", *desk.folders], both, expect=2)
    again = desk.run("referee", "tick", *desk.folders)
    assert again.returncode == 0 and again.stdout.startswith("reminded 0, forfeited 0,")

    # Sending: the folder of sent messages refuses them; each message reaches the server once.
    if received is not None and smtp is not None:
        waiting = sorted(outbox.glob("*.eml"))
        assert len(waiting) == 26  # 2 openings, 1 player key, 17 by mail, 1 new key, 3 by the clock
        if desk.fault is not None:  # (a full disk stops no rename: there too, the folder)
            (outbox / "sent").mkdir(mode=0o700, exist_ok=True)
            with desk.refusing(outbox / "sent"):
                done = desk.run("referee", "send", "--outbox", str(outbox), "--smtp", smtp)
            assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done
            assert "Traceback" not in done.stderr
            assert len(received.messages) == 1  # handed over, then not moved to sent/
        done = desk.run("referee", "send", "--outbox", str(outbox), "--smtp", smtp)
        assert done.returncode == 0, done.stderr
        ids = [parse(raw)["Message-ID"] for _rcpts, raw in received.messages]
        assert len(ids) == len(set(ids)) == 26  # every message once, none twice
        assert list(outbox.glob("*.eml")) == []
    return (games / f"{match}.gtn").read_text()


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The master record of the same journey on a disk that refuses nothing (made once for
    every worker)."""
    return made_once(tmp_path_factory, "clean-desk", clean_journey)


def clean_journey(folder: Path) -> str:
    clean = Desk(folder, None)
    try:
        return journey(clean)
    finally:
        clean.close()


@pytest.mark.parametrize("fault", FAULTS)
def test_every_writing_step_under_a_fault_keeps_the_referees_word(
        tmp_path: Path, fault: str, smtp_server: tuple[Received, str], expected: str) -> None:
    received, address = smtp_server
    (tmp_path / "faulty").mkdir()
    desk = Desk(tmp_path / "faulty", fault)
    try:
        faulty = journey(desk, received, address)
    finally:
        desk.close()
    assert "time forfeit" in faulty
    assert faulty == expected  # the same deal, the same moves, the same clock
    assert subprocess.run(["gametool", "validate", "-"], input=faulty, text=True,
                          capture_output=True).returncode == 0
