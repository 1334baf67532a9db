"""Robustness of the command line (design.md section 4) against careless users and damaged
records, for every playable game.

Whatever the input, the CLI exits 0, 1 or 2, never lets an exception escape, prints a failure
as one line on stderr (``gametool: ...`` or ``FILE:LINE:COL: ...``; Click's own usage text for
exit status 2), and a rejected ``move`` leaves the record byte for byte as it was.

``GAMETOOL_ROBUST_EXAMPLES`` sets the hypothesis examples per test and game (default small, so
the whole file stays around a minute).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import traceback
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import PLAYABLE
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gametool import games
from gametool.cli import cli
from gametool.players.auto import random_game
from gametool.records import Session

RUNNER = CliRunner()
EXAMPLES = int(os.environ.get("GAMETOOL_ROBUST_EXAMPLES", "6"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                phases=[Phase.explicit, Phase.generate])  # no shrinking: keep the run short
GAMETOOL = shutil.which("gametool")
SCRIPT = [GAMETOOL] if GAMETOOL else [sys.executable, "-c",
                                      "from gametool.cli import main; main()"]

# A failure line: 'gametool: ...' or a located record error 'FILE:LINE[:COL]: ...'.
ONE_LINE = re.compile(r"^(gametool: \S|[^\s:][^:]*:\d+(:\d+)?: \S)")


# -- helpers ------------------------------------------------------------------------------------


def invoke(*args: str, input: str | bytes | None = None) -> Result:
    return RUNNER.invoke(cli, list(args), input=input, catch_exceptions=True)


def check(result: Result, args: tuple[str, ...] | list[str]) -> None:
    """The section 4 contract for any one invocation."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-4:])
        pytest.fail(f"gametool {' '.join(map(repr, args))}: exception escaped:\n{tb}")
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.output, (args, result.output)
    if result.exit_code == 1 and args[0] == "validate" and "--json" in args:
        json.loads(result.stdout)
    elif result.exit_code == 1 and args[0] == "validate":
        # validate reports each invalid record as FILE:LINE:COL: ply N: message on stderr
        # (one line per record, or per error with --all), unreadable files as 'gametool:',
        # and one verdict line per file on stdout ('FILE: ok (...)', 'FILE: invalid: ...').
        verdicts = result.stdout.splitlines()
        assert verdicts and all(ln.endswith(("plies)", "ply)")) or ": invalid: " in ln
                                for ln in verdicts), (args, result.stdout)
        lines = result.stderr.splitlines()
        assert lines and all(ONE_LINE.match(ln) for ln in lines), (args, result.output)
    elif result.exit_code == 1:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, (args, result.stderr)
        assert ONE_LINE.match(lines[0]), (args, lines[0])
    elif result.exit_code == 2:
        # Usage errors, Click's too: one line, 'gametool: usage: ... (see '... --help')'.
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("gametool: usage: "), \
            (args, result.stderr)


def run(*args: str, input: str | bytes | None = None) -> Result:
    result = invoke(*args, input=input)
    check(result, args)
    return result


def move_checked(path: Path, *args: str) -> Result:
    """``move`` on ``path``; a rejected move must leave the file unchanged."""
    before = path.read_bytes()
    result = run("move", str(path), *args)
    if result.exit_code != 0:
        assert path.read_bytes() == before, ("move changed a rejected file", args,
                                             result.stderr)
    return result


@cache
def short_record(game_id: str) -> str:
    """A few plies of a seeded random game (the game still running where possible)."""
    return random_game(game_id, "robust", max_plies=6).text()


@cache
def finished_record(game_id: str) -> str:
    """A finished game, cheap to replay: a short game that the seats resign in turn."""
    session = random_game(game_id, "robust", max_plies=6)
    for _ in range(len(session.names)):
        if session.game.is_over(session.state):
            break
        session.play(["resign"])
    return session.text()


@cache
def session_of(text: str) -> Session:
    from gametool.records import load_one

    return load_one(text)


@cache
def some_actions(game_id: str) -> tuple[str, ...]:
    """Legal action texts of ``game_id`` at the start and a few plies in."""
    out: list[str] = []
    for text in (Session.start(game_id, None, None, "robust").text(), short_record(game_id)):
        session = session_of(text)
        game, state = session.game, session.state
        if game.to_move(state) is not None and game.to_move(state) >= 0:
            out += [game.format_action(state, a) for a in game.legal_actions(state)[:4]]
    return tuple(dict.fromkeys(out))


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


junk_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet="abcdefgh12345678xX-+=:;,/ ?!#()[]*@0", max_size=16),
    st.sampled_from(["", " ", "-", "--", "resign", "RESIGN ", "pass", "0", "-1", "99999999999",
                     "a1", "a0", "z9", "e2e4", "e9", "1-2", "roll 7-7", "roll 6-4", "?", "\t",
                     "deal", "draw", "\x00", "é", "¼", "a1-a1", "aa11", "O-O-O-O", "1e400"]),
)


# -- start ----------------------------------------------------------------------------------------

START_CASES = [
    ["--players", ""], ["--players", ","], ["--players", "a,a"], ["--players", "a"],
    ["--players", "a,b,c,d,e,f,g,h,i,j,k"], ["--players", "chance,b"], ["--players", " , "],
    ["--players", "a b,c d"], ["--players", "a:b,c"], ["--players", "é,ü"],
    ["--players", "a;b"], ["--players", '"a",b'],
    ["--option", "x"], ["--option", "="], ["--option", "nope=1"], ["--option", "a=b=c"],
    ["--option", ""], ["--option", "x=1", "--option", "x=2"],
    ["--seed", ""], ["--seed", " "], ["--seed", "\x00"], ["--seed", "é" * 300],
    ["--no-seed"], ["--no-seed", "--seed", "1"],
    ["--position", ""], ["--position", "garbage"], ["--position", "/" * 50],
    ["--position", "\x00\x01"], ["--position", "8/8/8/8/8/8/8/8 w - - 0 1"],
    ["--position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
    ["--bogus"],
]


@pytest.mark.parametrize("extra", START_CASES, ids=lambda c: " ".join(c) or "none")
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_start_odd_options(game_id: str, extra: list[str]) -> None:
    run("start", game_id, *extra)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_start_fuzzed_options(game_id: str) -> None:
    cls = games.game_class(game_id)
    names = [o.name for o in getattr(cls, "options", ())] or ["x"]

    @FUZZ
    @given(players=st.none() | st.lists(st.text(max_size=6), max_size=9).map(",".join),
           option=st.none() | st.tuples(st.sampled_from(names), st.text(max_size=6)),
           seed=st.none() | st.text(max_size=8), no_seed=st.booleans(),
           position=st.none() | st.text(max_size=30))
    def inner(players: str | None, option: tuple[str, str] | None, seed: str | None,
              no_seed: bool, position: str | None) -> None:
        args = ["start", game_id]
        if players is not None:
            args += ["--players", players]
        if option is not None:
            args += ["--option", f"{option[0]}={option[1]}"]
        if seed is not None:
            args += ["--seed", seed]
        if no_seed:
            args.append("--no-seed")
        if position is not None:
            args += ["--position", position]
        run(*args)

    inner()


# -- move ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_move_junk_actions(game_id: str, tmp_path: Path) -> None:
    path = write(tmp_path, "g.gtn", short_record(game_id))

    @FUZZ
    @given(actions=st.lists(junk_text, min_size=1, max_size=3))
    def inner(actions: list[str]) -> None:
        path.write_text(short_record(game_id), encoding="utf-8")
        move_checked(path, "--", *actions)

    inner()


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_move_actions_of_other_games(game_id: str, tmp_path: Path) -> None:
    text = short_record(game_id)
    path = write(tmp_path, "g.gtn", text)
    for other in PLAYABLE:
        if other == game_id:
            continue
        for action in some_actions(other)[:2]:
            path.write_text(text, encoding="utf-8")
            move_checked(path, "--", action)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_move_wrong_seat_and_stale_ply(game_id: str, tmp_path: Path) -> None:
    text = short_record(game_id)
    session = session_of(text)
    path = write(tmp_path, "g.gtn", text)
    actions = some_actions(game_id)[:1] or ("resign",)
    to_move = session.to_move()
    for seat in [*session.names, "chance", "", "nobody", "0", "1", "-1", "é"]:
        if to_move is not None and to_move >= 0 and seat == session.names[to_move]:
            continue
        result = move_checked(path, "--as", seat, "--", *actions)
        if seat not in ("chance", "0", "1"):
            assert result.exit_code != 0, (seat, result.stdout)
    for ply in (session.ply, session.ply + 2, 0, -1, 10**12):
        result = move_checked(path, "--expect-ply", str(ply), "--", *actions)
        assert result.exit_code != 0, ply
    for bad in ("x", "1.5", "", "99999999999999999999999"):
        move_checked(path, "--expect-ply", bad, "--", *actions)
    move_checked(path, "--", *actions, "resign", "resign")
    move_checked(path, "--auto", "random", "--budget", "0")
    move_checked(path, "--seed", "1", "--", *actions)
    move_checked(path)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_move_after_game_over(game_id: str, tmp_path: Path) -> None:
    text = finished_record(game_id)
    path = write(tmp_path, "g.gtn", text)
    session = session_of(text)
    assert session.game.is_over(session.state)
    for actions in (["resign"], list(some_actions(game_id)[:1]), ["junk"]):
        if actions:
            result = move_checked(path, "--", *actions)
            assert result.exit_code == 1, (actions, result.stdout)
    for seat in session.names:
        result = move_checked(path, "--as", seat, "--expect-ply", str(session.ply + 1),
                              "resign")
        assert result.exit_code == 1
    result = move_checked(path, "--auto", "random")
    assert result.exit_code == 1, result.output


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_move_from_stdin(game_id: str) -> None:
    text = short_record(game_id)
    run("move", "-", "junk!", input=text)
    run("move", "-", *(some_actions(game_id)[:1] or ("resign",)), input=text)
    run("move", "-", "resign", input=b"\xff\xfe\x00garbage")
    run("move", "-", "resign", input="")


# -- read-only commands with bad values ----------------------------------------------------------

BAD_NUMBERS = ["-1", "-100", "999999", "x", "", "1.5", "0x10", "99999999999999999999999"]


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_read_commands_bad_values(game_id: str, tmp_path: Path) -> None:
    text = short_record(game_id)
    path = str(write(tmp_path, "short.gtn", text))
    session = session_of(text)
    plies = [str(session.ply), str(session.ply + 1)]
    for value in BAD_NUMBERS + plies:
        run("show", path, "--ply", value)
        run("replay", path, "--from", value, "--to", "0")
        run("replay", path, "--from", "0", "--to", value, "--json")
    for seat in [*session.names, "", "nobody", "0", "é"]:  # 'chance': see the test below
        run("show", path, "--as", seat)
        run("show", path, "--as", seat, "--ply", "0", "--json")
        run("moves", path, "--as", seat, "--json")
        run("export", path, "--as", seat)
        run("replay", path, "--as", seat, "--from", plies[0])
    run("export", path)
    run("export", path, "--pgn")
    for depth in ("-1", "x", "21", ""):
        run("perft", path, depth)
    run("perft", path, "0")
    run("validate", path, "--seed-hash", "zz")
    run("validate", path, "--against", path)
    run("validate", path, "--against", str(tmp_path / "missing.gtn"))
    run("validate", path, "--jobs", "0")
    for command in ("show", "moves", "replay", "validate", "perft", "export"):
        extra = {"perft": ["1"], "export": ["--as", "x"]}.get(command, [])
        run(command, str(tmp_path / "missing.gtn"), *extra)
        run(command, str(tmp_path), *extra)


@pytest.mark.parametrize("args", [["show"], ["show", "--json"], ["replay", "--to", "0"],
                                  ["moves"], ["export"]], ids=" ".join)
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_commands_as_chance(game_id: str, args: list[str], tmp_path: Path) -> None:
    """'--as chance' is accepted by Session.seat_index (it returns CHANCE = -1)."""
    for name, text in (("start", Session.start(game_id, None, None, "robust").text()),
                       ("short", short_record(game_id))):
        path = str(write(tmp_path, f"{name}.gtn", text))
        run(args[0], path, "--as", "chance", *args[1:])


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_read_commands_on_a_finished_game(game_id: str, tmp_path: Path) -> None:
    text = finished_record(game_id)
    path = str(write(tmp_path, "end.gtn", text))
    session = session_of(text)
    run("show", path, "--ply", str(session.ply + 1))
    run("replay", path, "--from", str(session.ply), "--to", str(session.ply + 1))
    for seat in [*session.names, "chance", "nobody"]:
        run("show", path, "--as", seat, "--json")
        run("moves", path, "--as", seat)
        run("export", path, "--as", seat)
    run("perft", path, "3", "--divide")


# -- damaged records ----------------------------------------------------------------------------


def corrupt(data: st.DataObject, text: str) -> bytes:
    """One hypothesis-chosen kind of damage to a record."""
    lines = text.splitlines(keepends=True)
    raw = text.encode()
    kind = data.draw(st.sampled_from(
        ["delete", "swap", "duplicate", "ply", "seat", "truncate", "bytes", "empty", "garbage",
         "char", "tag", "blank"]), label="kind")
    index = data.draw(st.integers(0, max(0, len(lines) - 1)), label="line")
    if kind == "delete" and lines:
        del lines[index]
    elif kind == "swap" and len(lines) > 1:
        other = data.draw(st.integers(0, len(lines) - 1), label="other")
        lines[index], lines[other] = lines[other], lines[index]
    elif kind == "duplicate" and lines:
        lines.insert(index, lines[index])
    elif kind == "ply":
        body = [i for i, ln in enumerate(lines) if re.match(r"\d+\.", ln)]
        if body:
            i = data.draw(st.sampled_from(body), label="ply line")
            new = data.draw(st.sampled_from(["0", "-1", "00", "1", "2", "999999",
                                             "99999999999999999999", "x", ""]), label="new")
            lines[i] = re.sub(r"^\d+", new, lines[i])
    elif kind == "seat":
        body = [i for i, ln in enumerate(lines) if re.match(r"\d+\. [^:]+:", ln)]
        if body:
            i = data.draw(st.sampled_from(body), label="seat line")
            new = data.draw(st.sampled_from(["chance", "nobody", "", "p1", "White", "Black",
                                             "North", "1"]), label="seat")
            lines[i] = re.sub(r"^(\d+\. )[^:]+:", rf"\g<1>{new}:", lines[i])
    elif kind == "tag":
        tags = [i for i, ln in enumerate(lines) if ln.startswith("[")]
        if tags:
            i = data.draw(st.sampled_from(tags), label="tag line")
            value = data.draw(st.sampled_from(['""', '"x"', "", '"', '"a; a"', '"*"',
                                               '"1-0"', '"0-0"', '"\\"']), label="value")
            lines[i] = re.sub(r" .*\]", f" {value}]", lines[i])
    elif kind == "blank":
        lines.insert(index, data.draw(st.sampled_from(["\n", "\r\n", "  \n", "\t\n",
                                                       "{ comment\n", "}\n", "[\n"])))
    if kind in ("delete", "swap", "duplicate", "ply", "seat", "tag", "blank"):
        return "".join(lines).encode()
    if kind == "truncate":
        return raw[:data.draw(st.integers(0, len(raw)), label="cut")]
    if kind == "bytes":
        at = data.draw(st.integers(0, len(raw)), label="at")
        return raw[:at] + data.draw(st.sampled_from([b"\xff", b"\xc3", b"\x80\x80", b"\x00",
                                                     b"\xed\xa0\x80"])) + raw[at:]
    if kind == "empty":
        return b""
    if kind == "garbage":
        return data.draw(st.binary(max_size=200), label="garbage")
    at = data.draw(st.integers(0, max(0, len(text) - 1)), label="at")
    char = data.draw(st.characters(codec="utf-8"), label="char")
    return (text[:at] + char + text[at + 1:]).encode("utf-8", "surrogatepass")


def exercise(path: Path, game_id: str) -> None:
    """Every command on a (possibly damaged) record."""
    p = str(path)
    run("validate", p)
    run("validate", p, "--all", "--json")
    run("show", p)
    run("show", p, "--json", "--ply", "1")
    run("moves", p)
    run("replay", p, "--to", "2")
    run("export", p, "--as", "x")
    for name in session_of(short_record(game_id)).names[:1]:
        run("export", p, "--as", name)
        run("show", p, "--as", name)
    run("perft", p, "0")  # depth 1 can explode: see test_perft_one_turn_answers_quickly
    move_checked(path, "resign")
    move_checked(path, *(some_actions(game_id)[:1] or ("resign",)))


@pytest.mark.parametrize("which", ["short", "end"])
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_damaged_records(game_id: str, which: str, tmp_path: Path) -> None:
    text = short_record(game_id) if which == "short" else finished_record(game_id)

    @FUZZ
    @given(data=st.data())
    def inner(data: st.DataObject) -> None:
        exercise(write(tmp_path, "g.gtn", corrupt(data, text)), game_id)

    inner()


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_record_under_another_games_tag(game_id: str, tmp_path: Path) -> None:
    text = short_record(game_id)
    unplayable = [g for g in games.GAMES if g not in games.playable_ids()]
    for other in [*PLAYABLE, *unplayable, "nonexistent", ""]:
        if other == game_id:
            continue
        swapped = re.sub(r'^\[Game "[^"]*"\]', f'[Game "{other}"]', text, flags=re.M)
        path = write(tmp_path, "g.gtn", swapped)
        run("validate", str(path))
        run("show", str(path))
        run("moves", str(path))
        move_checked(path, "resign")


# -- the installed script ----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", PLAYABLE[:: max(1, len(PLAYABLE) // 2)])
def test_installed_script_never_prints_a_traceback(game_id: str, tmp_path: Path) -> None:
    path = write(tmp_path, "g.gtn", short_record(game_id))
    bad = write(tmp_path, "bad.gtn", b"\xff\x00" + short_record(game_id).encode()[:40])
    swapped = write(tmp_path, "swap.gtn", re.sub(r'^\[Game "[^"]*"\]', '[Game "chess"]',
                                                 short_record(game_id), flags=re.M))
    cases = [["move", str(path), "--", "junk!?"], ["move", str(path), "--as", "nobody", "x"],
             ["move", str(path), "--expect-ply", "0", "resign"], ["show", str(path), "--ply",
                                                                  "-1"],
             ["show", str(bad)], ["move", str(bad), "resign"], ["moves", str(swapped)],
             ["start", game_id, "--position", "garbage"]]
    for args in cases:
        before = path.read_bytes()
        done = subprocess.run([*SCRIPT, *args], capture_output=True, text=True, timeout=60)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode in (0, 1, 2), (args, done.returncode, done.stderr)
        if done.returncode == 1:
            assert done.stderr.count("\n") == 1, (args, done.stderr)
            assert "internal error" not in done.stderr, (args, done.stderr)
        if args[0] == "move" and done.returncode != 0:
            assert path.read_bytes() == before, args


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_perft_one_turn_answers_quickly(game_id: str, tmp_path: Path) -> None:
    """'perft FILE 1' on a new record either counts or refuses, within seconds."""
    path = write(tmp_path, "g.gtn", Session.start(game_id, None, None, "robust").text())
    try:
        done = subprocess.run([*SCRIPT, "perft", str(path), "1"], capture_output=True,
                              text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"gametool perft {path.name} 1 ({game_id} start) ran over 20 s")
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr


def test_output_to_a_device_or_a_pipe_is_written_through_never_replaced(tmp_path: Path) -> None:
    """-o /dev/null (and a FIFO) takes the output as a stream: no 'already exists', and with
    --force the device is never replaced by a file of the same name."""
    import stat
    import threading

    def gametool(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*SCRIPT, *args], capture_output=True, text=True, timeout=60)

    record = tmp_path / "g.gtn"
    assert gametool("start", "colors", "-o", str(record)).returncode == 0
    for extra in ([], ["--force"]):
        done = gametool("show", str(record), "-o", "/dev/null", *extra)
        assert done.returncode == 0, done.stderr
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    full = gametool("show", str(record), "-o", "/dev/full", "--force")
    assert full.returncode == 1 and full.stderr.count("\n") == 1, full.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_text()))
    reader.start()
    assert gametool("show", str(record), "-o", str(pipe)).returncode == 0
    reader.join(10)
    assert "Colors" in got[0] and stat.S_ISFIFO(os.stat(pipe).st_mode)
