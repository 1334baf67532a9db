"""A seed nobody chooses: the referee's committed secret hashed with every seat's contribution;
and no guessable seed behind a hash."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.chance import (
    check_contribution,
    joint_seed,
    new_contribution,
    new_seed,
    seed_hash,
    weak_seed_reason,
)
from gametool.core.errors import GameError
from gametool.records import Session, check_text, load_one
from notation import record as gtn

RUNNER = CliRunner()
SECRET = "9b1c44e07a3f52d8c61e0f9a2b7d8e35"
PARTS = ["3e8a1f0c9d2b4e6a7c5f1d3b2a4c6e8f", "c0d1e2f3a4b5968778695a4b3c2d1e0f",
         "5a6b7c8d9e0f1a2b3c4d5e6f70819a2b"]


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def check(*args: str) -> tuple[int, str]:
    """``validate``'s exit status and everything it printed (verdicts and errors)."""
    result = RUNNER.invoke(cli, ["validate", *args])
    return result.exit_code, result.stdout + result.stderr


# -- weak seeds ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["c0ffee", "7a3f9e", "secret", "mail-seed", "1" * 40,
                                  "0123456789abcdef0123456789abcde", "g" * 32,
                                  "deadbeefdeadbeefdeadbeefdeadbeef"])
def test_a_short_hex_seed_or_a_chosen_word_is_weak(seed: str) -> None:
    assert weak_seed_reason(seed) is not None


def test_generated_seeds_and_contributions_are_128_random_bits() -> None:
    seeds = {new_seed() for _ in range(200)} | {new_contribution() for _ in range(200)}
    assert len(seeds) == 400
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) and weak_seed_reason(s) is None for s in seeds)


def test_export_as_of_a_record_started_with_a_short_seed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    assert run("start", "belemmer", "--seed", "c0ffee", "-o", str(path))[0] == 0
    before = path.read_bytes()
    code, out, err = run("export", str(path), "--as", "red")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "Seed can be guessed" in err and "--weak-seed-ok" in err
    assert "24 bits" in err and "c0ffee" not in err
    code, out, _ = run("export", str(path), "--as", "red", "--weak-seed-ok")
    assert code == 0 and f'[SeedHash "{seed_hash("c0ffee")}"]' in out
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", [["show"], ["show", "--json"], ["replay"]])
def test_a_seats_view_of_a_weak_seed_is_refused_too(tmp_path: Path, command: list[str]) -> None:
    # The cards a seat sees give a guessable seed away as surely as its hash does.
    path = tmp_path / "g.gtn"
    run("start", "belemmer", "--seed", "7a3f9e", "-o", str(path))
    code, out, err = run(command[0], str(path), "--as", "black", *command[1:])
    assert code == 1 and out == "" and "Seed can be guessed" in err
    assert run(command[0], str(path), "--as", "black", *command[1:], "--weak-seed-ok")[0] == 0
    assert run(command[0], str(path), *command[1:])[0] == 0  # the referee's own view


def test_a_generated_seed_is_handed_out_without_a_word(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    run("start", "belemmer", "-o", str(path))
    code, out, err = run("export", str(path), "--as", "red")
    assert code == 0 and "[SeedHash" in out and err == ""


# -- the joint seed --------------------------------------------------------------------------------


def test_the_joint_seed_is_the_hash_of_the_secret_and_every_part_in_seat_order() -> None:
    text = "gametool joint seed\n" + SECRET + "\n" + "\n".join(PARTS)
    assert joint_seed(SECRET, PARTS) == hashlib.sha256(text.encode()).hexdigest()
    assert joint_seed(SECRET, PARTS) != joint_seed(SECRET, PARTS[::-1])


@pytest.mark.parametrize("bad", ["", "xyz", "abc", "0" * 31, "0" * 129, "12 34" * 8])
def test_a_contribution_is_32_to_128_hex_digits(bad: str) -> None:
    with pytest.raises(ValueError):
        check_contribution(bad)
    assert check_contribution(" " + PARTS[0].upper() + "\n") == PARTS[0]


def joint_game(parts: list[str] | None = None) -> Session:
    session = Session.start("two-headed-dragon", ["ann", "ben", "cy"], seed=SECRET, joint=True,
                            date="2026.11.24")
    for name, part in zip(["ann", "ben", "cy"], parts or PARTS, strict=True):
        session.contribute(name, part)
    return session


def test_chance_waits_for_every_contribution_then_draws_from_the_joint_seed() -> None:
    session = Session.start("two-headed-dragon", ["ann", "ben", "cy"], seed=SECRET, joint=True)
    assert session.ply == 0 and session.is_waiting_for_seed()
    assert '[Contributions "?; ?; ?"]' in session.text()
    assert session.contribute("ben", PARTS[1]) == []
    with pytest.raises(GameError, match="missing: ann, cy"):
        session.play(["pass"], "ann")
    with pytest.raises(GameError, match="already sent"):
        session.contribute("ben", PARTS[0])
    session.contribute("ann", PARTS[0])
    reread = load_one(session.text())
    assert reread.waiting_for() == ["cy"] and reread.ply == 0
    drawn = reread.contribute("cy", PARTS[2])
    assert drawn and not reread.is_waiting_for_seed()
    same = Session.start("two-headed-dragon", ["ann", "ben", "cy"],
                         seed=joint_seed(SECRET, PARTS))
    assert [s.text for s in reread.steps] == [s.text for s in same.steps]
    assert load_one(reread.text()).seed == joint_seed(SECRET, PARTS)


def test_an_exported_joint_record_shows_the_commitment_and_every_part() -> None:
    session = joint_game()
    exported = gtn.write(session.exported(0))
    assert SECRET not in exported
    assert f'[SeedHash "{seed_hash(SECRET)}"]' in exported
    assert f'[Contributions "{"; ".join(PARTS)}"]' in exported


def test_chance_drawn_before_every_part_arrived_is_invalid() -> None:
    text = joint_game().text().replace(PARTS[2], "?")
    (verdict,) = check_text(text)
    assert not verdict.ok and "missing: cy" in str(verdict.errors[0])


@pytest.fixture
def published(tmp_path: Path) -> tuple[Path, Path, str]:
    """A finished jointly drawn game, the master record and ann's exported record."""
    session = joint_game()
    while not session.game.is_over(session.state):
        session.push(session.game.legal_actions(session.state)[0])
    master = tmp_path / "master.gtn"
    master.write_text(session.text())
    ann = tmp_path / "ann.gtn"
    ann.write_text(gtn.write(session.exported(0)))
    return master, ann, seed_hash(SECRET)


def test_validate_checks_the_commitment_every_part_and_every_chance_action(
        published: tuple[Path, Path, str]) -> None:
    master, ann, commitment = published
    code, out = check(str(master), "--seed-hash", commitment, "--against", str(ann),
                       *(f"--contribution={n}={p}" for n, p in zip(["ann", "ben", "cy"], PARTS,
                                                                   strict=True)))
    assert code == 0, out


def change_part(text: str, old: str) -> str:
    new = old[:-1] + ("0" if old[-1] != "0" else "1")
    assert text.count(old) == 1
    return text.replace(old, new)


@pytest.mark.parametrize("part", ["secret", 0, 1, 2])
def test_changing_any_one_part_is_detected(published: tuple[Path, Path, str], part: object,
                                           tmp_path: Path) -> None:
    master, ann, commitment = published
    old = SECRET if part == "secret" else PARTS[part]  # type: ignore[index]
    forged = tmp_path / "forged.gtn"
    forged.write_text(change_part(master.read_text(), old))
    # Alone, the master no longer deals what it says: every chance action is checked.
    code, out = check(str(forged))
    assert code == 1 and "contradicts the seed" in out
    # Even with the chance actions redrawn to match, the commitment or the sent part fails.
    header = re.sub(r'\[(Result|Termination) "[^"]*"\]\n', "", forged.read_text().split("\n\n")[0])
    session = load_one(header + "\n")
    session.draw_chance()
    session.update_result_tags()
    redrawn = tmp_path / "redrawn.gtn"
    redrawn.write_text(session.text())
    assert run("validate", str(redrawn))[0] == 0
    checks = ["--seed-hash", commitment, "--against", str(ann),
              *(f"--contribution={n}={p}" for n, p in zip(["ann", "ben", "cy"], PARTS,
                                                          strict=True))]
    code, out = check(str(redrawn), *checks)
    assert code == 1
    expected = ("does not match the seed hash" if part == "secret"
                else f"{['ann', 'ben', 'cy'][part]}'s contribution")  # type: ignore[index]
    assert expected in out


def test_join_prints_a_line_to_paste_and_keeps_it(tmp_path: Path) -> None:
    keep = tmp_path / "mine.txt"
    code, out, _ = run("join", "--save", str(keep))
    assert code == 0 and re.fullmatch(r"#join [0-9a-f]{32}\n", out)
    assert keep.read_text() == out and (keep.stat().st_mode & 0o777) == 0o600
    assert run("join")[1] != out


def test_validate_contribution_needs_seat_and_hex(published: tuple[Path, Path, str]) -> None:
    master = published[0]
    assert run("validate", str(master), "--contribution", "ann")[0] == 2
    code, out = check(str(master), "--contribution", "ann=zz")
    assert code == 1 and "not 32 to 128 hex digits" in out


# -- the joint seed by mail ------------------------------------------------------------------------

ANN, BEN = "ann@example.org", "ben@example.net"
KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)


def mail(sender: str, match: str, body: str) -> bytes:
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"] = sender
    message["To"] = "referee@localhost"
    message["Subject"] = f"[gametool {match}] move"
    message.set_content(body)
    return bytes(message)


def test_a_referee_game_draws_nothing_until_every_seat_has_joined(tmp_path: Path) -> None:
    from gametool.referee.referee import Referee

    ref = Referee(tmp_path / "g", tmp_path / "o")
    match, opening = ref.new("belemmer", [ANN, BEN])
    master = tmp_path / "g" / f"{match}.gtn"
    keys = {m.to: KEY.search(m.body).group(1) for m in opening}
    secret = load_one(master.read_text()).secret
    assert secret is not None and weak_seed_reason(secret) is None
    for message in opening:
        assert f"SeedHash: {seed_hash(secret)}" in message.body and "gametool join" in message.body
        assert "You are to move" not in message.body
        assert not any(line.startswith("#") for line in message.body.splitlines())
    before = master.read_bytes()
    late = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#ply 3\nplace a1"))
    assert not late.applied and "first mail must carry" in late.reason
    assert master.read_bytes() == before
    first = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#join {PARTS[0]}\n"))
    assert first.applied and [m.to for m in first.messages] == [ANN]
    assert f"waits for the contribution of: {BEN}" in first.messages[0].body
    again = ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#join {PARTS[2]}\n"))
    assert not again.applied and "already arrived" in again.reason
    wrong = ref.receive(mail(BEN, match, f"#key {keys[ANN]}\n#join {PARTS[1]}\n"))
    assert not wrong.applied and "key" in wrong.reason
    last = ref.receive(mail(BEN, match, f"#key {keys[BEN]}\n#join {PARTS[1]}\n"))
    assert last.applied and sorted(m.to for m in last.messages) == [ANN, BEN]
    assert any("You are to move at ply 3" in m.body for m in last.messages)
    session = load_one(master.read_text())
    assert session.seed == joint_seed(secret, PARTS[:2]) and session.ply == 2
    checked = run("validate", str(master), "--seed-hash", seed_hash(secret),
                  f"--contribution={ANN}={PARTS[0]}", f"--contribution={BEN}={PARTS[1]}")
    assert checked[0] == 0, checked
    assert run("validate", str(master), f"--contribution={BEN}={PARTS[2]}")[0] == 1


def test_referee_new_refuses_a_weak_seed_unless_told(tmp_path: Path) -> None:
    folders = ["--game-dir", str(tmp_path / "g"), "--outbox", str(tmp_path / "o")]
    args = ["referee", "new", "belemmer", "--players", f"{ANN},{BEN}", "--seed", "c0ffee"]
    code, out, err = run(*args, *folders)
    assert code == 1 and out == "" and "can be guessed" in err and "--weak-seed-ok" in err
    assert not (tmp_path / "o").exists()
    code, out, _ = run(*args, "--weak-seed-ok", *folders)
    assert code == 0 and out.strip()


def test_a_game_without_random_draws_needs_no_contribution(tmp_path: Path) -> None:
    from gametool.referee.referee import Referee

    ref = Referee(tmp_path / "g", tmp_path / "o")
    match, opening = ref.new("chess", [ANN, BEN])
    assert "Contributions" not in (tmp_path / "g" / f"{match}.gtn").read_text()
    keys = {m.to: KEY.search(m.body).group(1) for m in opening}
    assert ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#ply 1\ne4")).applied
    refused = ref.receive(mail(BEN, match, f"#key {keys[BEN]}\n#join {PARTS[1]}\n#ply 2\ne5"))
    assert not refused.applied and "not drawn jointly" in refused.reason
