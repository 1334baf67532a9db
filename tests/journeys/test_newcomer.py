"""A newcomer's first session, and the reliability cases a fuzzer found: every refusal is one
line with the documented exit status, and no command stops with an internal error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gametool.records import Session, load_one

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLES = ROOT / "sample_games"


def gametool(*args: str, cwd: Path, input: str | None = None) -> subprocess.CompletedProcess:
    """The installed command, as a user runs it."""
    env = {**os.environ, "NO_COLOR": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["gametool", *args], cwd=cwd, capture_output=True, text=True,
                          input=input, env=env, timeout=120)


def one_line(done: subprocess.CompletedProcess, status: int) -> str:
    assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gametool: "), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    return lines[0]


# -- validate --all ---------------------------------------------------------------------------


@pytest.mark.parametrize("after", ["(\n3. p1: e5=R\n)\n", "end: 1-0 resignation\n"],
                         ids=["variation", "ending"])
def test_validate_all_reads_on_past_a_variation_or_an_ending_after_a_rejected_action(
        tmp_path: Path, after: str) -> None:
    path = tmp_path / "bad.gtn"
    path.write_text('[Game "colors"]\n[Players "p1; p2"]\n\n1. p1: d4=R\n2. p2: zz\n'
                    f"3. p1: e4=R\n{after}")
    done = gametool("validate", "--all", str(path), cwd=tmp_path)
    assert done.returncode == 1
    assert "internal error" not in done.stderr
    assert done.stderr.splitlines() == [
        f"{path}:5:8: ply 2: malformed action 'zz': expected square=colour such as d4=R "
        "(Expected square, found 'zz')"]


def _damaged(game_id: str, lines: int) -> str:
    session = Session.start(game_id, None, None, "damaged", None)
    head = [line for line in session.text().splitlines() if line.startswith("[")]
    names = session.names
    body = [f"{i + 1}. {names[i % len(names)]}: zz{i}" for i in range(lines)]
    return "\n".join([*head, "", *body]) + "\n"


@pytest.mark.parametrize("game_id", ["chess", "super-horse-chess", "desdemona", "sapos"])
def test_validate_all_does_work_linear_in_the_damaged_lines(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line of the record rejected: each costs about the same bounded work, counted as
    calls into the game (a count, not a clock: the machine may be loaded; bench/ keeps the
    times). A search that went back over the lines read before, or tried every action of a
    crowded position, would show here as calls growing with the lines."""
    from collections import Counter

    from gametool.games import game_class
    from gametool.records import check_text
    from gametool.records.resync import RESYNC_BREADTH, RESYNC_LOOKAHEAD

    calls: Counter[str] = Counter()
    cls = game_class(game_id)
    for name in ("legal_actions", "format_action", "action_stem", "apply", "parse_action",
                 "to_move", "chance_outcomes"):
        method = getattr(cls, name)

        def counted(self: Any, *args: Any, _method: Any = method, _name: str = name) -> Any:
            calls[_name] += 1
            return _method(self, *args)
        monkeypatch.setattr(cls, name, counted)

    def work(lines: int) -> float:
        calls.clear()
        checked, = check_text(_damaged(game_id, lines), "d.gtn", all_errors=True)
        assert len(checked.errors) >= min(lines, 150)  # Desdemona lasts at most 200 plies
        return sum(calls.values()) / lines

    small, large = work(64), work(256)
    # Per line: the nearness of at most RESYNC_BREADTH actions (a stem, a text), the written
    # actions after it read once, and the turn's bookkeeping.
    bound = 3 * RESYNC_BREADTH + 4 * RESYNC_LOOKAHEAD
    assert small <= bound and large <= bound, (small, large, calls)
    assert large <= 1.25 * small, (small, large, calls)


@pytest.mark.parametrize("game_id", ["chess", "super-horse-chess", "colors", "desdemona"])
def test_the_nearest_completion_is_the_one_every_exact_ratio_would_choose(game_id: str) -> None:
    """The cheap bounds only spare work: the action chosen is the one that comparing every
    action's text exactly (difflib's ratio, the first in legal order among equals) chooses."""
    import random
    from difflib import SequenceMatcher

    from gametool.records import RESYNC_BREADTH
    from gametool.records.resync import _nearest_completion

    rng = random.Random(game_id)
    session = Session.start(game_id, None, None, "nearest", None)
    compared = 0
    for _ply in range(12):
        game, state = session.game, session.state
        mover = game.to_move(state)
        if mover is None:
            break
        if mover >= 0:
            actions = game.legal_actions(state)[:RESYNC_BREADTH]
            texts = [game.format_action(state, a).lower() for a in actions]
            for wanted in ("zz17", rng.choice(texts)[::-1], rng.choice(texts) + "x", "e4+"):
                ratios = [SequenceMatcher(None, wanted, t).ratio() for t in texts]
                first = ratios.index(max(ratios))
                seat = game.to_move(game.apply(state, actions[first]))
                if seat is None or seat < 0 or seat == mover:
                    continue
                chosen = _nearest_completion(game, state, seat, wanted)
                naive = [i for i, a in enumerate(actions)
                         if game.to_move(game.apply(state, a)) == seat]
                best = max(naive, key=lambda i: (ratios[i], -i))
                assert chosen is not None and chosen[0][1] == actions[best], wanted
                compared += 1
        session.push(rng.choice(game.legal_actions(state)))
    assert compared >= 20


# -- one error shape --------------------------------------------------------------------------


def test_a_folder_a_pgn_file_and_a_record_given_to_import_each_get_one_line(
        tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    for command in (["show"], ["moves"], ["replay"], ["undo"], ["move", "--dry-run"]):
        args = [*command[:1], "adir", *command[1:]]
        if command[0] == "move":
            args.append("d4=R")
        line = one_line(gametool(*args, cwd=tmp_path), 2)
        assert "'adir' is a directory" in line and "--help" in line, line
    pgn = tmp_path / "opera.pgn"
    pgn.write_text((SAMPLES / "chess" / "opera.pgn").read_text())
    shown = gametool("show", "opera.pgn", cwd=tmp_path)
    assert shown.returncode == 0 and "Rd8#" in shown.stdout, shown.stderr
    assert gametool("moves", "opera.pgn", cwd=tmp_path).stdout == ""  # mate: no move
    assert gametool("replay", "opera.pgn", "--from", "32", cwd=tmp_path).returncode == 0
    before = pgn.read_bytes()
    for command in (["move", "opera.pgn", "Kf1"], ["undo", "opera.pgn"]):
        line = one_line(gametool(*command, cwd=tmp_path), 1)
        assert "gametool import opera.pgn -o GAME.gtn" in line, line
    assert pgn.read_bytes() == before
    record = tmp_path / "opera.gtn"
    record.write_text((SAMPLES / "chess" / "opera-game-checkmate.gtn").read_text())
    line = one_line(gametool("import", "opera.gtn", cwd=tmp_path), 1)
    assert "import reads PGN" in line, line


def test_replay_stops_at_the_end_and_names_a_reversed_range(tmp_path: Path) -> None:
    assert gametool("start", "colors", "-o", "g.gtn", cwd=tmp_path).returncode == 0
    assert gametool("move", "g.gtn", "d4=R", cwd=tmp_path).returncode == 0
    done = gametool("replay", "g.gtn", "--from", "1", "--to", "2", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.count("Colors (colors)") == 1
    line = one_line(gametool("replay", "g.gtn", "--from", "5", "--to", "2", cwd=tmp_path), 2)
    assert line == "gametool: usage: --from 5 comes after --to 2 (see 'gametool replay --help')"
    line = one_line(gametool("replay", "g.gtn", "--from", "5", cwd=tmp_path), 1)
    assert line == "gametool: --from 5: the record ends at ply 1"


# The player's files of the shipped samples (every seat's file of every sample, exported and
# validated) are read by every command in test_player_file.py.


# -- suggestions ------------------------------------------------------------------------------


def test_move_dry_run_and_the_referee_suggest_the_same_actions(tmp_path: Path) -> None:
    assert gametool("start", "chess", "-o", "g.gtn", cwd=tmp_path).returncode == 0
    moved = one_line(gametool("move", "g.gtn", "nf3", cwd=tmp_path), 1)
    dry = one_line(gametool("move", "g.gtn", "nf3", "--dry-run", cwd=tmp_path), 1)
    assert moved == dry and "(did you mean 'Nf3' or 'f3' or 'Nh3'?)" in moved

    from conftest import joined_referee_game

    from gametool.referee.referee import Referee

    ann, ben = "ann@example.org", "ben@example.net"
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, key, master = joined_referee_game(ref, "hints", ann, ben)
    session = load_one(master.read_text())
    legal = session.game.format_action(session.state, session.game.legal_actions(
        session.state)[0])
    typo = legal.replace("place ", "plaec ")
    receipt = ref.receive((f"From: {ann}\r\nSubject: [gametool {match}]\r\n\r\n#key {key}\r\n"
                           f"#ply {session.ply + 1}\r\n{typo}\r\n").encode())
    assert not receipt.applied
    path = tmp_path / "ann.gtn"
    path.write_text(master.read_text())
    by_move = one_line(gametool("move", "ann.gtn", typo, "--as", ann, cwd=tmp_path), 1)
    hint = by_move[by_move.index(" (did you mean"):]
    assert receipt.reason is not None and receipt.reason.endswith(hint), receipt.reason


def test_an_unquoted_action_with_a_blank_is_refused_with_a_word_about_quoting(
        tmp_path: Path) -> None:
    assert gametool("start", "belemmer", "--seed", "q1", "-o", "b.gtn",
                    cwd=tmp_path).returncode == 0
    line = one_line(gametool("move", "b.gtn", "place", "b3", cwd=tmp_path), 1)
    assert "an action with a blank is one word for the shell: quote it, \"place " in line


# -- folders and disks ------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["selfplay", "colors", "-n", "1", "-o", "afile/sub"],
    ["selfplay", "colors", "-n", "1", "-o", "/proc/gametool-test/sub"],
    ["referee", "new", "colors", "--players", "a@example.org,b@example.org",
     "--game-dir", "afile/sub", "--outbox", "outbox"],
    ["referee", "new", "colors", "--players", "a@example.org,b@example.org",
     "--game-dir", "games", "--outbox", "afile/sub"],
    ["split", "g.gtn", "-o", "afile/sub"],
    ["start", "colors", "-o", "afile/sub.gtn"],
], ids=lambda args: " ".join(args[:2] + args[-2:]))
def test_a_file_in_the_way_of_a_folder_is_one_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "afile").write_text("in the way\n")
    assert gametool("start", "colors", "-o", "g.gtn", cwd=tmp_path).returncode == 0
    line = one_line(gametool(*args, cwd=tmp_path), 1)
    assert "afile/sub" in line or "/proc/" in line, line
    assert (tmp_path / "afile").read_text() == "in the way\n"


# -- small things -----------------------------------------------------------------------------


def test_one_ply_is_one_ply_and_colours_name_seats_of_named_players(tmp_path: Path) -> None:
    assert gametool("start", "chess", "--players", "ann,bob", "-o", "g.gtn",
                    cwd=tmp_path).returncode == 0
    assert gametool("move", "g.gtn", "e4", cwd=tmp_path).returncode == 0
    assert gametool("validate", "g.gtn", cwd=tmp_path).stdout == "g.gtn: ok (1 record, 1 ply)\n"
    black = gametool("show", "g.gtn", "--as", "black", cwd=tmp_path)
    assert black.returncode == 0 and "(as bob)" in black.stdout, black.stderr
    assert gametool("moves", "g.gtn", "--as", "Black", cwd=tmp_path).stdout.split()[:1]
    line = one_line(gametool("show", "g.gtn", "--as", "blak", cwd=tmp_path), 1)
    assert "did you mean 'black'?" in line
    line = one_line(gametool("start", "po-go", cwd=tmp_path), 1)
    assert "cannot be played" in line and "supply" not in line


def test_selfplay_json_keys_are_words_without_blanks(tmp_path: Path) -> None:
    done = gametool("selfplay", "colors", "-n", "1", "-o", "c", "--seed", "k", "--json",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    import json

    rows = json.loads(done.stdout)
    assert all(" " not in key and "/" not in key for row in rows for key in row), rows
    assert "plies_per_second" in rows[0] and "mean_plies" in rows[0]


# -- the whole session, as a script ---------------------------------------------------------

SESSION = r"""
gametool start chess -o opening.gtn
gametool move opening.gtn e4 e5
gametool move opening.gtn qh5 --dry-run 2>&1 | grep -q "did you mean 'Qh5'" || exit 12
gametool move opening.gtn qh5 2>&1 | grep -q "did you mean 'Qh5'" || exit 13
gametool start colors -o game.gtn
gametool move game.gtn d4=R
gametool move game.gtn e4=R --as p2
gametool undo game.gtn
gametool replay game.gtn --from 1 --to 2 > /dev/null
gametool show game.gtn --svg > pos.svg
gametool show game.gtn --as p2 -o p2.svg
gametool show game.gtn --as p2 -o p2.svg 2>&1 | grep -q "already exists" || exit 14
gametool validate game.gtn | grep -qx "game.gtn: ok (1 record, 1 ply)" || exit 15
gametool start chess --players ann,bob -o chess.gtn
gametool move chess.gtn e4 e5 Nf3
gametool show chess.gtn --as black > /dev/null
gametool export chess.gtn --pgn -o chess.pgn
gametool show chess.pgn | grep -q "ply 3" || exit 16
gametool import chess.gtn 2>&1 | grep -q "import reads PGN" || exit 17
mkdir adir
gametool show adir 2>&1 | wc -l | grep -qx 1 || exit 18
gametool validate adir 2>&1 | wc -l | grep -qx 1 || exit 19
gametool shw game.gtn 2>&1 | grep -q "did you mean 'show'" || exit 20
gametool start belemmer --seed s1 -o b.gtn
gametool move b.gtn place 2>&1 | grep -q "quote it" || exit 21
gametool replay game.gtn --from 5 --to 2 2>&1 | grep -q "comes after --to 2" || exit 22
gametool start po-go 2>&1 | grep -q "cannot be played" || exit 23
echo session-done
"""


def test_a_newcomer_s_session_meets_no_surprise(tmp_path: Path) -> None:
    """The first session of the report, in order: each step does what the README says, and
    every refusal is one line."""
    env = {**os.environ, "NO_COLOR": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-e", "-c", SESSION], cwd=tmp_path, capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0 and done.stdout.endswith("session-done\n"), (
        done.returncode, done.stdout[-800:], done.stderr[-800:])
