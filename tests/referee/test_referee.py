"""Play by email: a whole hidden-information game through .eml files, malformed mail, the leak
scan, concurrent referees, writers killed mid-write, and verified seeds."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import SeedRng, seed_hash
from gametool.records import load_one
from gametool.referee.mail import MailRejected
from gametool.referee.mail.body import find_instructions, own_lines
from gametool.referee.referee import Outgoing, Referee
from notation import record as gtn

ANN, BEN = "ann@example.org", "ben@example.net"
RUNNER = CliRunner()


def read_mail(path: Path) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def outbox_messages(outbox: Path) -> list[tuple[Path, EmailMessage]]:
    paths = sorted(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)
    return [(p, read_mail(p)) for p in paths]


KEY_IN_MAIL = re.compile(r"seat key(?: \(the old one no longer works\))?: ([a-z2-7]+)$", re.M)


def keys_of(messages: list[Outgoing]) -> dict[str, str]:
    """Each seat's key, from the messages that hand them out."""
    return {m.to: KEY_IN_MAIL.search(m.body).group(1) for m in messages
            if KEY_IN_MAIL.search(m.body)}


def extract(body: str) -> tuple[int, list[str]]:
    found = find_instructions(own_lines(body), 10_000)
    return found.ply, found.actions


def compose(sender: str, subject: str, body: str, html_only: bool = False) -> bytes:
    mail = EmailMessage()
    mail["From"] = f"Player <{sender}>"
    mail["To"] = "referee@localhost"
    mail["Subject"] = subject
    if html_only:
        mail.set_content(f"<p>{body}</p>", subtype="html")
    else:
        mail.set_content(body)
    return bytes(mail)


# -- extracting the actions ---------------------------------------------------------------------


def test_extract_reads_the_guard_and_the_action_lines() -> None:
    body = ("Hello referee,\nmy move:\n\n#ply 12\nplace b3\n\nthanks\n-- \nAnn\n"
            "#ply 99\nnot this\n")
    assert extract(body) == (12, ["place b3"])


def test_extract_ignores_quoted_text_and_attributions() -> None:
    body = "#ply 4\na4-b4\n\nOn Sun, 22 Nov 2026, Referee wrote:\n> #ply 3\n> c1-c2\n"
    assert extract(body) == (4, ["a4-b4"])
    assert extract("> #ply 3\n> a1-a2\n#ply 4\nb1-b2\n") == (4, ["b1-b2"])


@pytest.mark.parametrize("body", ["just saying hello\n", "#ply 3\n\n\n", "> #ply 3\n> x\n"])
def test_extract_refuses_mail_without_guard_or_actions(body: str) -> None:
    with pytest.raises(MailRejected):
        extract(body)


# -- a whole game by mail ------------------------------------------------------------------------


def contribution(address: str) -> str:
    """A fixed contribution to the joint seed per player, so that the games repeat."""
    return hashlib.sha256(address.encode()).hexdigest()[:32]


def join_all(ref: Referee, match: str, keys: dict[str, str]) -> list[Outgoing]:
    """Every seat replies to its opening message with its contribution to the seed."""
    out: list[Outgoing] = []
    for address, key in keys.items():
        receipt = ref.receive(compose(address, f"Re: [gametool {match}] joining",
                                      f"#key {key}\n#join {contribution(address)}\n"))
        assert receipt.applied, receipt.reason
        out += receipt.messages
    ref.write(out)
    return out


def hidden_words(master_text: str, seat: str) -> set[str]:
    """Words of the master's actions that the seat's exported record hides."""
    session = load_one(master_text)
    full = gtn.write(session.canonical_record())
    exported = gtn.write(session.exported(session.seat_index(seat)))
    words = set(re.findall(r"[0-9A-Za-z]+", full.split("\n\n", 1)[1]))
    return words - set(re.findall(r"[0-9A-Za-z]+", exported.split("\n\n", 1)[1]))


def test_a_whole_belemmer_game_by_mail_leaks_nothing(tmp_path: Path) -> None:
    games_dir, outbox = tmp_path / "games", tmp_path / "outbox"
    ref = Referee(games_dir, outbox)
    match, opening = ref.new("belemmer", [ANN, BEN], seed="mail-seed", weak_seed_ok=True)
    ref.write(opening)
    keys = keys_of(opening)
    join_all(ref, match, keys)
    master = games_dir / f"{match}.gtn"
    hashes = {m.to: re.search(r"SeedHash: ([0-9a-f]{64})", m.body).group(1) for m in opening}
    assert set(hashes) == {ANN, BEN}
    seen = 0
    for turn in range(200):
        messages = outbox_messages(outbox)[seen:]
        seen += len(messages)
        text = master.read_text()
        for _path, mail in messages:
            body = mail.get_content()
            assert mail["To"] in (ANN, BEN)
            if "The game is over" not in body:
                leaked = {w for w in hidden_words(text, mail["To"])
                          if re.search(rf"(?<![0-9A-Za-z]){w}(?![0-9A-Za-z])", body)}
                assert not leaked, f"message to {mail['To']} shows {leaked}"
        session = load_one(text)
        if session.game.is_over(session.state):
            break
        mover = session.names[session.to_move()]
        mine = [m for _p, m in messages if m["To"] == mover][-1]
        body = mine.get_content()
        guard = re.search(r"You are to move at ply (\d+)\.", body).group(1)
        legal = body.split("Legal actions:\n", 1)[1].split("\n\n")[0].split("\n")
        choice = SeedRng("mail-players", turn).choice([a for a in legal if a])
        quoted = "\n".join(f"> {line}" for line in body.splitlines()[:5])
        reply = compose(mover, f"Re: {mine['Subject']}",
                        f"Here we go.\n\n#key {keys[mover]}\n#ply {guard}\n{choice}\n\n-- \n"
                        f"sent from my desk\n\nOn Sunday the referee wrote:\n{quoted}\n")
        applied, out, _reason = ref.receive(reply)
        assert applied, out[0].body if out else "no reply"
        ref.write(out)
    final = load_one(master.read_text())
    assert final.game.is_over(final.state)
    last = [m.get_content() for _p, m in outbox_messages(outbox)[-2:]]
    assert all("The game is over" in body and '[Seed "mail-seed"]' in body for body in last)
    for address, value in hashes.items():
        assert value == seed_hash("mail-seed")
        code = RUNNER.invoke(cli, ["validate", str(master), "--seed-hash", value]).exit_code
        assert code == 0, address
    bad = RUNNER.invoke(cli, ["validate", str(master), "--seed-hash", "0" * 64])
    assert bad.exit_code == 1 and "does not match the seed hash" in bad.stderr


def test_an_exported_record_is_checked_against_the_published_master(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "g", tmp_path / "o")
    match, _ = ref.new("belemmer", [ANN, BEN], seed="exp", weak_seed_ok=True)
    master = tmp_path / "g" / f"{match}.gtn"
    exported = tmp_path / "ann.gtn"
    exported.write_text(RUNNER.invoke(cli, ["export", str(master), "--as", ANN,
                                            "--weak-seed-ok"]).stdout)
    ok = RUNNER.invoke(cli, ["validate", str(master), "--against", str(exported)])
    assert ok.exit_code == 0, ok.stdout
    forged = exported.read_text().replace('[SeedHash "', '[SeedHash "0')
    exported.write_text(forged)
    bad = RUNNER.invoke(cli, ["validate", str(master), "--against", str(exported)])
    assert bad.exit_code == 1


# -- malformed mail -------------------------------------------------------------------------------


@pytest.fixture
def started(tmp_path: Path) -> tuple[Referee, str, Path, dict[str, str]]:
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, opening = ref.new("belemmer", [ANN, BEN], seed="bad-mail", weak_seed_ok=True)
    ref.write(opening)
    join_all(ref, match, keys_of(opening))
    return ref, match, tmp_path / "games" / f"{match}.gtn", keys_of(opening)


@pytest.mark.parametrize(
    ("sender", "subject", "body", "html", "reason"),
    [
        (ANN, "[gametool {m}] move", "", False, "body"),
        (ANN, "[gametool {m}] move", "#key {k}\n#ply 3\nplace a1", True, "HTML-only"),
        (ANN, "[gametool {m}] move", "#key {k}\n#ply 2\nplace a1", False, "stale"),
        (BEN, "[gametool {m}] move", "#key {k}\n#ply 3\nplace a1", False,
         "not ben@example.net's turn"),
        (ANN, "[gametool {m}] move", "#key {k}\n#ply 3\nplace z9", False, "ply 3"),
        (ANN, "[gametool {m}] move", "#ply 3\nplace a1", False, "no '#key' line"),
        (ANN, "[gametool {m}] move", "#key {k}\n#ply 99999\nplace a1", False,
         "beyond the last ply"),
        (ANN, "[gametool {m}] move", "#key {k}\n#ply 3\n", False, "no action"),
    ],
)
def test_malformed_mail_gets_a_reply_to_its_sender_and_changes_nothing(
        started: tuple[Referee, str, Path, dict[str, str]], tmp_path: Path, sender: str,
        subject: str, body: str, html: bool, reason: str) -> None:
    ref, match, master, keys = started
    before = master.read_bytes()
    count = len(list(ref.outbox.glob("*.eml")))
    message = tmp_path / "in.eml"
    body = body.format(k=keys.get(sender, keys[ANN]))
    message.write_bytes(compose(sender, subject.format(m=match), body, html))
    result = RUNNER.invoke(cli, ["referee", "inbox", str(message), "--game-dir",
                                 str(ref.game_dir), "--outbox", str(ref.outbox)])
    assert result.exit_code == 1
    assert reason in result.stderr
    assert master.read_bytes() == before
    new = outbox_messages(ref.outbox)[count:]
    assert len(new) == 1 and new[0][1]["To"] == sender
    assert reason in new[0][1].get_content()


def test_referee_new_through_the_cli(tmp_path: Path) -> None:
    result = RUNNER.invoke(cli, ["referee", "new", "belemmer", "--players", f"{ANN},{BEN}",
                                 "--game-dir", str(tmp_path / "g"), "--outbox",
                                 str(tmp_path / "o")])
    assert result.exit_code == 0
    match = result.stdout.strip()
    assert (tmp_path / "g" / f"{match}.gtn").exists()
    assert len(list((tmp_path / "o").glob("*.eml"))) == 2


# -- concurrency and durability -------------------------------------------------------------------

SCRIPT = [sys.executable, "-m", "gametool"]


def test_eight_concurrent_referees_apply_a_ply_once(
        started: tuple[Referee, str, Path, dict[str, str]], tmp_path: Path) -> None:
    ref, match, master, keys = started
    message = tmp_path / "in.eml"
    message.write_bytes(compose(ANN, f"[gametool {match}] move",
                                f"#key {keys[ANN]}\n#ply 3\nplace a1"))
    before = len(list(ref.outbox.glob("*.eml")))
    procs = [subprocess.Popen([*SCRIPT, "referee", "inbox", str(message), "--game-dir",
                               str(ref.game_dir), "--outbox", str(ref.outbox)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(8)]
    codes = sorted(p.wait(timeout=120) for p in procs)
    # One applies it; the others find it done (a retry is answered by nothing new).
    assert codes == [0] * 8
    assert len(list(ref.outbox.glob("*.eml"))) == before + 2  # one new view for each seat
    session = load_one(master.read_text())
    assert session.ply == 3 and session.record.turns[-1].actions[0].text == "place a1"


WRITER = """
import sys
from gametool.core import storage
path, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
texts = [open(a).read(), open(b).read()]
i = 0
while True:
    storage.update(path, lambda old: texts[1] if old == texts[0] else texts[0])
    i += 1
"""


def test_writers_killed_at_random_moments_never_tear_the_record(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("A" * 300_000 + "\n")
    b.write_text("B" * 200_000 + "\n")
    record = tmp_path / "record.gtn"
    record.write_text(a.read_text())
    valid = {a.read_text(), b.read_text()}
    rng = SeedRng("kill", 0)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    for _ in range(200):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(record), str(a), str(b)],
                                env=env)
        time.sleep(0.05 + rng.randbelow(100) / 1000)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert record.read_text() in valid


# -- three players, three mailboxes ---------------------------------------------------------------

TILE = re.compile(r"(?<![\d-])([0-6])-([0-6])(?![\d-])")


def deliver(outbox: Path, mailboxes: dict[str, Path]) -> None:
    """The mail transfer agent: move every outgoing message into its recipient's mailbox."""
    for path, mail in outbox_messages(outbox):
        box = mailboxes[str(mail["To"])]
        box.mkdir(exist_ok=True)
        path.rename(box / f"{path.stat().st_mtime_ns}-{path.name}")


def newest(box: Path, seen: set[Path]) -> list[EmailMessage]:
    fresh = sorted(p for p in box.glob("*.eml") if p not in seen)
    seen.update(fresh)
    return [read_mail(p) for p in fresh]


def test_a_three_player_domino_game_among_three_mailboxes(tmp_path: Path) -> None:
    addresses = ["ann@example.org", "ben@example.net", "cy@example.com"]
    mailboxes = {a: tmp_path / a.split("@")[0] for a in addresses}
    games_dir, outbox, inbox = tmp_path / "games", tmp_path / "outbox", tmp_path / "inbox"
    inbox.mkdir()
    folders = ["--game-dir", str(games_dir), "--outbox", str(outbox)]
    started = RUNNER.invoke(cli, ["referee", "new", "two-headed-dragon", "--players",
                                  ",".join(addresses), "--seed", "three-boxes", "--weak-seed-ok",
                                  *folders])
    assert started.exit_code == 0, started.output
    match = started.output.strip()
    master = games_dir / f"{match}.gtn"
    seen: dict[str, set[Path]] = {a: set() for a in addresses}
    hashes: dict[str, str] = {}
    keys: dict[str, str] = {}
    for turn in range(400):
        deliver(outbox, mailboxes)
        session = load_one(master.read_text())
        game, state = session.game, session.state
        to_answer = None
        joining = []
        for seat, address in enumerate(addresses):
            for mail in newest(mailboxes[address], seen[address]):
                body = mail.get_content()
                if "SeedHash:" in body:
                    hashes[address] = re.search(r"SeedHash: ([0-9a-f]{64})", body).group(1)
                    keys[address] = KEY_IN_MAIL.search(body).group(1)
                    joining.append(address)
                if "The game is over" in body:
                    continue
                # No tile still in another player's hand appears in this player's mail.
                for other in range(len(addresses)):
                    if other == seat:
                        continue
                    hand = game.view(state, other)["hands"][addresses[other]]
                    held = set(TILE.findall(hand or ""))
                    shown = {tuple(sorted(t)) for t in TILE.findall(body)}
                    assert not {tuple(sorted(t)) for t in held} & shown, (turn, address)
                if "You are to move" in body:
                    to_answer = (address, mail, body)
        for address in joining:  # each seat's first mail: its contribution to the seed
            joined = inbox / f"join-{address}.eml"
            line = RUNNER.invoke(cli, ["join"]).stdout
            joined.write_bytes(compose(address, f"[gametool {match}] join",
                                       f"#key {keys[address]}\n{line}"))
            result = RUNNER.invoke(cli, ["referee", "inbox", str(joined), *folders])
            assert result.exit_code == 0, result.output
        if joining:
            continue
        if game.is_over(state):
            break
        assert to_answer is not None and to_answer[0] == addresses[game.to_move(state)]
        address, mail, body = to_answer
        guard = re.search(r"You are to move at ply (\d+)\.", body).group(1)
        legal = [a for a in body.split("Legal actions:\n", 1)[1].split("\n\n")[0].split("\n")
                 if a]
        choice = SeedRng("three-boxes-players", turn).choice(legal)
        reply = inbox / f"{turn:04d}.eml"
        reply.write_bytes(compose(address, f"Re: {mail['Subject']}",
                                  f"#key {keys[address]}\n#ply {guard}\n{choice}\n\n-- \n"
                                  f"{address}\n"))
        result = RUNNER.invoke(cli, ["referee", "inbox", str(reply), *folders])
        assert result.exit_code == 0, result.output
    final = load_one(master.read_text())
    assert final.game.is_over(final.state)
    assert set(hashes) == set(addresses)
    for address in addresses:
        last = newest(mailboxes[address], set())[-1].get_content()
        assert "The game is over" in last and '[Seed "three-boxes"]' in last
        checked = RUNNER.invoke(cli, ["validate", str(master), "--seed-hash", hashes[address]])
        assert checked.exit_code == 0, checked.output


# -- seat keys ------------------------------------------------------------------------------------


def test_each_key_is_only_in_its_own_seat_s_opening_and_stored_as_a_salted_hash(
        started: tuple[Referee, str, Path, dict[str, str]]) -> None:
    ref, match, master, keys = started
    assert set(keys) == {ANN, BEN} and keys[ANN] != keys[BEN]
    assert all(len(k) * 5 >= 128 for k in keys.values())
    stored = (ref.game_dir / f"{match}.keys").read_text()
    for _path, mail in outbox_messages(ref.outbox):
        other = BEN if mail["To"] == ANN else ANN
        assert keys[other] not in mail.get_content()
    for key in keys.values():
        for text in (stored, master.read_text()):
            assert key not in text and key.upper() not in text


def test_a_wrong_key_is_refused_and_answered_to_the_seat(
        started: tuple[Referee, str, Path, dict[str, str]]) -> None:
    ref, match, master, keys = started
    before = master.read_bytes()
    for key in (keys[BEN], "AAAA-" * 7 + "AAAA", ""):
        mail = compose(ANN, f"[gametool {match}] move", f"#key {key}\n#ply 3\nplace a1")
        applied, out, reason = ref.receive(mail)
        assert not applied and "not ann@example.org's key" in reason
        assert [m.to for m in out] == [ANN] and (not key or key not in out[0].body)
    assert master.read_bytes() == before
    key = keys[ANN].upper()
    typed = " ".join(key[i:i + 4] for i in range(0, 32, 4))  # case and spaces do not matter
    applied, _out, _reason = ref.receive(
        compose(ANN, f"[gametool {match}] move", f"#key {typed}\n#ply 3\nplace a1"))
    assert applied


def test_rekey_sends_a_new_key_to_the_seat_only_and_the_old_one_dies(
        started: tuple[Referee, str, Path, dict[str, str]], tmp_path: Path) -> None:
    ref, match, master, keys = started
    count = len(list(ref.outbox.glob("*.eml")))
    result = RUNNER.invoke(cli, ["referee", "rekey", match, ANN, "--game-dir",
                                 str(ref.game_dir), "--outbox", str(ref.outbox)])
    assert result.exit_code == 0 and result.stdout == ""
    new = outbox_messages(ref.outbox)[count:]
    assert len(new) == 1 and new[0][1]["To"] == ANN
    fresh = KEY_IN_MAIL.search(new[0][1].get_content()).group(1)
    assert fresh != keys[ANN] and "no longer works" in new[0][1].get_content()
    before = master.read_bytes()
    old = compose(ANN, f"[gametool {match}] move", f"#key {keys[ANN]}\n#ply 3\nplace a1")
    assert ref.receive(old).applied is False and master.read_bytes() == before
    good = compose(ANN, f"[gametool {match}] move", f"#key {fresh}\n#ply 3\nplace a1")
    assert ref.receive(good).applied is True
    bad = RUNNER.invoke(cli, ["referee", "rekey", match, "eve@example.com", "--game-dir",
                              str(ref.game_dir), "--outbox", str(ref.outbox)])
    assert bad.exit_code == 1 and "no seat" in bad.stderr
    gone = RUNNER.invoke(cli, ["referee", "rekey", "nosuch-1", ANN, "--game-dir",
                               str(ref.game_dir), "--outbox", str(ref.outbox)])
    assert gone.exit_code == 1 and "unknown game" in gone.stderr


# -- a whole three-player game by mail with keys, under attack ------------------------------------


def outlook_reply(sender: str, subject: str, text: str, original: str) -> bytes:
    """A top-posted reply that pastes the original below a rule, unquoted."""
    return compose(sender, f"RE: {subject}",
                   f"{text}\n\n________________________________\nFrom: Referee "
                   f"<referee@localhost>\nSent: Sunday, 22 November 2026 10:00\nTo: {sender}\n"
                   f"Subject: {subject}\n\n{original}")


def test_a_three_player_hidden_game_by_mail_refuses_every_forgery(tmp_path: Path) -> None:
    players = ["ann@example.org", "ben@example.net", "cy@example.com"]
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, opening = ref.new("two-headed-dragon", players, seed="under-attack",
                             weak_seed_ok=True)
    master = tmp_path / "games" / f"{match}.gtn"
    keys = keys_of(opening)
    assert set(keys) == set(players)
    joined = join_all(ref, match, keys)
    sent = list(opening) + joined
    inbox: dict[str, Outgoing] = {m.to: m for m in opening + joined}
    last_applied: bytes | None = None
    previous_mover = ""
    refused: dict[str, int] = {}

    def refuse(kind: str, mail: bytes, seat: str | None, reason: str) -> None:
        before = master.read_bytes()
        receipt = ref.receive(mail)
        assert not receipt.applied and reason in receipt.reason, (kind, receipt.reason)
        assert master.read_bytes() == before, kind
        assert [m.to for m in receipt.messages] == ([seat] if seat else []), kind
        sent.extend(receipt.messages)
        refused[kind] = refused.get(kind, 0) + 1

    for turn in range(400):
        if all("The game is over" in m.body for m in inbox.values()):
            break
        (mover,) = [seat for seat, m in inbox.items() if "You are to move" in m.body]
        other = next(p for p in players if p != mover)
        mine = inbox[mover]
        ply = int(re.search(r"You are to move at ply (\d+)\.", mine.body).group(1))
        legal = [a for a in mine.body.split("Legal actions:\n", 1)[1].split("\n\n")[0]
                 .split("\n") if a]
        choice = SeedRng("attack-players", turn).choice(legal)
        subject = f"Re: {mine.subject}"
        move = f"#key {{}}\n#ply {ply}\n{choice}\n"
        if turn % 20 == 0:
            # Someone else writes as the mover, with no key, with a made-up one, with their own.
            refuse("forged From", compose(mover, subject, f"#ply {ply}\n{choice}\n"), mover,
                   "no '#key' line")
            # The other seat, with its own key, hides behind the mover's address: nobody is
            # answered, since the sender cannot be told.
            disguised = compose(mover, subject, move.format(keys[other])).replace(
                f"From: Player <{mover}>".encode(), f"From: {other}<{mover}>".encode())
            refuse("forged From", disguised, None, "ambiguous")
            twice = compose(mover, subject, move.format(keys[mover])).replace(
                b"From: ", f"From: {other}\nFrom: ".encode(), 1)
            refuse("forged From", twice, None, "2 From headers")
            typo = keys[mover][:-1] + ("a" if keys[mover][-1] != "a" else "b")
            refuse("wrong key", compose(mover, subject, move.format(typo)), mover,
                   f"not {mover}'s key")
            refuse("another seat's key", compose(mover, subject, move.format(keys[other])),
                   mover, f"not {mover}'s key")
            refuse("unquoted reply with no action",
                   outlook_reply(mover, mine.subject, "I'll send my move tomorrow.", mine.body),
                   mover, "no '#key' line")
        if last_applied is not None and turn % 20 == 1:
            refuse("replayed old mail", last_applied, previous_mover, "stale")
        mail = compose(mover, subject, move.format(keys[mover]))
        receipt = ref.receive(mail)
        assert receipt.applied, receipt.reason
        last_applied, previous_mover = mail, mover
        sent.extend(receipt.messages)
        inbox.update({m.to: m for m in receipt.messages})
    final = load_one(master.read_text())
    assert final.game.is_over(final.state)
    assert set(refused) == {"forged From", "wrong key", "another seat's key",
                            "replayed old mail", "unquoted reply with no action"}
    print(f"three-player game by mail: {final.ply} plies, refused {refused}")
    published = [m.body for m in sent if "The game is over" in m.body]
    assert len(published) == 3
    stored = (tmp_path / "games" / f"{match}.keys").read_text()
    for seat, key in keys.items():
        for text in [master.read_text(), stored, *published,
                     *(m.body for m in sent if m.to != seat)]:
            assert key not in text and key.upper() not in text


def test_a_game_without_keys_refuses_mail_until_the_referee_gives_each_seat_one(
        started: tuple[Referee, str, Path, dict[str, str]]) -> None:
    ref, match, master, keys = started
    keyfile = ref.game_dir / f"{match}.keys"
    assert keyfile.stat().st_mode & 0o077 == 0  # readable by the referee only
    keyfile.unlink()
    before = master.read_bytes()
    mail = compose(ANN, f"[gametool {match}] move", f"#key {keys[ANN]}\n#ply 3\nplace a1")
    receipt = ref.receive(mail)
    assert not receipt.applied and "has no seat keys" in receipt.reason
    assert master.read_bytes() == before
    (message,) = ref.rekey(match, ANN)
    assert keyfile.stat().st_mode & 0o077 == 0
    fresh = KEY_IN_MAIL.search(message.body).group(1)
    good = compose(ANN, f"[gametool {match}] move", f"#key {fresh}\n#ply 3\nplace a1")
    assert ref.receive(good).applied
