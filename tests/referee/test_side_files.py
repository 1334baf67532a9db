"""The referee's side files are state like the record: prepared moves (``MATCH.if``), leave,
the digest settings and tournament files, each damaged as a fuzzer would (cut short, bad
UTF-8, nested deep, a number past any float, the wrong shape), give one line naming the file,
a non-zero exit (75 for a piped mail: the mail server tries again), no change to any file,
and no forfeit decided on what could not be read. A prepared-moves file belongs to one game:
the others go on."""

from __future__ import annotations

import hashlib
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.records import load_one

ANN, BEN, CY, DAN = "ann@example.org", "ben@example.net", "cy@example.com", "dan@example.com"
NOW = "2026-12-01T10:00:00Z"
LATER = "2027-01-15T10:00:00Z"  # every clock out of time
KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)
RUNNER = CliRunner()

DAMAGES: dict[str, bytes] = {
    "empty": b"",
    "cut short": b'{"players": {"ben@example.net": [["2026-12-01T1',
    "bad UTF-8": b'{"players": {"\xff\xfe": []}}',
    "nested deep": b"[" * 100_000,
    "nested deep in a table": b'{"players": ' + b'{"a": ' * 30_000,
    "a number past any float": b'{"players": {"ben@example.net": [["2026-12-01T10:00:00Z", '
                               b'1e999]]}}',
    "the number alone": b"1e999",
    "NaN": b'{"players": {"ben@example.net": [["2026-12-01T10:00:00Z", NaN]]}}',
    "null": b"null",
    "a list": b"[]",
    "a string": b'"players"',
    "players a list": b'{"players": []}',
    "a seat's value a string": b'{"players": {"ben@example.net": "daily"}}',
    "a time that is none": b'{"players": {"ben@example.net": [["not a time", 3]]}}',
    "days below zero": b'{"players": {"ben@example.net": [["2026-12-01T10:00:00Z", -5]]}}',
    "prepared moves of the wrong shape": b'{"seat": 5, "ply": "x", "lines": {}}',
    "a ply past any float": b'{"seat": "ann@example.org", "ply": 1e999, "lines": []}',
    "zero bytes": b"\x00" * 64,
    "two megabytes of spaces": b" " * (2 << 20),
    "a tournament of the wrong shape": b'{"id": [], "played": {"a": 1}}',
    "a number too large for a round": b'{"id": "chess-rr-1a2b3c4d", "game": "chess", '
                                      b'"format": "round-robin", "players": [], "rounds": '
                                      b'1e308, "played": []}',
}


def mail(sender: str, key: str, match: str, text: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, "referee@localhost"
    message["Subject"] = f"Re: [gametool {match}] move"
    message.set_content(f"#key {key}\n{text}\n")
    return bytes(message)


class House:
    """Two chess games: Ann and Ben's (with Ann's answer to e5 prepared), Cy and Dan's."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.games, self.outbox = root / "games", root / "outbox"
        self.folders = ["--game-dir", str(self.games), "--outbox", str(self.outbox)]
        self.keys: dict[tuple[str, str], str] = {}
        self.first = self.new(ANN, BEN)
        self.second = self.new(CY, DAN)
        assert self.inbox(ANN, self.first, "#ply 1\ne4\n#if e5 then Nf3").exit_code == 0
        assert self.inbox(CY, self.second, "#ply 1\nd4").exit_code == 0

    def run(self, *args: str, now: str = NOW, data: bytes | None = None):  # type: ignore
        return RUNNER.invoke(cli, ["referee", *args, *self.folders], input=data,
                             env={"GAMETOOL_NOW": now})

    def new(self, *players: str) -> str:
        seen = set(self.outbox.glob("*.eml")) if self.outbox.exists() else set()
        made = self.run("new", "chess", "--players", ",".join(players))
        assert made.exit_code == 0, made.output
        match = made.stdout.strip()
        for path in set(self.outbox.glob("*.eml")) - seen:
            text = path.read_text()
            to = re.search(r"^To: (.+)$", text, re.M).group(1).strip()  # type: ignore
            self.keys[(to, match)] = KEY.search(text).group(1)  # type: ignore
        return match

    def inbox(self, sender: str, match: str, text: str, now: str = NOW):  # type: ignore
        return self.run("inbox", "-", now=now,
                        data=mail(sender, self.keys[(sender, match)], match, text))

    def hashes(self) -> dict[str, str]:
        return {str(p.relative_to(self.games)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(self.games.rglob("*")) if p.is_file()}

    def ply(self, match: str) -> int:
        return load_one((self.games / f"{match}.gtn").read_text()).ply


def one_line(result, name: str) -> None:  # type: ignore
    lines = result.stderr.strip().splitlines()
    assert lines and name in lines[0], result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> House:
    return House(tmp_path_factory.mktemp("house"))


def fresh(house: House, tmp_path: Path) -> House:
    import shutil

    shutil.copytree(house.root, tmp_path / "h")
    made = House.__new__(House)
    made.root = tmp_path / "h"
    made.games, made.outbox = made.root / "games", made.root / "outbox"
    made.folders = ["--game-dir", str(made.games), "--outbox", str(made.outbox)]
    made.keys, made.first, made.second = house.keys, house.first, house.second
    return made


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_damaged_prepared_moves_stop_their_game_only(house: House, tmp_path: Path,
                                                    damage: str) -> None:
    table = fresh(house, tmp_path)
    path = table.games / f"{table.first}.if"
    path.write_bytes(DAMAGES[damage])
    before = table.hashes()
    done = table.inbox(BEN, table.first, "#ply 2\ne5")
    assert done.exit_code == 75, done.output
    one_line(done, path.name)
    assert table.hashes() == before  # nothing played, nothing dropped
    other = table.inbox(DAN, table.second, "#ply 2\nd5")
    assert other.exit_code == 0, other.output
    assert table.ply(table.second) == 2 and table.ply(table.first) == 1


@pytest.mark.parametrize("name", ["leave.json", "digest.json"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_damaged_leave_or_digest_decides_nothing(house: House, tmp_path: Path, name: str,
                                                 damage: str) -> None:
    table = fresh(house, tmp_path)
    path = table.games / name
    path.write_bytes(DAMAGES[damage])
    before = table.hashes()
    done = table.inbox(BEN, table.first, "#ply 2\ne5")
    assert done.exit_code == 75, done.output
    one_line(done, name)
    assert table.hashes() == before
    late = table.run("tick", "--now", LATER, now=LATER)
    assert late.exit_code != 0 and name in late.stderr and "Traceback" not in late.stderr
    if name == "leave.json":  # nobody loses on time when the leave cannot be counted
        assert "forfeited 0" in late.stdout, late.stdout
        assert table.hashes() == before


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_tournament_file_stops_no_game(house: House, tmp_path: Path,
                                                 damage: str) -> None:
    table = fresh(house, tmp_path)
    folder = table.games / "tournaments"
    folder.mkdir(exist_ok=True)
    path = folder / "chess-rr-1a2b3c4d.json"
    path.write_bytes(DAMAGES[damage])
    before = path.read_bytes()
    done = table.inbox(BEN, table.first, "#ply 2\ne5")
    assert done.exit_code == 75, done.output  # the mail is kept; its retry is answered by none
    one_line(done, path.name)
    assert table.ply(table.first) == 3  # e5, and Ann's prepared Nf3
    again = table.inbox(BEN, table.first, "#ply 2\ne5")
    assert "not applied" not in again.output and table.ply(table.first) == 3
    assert path.read_bytes() == before
