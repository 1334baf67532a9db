"""Shared fixtures: the registered games, and random games played from fixed seeds."""

from __future__ import annotations

import compileall
import fcntl
import hashlib
import os
import pickle
import re
import shutil
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

from gametool import games
from gametool.players.auto import random_game
from gametool.records import Session

if TYPE_CHECKING:
    from gametool.referee.referee import Referee

# GAMETOOL_GAMES=id,id limits the per-game suites to some games (to iterate on one game).
_ONLY = os.environ.get("GAMETOOL_GAMES")
PLAYABLE = _ONLY.split(",") if _ONLY else games.playable_ids()

# Conformance self-play: random games per registered game (GAMETOOL_SELFPLAY_GAMES=1000 for a
# deeper run; lower to iterate).
SELFPLAY_GAMES = int(os.environ.get("GAMETOOL_SELFPLAY_GAMES", "60"))


def pytest_configure(config: pytest.Config) -> None:
    """Compile the installed packages to bytecode once, before any test runs the command.

    An editable install leaves the sources uncompiled, and where PYTHONDONTWRITEBYTECODE is set
    every ``gametool`` process the tests start would compile its modules again, as no installed
    copy ever does (about 0.25 CPU seconds a process). Only the main process compiles: the
    xdist workers start after it."""
    if hasattr(config, "workerinput"):
        return
    import gametool
    import notation

    for package in (gametool, notation):
        compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    if config.getoption("numprocesses", None) and config.pluginmanager.has_plugin("xdist"):
        _rewrite_tests_once(config)


def _rewrite_tests_once(config: pytest.Config) -> None:
    """Write pytest's rewritten test modules (their asserts made to explain themselves) to the
    cache every worker reads, where PYTHONDONTWRITEBYTECODE keeps each worker from writing it:
    each would otherwise rewrite every test module again (about 13 CPU seconds a worker).

    This uses pytest's own rewriting functions; where they change, the workers simply rewrite
    the modules themselves, as before."""
    if not sys.dont_write_bytecode:
        return  # the workers write (and share) the cache themselves
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None:  # assertion rewriting is off
        return
    files: set[Path] = set()
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0])
        if path.is_dir():
            files.update(path.rglob("test_*.py"))
        elif path.name.startswith("test_") and path.suffix == ".py":
            files.add(path)
    for path in sorted(files):
        try:
            cache = rewrite.get_cache_dir(path)
            pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc, state.trace) is not None:
                continue
            if not rewrite.try_makedirs(cache):
                return
            key, code = rewrite._rewrite_test(path, config)
            rewrite._write_pyc(state, code, key, pyc)
        except Exception:  # noqa: BLE001 - an optimisation only: the workers rewrite instead
            return


T = TypeVar("T")


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """``make(folder)``: files made in a new folder, and a value that names them; made once
    for the whole run. Where the tests run on several workers (each a process of its own, with
    its own module fixtures), the first worker to ask makes them under a lock, in the folder the
    workers share, and the others wait for them and read the value back (it must pickle)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return make(factory.mktemp(name))
    root = factory.getbasetemp().parent  # this run's folder, shared by its workers
    folder, kept = root / f"made-once-{name}", root / f"made-once-{name}.pickle"
    with open(root / f"made-once-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if kept.exists():
                return pickle.loads(kept.read_bytes())  # noqa: S301 - written just above
            if folder.exists():  # a worker that failed to make them left this
                shutil.rmtree(folder)
            folder.mkdir()
            value = make(folder)
            partial = kept.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(value))
            partial.replace(kept)
            return value
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@cache
def sample_session(game_id: str, index: int) -> Session:
    """A complete random game, the same on every run (cached: treat as read-only)."""
    return random_game(game_id, f"conformance-{index}")


@pytest.fixture(params=PLAYABLE)
def game_id(request: pytest.FixtureRequest) -> str:
    return request.param


COUNTS: dict[str, int] = {}
"""Counts the tests report at the end of the run (e.g. the number of leak probes): a test adds
to one with ``record_property("count:NAME", n)``, which also works across xdist workers."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        for name, value in report.user_properties:
            if isinstance(name, str) and name.startswith("count:"):
                COUNTS[name[6:]] = COUNTS.get(name[6:], 0) + int(value)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for name, count in COUNTS.items():
        terminalreporter.write_line(f"{name}: {count}")


def svg_words(svg: str) -> str:
    """The text a reader sees in an SVG picture (text and titles), one item a line, for the
    leak scans: attributes such as colours and paths are left out."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    return "\n".join(" ".join(node.itertext()) for node in root.iter()
                     if node.tag.rsplit("}", 1)[-1] in ("text", "title"))


def joined_referee_game(ref: Referee, seed: str, ann: str, ben: str) -> tuple[str, str, Path]:
    """A new referee game of Belemmer whose two seats have sent their part of the seed:
    (match, ann's seat key, the master record)."""
    match, opening = ref.new("belemmer", [ann, ben], seed=seed, weak_seed_ok=True)
    for message in opening:
        seat_key = re.search(r"seat key: (\S+)", message.body).group(1)
        part = hashlib.sha256(message.to.encode()).hexdigest()[:32]
        joined = ref.receive((f"From: {message.to}\r\nSubject: [gametool {match}]\r\n\r\n"
                              f"#key {seat_key}\r\n#join {part}\r\n").encode())
        assert joined.applied, joined.reason
    key = re.search(r"seat key: (\S+)", next(m for m in opening if m.to == ann).body).group(1)
    return match, key, ref.master(match)
