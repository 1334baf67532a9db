"""Start-up: ``show``, ``moves`` and ``move`` never load a grammar on a record the tool wrote.

Every record the tool writes spells its actions canonically, and every game reads its canonical
spellings without pyparsing (the grammars are loaded only for other spellings, to name an
error). This walks self-play records of every game (finished games), unfinished ones, ones
dressed with comments, NAGs, a variation and an ending off the board, and every shipped sample,
through the installed ``gametool`` command with ``PYTHONPROFILEIMPORTTIME`` set, and fails when
a command imports pyparsing (or, for ``moves`` and ``move``, tabulate).

Every file (the shipped samples too) is read by one ``validate`` run: the reading the three
commands share. ``show``, ``moves`` and ``move`` then run on a few records of each game, one
process each. A failure names the file and the modules.

Loading the command line compiles none of the modules' patterns (each is compiled when first
used) and leaves the collector on, with what loading made set apart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import made_once

from gametool import games
from gametool.core.engine import CHANCE
from gametool.players.auto import random_game
from notation import record as gtn
from notation.values import Square

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_games").rglob("*.gtn"))
COMMAND = shutil.which("gametool", path=os.path.dirname(sys.executable)) or "gametool"
GRAMMAR = ("pyparsing", "notation.tokens")


def imported(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the installed command with import timing on; (the run, the modules it imported)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPROFILEIMPORTTIME"] = "1"
    done = subprocess.run([COMMAND, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return done, names


def forbidden(names: set[str], command: str) -> list[str]:
    """The modules ``command`` must not have loaded."""
    bad = [n for n in names if n in GRAMMAR or n.startswith("pyparsing.")]
    if command in ("moves", "move"):
        bad += [n for n in names if n == "tabulate"]
    return sorted(bad)


def dressed(gid: str) -> str:
    """A random game of ``gid`` cut at 30 plies with a comment, a NAG, a variation and (where
    the game is not over) an ending off the board."""
    session = random_game(gid, f"startup-{gid}", max_plies=30)
    body = session.record.body
    body.insert(0, gtn.CommentLine("a comment on the opening"))
    turns = [item for item in body if isinstance(item, gtn.TurnLine)]
    last = turns[-1]
    last.nags = [1]
    last.comment = "a note"
    # A variation: the last player's turn of the main line played otherwise, where possible.
    for index in range(len(session.steps) - 1, -1, -1):
        step = session.steps[index]
        if step.seat == CHANCE:
            continue
        state = session.states[index]
        others = [a for a in session.game.legal_actions(state) if a != step.action]
        if others:
            text = session.game.format_action(state, others[0])
            body.append(gtn.Variation([gtn.TurnLine(index + 1, session.names[step.seat],
                                                    [gtn.Action(text)])]))
        break
    nseats = len(session.names)
    if session.game.outcome(session.state) is None:
        result = "1-0" if nseats == 2 else "-".join(["1"] + ["2"] * (nseats - 1))
        session.end_off_board(result, "time forfeit")
    return session.text()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Path, str | None]]]:
    """Per game: (file, an action to play on it or None), self-play and dressed records (made
    once for every worker)."""
    return made_once(tmp_path_factory, "startup", make_corpus)


def make_corpus(folder: Path) -> dict[str, list[tuple[Path, str | None]]]:
    out: dict[str, list[tuple[Path, str | None]]] = {}
    for gid in games.playable_ids():
        target = folder / gid
        subprocess.run([COMMAND, "selfplay", gid, "-n", "2", "-o", str(target), "--seed",
                        "startup"], check=True, capture_output=True, timeout=300)
        files: list[tuple[Path, str | None]] = [(p, None) for p in sorted(target.glob("*.gtn"))]
        path = folder / f"{gid}-dressed.gtn"
        path.write_text(dressed(gid))
        files.append((path, None))
        # An unfinished game, with the first legal action to play on it.
        session = random_game(gid, f"startup-{gid}", max_plies=30)
        seat = session.game.to_move(session.state)
        if seat is not None and seat != CHANCE:
            action = session.game.format_action(session.state,
                                                session.game.legal_actions(session.state)[0])
            open_path = folder / f"{gid}-open.gtn"
            open_path.write_text(session.text())
            files.append((open_path, action))
        out[gid] = files
    return out


def test_every_record_reads_without_a_grammar(corpus: dict[str, list[tuple[Path, str | None]]],
                                              tmp_path: Path) -> None:
    files = [path for entries in corpus.values() for path, _a in entries] + SAMPLES
    done, names = imported(["validate", *map(str, files)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    bad = forbidden(names, "validate")
    if bad:  # name the files that load a grammar
        culprits = [str(p) for p in files
                    if forbidden(imported(["validate", str(p)], tmp_path)[1], "validate")]
        pytest.fail(f"reading loads {bad}: {culprits}")


@pytest.mark.parametrize("gid", games.playable_ids())
def test_show_moves_and_move_load_no_grammar(gid: str, tmp_path: Path,
                                             corpus: dict[str, list[tuple[Path, str | None]]]
                                             ) -> None:
    """``show`` of a finished and of a dressed record, ``moves`` and ``move`` on the unfinished
    one (or the dressed one where chance is to move)."""
    entries = corpus[gid]
    finished, dressed_path = entries[0][0], entries[2][0]
    runs = [["show", str(finished)], ["show", str(dressed_path)]]
    playable = [(path, action) for path, action in entries if action is not None]
    if playable:
        path, action = playable[0]
        copy = tmp_path / path.name
        shutil.copy(path, copy)
        runs += [["moves", str(path)], ["move", str(copy), action]]
    else:
        runs.append(["moves", str(dressed_path)])
    failures = []
    for args in runs:
        done, names = imported(args, tmp_path)
        assert done.returncode == 0, (args, done.stderr[-2000:])
        bad = forbidden(names, args[0])
        if bad:
            failures.append(f"{' '.join(args[:1])} {Path(args[1]).name}: {bad}")
    assert not failures, failures


# -- the fast readers read as the grammars do ------------------------------------------------


def agree(fast: Callable[[str], Any], slow: Callable[[str], Any], pieces: list[str],
          written: list[str]) -> None:
    """Wherever ``fast`` reads a text (glued from ``pieces``, or one of ``written``, which it
    must read), the grammar (``slow``) reads the same."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    def same(text: str) -> bool:
        got = fast(text)
        if got is None:
            return False
        try:
            expected = slow(text)
        except Exception as exc:  # noqa: BLE001 - the fast reader must not accept more
            raise AssertionError(f"{text!r}: fast {got}, grammar refuses: {exc}") from None
        assert got == expected, (text, got, expected)
        return True

    @settings(max_examples=400, deadline=None, database=None)
    @given(parts=st.lists(st.sampled_from(pieces), max_size=9))
    def check(parts: list[str]) -> None:
        same("".join(parts))

    check()
    for text in written:
        assert same(text), text


def written_by_the_tool(gid: str, count: int = 3) -> list[str]:
    return [step.text for seed in range(count)
            for step in random_game(gid, f"readers-{seed}").steps]


def test_colors_assembly_and_desdemona_read_their_actions_without_the_grammar() -> None:
    from gametool.games import assembly, colors, desdemona
    from notation.tokens import parse_whole

    def colors_fast(text: str) -> Any:
        match = colors._FAST_PLACE.fullmatch(text.strip())
        return None if match is None else [Square(ord(match[1].lower()) - 97, int(match[2])),
                                           match[3].upper()]

    agree(colors_fast, lambda t: list(parse_whole(colors._place(), t)),
          ["a", "D", "1", "10", "0", "=", "r", "B", " ", "==", "7"],
          [t for t in written_by_the_tool("colors") if t != "resign"] + ["d4=R", " D10=b "])

    def assembly_fast(text: str) -> Any:
        fast = assembly._FAST_MOVE.fullmatch(text.strip()) or text.strip().lower() == "pass"
        return assembly._read(text) if fast else None

    agree(assembly_fast, lambda t: list(parse_whole(assembly._grammar(), t)),
          ["a", "I", "1", "9", "10", "-", "x", "X", " ", "pass", "PASS"],
          [t for t in written_by_the_tool("assembly") if t != "resign"] + ["pass", "Pass"])

    def desdemona_fast(text: str) -> Any:
        fast = desdemona._FAST_MOVE.fullmatch(text)
        return None if fast is None else desdemona._fast_tokens(fast)

    agree(desdemona_fast, lambda t: list(parse_whole(desdemona._grammar(), t)),
          ["a", "g", "1", "7", "10", "-", "/", "x", " "],
          [t for t in written_by_the_tool("desdemona") if t not in ("pass", "resign")])


def test_belemmer_reads_its_actions_without_the_grammar() -> None:
    from gametool.games import belemmer
    from notation.tokens import parse_whole

    def fast(text: str) -> Any:
        match = belemmer._FAST_SHUFFLE.fullmatch(text)
        if match is not None:
            return None  # the shuffle's own reader, checked by the Belemmer tests
        return belemmer._fast_words(text)

    def slow(text: str) -> Any:
        return [str(w).lower() if isinstance(w, str) else w
                for w in parse_whole(belemmer._grammar(), text)]

    agree(fast, slow, ["place", "PLACE", " ", "a1", "D4", "-", "reveal", "red", "Black", "QH",
                       "10s", "toss", "heads", "TAILS", "resign", "e5"],
          [t for t in written_by_the_tool("belemmer") if not t.startswith("shuffle")])


def test_race_games_read_words_and_rolls_without_the_grammar() -> None:
    from gametool.games.race import notation
    from notation.tokens import parse_whole

    def fast_word(text: str) -> Any:
        match = notation._FAST_WORD.fullmatch(text)
        return None if match is None else notation.read_action(text, 24)

    def slow_word(text: str) -> Any:
        notation.read_action.cache_clear()
        saved = notation._FAST_WORD
        notation._FAST_WORD = re.compile("(?!)")
        try:
            return notation.read_action(text, 24)
        finally:
            notation._FAST_WORD = saved
            notation.read_action.cache_clear()

    agree(fast_word, slow_word, ["pass", "Resign", "w", "B", ":", " ", "x"],
          ["pass", "resign", "W: pass", "b:resign"])

    def fast_roll(text: str) -> Any:
        match = notation._FAST_ROLL.fullmatch(text)
        return None if match is None else (int(match[1]), int(match[2]))

    def slow_roll(text: str) -> Any:
        values = parse_whole(notation._roll_grammar(), text)[0].values
        return values[0], values[1]

    agree(fast_roll, slow_roll, ["roll", "ROLL", " ", "6", "1", "-", "7", "0"],
          [t for gid in ("tawula", "track-gammon") for t in written_by_the_tool(gid, 2)
           if t.startswith("roll")])
    assert notation.read_roll("13/19") is None


def test_card_and_domino_games_read_their_actions_without_the_grammar() -> None:
    from gametool.games import two_headed_dragon as dragon
    from gametool.games.johari_bones import game as johari
    from gametool.games.western_mahjong import grammar as mahjong

    def slow_mahjong(text: str) -> Any:
        saved = mahjong._fast
        mahjong._fast = lambda _t: None
        try:
            return mahjong.read(text)
        finally:
            mahjong._fast = saved

    agree(mahjong._fast, slow_mahjong,
          ["draw", "wall", "discard", "meld", "add", "to", "drawn", "deal", "p1:", "P2:", "out",
           "resign", "1b", "9K", "EW", "rd", "/", " ", "3", "0b"],
          [t for t in written_by_the_tool("western-mahjong", 2)])

    def fast_johari(text: str) -> Any:
        return johari._read(text) if johari._FAST.fullmatch(text.strip()) else None

    def slow_johari(text: str) -> Any:
        from notation.tokens import parse_whole

        return [w.lower() if isinstance(w, str) else w
                for w in parse_whole(johari._grammar(), text)]

    agree(fast_johari, slow_johari,
          ["deal", "p1:", "p5", "drawn", "draw", "draw>", "me", ".", "in", "UP", "swap", "score",
           "run4", "chance", "resign", "1-2", "6-6", "7-1", " "],
          [t for t in written_by_the_tool("johari-bones", 2)])

    def slow_dragon(text: str) -> Any:
        saved = dragon._fast
        dragon._fast = lambda _t: None
        try:
            return dragon._read(text)
        finally:
            dragon._fast = saved

    agree(dragon._fast, slow_dragon,
          ["lead", "play", "sheep", "open", "deal", "leader", "resign", "p1:", "p3", "1-2", "6-0",
           "7-7", "3", " "],
          [t for t in written_by_the_tool("two-headed-dragon", 2)])


def test_a_chess_claim_is_read_without_the_grammar() -> None:
    from gametool.games.chess import game as chess
    from gametool.games.chess.san_grammar import ACTION
    from notation.tokens import parse_whole

    def fast(text: str) -> Any:
        claim = chess._CLAIM.fullmatch(text.strip())
        if claim is None or (claim[1] is not None and chess.COMMON.fullmatch(claim[1]) is None):
            return None  # left to the grammar
        chess.read_action.cache_clear()
        return chess.read_action(text)

    def slow(text: str) -> Any:
        parts = parse_whole(ACTION, text)
        return parts[0] == "claim", parts[-1] if isinstance(parts[-1], chess.MoveText) else None

    agree(fast, slow, ["claim-draw", "CLAIM-DRAW", " ", "Re4", "Nf3+", "e8=Q", "O-O", "x"],
          ["claim-draw", "claim-draw Re4", "claim-draw Nxf3+", "claim-draw O-O"])


LOADED = """\
import gc, json, sys
import gametool.cli as cli

def looked_at():
    lazy = [(f"{name}.{key}", value) for name, module in list(sys.modules.items())
            if name.split(".")[0] in ("gametool", "notation")
            for key, value in vars(module).items() if type(value).__name__ == "_Lazy"]
    compiled = [name for name, value in lazy if "match" in vars(value)]
    print(json.dumps([len(lazy), compiled, gc.isenabled(), gc.get_freeze_count() > 0]))

cli.main = looked_at
from gametool.__main__ import run
run()
"""


def test_loading_the_command_line_compiles_no_pattern_and_keeps_the_collector_on() -> None:
    """What the ``gametool`` entry point has done when the command starts: the modules loaded
    compile none of their patterns (each is compiled when first used), and the collector is on
    again, the objects made while loading set apart."""
    done = subprocess.run([sys.executable, "-c", LOADED], capture_output=True, text=True,
                          timeout=120, check=True)
    count, compiled, enabled, frozen = json.loads(done.stdout)
    assert count >= 20, done.stdout
    assert compiled == [], compiled
    assert enabled and frozen, done.stdout


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    from notation.patterns import lazy

    cases = [(r"([a-h])([1-8])", 0, ["e4", "xe4 d5", "", "E4"]),
             (r"^\s*(\w+)$", re.MULTILINE, ["a\n b\nc d", "one"]),
             (r"(?P<x>x)?y", re.IGNORECASE, ["XY y xy", "z"])]
    for source, flags, texts in cases:
        compiled = re.compile(source, flags)
        for text in texts:
            pattern = lazy(source, flags)  # a new one each time: the first call compiles
            for name, args in (("match", (text,)), ("fullmatch", (text,)),
                               ("search", (text, 1)), ("findall", (text,)),
                               ("split", (text,)), ("sub", ("-", text)), ("subn", ("-", text))):
                got = getattr(pattern, name)(*args)
                want = getattr(compiled, name)(*args)
                if isinstance(want, re.Match):
                    assert got is not None and got.span() == want.span(), (source, name, text)
                    assert got.groups() == want.groups()
                else:
                    assert got == want, (source, name, text)
            assert [m.span() for m in pattern.finditer(text)] == \
                [m.span() for m in compiled.finditer(text)]
            assert (pattern.groups, pattern.groupindex, pattern.flags) == \
                (compiled.groups, compiled.groupindex, compiled.flags)
            hoisted = lazy(source, flags).fullmatch  # looked up before any call
            assert hoisted == compiled.fullmatch  # the compiled pattern's own method


SWAPPED: object = None
"""A module global that the next test makes a lazy pattern."""


def test_a_lazy_module_pattern_gives_its_place_to_the_compiled_one() -> None:
    """The stand-in of a module's global pattern, once used, is replaced there by the compiled
    pattern: the module's code then finds the pattern itself."""
    from notation.patterns import lazy

    global SWAPPED
    SWAPPED = lazy(r"[a-h][1-8]")
    assert type(SWAPPED).__name__ == "_Lazy"
    assert SWAPPED.fullmatch("e4")
    assert isinstance(SWAPPED, re.Pattern)
