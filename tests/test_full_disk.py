"""A full disk, or a folder that refuses files, leaves one line and nothing half-made: no empty
file that every retry would then refuse, no empty folder; and the referee's clock goes on for
every other game when one game's record cannot be read or written."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

FLEET = "cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s"
ANN, BEN = "ann@example.org", "ben@example.net"


def run(*args: str, now: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"GAMETOOL_NOW": now} if now else {})}
    return subprocess.run(["gametool", *args], capture_output=True, text=True, env=env)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gametool: "), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    return lines[0]


@pytest.fixture
def full(tmp_path: Path) -> Iterator[Path]:
    """A folder on a small file system that is full."""
    folder = tmp_path / "full"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"no small file system can be mounted here to fill: {done.stderr.strip()}")
    try:
        fd = os.open(folder / ".filler", os.O_WRONLY | os.O_CREAT, 0o600)
        for size in (1 << 16, 1 << 12, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError:
                    break
        os.close(fd)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_disk_leaves_no_empty_file_nor_folder(tmp_path: Path, full: Path) -> None:
    game = tmp_path / "salvo.gtn"
    assert run("start", "special-salvo", "--option", "referee=off", "--players", "ann,ben",
               "-o", str(game)).returncode == 0
    before = game.read_bytes()
    line = one_line(run("commit", str(game), "--as", "ann", "--private", str(full / "mine"),
                        "--fleet", FLEET))
    assert str(full / "mine") in line and "no space left" in line
    assert not (full / "mine").exists() and game.read_bytes() == before

    line = one_line(run("join", "--save", str(full / "joins")))
    assert str(full / "joins") in line and not (full / "joins").exists()

    records = tmp_path / "two.gtn"
    records.write_text(before.decode() + "\n" + before.decode())
    line = one_line(run("split", str(records), "-o", str(full / "parts" / "deep")))
    assert str(full / "parts" / "deep") in line and not (full / "parts").exists()

    line = one_line(run("selfplay", "colors", "-n", "2", "-o", str(full / "corpus")))
    assert str(full / "corpus") in line and not (full / "corpus").exists()

    games = full / "games"
    games.mkdir(mode=0o700)
    one_line(run("referee", "allow", ANN, "--game-dir", str(games), "--outbox",
                 str(tmp_path / "outbox")))
    assert list(games.iterdir()) == []  # no empty players.keys
    assert list((tmp_path / "outbox").glob("*.eml")) == []


def test_join_save_appends_whole_lines(tmp_path: Path) -> None:
    saved = tmp_path / "joins"
    for _ in range(2):
        assert run("join", "--save", str(saved)).returncode == 0
    lines = saved.read_text().splitlines()
    assert len(lines) == 2 and all(line.startswith("#join ") for line in lines)
    assert saved.stat().st_mode & 0o777 == 0o600


def test_referee_new_never_widens_a_folder(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    games.chmod(0o500)  # (root writes in it all the same: its mode must stay as it is)
    done = run("referee", "new", "chess", "--players", f"{ANN},{BEN}", "--game-dir",
               str(games), "--outbox", str(tmp_path / "outbox"))
    assert games.stat().st_mode & 0o777 == 0o500, oct(games.stat().st_mode)
    if done.returncode != 0:
        one_line(done)
    games.chmod(0o755)
    run("referee", "new", "chess", "--players", f"{ANN},{BEN}", "--game-dir", str(games),
        "--outbox", str(tmp_path / "outbox"))
    assert games.stat().st_mode & 0o777 == 0o700  # narrowed


def test_a_clock_beyond_the_year_9999_and_a_bad_game_stop_no_other(tmp_path: Path) -> None:
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    matches = []
    for _ in range(4):
        done = run("referee", "new", "chess", "--players", f"{ANN},{BEN}", "--days", "2",
                   *folders, now="2026-12-01T09:00:00Z")
        matches.append(done.stdout.strip())
    huge, late, unreadable, fine = (games / f"{m}.gtn" for m in sorted(matches))
    huge.write_text(huge.read_text().replace('[MoveDays "2"]', '[MoveDays "99999999999"]'))
    late.write_text(late.read_text().replace('[TurnStart "2026-12-01T09:00:00Z"]',
                                             '[TurnStart "9999-12-31T23:59:59Z"]'))
    unreadable.chmod(0o000)  # (root reads it all the same: then it is simply ticked)
    for path in (huge, late):
        assert run("validate", str(path)).returncode == 0
    done = run("referee", "tick", *folders, now="2026-12-04T09:00:00Z")
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "time forfeit" in fine.read_text()
    assert "time forfeit" not in huge.read_text() and "time forfeit" not in late.read_text()
    unreadable.chmod(0o600)

    # A mail to a game whose clock is beyond the year 9999 is applied as any other.
    key = next(line.split(": ")[1] for path in outbox.glob("*.eml")
               for line in path.read_text().splitlines()
               if line.startswith("Your seat key") and huge.stem in path.read_text()
               and f"To: {ANN}" in path.read_text())
    mail = tmp_path / "mail.eml"
    mail.write_text(f"From: {ANN}\nTo: referee@localhost\nSubject: [gametool {huge.stem}]\n\n"
                    f"#key {key}\n#ply 1\ne4\n")
    done = run("referee", "inbox", str(mail), *folders, now="2026-12-04T10:00:00Z")
    assert done.returncode == 0, done.stderr


def test_an_unusable_lapsed_folder_leaves_one_line_and_no_mail(tmp_path: Path) -> None:
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    run("referee", "allow", ANN, *folders)
    key = next(line.split(": ")[1] for path in outbox.glob("*.eml")
               for line in path.read_text().splitlines() if line.startswith("Your player key"))
    mail = tmp_path / "new.eml"
    mail.write_text(f"From: {ANN}\nTo: referee@localhost\nSubject: gametool\n\n#key {key}\n"
                    f"#new chess vs {BEN} days=1\n")
    assert run("referee", "inbox", str(mail), *folders, now="2026-12-01T09:00:00Z"
               ).returncode == 0
    run("referee", "new", "chess", "--players", f"{ANN},{BEN}", "--days", "1", *folders,
        now="2026-12-01T09:00:00Z")
    (games / "lapsed").write_text("a file where the folder must be\n")
    mails = sorted(p.name for p in outbox.glob("*.eml"))
    for _ in range(3):
        done = run("referee", "tick", *folders, now="2026-12-03T09:00:00Z")
        assert "lapsed" in one_line(done)
    lapse_mails = [p for p in outbox.glob("*.eml") if p.name not in mails
                   and "lapsed" in p.read_text()]
    assert lapse_mails == []  # none, however many runs
    assert len([p for p in outbox.glob("*.eml") if p.name not in mails]) == 2  # the other game
    (games / "lapsed").unlink()
    done = run("referee", "tick", *folders, now="2026-12-03T10:00:00Z")
    assert done.returncode == 0 and "lapsed 1" in done.stdout, done.stderr
    assert len([p for p in outbox.glob("*.eml") if "the game lapsed" in p.read_text()]) == 2
    done = run("referee", "tick", *folders, now="2026-12-03T11:00:00Z")
    assert "lapsed 0" in done.stdout


def test_allow_keeps_the_old_key_when_its_mail_cannot_be_written(tmp_path: Path) -> None:
    games, outbox = tmp_path / "games", tmp_path / "outbox"
    folders = ["--game-dir", str(games), "--outbox", str(outbox)]
    run("referee", "allow", ANN, *folders)
    before = (games / "players.keys").read_bytes()
    mails = sorted(outbox.glob("*.eml"))
    if subprocess.run(["chattr", "+i", str(outbox)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is refused here: no folder can be made to refuse a file")
    try:
        line = one_line(run("referee", "allow", ANN, *folders))
    finally:
        subprocess.run(["chattr", "-i", str(outbox)], check=True)
    assert str(outbox) in line
    assert (games / "players.keys").read_bytes() == before  # the old key still works
    assert sorted(outbox.glob("*.eml")) == mails
    assert run("referee", "allow", ANN, *folders).returncode == 0
    assert (games / "players.keys").read_bytes() != before
    assert len(list(outbox.glob("*.eml"))) == 2
