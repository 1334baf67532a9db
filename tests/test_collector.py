"""The garbage collector's first threshold, raised while an archive is read or checked and put
back after, however the reading ends."""

from __future__ import annotations

import gc
import threading

import pytest

from gametool.core import collector
from gametool.pgn import reader as pgn
from gametool.records import check_text

GAMES = "\n\n".join(f'[Round "{n}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {n % 2}-{1 - n % 2}'
                    for n in range(5))


@pytest.fixture(autouse=True)
def _threshold():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_raised_inside_and_put_back_after_nested_uses() -> None:
    with collector.fewer_collections():
        assert gc.get_threshold() == (collector.FIRST_THRESHOLD, 10, 10)
        with collector.fewer_collections():
            assert gc.get_threshold()[0] == collector.FIRST_THRESHOLD
        assert gc.get_threshold()[0] == collector.FIRST_THRESHOLD
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_or_a_disabled_one_is_left_alone() -> None:
    for first in (50_000, 0):
        gc.set_threshold(first, 5, 5)
        with collector.fewer_collections():
            assert gc.get_threshold() == (first, 5, 5)
        assert gc.get_threshold() == (first, 5, 5)


def test_an_error_or_an_import_left_halfway_puts_it_back() -> None:
    with pytest.raises(ValueError), collector.fewer_collections():
        raise ValueError
    assert gc.get_threshold()[0] == 700
    games = pgn.imports(GAMES)
    next(games)
    assert gc.get_threshold()[0] == collector.FIRST_THRESHOLD
    games.close()
    assert gc.get_threshold()[0] == 700
    report = pgn.import_games(GAMES)
    assert len(report.games) == 5 and gc.get_threshold()[0] == 700
    assert all(v.ok for v in check_text(report.text())) and gc.get_threshold()[0] == 700


def test_threads_that_overlap_put_back_the_first_threshold() -> None:
    inside = threading.Barrier(2)
    seen = []

    def read() -> None:
        with collector.fewer_collections():
            inside.wait()
            seen.append(gc.get_threshold()[0])
            inside.wait()

    threads = [threading.Thread(target=read) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [collector.FIRST_THRESHOLD] * 2
    assert gc.get_threshold() == (700, 10, 10)
