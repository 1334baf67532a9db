"""The replay page's contents without a browser: every ply's picture comes back from the page
exactly as 'show --svg' draws it, the page stays small, the move list is paired where two seats
alternate, and the last action of a hand is outlined. (tests/test_browser.py drives the page.)"""

from __future__ import annotations

import re
from pathlib import Path

from gametool import render
from gametool.auto import random_game
from gametool.formats import html
from gametool.record import Session, load_one

ROOT = Path(__file__).resolve().parent.parent


def test_every_picture_comes_back_whole_across_key_pictures() -> None:
    session = random_game("chess", "page-test", max_plies=120)
    assert session.ply == 120
    page = html.replay_page(session)
    pictures = html.pictures_of(page)
    assert len(pictures) == 121
    for ply in (0, 1, 49, 50, 51, 99, 100, 120):
        assert pictures[ply] == render.show_svg(session, ply, ids=html.IDS).strip(), ply
    # at most 3 MB for 1,000 plies: each ply is sent as its difference, not whole
    assert len(page.encode()) < 3 * 1024 * 1024 * 120 / 1000
    whole = sum(len(p) for p in pictures)
    assert len(page) < whole / 4


def test_a_difference_is_runs_of_the_picture_before_and_new_text() -> None:
    before = ["<svg>", "<g>", "<text>a", "</text>", "</g>", "</svg>"]
    after = ["<svg>", "<g>", "<text>b", "</text>", "</g>", "<rect/>", "</svg>"]
    change = html.difference(before, after)
    assert change == [[0, 2], "<text>b", [3, 2], "<rect/>", [5, 1]]
    assert html.decode(["".join(before), change]) == ["".join(before), "".join(after)]


def test_moves_are_paired_where_two_seats_alternate() -> None:
    session = Session.start("chess", ["ann", "bob"])
    for move in ("e4", "e5", "Nf3"):
        session.push(session.game.parse_action(session.state, move))
    kind, items = html.move_list(session, None)
    assert kind == "paired"
    assert re.findall(r'<li value="(\d)">(.*?)</li>', items) == [
        ("1", '<span class="mv" data-ply="1">e4</span> <span class="mv" data-ply="2">e5</span>'),
        ("2", '<span class="mv" data-ply="3">Nf3</span>')]
    black_first = Session.start("chess", ["ann", "bob"], position=(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))
    black_first.push(black_first.game.parse_action(black_first.state, "e5"))
    kind, items = html.move_list(black_first, None)
    assert kind == "paired" and items.startswith(
        '<li value="1"><span class="mv none">\u2026</span> <span class="mv" data-ply="1">e5')


def test_moves_with_chance_between_are_one_ply_a_line_after_the_seat() -> None:
    session = load_one((ROOT / "sample_games" / "track-gammon" / "placings.gtn").read_text())
    kind, items = html.move_list(session, None)
    assert kind == "plies"
    lines = re.findall(r'<li value="(\d+)"><span class="mv" data-ply="\d+">'
                       r'<span class="who">([^<]*)</span> ([^<]*)</span></li>', items)
    assert len(lines) == session.ply
    assert lines[0][1] == "chance" and lines[0][2].startswith("roll")
    assert {who for _n, who, _m in lines} == {"chance", *session.names}


def test_the_last_action_of_a_hand_is_outlined_in_a_row_that_appears() -> None:
    session = load_one((ROOT / "sample_games" / "two-headed-dragon" / "four-players.gtn"
                        ).read_text())
    ply = next(n for n in range(1, session.ply + 1)
               if render.last_action(session, n, None) == "ann: sheep 2-4")
    outlined = re.findall(r'data-last="([^"]+)"', render.show_svg(session, ply))
    assert outlined == ["2-4"]
