"""What players meet at the edges of a season: the commands told in every first mail, no
prompt before a game begins, games that cannot be played by mail refused, a game that never
began lapsing unrated, the last seat but one leaving, and a forfeit among four."""

from __future__ import annotations

import os
import re
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from gametool.records import load_one
from gametool.referee import standings
from gametool.referee.referee import Referee

ANN, BEN, CY, DI = "ann@example.org", "ben@example.net", "cy@example.com", "di@example.com"
SEAT_KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)
PLAYER_KEY = re.compile(r"player key: ([a-z2-7]+)$", re.M)


def outbox_texts(outbox: Path) -> list[str]:
    return [message_from_bytes(p.read_bytes(), policy=policy.default).get_content()
            for p in outbox.glob("*.eml")]


def mail(sender: str, match: str | None, text: str) -> bytes:
    subject = f"[gametool {match}]" if match else "gametool"
    return f"From: {sender}\r\nSubject: {subject}\r\n\r\n{text}\r\n".encode()


def joined(ref: Referee, game: str, seats: list[str]) -> tuple[str, dict[str, str]]:
    match, opening = ref.new(game, seats)
    keys = {m.to: SEAT_KEY.search(m.body).group(1) for m in opening}  # type: ignore[union-attr]
    for seat in seats:
        receipt = ref.receive(mail(seat, match, f"#key {keys[seat]}\n#join {os.urandom(16).hex()}"))
        assert receipt.applied, receipt.reason
    return match, keys


def allowed(ref: Referee, who: str) -> str:
    (message,) = ref.allow([who])
    return PLAYER_KEY.search(message.body).group(1)  # type: ignore[union-attr]


def test_every_first_mail_tells_the_commands(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    for game, seats in (("chess", [ANN, BEN]), ("belemmer", [ANN, BEN]),
                        ("two-headed-dragon", [ANN, BEN, CY, DI])):
        _match, opening = ref.new(game, seats)
        assert len(opening) == len(seats)
        for message in opening:
            for word in ("#draw", "#accept", "#decline", "#undo", "#show", "#moves", "#games",
                         "#standings", "#help"):
                assert word in message.body, (game, word)
            # sent back unchanged, the list applies nothing: no line starts with a command
            assert not any(line.startswith("#") for line in message.body.splitlines())


def test_a_game_started_by_mail_waits_for_the_invitee_and_says_one_day(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    key = allowed(ref, ANN)
    started = ref.receive(mail(ANN, None, f"#key {key}\n#new chess vs {BEN} days=1"))
    assert started.applied, started.reason
    (mine,) = [m for m in started.messages if m.to == ANN]
    (theirs,) = [m for m in started.messages if m.to == BEN]
    assert "Legal actions" not in mine.body and "You are to move" not in mine.body
    assert "within 1 day;" in theirs.body


@pytest.mark.parametrize(("wanted", "why"), [
    ("special-salvo vs {BEN} referee=off", "cannot be played by mail"),
    ("chess vs {BEN} days=0", "from 1 to 365"),
    ("chess vs {BEN} days=400", "from 1 to 365"),
])
def test_a_game_nobody_could_play_is_refused(tmp_path: Path, wanted: str, why: str) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    key = allowed(ref, ANN)
    done = ref.receive(mail(ANN, None, f"#key {key}\n#new {wanted.format(BEN=BEN)}"))
    assert not done.applied and why in (done.reason or ""), done.reason
    assert list((tmp_path / "games").glob("*.gtn")) == []


def test_a_game_whose_join_never_came_lapses_and_rates_nobody(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    match, opening = ref.new("belemmer", [ANN, BEN], days=2)
    keys = {m.to: SEAT_KEY.search(m.body).group(1) for m in opening}  # type: ignore[union-attr]
    assert ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#join {'ab' * 16}")).applied
    ref.clock_now = "2026-12-02T10:00:00Z"
    ref.tick()
    (reminder,) = [p.read_text() for p in (tmp_path / "outbox").glob("*.eml")]
    assert "reminder, send #join" in reminder and f"To: {BEN}" in reminder
    assert "Move by" not in reminder and "'gametool join'" in reminder
    ref.clock_now = "2026-12-03T10:00:00Z"
    report = ref.tick()
    assert report.lapsed == [match] and not report.forfeited
    assert (tmp_path / "games" / "lapsed" / f"{match}.gtn").is_file()
    assert standings.standings(tmp_path / "games") == {}


def test_the_last_seat_but_one_to_leave_ends_the_game(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    match, _keys = joined(ref, "track-gammon", [ANN, BEN, CY])
    ref.clock_now = "2026-12-08T10:00:00Z"
    first = ref.tick()
    assert len(first.left) == 1 and not first.forfeited
    for path in (tmp_path / "outbox").glob("*.eml"):
        path.unlink()
    ref.clock_now = "2026-12-15T11:00:00Z"
    second = ref.tick()
    assert not second.left and len(second.forfeited) == 1, second
    assert load_one(ref.master(match).read_text()).outcome() is not None
    bodies = outbox_texts(tmp_path / "outbox")
    assert len(bodies) == 3
    assert all("that ends the game" in body and "play on" not in body for body in bodies)


def test_a_forfeit_among_four_decides_nothing_among_the_three_on_time(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-01T09:00:00Z")
    match, _keys = joined(ref, "two-headed-dragon", [ANN, BEN, CY, DI])
    session = load_one(ref.master(match).read_text())
    late = session.names[session.to_move()]
    ref.clock_now = "2026-12-09T10:00:00Z"
    assert len(ref.tick().forfeited) == 1
    bodies = outbox_texts(tmp_path / "outbox")
    assert len(bodies) == 4
    assert all("nothing is decided among the others" in body for body in bodies)
    (table,) = standings.standings(tmp_path / "games").values()
    lines = {line.player: line for line in table}
    assert (lines[late].wins, lines[late].draws, lines[late].losses) == (0, 0, 1)
    others = [line for name, line in lines.items() if name != late]
    assert all((line.wins, line.draws, line.losses) == (1, 0, 0) for line in others)
    # each on-time seat gains K / 3 x 1/2 from the late seat alone; the late seat loses 10
    assert all(line.elo == pytest.approx(1500 + 20 / 3 / 2, abs=0.05) for line in others)
    assert lines[late].elo == pytest.approx(1490, abs=0.05)


def test_a_clock_read_behind_the_turns_start_never_moves_it_back(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now="2026-12-05T09:00:00Z")
    match, opening = ref.new("chess", [ANN, BEN])
    keys = {m.to: SEAT_KEY.search(m.body).group(1) for m in opening}  # type: ignore[union-attr]
    ref.clock_now = "2026-12-01T09:00:00Z"  # a clock set back
    assert ref.receive(mail(ANN, match, f"#key {keys[ANN]}\n#ply 1\ne4")).applied
    assert '[TurnStart "2026-12-05T09:00:00Z"]' in ref.master(match).read_text()
