"""The conformance suite: invariants every registered game must keep, with no per-game code.

- seeded random self-play ends within the game's ``max_plies``, with no crash and no dead end;
- every listed action is unique in its position and parses back to itself;
- a written record replays to the same states and writes back to the same text;
- what a seat sees does not depend on what it cannot see, and the referee (the master record)
  sees all that any seat sees;
- fuzzed action strings and fuzzed records give clean errors, never anything else.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import PLAYABLE, SELFPLAY_GAMES, sample_session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametool import games
from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, HIDDEN_VALUE, REFEREE
from gametool.core.errors import GameError
from gametool.players.auto import random_action
from gametool.records import Session, check_text, load_one

ROUND_TRIP_GAMES = 4
STATES_LOOKED_AT = 200
"""At most this many states of each game, evenly spread, have every listed action written and
read back (a long Super Horse Chess game lists thousands of actions at each of ~1,000 plies),
and each seat's view compared with the view of a state whose hidden values were drawn again."""


def spread(states: list[Any]) -> list[Any]:
    step = max(1, -(-len(states) // STATES_LOOKED_AT))
    return [*states[:-1:step], states[-1]]


@pytest.mark.parametrize("gid", PLAYABLE)
def test_random_self_play_ends_within_max_plies(gid: str) -> None:
    game = games.playable_class(gid)()
    nseats = game.players_default()
    lengths = []
    for index in range(SELFPLAY_GAMES):
        state = game.initial_state(nseats)
        ply = 0
        while game.to_move(state) is not None:
            assert ply < game.max_plies, f"{gid} game {index} passed max_plies"
            try:  # (the legal actions are listed once a ply: random_action refuses none)
                action = random_action(game, state, SeedRng(f"self-{index}", ply))
            except GameError as exc:
                pytest.fail(f"{gid} game {index}, ply {ply}: {exc}")
            state = game.apply(state, action)
            ply += 1
        assert game.outcome(state) is not None
        lengths.append(ply)
    assert max(lengths) <= game.max_plies


@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_listed_action_is_unique_and_round_trips(gid: str) -> None:
    for index in range(ROUND_TRIP_GAMES):
        session = sample_session(gid, index)
        game = session.game
        for state in spread(session.states):
            seat = game.to_move(state)
            if seat is None:
                continue
            actions = (game.legal_actions(state) if seat != CHANCE
                       else game.chance_outcomes(state) or [])
            texts = [game.format_action(state, a) for a in actions]
            assert len(set(texts)) == len(texts), f"duplicate action text in {gid}"
            assert len(set(actions)) == len(actions)
            for action, text in zip(actions, texts, strict=True):
                assert game.parse_action(state, text) == action, text


@pytest.mark.parametrize("gid", PLAYABLE)
def test_written_record_replays_to_the_same_states(gid: str) -> None:
    for index in range(ROUND_TRIP_GAMES):
        session = sample_session(gid, index)
        text = session.text()
        again = load_one(text)
        assert again.states == session.states
        assert again.text() == text  # the canonical writer is a fixpoint
        outcome = session.game.outcome(session.state)
        assert outcome is not None
        assert f'[Result "{outcome.result_tag()}"]' in text


@pytest.mark.parametrize("gid", PLAYABLE)
def test_views_do_not_depend_on_what_the_seat_cannot_see(gid: str) -> None:
    for index in range(ROUND_TRIP_GAMES):
        session = sample_session(gid, index)
        game = session.game
        # (a Western Mahjong game runs to 2,400 plies: its states are spread, see above)
        for ply, state in enumerate(spread(session.states)):
            for seat in [None, *range(len(session.names))]:
                other = game.randomize_hidden(state, seat, SeedRng(f"hide-{index}", ply))
                assert game.view(other, seat) == game.view(state, seat)
                assert (game.render(other, seat, session.names)
                        == game.render(state, seat, session.names))


def _shown_within(seen: Any, whole: Any, path: str = "") -> list[str]:
    """Where ``seen`` (a seat's view) shows a value that ``whole`` (the referee's) does not
    show alike: a value hidden from the seat (None, '?') may be anything in ``whole``."""
    if seen is None or seen == HIDDEN_VALUE:
        return []
    if isinstance(seen, dict) and isinstance(whole, dict):
        return [gap for key, value in seen.items()
                for gap in (_shown_within(value, whole[key], f"{path}.{key}") if key in whole
                            else [f"{path}.{key}: missing"])]
    return [] if seen == whole else [f"{path}: {seen!r} against {whole!r}"]


@pytest.mark.parametrize("gid", [g for g in PLAYABLE
                                 if games.playable_class(g).hidden not in ("", "none")])
def test_the_referee_sees_all_that_any_seat_sees(gid: str) -> None:
    """The view of the master record (``REFEREE``) holds every value any seat's view shows,
    and somewhere more than a spectator's (a hand, a fleet, a pile's order)."""
    session = sample_session(gid, 0)
    game = session.game
    beyond = 0
    for state in session.states[:: max(1, session.ply // 40)]:
        whole = game.view(state, REFEREE)
        spectator = game.view(state, None)
        for seat in range(len(session.names)):
            seen = game.view(state, seat)
            assert not _shown_within(seen, whole), _shown_within(seen, whole)
        beyond += whole != spectator
        assert game.render(state, REFEREE, session.names)
        assert game.diagram(state, REFEREE, session.names).parts
    if gid != "space-cards":  # (everything dealt there is public; the deck has no order yet)
        assert beyond > 0


@pytest.mark.parametrize("gid", PLAYABLE)
def test_every_position_of_a_game_can_be_shown(gid: str) -> None:
    from gametool.views import render

    session = sample_session(gid, 0)
    for ply in range(0, session.ply + 1, max(1, session.ply // 10)):
        for seat in [None, *session.names]:
            assert render.show_text(session, ply, seat)
            assert render.show_data(session, ply, seat)["ply"] == ply


def _positions(gid: str) -> list[tuple[Any, Any]]:
    session = sample_session(gid, 1)
    return [(session.game, s) for s in session.states[:: max(1, session.ply // 8)]]


action_text = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="abcdefghABCDEFGH0123456789=-/@*:|x ?KQJRSDHC", max_size=20),
    st.sampled_from(["", " ", "resign", "pass", "RESIGN", "a1", "a1=B", "a0-b9", "toss heads",
                     "roll 6-6", "place z9", "shuffle red"]),
)


@pytest.mark.parametrize("gid", PLAYABLE)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=action_text)
def test_fuzzed_actions_give_clean_errors(gid: str, text: str) -> None:
    for game, state in _positions(gid):
        try:
            action = game.parse_action(state, text)
        except GameError as exc:
            assert str(exc) and "\n" not in str(exc)
            continue
        seat = game.to_move(state)
        if seat is not None and seat != CHANCE and action != "resign":
            assert action in game.legal_actions(state) or game.format_action(state, action)


@pytest.mark.parametrize("gid", PLAYABLE)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_records_give_clean_errors(gid: str, data: st.DataObject) -> None:
    text = sample_session(gid, 2).text()
    start = data.draw(st.integers(0, len(text)))
    length = data.draw(st.integers(0, 12))
    insert = data.draw(st.text(max_size=8))
    mutated = text[:start] + insert + text[start + length:]
    for verdict in check_text(mutated, "fuzz.gtn", all_errors=data.draw(st.booleans())):
        for error in verdict.errors:
            assert isinstance(error, GameError)
            assert "\n" not in str(error)


@pytest.mark.parametrize("gid", PLAYABLE)
def test_resign_ends_the_game_for_the_seat_to_move(gid: str) -> None:
    session = Session.start(gid, seed="resign-test")
    game = session.game
    while game.to_move(session.state) == CHANCE:
        session.push(game.sample_chance(session.state, SeedRng("x", session.ply)))
    seat = game.to_move(session.state)
    session.play(["resign"])
    if len(session.names) > 2 and not game.is_over(session.state):
        # With three or more seats the resigner leaves and the others play on (where the
        # rules allow); it never acts again and loses in the end.
        ply = 0
        while not game.is_over(session.state):
            assert game.to_move(session.state) != seat
            session.push(random_action(game, session.state, SeedRng("after-resign", ply)))
            ply += 1
    outcome = game.outcome(session.state)
    assert outcome is not None
    assert outcome.results[seat].result == "loss"
