"""A fuzz suite over every game: mutated records and mutated actions, through the commands that
read a record, in process.

Each example damages a short record of the game in one of many ways (byte flips, truncation,
duplicated, swapped and deleted lines, Unicode and control characters, huge numbers, long lines,
changed tags) or mutates an action typed to ``move``, then runs commands on it. Every run must
end in success or in a clear refusal: exit status 0, 1 or 2, no exception, no "internal error",
and a refusal's message on one line.

Every record a command writes is validated: ``move`` and ``export`` on standard output, ``export
-o`` and ``undo`` in a file (refused: one line, and the file as it was). The intact record and
one damaged record in ``PLAYERS_FILES_ONE_IN`` are exported for every seat, and each player's
file exported again for every seat (its own: a record that validates; another: refused). Some
examples damage a seat's file (exported from the intact record) instead of the master record.
The commands that write new records (``start``, ``play``, ``selfplay``, ``filter``, ``split``,
``import``, ``commit``, ``answer``) are fuzzed too, and what they write is validated.

``GAMETOOL_FUZZ_EXAMPLES`` sets the examples per game (120 by default, as in CI, each run drawing
new ones); the ``slow`` test runs ten times as many. ``GAMETOOL_FUZZ_WRITES`` sets the started
records per game (8).
"""

from __future__ import annotations

import os
import re
import tempfile
import traceback
import zlib
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import PLAYABLE
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from gametool import games
from gametool.cli import cli
from gametool.players.auto import random_game

RUNNER = CliRunner()
DECISION = re.compile(r"\((?:[A-Z][a-z]+ )?D\d+[),;:]")
EXAMPLES = int(os.environ.get("GAMETOOL_FUZZ_EXAMPLES", "120"))
PLIES = 24
PLAYERS_FILES_ONE_IN = 12
"""One damaged master record in this many (counted, not drawn) is also exported for every seat,
each seat's file read and exported again (see :func:`players_files`)."""


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                    phases=[Phase.explicit, Phase.generate])


@cache
def base_record(game_id: str) -> str:
    """The first plies of a seeded random game of ``game_id``."""
    return random_game(game_id, "fuzz", max_plies=PLIES).text()


@cache
def seat_names(game_id: str) -> tuple[str, ...]:
    return tuple(random_game(game_id, "fuzz", max_plies=0).names)


@cache
def seat_files(game_id: str) -> tuple[str, ...]:
    """The intact record exported for each seat (its player's file)."""
    texts = []
    for name in seat_names(game_id):
        result = RUNNER.invoke(cli, ["export", "-", "--as", name, "--weak-seed-ok"],
                               input=base_record(game_id).encode())
        assert result.exit_code == 0, result.stderr
        texts.append(result.stdout)
    return tuple(texts)


# -- mutations ---------------------------------------------------------------------------------

HUGE = ["0", "-1", "1e9", "4294967296", "18446744073709551616", "9" * 12, "9" * 400,
        "9" * 5000, "0x10", "١٢٣"]
ODD_TEXT = ["\x00", "\x07", "\x1b[31m", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028",
            "\u200b", "\ufeff", "\u202e", "é", "ß", "İ", "\U0001F600", "ｄ４", "{", "}", ";", "|",
            "[", "]", '"', "\\", "\\n", "\\u{0}", ":", ".", "?", "*", "-", " "]
CHARS = st.characters(codec="utf-8", exclude_categories=["Cs"])


def mutate_text(data: st.DataObject, text: str) -> str:
    """One hypothesis-chosen change to a piece of text (a line, an action)."""
    kind = data.draw(st.sampled_from(["insert", "replace", "delete", "number", "odd", "long",
                                      "case", "repeat"]), label="text change")
    at = data.draw(st.integers(0, len(text)), label="at")
    if kind == "insert":
        return text[:at] + data.draw(st.text(CHARS, min_size=1, max_size=4)) + text[at:]
    if kind == "replace" and text:
        at = min(at, len(text) - 1)
        return text[:at] + data.draw(CHARS, label="char") + text[at + 1:]
    if kind == "delete" and text:
        end = data.draw(st.integers(at, len(text)), label="end")
        return text[:at] + text[end:]
    if kind == "number":
        numbers = list(re.finditer(r"\d+", text))
        if numbers:
            match = data.draw(st.sampled_from(numbers), label="number")
            return text[:match.start()] + data.draw(st.sampled_from(HUGE)) + text[match.end():]
        return text + data.draw(st.sampled_from(HUGE))
    if kind == "odd":
        return text[:at] + data.draw(st.sampled_from(ODD_TEXT), label="odd") + text[at:]
    if kind == "long":
        size = data.draw(st.sampled_from([1000, 70_000]), label="size")
        return text[:at] + data.draw(st.sampled_from(["x", "9", " ", "é", "|"])) * size \
            + text[at:]
    if kind == "case":
        return text.swapcase()
    return text + text


def mutate_record(data: st.DataObject, text: str) -> bytes:
    """One hypothesis-chosen kind of damage to a whole record."""
    lines = text.splitlines(keepends=True)
    raw = text.encode()
    kind = data.draw(st.sampled_from(["line", "line", "delete", "swap", "duplicate", "truncate",
                                      "flip", "insert-bytes", "crlf", "tag", "two", "ply"]),
                     label="record change")
    index = data.draw(st.integers(0, max(0, len(lines) - 1)), label="line")
    if kind == "line" and lines:
        lines[index] = mutate_text(data, lines[index].rstrip("\n")) + "\n"
    elif kind == "delete" and lines:
        del lines[index]
    elif kind == "swap" and len(lines) > 1:
        other = data.draw(st.integers(0, len(lines) - 1), label="other")
        lines[index], lines[other] = lines[other], lines[index]
    elif kind == "duplicate" and lines:
        lines.insert(index, lines[index])
    elif kind == "tag":
        name = data.draw(st.sampled_from(["Game", "Players", "Options", "Seed", "SeedHash",
                                          "Position", "Result", "Termination", "Event"]))
        value = mutate_text(data, data.draw(st.sampled_from(["", "colors", "p1; p2", "*",
                                                             "1-0", "x=1", "c0ffee"])))
        if data.draw(st.integers(0, 3), label="long value") == 0:
            # long runs of characters the writer escapes: the written line grows up to tenfold
            value = data.draw(st.sampled_from(["\x7f", "\x01", "\x1b", "\U0010ffff", "é"])) * \
                data.draw(st.sampled_from([6_600, 10_000, 16_384, 16_385]), label="length")
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.insert(min(index, 2), f'[{name} "{escaped}"]\n')
    elif kind == "ply":
        turns = [i for i, line in enumerate(lines) if re.match(r"\d+\.", line)]
        if turns:
            i = data.draw(st.sampled_from(turns), label="turn")
            lines[i] = re.sub(r"^\d+", data.draw(st.sampled_from(HUGE)), lines[i])
    elif kind == "two" and lines:
        lines[index] = mutate_text(data, lines[index].rstrip("\n")) + "\n"
        other = data.draw(st.integers(0, len(lines) - 1), label="other")
        lines.insert(other, lines[index])
    if kind in ("line", "delete", "swap", "duplicate", "tag", "two", "ply"):
        return "".join(lines).encode("utf-8")
    if kind == "truncate":
        return raw[:data.draw(st.integers(0, len(raw)), label="cut")]
    if kind == "flip" and raw:
        at = data.draw(st.integers(0, len(raw) - 1), label="at")
        bit = data.draw(st.integers(0, 7), label="bit")
        return raw[:at] + bytes([raw[at] ^ (1 << bit)]) + raw[at + 1:]
    if kind == "insert-bytes":
        at = data.draw(st.integers(0, len(raw)), label="at")
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=8), label="bytes") + raw[at:]
    return raw.replace(b"\n", b"\r\n")


# -- the contract ------------------------------------------------------------------------------


def run(args: list[str], input: bytes | None = None) -> str | None:
    """Run one command and check the contract; the standard output if it succeeded."""
    result = RUNNER.invoke(cli, args, input=input, catch_exceptions=True)
    exc = result.exception
    shown = " ".join(repr(a[:60]) for a in args)
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-4:])
        pytest.fail(f"gametool {shown}: exception escaped:\n{tb}")
    assert result.exit_code in (0, 1, 2), f"gametool {shown}: exit {result.exit_code}"
    output = result.stdout + result.stderr
    assert "internal error" not in output, f"gametool {shown}: {result.stderr}"
    assert "Traceback" not in output, f"gametool {shown}: {output[-2000:]}"
    # The rule is named in words: decision numbers ("(D7)") are for the rules files only.
    assert not DECISION.search(result.stderr), f"gametool {shown}: {result.stderr[:300]}"
    if result.exit_code == 1 and args[0] not in ("validate", "filter", "import"):
        # (validate, filter and import report each bad record of many on a line of its own)
        assert len(result.stderr.strip().splitlines()) == 1, \
            f"gametool {shown}: not one line: {result.stderr[:500]!r}"
    return result.stdout if result.exit_code == 0 else None


def written_record_reads_back(args: list[str], input: bytes) -> None:
    """A command that succeeds writes a record that every command can read again."""
    out = run(args, input)
    if out is not None:
        result = RUNNER.invoke(cli, ["validate", "-"], input=out.encode())
        assert result.exit_code == 0, f"{args}: wrote a record that does not validate: " \
            f"{result.stdout}{result.stderr}"


def written_file_validates(args: list[str], path: Path, before: bytes | None) -> None:
    """A command that writes ``path`` (``export -o``, ``undo`` in place) leaves a record that
    validates there, or refuses in one line and leaves the file as it was (none if none)."""
    out = run(args)
    if out is None:
        if before is None:
            assert not path.exists(), f"gametool {args}: refused, yet wrote {path.name}"
        else:
            assert path.read_bytes() == before, f"gametool {args}: refused, yet changed the file"
        return
    result = RUNNER.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, f"{args}: wrote a record that does not validate: " \
        f"{result.stdout}{result.stderr}"


def players_files(game_id: str, record: bytes, folder: Path) -> None:
    """Every seat's file exported from ``record`` validates; each is exported again for every
    seat: for its own, a record that validates, for another, a one-line refusal and no file;
    and the commands that read a record read it."""
    master = folder / "master.gtn"
    master.write_bytes(record)
    names = seat_names(game_id)
    for name in names:
        mine = folder / f"{name}.gtn"
        mine.unlink(missing_ok=True)
        written_file_validates(["export", str(master), "--as", name, "--weak-seed-ok", "-o",
                                str(mine)], mine, None)
        if not mine.exists():
            continue
        for args in (["show", str(mine)], ["moves", str(mine)],
                     ["replay", "--to", "2", str(mine)]):
            run(args)
        for other in names:
            again = folder / f"{name}-for-{other}.gtn"
            again.unlink(missing_ok=True)
            written_file_validates(["export", str(mine), "--as", other, "-o", str(again)],
                                   again, None)
            if other == name:
                assert again.exists(), f"{name}'s own file not exported again for {name}"
        mine.unlink()
    undone = folder / "undo.gtn"
    undone.write_bytes(record)
    written_file_validates(["undo", "-q", str(undone)], undone, record)


def commands(game_id: str) -> list[list[str]]:
    seat = seat_names(game_id)[0]
    return [["validate", "-"], ["validate", "--all", "--json", "-"], ["show", "-"],
            ["show", "--json", "-"], ["show", "--as", seat, "--weak-seed-ok", "-"],
            ["moves", "-"], ["moves", "--as", seat, "-"], ["replay", "--to", "3", "-"],
            ["replay", "--json", "-"], ["export", "--as", seat, "--weak-seed-ok", "-"]]


def fuzz_game(game_id: str, examples: int) -> None:
    text = base_record(game_id)
    choices = commands(game_id)
    with tempfile.TemporaryDirectory() as folder:
        players_files(game_id, text.encode(), Path(folder))
        fuzz_examples(game_id, examples, text, choices, Path(folder))


def fuzz_examples(game_id: str, examples: int, text: str, choices: list[list[str]],
                  folder: Path) -> None:

    damaged_masters = 0

    @seed(zlib.crc32(f"{game_id}:{examples}".encode()))  # each game its own fixed draws
    @fuzz_settings(examples)
    @given(data=st.data())
    def inner(data: st.DataObject) -> None:
        nonlocal damaged_masters
        what = data.draw(st.integers(0, 4), label="what")
        if what == 0:
            # a mutated action typed to move, on the intact record (printed, not written)
            listed = RUNNER.invoke(cli, ["moves", "-"], input=text.encode()).stdout.splitlines()
            action = data.draw(st.sampled_from(listed or ["resign"]), label="action")
            written_record_reads_back(["move", "-", mutate_text(data, action)], text.encode())
            return
        original = text
        if what == 1:  # a seat's own file, damaged
            original = data.draw(st.sampled_from(seat_files(game_id)), label="seat's file")
        damaged = mutate_record(data, original)
        for _ in range(data.draw(st.integers(0, 2), label="more changes")):
            damaged = mutate_record(data, damaged.decode("utf-8", "replace"))
        if data.draw(st.integers(0, 4), label="move on it") == 0:
            written_record_reads_back(["move", "-", "--auto", "random", "--seed", "1"], damaged)
        picked = data.draw(st.lists(st.sampled_from(choices), min_size=1, max_size=2,
                                    unique_by=tuple), label="commands")
        for args in picked:
            run(args, damaged)
        if what != 1:
            damaged_masters += 1
            if damaged_masters % PLAYERS_FILES_ONE_IN == 0:
                players_files(game_id, damaged, folder)

    inner()


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_fuzzed_records_and_actions(game_id: str) -> None:
    fuzz_game(game_id, EXAMPLES)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_fuzzed_records_and_actions_long(game_id: str) -> None:
    fuzz_game(game_id, EXAMPLES * 10)


# -- every record a command writes -------------------------------------------------------------

WRITES = int(os.environ.get("GAMETOOL_FUZZ_WRITES", "8"))
"""Examples per game of the commands that start records (start, play)."""
PGN_FILES = [Path(__file__).parent / "data" / name
             for name in ("annotated.pgn", "archive.pgn", "famous.pgn")]
FLEETS = ("cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s",
          "cv a1 e, bb e4 e, cr b5 e, sub c3 ne, pt j2 s")


@cache
def start_position(game_id: str) -> str | None:
    """The one-line encoding of the fuzzed record's last position, if the game has one."""
    session = random_game(game_id, "fuzz", max_plies=PLIES)
    try:
        return session.game.encode_position(session.state)
    except Exception:  # noqa: BLE001 - a game without a position encoding
        return None


def start_args(data: st.DataObject, game_id: str) -> list[str]:
    """``start GAME`` with seat names, an option, a seed and a position, each intact, damaged
    or left out."""
    args = ["start", game_id]
    if data.draw(st.booleans(), label="players"):
        players = ",".join(seat_names(game_id))
        if data.draw(st.booleans(), label="damaged players"):
            players = mutate_text(data, players)
        args += ["--players", players]
    options = games.playable_class(game_id).options
    if options and data.draw(st.booleans(), label="option"):
        option = data.draw(st.sampled_from(options), label="which option")
        value = data.draw(st.sampled_from([option.default, *(option.choices or ())]))
        pair = f"{option.name}={value}"
        if data.draw(st.booleans(), label="damaged option"):
            pair = mutate_text(data, pair)
        args += ["--option", pair]
    seed_kind = data.draw(st.sampled_from(["seed", "damaged", "none", "random"]), label="seed")
    if seed_kind == "seed":
        args += ["--seed", f"fuzz-{game_id}"]
    elif seed_kind == "damaged":
        args += ["--seed", mutate_text(data, f"fuzz-{game_id}")]
    elif seed_kind == "none":
        args.append("--no-seed")
    position = start_position(game_id)
    if position is not None and data.draw(st.booleans(), label="position"):
        if data.draw(st.booleans(), label="damaged position"):
            position = mutate_text(data, position)
        args += ["--position", position]
    return args


def written_files_validate(files: list[Path], what: str) -> None:
    """Every file of ``files`` is one record that validates (one ``validate`` for them all)."""
    if not files:
        return
    result = RUNNER.invoke(cli, ["validate", *map(str, files)])
    assert result.exit_code == 0, f"{what} wrote a record that does not validate: " \
        f"{result.stdout[-1500:]}{result.stderr[-1500:]}"


def writers_journey(data: st.DataObject, game_id: str, folder: Path, index: int) -> None:
    """``start`` with fuzzed arguments, then ``play`` that record with a typed action (intact
    or damaged) and quit: every file written validates; a refusal is one line and no file."""
    started = folder / f"start-{index}.gtn"
    written_file_validates([*start_args(data, game_id), "-o", str(started)], started, None)
    if not started.exists():
        return
    listed = RUNNER.invoke(cli, ["moves", str(started)]).stdout.splitlines()
    action = data.draw(st.sampled_from(listed or ["resign"]), label="typed action")
    if data.draw(st.booleans(), label="damaged action"):
        action = mutate_text(data, action).replace("\n", " ").replace("\r", " ")
    before = started.read_bytes()
    played = RUNNER.invoke(cli, ["play", str(started), "--color", "never"],
                           input=f"{action}\nquit\n", catch_exceptions=True)
    assert played.exception is None or isinstance(played.exception, SystemExit), \
        f"play: {played.exception!r}"
    assert "Traceback" not in played.output and "internal error" not in played.output
    if started.read_bytes() != before:
        written_file_validates(["validate", str(started)], started, None)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_every_record_a_command_writes_validates(game_id: str, tmp_path: Path) -> None:
    """``start`` and ``play`` (fuzzed arguments and typed actions), ``selfplay``, ``filter`` and
    ``split`` of intact and damaged records, ``import`` of damaged PGN (chess), ``commit`` and
    ``answer`` (Special Salvo played without a referee): every record they write validates,
    and every refusal is one line that leaves no file (or the file as it was)."""
    text = base_record(game_id)

    @seed(zlib.crc32(f"{game_id}:writes".encode()))
    @fuzz_settings(WRITES)
    @given(data=st.data())
    def starts(data: st.DataObject) -> None:
        writers_journey(data, game_id, tmp_path, len(list(tmp_path.glob("start-*.gtn"))))

    starts()
    corpus = tmp_path / "selfplay"
    run(["selfplay", game_id, "-n", "1", "-o", str(corpus), "--seed", f"fuzz-{game_id}"])
    written_files_validate(sorted(corpus.glob("*.gtn")), "selfplay")
    # a file of records: the intact one, a played-out one, and one damaged by a cut
    played = sorted(corpus.glob("*.gtn"))[0].read_text()
    cut = text[:len(text) * 2 // 3]
    many = tmp_path / "many.gtn"
    many.write_text(text + "\n" + played + "\n" + cut)
    kept = tmp_path / "kept.gtn"
    run(["filter", str(many), "-o", str(kept)])
    assert kept.exists(), "filter wrote no file"
    if kept.read_text().strip():
        written_files_validate([kept], "filter")
    for name, records in (("whole", text + "\n" + played), ("torn", many.read_text())):
        source, parts = tmp_path / f"{name}.gtn", tmp_path / name
        source.write_text(records)
        done = run(["split", str(source), "-o", str(parts), "-q"]) is not None
        files = sorted(parts.glob("*.gtn"))
        if name == "whole":
            assert done and len(files) == 2, files
            written_files_validate(files, "split")
        elif not done:
            assert not files, f"split refused, yet wrote {files}"
    if game_id == "chess":
        imports(tmp_path)
    if game_id == "special-salvo":
        commit_reveal(tmp_path)


def imports(folder: Path) -> None:
    """PGN files, intact and damaged, imported: the records written validate."""
    for index, pgn in enumerate(PGN_FILES):
        source = folder / f"in-{index}.pgn"
        source.write_bytes(pgn.read_bytes())
        out = folder / f"imported-{index}.gtn"
        run(["import", str(source), "-o", str(out), "-q"])
        written_files_validate([out], "import")

    @seed(zlib.crc32(b"import"))
    @fuzz_settings(WRITES * 2)
    @given(data=st.data())
    def damaged(data: st.DataObject) -> None:
        pgn = data.draw(st.sampled_from(PGN_FILES), label="pgn")
        source = folder / "damaged.pgn"
        source.write_bytes(mutate_record(data, pgn.read_text()))
        out = folder / "damaged.gtn"
        out.unlink(missing_ok=True)
        result = run(["import", str(source), "-o", str(out), "-q"])
        if out.exists() and out.read_text().strip():
            written_files_validate([out], "import")
        elif result is None:
            assert not out.exists() or not out.read_text().strip()

    damaged()


def commit_reveal(folder: Path) -> None:
    """Special Salvo without a referee: each seat commits to its fleet from a private file
    (one of them damaged first), a salvo is fired and answered; the record validates after
    every command that writes it, and a refused command leaves it as it was."""
    game = folder / "salvo.gtn"
    written_file_validates(["start", "special-salvo", "--option", "referee=off", "--players",
                            "ann,ben", "-o", str(game)], game, None)
    for seat, fleet in zip(("ann", "ben"), FLEETS, strict=True):
        mine = folder / f"{seat}.fleet"
        wrong = fleet.replace("a1 e", "a1 w").replace("j10 s", "j10 n")
        written_file_validates(["commit", str(game), "--as", seat, "--private", str(mine),
                                "--fleet", wrong], game, game.read_bytes())
        assert not mine.exists(), "a refused fleet left a private file"
        written_file_validates(["commit", str(game), "--as", seat, "--private", str(mine),
                                "--fleet", fleet], game, game.read_bytes())
    written_file_validates(["move", str(game), "fire a1 b2 c3 d4 e5"], game, game.read_bytes())
    (folder / "torn.fleet").write_text((folder / "ben.fleet").read_text()[:40])
    written_file_validates(["answer", str(game), "--as", "ben", "--private",
                            str(folder / "torn.fleet")], game, game.read_bytes())
    written_file_validates(["answer", str(game), "--as", "ben", "--private",
                            str(folder / "ben.fleet")], game, game.read_bytes())
    assert "ben: report a1 hit" in game.read_text(), game.read_text()


PIECES = [" ", "  " * 40, "(", ")", ",", ";", ":", "D7", "D12", "Tawula D5", "x", "\n", "\t",
          ", ", "(D1, D2)", "D1: ", "(D2; ", "é"]
_D = r"(?:[A-Z][a-z]+ )?D\d+"
PLAIN_DECISIONS = ((re.compile(rf"\s*\({_D}(?:,\s*{_D})*\)"), ""),
                   (re.compile(rf"\({_D}(?:,\s*{_D})*[;:,]\s*"), "("),
                   (re.compile(rf"[,;:]?\s*\b{_D}(?=\))"), ""),
                   (re.compile(rf"\b{_D}:\s+"), ""))


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_decision_numbers_are_removed_as_the_plain_patterns_remove_them(pieces: list[str]
                                                                        ) -> None:
    """The patterns that strip decision numbers from messages begin a match only where a run
    of spaces begins (a 70,000-space action once cost minutes to refuse); they remove what the
    plain patterns remove."""
    from gametool.views.render import without_decisions

    text = "".join(pieces)
    plain = text
    for pattern, replacement in PLAIN_DECISIONS:
        plain = pattern.sub(replacement, plain)
    assert without_decisions(text) == plain
