"""A referee's season: games started by mail, draws offered, turns taken back, a clock that
reminds and forfeits, status commands answered, and standings with Elo ratings."""

from __future__ import annotations

import json
import mailbox
import os
import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.cli.manpages import pages
from gametool.records import load_one
from gametool.referee import standings
from gametool.referee.clock import write_time
from gametool.referee.mail import directives as commands
from gametool.referee.referee import Referee

pytest.importorskip("aiosmtpd")
import test_mail_transport  # noqa: E402
from test_mail_transport import Received, compose, parse  # noqa: E402

smtp_server = test_mail_transport.smtp_server  # the real SMTP server on 127.0.0.1

RUNNER = CliRunner()
ANN, BEN, CY = "ann@example.org", "ben@example.net", "cy@example.com"
SEAT_KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)
PLAYER_KEY = re.compile(r"player key: ([a-z2-7]+)$", re.M)


class League:
    """Three players who mail the referee through a Maildir and read what it sends through a
    real SMTP server; the referee runs as cron would run it, at the time the test sets."""

    def __init__(self, tmp_path: Path, received: Received, smtp: str) -> None:
        self.games = tmp_path / "games"
        self.outbox = tmp_path / "outbox"
        self.maildir = tmp_path / "Maildir"
        self.box = mailbox.Maildir(str(self.maildir), create=True)
        self.folders = ["--game-dir", str(self.games), "--outbox", str(self.outbox)]
        self.received, self.smtp = received, smtp
        self.read = 0
        self.time = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        self.keys: dict[tuple[str, str | None], str] = {}
        self.count = 0

    def later(self, **delta: float) -> None:
        self.time += timedelta(**delta)

    def run(self, *args: str, code: int = 0) -> str:
        result = RUNNER.invoke(cli, list(args), env={"GAMETOOL_NOW": write_time(self.time)})
        assert result.exit_code == code, result.output
        return result.stdout

    def deliveries(self) -> list[tuple[str, str, str]]:
        """What the server received since the last look: (to, subject, text); keys noted."""
        out = []
        for rcpts, raw in self.received.since(self.read):
            self.read += 1
            mail = parse(raw.replace(b"\r\n", b"\n"))
            (to,) = rcpts
            subject, body = str(mail["Subject"]), mail.get_content()
            match = re.search(r"\[gametool ([a-z0-9-]+)\]", subject)
            found = SEAT_KEY.search(body)
            if found and match:
                self.keys[(to, match.group(1))] = found.group(1)
            found = PLAYER_KEY.search(body)
            if found:
                self.keys[(to, None)] = found.group(1)
            out.append((to, subject, body))
        return out

    def mail(self, sender: str, match: str | None, text: str) -> None:
        self.count += 1  # each mail its own, as a player writes it
        subject = f"Re: [gametool {match}] your move" if match else f"gametool request {self.count}"
        self.box.add(compose(sender, subject,
                             f"#key {self.keys[(sender, match)]}\n{text}\n\n-- \n{sender}\n"))

    def inbox(self) -> list[tuple[str, str, str]]:
        """One cron run of the inbox; the mail it sent."""
        self.later(minutes=30)
        self.run("referee", "inbox", "--maildir", str(self.maildir), *self.folders,
                 "--smtp", self.smtp)
        return self.deliveries()

    def say(self, sender: str, match: str | None, text: str) -> list[tuple[str, str, str]]:
        self.mail(sender, match, text)
        return self.inbox()

    def record(self, match: str) -> str:
        return (self.games / f"{match}.gtn").read_text()


def to(sent: list[tuple[str, str, str]], address: str) -> list[str]:
    return [body for who, _subject, body in sent if who == address]


def about(sent: list[tuple[str, str, str]], address: str, match: str) -> str:
    """The one message to ``address`` about game ``match``."""
    (body,) = [body for who, subject, body in sent if who == address and match in subject]
    return body


def elo_after(a: float, b: float, score_a: float) -> tuple[float, float]:
    """One game between two players, as the Elo formula has it (K 20)."""
    expect_a = 1 / (1 + 10 ** ((b - a) / 400))
    return a + 20 * (score_a - expect_a), b + 20 * ((1 - score_a) - (1 - expect_a))


def first_legal(body: str) -> str:
    return body.split("Legal actions:\n", 1)[1].split("\n", 1)[0]


def test_a_season_of_four_games_by_smtp_and_maildir(
        tmp_path: Path, smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    league = League(tmp_path, received, address)
    league.run("referee", "allow", ANN, BEN, CY, *league.folders, "--smtp", address)
    assert sorted(who for who, _s, _b in league.deliveries()) == [ANN, BEN, CY]
    assert {who for who, match in league.keys if match is None} == {ANN, BEN, CY}

    # Four games started by mail; a stranger may not start one, and is not answered.
    for sender, wanted in ((ANN, f"chess vs {BEN} days=5"), (CY, f"chess vs {ANN} days=5"),
                           (BEN, f"colors vs {CY} days=5"), (ANN, f"colors vs {CY} days=2")):
        league.mail(sender, None, f"#new {wanted}")
    league.box.add(compose("eve@example.com", "gametool", "#key x\n#new chess vs ann@example.org"))
    started = league.inbox()
    assert to(started, "eve@example.com") == []  # a stranger gets no reply at all
    matches = {}
    for who, subject, body in started:
        found = re.search(r"Your game (\S+) is started", body)
        if found:
            matches[(who, subject.split("] ")[1].split(",")[0])] = found.group(1)
    g1, g3 = matches[(ANN, "Chess")], matches[(CY, "Chess")]
    g2, g4 = matches[(BEN, "Colors")], matches[(ANN, "Colors")]
    assert "invites you to this game" in to(started, BEN)[0]
    # Nothing is played before the invitation is accepted.
    assert "waits for ben@example.net to accept" in to(league.say(ANN, g1, "#ply 1\ne4"), ANN)[0]
    for seat, match in ((BEN, g1), (ANN, g3), (CY, g2), (CY, g4)):
        league.mail(seat, match, "#join")
    begun = league.inbox()
    assert sum("Every seat has accepted" in body for _w, _s, body in begun) == 8

    # #show and #moves: the sender's own view, to the sender only.
    sent = league.say(ANN, g1, "#show\n#moves")
    assert [who for who, _s, _b in sent] == [ANN]
    assert "(as ann@example.org)" in sent[0][2] and "\ne4\n" in sent[0][2]
    league.mail(ANN, g1, "#ply 1\ne4")
    league.mail(CY, g3, "#ply 1\nf3")
    league.mail(BEN, g2, f"#ply 1\n{first_legal(about(begun, BEN, g2))}")
    league.mail(ANN, g4, f"#ply 1\n{first_legal(about(begun, ANN, g4))}")
    round_a = league.inbox()
    assert len(round_a) == 8
    sent = league.say(BEN, g1, "#show\n#moves")
    assert [who for who, _s, _b in sent] == [BEN]
    assert "(as ben@example.net)" in sent[0][2] and "Your legal actions at ply 2" in sent[0][2]
    league.mail(BEN, g1, "#ply 2\ne5")
    league.mail(ANN, g3, "#ply 2\ne5")
    league.mail(CY, g2, f"#ply 2\n{first_legal(about(round_a, CY, g2))}")
    league.inbox()
    sent = league.say(BEN, g1, "#moves")
    assert to(sent, BEN) == ["You are not to move: ann@example.org is.\n"]

    # A draw offered and declined; a take-back asked and refused; fool's mate.
    league.mail(ANN, g1, "#ply 3\n#draw")
    league.mail(CY, g3, "#ply 3\ng4")
    league.mail(CY, g2, "#ply 3\n#undo")
    sent = league.inbox()
    assert any("ann@example.org offers a draw" in body for body in to(sent, BEN))
    assert any("asks to take back" in body for body in to(sent, BEN))
    league.mail(BEN, g1, "#ply 3\n#decline")
    league.mail(ANN, g3, "#ply 4\nQh4")
    league.mail(BEN, g2, "#ply 3\n#decline")
    sent = league.inbox()
    assert any("declines ann@example.org's draw offer" in body for body in to(sent, ANN))
    assert any("declines cy@example.com's request to take back" in body
               for body in to(sent, CY))
    assert load_one(league.record(g2)).ply == 2 and "UndoRequest" not in league.record(g2)
    assert load_one(league.record(g1)).outcome() is None
    assert '[Result "0-1"]' in league.record(g3)

    # A take-back accepted, then a draw offered with a move and accepted.
    league.say(ANN, g1, "#ply 3\nNf3")
    league.say(ANN, g1, "#ply 4\n#undo")
    sent = league.say(BEN, g1, "#ply 4\n#accept")
    assert any("ann@example.org's last turn (from ply 3) is taken back" in body
               for body in to(sent, ANN))
    assert load_one(league.record(g1)).ply == 2
    league.say(ANN, g1, "#ply 3\nd4\n#draw")
    sent = league.say(BEN, g1, "#ply 4\n#accept")
    assert "end: 1/2-1/2 draw by agreement" in league.record(g1)
    assert all("The master record" in body for body in to(sent, ANN) + to(sent, BEN))
    sent = league.say(BEN, g1, "#show")
    assert [who for who, _s, _b in sent] == [BEN] and "1/2-1/2" in sent[0][2]

    # The clock: cy never answers in g4 (2 days a move). A reminder at half time, once.
    league.later(hours=23)
    assert "reminded 1," in league.run("referee", "tick", *league.folders, "--smtp", address)
    sent = league.deliveries()
    assert [(who, subject) for who, subject, _b in sent] == [
        (CY, f"[gametool {g4}] reminder, your move")]
    assert "half of your time" in sent[0][2] and "Legal actions" in sent[0][2]
    league.later(hours=2)
    assert league.run("referee", "tick", *league.folders).startswith("reminded 0, forfeited 0")
    league.later(days=1)
    out = league.run("referee", "tick", *league.folders, "--smtp", address)
    assert "forfeited 1," in out
    sent = league.deliveries()
    assert sorted(who for who, _s, _b in sent) == [ANN, CY]
    assert "end: 1-0 time forfeit: cy@example.com did not move within 2 days" in league.record(g4)
    assert load_one(league.record(g2)).outcome() is None  # 5 days a move: still running

    # #games: the sender's games and whose turn it is.
    sent = league.say(CY, None, "#games")
    (listing,) = to(sent, CY)
    assert g2 in listing and g3 in listing and g4 in listing and g1 not in listing
    assert "ben@example.net to move" in listing and "time forfeit" in listing

    # Standings, worked out here: g3 (ann beats cy) ended before g1 (ann draws ben).
    ann, cy = elo_after(1500, 1500, 1.0)
    ann, ben = elo_after(ann, 1500, 0.5)
    chess = {"ann@example.org": (2, 1, 1, 0, 0, ann), "ben@example.net": (1, 0, 1, 0, 0, ben),
             "cy@example.com": (1, 0, 0, 1, 0, cy)}
    col_ann, col_cy = elo_after(1500, 1500, 1.0)
    colors = {"ann@example.org": (1, 1, 0, 0, 0, col_ann), "ben@example.net": (1, 0, 0, 0, 1, 1500),
              "cy@example.com": (2, 0, 0, 1, 1, col_cy)}
    done = subprocess.run(["gametool", "referee", "standings", "--game-dir", str(league.games),
                           "--json"], capture_output=True, text=True, check=True)
    table = json.loads(done.stdout)
    for game, expected in (("Chess", chess), ("Colors", colors)):
        got = {line["player"]: (line["games"], line["wins"], line["draws"], line["losses"],
                                line["unfinished"], line["elo"]) for line in table[game]}
        assert set(got) == set(expected)
        for player, numbers in expected.items():
            assert got[player][:5] == numbers[:5], (game, player)
            assert got[player][5] == pytest.approx(numbers[5], abs=0.05), (game, player)
    text = subprocess.run(["gametool", "referee", "standings", "--game-dir", str(league.games)],
                          capture_output=True, text=True, check=True).stdout
    assert re.search(r"ann@example.org\s+2\s+1\s+1\s+0\s+0\s+1510\b", text), text
    assert re.search(r"cy@example.com\s+2\s+0\s+0\s+1\s+1\s+1490\b", text), text
    sent = league.say(BEN, g2, "#standings")
    assert to(sent, BEN) and "ann@example.org" in to(sent, BEN)[0]

    # Every record validates; every file the referee wrote is for its user only.
    records = sorted(str(p) for p in league.games.glob("*.gtn"))
    assert len(records) == 4
    assert subprocess.run(["gametool", "validate", *records], capture_output=True).returncode == 0
    written = [p for folder in (league.games, league.outbox) for p in folder.rglob("*")
               if p.is_file()]
    assert len(written) > 50
    loose = [(str(p), oct(p.stat().st_mode & 0o777)) for p in written
             if p.stat().st_mode & 0o077]
    assert not loose


# -- the rules of the commands, one at a time ------------------------------------------------


def mail(sender: str, match: str, text: str) -> bytes:
    return f"From: {sender}\r\nSubject: [gametool {match}]\r\n\r\n{text}\r\n".encode()


def joined(ref: Referee, game: str, seats: list[str]) -> tuple[str, dict[str, str]]:
    """A new referee game whose seats have all sent their part of the seed."""
    match, opening = ref.new(game, seats)
    keys = {m.to: SEAT_KEY.search(m.body).group(1) for m in opening}  # type: ignore[union-attr]
    for seat in seats:
        part = os.urandom(16).hex()
        receipt = ref.receive(mail(seat, match, f"#key {keys[seat]}\n#join {part}"))
        assert receipt.applied, receipt.reason
    return match, keys


def test_a_turn_is_never_taken_back_past_a_roll(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, keys = joined(ref, "tawula", [ANN, BEN])
    for _ in range(6):
        session = load_one(ref.master(match).read_text())
        seat = session.names[session.to_move()]
        legal = [session.game.format_action(session.state, a)
                 for a in session.game.legal_actions(session.state)]
        done = ref.receive(mail(seat, match, f"#key {keys[seat]}\n#ply {session.ply + 1}\n"
                                f"{legal[0]}"))
        assert done.applied, done.reason
        before = ref.master(match).read_bytes()
        asked = ref.receive(mail(seat, match, f"#key {keys[seat]}\n#ply "
                                 f"{load_one(before.decode()).ply + 1}\n#undo"))
        assert not asked.applied
        assert "chance acted after it" in asked.reason and "has been seen" in asked.reason
        assert ref.master(match).read_bytes() == before
        # The refusal goes to the sender alone and names no die.
        (reply,) = asked.messages
        assert reply.to == seat and not re.search(r"\b[1-6]-[1-6]\b", reply.body)


def test_no_draw_where_the_game_has_none_and_commands_need_the_guard(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, keys = joined(ref, "johari-bones", [ANN, BEN])
    ply = load_one(ref.master(match).read_text()).ply
    refused = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#ply {ply + 1}\n#draw"))
    assert not refused.applied and "cannot end drawn" in refused.reason
    refused = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#undo"))
    assert not refused.applied and "write '#ply" in refused.reason
    refused = ref.receive(mail(ANN, match, f"#key {keys[BEN]}\n#show"))
    assert not refused.applied and "key" in refused.reason
    refused = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#resign"))
    assert not refused.applied and "#help" in refused.reason
    # A seat's first mail carries its part of the seed, a command or not.
    fresh, opening = ref.new("johari-bones", [ANN, BEN])
    key = SEAT_KEY.search(next(m.body for m in opening if m.to == BEN)).group(1)  # type: ignore[union-attr]
    refused = ref.receive(mail(BEN, fresh, f"#key {key}\n#show"))
    assert not refused.applied and "first mail must carry" in refused.reason
    shown = ref.receive(mail(BEN, fresh, f"#key {key}\n#join {'5a' * 16}\n#show"))
    assert shown.applied and [m.to for m in shown.messages] == [BEN, BEN]
    assert "contribution to the seed is recorded" in shown.messages[0].body


def test_a_late_seat_leaves_track_gammon_and_the_others_play_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMETOOL_NOW", "2026-12-01T09:00:00Z")
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, _keys = joined(ref, "track-gammon", [ANN, BEN, CY])
    late = load_one(ref.master(match).read_text())
    mover = late.names[late.to_move()]
    ref.clock_now = "2026-12-08T10:00:00Z"  # seven days a move by default, and an hour
    report = ref.tick()
    assert report.left == [f"{match} {mover}"] and not report.forfeited
    after = load_one(ref.master(match).read_text())
    assert after.outcome() is None and after.steps[late.ply].text.endswith("resign")
    assert after.names[after.to_move()] != mover
    assert RUNNER.invoke(cli, ["validate", str(ref.master(match))]).exit_code == 0


def test_an_invitation_not_accepted_in_time_lapses(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    (allowed,) = ref.allow([ANN])
    key = PLAYER_KEY.search(allowed.body).group(1)  # type: ignore[union-attr]
    started = ref.receive(f"From: {ANN}\r\nSubject: gametool\r\n\r\n#key {key}\r\n"
                          f"#new colors vs {BEN} days=3\r\n".encode())
    assert started.applied, started.reason
    match = re.search(r"\[gametool (\S+)\]", started.messages[0].subject).group(1)  # type: ignore[union-attr]
    ref.clock_now = "2026-12-02T22:00:00Z"
    assert ref.tick().reminded == [BEN]
    ref.clock_now = "2026-12-04T09:00:00Z"
    report = ref.tick()
    assert report.lapsed == [match]
    assert not ref.master(match).exists()
    assert (tmp_path / "games" / "lapsed" / f"{match}.gtn").exists()
    assert (tmp_path / "games" / "lapsed").stat().st_mode & 0o077 == 0


def test_elo_of_a_three_seat_game_is_pairwise_with_k_shared() -> None:
    ratings: dict[str, float] = {}
    standings.rate(ratings, ["a", "b", "c"], [1, 2, 2])
    # K 20 shared by two pairs: a gains 10 x (1 - 1/2) twice; b and c lose 5 to a, draw each other.
    assert ratings == pytest.approx({"a": 1510, "b": 1495, "c": 1495})
    standings.rate(ratings, ["a", "b"], [1, 2])
    expect = 1 / (1 + 10 ** ((1495 - 1510) / 400))
    assert ratings["a"] == pytest.approx(1510 + 20 * (1 - expect))
    assert ratings["b"] == pytest.approx(1495 - 20 * (1 - expect))


def test_every_mail_command_is_in_help_by_mail_and_in_the_manual() -> None:
    page = pages(cli)["gametool-referee-inbox.1"]
    for word in commands.COMMANDS:
        assert f"#{word}" in commands.HELP, word
        assert f"#{word}" in page, word


def test_a_draw_of_three_seats_needs_every_seat(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    match, keys = joined(ref, "track-gammon", [ANN, BEN, CY])
    ply = load_one(ref.master(match).read_text()).ply + 1
    for seat, word, told in ((BEN, "#draw", "offers a draw"), (CY, "#accept", "waits for"),
                             (ANN, "#accept", "drawn by agreement")):
        done = ref.receive(mail(seat, match, f"#key {keys[seat]}\n#ply {ply}\n{word}"))
        assert done.applied, done.reason
        assert {m.to for m in done.messages} == {ANN, BEN, CY}
        assert all(told in m.body for m in done.messages)
    text = ref.master(match).read_text()
    assert "end: 1-1-1 draw by agreement" in text and '[Ended "2026-12-01T09:00:00Z"]' in text
    assert RUNNER.invoke(cli, ["validate", str(ref.master(match))]).exit_code == 0
    again = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#ply {ply}\n#draw"))
    assert not again.applied and "over" in again.reason


def test_a_game_nobody_joined_lapses_and_a_bad_clock_is_one_line(tmp_path: Path) -> None:
    folders = ["--game-dir", str(tmp_path / "games"), "--outbox", str(tmp_path / "outbox")]
    made = RUNNER.invoke(cli, ["referee", "new", "belemmer", "--players", f"{ANN},{BEN}",
                               "--days", "3", *folders], env={"GAMETOOL_NOW": "2026-12-01"})
    assert made.exit_code == 0, made.output
    match = made.stdout.strip()
    tick = RUNNER.invoke(cli, ["referee", "tick", *folders, "--now", "2026-12-02T13:00:00Z"])
    assert tick.stdout.startswith("reminded 2,"), tick.output
    tick = RUNNER.invoke(cli, ["referee", "tick", *folders, "--now", "2026-12-04T00:00:00Z"])
    assert "lapsed 1" in tick.stdout
    assert (tmp_path / "games" / "lapsed" / f"{match}.gtn").exists()
    bad = RUNNER.invoke(cli, ["referee", "tick", *folders, "--now", "next tuesday"])
    assert bad.exit_code == 1 and bad.stderr.count("\n") == 1
    assert "write a UTC time as 2026-11-26T09:30:00Z" in bad.stderr
