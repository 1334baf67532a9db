"""No peeking: nothing a seat is told depends on a value that seat may not yet see.

For every game with chance or hidden information, at positions of a seeded random game, every
seat submits actions that run on past a chance action: wrong second actions, and actions that
name cards, tiles or dice drawn in one world and not in another. Each submission is answered in
several worlds that differ only in what the submitting seat cannot see (the game's
``randomize_hidden`` for the hidden part of the position, and another seed for the draws to
come). Whether it is accepted, and the text of its rejection, must be the same in every world.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import PLAYABLE

from gametool import games
from gametool.cli import cli
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE
from gametool.core.errors import GameError
from gametool.records import Session

LEAK_GAMES = [gid for gid in PLAYABLE
              if games.playable_class(gid).chance or
              games.playable_class(gid).hidden not in ("", "none")]
WORLDS = 3
POSITIONS = 10
FOLLOWERS = 4
COUNT_KEY = "count:leak probes (submissions checked for answers that depend on hidden values)"


def fork(session: Session, state: Any, seed: str | None) -> Session:
    """A copy of ``session`` whose current position is ``state`` and whose seed is ``seed``."""
    twin = Session(session.game, session.names, copy.deepcopy(session.record), seed,
                   session.states[0], session.file)
    twin.states = [*session.states[:-1], state]
    twin.steps = list(session.steps)
    return twin


def worlds(session: Session, seat: int) -> list[Session]:
    """The record as it is, and records that differ only in what ``seat`` cannot see."""
    out = [fork(session, session.state, session.seed)]
    for k in range(1, WORLDS):
        state = session.game.randomize_hidden(session.state, seat, SeedRng(f"world-{k}",
                                                                           session.ply))
        out.append(fork(session, state, f"{session.seed}/world-{k}"))
    return out


def answer(session: Session, texts: list[str], seat: str) -> tuple[int, str]:
    """What ``seat`` is told about its submission: the exit status and the rejection text."""
    try:
        session.play(texts, seat)
    except GameError as exc:
        return 1, str(exc)
    return 0, ""


def followers(session: Session, first: str, seat: str) -> list[str]:
    """Actions the seat could type after ``first`` once chance has acted, in any world."""
    index = session.seat_index(seat)
    texts: list[str] = []
    for world in worlds(session, index):
        try:
            world.play([first], seat)
        except GameError:
            continue
        state = world.state
        if world.game.to_move(state) == index:
            legal = [world.game.format_action(state, a) for a in world.game.legal_actions(state)]
            texts += [t for t in legal[:: max(1, len(legal) // FOLLOWERS)] if t not in texts]
    return texts[: FOLLOWERS * WORLDS]


def submissions(session: Session) -> list[tuple[str, list[str]]]:
    """The submissions probed at this position: (seat, actions)."""
    game, state = session.game, session.state
    mover = game.to_move(state)
    legal = [game.format_action(state, a) for a in game.legal_actions(state)]
    out: list[tuple[str, list[str]]] = []
    for seat, name in enumerate(session.names):
        if seat != mover:
            out.append((name, [legal[0], "zz"]))
    name = session.names[mover]
    chance_next = []
    for text in legal:
        world = fork(session, state, session.seed)
        world.play([text], name)
        if any(step.seat == CHANCE for step in world.steps[session.ply:]):
            chance_next.append(text)
    picked = chance_next[:: max(1, len(chance_next) // 3)][:3] or legal[:1]
    for first in picked:
        after = followers(session, first, name)
        for second in ["zz", "resign", *after]:
            out.append((name, [first, second]))
        out.append((name, [first, after[0] if after else "resign", "zz"]))
    return out


def probe(session: Session) -> int:
    """Answer every submission at this position in every world; return how many were sent."""
    sent = 0
    for name, texts in submissions(session):
        seat = session.seat_index(name)
        answers = {answer(world, texts, name) for world in worlds(session, seat)}
        assert len(answers) == 1, (f"{session.game.id}, ply {session.ply}, {name} sends "
                                   f"{texts}: the answer depends on hidden values: {answers}")
        sent += 1
    return sent


@pytest.mark.parametrize("gid", LEAK_GAMES)
def test_no_answer_depends_on_what_the_seat_cannot_see(gid: str, record_property: Any) -> None:
    session = Session.start(gid, seed=f"leaks-{gid}")
    game = session.game
    sent = positions = ply = 0
    while not game.is_over(session.state) and positions < POSITIONS and ply < 400:
        if game.to_move(session.state) != CHANCE and ply % 3 == 0:
            sent += probe(session)
            positions += 1
        actions = game.legal_actions(session.state)
        session.push(SeedRng(f"leaks-{gid}:players", ply).choice(actions))
        ply += 1
    assert positions > 0 and sent > 0
    record_property(COUNT_KEY, sent)


def test_a_space_cards_trade_then_a_second_trade_names_no_drawn_card(
        tmp_path: Any, record_property: Any) -> None:
    runner = CliRunner()
    path = tmp_path / "sc.gtn"
    assert runner.invoke(cli, ["start", "space-cards", "--players", "ann,ben", "--seed", "s1",
                               "-o", str(path)]).exit_code == 0
    session = _load(path)
    held = session.game.view(session.state, 0)["hand"]
    before = path.read_bytes()
    result = runner.invoke(cli, ["move", str(path), f"trade {' '.join(held[:3])}", "trade 7T",
                                 "--as", "ann"])
    assert result.exit_code == 1
    assert path.read_bytes() == before
    message = result.output
    assert "trade 7T" in message and "nothing was played" in message
    # Committing the trade alone draws three cards: none of them was named before.
    assert runner.invoke(cli, ["move", str(path), f"trade {' '.join(held[:3])}",
                               "--as", "ann"]).exit_code == 0
    drawn = _load(path).steps[-1].text.split(":")[1].split()
    assert len(drawn) == 3
    assert not any(card in message for card in drawn)
    record_property(COUNT_KEY, 1)


def test_a_mahjong_draw_then_a_discard_names_no_wall_tile(tmp_path: Any,
                                                         record_property: Any) -> None:
    runner = CliRunner()
    path = tmp_path / "wm.gtn"
    assert runner.invoke(cli, ["start", "western-mahjong", "--players", "ann,ben", "--seed",
                               "s1", "-o", str(path)]).exit_code == 0
    before = path.read_bytes()
    result = runner.invoke(cli, ["move", str(path), "draw wall", "discard 9k", "zz",
                                 "--as", "ann"])
    assert result.exit_code == 1
    assert path.read_bytes() == before
    message = result.output
    assert runner.invoke(cli, ["move", str(path), "draw wall", "--as", "ann"]).exit_code == 0
    drawn = _load(path).steps[-1].text.split()[-1]
    assert f" {drawn}" not in message.replace("'discard 9k'", "")
    assert "nothing was played" in message
    record_property(COUNT_KEY, 1)


def _load(path: Any) -> Session:
    from gametool.records import load_one

    return load_one(path.read_text(), str(path))


def test_a_mailed_trade_then_a_second_trade_is_refused_naming_no_drawn_card(
        tmp_path: Any, record_property: Any) -> None:
    from test_referee import ANN, BEN, compose, join_all, keys_of

    from gametool.referee.referee import Referee

    games_dir = tmp_path / "games"
    ref = Referee(games_dir, tmp_path / "outbox")
    match, opening = ref.new("space-cards", [ANN, BEN], seed="peek-by-mail", weak_seed_ok=True)
    keys = keys_of(opening)
    join_all(ref, match, keys)
    master = games_dir / f"{match}.gtn"
    before = master.read_bytes()
    session = _load(master)
    held = session.game.view(session.state, 0)["hand"]
    trade = f"trade {' '.join(held[:3])}"
    guard = f"#key {keys[ANN]}\n#ply {session.ply + 1}\n"
    receipt = ref.receive(compose(ANN, f"Re: [gametool {match}] ply", guard + f"{trade}\n"
                                  "trade 7T\n"))
    assert not receipt.applied and master.read_bytes() == before
    reply = "\n".join(m.body for m in receipt.messages)
    assert "trade 7T" in (receipt.reason or "") + reply
    # The trade mailed alone is applied, and none of the cards it draws was named before.
    assert ref.receive(compose(ANN, f"Re: [gametool {match}] ply", guard + f"{trade}\n")).applied
    drawn = _load(master).steps[-1].text.split(":")[1].split()
    assert len(drawn) == 3
    assert not any(card in reply for card in drawn)
    record_property(COUNT_KEY, 1)
