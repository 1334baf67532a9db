"""Tournaments: what cannot be made, what is undone when a game cannot start, and a swiss of a
game that hides information; the players' helpers for the journeys by mail (the journey itself,
a round robin and a swiss through a real SMTP server, is
tests/referee/test_tournament_journey.py)."""

from __future__ import annotations

import json
import mailbox
import os
import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gametool.referee.clock import write_time

pytest.importorskip("aiosmtpd")
import test_mail_transport  # noqa: E402
from test_mail_transport import Received, compose, parse  # noqa: E402

smtp_server = test_mail_transport.smtp_server  # the real SMTP server on 127.0.0.1

SEAT_KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)
MATCH = re.compile(r"\[gametool ([a-z0-9-]+)\]")


class Players:
    """Players who mail the referee through a Maildir and read what it sends through a real
    SMTP server; the referee is the installed command, run at the time the test sets."""

    def __init__(self, tmp_path: Path, received: Received, smtp: str) -> None:
        self.games = tmp_path / "games"
        self.outbox = tmp_path / "outbox"
        self.maildir = tmp_path / "Maildir"
        self.box = mailbox.Maildir(str(self.maildir), create=True)
        self.folders = ["--game-dir", str(self.games), "--outbox", str(self.outbox)]
        self.received, self.smtp = received, smtp
        self.read = 0
        self.time = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        self.keys: dict[tuple[str, str], str] = {}
        self.count = 0
        self.log: list[tuple[str, str, str]] = []

    def later(self, **delta: float) -> None:
        self.time += timedelta(**delta)

    def run(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "GAMETOOL_NOW": write_time(self.time)}
        done = subprocess.run(["gametool", *args], capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == code, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        return done

    def deliveries(self) -> list[tuple[str, str, str]]:
        """What the server received since the last look: (to, subject, text); keys noted."""
        out = []
        for rcpts, raw in self.received.since(self.read):
            self.read += 1
            mail = parse(raw.replace(b"\r\n", b"\n"))
            (to,) = rcpts
            subject, body = str(mail["Subject"]), mail.get_content()
            match = MATCH.search(subject)
            found = SEAT_KEY.search(body)
            if found and match:
                self.keys[(to, match.group(1))] = found.group(1)
            out.append((to, subject, body))
        self.log += out
        return out

    def mail(self, sender: str, match: str, text: str) -> None:
        self.count += 1
        self.box.add(compose(sender, f"Re: [gametool {match}] move {self.count}",
                             f"#key {self.keys[(sender, match)]}\n{text}\n\n-- \n{sender}\n"))

    def inbox(self) -> list[tuple[str, str, str]]:
        self.later(minutes=30)
        self.run("referee", "inbox", "--maildir", str(self.maildir), *self.folders,
                 "--smtp", self.smtp)
        return self.deliveries()

    def tick(self) -> subprocess.CompletedProcess[str]:
        done = self.run("referee", "tick", *self.folders, "--smtp", self.smtp)
        return done

    def record(self, match: str) -> str:
        return (self.games / f"{match}.gtn").read_text()

    def standings(self, tid: str) -> dict:
        return json.loads(self.run("referee", "tournament", "standings", tid,
                                   "--game-dir", str(self.games), "--json").stdout)


def games_of(tid: str, games: Path) -> list[tuple[int, str, list[str]]]:
    data = json.loads((games / "tournaments" / f"{tid}.json").read_text())
    return [(r["number"], g["match"], g["seats"]) for r in data["played"] for g in r["games"]]


def lines(table: dict) -> dict[str, tuple[float, float]]:
    return {line["player"]: (line["points"], line["tiebreak"]) for line in table["lines"]}


@pytest.mark.parametrize("args,message", [
    (["--format", "swiss", "--double"], "--double is for a round robin"),
    (["--format", "round-robin", "--rounds", "2"], "--rounds is for a swiss"),
    (["--format", "swiss", "--rounds", "9"], "has 1 to 3 rounds"),
    (["--format", "swiss", "--seats", "3"], "takes 2 to 2 seats"),
])
def test_a_tournament_that_cannot_be_made_is_one_line_and_leaves_nothing(
        tmp_path: Path, args: list[str], message: str) -> None:
    folders = ["--game-dir", str(tmp_path / "g"), "--outbox", str(tmp_path / "o")]
    done = subprocess.run(["gametool", "referee", "tournament", "new", "chess", "--players",
                           "a@x.org,b@x.org,c@x.org", *args, *folders],
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert not (tmp_path / "g").exists() or not any((tmp_path / "g").rglob("*.*"))
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_a_game_that_cannot_start_removes_the_games_started_before_it(tmp_path: Path) -> None:
    games = tmp_path / "g"
    folders = ["--game-dir", str(games), "--outbox", str(tmp_path / "o")]
    done = subprocess.run(["gametool", "referee", "tournament", "new", "chess", "--players",
                           "a@x.org,b@x.org,c@x.org,d@x.org", "--format", "round-robin",
                           "nonsense=1", *folders], capture_output=True, text=True)
    assert done.returncode == 1 and "no option 'nonsense'" in done.stderr
    assert done.stderr.count("\n") == 1
    assert not games.exists() or not any(games.rglob("*.gtn"))
    unknown = subprocess.run(["gametool", "referee", "tournament", "standings", "chess-rr-00",
                              "--game-dir", str(games)], capture_output=True, text=True)
    assert unknown.returncode == 1 and "no tournament 'chess-rr-00'" in unknown.stderr


def test_a_swiss_of_a_hidden_game_tells_no_seat_what_it_may_not_see(tmp_path: Path) -> None:
    """Belemmer hides the piles' order: every mail of a swiss (openings with the tournament's
    note, views, byes, the next round's pairing, the final table) is scanned for every seat."""
    from test_referee import compose as mail_from
    from test_referee import contribution, hidden_words, outbox_messages

    from gametool.records import load_one
    from gametool.referee.referee import Referee
    from gametool.referee.tournaments import director, tournament

    ann, ben, cy = "ann@example.org", "ben@example.net", "cy@example.com"
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    tid, opening = director.create(ref, "belemmer", [ann, ben, cy], "swiss", rounds=2)
    keys: dict[tuple[str, str], str] = {}
    scanned = 0

    def scan() -> None:
        nonlocal scanned
        messages = outbox_messages(ref.outbox)
        for _path, mail in messages[scanned:]:
            body, to = mail.get_content(), str(mail["To"])
            found = MATCH.search(str(mail["Subject"]))
            key = SEAT_KEY.search(body)
            if found and key:
                keys[(to, found.group(1))] = key.group(1)
            named = ref.game_dir / f"{found.group(1)}.gtn" if found else None
            # A game's mail against that game's master; a tournament's against every game.
            for path in ([named] if named is not None and named.exists()
                         else ref.game_dir.glob("*.gtn")):
                text = path.read_text()
                session = load_one(text)
                if to not in session.names or session.ply == 0 or "The game is over" in body:
                    continue  # nothing drawn yet, or the game over and its record published
                leaked = {w for w in hidden_words(text, to)
                          if re.search(rf"(?<![0-9A-Za-z]){w}(?![0-9A-Za-z])", body)}
                assert not leaked, f"a mail to {to} shows {leaked}"
        scanned = len(messages)

    def play_out(match: str, seats: list[str]) -> None:
        for seat in seats:
            done = ref.receive(mail_from(seat, f"Re: [gametool {match}]",
                                         f"#key {keys[(seat, match)]}\n"
                                         f"#join {contribution(seat)}\n"))
            ref.write(done.messages)
            scan()
        for turn in range(12):
            session = load_one(ref.master(match).read_text())
            mover = session.names[session.to_move()]
            legal = [session.game.format_action(session.state, a)
                     for a in session.game.legal_actions(session.state)]
            action = "resign" if turn == 11 else legal[turn % len(legal)]
            done = ref.receive(mail_from(mover, f"Re: [gametool {match}]",
                                         f"#key {keys[(mover, match)]}\n#ply {session.ply + 1}"
                                         f"\n{action}\n"))
            assert done.applied, done.reason
            ref.write(done.messages)
            scan()
            if load_one(ref.master(match).read_text()).outcome() is not None:
                break
        else:
            raise AssertionError("the game did not end")

    scan()
    assert len(opening) == 3  # the two seats of round 1, and the bye
    assert len(keys) == 2
    for number in (1, 2):
        (match, seats), = [(m, s) for n, m, s in games_of(tid, ref.game_dir) if n == number]
        play_out(match, seats)
        director.advance(ref)
        scan()
    table = tournament.as_json(ref.game_dir, tournament.load(ref.game_dir, tid))
    assert table["finished"] and table["rounds_started"] == 2
    byes = [line["player"] for line in table["lines"] if line["byes"]]
    assert len(byes) == 2 and len(set(byes)) == 2  # nobody has two byes


class Killed(BaseException):
    """The referee's process ends here (nothing after this point runs)."""


@pytest.mark.parametrize("where", ["before the tournament is saved",
                                   "before the round's mails are written"])
def test_a_swiss_round_cut_short_is_paired_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """A referee killed after starting a round's games, before the tournament file holds the
    round (or before its mails are written): the next run pairs that round once, and each
    player is told of it once."""
    from test_referee import compose as mail_from
    from test_referee import keys_of, outbox_messages

    from gametool.core import storage
    from gametool.referee.referee import Referee
    from gametool.referee.tournaments import director

    players = [f"p{i}@example.org" for i in range(1, 5)]
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    tid, opening = director.create(ref, "colors", players, "swiss", rounds=2)
    keys = keys_of(opening)  # (every player is in one game of round 1)
    for _n, match, seats in games_of(tid, ref.game_dir):  # the first seat resigns
        done = ref.receive(mail_from(seats[0], f"Re: [gametool {match}]",
                                     f"#key {keys[seats[0]]}\n#ply 1\nresign\n"))
        assert done.applied, done.reason
        ref.write(done.messages)
    before = {p.name for p in ref.outbox.glob("*.eml")}
    saved = (ref.game_dir / "tournaments" / f"{tid}.json").read_text()
    if where == "before the tournament is saved":
        real = storage.update

        def killed(path: str, change, mode=None):  # type: ignore[no-untyped-def]
            if "tournaments" in str(path):
                change(storage.read(path))  # the round's games are started, then the end
                raise Killed
            return real(path, change, mode)

        monkeypatch.setattr(storage, "update", killed)
    else:
        def killed_writing(files):  # type: ignore[no-untyped-def]
            raise Killed

        monkeypatch.setattr(ref, "write_files", killed_writing)
    with pytest.raises(Killed):
        director.advance(ref)
    monkeypatch.undo()
    # Nothing told of the round yet.
    assert {p.name for p in ref.outbox.glob("*.eml")} == before
    if where == "before the tournament is saved":
        assert (ref.game_dir / "tournaments" / f"{tid}.json").read_text() == saved
        assert len(list(ref.game_dir.glob("*.gtn"))) == 4  # two of round 1, two started
    report = director.advance(ref)
    assert not report.errors
    director.advance(ref)  # and once more: nothing more
    rounds = games_of(tid, ref.game_dir)
    second = [match for n, match, _seats in rounds if n == 2]
    assert len(rounds) == 4 and len(second) == 2
    assert {p.stem for p in ref.game_dir.glob("*.gtn")} == {m for _n, m, _s in rounds}
    assert not list(ref.game_dir.glob("*.keys")) or {
        p.stem for p in ref.game_dir.glob("*.keys")} == {m for _n, m, _s in rounds}
    told = [str(mail["To"]) for path, mail in outbox_messages(ref.outbox)
            if path.name not in before and "round 2" in mail.get_content()]
    assert sorted(told) == sorted(players)  # each player's opening of round 2, once
    assert not list((ref.outbox / ".journal").glob("tournament-*"))
