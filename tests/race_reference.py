"""Helpers for the race-game tests: positions from a picture, and a plain reference generator.

The reference turn generator is written from the rules files alone, in absolute spaces, trying
every order of the dice sub-move by sub-move; it shares no code or data with the engine's
generator (board size, start spaces, limits and special spaces are written out again).
"""

from __future__ import annotations

from typing import Any

from gametool.core.engine import CHANCE, RESIGN
from gametool.games.race.game import RaceGame
from gametool.games.race.state import RaceState

Pos = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def pos(game: RaceGame, board: dict[str, dict[int, int]], *, hand: dict[str, int] | None = None,
        bar: dict[str, int] | None = None, off: dict[str, int] | None = None,
        seat: str = "B", dice: tuple[int, int] | None = (6, 4)) -> RaceState:
    """A position: figures by colour letter and 1-based space; the rest in hand by default."""
    geo = game.geo
    letters = geo.letters
    counts, hands, bars, offs = [], [], [], []
    for letter in letters:
        row = [0] * geo.spaces
        for space, n in board.get(letter, {}).items():
            row[space - 1] = n
        b = (bar or {}).get(letter, 0)
        o = (off or {}).get(letter, 0)
        h = (hand or {}).get(letter, geo.figures - sum(row) - b - o)
        assert sum(row) + b + o + h == geo.figures, letter
        counts.append(tuple(row))
        hands.append(h)
        bars.append(b)
        offs.append(o)
    n = geo.seats
    high = None if dice is None else (max(dice), min(dice))
    return RaceState(tuple(counts), tuple(hands), tuple(bars), tuple(offs),
                     seat=letters.index(seat), dice=high, opening=False, plies=0,
                     places=(0,) * n, out=(False,) * n)


def texts(game: RaceGame, state: RaceState) -> set[str]:
    return {game.format_action(state, a) for a in game.legal_actions(state)}


def accepted(game: RaceGame, state: RaceState, text: str) -> str:
    """A typed turn that is legal: it reaches the position of a listed turn. Its text as the
    record writes it (the player's sub-moves, in their order and along their path)."""
    action = game.parse_action(state, text)
    reached = {game.apply(state, a) for a in game.legal_actions(state)}
    assert game.apply(state, action) in reached
    return game.format_action(state, action)


def play(game: RaceGame, state: RaceState, text: str) -> RaceState:
    return game.apply(state, game.parse_action(state, text))


def reduced(state: RaceState) -> Pos:
    return (state.counts, state.hand, state.bar, state.off)


# -- the reference generator ---------------------------------------------------------------
# Everything below comes from the rules files, not from the engine's geometry: the board sizes,
# the start spaces, the packing limits and the special spaces are written out again here.

BOARD = {"tawula": 24, "track-gammon": 36}
STARTS = {"tawula": (1, 13), "track-gammon": (1, 13, 25)}
"""The start point / corner of each seat, 1-based (tawula.md D2, track-gammon.md D2)."""
SPECIAL = {"tawula": (), "track-gammon": (7, 19, 31)}
FIGURES = 15


def _cap(game: RaceGame, r: int) -> int:
    rules = game.id
    if r == 0:
        return 2
    if rules == "tawula":
        return 1 if 1 <= r <= 10 else 99
    if r in (6, 18, 30):
        return 1  # a special space holds one figure of each colour
    return 1 if 1 <= r <= 10 or 13 <= r <= 22 else 99


def _special(game: RaceGame, space: int) -> bool:
    """Whether the 0-based ``space`` is one of the special spaces 7, 19, 31."""
    return space + 1 in SPECIAL[game.id]


def _land(game: RaceGame, p: Pos, seat: int, space: int, r: int) -> tuple[Pos, bool] | None:
    """The position after a figure of ``seat`` lands on ``space`` (r on its track), and
    whether it hit; None if it may not land there."""
    counts = [list(row) for row in p[0]]
    bars = list(p[2])
    hit = False
    if counts[seat][space] >= _cap(game, r):
        return None
    if not _special(game, space):
        for q in range(len(counts)):
            if q != seat and counts[q][space] >= 2:
                return None
        for q in range(len(counts)):
            if q != seat and counts[q][space] == 1:
                counts[q][space] = 0
                bars[q] += 1
                hit = True
    counts[seat][space] += 1
    return (tuple(tuple(row) for row in counts), p[1], tuple(bars), p[3]), hit


def _minus(p: Pos, seat: int, space: int) -> Pos:
    counts = [list(row) for row in p[0]]
    counts[seat][space] -= 1
    return (tuple(tuple(row) for row in counts), p[1], p[2], p[3])


def _with(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += delta
    return tuple(out)


def single_moves(game: RaceGame, p: Pos, seat: int, d: int) -> list[tuple[str, Pos]]:
    """Every sub-move with die ``d``: its text (``h/6``, ``13/19*``, ``30/off``) and position."""
    n = BOARD[game.id]
    start = STARTS[game.id][seat] - 1
    counts, hand, bar, _off = p
    bar_all = game.settings["bar_priority"] == "all"
    out: list[tuple[str, Pos]] = []

    def star(hit: bool) -> str:
        return "*" if hit else ""

    if bar[seat]:
        space = (start + d - 1) % n
        landed = _land(game, p, seat, space, d - 1)
        if landed is not None:
            after, hit = landed
            out.append((f"bar/{space + 1}{star(hit)}",
                        (after[0], after[1], _with(after[2], seat, -1), after[3])))
        if bar_all:
            return out
    if hand[seat]:
        space = (start + d) % n
        landed = _land(game, p, seat, space, d)
        if landed is not None:
            after, hit = landed
            out.append((f"h/{space + 1}{star(hit)}",
                        (after[0], _with(after[1], seat, -1), after[2], after[3])))
    if bar[seat]:
        return out
    mine = counts[seat]
    rel = {space: (space - start) % n for space in range(n)}
    all_home = not hand[seat] and all(rel[s] >= n - 6 for s in range(n) if mine[s])
    for space in range(n):
        if not mine[space]:
            continue
        r = rel[space]
        if r == 0 and hand[seat]:
            continue
        if r + d < n:
            target = (space + d) % n
            landed = _land(game, _minus(p, seat, space), seat, target, r + d)
            if landed is not None:
                out.append((f"{space + 1}/{target + 1}{star(landed[1])}", landed[0]))
        elif all_home:
            farthest = min(rel[s] for s in range(n) if mine[s])
            if r + d == n or r == farthest:
                left = _minus(p, seat, space)
                out.append((f"{space + 1}/off", (left[0], left[1], left[2],
                                                  _with(left[3], seat, 1))))
    return out


def _shut_out(game: RaceGame, p: Pos, seat: int, q: int) -> bool:
    """``q`` is on the bar and each of its six re-entry spaces holds 2+ of ``seat``'s figures."""
    n, start = BOARD[game.id], STARTS[game.id][q] - 1
    return p[2][q] > 0 and all(p[0][seat][(start + k) % n] >= 2 for k in range(6))


def reference_sequences(game: RaceGame, state: RaceState) -> dict[str, Pos]:
    """Every legal sequence of sub-moves of the seat to move, as text, with its end position.

    Sub-moves are tried in every order of the dice, one by one; a sequence ending in the win
    counts as using every die. With the courtesy rule every prefix is a candidate and the rule
    filters before the use-of-dice rule (tawula.md D9, D5).
    """
    courtesy = game.settings["courtesy"] == "on"
    assert game.to_move(state) not in (None, CHANCE) and state.dice is not None
    seat = state.seat
    a, b = state.dice
    orders = [(a, a, a, a)] if a == b else [(a, b), (b, a)]
    found: list[tuple[str, Pos, int, int | None]] = []

    def walk(p: Pos, dice: tuple[int, ...], used: int, first: int | None, text: str) -> None:
        if p[3][seat] == FIGURES:
            used = 4 if a == b else 2
            dice = ()
        nexts = single_moves(game, p, seat, dice[0]) if dice else []
        if courtesy or not nexts:
            found.append((text or "pass", p, used, first))
        for sub, after in nexts:
            walk(after, dice[1:], used + 1, dice[0] if first is None else first,
                 f"{text} {sub}".strip())

    start = reduced(state)
    for order in orders:
        walk(start, order, 0, None, "")
    if courtesy:
        others = [q for q in range(len(STARTS[game.id])) if q != seat and not state.out[q]
                  and not _shut_out(game, start, seat, q)]
        found = [f for f in found if not any(_shut_out(game, f[1], seat, q) for q in others)]
    most = max(f[2] for f in found)
    found = [f for f in found if f[2] == most]
    high = max(a, b)
    if most == 1 and a != b and any(f[3] == high for f in found):
        found = [f for f in found if f[3] == high]  # the higher die
    return {text: p for text, p, _, _ in found}


def reference_turns(game: RaceGame, state: RaceState) -> set[Pos]:
    """Every legal end position of the turn of the seat to move."""
    return set(reference_sequences(game, state).values())


def engine_turns(game: RaceGame, state: RaceState) -> set[Pos]:
    return {reduced(game.apply(state, action)) for action in game.legal_actions(state)}


def check_against_reference(game: RaceGame, state: RaceState) -> None:
    """The engine lists exactly the reference's end positions, each written as one of the
    reference's legal sequences (the text it lists could itself be typed as a legal turn)."""
    sequences = reference_sequences(game, state)
    assert engine_turns(game, state) == set(sequences.values()), state
    for action in game.legal_actions(state):
        text = game.format_action(state, action).split(": ", 1)[-1]
        assert text in sequences, (text, state)
        assert sequences[text] == reduced(game.apply(state, action)), (text, state)


def random_positions(game: RaceGame, seed: str, count: int, every: int = 1) -> list[Any]:
    """Positions with a player to move, taken from seeded random games."""
    from gametool.core.chance import SeedRng
    from gametool.players.auto import random_action

    out: list[Any] = []
    index = seen = 0
    while len(out) < count:
        state = game.initial_state(game.players_default())
        ply = 0
        while game.to_move(state) is not None and len(out) < count:
            if game.to_move(state) != CHANCE:
                if seen % every == 0:
                    out.append(state)
                seen += 1
            state = game.apply(state, random_action(game, state, SeedRng(f"{seed}-{index}", ply)))
            ply += 1
        index += 1
    return out


def random_endgames(game: RaceGame, seed: int, count: int) -> list[RaceState]:
    """Built positions near the end of the race (most figures home or off, some blocks and
    hits about), where bear-offs, larger dice and closed home spaces meet; any seat to move."""
    import random

    rnd = random.Random(seed)
    gid = game.id
    n, starts, nseats = BOARD[gid], STARTS[gid], len(STARTS[gid])
    out: list[RaceState] = []
    while len(out) < count:
        counts = [[0] * n for _ in range(nseats)]
        hand, bar, off = [0] * nseats, [0] * nseats, [0] * nseats
        for q in rnd.sample(range(nseats), nseats):
            off[q] = rnd.randint(0, 13)
            for _ in range(rnd.randint(1, FIGURES - off[q])):
                r = rnd.randrange(n - 9, n) if rnd.random() < 0.85 else rnd.randrange(1, n)
                space = (starts[q] - 1 + r) % n
                if counts[q][space] >= _cap(game, r) or (not _special(game, space) and any(
                        counts[p][space] for p in range(nseats) if p != q)):
                    continue
                counts[q][space] += 1
            left = FIGURES - off[q] - sum(counts[q])
            if rnd.random() < 0.3:
                bar[q] = min(left, rnd.randint(1, 2))
            hand[q] = left - bar[q] if rnd.random() < 0.2 else 0
            off[q] += left - bar[q] - hand[q]
        if any(o == FIGURES for o in off):
            continue
        dice = (rnd.randint(1, 6), rnd.randint(1, 6))
        out.append(RaceState(tuple(map(tuple, counts)), tuple(hand), tuple(bar), tuple(off),
                             seat=rnd.randrange(nseats), dice=(max(dice), min(dice)),
                             opening=False, plies=0, places=(0,) * nseats,
                             out=(False,) * nseats))
    return out


def encoding_samples(gid: str, seed: str, options: dict[str, str] | None = None,
                     branch_every: int = 40) -> tuple[RaceGame, list[RaceState]]:
    """Every state of a seeded random game (``gametool.players.auto.random_game``), and the states of
    games that branch from it by a resignation every ``branch_every`` plies and play on at
    random (resigning once more halfway), to their ends."""
    from gametool.core.chance import SeedRng
    from gametool.players.auto import random_action, random_game

    session = random_game(gid, seed, options=options)
    game = session.game
    states = list(session.states)
    for index in range(0, len(session.states), branch_every):
        players = [s for s in session.states[index:index + 3]
                   if game.to_move(s) not in (None, CHANCE)]
        if not players:
            continue
        state = game.apply(players[0], RESIGN)
        ply, again = 0, True
        while True:
            states.append(state)
            if game.to_move(state) is None:
                break
            if ply >= 30 and again and game.to_move(state) != CHANCE:
                action, again = RESIGN, False
            else:
                action = random_action(game, state, SeedRng(f"{seed}-branch-{index}", ply))
            state = game.apply(state, action)
            ply += 1
    return game, states


def check_encoding_round_trip(game: RaceGame, state: RaceState) -> str:
    """Encoding, decoding and encoding again gives the same text and the same position: the
    same state up to history (the last roll) and, once the game is over, the seat that moved
    last; the same seat to move, legal actions, outcome, view and drawing. The encoding."""
    text = game.encode_position(state)
    back = game.decode_position(text, game.geo.seats)
    assert game.encode_position(back) == text, text

    def position(s: RaceState) -> RaceState:
        return s._replace(last_roll=None, seat=0 if s.ended is not None else s.seat)

    assert position(back) == position(state), text
    assert game.to_move(back) == game.to_move(state), text
    assert game.outcome(back) == game.outcome(state), text
    if game.to_move(state) not in (None, CHANCE):
        assert game.legal_actions(back) == game.legal_actions(state), text

    def shown(s: RaceState) -> tuple[dict[str, Any], str]:
        data = {k: v for k, v in game.view(s, None).items() if k != "last_roll"}
        drawing = game.render(s, None, game.seat_names)
        return data, "\n".join(line for line in drawing.splitlines()
                               if not line.startswith("last roll"))

    assert shown(back) == shown(state), text
    return text


def check_cli_round_trip(game: RaceGame, state: RaceState, folder: Any) -> None:
    """``start --position`` takes the encoding of ``state`` and ``show --json`` gives back the
    same encoding and the same position (history aside), seat to move and result."""
    import json

    from click.testing import CliRunner

    from gametool.cli import cli

    text = game.encode_position(state)
    f = folder / "round-trip.gtn"
    args = ["start", game.id, "--no-seed", "--position", text, "-o", str(f), "--force"]
    for name, value in game.non_default_options():
        args += ["--option", f"{name}={value}"]
    runner = CliRunner()
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["show", "--json", str(f)])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    expected = json.loads(json.dumps(game.view(state, None)))
    for data in (shown["position"], expected):
        data.pop("last_roll")
    assert shown["position"] == expected, text
    assert shown["over"] == (game.to_move(state) is None), text
    outcome = game.outcome(state)
    assert (shown["result"] or {}).get("termination") == (outcome and outcome.termination)


def check_random_game_encodings(gid: str, options: dict[str, str], games: int,
                                folder: Any) -> dict[str | None, int]:
    """Every state of ``games`` random games with resignations branched off them reads back
    from its encoding (:func:`check_encoding_round_trip`), every end also through the command
    line. How many states ended how (None: the game goes on)."""
    endings: dict[str | None, int] = {}
    for index in range(games):
        game, states = encoding_samples(gid, f"enc-{sorted(options.items())}-{index}", options)
        for state in states:
            check_encoding_round_trip(game, state)
            if state.ended is not None:
                check_cli_round_trip(game, state, folder)
            endings[state.ended] = endings.get(state.ended, 0) + 1
    return endings


def refused(gid: str, folder: Any, position: str, *words: str,
            options: tuple[str, ...] = ()) -> str:
    """``start --position`` refuses the position with one line naming each of ``words``,
    exit 1, no traceback and no file written; the line."""
    from click.testing import CliRunner

    from gametool.cli import cli

    f = folder / "refused.gtn"
    args = ["start", gid, "--no-seed", "--position", position, "-o", str(f)]
    for option in options:
        args += ["--option", option]
    result = CliRunner().invoke(cli, args)
    lines = [line for line in result.output.splitlines() if line]
    assert result.exit_code == 1 and len(lines) == 1 and not f.exists(), result.output
    assert "Traceback" not in result.output and "internal" not in result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]
