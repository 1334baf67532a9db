"""Archives spread over processes and over a Dask cluster give the output of one process.

A large file is cut into parts of whole records; every part's verdicts join into the verdict on
the whole file, numbered as in the file."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.records import Session
from gametool.sources import distribute

RUNNER = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def chess(moves: list[str], white: str, black: str) -> str:
    session = Session.start("chess", [white, black], date="2026.01.01")
    session.play(moves)
    return session.text()


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of self-played games of two games, and one big file of many chess records
    with an illegal move in its tenth record and a bad ply number in its last."""
    folder = tmp_path_factory.mktemp("archive")
    assert run("selfplay", "colors", "-n", "3", "--seed", "7", "--out",
               str(folder / "colors"))[0] == 0
    assert run("selfplay", "tawula", "-n", "1", "--seed", "7", "--out",
               str(folder / "tawula"))[0] == 0
    openings = [["e4", "e5", "Nf3"], ["d4", "d5"], ["f3", "e5", "g4", "Qh4#"], ["c4"]]
    records = [chess(openings[i % 4], f"w{i % 3}", f"b{i % 5}") for i in range(40)]
    records[9] = records[9].replace("2. b4: d5", "2. b4: d9")
    records[-1] = records[-1].replace("1. w0: c4", "2. w0: c4")
    (folder / "big.gtn").write_text("\n".join(records))
    return folder


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Dask cluster of two workers in this process: its scheduler's address."""
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as local:
        yield local.scheduler_address


COMMANDS = [
    ["validate"], ["validate", "--all", "--json"],
    ["filter", "--game", "chess", "--min-plies", "3"], ["filter", "--unique"],
    ["stats"], ["stats", "--json"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_parts_of_a_large_file_give_the_whole_file_s_output(
        archive: Path, command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run(command[0], str(archive), *command[1:])
    monkeypatch.setattr(distribute, "PART_BYTES", 400)
    assert len(distribute.parts(str(archive / "big.gtn"))) > 5
    assert run(command[0], str(archive), *command[1:]) == whole
    if command == ["validate"]:
        assert whole[0] == 1 and "big.gtn:" in whole[2] and ": ply 2: " in whole[2]


def test_parts_in_processes_give_the_whole_file_s_output(
        archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run("validate", "--all", "--json", str(archive))
    monkeypatch.setattr(distribute, "PART_BYTES", 400)
    assert run("validate", "--all", "--json", str(archive), "--jobs", "2") == whole


def test_a_signal_held_while_the_workers_fork_leaves_none_running(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C held back while the pool forks is raised as soon as the hold ends: the workers
    just started are terminated then, not left to the end of the process."""
    from gametool.core import interrupt

    real = interrupt.held

    @contextmanager
    def held_then_interrupted() -> Iterator[None]:
        with real():
            yield
        raise KeyboardInterrupt  # what the held SIGINT does once let through

    made: list[Any] = []

    def pool(*args: Any, **kwargs: Any) -> Any:
        made.append(real_pool(*args, **kwargs))
        return made[-1]

    real_pool = multiprocessing.Pool
    monkeypatch.setattr(interrupt, "held", held_then_interrupted)
    monkeypatch.setattr(multiprocessing, "Pool", pool)
    with pytest.raises(KeyboardInterrupt) as raised:
        list(distribute.run(abs, list(range(10)), jobs=2))
    # (the error, and the frames it holds, still alive: nothing else ended the pool)
    assert raised.value is not None and len(made) == 1
    workers = made[0]._pool
    assert len(workers) == 2 and not any(worker.is_alive() for worker in workers)


def test_a_syntax_error_in_a_later_part_stands_for_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = [chess(["e4", "e5"], "ann", "ben") for _ in range(12)]
    records[8] = records[8].replace("1. ann: e4", "1 ann e4")
    path = tmp_path / "broken.gtn"
    path.write_text("\n".join(records))
    whole = run("validate", "--json", str(path))
    assert '"ok": false' in whole[1] and whole[1].count('"index"') == 1
    monkeypatch.setattr(distribute, "PART_BYTES", 200)
    assert len(distribute.parts(str(path))) > 3
    assert run("validate", "--json", str(path)) == whole


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_dask_gives_the_local_output(archive: Path, cluster: str, command: list[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run(command[0], str(archive), *command[1:])
    monkeypatch.setattr(distribute, "PART_BYTES", 1000)
    assert run(command[0], str(archive), *command[1:], "--scheduler", cluster) == whole


def test_selfplay_on_dask_writes_the_local_corpus(tmp_path: Path, cluster: str) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    assert run("selfplay", "tawula", "-n", "3", "--seed", "s", "--out", str(here))[0] == 0
    assert run("selfplay", "tawula", "-n", "3", "--seed", "s", "--out", str(there),
               "--scheduler", cluster)[0] == 0
    names = sorted(p.name for p in here.iterdir())
    assert names == sorted(p.name for p in there.iterdir()) and len(names) == 3
    for name in names:
        assert (here / name).read_text() == (there / name).read_text()


@pytest.mark.parametrize("address", ["local:0", "local:x", "host:8786"])
def test_a_malformed_scheduler_address_is_one_line(archive: Path, address: str) -> None:
    for command in (["validate", str(archive)], ["stats", str(archive)],
                    ["selfplay", "colors", "--out", str(archive / "none")]):
        code, out, err = run(*command, "--scheduler", address)
        assert code == 1 and out == "" and err.count("\n") == 1, (command, err)
        assert err.startswith(f"gametool: --scheduler {address}:")
    assert not (archive / "none").exists()


@pytest.mark.slow
def test_a_local_cluster_of_worker_processes(archive: Path) -> None:
    whole = run("validate", str(archive))
    assert run("validate", str(archive), "--scheduler", "local:2") == whole


BAD_GAME = '[Event "bad"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n'
OPEN_COMMENT = '[Event "worse"]\n[Result "*"]\n\n1. e4 {open comment\n'


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PGN file of good games with refused ones among them, over many lines."""
    data = Path(__file__).parent.parent / "data"
    good = (data / "famous.pgn").read_text() + "\n" + (data / "archive.pgn").read_text()
    path = tmp_path_factory.mktemp("pgn") / "collection.pgn"
    path.write_text("\n".join([good, BAD_GAME] * 4 + [OPEN_COMMENT]))
    return path


def test_import_in_parts_gives_the_whole_file_s_report(
        collection: Path, cluster: str, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run("import", str(collection))
    assert whole[0] == 1 and whole[2].count(": game ") == 5
    monkeypatch.setattr(distribute, "PART_BYTES", 1500)
    assert len(distribute.parts(str(collection))) > 4
    assert run("import", str(collection), "--jobs", "2") == whole
    assert run("import", str(collection), "--scheduler", cluster) == whole


def test_record_starts_never_cut_inside_a_comment() -> None:
    from gametool.archives.corpus import Starts

    lines = ["[Event \"a\"]\n", "1. e4 { a comment\n", "[not a tag] still the comment }\n",
             "1-0\n", "[Event \"b\"]\n", "1. d4 *\n"]
    starts = Starts(pgn=True)
    assert [n for n, line in enumerate(lines) if starts.starts(line)] == [4]


def test_a_file_s_parts_are_places_in_it_read_as_the_whole_file_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large file's parts carry no text, only where they are in the file: each part reads
    its bytes as the whole file is read (a byte-order mark, Windows line ends, Latin-1 PGN)
    and says where a bad byte is as the whole file would."""
    monkeypatch.setattr(distribute, "PART_BYTES", 300)
    data = Path(__file__).parent.parent / "data"
    games = (data / "famous.pgn").read_text() + "\n"
    pgn = tmp_path / "latin.pgn"
    pgn.write_bytes(b"\xef\xbb\xbf" + (games.replace("Paris", "Par\xeds") * 3)
                    .replace("\n", "\r\n").encode("latin-1"))
    pieces = distribute.parts(str(pgn))
    assert len(pieces) > 3 and all(p.text is None and p.offset >= 0 for p in pieces)
    assert sum(p.length for p in pieces) == pgn.stat().st_size
    whole = "".join(p.read() for p in pieces)
    from gametool.archives.corpus import lines

    assert whole == "".join(lines(str(pgn))) and whole.startswith("[Event") and "París" in whole
    assert run("import", str(pgn), "--jobs", "2") == run("import", str(pgn))
    assert run("import", str(pgn), "--jobs", "2", "--eco")[0] == 0

    records = "\n".join(chess(["e4", "e5", "Nf3"], f"w{i}", f"b{i}") for i in range(12))
    bad = tmp_path / "bad.gtn"
    bad.write_bytes(records.encode() + b"\n1. x: \xff\n")
    assert len(distribute.parts(str(bad))) > 3
    spread = run("validate", str(bad), "--jobs", "2")
    monkeypatch.setattr(distribute, "PART_BYTES", 1 << 20)
    alone = run("validate", str(bad))
    assert spread == alone and spread[0] == 1 and "not UTF-8 text (line " in spread[2], spread


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def cluster_elsewhere(folder: Path) -> Iterator[str]:
    """A Dask scheduler and one worker, each its own process started in ``folder`` (as on a
    cluster, where the workers' folder is not the client's), on loopback."""
    import subprocess
    import sys
    import time

    pytest.importorskip("dask.distributed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    started = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host",
                                 "127.0.0.1", "--port", str(port), "--dashboard-address",
                                 ":0", "--no-show"], cwd=folder, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)]
    try:
        started.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", address,
                                         "--nthreads", "1", "--nworkers", "1",
                                         "--dashboard-address", ":0", "--no-nanny"],
                                        cwd=folder, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL))
        from dask.distributed import Client

        with Client(address, timeout="30s") as probe:
            probe.wait_for_workers(1, timeout=60)
            assert probe.run(lambda: __import__("os").getcwd()) != {}
        yield address
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        time.sleep(0)


def test_relative_paths_on_workers_started_in_another_folder(
        archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client makes each path absolute before it is sent: a worker whose folder is not
    the client's reads the file the command names, and the messages name it as typed."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(archive)
    monkeypatch.setattr(distribute, "PART_BYTES", 2000)  # parts read on the worker
    whole = run("validate", "big.gtn", "--all")
    assert whole[0] == 1 and "big.gtn:" in whole[1]
    with cluster_elsewhere(elsewhere) as address:
        assert run("validate", "big.gtn", "--all", "--scheduler", address) == whole
        assert run("stats", "colors", "--scheduler", address) == run("stats", "colors")


def test_a_worker_that_cannot_see_the_file_says_which_and_why(tmp_path: Path) -> None:
    part = distribute.Part("games.pgn", folder=str(tmp_path / "not-shared"))
    with pytest.raises(Exception) as caught:
        part.read()
    message = str(caught.value)
    assert message.startswith("games.pgn: the worker at ")
    assert f"cannot read {tmp_path / 'not-shared' / 'games.pgn'}: no such file there" in message
    assert "file system shared" in message
