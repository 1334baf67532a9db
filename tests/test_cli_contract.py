"""The command line's contract, through the installed ``gametool`` command in real processes:
``-o -`` is stdout, ``--json`` wherever data is printed, ``help`` and ``-V``, and Ctrl-C or
SIGTERM ending any command within a second, with one line, no worker left and no partial
file; selfplay's streaming and progress; computer players that answer in time; ``play FILE``
going on with its computer seats; ``gametool man``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gametool.records import load_one, read_text

GAMETOOL = str(Path(sys.executable).parent / "gametool")
SNAKE = re.compile(r"[a-z][a-z0-9_]*")


def gametool(*args: str, cwd: Path | None = None, stdin: str | None = None,
             env: dict[str, str] | None = None, timeout: float = 120) -> tuple[int, str, str]:
    done = subprocess.run([GAMETOOL, *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})
    return done.returncode, done.stdout, done.stderr


def snake_keys(data: object) -> None:
    """Every key of the objects of ``data`` that names a field is snake_case (the values of
    ``tags`` keep the record's own tag names)."""
    if isinstance(data, list):
        for item in data:
            snake_keys(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            assert SNAKE.fullmatch(key), key
            if key != "tags":
                snake_keys(value)


def colors_corpus(folder: Path, count: int = 3) -> Path:
    code, _out, err = gametool("selfplay", "colors", "-n", str(count), "--seed", "c", "-o",
                               str(folder))
    assert code == 0, err
    return folder


# -- one output contract -------------------------------------------------------------------------


def test_filter_o_dash_writes_to_stdout_and_no_file_named_dash(tmp_path: Path) -> None:
    corpus = colors_corpus(tmp_path / "corpus")
    code, out, err = gametool("filter", str(corpus), "--game", "colors", "-o", "-", cwd=tmp_path)
    assert code == 0, err
    assert len(read_text(out, None)) == 3
    assert err == "3 of 3 records kept\n"
    assert not (tmp_path / "-").exists()
    code, out, err = gametool("filter", str(corpus), "--game", "chess", cwd=tmp_path)
    assert code == 0 and out == "" and err == "0 of 3 records kept\n"


def test_selfplay_o_dash_streams_every_record_to_stdout(tmp_path: Path) -> None:
    code, out, err = gametool("selfplay", "colors", "-n", "4", "--seed", "s", "-o", "-",
                              cwd=tmp_path)
    assert code == 0, err
    records = read_text(out, None)
    assert len(records) == 4 and "wins" in err  # the summary goes to stderr
    assert not (tmp_path / "-").exists()
    folder = tmp_path / "corpus"
    assert gametool("selfplay", "colors", "-n", "4", "--seed", "s", "-o", str(folder))[0] == 0
    files = sorted(folder.iterdir())
    assert out == "\n".join(path.read_text() for path in files)  # the same games, in order
    code, stats, err = gametool("stats", "-", "--json", stdin=out)
    assert code == 0, err
    assert json.loads(stats)


def test_split_and_play_refuse_o_dash_with_one_line(tmp_path: Path) -> None:
    corpus = colors_corpus(tmp_path / "corpus", 2)
    joined = tmp_path / "all.gtn"
    joined.write_text("\n".join(p.read_text() for p in sorted(corpus.iterdir())))
    for args in (("split", str(joined), "-o", "-"), ("play", "colors", "-o", "-")):
        code, out, err = gametool(*args, cwd=tmp_path, stdin="")
        assert code == 2 and out == "", args
        assert "-o -" in err and "Traceback" not in err, args
        assert not (tmp_path / "-").exists()
        assert not (tmp_path / "colors.gtn").exists()


def test_start_and_import_o_dash_are_stdout(tmp_path: Path) -> None:
    code, out, _err = gametool("start", "colors", "-o", "-", cwd=tmp_path)
    assert code == 0 and out.startswith('[Game "colors"]')
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 *\n')
    code, out, err = gametool("import", str(pgn), "-o", "-", cwd=tmp_path)
    assert code == 0 and "1. a: e4" in out and err == "1 game imported\n"
    code, out, err = gametool("import", str(pgn), "-o", str(tmp_path / "g.gtn"))
    assert code == 0 and out == "" and err == f"1 game imported to {tmp_path / 'g.gtn'}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gtn", "g.pgn"]


def test_json_on_start_undo_split_filter_and_import(tmp_path: Path) -> None:
    code, out, _err = gametool("start", "colors", "--json")
    data = json.loads(out)
    assert code == 0 and data["tags"]["Game"] == "colors" and data["plies"] == []
    snake_keys(data)
    path = tmp_path / "g.gtn"
    assert gametool("start", "colors", "-o", str(path))[0] == 0
    assert gametool("move", str(path), "d4=R")[0] == 0
    code, out, _err = gametool("undo", str(path), "--json")
    assert code == 0 and json.loads(out) == [{"ply": 1, "seat": "p1", "action": "d4=R"}]
    corpus = colors_corpus(tmp_path / "corpus", 2)
    code, out, _err = gametool("filter", str(corpus), "--json")
    records = json.loads(out)
    assert code == 0 and len(records) == 2 and records[0]["tags"]["Game"] == "colors"
    snake_keys(records)
    joined = tmp_path / "all.gtn"
    joined.write_text("\n".join(p.read_text() for p in sorted(corpus.iterdir())))
    code, out, _err = gametool("split", str(joined), "-o", str(tmp_path / "parts"), "--json")
    assert code == 0
    assert json.loads(out) == [{"record": n, "file": str(tmp_path / "parts" / f"all-000{n}.gtn")}
                               for n in (1, 2)]
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 *\n')
    code, out, _err = gametool("import", str(pgn), "--json")
    games = json.loads(out)
    assert code == 0 and [p["action"] for p in games[0]["plies"]] == ["e4", "e5"]
    code, out, _err = gametool("selfplay", "colors", "-n", "2", "-o", str(tmp_path / "sp"),
                               "--json")
    assert code == 0
    snake_keys(json.loads(out))
    assert "mean_plies" in json.loads(out)[0]


def test_commit_and_answer_print_the_plies_they_add(tmp_path: Path) -> None:
    path = tmp_path / "s.gtn"
    assert gametool("start", "special-salvo", "--option", "referee=off", "--players",
                    "ann,ben", "-o", str(path))[0] == 0
    fleet = "cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s"
    for ply, seat in ((1, "ann"), (2, "ben")):
        code, out, err = gametool("commit", str(path), "--as", seat, "--private",
                                  str(tmp_path / f"{seat}.fleet"), "--fleet", fleet)
        assert code == 0 and re.fullmatch(rf"{ply}\. {seat}: commit [0-9a-f]{{64}}\n", out), err
    assert gametool("move", str(path), "fire a1 b1 c1 d1 e1")[0] == 0
    code, out, err = gametool("answer", str(path), "--as", "ben", "--private",
                              str(tmp_path / "ben.fleet"))
    assert code == 0, err
    assert out == "4. ben: report a1 hit, b1 hit, c1 hit, d1 hit, e1 sunk cv\n"
    assert gametool("undo", str(path))[0] == 0
    code, out, err = gametool("answer", str(path), "--as", "ben", "--private",
                              str(tmp_path / "ben.fleet"), "--json")
    assert code == 0 and json.loads(out) == [
        {"ply": 4, "seat": "ben", "action": "report a1 hit, b1 hit, c1 hit, d1 hit, e1 sunk cv"}]


def test_help_command_and_version() -> None:
    code, out, _err = gametool("help", "move")
    assert code == 0 and out == gametool("move", "--help")[1]
    code, out, _err = gametool("help", "referee", "inbox")
    assert code == 0 and out == gametool("referee", "inbox", "--help")[1]
    assert gametool("help")[1] == gametool("--help")[1]
    code, out, err = gametool("help", "mvoe")
    assert code == 2 and out == "" and "did you mean 'move'" in err
    from gametool import __version__

    for flag in ("-V", "--version"):
        code, out, _err = gametool(flag)
        assert code == 0 and out == f"gametool, version {__version__}\n"


# -- signals ---------------------------------------------------------------------------------------


def group_members(pgid: int) -> list[int]:
    """The live (not yet reaped, not zombie) processes of the process group ``pgid``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(name))
    return found


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def stop(args: list[str], signum: int, *, to_group: bool, ready: Callable[[int], bool],
         cwd: Path, stdin: int | None = subprocess.DEVNULL) -> tuple[int, str, str]:
    """Start ``gametool ARGS`` in a session of its own, wait until ``ready()``, send
    ``signum`` (to the whole group, as Ctrl-C does, or to the parent alone) and check the
    contract: the command ends, keeps what it finished and leaves no process behind. How soon
    it ends is not asserted (a busy machine delays any process); a hang of a minute fails."""
    # Ctrl-C as at a terminal: a suite started in the background (nohup, a CI runner) ignores
    # SIGINT, which every process it starts would inherit.
    child = subprocess.Popen([GAMETOOL, *args], cwd=cwd, stdin=stdin, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_for(lambda: ready(child.pid) or child.poll() is not None)
        assert child.poll() is None, child.communicate()
        if to_group:
            os.killpg(child.pid, signum)
        else:
            os.kill(child.pid, signum)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    wait_for(lambda: not group_members(child.pid), 10.0)  # every worker is gone with it
    return child.returncode, out, err


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_signal_stops_selfplay_at_once_and_keeps_every_finished_game(
        tmp_path: Path, signum: int, code: int, jobs: str) -> None:
    out = tmp_path / "corpus"
    args = ["selfplay", "colors", "-n", "100000", "--seed", "x", "-o", str(out), "--jobs", jobs]
    returned, stdout, err = stop(args, signum, to_group=signum == signal.SIGINT, cwd=tmp_path,
                                 ready=lambda _pid: out.is_dir() and len(os.listdir(out)) >= 5)
    assert returned == code
    assert err == "gametool: interrupted\n" and stdout == ""
    names = os.listdir(out)
    assert all(re.fullmatch(r"colors-\d{4,}\.gtn", n) for n in names), names  # no temporary
    for name in names:  # every file written is a whole game
        session = load_one((out / name).read_text(), name)
        assert session.game.is_over(session.state), name


def test_a_signal_just_as_a_temporary_file_is_made_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The moment a random signal rarely hits, made certain: SIGTERM arrives as the temporary
    file of a write (a record replaced, a sink opened) has just been made. The write is
    interrupted and nothing is left in the folder."""
    from gametool.core import interrupt, storage
    from gametool.records import sink

    made = storage.make_temporary

    def made_then_signalled(*args: object, **kwargs: object) -> tuple[int, str]:
        found = made(*args, **kwargs)  # type: ignore[call-overload]
        os.kill(os.getpid(), signal.SIGTERM)  # handled at the next step of this function
        return found

    saved = {number: signal.getsignal(number) for number in interrupt.SIGNALS}
    monkeypatch.setattr(storage, "make_temporary", made_then_signalled)
    try:
        for write in (lambda: storage.write_atomic(str(tmp_path / "a.gtn"), "text\n"),
                      lambda: sink.Sink(str(tmp_path / "b.gtn"))):
            interrupt.install()
            with pytest.raises(interrupt.Interrupted):
                write()
            assert os.listdir(tmp_path) == []
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
        monkeypatch.setattr(interrupt, "_stopping", False)


@pytest.mark.parametrize("signum, code, to_group", [(signal.SIGINT, 130, True),
                                                    (signal.SIGTERM, 143, False)])
def test_a_signal_stops_slow_mcts_workers_and_leaves_no_orphan(
        tmp_path: Path, signum: int, code: int, to_group: bool) -> None:
    """The README's case: MCTS players in two processes, interrupted mid-game by Ctrl-C (the
    whole group) or by SIGTERM to the parent alone."""
    args = ["selfplay", "tawula", "-n", "4", "-o", str(tmp_path / "c"), "--players",
            "mcts,random", "--budget", "100000", "--jobs", "2"]
    returned, out, err = stop(args, signum, to_group=to_group, cwd=tmp_path,
                              ready=lambda pid: len(group_members(pid)) >= 3)  # two workers
    assert returned == code and err == "gametool: interrupted\n" and out == ""
    assert not os.listdir(tmp_path / "c")


def test_an_interrupted_move_leaves_the_record_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "t.gtn"
    assert gametool("start", "tawula", "--seed", "t", "-o", str(path))[0] == 0
    before = path.read_bytes()
    args = ["move", str(path), "--auto", "mcts", "--budget", "100000", "--think", "0"]
    started = time.monotonic()
    code, out, err = stop(args, signal.SIGINT, to_group=True, cwd=tmp_path,
                          ready=lambda _pid: time.monotonic() - started > 1.5)
    assert code == 130 and out == "" and err == "gametool: interrupted\n"
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["t.gtn"]  # no temporary file either


def test_sigterm_ends_a_game_at_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    code, _out, err = stop(["play", "colors", "-o", str(path)], signal.SIGTERM, to_group=False,
                           cwd=tmp_path, ready=lambda _pid: path.exists(),
                           stdin=subprocess.PIPE)
    assert code == 143 and err == "gametool: interrupted\n"
    assert load_one(path.read_text()).ply == 0


@pytest.mark.parametrize("signum, code, to_group", [(signal.SIGINT, 130, True),
                                                    (signal.SIGTERM, 143, False)])
def test_a_signal_stops_a_local_dask_cluster_and_its_workers(
        tmp_path: Path, signum: int, code: int, to_group: bool) -> None:
    pytest.importorskip("dask.distributed")
    out = tmp_path / "corpus"
    args = ["selfplay", "colors", "-n", "300", "-o", str(out), "--players", "greedy",
            "--scheduler", "local:2"]
    returned, stdout, err = stop(args, signum, to_group=to_group, cwd=tmp_path,
                                 ready=lambda _pid: out.is_dir() and len(os.listdir(out)) >= 3)
    assert returned == code and err == "gametool: interrupted\n" and stdout == ""
    for name in os.listdir(out):
        assert load_one((out / name).read_text()).game.id == "colors"


# -- selfplay's progress, computer players in time --------------------------------------------


def test_selfplay_counts_games_on_a_terminal_and_is_quiet_in_a_pipe(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(GAMETOOL, ["selfplay", "colors", "-n", "30", "--seed", "p", "-o",
                                     str(tmp_path / "a")], encoding="utf-8", timeout=60)
    child.expect(r"colors: 30/30 games, \d+s, [\d.]+ (games/s|s/game)")
    child.expect("wins")
    child.expect(pexpect.EOF)
    code, _out, err = gametool("selfplay", "colors", "-n", "30", "--seed", "p", "-o",
                               str(tmp_path / "b"))
    assert code == 0 and err == ""


def test_progress_line_gives_the_rate_and_the_time_left() -> None:
    import io

    from gametool.players.selfplay import Progress

    progress = Progress(10, "tawula", io.StringIO())
    progress.began -= 20
    progress.done = 4
    assert re.fullmatch(r"tawula: 4/10 games, 20s, 5\.0 s/game, about 30s left",
                        progress.line()), progress.line()


def test_think_bounds_an_mcts_search_in_time() -> None:
    from gametool.core.chance import SeedRng
    from gametool.players import computer as players
    from gametool.records import Session

    session = Session.start("tawula", None, None, "think")
    session.draw_chance()
    readings: list[float] = []

    def clock() -> float:  # a search's own clock, which each reading moves on 0.03 s
        readings.append(0.03 * len(readings))
        return readings[-1]

    players.choose("mcts", session.game, session.state, SeedRng("p", 1), 10 ** 6, 2, think=0.2,
                   clock=clock)
    # read once at the start and before each iteration after the first: the search stopped at
    # the first reading past 0.2 s (the 8th, at 0.21 s), after 7 iterations, not 10 ** 6
    assert readings[-1] == pytest.approx(0.21) and len(readings) == 8
    readings.clear()
    players.choose("mcts", session.game, session.state, SeedRng("p", 1), 50, 2, clock=clock)
    assert readings == []  # without think only the budget bounds it: no clock is read


def test_move_auto_answers_in_time_by_default(tmp_path: Path) -> None:
    path = tmp_path / "t.gtn"
    assert gametool("start", "tawula", "--seed", "t", "-o", str(path))[0] == 0
    # a budget that would take hours: the default think (its logic tested above) ends it
    code, out, err = gametool("move", str(path), "--auto", "mcts", "--budget", "1000000")
    assert code == 0, err
    assert "p1:" in out or "White:" in out or "Black:" in out
    code, _out, err = gametool("move", str(path), "d4", "--think", "1")
    assert code == 2 and "--think go with --auto" in err


# -- play goes on with its computer seats -------------------------------------------------------


def test_play_file_goes_on_against_the_same_computer_player(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "g.gtn"
    child = pexpect.spawn(GAMETOOL, ["play", "colors", "--vs", "random", "-o", str(path)],
                          cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          env={**os.environ, "NO_COLOR": "1"})
    child.expect("p1> ")
    child.sendline("d4=R")
    child.expect(r"1\. p1: d4=R")  # your own action is echoed, as written
    child.expect(r"2\. p2: ")
    child.expect("p1> ")
    child.sendline("quit")
    child.expect(f"go on with: gametool play {path}")
    child.expect(pexpect.EOF)
    text = path.read_text()
    assert '[Computer "p2=random"]' in text
    # The tag round-trips through the canonical writer and the other commands.
    assert gametool("validate", str(path))[0] == 0
    again = pexpect.spawn(GAMETOOL, ["play", str(path)], cwd=str(tmp_path), encoding="utf-8",
                          timeout=60, env={**os.environ, "NO_COLOR": "1"})
    again.expect("p1> ")
    legal = gametool("moves", str(path))[1].splitlines()
    again.sendline(legal[0])
    again.expect(r"4\. p2: ")  # the computer plays p2 again
    again.expect("p1> ")
    again.sendline("quit")
    again.expect(pexpect.EOF)
    session = load_one(path.read_text())
    assert session.ply == 4 and session.record.get("Computer") == "p2=random"


def test_a_computer_tag_that_names_no_seat_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    assert gametool("start", "colors", "-o", str(path))[0] == 0
    path.write_text(path.read_text().replace('[Result "*"]',
                                             '[Result "*"]\n[Computer "p9=random"]'))
    code, out, err = gametool("play", str(path), stdin="")
    assert code == 1 and err.count("\n") == 1 and "Computer" in err and "p9" in err


# -- manual pages --------------------------------------------------------------------------------


def test_gametool_man_opens_a_command_or_a_game_page() -> None:
    env = {"MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"}
    if subprocess.run(["sh", "-c", "command -v man"], capture_output=True).returncode == 0:
        code, out, _err = gametool("man", "play", env=env)
        assert code == 0 and "GAMETOOL-PLAY(1)" in out and "--think" in out
        code, out, _err = gametool("man", "mahjong", env=env)
        assert code == 0 and "GAMETOOL-WESTERN-MAHJONG(6)" in out
    code, out, err = gametool("man", "plya")
    assert code == 1 and "did you mean 'play'" in err and out == ""


def test_gametool_man_with_no_man_program_prints_the_page_as_text(tmp_path: Path) -> None:
    code, out, err = gametool("man", "undo", env={"PATH": str(tmp_path), "PAGER": "cat"})
    assert code == 0, err
    assert out.startswith("NAME\n    gametool-undo - Take back")
    assert "\\f" not in out and "\n.TP" not in out


def test_ctrl_c_in_the_pager_of_gametool_man_is_the_pager_s(tmp_path: Path) -> None:
    """less cancels a search with Ctrl-C: the page stays open until 'q'."""
    pexpect = pytest.importorskip("pexpect")
    if subprocess.run(["sh", "-c", "command -v man && command -v less"],
                      capture_output=True).returncode != 0:
        pytest.skip("no man or no less here")
    child = pexpect.spawn(GAMETOOL, ["man", "play"], encoding="utf-8", timeout=30,
                          dimensions=(30, 100),
                          env={**os.environ, "MANPAGER": "less", "TERM": "xterm",
                               "HOME": str(tmp_path)})
    child.expect("GAMETOOL-PLAY")
    time.sleep(0.3)
    child.sendintr()
    time.sleep(0.5)
    assert child.isalive()
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
