"""Comforts by mail, through the installed command: answers prepared in advance ('#if ACTION
then ACTION'), taken or dropped, never across chance nor in a game that hides anything, and
past positions ('#show N') exactly as the seat saw them then."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime, time, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.referee.clock import parse_time, write_time

ANN, BEN, CY = "ann@example.org", "ben@example.net", "cy@example.com"


class Table:
    """One game refereed by the installed command; mail in as files, mail out as .eml."""

    def __init__(self, tmp_path: Path, game: str, players: list[str]) -> None:
        self.tmp = tmp_path
        self.games, self.outbox = tmp_path / "games", tmp_path / "outbox"
        self.folders = ["--game-dir", str(self.games), "--outbox", str(self.outbox)]
        self.seen: set[Path] = set()
        self.count = 0
        self.match = self.run("referee", "new", game, "--players", ",".join(players)).stdout.strip()
        self.keys = {to: re.search(r"seat key: ([a-z2-7]+)$", body, re.M).group(1)
                     for to, body in self.sent()}

    def run(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["gametool", *args, *self.folders] if args[0] == "referee"
                              else ["gametool", *args], capture_output=True, text=True)
        assert done.returncode == code, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        return done

    def sent(self) -> list[tuple[str, str]]:
        """The messages written since the last look: (to, text)."""
        out = []
        for path in sorted(self.outbox.glob("*.eml")):
            if path in self.seen:
                continue
            self.seen.add(path)
            mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            out.append((str(mail["To"]), f"{mail['Subject']}\n{mail.get_content()}"))
        return out

    def mail(self, sender: str, text: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        self.count += 1
        mail = EmailMessage()
        mail["From"], mail["To"] = sender, "referee@localhost"
        mail["Subject"] = f"Re: [gametool {self.match}] mail {self.count}"
        mail.set_content(f"#key {self.keys[sender]}\n{text}\n")
        path = self.tmp / f"mail{self.count}.eml"
        path.write_bytes(bytes(mail))
        return self.run("referee", "inbox", str(path), code=code)

    @property
    def master(self) -> Path:
        return self.games / f"{self.match}.gtn"

    def state(self) -> tuple[str, list[Path]]:
        return self.master.read_text(), sorted(self.games.iterdir())


def test_every_first_mail_tells_the_commands_and_help_lists_them(tmp_path: Path) -> None:
    table = Table(tmp_path, "chess", [ANN, BEN])
    for path in sorted(table.outbox.glob("*.eml")):
        body = BytesParser(policy=policy.default).parsebytes(path.read_bytes()).get_content()
        assert "show N" in body and "if ACTION then ACTION" in body and "help" in body
        assert not re.search(r"^#", body, re.M)  # sent back unchanged, it asks nothing
    table.mail(ANN, "#help")
    ((to, text),) = table.sent()
    assert to == ANN and "#if ACTION then ACTION" in text and "#show N" in text


def test_a_prepared_answer_is_played_when_the_opponent_s_action_matches(tmp_path: Path) -> None:
    table = Table(tmp_path, "chess", [ANN, BEN])
    table.mail(ANN, "#ply 1\ne4\n#if e5 then Nf3\n#if c5 then Nc3")
    sent = table.sent()
    (note,) = [text for to, text in sent if "your #if" in text]
    assert "Prepared: 2 conditional moves" in note
    # The opponent is never told what was prepared.
    assert all("Prepared" not in text and "Nf3" not in text and "Nc3" not in text
               for to, text in sent if to == BEN)
    assert "Nc3" not in table.master.read_text()
    table.mail(BEN, "#ply 2\nc5")
    assert "3. ann@example.org: Nc3" in table.master.read_text()
    to_ben = [text for to, text in table.sent() if to == BEN]
    assert any("You are to move at ply 4" in text for text in to_ben)
    assert not table.master.with_suffix(".if").exists()
    assert table.run("validate", str(table.master)).returncode == 0


def test_prepared_answers_are_dropped_when_the_opponent_plays_otherwise(tmp_path: Path) -> None:
    table = Table(tmp_path, "chess", [ANN, BEN])
    table.mail(ANN, "#ply 1\ne4\n#if e5 then Nf3")
    table.mail(BEN, "#ply 2\nd5")
    text = table.master.read_text()
    assert "2. ben@example.net: d5" in text and "3." not in text.split("\n\n", 1)[1]
    assert not table.master.with_suffix(".if").exists()
    # Later e5 does not bring back the dropped line.
    table.mail(ANN, "#ply 3\nexd5")
    table.mail(BEN, "#ply 4\ne5")
    assert "5." not in table.master.read_text().split("\n\n", 1)[1]


@pytest.mark.parametrize("game,players,text,why", [
    ("chess", [ANN, BEN], "#ply 1\ne4\n#if e6 then Qh5x", "your answer is not legal"),
    ("chess", [ANN, BEN], "#ply 1\ne4\n#if e4 then d4", "not a legal action of"),
    ("chess", [ANN, BEN], "#if e5 then Nf3", "when your opponent is to move"),
    ("chess", [ANN, BEN], "#ply 1\ne4\n#if e5 Nf3", "write '#if ACTION then ACTION'"),
    ("colors", [ANN, BEN], "#ply 1\n{first}\n#if {first} then {first}", "not a legal action"),
])
def test_a_bad_prepared_answer_is_one_line_and_changes_nothing(
        tmp_path: Path, game: str, players: list[str], text: str, why: str) -> None:
    table = Table(tmp_path, game, players)
    first = table.run("moves", str(table.master), "--as", ANN).stdout.split("\n")[0]
    before = table.state()
    done = table.mail(ANN, text.format(first=first), code=1)
    assert why in done.stderr and done.stderr.count("\n") == 1
    assert table.state() == before


def test_no_prepared_answer_crosses_chance_or_hidden_information(tmp_path: Path) -> None:
    hidden = Table(tmp_path / "b", "belemmer", [ANN, BEN])
    hidden.mail(ANN, "#join " + "ab" * 16)
    before = hidden.state()
    done = hidden.mail(ANN, "#if a then b", code=1)
    assert "hides information" in done.stderr
    three = Table(tmp_path / "t", "track-gammon", [ANN, BEN, CY])
    done = three.mail(ANN, "#join " + "cd" * 16 + "\n#if a then b", code=1)
    assert "games of two seats" in done.stderr
    # Tawula: chance rolls between the opponent's turn and the answer.
    dice = Table(tmp_path / "d", "tawula", [ANN, BEN])
    for seat, part in ((ANN, "12"), (BEN, "34")):
        dice.mail(seat, "#join " + part * 16)
    mover = next(seat for seat in (ANN, BEN)
                 if dice.run("moves", str(dice.master), "--as", seat).stdout.strip())
    other = BEN if mover == ANN else ANN
    for _action in range(10):  # the mover's whole turn
        legal = dice.run("moves", str(dice.master), "--as", mover).stdout.split("\n")
        if not legal[0]:
            break
        dice.mail(mover, f"#ply {len(load_plies(dice.master)) + 1}\n{legal[0]}")
    theirs = dice.run("moves", str(dice.master), "--as", other).stdout.split("\n")[0]
    assert theirs  # the opponent is to move, and chance acts before the mover's answer
    state = dice.state()
    done = dice.mail(mover, f"#if {theirs} then x", code=1)
    assert "chance acts" in done.stderr and dice.state() == state
    assert hidden.state() == before


def load_plies(master: Path) -> list[str]:
    return re.findall(r"^\d+\. ", master.read_text().split("\n\n", 1)[1], re.M)


def test_show_n_is_the_seat_s_own_view_at_that_ply(tmp_path: Path) -> None:
    table = Table(tmp_path, "belemmer", [ANN, BEN])
    for seat, part in ((ANN, "12"), (BEN, "34")):
        table.mail(seat, "#join " + part * 16)
    for _turn in range(4):
        session_ply = len(load_plies(table.master))
        for seat in (ANN, BEN):
            legal = table.run("moves", str(table.master), "--as", seat).stdout.split("\n")
            if legal[0]:
                table.mail(seat, f"#ply {session_ply + 1}\n{legal[0]}")
                break
    table.sent()
    last = len(load_plies(table.master))
    assert last >= 4
    runner = CliRunner()
    for seat in (ANN, BEN):
        for ply in range(last + 1):
            table.mail(seat, f"#show {ply}")
            ((to, text),) = table.sent()
            # The same view as 'show --ply N --as SEAT' (lines wrapped to another width),
            # which is drawn in this process: the referee's runs are the journey.
            shown = runner.invoke(cli, ["show", str(table.master), "--ply", str(ply),
                                        "--as", seat])
            assert shown.exit_code == 0, shown.output
            expected = shown.stdout.rstrip()
            assert to == seat and " ".join(expected.split()) in " ".join(text.split())
    done = table.mail(ANN, f"#show {last + 1}", code=1)
    assert f"the game is at ply {last}" in done.stderr
    done = table.mail(ANN, "#show two", code=1)
    assert "write '#show' alone, or '#show N'" in done.stderr


def test_notes_go_to_the_other_seats_and_stay_in_the_sender_s_file(tmp_path: Path) -> None:
    table = Table(tmp_path, "chess", [ANN, BEN])
    table.mail(ANN, "#ply 1\ne4\n#say Good luck, Ben {and have fun}")
    sent = table.sent()
    assert any(to == BEN and "ann@example.org says: Good luck, Ben {and have fun}" in text
               for to, text in sent)
    table.mail(BEN, "#say all: Thanks, you too")
    assert any(to == ANN and "ben@example.net says: Thanks, you too" in text
               for to, text in table.sent())
    files = {seat: table.run("export", str(table.master), "--as", seat).stdout
             for seat in (ANN, BEN)}
    assert "Good luck" in files[ANN] and "Good luck" not in files[BEN]
    assert all("Thanks, you too" in text for text in files.values())
    assert "Good luck" in table.master.read_text()
    assert table.run("validate", str(table.master)).returncode == 0
    for seat, text in files.items():
        own = tmp_path / f"{seat}.gtn"
        own.write_text(text)
        assert table.run("validate", str(own)).returncode == 0
    before = table.state()
    done = table.mail(BEN, "#say", code=1)
    assert "'#say' alone" in done.stderr and table.state() == before


def test_a_digest_player_gets_one_mail_a_day_and_can_turn_it_off(tmp_path: Path) -> None:
    table = Table(tmp_path, "chess", [ANN, BEN])
    done = table.mail(BEN, "#digest weekly", code=1)
    assert "write '#digest daily'" in done.stderr and done.stderr.count("\n") == 1
    assert not (table.games / "digest.json").exists()
    table.sent()
    table.mail(BEN, "#digest daily")
    ((to, text),) = table.sent()
    assert to == BEN and "Your digest is daily" in text
    table.mail(ANN, "#ply 1\ne4")
    assert [to for to, _text in table.sent()] == [ANN]  # Ben's move waits for the digest
    # The clock is the real one here: ticks a minute after Ann's move, then the next day.
    start = parse_time(re.search(r'TurnStart "([^"]+)"', table.master.read_text()).group(1))
    first = start + timedelta(minutes=1)
    following = datetime.combine(first.date() + timedelta(days=1), time(0, 0, 30), UTC)
    tick = table.run("referee", "tick", "--now", write_time(first))
    assert "digests 1; 1 message written" in tick.stdout
    ((to, text),) = table.sent()
    assert to == BEN and f"==== [gametool {table.match}] ====" in text
    assert "You are to move at ply 2" in text and "Legal actions:" in text
    assert "digests 0" in table.run("referee", "tick", "--now", write_time(first)).stdout
    assert "digests 1" in table.run("referee", "tick", "--now", write_time(following)).stdout
    table.sent()
    table.mail(BEN, "#ply 2\ne5\n#digest off")
    assert sorted(to for to, _text in table.sent()) == [ANN, BEN, BEN]
    table.mail(ANN, "#ply 3\nNf3")
    assert any(to == BEN and "You are to move at ply 4" in text for to, text in table.sent())


class Killed(BaseException):
    """The referee's process ends here."""


def test_a_digest_cut_short_is_sent_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    from test_referee import compose, keys_of

    from gametool.referee import daily_mail as digests
    from gametool.referee.referee import Referee

    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    match, opening = ref.new("chess", [ANN, BEN], deliver=True)
    keys = keys_of(opening)
    digests.set_mode(ref.game_dir, BEN, "daily")
    done = ref.receive(compose(ANN, f"Re: [gametool {match}]", f"#key {keys[ANN]}\n#ply 1\ne4\n"))
    ref.write(done.messages)
    count = len(list(ref.outbox.glob("*.eml")))
    real = ref.write_files

    def killed(files: list[tuple[str, str]]) -> list[Path]:
        raise Killed

    monkeypatch.setattr(ref, "write_files", killed)
    with pytest.raises(Killed):
        ref.tick()
    monkeypatch.setattr(ref, "write_files", real)
    assert len(list(ref.outbox.glob("*.eml"))) == count
    report = ref.tick()  # the digest the killed run journaled, and no second one today
    assert report.digests == 1 and not report.errors
    assert ref.tick().digests == 0
    written = sorted(ref.outbox.glob("*.eml"))[count:]
    assert len(written) == 1 and "your digest of 2026-12-01" in written[0].read_text()


def test_a_reply_to_a_digest_of_two_games_must_name_one(tmp_path: Path) -> None:
    from test_referee import compose, keys_of, read_mail

    from gametool.referee import daily_mail as digests
    from gametool.referee.referee import Referee

    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    games = [ref.new("chess", [ANN, BEN]) for _ in range(2)]
    digests.set_mode(ref.game_dir, BEN, "daily")
    for match, opening in games:
        done = ref.receive(compose(ANN, f"Re: [gametool {match}]",
                                   f"#key {keys_of(opening)[ANN]}\n#ply 1\ne4\n"))
        assert done.applied and [m.to for m in done.messages] == [ANN, BEN]
        assert ref.render_files(done.messages)[1:] == []  # Ben's waits for the digest
    assert ref.tick().digests == 1
    (path,) = sorted(ref.outbox.glob("*.eml"))
    digest = read_mail(path).get_content()
    assert all(f"==== [gametool {match}] ====" in digest for match, _o in games)
    quoted = "\n".join(f"> {line}" for line in digest.split("\n"))
    (second, opening) = games[1]
    key = keys_of(opening)[BEN]
    done = ref.receive(compose(BEN, "Re: [gametool] your digest",
                               f"#key {key}\n#ply 2\ne5\n\n{quoted}\n"))
    ((refusal,),) = [done.messages]
    assert not done.applied and refusal.to == BEN and "names several" in refusal.body
    assert "2. ben" not in (ref.game_dir / f"{second}.gtn").read_text()
    # Nobody else's mail quoting it is answered.
    stranger = ref.receive(compose(CY, "Re: [gametool] your digest", f"#key x\n\n{quoted}\n"))
    assert not stranger.applied and stranger.messages == []
    done = ref.receive(compose(BEN, "Re: [gametool] your digest",
                               f"[gametool {second}]\n#key {key}\n#ply 2\ne5\n\n{quoted}\n"))
    assert done.applied, done.reason
    assert "2. ben@example.net: e5" in (ref.game_dir / f"{second}.gtn").read_text()
