"""The record layer on a toy game: strict reading, playing, canonical writing, export."""

from __future__ import annotations

import pytest

from gametool import games
from gametool.core.errors import GameError, GameOver, IllegalAction, RecordError
from gametool.records import Session, check_text, load_one


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games.GAMES, "toy", "toy:Toy")


def test_a_seeded_start_draws_the_opening_chance_actions() -> None:
    session = Session.start("toy", seed="s", date="2026.11.22")
    assert session.ply == 2
    text = session.text()
    assert text.startswith('[Game "toy"]\n[Players "p1; p2"]\n[Seed "s"]\n[Date "2026.11.22"]\n')
    assert "1. chance: deal " in text and "2. chance: deal " in text


def test_a_turn_of_several_actions_is_written_on_one_line() -> None:
    session = Session.start("toy", seed="s")
    session.play(["take 1", "take 2", "done"])
    lines = session.text().splitlines()
    assert "3. p1: take 1 | take 2 | done" in lines
    assert any(line.startswith("6. chance: roll ") for line in lines)
    assert load_one(session.text()).states == session.states


def test_lines_split_across_a_turn_are_merged_when_rewritten() -> None:
    text = ('[Game "toy"]\n[Players "a; b"]\n\n1. chance: deal 3\n2. chance: deal 4\n'
            "3. a: take 1\n4. a: done\n5. chance: roll 2\n")
    session = load_one(text)
    assert "3. a: take 1 | done\n5. chance: roll 2\n" in session.text()


def test_without_a_seed_chance_actions_are_typed_and_checked_for_being_possible() -> None:
    session = Session.start("toy")
    session.play(["deal 3", "deal 5", "take 3", "done", "roll 6"])
    assert session.state.pot == 9
    with pytest.raises(IllegalAction):
        session.play(["roll 7"])


def test_play_checks_the_seat_and_the_expected_ply() -> None:
    session = Session.start("toy", seed="s")
    with pytest.raises(IllegalAction, match="not p2's turn"):
        session.play(["take 1"], as_seat="p2")
    with pytest.raises(RecordError, match="stale --expect-ply 9"):
        session.play(["take 1"], expect_ply=9)
    session.play(["take 1"], as_seat="P1", expect_ply=3)
    with pytest.raises(GameError, match="no seat"):
        session.play(["done"], as_seat="zed")


def test_errors_carry_file_line_column_and_ply() -> None:
    text = ('[Game "toy"]\n[Players "a; b"]\n\n1. chance: deal 3\n2. chance: deal 4\n'
            "3. a: take 1 | take 9\n")
    with pytest.raises(IllegalAction) as info:
        Session.load(__import__("gametool.records").records.read_text(text, "t.gtn")[0], "t.gtn")
    assert str(info.value).startswith("t.gtn:6:16: ply 4: ")


def test_chance_that_contradicts_the_seed_is_rejected() -> None:
    session = Session.start("toy", seed="s")
    text = session.text()
    first = session.steps[0].text
    wrong = "deal 1" if first != "deal 1" else "deal 2"
    (verdict,) = check_text(text.replace(f"1. chance: {first}", f"1. chance: {wrong}"), "x")
    assert "contradicts the seed" in verdict.errors[0].message


def test_seed_hash_must_match_the_seed() -> None:
    text = Session.start("toy", seed="s").text().replace(
        '[Seed "s"]', '[Seed "s"]\n[SeedHash "00"]')
    (verdict,) = check_text(text)
    assert "SeedHash does not match" in verdict.errors[0].message


def test_export_hides_the_other_seat_s_deal_and_the_seed() -> None:
    session = Session.start("toy", seed="s")
    exported = __import__("notation.record").record.write(session.exported(0))
    assert "[SeedHash " in exported and '[Seed "' not in exported
    assert '[View "p1"]' in exported
    assert f"1. chance: {session.steps[0].text}" in exported
    assert "2. chance: deal ?" in exported
    (verdict,) = check_text(exported, "e.gtn")
    assert verdict.ok  # a player's file reads on its own, and says what it could not check
    assert "hidden values" in verdict.unchecked[0] and "SeedHash" in verdict.unchecked[1]


def test_actions_after_the_end_are_rejected() -> None:
    session = Session.start("toy", seed="s")
    session.play(["resign"])
    with pytest.raises(GameOver):
        session.play(["take 1"])
    assert session.record.get("Result") == "0-1"
    assert session.record.get("Termination") == "resignation"


def test_unknown_tags_are_kept_and_written_back() -> None:
    text = Session.start("toy", seed="s", date="2026.11.22").text().replace(
        '[Result "*"]', '[Result "*"]\n[Event "club night"]')
    assert load_one(text).text() == text


def test_options_and_players_are_checked() -> None:
    with pytest.raises(GameError, match="has no option"):
        Session.start("toy", options={"speed": "3"})
    with pytest.raises(GameError, match="2 players"):
        Session.start("toy", names=["a"])
    with pytest.raises(GameError, match="no spaces"):
        Session.start("toy", names=["a b", "c"])
    with pytest.raises(GameError, match="chance seat"):
        Session.start("toy", names=["chance", "c"])


def test_forced_chance_actions_left_out_of_a_record_are_added() -> None:
    # Special Salvo D11: a record typed without the referee's reports replays with them added,
    # whether the written ply numbers count the reports or not.
    from pathlib import Path

    full = (Path(__file__).parent.parent / "sample_games" / "special-salvo"
            / "referee-special.gtn").read_text()
    lines = [x for x in full.splitlines() if "chance: report" not in x and "[Seed" not in x]
    gapped = "\n".join(lines) + "\n"
    number = iter(range(1, 1000))
    renumbered = "\n".join(f"{next(number)}.{x.split('.', 1)[1]}" if x[:1].isdigit() else x
                           for x in lines) + "\n"
    expected = load_one(full)
    for text in (gapped, renumbered):
        session = load_one(text)
        assert session.states == expected.states
        assert session.text().split("\n\n", 1)[1] == expected.text().split("\n\n", 1)[1]
