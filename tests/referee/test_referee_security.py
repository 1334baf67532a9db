"""The referee under attack, through the installed command on real files: a last seat that
tries to choose the deal, secrets at rest under the usual umask, mbox reading with bounded
memory, journal entries that point outside the outbox, probing mail from outsiders, and full or
unwritable folders."""

from __future__ import annotations

import hashlib
import json
import mailbox
import os
import re
import resource
import shutil
import subprocess
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest

from gametool.core.chance import seed_hash
from gametool.records import Session, load_one
from gametool.referee.referee import DRAWN_REFUSAL, Referee

GAMETOOL = shutil.which("gametool")
ANN, BEN = "ann@example.org", "ben@example.net"
EVE = "eve@example.com"
KEY = re.compile(r"seat key(?: \(the old one no longer works\))?: ([a-z2-7]+)$", re.M)
CARD = re.compile(r"\b(?:[2-9]|10|[TJQKA])[A-Z]\b")

pytestmark = pytest.mark.skipif(GAMETOOL is None, reason="gametool is not installed")


def run(*args: str, umask: int | None = None, fsize: int | None = None,
        data: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command, in a process of its own (with that umask, or a limit on the
    size of any file it writes: a disk that takes no more)."""
    def limits() -> None:
        if umask is not None:
            os.umask(umask)
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    done = subprocess.run([GAMETOOL or "gametool", *args], input=data, capture_output=True,
                          timeout=120, preexec_fn=limits)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def compose(sender: str, subject: str, body: str) -> bytes:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "referee@localhost"
    mail["Subject"] = subject
    mail.set_content(body)
    return bytes(mail)


def read_mail(path: Path) -> Any:
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def eml(outbox: Path) -> list[Path]:
    return sorted(outbox.glob("*.eml"), key=lambda p: p.name)


def folders(tmp_path: Path) -> list[str]:
    return ["--game-dir", str(tmp_path / "games"), "--outbox", str(tmp_path / "outbox")]


def start(tmp_path: Path, game: str = "space-cards", *extra: str) -> tuple[str, dict[str, str]]:
    """A referee game started through the command; its match id and the seats' keys."""
    done = run("referee", "new", game, "--players", f"{ANN},{BEN}", *folders(tmp_path), *extra)
    assert done.returncode == 0, done.stderr
    keys = {}
    for path in eml(tmp_path / "outbox"):
        mail = read_mail(path)
        keys[str(mail["To"])] = KEY.search(mail.get_content()).group(1)
    return done.stdout.strip(), keys


def inbox(tmp_path: Path, raw: bytes, *extra: str) -> subprocess.CompletedProcess[str]:
    message = tmp_path / "in.eml"
    message.write_bytes(raw)
    return run("referee", "inbox", str(message), *folders(tmp_path), *extra)


def part(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:32]


# -- 1. the last seat to join cannot choose the deal ----------------------------------------------


def test_the_last_seat_to_join_cannot_grind_the_deal(tmp_path: Path) -> None:
    match, keys = start(tmp_path, "space-cards", "--seed", "grind-the-deal", "--weak-seed-ok")
    master = tmp_path / "games" / f"{match}.gtn"
    subject = f"Re: [gametool {match}] joining"
    assert inbox(tmp_path, compose(BEN, subject, f"#key {keys[BEN]}\n#join {part(BEN)}\n")
                 ).returncode == 0
    # Ann is the last to join and the first to move: she sends her contribution with a trade
    # of cards she does not hold, as the attack did to read the hand in the refusal.
    attack = "#key {key}\n#join {join}\n#ply 2\n{trade}\n"
    trade = "trade 2S 3S 4S"
    sent = len(eml(tmp_path / "outbox"))
    first = inbox(tmp_path, compose(ANN, subject, attack.format(key=keys[ANN], join=part("one"),
                                                                 trade=trade)))
    assert first.returncode == 1
    assert first.stderr.startswith("gametool: mail rejected: contribution recorded, actions not "
                                   "applied: this mail completed the draw")
    session = load_one(master.read_text())
    assert session.contributions == [part("one"), part(BEN)] and session.ply == 1
    deal = session.steps[0].text
    hand = session.game.view(session.state, 0)["hand"]
    assert not {"2S", "3S", "4S"} <= set(hand), "the trade must be refused by this deal"
    replies = [read_mail(p) for p in eml(tmp_path / "outbox")[sent:]]
    refusals = [m for m in replies if "not applied" in str(m["Subject"])]
    assert len(refusals) == 1 and refusals[0]["To"] == ANN
    said = refusals[0].get_content()
    assert DRAWN_REFUSAL in said and not any(card in said for card in hand), said
    assert "Your contribution to the seed is recorded" in said
    # Every seat has its view of the deal, as after any last contribution.
    views = [m for m in replies if m not in refusals]
    assert sorted(str(m["To"]) for m in views) == [ANN, BEN]
    # The same mail again with other contributions: each refused, the deal never changes.
    before = master.read_bytes()
    for attempt in range(3):
        again = inbox(tmp_path, compose(ANN, subject, attack.format(
            key=keys[ANN], join=part(f"other {attempt}"), trade=trade)))
        assert again.returncode == 1 and "already arrived" in again.stderr, again.stderr
        assert master.read_bytes() == before
        reply = read_mail(eml(tmp_path / "outbox")[-1]).get_content()
        assert not any(card in reply for card in hand)
    assert load_one(master.read_text()).steps[0].text == deal
    # Her trade, sent again in a mail of its own, is refused for what it is, and a legal one
    # is applied.
    alone = inbox(tmp_path, compose(ANN, subject, f"#key {keys[ANN]}\n#ply 2\n{trade}\n"))
    assert alone.returncode == 1 and "not in" in alone.stderr
    legal = "trade " + " ".join(hand[:3])
    assert inbox(tmp_path, compose(ANN, subject, f"#key {keys[ANN]}\n#ply 2\n{legal}\n")
                 ).returncode == 0


def test_a_refusal_in_the_mail_that_completes_the_draw_is_the_same_whatever_the_deal(
        tmp_path: Path) -> None:
    said = set()
    hands = set()
    for number in range(6):
        ref = Referee(tmp_path / f"g{number}", tmp_path / f"o{number}")
        match, opening = ref.new("space-cards", [ANN, BEN], seed=f"deal {number}",
                                 weak_seed_ok=True)
        keys = {m.to: KEY.search(m.body).group(1) for m in opening}
        subject = f"[gametool {match}] join"
        assert ref.receive(compose(BEN, subject, f"#key {keys[BEN]}\n#join {part(BEN)}\n")
                           ).applied
        receipt = ref.receive(compose(ANN, subject, f"#key {keys[ANN]}\n#join {part(ANN)}\n"
                                                    "#ply 2\ntrade 2S 3S 4S\n"))
        assert not receipt.applied
        session = load_one(ref.master(match).read_text())
        assert session.contributions == [part(ANN), part(BEN)]
        hands.add(session.steps[0].text)
        (refusal,) = [m for m in receipt.messages if "not applied" in m.subject]
        said.add((receipt.reason, refusal.body))
    assert len(hands) == 6 and len(said) == 1


@pytest.mark.parametrize("rest", [
    "#draw\n",                           # a command with no '#ply' guard
    "#ply 2\ntrade 2S 3S 4S\n#draw\n",    # an action the deal refuses, then a command
    "#ply 2\n#undo\n",                   # a take-back with nothing of hers to take back
    "#ply 2\n#frobnicate\n",             # a command that does not exist
])
def test_commands_in_the_mail_that_completes_the_draw_cannot_grind_it(
        tmp_path: Path, rest: str) -> None:
    """The same holds when the rest of the mail is a command: the contribution is kept, the
    refusal names nothing of the deal, and another contribution is refused."""
    said = set()
    for number in range(3):
        ref = Referee(tmp_path / f"g{number}", tmp_path / f"o{number}")
        match, opening = ref.new("space-cards", [ANN, BEN], seed=f"commands {number}",
                                 weak_seed_ok=True)
        keys = {m.to: KEY.search(m.body).group(1) for m in opening}
        subject = f"[gametool {match}] join"
        assert ref.receive(compose(BEN, subject, f"#key {keys[BEN]}\n#join {part(BEN)}\n")
                           ).applied
        receipt = ref.receive(compose(ANN, subject,
                                      f"#key {keys[ANN]}\n#join {part(ANN)}\n{rest}"))
        assert not receipt.applied and "contribution recorded" in receipt.reason
        session = load_one(ref.master(match).read_text())
        assert session.contributions == [part(ANN), part(BEN)] and session.ply == 1
        hand = session.game.view(session.state, 0)["hand"]
        (refusal,) = [m for m in receipt.messages if "not applied" in m.subject]
        assert not any(card in refusal.body for card in hand)
        said.add((receipt.reason, refusal.body))
        before = ref.master(match).read_bytes()
        again = ref.receive(compose(ANN, subject,
                                    f"#key {keys[ANN]}\n#join {part(EVE)}\n{rest}"))
        assert not again.applied and "already arrived" in again.reason
        assert ref.master(match).read_bytes() == before
    assert len(said) == 1, said


def test_a_contribution_is_kept_when_the_mail_s_actions_are_refused(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "g", tmp_path / "o")
    match, opening = ref.new("space-cards", [ANN, BEN], seed="kept", weak_seed_ok=True)
    keys = {m.to: KEY.search(m.body).group(1) for m in opening}
    subject = f"[gametool {match}] join"
    # Ann joins first, with a move while chance still waits: her part is kept, the move is
    # refused with its reason (no draw was made by her mail).
    receipt = ref.receive(compose(ANN, subject, f"#key {keys[ANN]}\n#join {part(ANN)}\n"
                                                "#ply 1\ntrade 2S 3S 4S\n"))
    assert not receipt.applied and "contribution recorded" in receipt.reason
    assert "waiting" in receipt.reason
    assert load_one(ref.master(match).read_text()).contributions == [part(ANN), None]
    assert sorted(m.subject.split("] ", 1)[1] for m in receipt.messages) == [
        "Space Cards, contribution received", "your actions were not applied"]
    again = ref.receive(compose(ANN, subject, f"#key {keys[ANN]}\n#join {part(EVE)}\n"))
    assert not again.applied and "already arrived" in again.reason
    assert ref.receive(compose(BEN, subject, f"#key {keys[BEN]}\n#join {part(BEN)}\n")).applied
    assert load_one(ref.master(match).read_text()).contributions == [part(ANN), part(BEN)]


def test_validate_seed_hash_refuses_a_seed_no_seat_contributed_to(tmp_path: Path) -> None:
    solo = Session.start("space-cards", [ANN, BEN], seed="referee alone")
    path = tmp_path / "solo.gtn"
    path.write_text(solo.text())
    commitment = seed_hash("referee alone")
    done = run("validate", str(path), "--seed-hash", commitment)
    assert done.returncode == 1 and done.stdout.startswith(f"{path}: invalid: ")  # its verdict
    assert done.stdout.count("\n") == 1 and "no seat contributed" in done.stdout
    assert "no seat contributed to the seed" in done.stderr and "--referee-only-seed" in done.stderr
    assert done.stderr.count("\n") == 1
    agreed = run("validate", str(path), "--seed-hash", commitment, "--referee-only-seed")
    assert agreed.returncode == 0, agreed.stderr
    # A joint record passes without the option; a game that draws nothing needs no parts.
    joint = Session.start("space-cards", [ANN, BEN], seed="secret", joint=True)
    joint.contribute(ANN, part(ANN))
    joint.contribute(BEN, part(BEN))
    (tmp_path / "joint.gtn").write_text(joint.text())
    assert run("validate", str(tmp_path / "joint.gtn"), "--seed-hash", seed_hash("secret")
               ).returncode == 0
    chess = Session.start("chess", [ANN, BEN], seed="no draws")
    (tmp_path / "chess.gtn").write_text(chess.text())
    assert run("validate", str(tmp_path / "chess.gtn"), "--seed-hash", seed_hash("no draws")
               ).returncode == 0


# -- 2. secrets at rest ---------------------------------------------------------------------------


def every_entry(*roots: Path) -> Iterator[Path]:
    for root in roots:
        yield root
        yield from root.rglob("*")


def test_every_folder_and_file_the_referee_writes_is_its_own_under_umask_022(
        tmp_path: Path) -> None:
    from test_mail_transport import Controller, Received, free_port

    handler = Received()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        smtp = ["--smtp", f"127.0.0.1:{controller.port}"]
        (tmp_path / "games").mkdir(mode=0o755)  # a folder made by hand, open to all: narrowed
        done = run("referee", "new", "space-cards", "--players", f"{ANN},{BEN}",
                   *folders(tmp_path), *smtp, umask=0o022)
        assert done.returncode == 0, done.stderr
        match = done.stdout.strip()
        keys = {}
        for path in (tmp_path / "outbox" / "sent").glob("*.eml"):
            mail = read_mail(path)
            keys[str(mail["To"])] = KEY.search(mail.get_content()).group(1)
        box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
        box.add(compose(BEN, f"[gametool {match}] join", f"#key {keys[BEN]}\n#join {part(BEN)}"))
        done = run("referee", "inbox", "--maildir", str(tmp_path / "Maildir"),
                   *folders(tmp_path), *smtp, umask=0o022)
        assert done.returncode == 0, done.stderr
        mbox = tmp_path / "mbox"
        with open(mbox, "wb") as handle:
            handle.write(b"From ann@example.org Thu Nov 26 10:00:00 2026\n" + compose(
                ANN, f"[gametool {match}] join", f"#key {keys[ANN]}\n#join {part(ANN)}\n"))
        done = run("referee", "inbox", "--mbox", str(mbox), *folders(tmp_path), umask=0o022)
        assert done.returncode == 0, done.stderr
        done = run("referee", "rekey", match, BEN, *folders(tmp_path), umask=0o022)
        assert done.returncode == 0, done.stderr
        done = run("referee", "send", "--outbox", str(tmp_path / "outbox"), *smtp, umask=0o022)
        assert done.returncode == 0, done.stderr
    finally:
        controller.stop()
    assert len(handler.messages) == 6  # 2 openings, 1 + 2 after the joins, 1 new key
    seen = {"record": 0, "keys": 0, "sent": 0, "journal": 0}
    for entry in every_entry(tmp_path / "games", tmp_path / "outbox"):
        mode = entry.stat().st_mode & 0o777
        if entry.is_dir():
            assert mode == 0o700, (entry, oct(mode))
            continue
        assert mode == 0o600, (entry, oct(mode))
        seen["record"] += entry.suffix == ".gtn"
        seen["keys"] += entry.suffix == ".keys"
        seen["sent"] += entry.parent.name == "sent"
        seen["journal"] += entry.parent.name == ".journal"
    assert seen == {"record": 1, "keys": 1, "sent": 6, "journal": 2}  # the run and send locks
    # Secrets are in them: the seed and the hands in the record, a key in each opening mail.
    assert "[Seed " in (tmp_path / "games" / f"{match}.gtn").read_text()
    assert list((tmp_path / "outbox").glob("*.eml")) == []


# -- 6. hardening ---------------------------------------------------------------------------------


def peak_kib(args: list[str]) -> tuple[int, int]:
    """Run the installed command; its exit status and the peak memory of its process (KiB)."""
    process = subprocess.Popen([GAMETOOL or "gametool", *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss


def test_mbox_reads_each_message_only_up_to_max_bytes(tmp_path: Path) -> None:
    match, keys = start(tmp_path, "belemmer")
    big = 96 * 1024 * 1024

    def write_mbox(path: Path, huge: int) -> None:
        with open(path, "wb") as handle:
            handle.write(b"From ben@example.net Thu Nov 26 10:00:00 2026\n")
            handle.write(compose(BEN, f"[gametool {match}] join",
                                 f"#key {keys[BEN]}\n#join {part(BEN)}\n"))
            handle.write(b"\nFrom ann@example.org Thu Nov 26 10:01:00 2026\n")
            handle.write(f"From: {ANN}\nSubject: [gametool {match}] x\n\n".encode())
            block = b"z" * (1 << 20)  # one line, no line break in 96 MiB
            for _ in range(huge // len(block)):
                handle.write(block)
            handle.write(b"\n\nFrom ann@example.org Thu Nov 26 10:02:00 2026\n")
            handle.write(compose(ANN, f"[gametool {match}] join",
                                 f"#key {keys[ANN]}\n#join {part(ANN)}\n"))

    small = tmp_path / "small.mbox"
    write_mbox(small, 1 << 20)
    shutil.copytree(tmp_path / "games", tmp_path / "g2")
    code, base = peak_kib(["referee", "inbox", "--mbox", str(small), "--max-bytes", "65536",
                           "--game-dir", str(tmp_path / "g2"), "--outbox", str(tmp_path / "o2")])
    assert code == 0
    path = tmp_path / "big.mbox"
    write_mbox(path, big)
    code, peak = peak_kib(["referee", "inbox", "--mbox", str(path), "--max-bytes", "65536",
                           *folders(tmp_path)])
    print(f"mbox with a 96 MiB message: peak {peak} KiB, with a 1 MiB one {base} KiB")
    assert code == 0
    assert peak < base + 16 * 1024, (peak, base)
    assert path.stat().st_size == 0
    session = load_one((tmp_path / "games" / f"{match}.gtn").read_text())
    assert session.contributions == [part(ANN), part(BEN)]
    refused = [read_mail(p) for p in eml(tmp_path / "outbox")]
    too_big = [m for m in refused if "not applied" in str(m["Subject"])]
    assert len(too_big) == 1 and too_big[0]["To"] == ANN
    said = too_big[0].get_content()
    assert "more than the referee reads (65536)" in said
    assert int(re.search(r"the mail is (\d+) bytes", said).group(1)) > big


def test_journal_entries_cannot_name_files_outside_the_outbox(tmp_path: Path) -> None:
    match, keys = start(tmp_path, "belemmer")
    journal = tmp_path / "outbox" / ".journal"
    journal.mkdir(exist_ok=True)
    outside = tmp_path / "outside.eml"
    forged = {"record": None, "applied": False, "reason": "x",
              "files": [["../../outside.eml", "planted"], [str(outside), "planted"],
                        [".journal/x.eml", "planted"]]}
    raw = compose(BEN, f"[gametool {match}] join", f"#key {keys[BEN]}\n#join {part(BEN)}\n")
    for key in ("a" * 64, hashlib.sha256(raw).hexdigest()):
        (journal / f"{key}.json").write_text(json.dumps(forged))
    done = inbox(tmp_path, raw)
    assert done.returncode == 0, done.stderr  # the mail's own entry was no entry: applied
    assert not outside.exists() and not (tmp_path / "outside.eml").exists()
    assert not (journal / "x.eml").exists()
    # What is left: the marker of the mail done (its retry is answered by nothing new).
    left = sorted(p.name for p in journal.iterdir())
    assert left == sorted(["lock", f"{hashlib.sha256(raw).hexdigest()}.json"])
    assert json.loads((journal / left[0 if left[0] != "lock" else 1]).read_text())["done"]
    assert load_one((tmp_path / "games" / f"{match}.gtn").read_text()).contributions[1] == \
        part(BEN)
    # An entry whose record is a file outside the game folder (that it "holds the outcome"
    # proves nothing): the planted message is not written, the mail is applied afresh.
    decoy = tmp_path / "decoy.gtn"
    decoy.write_text("anything\n")
    planted = "00000000000000000001-1-0badc0de.eml"
    raw = compose(ANN, f"[gametool {match}] join", f"#key {keys[ANN]}\n#join {part(ANN)}\n")
    (journal / f"{hashlib.sha256(raw).hexdigest()}.json").write_text(json.dumps(
        {"record": str(decoy), "after": hashlib.sha256(decoy.read_bytes()).hexdigest(),
         "applied": True, "reason": None, "files": [[planted, "From: x\n\nplanted\n"]]}))
    assert inbox(tmp_path, raw).returncode == 0
    assert not (tmp_path / "outbox" / planted).exists()
    assert load_one((tmp_path / "games" / f"{match}.gtn").read_text()).contributions == [
        part(ANN), part(BEN)]
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    for name in ("../x.eml", "/tmp/x.eml", "x.txt", ".hidden.eml", "a/b.eml", ""):
        with pytest.raises(Exception, match="not the name of an outbox message"):
            ref.write_files([(name, "text")])


def test_outsiders_get_no_reply_and_cannot_tell_which_games_exist(tmp_path: Path) -> None:
    from test_mail_transport import Controller, Received, free_port

    match, keys = start(tmp_path, "belemmer")
    master = tmp_path / "games" / f"{match}.gtn"
    before = master.read_bytes()
    handler = Received()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        smtp = ["--smtp", f"127.0.0.1:{controller.port}"]
        assert run("referee", "send", "--outbox", str(tmp_path / "outbox"), *smtp
                   ).returncode == 0
        opened = len(handler.messages)
        probes = [
            (EVE, f"[gametool {match}] hello", f"#key {keys[ANN]}\n#ply 3\nplace a1"),  # real id
            (EVE, "[gametool belemmer-00000000] hello", "#key x\n#ply 3\nplace a1"),  # no such
            (EVE, "hello", f"#key x\n#ply 3\nplace a1\n[gametool {match}]"),  # id in the text
            (EVE, "no game at all", "#ply 3\nplace a1"),
            (EVE, f"[gametool {match.upper()}]", "#key x\n#ply 1\nplace a1"),
        ]
        probes += [(EVE, f"[gametool belemmer-{n:08x}]", "#ply 1\nx") for n in range(8)]
        # A seat's own address naming a game it does not play in is no different.
        probes.append((ANN, "[gametool belemmer-0badc0de]", f"#key {keys[ANN]}\n#ply 3\nx"))
        lines = set()
        for sender, subject, body in probes[:2]:  # one mail piped in at a time
            done = inbox(tmp_path, compose(sender, subject, body), *smtp)
            assert done.returncode == 1 and done.stdout == ""
            assert done.stderr.count("\n") == 1
            lines.add(done.stderr.replace(sender, "SENDER"))
        assert lines == {"gametool: mail dropped: SENDER holds no seat in a game this mail "
                         "names; no reply is sent\n"}
        box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
        for sender, subject, body in probes:  # all of them, and again, from a Maildir
            box.add(compose(sender, subject, body))
            box.add(compose(sender, subject, body + "\n"))
        done = run("referee", "inbox", "--maildir", str(tmp_path / "Maildir"),
                   *folders(tmp_path), *smtp)
        assert done.returncode == 0 and done.stdout == ""
        said = done.stderr.splitlines()
        assert len(said) == 2 * len(probes)
        assert {line.replace(EVE, "SENDER").replace(ANN, "SENDER") for line in said} == {
            "gametool: mail not applied: dropped: SENDER holds no seat in a game this mail "
            "names; no reply is sent"}
        assert len(handler.messages) == opened
        assert eml(tmp_path / "outbox") == [] and master.read_bytes() == before
        # A forged From of a seat with a wrong key: the refusal goes to the seat's registered
        # address only (never to a Reply-To or to whoever wrote), and nothing changes.
        forged = EmailMessage()
        forged["From"] = f"Ann <{ANN.upper()}>"
        forged["Reply-To"] = EVE
        forged["To"] = "referee@localhost"
        forged["Subject"] = f"[gametool {match}] move"
        forged.set_content("#key guessed\n#ply 3\nplace a1\n")
        done = inbox(tmp_path, bytes(forged), *smtp)
        assert done.returncode == 1 and "is not ann@example.org's key" in done.stderr
        sent = handler.messages[opened:]
        assert [rcpt for rcpt, _raw in sent] == [[ANN]]
        assert master.read_bytes() == before
    finally:
        controller.stop()


# -- folders and disks that fail ------------------------------------------------------------------


def leftovers(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_referee_new_with_an_outbox_that_cannot_be_made_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file, not a folder\n")
    done = run("referee", "new", "belemmer", "--players", f"{ANN},{BEN}", "--game-dir",
               str(tmp_path / "games"), "--outbox", str(tmp_path / "file" / "outbox"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "internal error" not in done.stderr
    assert "file/outbox: cannot make the folder: Not a directory" in done.stderr
    assert not (tmp_path / "games").exists()
    # The game folder there already: left as it was, with nothing in it.
    (tmp_path / "games").mkdir()
    done = run("referee", "new", "belemmer", "--players", f"{ANN},{BEN}", "--game-dir",
               str(tmp_path / "games"), "--outbox", str(tmp_path / "file" / "outbox"))
    assert done.returncode == 1 and leftovers(tmp_path / "games") == []


@pytest.mark.parametrize("limit", [0, 300, 1000])
def test_referee_new_on_a_disk_that_takes_no_more_leaves_nothing(tmp_path: Path,
                                                                  limit: int) -> None:
    # RLIMIT_FSIZE: the kernel refuses to write a file past ``limit`` bytes (EFBIG), for root
    # too. The key file (~350 bytes) fails, then (past the record, ~160) the opening mails
    # (~2300 bytes each).
    done = run("referee", "new", "space-cards", "--players", f"{ANN},{BEN}",
               *folders(tmp_path), fsize=limit)
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "cannot write: File too large" in done.stderr
    assert leftovers(tmp_path / "games") == [] and leftovers(tmp_path / "outbox") == []


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs, filled up (needs the right to mount: root in CI)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def fill(folder: Path) -> None:
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)


def test_a_full_disk_is_one_line_for_new_inbox_and_send(tmp_path: Path,
                                                       tiny_disk: Path) -> None:
    games, outbox = tiny_disk / "games", tiny_disk / "outbox"
    where = ["--game-dir", str(games), "--outbox", str(outbox)]
    fill(tiny_disk)
    done = run("referee", "new", "belemmer", "--players", f"{ANN},{BEN}", *where)
    assert done.returncode == 1 and "no space left on the device" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1
    assert leftovers(games) == [] and leftovers(outbox) == []
    assert not games.exists() and not outbox.exists()
    # Room for one game, then the disk is full again: a mail is one line, nothing changes.
    (tiny_disk / "filler").unlink()
    done = run("referee", "new", "belemmer", "--players", f"{ANN},{BEN}", *where)
    assert done.returncode == 0, done.stderr
    match = done.stdout.strip()
    keys = {}
    for path in eml(outbox):
        mail = read_mail(path)
        keys[str(mail["To"])] = KEY.search(mail.get_content()).group(1)
    master = games / f"{match}.gtn"
    before = master.read_bytes()
    mail = tmp_path / "in.eml"
    mail.write_bytes(compose(ANN, f"[gametool {match}] join",
                             f"#key {keys[ANN]}\n#join {part(ANN)}\n"))
    waiting = eml(outbox)
    fill(tiny_disk)
    done = run("referee", "inbox", str(mail), *where)
    # A mail filter's temporary failure (EX_TEMPFAIL): the mail server tries again.
    assert done.returncode == 75 and "no space left on the device" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "internal error" not in done.stderr
    assert master.read_bytes() == before and eml(outbox) == waiting
    # Freed again, the same mail is applied once.
    (tiny_disk / "filler").unlink()
    assert run("referee", "inbox", str(mail), *where).returncode == 0
    assert load_one(master.read_text()).contributions == [part(ANN), None]
    # Sending with a sent/ folder that cannot be made: one line, the messages stay.
    (outbox / "sent").write_text("in the way\n")
    done = run("referee", "send", "--outbox", str(outbox), "--sendmail", "cat")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "sent" in done.stderr and "internal error" not in done.stderr
    assert len(eml(outbox)) == len(waiting) + 1


def test_rekey_and_inbox_with_an_outbox_in_the_way_are_one_line_and_change_nothing(
        tmp_path: Path) -> None:
    match, keys = start(tmp_path, "belemmer")
    master = tmp_path / "games" / f"{match}.gtn"
    key_file = tmp_path / "games" / f"{match}.keys"
    before = master.read_bytes(), key_file.read_bytes()
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the outbox should be\n")
    where = ["--game-dir", str(tmp_path / "games"), "--outbox", str(blocked / "outbox")]
    done = run("referee", "rekey", match, BEN, *where)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "blocked/outbox: cannot make the folder" in done.stderr
    mail = tmp_path / "in.eml"
    mail.write_bytes(compose(BEN, f"[gametool {match}] join",
                             f"#key {keys[BEN]}\n#join {part(BEN)}\n"))
    done = run("referee", "inbox", str(mail), *where)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "blocked/outbox: cannot make the folder" in done.stderr
    assert (master.read_bytes(), key_file.read_bytes()) == before
    # The old key still works: the new one was never issued, since it could not be sent.
    assert inbox(tmp_path, mail.read_bytes()).returncode == 0


def test_inbox_on_a_disk_that_takes_no_more_is_one_line_and_applies_nothing(
        tmp_path: Path) -> None:
    match, keys = start(tmp_path, "space-cards")
    master = tmp_path / "games" / f"{match}.gtn"
    before = master.read_bytes()
    waiting = eml(tmp_path / "outbox")
    mail = tmp_path / "in.eml"
    mail.write_bytes(compose(ANN, f"[gametool {match}] join",
                             f"#key {keys[ANN]}\n#join {part(ANN)}\n"))
    # The journal entry (the record's digests and the reply, ~1.5 KB) cannot be written.
    done = run("referee", "inbox", str(mail), *folders(tmp_path), fsize=600)
    assert done.returncode == 75 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "cannot write: File too large" in done.stderr and "internal error" not in done.stderr
    assert master.read_bytes() == before and eml(tmp_path / "outbox") == waiting
    assert [p.name for p in (tmp_path / "outbox" / ".journal").iterdir()] == ["lock"]
    assert run("referee", "inbox", str(mail), *folders(tmp_path)).returncode == 0
    assert load_one(master.read_text()).contributions == [part(ANN), None]
