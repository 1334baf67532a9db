"""The replay page's contents without a browser: every position's picture (the main line's and
each variation's) comes back from the page exactly as 'show --svg' draws it, the page stays
small, the move list is paired where two seats alternate and carries the record's NAGs,
comments, clock times and variations, and the header names the players as the record writes
them. (tests/test_browser.py drives the page.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from gametool.pgn.reader import import_text
from gametool.players.auto import random_game
from gametool.records import Session, annotations, load_one
from gametool.views import render
from gametool.views.html import page as html
from gametool.views.html import parts as html_page

ROOT = Path(__file__).resolve().parent.parent
ANNOTATED = ROOT / "tests" / "data" / "annotated.pgn"


def annotated() -> Session:
    return load_one(import_text(ANNOTATED.read_text(encoding="utf-8"), str(ANNOTATED)))


def test_every_picture_comes_back_whole_across_key_pictures() -> None:
    session = random_game("chess", "page-test", max_plies=120)
    assert session.ply == 120
    page = html.replay_page(session)
    pictures = html.pictures_of(page)
    assert len(pictures) == 121
    seen = render.sight(session, None)
    for ply in (0, 1, 49, 50, 51, 99, 100, 120):
        assert pictures[ply] == html.page_picture(session, ply, seen, None), ply
    # at most 2 MB for 1,000 plies: each ply is sent as its difference, compressed
    assert len(page.encode()) < 2 * 1024 * 1024 * 120 / 1000
    whole = sum(len(p) for p in pictures)
    assert len(page) < whole / 20


def test_a_difference_is_runs_of_the_picture_before_and_new_text() -> None:
    before = ["<svg>", "<g>", "<text>a", "</text>", "</g>", "</svg>"]
    after = ["<svg>", "<g>", "<text>b", "</text>", "</g>", "<rect/>", "</svg>"]
    change = html.difference(before, after)
    assert change == [[0, 2], "<text>b", [3, 2], "<rect/>", [5, 1]]
    assert html.decode(["".join(before), change]) == ["".join(before), "".join(after)]
    # a node's difference is from its parent's picture, not from the node before it
    other = ["<svg>", "<g>", "</g>", "</svg>"]
    frames = html.encode(["".join(before), "".join(after), "".join(other)], [-1, 0, 0])
    assert html.decode(frames, [-1, 0, 0]) == ["".join(before), "".join(after),
                                               "".join(other)]
    assert frames[2] == [[0, 2], [4, 2]]


def _cells(markup: str) -> list[str]:
    """The move list's grid cells as text: numbers, moves, notes."""
    found = re.findall(r'<span class="n">(\d+)</span>|<span class="cell[^"]*">(.*?)</span>'
                       r'(?=<span class="(?:n|cell)|<div|$)|<div class="note[^"]*">(.*?)</div>',
                       markup)
    return [re.sub(r"<[^>]+>", "", a or b or c) for a, b, c in found]


def test_moves_are_paired_where_two_seats_alternate() -> None:
    session = Session.start("chess", ["ann", "bob"])
    for move in ("e4", "e5", "Nf3"):
        session.push(session.game.parse_action(session.state, move))
    tree = html_page.Tree(session, render.sight(session, None))
    assert tree.paired and _cells(tree.html) == ["1", "e4", "e5", "2", "Nf3"]
    assert re.findall(r'data-node="(\d+)" data-ply="(\d+)">(\w+)<', tree.html) == [
        ("1", "1", "e4"), ("2", "2", "e5"), ("3", "3", "Nf3")]
    black_first = Session.start("chess", ["ann", "bob"], position=(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))
    black_first.push(black_first.game.parse_action(black_first.state, "e5"))
    tree = html_page.Tree(black_first, render.sight(black_first, None))
    assert _cells(tree.html) == ["1", "\u2026", "e5"]


def test_moves_with_chance_between_are_one_ply_a_line_after_the_seat() -> None:
    session = load_one((ROOT / "sample_games" / "track-gammon" / "placings.gtn").read_text())
    tree = html_page.Tree(session, render.sight(session, None))
    assert not tree.paired
    lines = re.findall(r'<span class="n">(\d+)</span><span class="cell wide"><span class="mv" '
                       r'data-node="\d+" data-ply="\d+"><span class="who">([^<]*)</span> '
                       r'([^<]*)</span>', tree.html)
    assert len(lines) == session.ply
    assert lines[0][1] == "chance" and lines[0][2].startswith("roll")
    assert {who for _n, who, _m in lines} == {"chance", *session.names}


def test_the_annotated_game_shows_its_annotations_and_names_as_written() -> None:
    session = annotated()
    page = html.replay_page(session)
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    assert title == ("O&apos;Brien, Siobhán \u2013 Østergaard, Jörg \u00b7 Cork Autumn Open "
                     "(Chess)") or title == ("O'Brien, Siobhán \u2013 Østergaard, Jörg \u00b7 "
                                             "Cork Autumn Open (Chess)")
    head = re.sub(r"<[^>]+>", "", re.search(r'<header id="game">(.*?)</header>', page).group(1))
    for words in ("O'Brien, Siobhán 2214", "Østergaard, Jörg 2187", "Cork Autumn Open",
                  "Cork, Ireland", "2025.10.04", "round 3.2", "1-0 (Normal)"):
        assert words in head, words
    assert "Siobh_n" not in page and "stergaard_J" not in page
    cells = _cells(re.search(r'<div id="moves" class="paired">(.*)</div>\n<p', page).group(1))
    assert cells[:3] == ["A Two Knights game that the annotator found instructive.", "1",
                         "e40:05:00"]
    assert "Nxd5?!+1.200:04:30" in cells and "Risky; the usual move is Na5." in cells
    variation = next(c for c in cells if c.startswith("5\u2026Na5"))
    assert variation == ("5\u2026Na5 6.Bb5+ c6 7.dxc6 bxc6 += (7\u2026Qb6!? a rare try) "
                         "8.Be2 h6")
    assert "Nxc2+??+6.500:03:20" in cells and "Nf6+!!0:04:00" in cells
    assert cells[-1] == "1-0 (Normal) "
    # every position of every line is in the page, drawn with the names as written
    data = html.page_data(page)
    assert data["lines"] == [[-1, 0, 0, 26], [9, 26, 10, 7], [29, 33, 14, 1], [9, 34, 10, 1],
                             [17, 35, 18, 3]]
    pictures = html.pictures_of(page)
    shown = html.shown_session(session)
    assert len(pictures) == 38
    branch = session.branches[0]
    seen = render.sight(session, None)
    assert pictures[27] == html.page_picture(shown.branch_view(branch), 11, seen, None)
    infos = html.infos_of(page)
    assert "O&apos;Brien, Siobhán: Bb5+" in infos[27] or "O'Brien, Siobhán: Bb5+" in infos[27]
    assert pictures[25] == html.page_picture(shown, 25, seen, None)


def test_comments_and_nags_are_read_for_display() -> None:
    comment = annotations.read_comment("[%clk 0:04:30] [%eval 1.2] Risky; the usual move.")
    assert comment == annotations.Comment("Risky; the usual move.", "0:04:30", "+1.20")
    assert annotations.read_comment("[%eval #-3]") == annotations.Comment("", None, "#-3")
    assert annotations.read_comment("  ") is None and annotations.read_comment(None) is None
    assert annotations.glyphs([6, 14]) == "?! +=" and annotations.glyphs([200]) == "$200"


def test_export_html_and_replay_html_write_the_same_page(tmp_path: Path) -> None:
    pages = []
    for command in ("export", "replay"):
        out = tmp_path / f"{command}.html"
        done = subprocess.run([sys.executable, "-m", "gametool", command, str(ANNOTATED),
                               "--html", "-o", str(out)], capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout == "", done.stderr
        pages.append(out.read_text(encoding="utf-8"))
    assert pages[0] == pages[1] and "Østergaard, Jörg" in pages[0]


def test_the_last_action_of_a_hand_is_outlined_in_a_row_that_appears() -> None:
    session = load_one((ROOT / "sample_games" / "two-headed-dragon" / "four-players.gtn"
                        ).read_text())
    ply = next(n for n in range(1, session.ply + 1)
               if render.last_action(session, n, None) == "ann: sheep 2-4")
    outlined = re.findall(r'data-last="([^"]+)"', render.show_svg(session, ply))
    assert outlined == ["2-4"]


CHESS_DATA = ROOT / "tests" / "data" / "python-chess"


def test_no_comment_name_or_tag_widens_the_board_of_the_page() -> None:
    """Marshall - Lasker 1907 (python-chess's immortal games, game 36) has comments of
    hundreds of characters: the page's pictures are the board alone, each as wide as the
    board, and the words are beside it."""
    from gametool.archives import corpus

    session = corpus.one_record(str(CHESS_DATA / "old-games-immortal-games.pgn"), 36)
    assert session.record.get("White") == "Marshall"
    page = html.replay_page(session)
    data = html.page_data(page)
    assert (data["width"], data["height"]) == (420, 416)  # 24 + 8 x 48 + 4, and the border
    longest = max(len(s.text) for s in html_page.Tree(annotations.shown_session(session),
                                                       render.sight(session, None)).said.values())
    assert longest > 300
    for picture in html.pictures_of(page):
        words = " ".join(re.findall(r">([^<]+)<", picture))
        assert "Marshall" not in words and "Lasker" not in words and "FEN" not in words
        assert set(re.findall(r"<text[^>]*>([^<]*)</text>", picture)) <= set("abcdefgh12345678")
    infos = html.infos_of(page)
    assert any("Marshall" in info for info in infos)
    assert any(len(said) > 300 for said in re.findall(r'<p class="said">([^<]*)</p>',
                                                       " ".join(infos)))


def test_a_small_board_is_drawn_as_large_as_a_chess_board() -> None:
    from gametool.core.diagram import Diagram, Grid, Piece
    from gametool.views import svg

    small = Diagram((Grid(("a", "b", "c"), ("3", "2", "1"), {(1, 1): Piece("X")}),))
    big = Diagram((Grid(tuple("abcdefgh"), tuple("87654321")),))
    sizes = []
    for diagram in (small, big):
        drawn = svg.to_svg(diagram)
        cell = re.search(r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"[^>]*data-cell', drawn)
        assert cell is not None
        sizes.append(float(cell.group(1)) * len(diagram.parts[0].files))
    assert sizes[0] == sizes[1] == 8 * svg.CELL
    cell = re.search(r'width="([\d.]+)"[^>]*data-cell', svg.to_svg(small, size=384))
    assert cell is not None and float(cell.group(1)) == 128  # a page's board: 384 pixels


def test_an_engines_comment_is_read_as_evaluation_depth_and_time() -> None:
    said = html_page.read_said("+0.69/29 36s", 0)
    assert said == html_page.Said("", None, "36s", "+0.69", "29")
    said = html_page.read_said("-0.67/38 71s a slow move", 1)  # the second seat's side
    assert (said.evaluation, said.depth, said.elapsed, said.text) == ("+0.67", "38", "71s",
                                                                      "a slow move")
    assert html_page.read_said("+M5/20 1.2s", 1).evaluation == "#-5"
    assert html_page.read_said("0.00/31 48s", 1).evaluation == "+0.00"
    assert html_page.read_said("book", 0).evaluation is None
    said = html_page.read_said("[%cal Ge2e4,Rd1d8] [%csl Yd5] the centre [%eval 0.3]", 0)
    assert said.marks == (("G", "e2", "e4"), ("R", "d1", "d8"), ("Y", "d5"))
    assert (said.text, said.evaluation) == ("the centre", "+0.30")


def test_the_graphs_name_themselves_and_follow_the_record() -> None:
    session = load_one(import_text((CHESS_DATA / "stockfish-learning.pgn").read_text(),
                                   "stockfish-learning.pgn"))
    page = html.replay_page(session)
    names = re.findall(r'<svg class="plot" role="img" aria-label="([^"]+)"[^>]*data-plies="(\d+)"',
                       page)
    assert names == [("evaluation", "154")]  # no clocks in a cutechess game's comments
    assert "depth <b>29</b>" in " ".join(html.infos_of(page))
    annotated_page = html.replay_page(annotated())
    assert [n for n, _p in re.findall(r'role="img" aria-label="([^"]+)"[^>]*data-plies="(\d+)"',
                                      annotated_page)] == ["evaluation", "clock"]
    scored = random_game("colors", "graph", max_plies=40)
    assert re.findall(r'role="img" aria-label="([^"]+)"', html.replay_page(scored)) == ["scores"]
    assert not re.findall(r'role="img"', html.replay_page(random_game("chess", "g", max_plies=20)))


def test_the_copied_position_is_the_fen_and_a_hidden_game_copies_its_own_view() -> None:
    import chess

    session = random_game("chess", "copy", max_plies=30)
    copies = html.copies_of(html.replay_page(session))
    board = chess.Board()
    for ply, step in enumerate(session.steps, start=1):
        board.push_san(session.game.format_action(session.states[ply - 1], step.action))
        assert copies[ply] == board.fen(en_passant="fen"), ply
    mahjong = random_game("western-mahjong", "copy", max_plies=30)
    for seat in mahjong.names:
        page = html.replay_page(mahjong, seat)
        copies = html.copies_of(page)
        for ply in (5, 30):
            assert copies[ply] == mahjong.game.render(
                mahjong.states[ply], mahjong.seat_index(seat), mahjong.names).rstrip("\n")


def test_a_file_of_several_games_is_one_page_listing_them_or_a_folder(tmp_path: Path) -> None:
    from html import unescape

    famous = ROOT / "tests" / "data" / "famous.pgn"
    games = subprocess.run([sys.executable, "-m", "gametool", "replay", str(famous), "--html"],
                           capture_output=True, text=True, cwd=ROOT)
    assert games.returncode == 0, games.stderr
    page = games.stdout
    rows = re.findall(r"<tr><td>(\d+)</td><td><a href=\"#game-(\d+)\">([^<]*)</a></td>"
                      r"<td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>"
                      r"<td>(\d+)</td></tr>", page)
    count = famous.read_text(encoding="utf-8").count("[Event ")
    assert len(rows) == count >= 2 and [r[0] for r in rows] == [str(n + 1) for n in range(count)]
    frames = re.findall(r'srcdoc="([^"]*)"', page)
    assert len(frames) == count
    for number, frame in enumerate(frames, start=1):  # each viewer is that game's own page
        alone = subprocess.run([sys.executable, "-m", "gametool", "replay", str(famous),
                                "--html", "--record", str(number)], capture_output=True,
                               text=True, cwd=ROOT)
        assert unescape(frame) == alone.stdout
        assert rows[number - 1][7] == str(len(html.pictures_of(alone.stdout)) - 1) or \
            "variation" in alone.stdout
    folder = tmp_path / "pages"
    done = subprocess.run([sys.executable, "-m", "gametool", "export", str(famous), "--html",
                           "-o", f"{folder}/"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(["index.html"] + [f"game-{n}.html" for n in range(1, count + 1)])
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.count('<a href="game-') == count
    assert (folder / "game-1.html").read_text(encoding="utf-8") == unescape(frames[0])
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = subprocess.run([sys.executable, "-m", "gametool", "export", str(famous), "--html",
                            "-o", f"{folder}/"], capture_output=True, text=True, cwd=ROOT)
    assert again.returncode != 0 and len(again.stderr.strip().splitlines()) == 1
    assert "Traceback" not in again.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
