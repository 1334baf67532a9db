"""The player's file: a record exported for a seat works on its own, from that seat's view.

At many positions of seeded random games of every game with hidden information, the record
exported for each seat is read with no master record: ``moves`` on it lists what ``moves
master --as SEAT`` lists whenever the seat is to move, ``show`` and ``replay`` draw what the
master shows that seat, and ``validate`` passes and says what it could not check.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import PLAYABLE

from gametool import games
from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.records import Session, check_text, load_one
from gametool.records.annotations import shown_session
from gametool.views import render
from notation import record as gtn

HIDDEN_GAMES = [gid for gid in PLAYABLE
                if games.playable_class(gid).hidden not in ("", "none")]
CHECKPOINTS = 12
MAX_PLIES = 600


def legal_texts(session: Session) -> list[str]:
    game, state = session.game, session.state
    return [game.format_action(state, a) for a in game.legal_actions(state)]


def checkpoints(gid: str) -> list[int]:
    """Plies spread over one seeded random game (cut at MAX_PLIES)."""
    session = Session.start(gid, seed=f"player-file-{gid}")
    while not session.game.is_over(session.state) and session.ply < MAX_PLIES:
        rng = SeedRng(f"player-file-{gid}:players", session.ply)
        session.push(rng.choice(session.game.legal_actions(session.state)))
    step = max(1, session.ply // CHECKPOINTS)
    return sorted({*range(0, session.ply + 1, step), session.ply})


@pytest.mark.parametrize("gid", HIDDEN_GAMES)
def test_the_exported_record_reads_as_the_seat_sees_the_master(gid: str) -> None:
    marks = set(checkpoints(gid))
    session = Session.start(gid, seed=f"player-file-{gid}")
    compared = 0
    while True:
        if session.ply in marks and session.to_move() is not None or session.game.is_over(
                session.state):
            for seat, name in enumerate(session.names):
                text = gtn.write(session.exported(seat))
                mine = load_one(text, f"{name}.gtn")
                assert mine.ply == session.ply
                if session.to_move() == seat:
                    assert legal_texts(mine) == legal_texts(session), (gid, session.ply, name)
                    compared += 1
                for ply in {0, session.ply // 2, session.ply}:
                    assert (render.show_text(mine, ply, mine.view_as(None))
                            == render.show_text(session, ply, name)), (gid, ply, name)
                    assert (render.show_data(mine, ply, mine.view_as(None))
                            == render.show_data(session, ply, name))
                (verdict,) = check_text(text, f"{name}.gtn")
                assert verdict.ok, verdict.errors
                assert mine.text() == text  # a player's file writes back unchanged
        if session.game.is_over(session.state) or session.ply >= MAX_PLIES:
            break
        rng = SeedRng(f"player-file-{gid}:players", session.ply)
        session.push(rng.choice(session.game.legal_actions(session.state)))
    assert compared > 0


def exported_pair(tmp_path: Path, gid: str, plies: int) -> tuple[Path, Path, str]:
    session = Session.start(gid, seed=hashlib.sha256(gid.encode()).hexdigest()[:32])
    while session.ply < plies and not session.game.is_over(session.state):
        rng = SeedRng(f"pair-{gid}", session.ply)
        session.push(rng.choice(session.game.legal_actions(session.state)))
    master = tmp_path / "master.gtn"
    master.write_text(session.text())
    name = session.seat_name(session.to_move()) or session.names[0]
    mine = tmp_path / f"{name}.gtn"
    mine.write_text(gtn.write(session.exported(session.seat_index(name))))
    return master, mine, name


@pytest.mark.parametrize("gid", ["western-mahjong", "two-headed-dragon", "belemmer"])
def test_the_player_commands_on_their_own_file(tmp_path: Path, gid: str) -> None:
    runner = CliRunner()
    master, mine, name = exported_pair(tmp_path, gid, 40)
    listed = runner.invoke(cli, ["moves", str(mine)])
    assert listed.exit_code == 0, listed.output
    assert listed.output == runner.invoke(cli, ["moves", str(master), "--as", name]).output
    shown = runner.invoke(cli, ["show", str(mine)])
    assert shown.exit_code == 0
    assert shown.output == runner.invoke(cli, ["show", str(master), "--as", name]).output
    replayed = runner.invoke(cli, ["replay", str(mine), "--from", "1", "--to", "3"])
    assert replayed.output == runner.invoke(
        cli, ["replay", str(master), "--as", name, "--from", "1", "--to", "3"]).output
    checked = runner.invoke(cli, ["validate", str(mine)])
    assert checked.exit_code == 0, checked.output
    assert "ok" in checked.output and "not checked" in checked.output
    assert "SeedHash" in checked.output


def test_a_player_file_shows_no_other_seat(tmp_path: Path) -> None:
    runner = CliRunner()
    master, mine, name = exported_pair(tmp_path, "western-mahjong", 10)
    other = next(n for n in ("p1", "p2") if n != name)
    result = runner.invoke(cli, ["show", str(mine), "--as", other])
    assert result.exit_code == 1
    assert f"exported for {name}" in result.output
    assert runner.invoke(cli, ["show", str(mine), "--as", "chance"]).output == runner.invoke(
        cli, ["show", str(master), "--as", "chance"]).output


def test_an_old_error_for_hidden_values_is_gone(tmp_path: Path) -> None:
    runner = CliRunner()
    _master, mine, _name = exported_pair(tmp_path, "johari-bones", 12)
    result = runner.invoke(cli, ["show", str(mine)])
    assert result.exit_code == 0, result.output
    assert "use the master record" not in result.output


def test_dry_run_checks_and_changes_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "sc.gtn"
    assert runner.invoke(cli, ["start", "space-cards", "--players", "ann,ben", "--seed", "d1",
                               "-o", str(path)]).exit_code == 0
    before = path.read_bytes()
    hand = load_one(before.decode()).game.view(load_one(before.decode()).state, 0)["hand"]
    result = runner.invoke(cli, ["move", str(path), f"TRADE {hand[1].lower()} {hand[0]}",
                                 "--as", "ann", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert result.output == f"2. ann: trade {hand[0]} {hand[1]}\nthen chance acts\n"
    assert path.read_bytes() == before
    bad = runner.invoke(cli, ["move", str(path), "trade 7T 7T", "--dry-run"])
    assert bad.exit_code == 1 and path.read_bytes() == before
    done = runner.invoke(cli, ["move", str(path), "score luck", "--dry-run"])
    assert done.output == "2. ann: score luck\nthen chance acts\n"


def test_dry_run_on_a_player_file_says_what_follows(tmp_path: Path) -> None:
    runner = CliRunner()
    _master, mine, name = exported_pair(tmp_path, "western-mahjong", 6)
    before = mine.read_bytes()
    first = runner.invoke(cli, ["moves", str(mine)]).output.splitlines()[0]
    result = runner.invoke(cli, ["move", str(mine), first, "--dry-run"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith(f"{name}: {first}")
    assert result.output.splitlines()[-1].startswith("then ")
    assert mine.read_bytes() == before


PLAYER_FILE_SAMPLES = ["two-headed-dragon/three-players.gtn", "special-salvo/referee-special.gtn",
                       "johari-bones/three-players.gtn", "western-mahjong/random-full-game.gtn"]


@pytest.mark.parametrize("sample", PLAYER_FILE_SAMPLES)
def test_a_players_file_speaks_for_its_own_seat_only(sample: str, tmp_path: Path) -> None:
    """Exported again, a player's file gives its own seat's record (which validates); for any
    other seat it is refused in one line, and nothing is written: it does not hold that seat's
    hidden values, and inventing them would make a record of another game."""
    master = Path(__file__).parent.parent / "sample_games" / sample
    names = load_one(master.read_text(encoding="utf-8")).names
    mine = tmp_path / "mine.gtn"

    def gametool(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["gametool", *args], capture_output=True, text=True, check=False)

    done = gametool("export", str(master), "--as", names[1], "--weak-seed-ok", "-o", str(mine))
    assert done.returncode == 0, done.stderr
    again = tmp_path / "again.gtn"
    done = gametool("export", str(mine), "--as", names[1], "-o", str(again))
    assert done.returncode == 0, done.stderr
    assert gametool("validate", str(again)).returncode == 0
    for other in [n for n in names if n != names[1]]:
        out = tmp_path / f"{other}.gtn"
        done = gametool("export", str(mine), "--as", other, "-o", str(out))
        assert done.returncode != 0, other
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert f"exported for {names[1]}" in done.stderr and "Traceback" not in done.stderr
        assert not out.exists()


def test_a_hidden_value_in_a_game_that_hides_nothing_is_refused_at_once(tmp_path: Path) -> None:
    """Sapos hides nothing, so no record of it holds a '?': each one is refused on its own
    line, as a malformed action, without guessing what it could stand for."""
    lines = [f"{i}. {'Dark' if i % 2 else 'Light'}: ?" for i in range(1, 41)]
    path = tmp_path / "sapos.gtn"
    path.write_text('[Game "sapos"]\n[Players "Dark; Light"]\n[View "Dark"]\n\n'
                    + "\n".join(lines) + "\n")
    done = subprocess.run(["gametool", "validate", "--all", str(path)], capture_output=True,
                          text=True, check=False)
    assert done.returncode != 0
    refused = [line for line in done.stderr.splitlines() if "Sapos hides nothing" in line]
    assert len(refused) == 40, done.stderr
    assert refused[0].startswith(f"{path}:5:10: ply 1:")
    # A move with a '?' annotation is no hidden value: a chess player's file reads it.
    chess = tmp_path / "chess.gtn"
    chess.write_text('[Game "chess"]\n[Players "ann; ben"]\n[View "ann"]\n\n1. ann: e4?\n')
    done = subprocess.run(["gametool", "validate", str(chess)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("gid", HIDDEN_GAMES)
def test_a_hidden_value_where_no_action_hides_one_is_refused_after_one_look(
        gid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first seat's file with '?' written for an action of the first seat to move: where
    every action possible there is written in full for the file's seat, the line is refused as
    malformed after the actions possible are looked at once (counted: calls of
    ``mask_action``), not once for each of many guesses at the hidden values (200)."""
    session = Session.start(gid, seed=f"player-file-{gid}")
    game = session.game
    mover = game.to_move(session.state)
    if mover is None or mover < 0:
        pytest.skip("chance acts first")
    name = session.names[mover]
    result = CliRunner().invoke(cli, ["export", "-", "--as", name, "--weak-seed-ok"],
                                input=session.text().encode())
    assert result.exit_code == 0, result.stderr
    text = result.stdout.rstrip("\n") + f"\n{session.ply + 1}. {name}: ?\n"
    actions = game.legal_actions(session.state)
    if any("?" in game.mask_action(session.state, a, game.apply(session.state, a), mover)
           for a in actions):
        pytest.skip(f"{gid}: an action possible here hides a value from its own seat")
    legal = len(actions)
    looks = 0
    cls = type(game)
    masking = cls.mask_action

    def counted(self: object, *args: object) -> str:
        nonlocal looks
        looks += 1
        return masking(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(cls, "mask_action", counted)
    checked, = check_text(text, "p.gtn", all_errors=False)
    assert checked.errors, "a '?' standing for no action was read"
    assert checked.errors[0].kind == "malformed", checked.errors[0]  # refused as written
    # a guess at the hidden values may allow a few more actions than the game played had
    assert looks <= 4 * legal + 16, (looks, legal)

SAMPLES = sorted((Path(__file__).parent.parent / "sample_games").glob("*/*.gtn"))
COMMANDS = (["validate"], ["show"], ["moves"])
THROUGH_THE_COMMAND = [("track-gammon", "placings-typed-dice", 0, False),
                       ("special-salvo", "commit-reveal-classic", 0, True)]
"""Players' files also read through the installed command: the long Track Gammon file,
replayed whole, and one player's file of a game that hides things (every command)."""


def exported(sample: Path, master: Session, seat: int, folder: Path) -> tuple[Path, str]:
    """The sample (read as ``master``) exported for its seat ``seat``: (the file, the seat's
    name)."""
    name = master.names[seat]
    out = folder / f"{sample.parent.name}-{sample.stem}-{name}.gtn"
    done = CliRunner().invoke(cli, ["export", str(sample), "--as", name, "--weak-seed-ok",
                                    "-o", str(out)])
    assert done.exit_code == 0, (sample, name, done.output)
    return out, name


@pytest.mark.parametrize("game", sorted({sample.parent.name for sample in SAMPLES}))
def test_every_sample_exported_for_every_seat_is_read_by_every_command(
        game: str, tmp_path: Path, record_property: pytest.RecordProperty) -> None:
    """Each sample of each game, exported for each of its seats, is a record that validate,
    show, moves and replay all read; replay shows its last plies (the whole record is replayed
    to reach them). In a game that hides nothing the seats' files differ in their View only,
    so show and moves read the first seat's; validate and replay read every seat's. In process
    (a part for each game); a few files go through the installed command below."""
    runner = CliRunner()
    samples = [sample for sample in SAMPLES if sample.parent.name == game]
    written = 0
    for sample in samples:
        master = load_one(sample.read_text(encoding="utf-8"), str(sample))
        hides = master.game.hidden not in ("", "none")
        for seat in range(len(master.names)):
            out, name = exported(sample, master, seat, tmp_path)
            for args in COMMANDS if hides or seat == 0 else COMMANDS[:1]:
                result = runner.invoke(cli, [*args, str(out)])
                assert result.exit_code == 0, (sample.name, name, args, result.output)
            result = runner.invoke(cli, ["replay", "--from", str(max(0, master.ply - 1)),
                                         str(out)])
            assert result.exit_code == 0, (sample.name, name, result.output)
            shown = shown_session(master).names[seat]  # the player's name as written
            assert f"ply {master.ply}  (as {shown})" in result.output, (sample.name, name)
            written += 1
    record_property("count:player's files of samples validated", written)
    assert samples and written >= 2 * len(samples)


@pytest.mark.parametrize(("game", "stem", "seat", "every_command"), THROUGH_THE_COMMAND)
def test_a_players_file_of_a_sample_is_read_by_the_installed_command(
        game: str, stem: str, seat: int, every_command: bool, tmp_path: Path) -> None:
    sample = next(s for s in SAMPLES if s.parent.name == game and s.stem == stem)
    master = load_one(sample.read_text(encoding="utf-8"), str(sample))
    out, name = exported(sample, master, seat, tmp_path)
    for args in COMMANDS if every_command else ():
        done = subprocess.run(["gametool", *args, str(out)], capture_output=True, text=True,
                              check=False)
        assert done.returncode == 0 and done.stderr == "", (out.name, args, done.stderr)
    done = subprocess.run(["gametool", "replay", str(out)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stderr == "", (out.name, done.stderr)
    assert done.stdout.count(f"(as {name})") == load_one(out.read_text()).ply + 1


def test_a_placement_hidden_in_its_own_players_file_is_refused_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In p1's own file, p1's placement is written in full: 'place ?' there is refused at once,
    not searched for among every placement under every guess of p2's fleet (a count of the
    game's moves applied, not a clock). In p2's file, the same line is p1's hidden placement."""
    from gametool.games.special_salvo.game import SpecialSalvo

    applied = [0]
    apply = SpecialSalvo.apply

    def counted(self: SpecialSalvo, *args: object) -> object:
        applied[0] += 1
        return apply(self, *args)
    monkeypatch.setattr(SpecialSalvo, "apply", counted)
    head = '[Game "special-salvo"]\n[Players "p1; p2"]\n[View "{}"]\n\n1. p1: place ?\n'
    (verdict,) = check_text(head.format("p1"), "p1.gtn")
    assert not verdict.ok and "written in full in its own player's file" in str(verdict.errors)
    assert applied[0] <= 1
    (verdict,) = check_text(head.format("p2"), "p2.gtn")
    assert verdict.ok, verdict.errors
