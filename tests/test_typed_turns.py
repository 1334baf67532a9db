"""A typed turn is checked without listing every legal turn (Sapos, Super Horse Chess): the
check must agree with the full list, turn by turn, on the positions of random games.

The candidates are every legal turn and turns that are not legal: the parts of two legal
turns joined together, so that each part is plausible on its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from gametool import games
from gametool.records import check_text


def random_states(game_id: str, seed: int, plies: int, options: dict[str, str] | None = None,
                  ) -> tuple[object, list[object], list[object]]:
    """The positions of a random game, twice over: the same positions as separate objects, so
    that what one list learns (memoised turn lists) the other does not know."""
    game = games.playable_class(game_id)(options or {})
    rng = random.Random(seed)
    first, second = [], []
    a = b = game.initial_state(2)
    b = game.initial_state(2)
    for _ in range(plies):
        if game.is_over(a):
            break
        first.append(a)
        second.append(b)
        action = rng.choice(game.legal_actions(a))
        a, b = game.apply(a, action), game.apply(b, action)
    return game, first, second


def test_sapos_typed_turn_agrees_with_the_list() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        game, states, _ = random_states("sapos", seed, 40)
        for state in states:
            legal = {t for t in game.legal_actions(state) if t != "resign"}
            candidates = set(legal)
            pool = sorted(legal)
            for _ in range(30):
                if len(pool) < 2:
                    break
                x, y = rng.sample(pool, 2)
                if len(x) == 2:
                    candidates.add((x[0], y[1]))
                    candidates.add((x[0],))
                else:
                    candidates.add(((x[0][0], x[0][1], y[0][2]),))
                    candidates.add((x[0], y[0]))
            for turn in candidates:
                assert game._is_legal(state, turn) == (turn in legal), turn
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("options", [{}, {"horse_action": "optional"}])
def test_super_horse_chess_typed_turn_agrees_with_the_list(options: dict[str, str]) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(2):
        game, states, fresh = random_states("super-horse-chess", seed, 30, options)
        for pos, twin in list(zip(states, fresh, strict=True))[::4]:
            legal = {t for t in game.turns(pos)}
            moves = sorted({m for m, _h in legal})
            actions = sorted({h for _m, h in legal if h is not None}, key=repr)
            candidates = set(legal)
            for _ in range(60):
                candidates.add((rng.choice(moves), rng.choice([*actions, None])))
            for m, h in candidates:
                assert twin._turns is None  # the check never lists every turn
                assert game.is_turn(twin, m, h) == ((m, h) in legal), (m, h)
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("game_id", ["sapos", "super-horse-chess"])
def test_records_of_random_games_still_validate(game_id: str) -> None:
    from gametool.players.auto import random_game

    for i in range(2):
        text = random_game(game_id, f"typed-validate-{i}", max_plies=60).text()
        assert all(v.ok for v in check_text(text)), game_id


@pytest.mark.parametrize("size", ["7", "8", "10"])
def test_desdemona_actions_of_one_pawn_are_the_list_split_by_pawn(size: str) -> None:
    """A typed Desdemona action is checked against the actions of its own pawn only: over the
    positions of random games, those per-pawn lists together are exactly the legal list."""
    from gametool.games.desdemona import PASS, decode

    checked = 0
    for seed in range(2):
        game, states, _ = random_states("desdemona", seed, 200, {"size": size})
        for state in states:
            legal = set(game.legal_actions(state)) - {PASS}
            pawns = state.pawns[state.turn] if state.ply or game.first_stone else state.pawns[0]
            by_pawn: set[int] = set()
            for pawn in pawns:
                mine = game._actions(state, pawn)
                assert all(decode(a)[0] == pawn for a in mine)
                by_pawn.update(mine)
            assert by_pawn == legal
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game_id, options", [("tawula", {}), ("track-gammon", {}),
                                              ("tawula", {"courtesy": "on"})])
def test_race_turns_that_play_every_die_agree_with_the_table(game_id: str,
                                                             options: dict[str, str]) -> None:
    """A typed race turn that plays every die is accepted without listing every turn: over
    the positions of random games, typed turns made of the sub-moves of the listed turns (in
    every order and mixture) are accepted exactly when the full table of turns accepts them."""
    from gametool.core.errors import GameError
    from gametool.games.race import notation
    from gametool.games.race.check import follow

    rng = random.Random(11)
    checked = 0
    for _game in range(3):
        game = games.playable_class(game_id)(options)
        state = game.initial_state(game.players_default())
        for _ in range(160):
            if game.is_over(state):
                break
            seat = game.to_move(state)
            if seat == -1:
                state = game.apply(state, rng.choice(game.chance_outcomes(state)))
                continue
            listed = [a for a in game.legal_actions(state) if a not in ("resign", ())]
            texts = [game.format_action(state, a).split(": ", 1)[-1] for a in listed]
            parts = sorted({p for t in texts for p in t.split()})
            table = game.table(state)
            for _ in range(25 if parts else 0):
                typed = " ".join(rng.sample(parts, min(len(parts), rng.choice([2, 3, 4]))))
                parsed = notation.read_action(typed, game.geo.spaces, game.space_word)
                try:
                    key, used, _dice, _played = follow(game, state, parsed.specs)
                    expected = used >= table.best and key in table.chosen
                except GameError:
                    expected = False
                try:
                    game.parse_action(state, typed)
                    accepted = True
                except GameError:
                    accepted = False
                assert accepted == expected, (typed, state)
                checked += 1
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert checked > 500


RACE_PIECES = ["h", "bar", "off", "/", "1", "6", "13", "24", "25", "30", "0", "*", "(2)", "(5)",
               " ", " ", "\t", "B:", "w: ", "H", "Bar", "x"]


def test_race_actions_read_without_the_grammar_as_the_grammar_reads_them() -> None:
    """The regular expression that reads usual race actions gives what the grammar gives, on
    the texts it accepts; the rest it leaves to the grammar."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from gametool.core.errors import GameError
    from gametool.games.race import notation

    grammar_read = notation.read_action.__wrapped__

    @settings(max_examples=600, deadline=None, database=None)
    @given(pieces=st.lists(st.sampled_from(RACE_PIECES), max_size=12),
           spaces=st.sampled_from([24, 30]))
    def check(pieces: list[str], spaces: int) -> None:
        text = "".join(pieces)
        fast = notation._fast_action(text, spaces)
        if fast is None:
            return
        original = notation._fast_action
        notation._fast_action = lambda _text, _spaces: None
        try:
            slow = grammar_read(text, spaces, "space")
        except GameError as exc:
            raise AssertionError(f"{text!r}: fast {fast}, grammar refuses: {exc}") from None
        finally:
            notation._fast_action = original
        assert fast == slow, text

    check()
    assert notation._fast_action("B: 7/11 h/7", 24) is not None
    assert notation._fast_action("13/7* 8/7(2)", 24) is not None


def test_belemmer_shuffles_read_without_the_grammar_as_the_grammar_reads_them() -> None:
    from gametool.games import belemmer
    from notation import tokens

    game = games.playable_class("belemmer")({})
    state = game.initial_state(2)
    rng = random.Random(3)
    for _ in range(40):
        colour = rng.choice(["red", "black", "RED", "Black"])
        cards = [f"{r}{s}" for r in tokens.CARD_RANKS for s in ("H", "D", "C", "S")]
        picked = rng.sample(cards, rng.choice([26, 3]))
        text = f"shuffle {colour} " + " ".join(c.lower() if rng.random() < 0.2 else c
                                               for c in picked)
        fast = belemmer._FAST_SHUFFLE.fullmatch(text)
        assert fast is not None
        by_grammar = list(tokens.parse_whole(belemmer._grammar(), text))
        by_regex = [tokens.Card(c[1].upper(), c[2].upper())
                    for c in belemmer._CARD.finditer(fast[2])]
        assert by_grammar[1] == fast[1].lower() and list(by_grammar[2]) == by_regex
        try:
            got = game.parse_action(state, text)
        except Exception as exc:  # noqa: BLE001 - the same refusal either way
            got = str(exc)
        assert got is not None


def test_desdemona_moves_read_without_the_grammar_as_the_grammar_reads_them() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from gametool.games import desdemona
    from notation import tokens

    pieces = ["a", "B", "j", "z", "1", "0", "10", "7", "99", "-", "/", "x", "X", " ", "pass"]

    @settings(max_examples=600, deadline=None, database=None)
    @given(parts=st.lists(st.sampled_from(pieces), max_size=9))
    def check(parts: list[str]) -> None:
        text = "".join(parts)
        fast = desdemona._FAST_MOVE.fullmatch(text)
        if fast is None:
            return
        assert desdemona._fast_tokens(fast) == list(tokens.parse_whole(desdemona._grammar(), text))

    check()
    for text in ("b2-d4/d6", "D4-d5Xd7", "a10-c10", " b2-b3 "):
        fast = desdemona._FAST_MOVE.fullmatch(text)
        assert fast is not None
        assert desdemona._fast_tokens(fast) == list(tokens.parse_whole(desdemona._grammar(), text))


def test_a_race_action_with_a_huge_number_is_one_clear_error() -> None:
    from gametool.core.errors import GameError
    from gametool.games.race import notation

    for text in ("B: " + "9" * 5000, "13/" + "9" * 5000, "9" * 5000 + "/7"):
        assert notation._fast_action(text, 24) is None
        with pytest.raises(GameError):
            notation.read_action(text, 24)


def fast_reads_as_grammar(fast: Callable[[str], Any], slow: Callable[[str], Any],
                          text: str) -> bool:
    """Whether the fast reader reads ``text``; if it does, the grammar must read the same."""
    got = fast(text)
    if got is None:
        return False
    try:
        expected = slow(text)
    except Exception as exc:  # noqa: BLE001 - the fast path must not accept more
        raise AssertionError(f"{text!r}: fast {got}, grammar refuses: {exc}") from None
    assert got == expected, text
    return True


def fuzz_fast_reader(pieces: list[str], same: Callable[[str], bool]) -> None:
    """Texts glued from ``pieces``: wherever the fast reader reads one, it agrees."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=500, deadline=None, database=None)
    @given(parts=st.lists(st.sampled_from(pieces), max_size=9))
    def check(parts: list[str]) -> None:
        same("".join(parts))

    check()


@pytest.mark.parametrize("gid", ["gami-plus", "gami-four", "gami-seven"])
def test_gami_actions_read_without_the_grammar_as_the_grammar_reads_them(gid: str) -> None:
    from gametool.games.gami import notation as gami
    from gametool.players.auto import random_game
    from notation import tokens

    game_cls = games.playable_class(gid)
    shape = (any(game_cls.deals), game_cls.total_picks > 0, game_cls.pick_gami == "return",
             game_cls.swap_gami == "claim")

    def same(text: str) -> bool:
        return fast_reads_as_grammar(lambda t: gami._fast_words(t, *shape),
                                     lambda t: list(tokens.parse_whole(game_cls.grammar(), t)),
                                     text)

    fuzz_fast_reader(["swap", "pick", "claim", "return", "Swap", ">", " ", "  ", "AH", "10D", "QH",
                      "2c", "4S", "9H", "1H", "KC", "deal", "deal ", "p1:", "p2:", "table:",
                      "P1:", "p3:"], same)
    for text in ("swap 4H>5H claim 3H", "pick 10D return QH", "deal p1: AH 2H p2: 3H table: 4H",
                 "deal p2: AH 10C", "deal table: p1: KS"):
        assert gami._fast_words(text, *shape) is None or same(text)
    # Every action the tool writes, but resign, is read by the fast path.
    session = random_game(gid, "3", max_plies=60)
    written = [step.text for step in session.steps if step.text != "resign"]
    assert written and all(same(text) for text in written)


def test_sapos_sequences_read_without_the_grammar_as_the_grammar_reads_them() -> None:
    from gametool.games import sapos
    from gametool.players.auto import random_game
    from notation import tokens

    def same(text: str) -> bool:
        return fast_reads_as_grammar(sapos._fast_sequence,
                                     lambda t: list(tokens.parse_whole(sapos._grammar(), t)[0]),
                                     text)

    fuzz_fast_reader(["a1", "d4", "h8", "e5", "D4", "i9", "a10", "-", "x", "X", "+", " ", "--"],
                     same)
    assert same("d3-d5-f5+e6") and same("e5xe7xc7") and same("d7-d5+c4")
    written = [part for step in random_game("sapos", "5", max_plies=80).steps
               if step.text != "resign" for part in step.text.split(",")]
    assert written and all(same(text) for text in written)


def test_horse_actions_read_without_the_grammar_as_the_grammar_reads_them() -> None:
    from gametool.games.chess import horse_notation
    from gametool.players.auto import random_game
    from notation import tokens

    def same(text: str) -> bool:
        return fast_reads_as_grammar(
            horse_notation.fast_horse,
            lambda t: tuple(tokens.parse_whole(horse_notation.HORSE_TAIL, t)[0]), text)

    fuzz_fast_reader(["@", "-", "H", "h", "e6", "a1", "h8", "i9", "E6", "=", "Q", "n", "k", "+",
                      "#", "!", "?", " "], same)
    assert same("@e6") and same("-e6 -f3") and same("-a1") and same("Hg6-g7")
    assert same("He7-e8=Q+") and same("-e6-f3")
    written = [" ".join(step.text.split()[1:]) for step in
               random_game("super-horse-chess", "4", max_plies=120).steps
               if len(step.text.split()) > 1 and step.text.split()[0] != "claim-draw"]
    assert written and all(same(text) for text in written)


def test_space_cards_actions_read_without_the_grammar_as_the_grammar_reads_them() -> None:
    from gametool.core.errors import GameError
    from gametool.games import space_cards
    from gametool.players.auto import random_game

    def same(text: str) -> bool:
        return fast_reads_as_grammar(space_cards._fast_action, space_cards._grammar_action, text)

    fuzz_fast_reader(["deal", "draw", "trade", "score", "Deal", "TRADE", " ", "  ", "6", "3", "0",
                      "06", "7", "10", ":", "2S", "AH", "KD", "7T", "KU", "8H", "10H", "1H", "2s",
                      "QH", "run4", "Hearts", "luck", "sevenplus", "run7", "resign"], same)
    cards = "2S 3S 3D 6T 7D 7U"
    for text in (f"deal 6: {cards}", "draw 3: 2T 6U 7D", "draw 1: KS", "trade AC 4C 5U",
                 f"trade {cards}", "score run4", "score luck", "score hearts"):
        assert same(text), text
    # Other spellings, blanks and cards or numbers outside the deck are left to the grammar.
    for text in (f"Deal 6: {cards}", f"deal 6: {cards.lower()}", "Score run4", "score RUN4",
                 f"deal 6:  {cards}", f"deal 6 : {cards}", f"deal  6: {cards}", f" deal 6: {cards}",
                 f"deal 6: {cards} ", "trade  AC", "trade AC  4C", f"deal 06: {cards}",
                 "draw 7: 2T", "draw 0: 2T", "draw 10: 2T", "draw 3: 2T 6U 8D", "trade KU",
                 "trade 1H", "trade 10H", "trade QH", "score run7", "score", "trade",
                 f"deal 6: {cards} 4H", "deal 6:", "resign"):
        assert space_cards._fast_action(text) is None, text
    game = games.playable_class("space-cards")({})
    state = game.initial_state(2)
    with pytest.raises(GameError, match="KU is not in the Space Cards deck"):
        game.parse_action(state, "deal 6: AH 2H 3H 4H 5H KU")
    with pytest.raises(GameError, match="'1H' is not a card"):
        game.parse_action(state, "deal 6: AH 2H 3H 4H 5H 1H")
    # Every action the tool writes, but resign, is read by the fast path.
    written = [step.text for seed in range(3)
               for step in random_game("space-cards", str(seed)).steps if step.text != "resign"]
    assert {text.split()[0] for text in written} == {"deal", "draw", "trade", "score"}
    assert all(same(text) for text in written)


@pytest.mark.parametrize("options", [{}, {"shots": "squares", "report": "ships"},
                                     {"fleet": "classic", "shots": "fixed5"}])
def test_special_salvo_actions_read_without_the_grammar_as_the_grammar_reads_them(
        options: dict[str, str]) -> None:
    from gametool.core.errors import GameError
    from gametool.games.special_salvo import notation as salvo
    from gametool.players.auto import random_game
    from notation import tokens

    def same(text: str) -> bool:
        return fast_reads_as_grammar(salvo._fast_tokens,
                                     lambda t: tokens.parse_whole(salvo.grammar(), t).as_list(),
                                     text)

    salt = "65f2557400e834a85e38f2b9adb6fc5aa3c5a26f32b7dd7dcc40b3b0af98b667"
    fuzz_fast_reader(["place", "fire", "report", "commit", "reveal", "salt", "resign", "Fire", " ",
                      "  ", ",", ", ", "a1", "j10", "c7", "k1", "a11", "a0", "A1", "miss", "hit",
                      "sunk", "Hit", "bb", "cv", "sub", "pt", "cr", "xx", "e", "s", "se", "ne",
                      "w", "E", "ab12", salt, salt.upper()], same)
    fleet = "cv b6 e, bb g6 e, cr a9 s, sub c8 ne, pt h4 e"
    for text in ("place bb g6 e", f"place {fleet}", "fire a10", "fire a10 i5 d3 h2 j1",
                 "report a10 miss, i5 hit, d3 hit bb, h2 sunk pt, j1 hit sub", f"commit {salt}",
                 f"reveal {fleet} salt {salt}", f"reveal {fleet} salt 00", "resign"):
        assert same(text), text
    # Other spellings, blanks, squares off the ocean and unknown codes are left to the grammar.
    for text in ("Fire a10", "fire A10", "fire  a10", "fire a10 ", " fire a10", "fire a1,b2",
                 "fire k1", "fire a11", "fire a0", "fire a100", "place bb g6 w", "place bb g6 se,",
                 "place bb g6 E", "place xx g6 e", "place bb g6 e,pt h4 e", "report a1 hit xx",
                 "report a1 sunk", "report a1 miss,b2 miss", "report a1 Miss", f"commit {salt}0",
                 f"commit {salt[:-1]}", f"commit {salt.upper()}", f"reveal {fleet} salt",
                 f"reveal {fleet} salt AB", "fire", "report", "place", "Resign"):
        assert salvo._fast_tokens(text) is None, text
    with pytest.raises(GameError, match="k1 is off the ocean"):
        salvo.read("fire k1")
    with pytest.raises(GameError, match="'xx' is no ship of the fleet"):
        salvo.read("place xx g6 e")
    with pytest.raises(GameError, match="a commitment is 64 hexadecimal digits"):
        salvo.read(f"commit {salt[:-1]}")
    # Every action the tool writes is read by the fast path.
    written = [step.text for seed in range(2)
               for step in random_game("special-salvo", str(seed), options=options).steps]
    assert {text.split()[0] for text in written} >= {"place", "fire", "report"}
    assert all(same(text) for text in written)
