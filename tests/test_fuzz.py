"""A fuzz suite over every game: mutated records and mutated actions, through the commands that
read a record, in process.

Each example damages a short record of the game in one of many ways (byte flips, truncation,
duplicated, swapped and deleted lines, Unicode and control characters, huge numbers, long lines,
changed tags) or mutates an action typed to ``move``, then runs commands on it. Every run must
end in success or in a clear refusal: exit status 0, 1 or 2, no exception, no "internal error",
and a refusal's message on one line.

Every record a command writes is validated: ``move`` and ``export`` on standard output, ``export
-o`` and ``undo`` in a file (refused: one line, and the file as it was). The intact record (and,
in the slow run, one damaged record in ``PLAYERS_FILES_ONE_IN``) is exported for every seat,
and each player's file exported again for every seat (its own: a record that validates;
another: refused).

``GAMETOOL_FUZZ_EXAMPLES`` sets the examples per game (200 by default, as in CI); the ``slow``
test runs ten times as many.
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

from gametool.auto import random_game
from gametool.cli import cli

RUNNER = CliRunner()
DECISION = re.compile(r"\((?:[A-Z][a-z]+ )?D\d+[),;:]")
EXAMPLES = int(os.environ.get("GAMETOOL_FUZZ_EXAMPLES", "200"))
PLIES = 24
PLAYERS_FILES_ONE_IN = 25
"""In the slow run, one damaged record in this many is also exported for every seat (a damaged
record's player's file can cost seconds to read: too much for the run every change makes)."""


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
    if result.exit_code == 1 and args[0] != "validate":
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


def fuzz_game(game_id: str, examples: int, players_one_in: int = 0) -> None:
    text = base_record(game_id)
    choices = commands(game_id)
    with tempfile.TemporaryDirectory() as folder:
        players_files(game_id, text.encode(), Path(folder))
        fuzz_examples(game_id, examples, text, choices, Path(folder), players_one_in)


def fuzz_examples(game_id: str, examples: int, text: str, choices: list[list[str]],
                  folder: Path, players_one_in: int) -> None:

    @seed(zlib.crc32(f"{game_id}:{examples}".encode()))  # each game its own fixed draws
    @fuzz_settings(examples)
    @given(data=st.data())
    def inner(data: st.DataObject) -> None:
        if data.draw(st.integers(0, 3), label="what") == 0:
            # a mutated action typed to move, on the intact record (printed, not written)
            listed = RUNNER.invoke(cli, ["moves", "-"], input=text.encode()).stdout.splitlines()
            action = data.draw(st.sampled_from(listed or ["resign"]), label="action")
            written_record_reads_back(["move", "-", mutate_text(data, action)], text.encode())
            return
        damaged = mutate_record(data, text)
        for _ in range(data.draw(st.integers(0, 2), label="more changes")):
            damaged = mutate_record(data, damaged.decode("utf-8", "replace"))
        if data.draw(st.integers(0, 4), label="move on it") == 0:
            written_record_reads_back(["move", "-", "--auto", "random", "--seed", "1"], damaged)
        picked = data.draw(st.lists(st.sampled_from(choices), min_size=1, max_size=2,
                                    unique_by=tuple), label="commands")
        for args in picked:
            run(args, damaged)
        if players_one_in and data.draw(st.integers(0, players_one_in - 1),
                                        label="players' files") == 0:
            players_files(game_id, damaged, folder)

    inner()


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_fuzzed_records_and_actions(game_id: str) -> None:
    fuzz_game(game_id, EXAMPLES)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_fuzzed_records_and_actions_long(game_id: str) -> None:
    fuzz_game(game_id, EXAMPLES * 10, PLAYERS_FILES_ONE_IN)
