"""Leave and the time bank, through the installed command at the times the test sets: a
'#leave' that saves a player from a time forfeit, the allowance of days a year, every other
seat told once, and a time bank spent by a late move before the forfeit."""

from __future__ import annotations

import os
import re
import subprocess
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from gametool.referee.clock import write_time

ANN, BEN, CY = "ann@example.org", "ben@example.net", "cy@example.com"
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class Desk:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.games, self.outbox = tmp_path / "games", tmp_path / "outbox"
        self.folders = ["--game-dir", str(self.games), "--outbox", str(self.outbox)]
        self.seen: set[Path] = set()
        self.keys: dict[tuple[str, str], str] = {}
        self.count = 0
        self.time = T0

    def run(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "GAMETOOL_NOW": write_time(self.time)}
        done = subprocess.run(["gametool", *args], capture_output=True, text=True, env=env)
        assert done.returncode == code, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        return done

    def new(self, *args: str) -> str:
        match = self.run("referee", "new", *args, *self.folders).stdout.strip()
        for to, text in self.sent():
            found = re.search(r"seat key: ([a-z2-7]+)$", text, re.M)
            if found:
                self.keys[(to, match)] = found.group(1)
        return match

    def sent(self) -> list[tuple[str, str]]:
        out = []
        for path in sorted(self.outbox.glob("*.eml")):
            if path not in self.seen:
                self.seen.add(path)
                mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
                out.append((str(mail["To"]), f"{mail['Subject']}\n{mail.get_content()}"))
        return out

    def mail(self, sender: str, match: str, text: str, code: int = 0,
             *extra: str) -> subprocess.CompletedProcess[str]:
        self.count += 1
        mail = EmailMessage()
        mail["From"], mail["To"] = sender, "referee@localhost"
        mail["Subject"] = f"Re: [gametool {match}] mail {self.count}"
        mail.set_content(f"#key {self.keys[(sender, match)]}\n{text}\n")
        path = self.tmp / f"mail{self.count}.eml"
        path.write_bytes(bytes(mail))
        return self.run("referee", "inbox", str(path), *self.folders, *extra, code=code)

    def tick(self) -> str:
        return self.run("referee", "tick", *self.folders).stdout

    def record(self, match: str) -> str:
        return (self.games / f"{match}.gtn").read_text()


def test_leave_saves_a_player_from_a_time_forfeit(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    g1 = desk.new("chess", "--players", f"{ANN},{BEN}", "--days", "4")
    g2 = desk.new("chess", "--players", f"{CY},{ANN}", "--days", "4")
    desk.time = T0 + timedelta(days=1)
    desk.mail(ANN, g1, "#leave 5")
    sent = desk.sent()
    (mine,) = [text for to, text in sent if to == ANN]
    assert "Your leave of 5 days runs from 2026-12-02T09:00:00Z to 2026-12-07T09:00:00Z" in mine
    assert "Days of leave left in 2026: 25" in mine
    # Every other seat once, with its games against the player on leave.
    (ben,) = [text for to, text in sent if to == BEN]
    (cy,) = [text for to, text in sent if to == CY]
    assert f"{ANN} is on leave" in ben and g1 in ben and g2 not in ben
    assert g2 in cy

    # Ann's four days would end on Dec 5; five of them are leave, so her time runs to Dec 10.
    desk.time = T0 + timedelta(days=5, hours=1)
    assert "forfeited 1" in desk.tick()  # Cy's game, below
    assert '[Result "*"]' in desk.record(g1)
    # Cy, to move in the other game and not on leave, is out of time.
    assert "time forfeit: cy@example.com" in desk.record(g2)
    desk.time = T0 + timedelta(days=9, hours=1)
    assert "forfeited 1" in desk.tick()
    # The forfeit line counts the leave: four days a move, and the five of leave besides.
    assert ("time forfeit: ann@example.org did not move within 4 days a move, 5 days of leave "
            "not counted") in desk.record(g1)
    assert desk.run("validate", str(desk.games / f"{g1}.gtn")).returncode == 0


def test_leave_is_counted_against_the_allowance(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    g1 = desk.new("chess", "--players", f"{ANN},{BEN}")
    desk.mail(ANN, g1, "#leave 20")
    desk.sent()
    before = (tmp_path / "games" / "leave.json").read_text()
    done = desk.mail(ANN, g1, "#leave 11", 1)
    assert "you have 10 days of leave left in 2026 (of 30)" in done.stderr
    assert done.stderr.count("\n") == 1
    assert (tmp_path / "games" / "leave.json").read_text() == before
    done = desk.mail(ANN, g1, "#leave 3", 1, "--leave-days", "20")
    assert "you have 0 days of leave left" in done.stderr
    done = desk.mail(ANN, g1, "#leave soon", 1)
    assert "write '#leave DAYS'" in done.stderr
    done = desk.run("referee", "leave", BEN, "31", *desk.folders, code=1)
    assert "you have 30 days of leave left" in done.stderr
    done = desk.run("referee", "leave", "not an address", "3", *desk.folders, code=1)
    assert "is not one email address" in done.stderr
    desk.sent()  # the refusals, each a reply to its sender
    desk.run("referee", "leave", BEN, "30", *desk.folders)
    told = desk.sent()
    assert sorted(to for to, _t in told) == [ANN, BEN]


def test_a_time_bank_is_spent_by_a_late_move_before_the_forfeit(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    match = desk.new("chess", "--players", f"{ANN},{BEN}", "--days", "2", "--bank", "3")
    assert '[Bank "ann@example.org=259200; ben@example.net=259200"]' in desk.record(match)
    desk.time = T0 + timedelta(days=1, hours=1)
    desk.tick()
    (reminder,) = [text for to, text in desk.sent() if to == ANN]
    assert "Your time bank: 3.0 days left." in reminder
    # Two days are gone: Ann plays on her bank, and moves a day late.
    desk.time = T0 + timedelta(days=3)
    assert "forfeited 0" in desk.tick()
    desk.mail(ANN, match, "#ply 1\ne4")
    assert '[Bank "ann@example.org=172800; ben@example.net=259200"]' in desk.record(match)
    # Ben never moves: two days and his three of bank, then the forfeit.
    desk.time = T0 + timedelta(days=7, hours=23)
    assert "forfeited 0" in desk.tick()
    desk.time = T0 + timedelta(days=8, minutes=1)
    assert "forfeited 1" in desk.tick()
    assert "time forfeit: ben@example.net" in desk.record(match)
    assert desk.run("validate", str(desk.games / f"{match}.gtn")).returncode == 0
