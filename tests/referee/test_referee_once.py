"""Exactly once: a tick killed anywhere, a tick between an inbox cut short and its rerun, two
senders at once; an mbox read in bytes linear in its messages; a flood of refused mails
answered once an hour."""

from __future__ import annotations

import mailbox
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gametool.records import load_one

pytest.importorskip("aiosmtpd")
import test_mail_transport  # noqa: E402
from test_mail_transport import Received, compose, parse  # noqa: E402

smtp_server = test_mail_transport.smtp_server  # the real SMTP server on 127.0.0.1

ANN, BEN = "ann@example.org", "ben@example.net"
SEAT_KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)


def gametool(*args: str, now: str | None = None, check: bool = True
             ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"GAMETOOL_NOW": now} if now else {})}
    done = subprocess.run(["gametool", *args], capture_output=True, text=True, env=env)
    if check:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def seat_keys(outbox: Path) -> dict[tuple[str, str], str]:
    keys = {}
    for path in sorted(outbox.glob("*.eml")) + sorted((outbox / "sent").glob("*.eml")):
        mail = parse(path.read_bytes())
        found = SEAT_KEY.search(mail.get_content())
        match = re.search(r"\[gametool ([a-z0-9-]+)\]", str(mail["Subject"]))
        if found and match:
            keys[(str(mail["To"]), match.group(1))] = found.group(1)
    return keys


def test_a_tick_killed_anywhere_forfeits_once_and_mails_once(tmp_path: Path) -> None:
    template = tmp_path / "template"
    folders = ["--game-dir", str(template / "games"), "--outbox", str(template / "outbox")]
    for _ in range(6):
        gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}", "--days", "1",
                 *folders, now="2026-12-01T09:00:00Z")
    for path in (template / "outbox").glob("*.eml"):
        path.unlink()
    # How long a whole tick takes here: the kills below are spread from its start to its end.
    whole = tmp_path / "whole"
    shutil.copytree(template, whole)
    began = time.monotonic()
    gametool("referee", "tick", "--game-dir", str(whole / "games"), "--outbox",
             str(whole / "outbox"), now="2026-12-03T09:00:00Z")
    took = time.monotonic() - began
    kills = 0
    for run in range(15):
        here = tmp_path / f"run{run}"
        shutil.copytree(template, here)
        folders = ["--game-dir", str(here / "games"), "--outbox", str(here / "outbox")]
        env = {**os.environ, "GAMETOOL_NOW": "2026-12-03T09:00:00Z"}
        tick = subprocess.Popen(["gametool", "referee", "tick", *folders], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(took * (run + 0.5) / 12)  # from before the first game to after the last
        if tick.poll() is None:
            tick.send_signal(signal.SIGKILL)
            kills += 1
        tick.wait()
        gametool("referee", "tick", *folders, now="2026-12-03T09:00:00Z")
        again = gametool("referee", "tick", *folders, now="2026-12-03T10:00:00Z")
        assert again.stdout.startswith("reminded 0, forfeited 0,")
        mails = [parse(p.read_bytes()) for p in (here / "outbox").glob("*.eml")]
        for record in (here / "games").glob("*.gtn"):
            text = record.read_text()
            assert text.count("end: 1-0 time forfeit") + text.count("end: 0-1 time forfeit") \
                == 1, (run, text)
            told = [m for m in mails if record.stem in str(m["Subject"])]
            assert sorted(str(m["To"]) for m in told) == [ANN, BEN], (run, record.stem)
        assert list((here / "outbox" / ".journal").glob("*.json")) == []
    assert kills >= 5  # most runs were cut short somewhere


def test_a_tick_between_an_inbox_cut_short_and_its_rerun(tmp_path: Path) -> None:
    """The inbox replaced the record, then could not write the replies (its outbox refused
    them, as when it is killed at that moment); a tick runs, and changes the record; the
    rerun of the inbox files the mail: the replies go out once, and nobody is told the mail
    was not applied."""
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    match = gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}", "--days", "2",
                     *folders, now="2026-12-01T09:00:00Z").stdout.strip()
    keys = seat_keys(outbox)
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    inbox = ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"), *folders]
    gametool(*inbox, now="2026-12-01T09:00:00Z")  # (the journal's folder is made)
    box.add(compose(ANN, f"Re: [gametool {match}]", f"#key {keys[(ANN, match)]}\n#ply 1\ne4\n"))
    before = {p.name for p in outbox.glob("*.eml")}
    if subprocess.run(["chattr", "+i", str(outbox)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is refused here: no folder can be made to refuse a file")
    try:
        cut = gametool(*inbox, now="2026-12-01T10:00:00Z", check=False)
    finally:
        subprocess.run(["chattr", "-i", str(outbox)], check=True)
    assert cut.returncode == 1 and len(cut.stderr.strip().splitlines()) == 1, cut.stderr
    assert load_one((games / f"{match}.gtn").read_text()).ply == 1  # kept, not yet told
    assert {p.name for p in outbox.glob("*.eml")} == before
    out = gametool("referee", "tick", *folders, now="2026-12-02T11:00:00Z").stdout
    assert out.startswith("reminded 1,")
    gametool(*inbox, now="2026-12-02T12:00:00Z")
    new = [parse(p.read_bytes()) for p in outbox.glob("*.eml") if p.name not in before]
    subjects = sorted((str(m["To"]), str(m["Subject"])) for m in new)
    assert subjects == [(ANN, f"[gametool {match}] Chess, ply 1"),
                        (BEN, f"[gametool {match}] Chess, ply 1"),
                        (BEN, f"[gametool {match}] reminder, your move")], subjects
    assert list((tmp_path / "Maildir" / "new").iterdir()) == []


def test_two_senders_at_once_send_each_message_once(
        tmp_path: Path, smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    outbox = tmp_path / "outbox"
    outbox.mkdir(mode=0o700)
    for n in range(300):
        mail = compose("referee@localhost", f"message {n}", f"text {n}\n")
        mail.replace_header("To", f"p{n % 7}@example.org")
        (outbox / f"{n:020d}-1-aaaa{n:04d}.eml").write_bytes(bytes(mail))
    senders = [subprocess.Popen(["gametool", "referee", "send", "--outbox", str(outbox),
                                 "--smtp", address], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for sender in senders:
        _out, err = sender.communicate()
        assert sender.returncode == 0 and err == "", err
    subjects = [str(parse(raw)["Subject"]) for _rcpts, raw in received.messages]
    assert len(subjects) == len(set(subjects)) == 300
    assert len(list((outbox / "sent").glob("*.eml"))) == 300


def bytes_written(*args: str) -> int:
    """The bytes one gametool command writes (the kernel's count of its write calls)."""
    probe = ("import atexit, sys\n"
             "def report():\n"
             "    for line in open('/proc/self/io'):\n"
             "        if line.startswith('wchar:'):\n"
             "            sys.stderr.write('WCHAR ' + line.split()[1] + '\\n')\n"
             "atexit.register(report)\n"
             "from gametool.cli import main\n"
             "sys.argv = ['gametool'] + sys.argv[1:]\n"
             "main()\n")
    if not Path("/proc/self/io").exists():
        pytest.skip("no /proc/self/io here to count the bytes a process writes")
    done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True)
    found = re.findall(r"^WCHAR (\d+)$", done.stderr, re.M)
    assert found, done.stderr
    return int(found[-1])


def test_an_mbox_costs_bytes_linear_in_its_messages(tmp_path: Path,
                                                    record_property: object) -> None:
    figures = {}
    for count in (100, 400):
        here = tmp_path / str(count)
        games, outbox = here / "games", here / "outbox"
        folders = ["--game-dir", str(games), "--outbox", str(outbox)]
        match = gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}",
                         *folders).stdout.strip()
        box = mailbox.mbox(str(here / "in.mbox"))
        for n in range(count):  # mail from nobody who holds a seat: dropped, unanswered
            box.add(compose(f"x{n}@example.com", f"[gametool {match}] {n}", f"#ply 1\ne4 {n}\n"))
        box.close()
        figures[count] = bytes_written("referee", "inbox", "--mbox", str(here / "in.mbox"),
                                       *folders)
        assert (here / "in.mbox").stat().st_size == 0
    ratio = figures[400] / figures[100]
    record_property("count:mbox bytes written for 100 messages", figures[100])
    record_property("count:mbox bytes written for 400 messages", figures[400])
    assert ratio < 5, figures  # linear: about 4 (the square would be about 16)


def test_a_flood_of_refused_mails_gets_one_refusal_an_hour(tmp_path: Path) -> None:
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    match = gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}", *folders,
                     now="2026-12-01T09:00:00Z").stdout.strip()
    for path in outbox.glob("*.eml"):
        path.unlink()
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    for n in range(60):  # forged: from ann's address, without ann's key
        box.add(compose(ANN, f"Re: [gametool {match}] {n}", f"#key wrongkey{n}\n#ply 1\ne4\n"))
    inbox = ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"), *folders]
    done = gametool(*inbox, now="2026-12-01T09:10:00Z", check=False)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2, lines  # the refusal sent, and the count of the others
    assert "59 more mails refused without a reply" in lines[1]
    refusals = [parse(p.read_bytes()) for p in outbox.glob("*.eml")]
    assert [str(m["To"]) for m in refusals] == [ANN]
    box.add(compose(ANN, f"Re: [gametool {match}] again", "#key wrongagain\n#ply 1\ne4\n"))
    gametool(*inbox, now="2026-12-01T09:50:00Z", check=False)
    assert len(list(outbox.glob("*.eml"))) == 1  # still within the hour
    box.add(compose(ANN, f"Re: [gametool {match}] later", "#key wronglater\n#ply 1\ne4\n"))
    gametool(*inbox, now="2026-12-01T10:20:00Z", check=False)
    later = [parse(p.read_bytes()) for p in outbox.glob("*.eml")]
    assert len(later) == 2
    assert any("60 more mails of yours were refused" in m.get_content() for m in later)


def test_a_piped_mail_whose_record_could_not_be_kept_is_finished_by_the_next_run(
        tmp_path: Path) -> None:
    """A mail filter pipes one mail; the game folder refuses the new record: one line, no
    reply. The next run, whatever mail it brings, first keeps that outcome, then replies."""
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    match = gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}", *folders,
                     now="2026-12-01T09:00:00Z").stdout.strip()
    keys = seat_keys(outbox)
    before = {p.name for p in outbox.glob("*.eml")}
    move = tmp_path / "move.eml"
    move.write_bytes(bytes(compose(ANN, f"Re: [gametool {match}]",
                                   f"#key {keys[(ANN, match)]}\n#ply 1\ne4\n")))
    if subprocess.run(["chattr", "+i", str(games)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is refused here: no folder can be made to refuse a file")
    try:
        cut = gametool("referee", "inbox", str(move), *folders, now="2026-12-01T10:00:00Z",
                       check=False)
    finally:
        subprocess.run(["chattr", "-i", str(games)], check=True)
    assert cut.returncode == 75 and len(cut.stderr.strip().splitlines()) == 1, cut.stderr
    assert {p.name for p in outbox.glob("*.eml")} == before
    assert load_one((games / f"{match}.gtn").read_text()).ply == 0
    show = tmp_path / "show.eml"
    show.write_bytes(bytes(compose(BEN, f"Re: [gametool {match}]",
                                   f"#key {keys[(BEN, match)]}\n#show\n")))
    gametool("referee", "inbox", str(show), *folders, now="2026-12-01T11:00:00Z")
    assert load_one((games / f"{match}.gtn").read_text()).ply == 1
    new = [parse(p.read_bytes()) for p in outbox.glob("*.eml") if p.name not in before]
    assert sorted((str(m["To"]), str(m["Subject"])) for m in new) == [
        (ANN, f"[gametool {match}] Chess, ply 1"), (BEN, f"[gametool {match}] Chess, ply 1"),
        (BEN, f"[gametool {match}] Chess: your #show")]
    assert "e4" in next(m for m in new if "#show" in str(m["Subject"])).get_content()
    # the same mail piped again (a mail system that retries) is not applied twice, and is
    # not told "not applied" either: it was applied, once, and nothing new is written
    written = sorted(p.name for p in outbox.glob("*.eml"))
    again = gametool("referee", "inbox", str(move), *folders, now="2026-12-01T12:00:00Z",
                     check=False)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert load_one((games / f"{match}.gtn").read_text()).ply == 1
    assert sorted(p.name for p in outbox.glob("*.eml")) == written


def test_one_game_whose_record_cannot_be_kept_stops_no_other(tmp_path: Path) -> None:
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    stuck, fine = (gametool("referee", "new", "chess", "--players", f"{ANN},{BEN}", *folders,
                            now="2026-12-01T09:00:00Z").stdout.strip() for _ in range(2))
    keys = seat_keys(outbox)
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    inbox = ["referee", "inbox", "--maildir", str(tmp_path / "Maildir"), *folders]
    gametool(*inbox)
    before = {p.name for p in outbox.glob("*.eml")}
    for sender, match, text in ((ANN, stuck, "#ply 1\ne4"), (BEN, stuck, "#ply 2\ne5"),
                                (ANN, fine, "#ply 1\nd4")):
        box.add(compose(sender, f"Re: [gametool {match}] {text[-2:]}",
                        f"#key {keys[(sender, match)]}\n{text}\n"))
        time.sleep(0.01)  # (a Maildir is read oldest first)
    record = games / f"{stuck}.gtn"
    if subprocess.run(["chattr", "+i", str(record)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is refused here: no file can be made to refuse its replacement")
    try:
        done = gametool(*inbox, now="2026-12-01T10:00:00Z", check=False)
    finally:
        subprocess.run(["chattr", "-i", str(record)], check=True)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert str(record) in line and "(and 1 more)" in line
    new = [parse(p.read_bytes()) for p in outbox.glob("*.eml") if p.name not in before]
    assert sorted(str(m["Subject"]) for m in new) == [f"[gametool {fine}] Chess, ply 1"] * 2
    assert load_one(record.read_text()).ply == 0
    assert len(list((tmp_path / "Maildir" / "new").iterdir())) == 2
    gametool(*inbox, now="2026-12-01T11:00:00Z")
    assert load_one(record.read_text()).ply == 2  # both, in the order they came
    new = [parse(p.read_bytes()) for p in outbox.glob("*.eml") if p.name not in before]
    assert len(new) == 6 and not any("not applied" in str(m["Subject"]) for m in new)
