"""Seat names: a record's own names in every text players read, either spelling on input."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import PLAYABLE, svg_words

from gametool import games
from gametool.cli import cli
from gametool.core.errors import IllegalAction, MalformedAction
from gametool.core.seatnames import SeatNames, with_names
from gametool.players.auto import random_game
from gametool.records import Session, load_one
from gametool.views import render

DEFAULT_NAME = re.compile(r"(?<![\w\-/*])p\d+(?![\w\-/*])")  # a FEN's /p1*/ names no seat
THREE = {"two-headed-dragon": "ann,ben,cy", "johari-bones": "ann,ben,cy",
         "western-mahjong": "ann,ben"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def started(tmp_path: Path, gid: str, *more: str) -> Path:
    path = tmp_path / f"{gid}.gtn"
    code, out = run("start", gid, "--players", THREE[gid], *more, "-o", str(path))
    assert code == 0, out
    return path


@pytest.mark.parametrize("gid", sorted(THREE))
def test_record_show_and_moves_say_the_seat_names(tmp_path: Path, gid: str) -> None:
    path = started(tmp_path, gid, "--seed", "7")
    text = path.read_text()
    assert "chance: deal ann: " in text and "deal ben: " in text
    assert not DEFAULT_NAME.search(text)
    code, shown = run("show", str(path))
    assert code == 0 and not DEFAULT_NAME.search(shown) and "ann" in shown
    code, listed = run("moves", str(path))
    assert code == 0 and not DEFAULT_NAME.search(listed)
    code, data = run("show", "--json", str(path))
    assert code == 0 and not DEFAULT_NAME.search(data)


def test_dragon_leader_and_errors_say_the_seat_names(tmp_path: Path) -> None:
    path = started(tmp_path, "two-headed-dragon", "--seed", "7")
    assert re.search(r"^4\. chance: leader (ann|ben|cy)$", path.read_text(), re.M)
    session = load_one(path.read_text())
    leader = json.loads(run("show", "--json", str(path))[1])["position"]["leader"]
    assert leader == session.names[session.to_move()]
    hand = session.state.hands[session.to_move()]
    tile = next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if (a, b) not in hand)
    code, out = run("move", str(path), f"lead {tile} open {tile[0]}")
    assert code != 0 and f"{leader} holds no {tile}" in out


def test_johari_errors_and_moves_say_the_seat_names(tmp_path: Path) -> None:
    path = started(tmp_path, "johari-bones", "--no-seed")
    code, out = run("move", str(path), "deal ann: 1-4 6-6 3-3 2-5", "deal ben: 1-6 2-6 1-5 2-3",
                    "deal cy: 4-4 5-5 5-6 0-3")
    assert code == 0, out
    code, out = run("move", str(path), "drawn 3-4")
    assert code != 0 and "ann is to move; a bone is drawn only after ann: draw" in out
    assert "swap up ben" in run("moves", str(path))[1].split("\n")
    data = json.loads(run("show", "--json", str(path))[1])["position"]
    assert data["dealer"] == "cy" and data["first"] == "ann"
    assert set(data["positions"]) == set(data["sheets"]) == {"ann", "ben", "cy"}


def test_mahjong_errors_and_json_say_the_seat_names(tmp_path: Path) -> None:
    path = started(tmp_path, "western-mahjong", "--no-seed")
    code, out = run("move", str(path), "deal ben: 1b 1b 1b 1b 2b 2b 2b 2b 3b 3b 3b 3b 4b 4b")
    assert code != 0 and "deal ben: ann is dealt now" in out
    assert json.loads(run("show", "--json", str(path))[1])["position"]["leader"] == "ann"


@pytest.mark.parametrize("gid", sorted(THREE))
def test_default_spellings_still_read_and_are_written_as_names(tmp_path: Path, gid: str
                                                                ) -> None:
    named = started(tmp_path, gid, "--seed", "7").read_text()
    names = THREE[gid].split(",")
    header, body = named.split("\n\n", 1)
    for i, name in enumerate(names):
        body = re.sub(rf"(?<=deal ){name}:", f"p{i + 1}:", body)
        body = re.sub(rf"(?<=leader ){name}$", f"p{i + 1}", body, flags=re.M)
    old = f"{header}\n\n{body}"
    assert "deal p1: " in old
    session = load_one(old)
    assert session.names == names and session.ply == load_one(named).ply
    assert session.text() == named


def test_json_leader_is_a_seat_name_in_every_game() -> None:
    for gid in PLAYABLE:
        game_cls = games.playable_class(gid)
        names = [f"s{i}" for i in range(game_cls.players_default())]
        session = Session.start(gid, names, seed="1")
        while session.to_move() is not None and session.ply < 40:
            session.push(session.game.legal_actions(session.state)[0])
            position = render.show_data(session, session.ply)["position"]
            if isinstance(position, dict) and position.get("leader") is not None:
                assert position["leader"] in names, gid


def test_a_name_that_is_also_a_word_of_the_game_reads_as_written() -> None:
    game = with_names(games.playable_class("two-headed-dragon")(), ["open", "lead", "cy"])
    state = game.initial_state(3)
    assert game.format_action(state, ("leader", 1)) == "leader lead"
    def read(text: str) -> str:
        if text != "lead 1-1 open 1":
            raise IllegalAction(f"{text!r}: no")
        return text
    assert SeatNames(["open", "ben"]).reading("lead 1-1 open 1", read) == "lead 1-1 open 1"
    assert SeatNames(["ann", "ben"]).inward("deal ANN: 1-1") == "deal p1: 1-1"
    mail = SeatNames(["ann@example.org", "cy@example.com"])
    assert mail.inward("draw>cy@example.com.out") == "draw>p2.out"
    assert mail.outward("draw>p2.out") == "draw>cy@example.com.out"


def test_default_names_need_no_translation_and_the_named_game_pickles() -> None:
    dragon = games.playable_class("two-headed-dragon")()
    assert with_names(dragon, ["p1", "p2", "p3"]) is dragon
    assert with_names(dragon, ["p2", "p1", "p3"]) is dragon  # ambiguous: defaults stay
    named = pickle.loads(pickle.dumps(with_names(dragon, ["ann", "ben", "cy"])))
    assert named.format_action(named.initial_state(3), ("leader", 2)) == "leader cy"
    renamed = with_names(named, ["dee", "eve", "fay"])  # a named game named afresh
    assert renamed.format_action(renamed.initial_state(3), ("leader", 2)) == "leader fay"
    assert with_names(renamed, ["dee", "eve", "fay"]) is renamed  # it speaks them already
    assert named.format_action(named.initial_state(3), ("leader", 2)) == "leader cy"
    salvo = with_names(games.playable_class("special-salvo")({"referee": "off"}), ["ann", "ben"])
    assert salvo.view(salvo.initial_state(2), None)["commits"] == {"ann": None, "ben": None}
    belemmer = with_names(games.playable_class("belemmer")(), ["ann", "ben"])
    assert with_names(belemmer, ["cy", "dee"]).view(belemmer.initial_state(2), None)[
        "colours"] == {"cy": "red", "dee": "black"}


@pytest.mark.parametrize("gid", PLAYABLE)
def test_no_text_of_any_game_says_a_default_seat_name(tmp_path: Path, gid: str) -> None:
    """Whatever a game writes for seats named otherwise (record, show, moves, JSON, the
    computer's moves) says those names, never p1..pN."""
    players = games.playable_class(gid).players_default()
    names = ",".join(["ann", "ben", "cy", "dee", "eve", "fay"][:players])
    for seed in ("1", "2"):
        path = tmp_path / f"{gid}-{seed}.gtn"
        code, out = run("start", gid, "--players", names, "--seed", seed, "-o", str(path))
        assert code == 0, out
        for _ in range(6):
            if run("move", str(path), "--auto", "random", "--seed", seed)[0] != 0:
                break
            for args in (["show"], ["show", "--json"], ["moves"], ["moves", "--json"]):
                code, out = run(*args, str(path))
                assert not DEFAULT_NAME.search(out), f"{gid} {args}: {out}"
        assert not DEFAULT_NAME.search(path.read_text()), path.read_text()


def test_gami_deals_and_their_errors_say_the_seat_names(tmp_path: Path) -> None:
    path = tmp_path / "gami.gtn"
    assert run("start", "gami-plus", "--players", "ann,ben", "--no-seed", "-o", str(path))[0] == 0
    code, out = run("move", str(path), "deal ben: 3H 6H 8H AC 3C 7C 3D 4D 6D")
    assert code != 0 and "deal ben: ann's hand is dealt next (ann, then ben;" in out
    code, out = run("move", str(path), "deal ann: AH 2H 4H 5C 6C 2D 5D 8D QH",
                    "deal ben: 3H 6H 8H AC 3C 7C 3D 4D 6D")
    assert code == 0, out
    lines = path.read_text().splitlines()
    assert lines[-2:] == ["1. chance: deal ann: AH 2H 4H 5C 6C 2D 5D 8D QH",
                          "2. chance: deal ben: 3H 6H 8H AC 3C 7C 3D 4D 6D"]
    whole = tmp_path / "whole.gtn"
    run("start", "gami-plus", "--players", "ann,ben", "--seed", "3", "-o", str(whole))
    assert re.search(r"^1\. chance: deal ann: (\w\w ){9}ben: (\w\w ){9}table: ",
                     whole.read_text(), re.M)



def _places(data: object, path: str = "") -> Iterator[tuple[str, object, object]]:
    """Every value in ``data`` with its place (keys joined by '/', '*' for a list item) and
    the mapping or list that holds it."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield f"{path}/{key}", value, data
            yield from _places(value, f"{path}/{key}")
    elif isinstance(data, list):
        for value in data:
            yield f"{path}/*", value, data
            yield from _places(value, f"{path}/*")


def seat_convention_breaches(gid: str, frames: list[dict[str, Any]]) -> list[str]:
    """What names a seat otherwise than by the record's seat name in the ``position`` of
    ``show --json`` frames (every ply of a game from its start, as every viewer sees it).

    The rule, for N seats:

    1. no mapping is keyed by seats otherwise: by their numbers (keys ``0..N-1`` or ``1..N``)
       or by a seat's colour or side (``Game.seat_names``, any case, or its initial letter);
    2. a string that is a seat's colour or side (or its initial) stands only as that seat's
       own entry in a mapping keyed by the seat names (``"colours": {"ann": "Black"}``);
    3. no list has one item per seat: no place outside a seat's own entry holds a list of
       exactly N items in every frame, unless that list is the same in every frame (a fixed
       layout, such as a board's special spaces);
    4. no number stands for the seat to move: no place holds an integer equal to the index of
       the seat to move in every frame where a seat is to move (these frames having at least
       two different seats to move).
    """
    cls = games.playable_class(gid)
    names = frames[0]["players"]
    n = len(names)
    words = {w.lower() for w in cls.seat_names if not DEFAULT_NAME.fullmatch(w)}
    words |= {w[0] for w in words}
    by_number = [{str(i) for i in range(n)}, {str(i + 1) for i in range(n)}]
    breaches: list[str] = []
    lists: dict[str, list[Any]] = {}
    numbers: dict[str, list[Any]] = {}
    for k, frame in enumerate(frames):
        lists_here: dict[str, Any] = {}
        numbers_here: dict[str, Any] = {}
        for place, value, holder in _places(frame["position"], "position"):
            keys = {str(key).lower() for key in value} if isinstance(value, dict) else set()
            if keys and (keys in by_number or keys & words):
                breaches.append(f"{place}: keyed {sorted(value)}")
            elif isinstance(value, str) and value.lower() in words and not (
                    isinstance(holder, dict) and set(holder) == set(names)):
                breaches.append(f"{place}: {value!r} names a seat")
            elif (isinstance(value, list) and len(value) == n
                  and not set(place.split("/")) & set(names)):
                lists_here[place] = value
            elif isinstance(value, int) and not isinstance(value, bool):
                numbers_here[place] = value
        for place in set(lists) | set(lists_here):
            lists.setdefault(place, [None] * k).append(lists_here.get(place))
        for place in set(numbers) | set(numbers_here):
            numbers.setdefault(place, [None] * k).append(numbers_here.get(place))
    for place, values in lists.items():
        if None not in values and any(v != values[0] for v in values):
            breaches.append(f"{place}: a list of one item per seat")
    seated = [(k, names.index(f["to_move"])) for k, f in enumerate(frames)
              if f["to_move"] in names]
    if len({seat for _k, seat in seated}) > 1:
        breaches += [f"{place}: the number of the seat to move" for place, values
                     in numbers.items() if all(values[k] == seat for k, seat in seated)]
    return sorted(set(breaches))


VARIANTS = [(gid, "", 0) for gid in PLAYABLE] + [
    (gid, options, players) for gid, options, players in (
        ("super-horse-chess", "horses=owned", 0), ("space-cards", "", 4),
        ("two-headed-dragon", "", 3), ("johari-bones", "", 4))
    if gid in PLAYABLE]
"""Every game as it starts by default, and the options and seat counts whose views differ."""


@pytest.mark.parametrize(("gid", "options", "players"), VARIANTS)
def test_json_names_every_seat_by_its_name(tmp_path: Path, gid: str, options: str,
                                           players: int) -> None:
    """Everywhere ``show --json``'s position refers to a seat (a value naming one, a mapping
    with a value per seat) it says the record's seat name; see seat_convention_breaches.
    Two seeded random games (at most 300 plies each), every ply, as every seat, as a
    spectator and as the master record shows it."""
    players = players or games.playable_class(gid).players_default()
    names = ["ann", "ben", "cy", "dee"][:players]
    settings = dict([options.split("=")]) if options else None
    breaches = []
    for seed in ("1", "2"):
        session = random_game(gid, seed, names, settings, max_plies=300)
        for viewer in (*names, "spectator", None):  # None last: show --json's master view
            frames = [json.loads(json.dumps(render.show_data(session, ply, viewer)))
                      for ply in range(session.ply + 1)]
            breaches += seat_convention_breaches(gid, frames)
        path = tmp_path / f"{gid}-{seed}.gtn"
        path.write_text(session.text())
        assert json.loads(run("show", "--json", str(path))[1]) == frames[-1]
    assert not breaches, "\n".join(sorted(set(breaches)))


def test_a_board_text_is_never_read_as_naming_a_seat() -> None:
    """A FEN's "p1*" or "/p2/" (a pawn beside a square count, a horse, a rank's end) names no
    seat; a default name written on its own still does."""
    names = SeatNames(["ann", "ben"])
    fen = "4k3/p1*5/8/7p/8/8/P2*4/4K3 b - - 0 1"
    assert names.outward(fen) == fen and names.outward(f"FEN: {fen}") == f"FEN: {fen}"
    assert names.outward("p1 3-3 open 3, draw>p2.out") == "ann 3-3 open 3, draw>ben.out"
    game = with_names(games.playable_class("super-horse-chess")(), ["ann", "ben"])
    state = game.decode_position(fen, 2)
    assert game.view(state, None)["fen"] == fen and f"FEN: {fen}" in game.render(
        state, None, ["ann", "ben"])


def test_a_name_that_is_a_word_of_the_game_keeps_the_games_own_error(tmp_path: Path) -> None:
    """A text that does not read once a name in it is replaced, but reads as written and is
    refused there, is refused for what it is (the card seen already), not as unreadable."""
    def read(text: str) -> str:
        if "p1" in text:
            raise MalformedAction(f"{text!r}: expected colour")
        raise IllegalAction("KH has been seen already")
    with pytest.raises(IllegalAction, match="seen already"):
        SeatNames(["red", "black"]).reading("reveal red KH", read)
    path = tmp_path / "b.gtn"
    run("start", "belemmer", "--players", "red,black", "--no-seed", "-o", str(path))
    assert run("move", str(path), "reveal red KH", "reveal black 3C", "place b3")[0] == 0
    code, out = run("move", str(path), "reveal red KH")
    assert code == 1 and "KH has been seen already" in out and "Expected" not in out


@pytest.mark.parametrize("gid", PLAYABLE)
def test_pictures_and_boards_of_named_seats_say_the_names(gid: str) -> None:
    """show and show --svg of a record with named seats, as every viewer, at plies spread over
    a random game: drawn from views keyed by those names, they say the names and no default
    one."""
    players = games.playable_class(gid).players_default()
    names = ["ann", "ben", "cy", "dee"][:players]
    session = random_game(gid, "pictures", names, max_plies=300)
    for ply in sorted({session.ply * k // 4 for k in range(5)}):
        for viewer in (None, "spectator", *names):
            words = svg_words(render.show_svg(session, ply, viewer))
            text = render.show_text(session, ply, viewer)
            assert not DEFAULT_NAME.search(words) and not DEFAULT_NAME.search(text), (ply,
                                                                                     viewer)
            assert "ann" in words and "ann" in text


# Seat names that are also words of the game's actions (which name seats): refused, since
# ``draw>me.up`` or ``deal deal: ...`` would read two ways; names that only contain such a word
# read back as written.
GAME_WORDS = {
    "johari-bones": (["deal", "me", "up", "in", "out", "draw", "drawn", "swap", "score", "2-5"],
                     [["ann", "ben", "dealer"], ["me2", "up-ann", "out.b"]]),
    "two-headed-dragon": (["leader", "lead", "open", "deal", "1-3", "4"],
                          [["ann", "ben", "leaders"], ["1-3a", "open-b", "cy"]]),
    "western-mahjong": (["deal", "EW", "5k", "meld", "wall", "2"],
                        [["dealer", "ben"], ["EWx", "k5"]]),
    "gami-plus": (["table", "deal", "AH", "10d", "claim"], [["ann", "tables"], ["AHx", "deal-b"]]),
    "special-salvo": (["fire", "report", "miss", "a1", "cv", "j10"],
                      [["fires", "b"], ["a1b", "cvx"]]),
}


@pytest.mark.parametrize("gid", sorted(GAME_WORDS))
def test_a_seat_name_that_is_a_word_of_the_actions_is_refused(tmp_path: Path, gid: str) -> None:
    from gametool.players.auto import random_game

    refused, allowed = GAME_WORDS[gid]
    players = games.playable_class(gid).players_default()
    for word in refused:
        names = [word, *["ann", "ben", "cy", "dee"][:players - 1]]
        code, out = run("start", gid, "--players", ",".join(names), "-o", str(tmp_path / "x"))
        assert code == 1 and "is also a word of the actions of" in out, (word, out)
        assert not (tmp_path / "x").exists()
    for names in allowed:
        names = names[:players] + ["fay", "gus", "hal"][:max(0, players - len(names))]
        for seed in ("1", "2", "3"):
            session = random_game(gid, seed, names=names, max_plies=150)
            text = session.text()
            again = load_one(text)
            assert again.text() == text and again.ply == session.ply, (names, seed)
            assert [s.action for s in again.steps] == [s.action for s in session.steps]
