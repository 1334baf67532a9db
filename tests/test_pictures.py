"""Pictures: every game drawn as SVG for every seat, from what that seat sees; boards with
coordinates, the last action highlighted, chess-like boards turned for the second seat; text
boards drawn from the same diagram."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import PLAYABLE, sample_session, svg_words

from gametool.core import diagram
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE
from gametool.records import Session
from gametool.views import render, svg

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
TOKEN = re.compile(r"[0-9A-Za-z]+(?:-[0-9]+)?")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametool", *args], capture_output=True,
                          text=True, input=stdin, cwd=ROOT)


def plies_of(session: Session, count: int = 6) -> list[int]:
    """A few plies spread over the game, the first and the last included."""
    return sorted({session.ply * k // (count - 1) for k in range(count)})


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    return root


def tokens(data: object) -> set[str]:
    """The words of the values (not the keys) of a view."""
    if isinstance(data, dict):
        return set().union(*map(tokens, data.values())) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*map(tokens, data)) if data else set()
    return set(TOKEN.findall(json.dumps(data)))


# -- every game, every seat ---------------------------------------------------------------------


@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_game_draws_every_seat_view_as_wellformed_svg(gid: str) -> None:
    session = sample_session(gid, 0)
    viewers = [None, *session.names]
    for ply in plies_of(session):
        for who in viewers:
            root = parse(render.show_svg(session, ply, who))
            words = svg_words(ET.tostring(root, encoding="unicode"))
            assert session.game.name in words
            assert f"ply {ply}" in words
            if who is not None and session.seat_index(who) != CHANCE:
                assert f"(as {who})" in words


@pytest.mark.parametrize("gid", PLAYABLE)
def test_a_picture_depends_only_on_what_its_seat_may_see(gid: str) -> None:
    """The diagram of a position equals that of any position differing only in what the seat
    cannot see (the same test the views pass), so no hidden value can reach the picture."""
    session = sample_session(gid, 1)
    game = session.game
    for ply in plies_of(session, 10):
        state = session.states[ply]
        for seat in [None, *range(len(session.names))]:
            other = game.randomize_hidden(state, seat, SeedRng(f"picture-{gid}", ply))
            mine = game.diagram(state, seat, session.names)
            assert mine == game.diagram(other, seat, session.names), (ply, seat)
            assert svg.to_svg(mine) == svg.to_svg(game.diagram(other, seat, session.names))


@pytest.mark.parametrize("gid", [g for g in PLAYABLE
                                 if g in ("two-headed-dragon", "johari-bones", "western-mahjong",
                                          "belemmer", "space-cards")])
def test_hidden_values_appear_in_their_seat_picture_and_no_other(gid: str) -> None:
    """What only one seat sees (its hand, its face-down bones) is drawn for that seat and is
    absent from every other seat's picture and the spectator's (``--as spectator``); the
    master record's picture (no ``--as``) draws them all."""
    session = sample_session(gid, 2)
    game = session.game
    seats = range(len(session.names))
    checked = 0
    for ply in plies_of(session, 12):
        state = session.states[ply]
        views = {seat: game.view(state, seat) for seat in [None, *seats]}
        pictures = {seat: set(TOKEN.findall(svg_words(render.show_svg(
            session, ply, "spectator" if seat is None else session.names[seat]))))
            for seat in [None, *seats]}
        master = set(TOKEN.findall(svg_words(render.show_svg(session, ply))))
        for seat in seats:
            for other in [None, *seats]:
                if other == seat:
                    continue
                hidden = tokens(views[seat]) - tokens(views[other])
                assert not hidden & pictures[other], (ply, seat, other, hidden & pictures[other])
                checked += len(hidden)
            # the master record's picture (no --as) is the referee's: every seat's values
            assert tokens(views[seat]) - tokens(views[None]) <= master, (ply, seat)
    if gid in ("two-headed-dragon", "johari-bones", "western-mahjong"):
        assert checked > 0


def test_the_master_salvo_picture_draws_each_fleet_as_its_owner_and_a_spectator_none() -> None:
    """Special Salvo's master picture (no --as) draws both oceans, each exactly as its owner
    draws its own; a spectator's (--as spectator) draws no ship before the fleets are shown."""
    session = sample_session("special-salvo", 2)

    def grids(ply: int, who: str | None) -> list[diagram.Grid]:
        return [part for part in diagram.walk(render.picture(session, ply, who).parts)
                if isinstance(part, diagram.Grid)]

    ships = 0
    for ply in plies_of(session, 8):
        master = grids(ply, None)
        for seat, name in enumerate(session.names):
            assert master[seat].cells == grids(ply, name)[0].cells, (ply, name)
            ships += sum(piece.shape == "square" for piece in master[seat].cells.values())
        if not any(session.states[ply].revealed):
            assert not any(piece.shape == "square" for grid in grids(ply, "spectator")
                           for piece in grid.cells.values()), ply
    assert ships > 0


def test_hidden_cards_are_drawn_as_backs() -> None:
    session = sample_session("two-headed-dragon", 0)
    ply = next(n for n in range(session.ply) if session.game.to_move(session.states[n]) == 0)
    root = parse(render.show_svg(session, ply, session.names[0]))
    backs = root.findall(f".//{NS}g[@class='item back']")
    faces = root.findall(f".//{NS}g[@class='item face']")
    first, *others = session.names
    own = session.game.view(session.states[ply], 0)["hands"][first].split()
    sizes = session.game.view(session.states[ply], None)["hand_sizes"]
    hidden = sum(sizes[name] for name in others)
    assert len(backs) == hidden and hidden > 0
    assert {f.findtext(f"{NS}title") for f in faces} >= set(own)


# -- boards: coordinates, the last action, flipping -------------------------------------------


def chess_session(*moves: str) -> Session:
    session = Session.start("chess", ["ann", "bob"])
    for move in moves:
        session.push(session.game.parse_action(session.state, move))
    return session


def cells_in_order(root: ET.Element) -> list[str]:
    """The board's squares as drawn, row by row from the top left."""
    cells = [(float(r.get("y", 0)), float(r.get("x", 0)), r.get("data-cell", ""))
             for r in root.iter(f"{NS}rect") if r.get("data-cell")]
    return [name for _y, _x, name in sorted(cells)]


def test_chess_picture_has_coordinates_and_highlights_the_last_move() -> None:
    session = chess_session("e4")
    root = parse(render.show_svg(session))
    words = svg_words(ET.tostring(root, encoding="unicode")).split()
    for label in "abcdefgh12345678":
        assert label in words
    highlighted = {rect for rect in root.iter(f"{NS}rect") if rect.get("class") == "last"}
    assert len(highlighted) == 2  # e2 and e4
    grid = render.picture(session).parts[1]
    assert isinstance(grid, diagram.Grid)
    assert grid.highlight == {(4, 6), (4, 4)}


def test_chess_is_seen_from_black_for_the_second_seat_and_flip_forces_either_way() -> None:
    session = chess_session("e4")
    white = cells_in_order(parse(render.show_svg(session, None, "ann")))
    black = cells_in_order(parse(render.show_svg(session, None, "bob")))
    assert white[0] == "a8" and black[0] == "h1"
    assert cells_in_order(parse(render.show_svg(session, None, "bob", flip=False)))[0] == "a8"
    assert cells_in_order(parse(render.show_svg(session, None, "ann", flip=True)))[0] == "h1"


def test_chess_text_board_is_turned_for_black() -> None:
    session = chess_session("e4", "e5")
    ann = render.show_text(session, None, "ann").splitlines()
    bob = render.show_text(session, None, "bob").splitlines()
    assert " 8  r n b q k b n r  8" in ann and "    a b c d e f g h" in ann
    assert " 1  R N B K Q B N R  1" in bob and "    h g f e d c b a" in bob
    assert " 8  r n b q k b n r  8" in render.show_text(session, None, "bob", flip=False)


def test_colours_are_told_by_shape_and_label_too() -> None:
    """Seats differ by shape, colours of the rules carry their letter, and every fill comes
    from the Okabe-Ito palette (or black, white, greys)."""
    shapes = {diagram.seat_piece(s).shape for s in range(4)}
    assert len(shapes) == 4
    okabe_ito = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
                 "#000000", "#ffffff", "#bbbbbb"}
    assert {fill for fill, _ink in svg.PALETTE.values()} <= okabe_ito
    session = sample_session("colors", 0)
    root = parse(render.show_svg(session))
    board = session.game.view(session.state, None)["ranks"]
    letters = "".join(board.values()).replace(".", "")
    labels = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "piece"]
    assert sorted(labels) == sorted(letters)


def test_belemmer_text_board_is_a_board_with_coordinates_not_a_table() -> None:
    session = sample_session("belemmer", 0)
    text = render.show_text(session, 20)
    board = text.split("\n\n")[1].splitlines()
    assert board[0].split() == ["a", "b", "c", "d"] == board[-1].split()
    assert [line.split()[0] for line in board[1:5]] == ["4", "3", "2", "1"]
    assert [line.split()[-1] for line in board[1:5]] == ["4", "3", "2", "1"]
    assert "--" not in text.split("\n\n")[1]


def test_track_points_changed_by_the_last_turn_are_highlighted() -> None:
    session = sample_session("tawula", 0)
    ply = next(n for n in range(1, session.ply + 1)
               if session.steps[n - 1].seat != CHANCE
               and "bar" not in session.steps[n - 1].text and "h/" not in session.steps[n - 1].text)
    track = render.picture(session, ply).parts[1]
    assert isinstance(track, diagram.Track)
    lit = {p.label for row in track.rows for p in row if p.highlight and p.label.isdigit()}
    moved = set(re.findall(r"\d+", session.steps[ply - 1].text))
    assert lit and lit <= moved


# -- the command line ----------------------------------------------------------------------


def test_show_svg_writes_a_picture_for_a_seat(tmp_path: Path) -> None:
    record = tmp_path / "g.gtn"
    record.write_text(sample_session("western-mahjong", 0).text())
    out = tmp_path / "pos.svg"
    seed_ok = "--weak-seed-ok"  # the sample game's seed is a word
    done = run("show", str(record), "--as", "p2", seed_ok, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    parse(out.read_text())
    printed = run("show", str(record), "--as", "p2", seed_ok, "--svg")
    assert printed.stdout == out.read_text()


def test_show_svg_bad_input_is_one_line_and_no_file(tmp_path: Path) -> None:
    record = tmp_path / "g.gtn"
    record.write_text(chess_session("e4").text())
    for args in (("--as", "nobody"), ("--ply", "9"), ("-o", str(tmp_path / "no" / "x.svg"))):
        done = run("show", str(record), "--svg", *args)
        assert done.returncode == 1, args
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "no").exists()
    done = run("show", str(record), "--svg", "--json")
    assert done.returncode == 2


# -- the replay page -------------------------------------------------------------------------


def test_replay_page_is_self_contained_with_every_position_and_the_moves(tmp_path: Path) -> None:
    session = chess_session("e4", "e5", "Nf3")
    record = tmp_path / "g.gtn"
    record.write_text(session.text())
    out = tmp_path / "game.html"
    done = run("export", str(record), "--html", "-o", str(out))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    # nothing is fetched: no external scripts, styles, images, fonts or links (a reference
    # to a figure shape defined in the page, href="#...", fetches nothing, even as the
    # escaped text of a ply's difference)
    fetches = re.compile(r"(src|href)\s*=(?!\\?\"#)|<link|<img|@import|url\((?!#)"
                         r"|https?://(?!www\.w3\.org/2000/svg)")
    assert not fetches.search(page), re.findall(r".{30}(?:src|href|url\(|http).{30}", page)
    from gametool.views.html import page as html

    # every position's picture, as 'show --svg' draws the master record; the first one also
    # in the page
    pictures = html.pictures_of(page)
    seen = render.sight(session, None)
    assert pictures == [html.page_picture(session, n, seen, None) for n in range(4)]
    for picture in pictures:
        parse(picture)
    assert re.search(r'<figure id="frame" data-ply="0" data-node="0">(.*?)</figure>', page, re.S
                     ).group(1) == pictures[0]
    # moves paired by turn, each naming its ply
    turns = re.findall(r'<span class="n">(\d+)</span>((?:<span class="cell">.*?</span>'
                       r'</span>)+)', page)
    assert [(n, re.findall(r'data-ply="(\d+)">([^<]*)<', t)) for n, t in turns] == [
        ("1", [("1", "e4"), ("2", "e5")]), ("2", [("3", "Nf3")])]
    for key in ("ArrowRight", "ArrowLeft", 'id="next"', 'id="prev"'):
        assert key in page
    assert run("export", str(record), "--html").stdout == page


def test_replay_page_for_a_seat_shows_nothing_hidden_from_it() -> None:
    from gametool.views.html import page as html

    session = sample_session("two-headed-dragon", 0)
    game = session.game
    domino = re.compile(r"\b[0-6]-[0-6]\b")
    for seat, name in enumerate(session.names):
        page = html.replay_page(session, name)
        seen: set[str] = set()
        for ply, state in enumerate(session.states):
            seen |= set(domino.findall(json.dumps(game.view(state, seat))))
            seen |= set(domino.findall(render.show_text(session, ply, name)))
        words = " ".join(svg_words(f) for f in html.pictures_of(page))
        words += " ".join(re.findall(r'<span class="mv"[^>]*>(.*?)</span>', page))
        assert set(domino.findall(words)) <= seen, name
        assert set(domino.findall(page)) <= seen, name  # nor anywhere else in the page
        # and a seat's own hand is there: the page is not empty of hidden things
        own = game.view(session.states[1 + next(
            n for n, s in enumerate(session.steps) if s.seat == seat)], seat)["hands"][name]
        assert set(own.split()) <= set(domino.findall(words))


def test_replay_page_bad_input_is_one_line(tmp_path: Path) -> None:
    record = tmp_path / "g.gtn"
    record.write_text(chess_session("e4").text())
    for args in (("--as", "nobody"), ("-o", str(tmp_path / "missing" / "g.html"))):
        done = run("export", str(record), "--html", *args)
        assert done.returncode == 1, args
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    done = run("export", str(record), "--html", "--pgn")
    assert done.returncode == 2


def test_readme_shows_pictures_made_by_the_tool() -> None:
    readme = (ROOT / "README.md").read_text()
    shown = re.findall(r"!\[[^\]]*\]\((docs/[^)]+\.svg)\)", readme)
    assert len(shown) >= 2
    for path in shown:
        parse((ROOT / path).read_text())
        assert f"-o {path}" in readme  # the command that made it is given


def test_readme_pictures_are_those_the_script_makes_now(tmp_path: Path) -> None:
    """docs/make_pictures.py draws one picture per kind of game; the README gives each of its
    commands and shows each picture, and the files in docs/ are what the tool draws today."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_pictures",
                                                  ROOT / "docs" / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    readme = (ROOT / "README.md").read_text()
    for name, caption, _args in script.PICTURES:
        command = " ".join(script.command(_args, f"docs/{name}"))
        assert command in readme and f"![{caption}](docs/{name})" in readme, name
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "make_pictures.py"),
                           str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    stale = [name for name, _c, _a in script.PICTURES
             if (tmp_path / name).read_text() != (ROOT / "docs" / name).read_text()]
    assert not stale, f"out of date: {stale}; run: python docs/make_pictures.py"
    assert {p.name for p in (ROOT / "docs").glob("*.svg")} == {n for n, _c, _a in script.PICTURES}


def test_flip_turns_any_board_when_asked() -> None:
    session = sample_session("colors", 0)
    assert cells_in_order(parse(render.show_svg(session)))[0] == "a7"
    assert cells_in_order(parse(render.show_svg(session, flip=True)))[0] == "g1"


def test_any_diagram_is_drawn_with_a_caller_palette() -> None:
    """The renderer knows no game: every kind of part is drawn from plain data."""
    grid = diagram.Grid(("a", "b"), ("2", "1"), {(0, 0): diagram.seat_piece(0, "X", 3),
                                                 (1, 1): diagram.Piece("K", "dark", "glyph")},
                        "board", marked=frozenset({(1, 0)}), highlight=frozenset({(0, 0)}))
    track = diagram.Track(((diagram.Point("1", (diagram.seat_piece(1, "", 7),), True),
                            diagram.Point("2")),))
    row = diagram.Row("hand", (diagram.playing_card("QS"), diagram.back(4),
                               diagram.Card("3-5", kind="domino"), diagram.Card("7k", kind="tile")))
    panel = diagram.Panel(("seat", "score"), (("ann", "3"),), "scores")
    drawing = diagram.Diagram((diagram.Beside((grid, track)), row, panel,
                               diagram.Note(("a note",))), legend=(("seat0", "ann"),))
    root = parse(svg.to_svg(drawing, title="test", palette={"seat0": ("#123456", "#ffffff")}))
    words = svg_words(ET.tostring(root, encoding="unicode"))
    for word in ("board", "X", "3", "K", "hand", "QS", "\u00d74", "3-5", "7k", "scores", "ann",
                 "a note", "test"):
        assert word in words, word
    fills = {node.get("fill") for node in root.iter()}
    assert "#123456" in fills and "#E69F00" not in fills
    assert len([r for r in root.iter(f"{NS}rect") if r.get("class") == "last"]) == 1


def test_a_king_in_check_is_marked() -> None:
    session = chess_session("e4", "f5", "Qh5+")
    grid = render.picture(session).parts[1]
    assert isinstance(grid, diagram.Grid)
    assert grid.alert == {(4, 0)}  # e8
    assert render.picture(chess_session("e4")).parts[1].alert == frozenset()
    root = parse(render.show_svg(session))
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "alert"]) == 1


def test_cards_played_or_drawn_by_the_last_action_are_outlined() -> None:
    session = sample_session("two-headed-dragon", 0)
    game = session.game
    ply = next(n for n in range(1, session.ply + 1)
               if session.steps[n - 1].text.startswith("play")
               and game.view(session.states[n - 1], None)["line"])
    played = session.steps[ply - 1].text.split()[1]
    root = parse(render.show_svg(session, ply, session.names[0]))
    lit = [r.get("data-last") for r in root.iter(f"{NS}rect") if r.get("class") == "last"]
    assert lit == [played] or sorted(played.split("-")) == sorted(lit[0].split("-"))


def test_export_html_for_a_seat_refuses_a_guessable_seed(tmp_path: Path) -> None:
    record = tmp_path / "g.gtn"
    record.write_text(Session.start("belemmer", ["ann", "ben"], seed="cafe").text())
    refused = run("export", str(record), "--html", "--as", "ann")
    assert refused.returncode == 1 and "weak-seed-ok" in refused.stderr
    assert run("export", str(record), "--html", "--as", "ann", "--weak-seed-ok").returncode == 0
    assert run("export", str(record), "--html").returncode == 0  # a spectator's page


def test_every_picture_of_a_page_finds_its_patterns_by_id() -> None:
    """Patterns (card backs, hatching) are found by id: the page shows one picture at a time,
    and each picture holds the patterns it uses, under ids no other part of the page has."""
    from gametool.views.html import page as html

    page = html.replay_page(sample_session("johari-bones", 0), None)
    pictures = html.pictures_of(page)
    outside = re.findall(r'\bid="([^"]+)"', re.sub(r"<figure.*?</figure>", "", page, flags=re.S))
    for picture in pictures:
        ids = re.findall(r'\bid="([^"]+)"', picture)
        assert len(ids) == len(set(ids)) and not set(ids) & set(outside)
        for ref in set(re.findall(r"url\(#([^)]+)\)", picture)):
            assert ref in ids


def test_replay_page_of_a_file_of_several_records_lists_them(tmp_path: Path) -> None:
    records = tmp_path / "two.gtn"
    records.write_text(chess_session("e4").text() + "\n" + chess_session("d4").text())
    listed = run("export", str(records), "--html")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.count('<section class="viewer"') == 2
    assert listed.stdout.count('<a href="#game-') == 2
    chosen = run("export", str(records), "--html", "--record", "2")
    assert chosen.returncode == 0, chosen.stderr
    assert '"1">d4<' in chosen.stdout and '"1">e4<' not in chosen.stdout


@pytest.mark.parametrize("gid", [g for g in PLAYABLE
                                 if g in ("two-headed-dragon", "johari-bones", "western-mahjong",
                                          "belemmer", "special-salvo")])
def test_a_seat_file_draws_the_same_pictures_as_the_master(gid: str) -> None:
    """The record exported for a seat holds what that seat sees, and no less: its pictures are
    the master's pictures for that seat, ply by ply."""
    from gametool.players.auto import random_game
    from gametool.records import load_one
    from notation import record as gtn

    master = random_game(gid, "pictures-export", max_plies=60)
    for seat, name in enumerate(master.names):
        own = load_one(gtn.write(master.exported(seat)))
        assert own.ply == master.ply
        for ply in plies_of(master, 8):
            assert render.show_svg(own, ply, name) == render.show_svg(master, ply, name), ply


# -- structure: every game drawn as it looks at a table -------------------------------------

DOMINO = re.compile(r"^([0-6])-([0-6])$")


def viewers_of(session: Session) -> list[str | None]:
    """The master record's view (None), a spectator's and every seat's."""
    return [None, "spectator", *session.names]


def pictures_of(session: Session, plies: list[int]) -> list[tuple[int, str | None, ET.Element]]:
    """The pictures of ``plies`` for every viewer, the master record's view included."""
    out = []
    for ply in plies:
        for who in viewers_of(session):
            out.append((ply, who, parse(render.show_svg(session, ply, who))))
    return out


@pytest.mark.parametrize("gid", [g for g in PLAYABLE if g in ("two-headed-dragon",
                                                              "johari-bones")])
def test_the_pips_of_every_domino_drawn_equal_its_value(gid: str) -> None:
    session = sample_session(gid, 0)
    faces = doubles = 0
    for ply, who, root in pictures_of(session, plies_of(session, 5)):
        for item in root.iter(f"{NS}g"):
            if item.get("class") != "item face":
                continue
            ends = DOMINO.match(item.findtext(f"{NS}title") or "")
            assert ends, (ply, who, item.findtext(f"{NS}title"))
            pips = [c for c in item.iter(f"{NS}circle") if c.get("class") == "pip"]
            assert len(pips) == int(ends[1]) + int(ends[2]), (ply, who, ends[0])
            assert not [t for t in item.iter(f"{NS}text")]  # pips, not digits
            faces += 1
    assert faces > 20
    if gid == "two-headed-dragon":  # a double lies across the chain: taller than wide
        for ply in plies_of(session, 5):
            chain = render.picture(session, ply).parts[2]
            assert isinstance(chain, diagram.Row)
            for card in chain.items:
                a, b = card.label.split("-")
                assert card.across == (a == b)
                doubles += a == b
        assert doubles > 0


@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_square_and_space_of_a_board_is_drawn_once(gid: str) -> None:
    """From every seat: each grid draws each of its cells once; each track each of its points
    once (Track Gammon's shared corners too)."""
    session = sample_session(gid, 0)
    for ply, who, root in pictures_of(session, plies_of(session, 3)):
        for group in root.iter(f"{NS}g"):
            if group.get("class") == "grid":
                cells = [r.get("data-cell") for r in group.iter(f"{NS}rect") if r.get("data-cell")]
                assert len(cells) == len(set(cells)) > 0, (ply, who)
            if group.get("class") == "track":
                points = [p.get("data-point") for p in group.iter()
                          if p.tag in (f"{NS}polygon", f"{NS}rect") and p.get("data-point")]
                assert len(points) == len(set(points)), (ply, who)
                spaces = {int(p) for p in points if p.isdigit()}
                assert spaces == set(range(1, session.game.geo.spaces + 1)), (ply, who)


@pytest.mark.parametrize("gid", [g for g in PLAYABLE if g in ("tawula", "track-gammon")])
def test_race_figures_drawn_add_up_to_every_figure_and_stacks_show_counts(gid: str) -> None:
    """Every figure of every seat is on a space, in a hand, on a bar or off, each stack shows
    at most five and says its count beyond that."""
    session = sample_session(gid, 0)
    game = session.game
    for ply, who, root in pictures_of(session, plies_of(session, 6)):
        stacks = [g for g in root.iter(f"{NS}g") if g.get("class") == "stack"]
        total = sum(int(g.get("data-count", "0")) for g in stacks)
        assert total == game.geo.figures * game.geo.seats, (ply, who)
        per_point: dict[str, int] = {}
        for stack in stacks:
            count = int(stack.get("data-count", "0"))
            drawn = [p for p in stack.iter(f"{NS}g") if p.get("class") == "piece"]
            point = stack.get("data-point", "")
            assert 1 <= len(drawn) <= min(count, 5), (ply, who, point)
            per_point[point] = per_point.get(point, 0) + len(drawn)
            if count > len(drawn):
                labels = [t.text for t in stack.iter(f"{NS}text")]
                assert labels[-1] == str(count), (ply, who, point, labels)
        assert max(per_point.values()) <= 5
        state = session.states[ply]
        spaces = {str(s + 1): sum(row[s] for row in state.counts)
                  for s in range(game.geo.spaces)}
        for stack in stacks:
            point = stack.get("data-point", "")
            if point.isdigit():
                assert spaces[point] >= int(stack.get("data-count", "0"))


@pytest.mark.parametrize("gid", [g for g in PLAYABLE if g in ("chess", "super-horse-chess")])
def test_chess_pieces_are_figures_defined_once_and_used_per_piece(gid: str) -> None:
    session = sample_session(gid, 0)
    seen_horse = False
    for ply, who, root in pictures_of(session, plies_of(session, 6)):
        fen = session.game.view(session.states[ply], None)["fen"].split()[0]
        pieces = [c for c in fen if c.isalpha() or c == "*"]
        grid = next(g for g in root.iter(f"{NS}g") if g.get("class") == "grid")
        uses = [u for u in grid.iter(f"{NS}use")]
        assert len(uses) == len(pieces), (ply, who)
        symbols = [s.get("id") for s in root.iter(f"{NS}symbol")]
        assert len(symbols) == len(set(symbols))
        assert {u.get("href") for u in root.iter(f"{NS}use")} == {f"#{s}" for s in symbols}
        names = {u.get("href") for u in uses}
        kinds = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight",
                 "p": "pawn", "h": "trojan-horse", "*": "trojan-horse"}
        assert names == {f"#fig-{kinds[c.lower()]}" for c in pieces}, (ply, who)
        seen_horse |= "#fig-trojan-horse" in names
        assert not [t for t in root.iter(f"{NS}text") if t.get("class") == "piece"]
    assert seen_horse == (gid == "super-horse-chess")


def test_mahjong_tiles_carry_their_suit_sign_and_melds_lie_side_by_side() -> None:
    from gametool.games.western_mahjong.game import HONOURS, SUIT_SIGNS

    session = sample_session("western-mahjong", 0)
    checked = 0
    for ply, _who, root in pictures_of(session, plies_of(session, 6)):
        for item in root.iter(f"{NS}g"):
            if item.get("class") != "item face":
                continue
            name = item.findtext(f"{NS}title") or ""
            sign = HONOURS[name][1] if name in HONOURS else SUIT_SIGNS[name[-1]][0]
            assert [u.get("href") for u in item.iter(f"{NS}use")] == [f"#fig-{sign}"], name
            checked += 1
        melds = [p for p in render.picture(session, ply).parts
                 if isinstance(p, diagram.Row) and p.title.startswith("meld")]
        assert len(melds) <= 1
        if melds:
            assert len(melds[0].groups) == len(session.states[ply].melds)
    assert checked > 100


def test_the_master_record_without_as_shows_every_hand(tmp_path: Path) -> None:
    """One view rule for every output: without --as, the master record's text, JSON, picture
    and replay page show both hands (the referee's view); --as spectator none in any of them;
    a record exported for a seat shows that seat's view and refuses another seat's."""
    from gametool.views.html import page as html

    record = tmp_path / "g.gtn"
    session = sample_session("western-mahjong", 0)
    record.write_text(session.text())
    ply = "30"
    hidden = session.states[30].sizes[1] + session.states[30].sizes[0]

    def show(path: Path, *args: str) -> str:
        done = run("show", str(path), "--ply", ply, "--weak-seed-ok", *args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def backs(root: ET.Element) -> int:
        return len([g for g in root.iter(f"{NS}g") if g.get("class") == "item back"])

    whole, spectator = parse(show(record, "--svg")), parse(show(record, "--svg", "--as",
                                                                   "spectator"))
    mine = parse(show(record, "--svg", "--as", "p1"))
    assert backs(whole) == 1  # the wall alone
    assert backs(spectator) == hidden + 1
    assert backs(mine) == session.states[30].sizes[1] + 1
    assert "the referee's view" in svg_words(ET.tostring(whole, encoding="unicode"))
    text, seen = show(record), show(record, "--as", "spectator")
    assert "hand of p1: " in text and "hand of p2: " in text and "the referee's view" in text
    assert "hand of" not in seen and "(as spectator)" in seen
    assert None not in json.loads(show(record, "--json"))["position"]["hands"].values()
    data = json.loads(show(record, "--json", "--as", "spectator"))
    assert data["as"] == "spectator" and set(data["position"]["hands"].values()) == {None}
    for args, count in (((), 1), (("--as", "spectator"), hidden + 1)):
        page = tmp_path / "page.html"
        done = run("replay", str(record), "--html", "-o", str(page), "--force",
                   "--weak-seed-ok", *args)
        assert done.returncode == 0, done.stderr
        assert backs(parse(html.pictures_of(page.read_text())[30])) == count, args
    exported = tmp_path / "p1.gtn"
    assert run("export", str(record), "--as", "p1", "--weak-seed-ok", "-o",
               str(exported)).returncode == 0
    assert backs(parse(show(exported, "--svg"))) == backs(mine)
    hands = json.loads(show(exported, "--json"))["position"]["hands"]
    assert hands["p1"] is not None and hands["p2"] is None
    refused = run("show", str(exported), "--as", "p2")
    assert refused.returncode != 0 and refused.stdout == ""
    assert len(refused.stderr.splitlines()) == 1 and "p1's view only" in refused.stderr


def test_a_page_may_hold_the_definitions_once_and_each_picture_without_them() -> None:
    session = sample_session("super-horse-chess", 0)
    drawn = [render.picture(session, ply) for ply in plies_of(session, 4)]
    defs = svg.render_defs(drawn, ids="g-")
    bodies = [svg.render_body(d, ids="g-") for d in drawn]
    defined = set(re.findall(r'\bid="([^"]+)"', defs))
    assert {"g-fig-king", "g-fig-trojan-horse", "g-hatch", "g-back"} <= defined
    for body in bodies:
        parse(body)
        assert "<defs" not in body and "<symbol" not in body
        refs = set(re.findall(r'href="#([^"]+)"', body)) | set(
            re.findall(r"url\(#([^)]+)\)", body))
        assert refs and refs <= defined
    whole = svg.to_svg(drawn[-1], ids="g-")
    assert len(whole) > len(bodies[-1]) and whole.count("<symbol") >= 6


@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_piece_and_card_of_a_position_is_drawn_once(gid: str) -> None:
    """From every seat: each board draws as many pieces as its position has occupied cells,
    and each row as many cards, dominoes or tiles (face or back) as it holds."""
    session = sample_session(gid, 0)
    for ply in plies_of(session, 3):
        for who in viewers_of(session):
            drawn = render.picture(session, ply, who)
            root = parse(svg.to_svg(drawn))
            grids = [g for g in root.iter(f"{NS}g") if g.get("class") == "grid"]
            rows = [g for g in root.iter(f"{NS}g") if g.get("class") == "row"]
            parts = diagram.walk(drawn.parts)
            boards = [p for p in parts if isinstance(p, diagram.Grid)]
            lines = [p for p in parts if isinstance(p, diagram.Row)]
            assert len(grids) == len(boards) and len(rows) == len(lines), (ply, who)
            for group, board in zip(grids, boards, strict=True):
                pieces = [g for g in group.iter(f"{NS}g") if g.get("class") == "piece"]
                assert len(pieces) == len(board.cells), (ply, who)
                cells = {r.get("data-cell") for r in group.iter(f"{NS}rect")
                         if r.get("data-cell")}
                assert len(cells) == len(board.files) * len(board.ranks), (ply, who)
            for group, line in zip(rows, lines, strict=True):
                items = [g for g in group.iter(f"{NS}g")
                         if (g.get("class") or "").startswith("item ")]
                assert len(items) == len(line.items), (ply, who, line.title)


def test_the_new_kinds_of_part_are_drawn_from_plain_data() -> None:
    """Figures by name, points placed on a drawn board, trays, labelled groups, crosswise
    dominoes and tiles with a sign: all plain data, drawn by a renderer that knows no game."""
    grid = diagram.Grid(("a", "b"), ("2", "1"),
                        {(0, 0): diagram.Piece("X", "dark", figure="rook"),
                         (1, 1): diagram.Piece("Y", "light", figure="rook"),
                         (1, 0): diagram.Piece("Z", "neutral", figure="trojan-horse")},
                        checkered=True, board="wood", alert=frozenset({(0, 0)}))
    spike = diagram.Point("1", (diagram.seat_piece(0, "A", 7), diagram.seat_piece(1, "B", 1)),
                          marked=True, at=(0.0, 0.0), toward=90.0)
    tray = diagram.Point("tray", (diagram.seat_piece(1, "B", 2),), at=(3.0, 0.0), toward=0.0,
                         kind="tray")
    track = diagram.Track(((spike, tray),), outline=(((-1.0, -1.0), (9.0, -1.0), (9.0, 6.0)),))
    row = diagram.Row("melds", (diagram.Card("6-6", kind="domino", across=True),
                                diagram.Card("2-3", kind="domino"),
                                diagram.Card("7", "green", "tile", figure="bamboo", name="7b")),
                      groups=(("first", 2), ("second", 1)))
    root = parse(svg.to_svg(diagram.Diagram((grid, track, row))))
    words = svg_words(ET.tostring(root, encoding="unicode"))
    for word in ("first", "second", "7b", "6-6", "tray"):
        assert word in words, word
    symbols = [s.get("id") for s in root.iter(f"{NS}symbol")]
    assert sorted(symbols) == ["fig-bamboo", "fig-rook", "fig-trojan-horse"]
    assert len(list(root.iter(f"{NS}use"))) == 4
    pips = [c for c in root.iter(f"{NS}circle") if c.get("class") == "pip"]
    assert len(pips) == 6 + 6 + 2 + 3
    stacks = [g for g in root.iter(f"{NS}g") if g.get("class") == "stack"]
    assert [(g.get("data-point"), g.get("data-count")) for g in stacks] == [
        ("1", "7"), ("1", "1"), ("tray", "2")]
    # five places: four for the seven of the first seat, its count on the last, one for B
    assert [t.text for t in stacks[0].iter(f"{NS}text")] == ["A", "A", "A", "7"]
    assert [t.text for t in stacks[1].iter(f"{NS}text")] == ["B"]
    with pytest.raises(KeyError):
        svg.to_svg(diagram.Diagram((diagram.Grid(("a",), ("1",), {
            (0, 0): diagram.Piece("?", figure="no-such-shape")}),)))
