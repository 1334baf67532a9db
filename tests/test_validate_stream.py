"""validate reads a record as a stream: its memory does not grow with the record.

A refused record of N lines and one of 8N lines (both larger than a part, so that neither is
read whole) are validated by the installed ``gametool`` in a child process of a small Python
process, which reports the child's peak resident memory. Reading the whole record first took
about 80 MB more for the larger one; streaming takes the same for both. The errors are those
the whole-record reader gave.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(done.returncode, peak, repr(done.stdout), repr(done.stderr), sep="\\n")
"""

CYCLE = ("Nf3", "Nf6", "Ng1", "Ng8")


def refused_record(lines: int) -> str:
    """Knights out and back: ply 2 is a typo (Nf5 for Nf6), the fifth time the first position
    comes back (ply 16) ends the game by fivefold repetition, and every line after it is one
    too many."""
    out = ['[Game "chess"]', '[Players "ann; bob"]', '[Result "*"]', ""]
    for ply in range(1, lines + 1):
        move = "Nf5" if ply == 2 else CYCLE[(ply - 1) % 4]
        out.append(f"{ply}. {'ann' if ply % 2 else 'bob'}: {move}")
    return "\n".join(out) + "\n"


def peak_validate(path: Path, *options: str) -> tuple[int, int, str, str]:
    """(exit status, peak RSS in KiB, stdout, stderr) of ``gametool validate`` on ``path``."""
    done = subprocess.run([sys.executable, "-c", MEASURE, "gametool", "validate", *options,
                           str(path)], capture_output=True, text=True, timeout=120, check=True)
    status, peak, out, err = done.stdout.splitlines()
    return int(status), int(peak), eval(out), eval(err)  # noqa: S307 (our own repr)


def expected_errors(path: Path, all_errors: bool) -> list[str]:
    first = f"{path}:6:9: ply 2: illegal move 'Nf5': no knight of Black can legally move to f5"
    if not all_errors:
        return [first]
    return [first,
            f"{path}:21:10: ply 17: the game is over (1/2-1/2, fivefold repetition): no more "
            "actions",
            f"{path}:3:1: Result tag says '*' but the game's result is '1/2-1/2'"]


@pytest.mark.parametrize("all_errors", [False, True], ids=["first", "all"])
def test_validate_memory_does_not_grow_with_the_record(tmp_path: Path, all_errors: bool) -> None:
    lines = 70_000  # just over a part (1 MiB): the file is read as a stream, not whole
    small, large = tmp_path / "small.gtn", tmp_path / "large.gtn"
    small.write_text(refused_record(lines), encoding="utf-8")
    large.write_text(refused_record(8 * lines), encoding="utf-8")
    assert small.stat().st_size > 1 << 20
    options = ("--all",) if all_errors else ()
    peaks = {}
    for path in (small, large):
        status, peak, out, err = peak_validate(path, *options)
        assert status == 1
        # one verdict line on stdout: the first error, where it is
        first = expected_errors(path, all_errors)[0]
        assert out == f"{path}: invalid: {first[len(str(path)) + 1:]}\n"
        assert err.splitlines() == expected_errors(path, all_errors)
        peaks[path.name] = peak
    # The larger record holds 8 MB more text (and 490,000 more lines): reading it whole took
    # about 80 MB more. Allow a few MB of noise.
    assert peaks["large.gtn"] - peaks["small.gtn"] < 6 * 1024, peaks


def test_validate_streamed_record_gives_the_verdict_of_the_whole_text(tmp_path: Path) -> None:
    """The same records through the stream (a file larger than a part) and read whole (a
    small file): the same JSON verdict, record by record."""
    from gametool.records import check_text

    records = refused_record(40) + "\n" + refused_record(16).replace('"*"', '"1/2-1/2"')
    padding = "{ " + "x" * 1000 + " }\n"
    big = records + "\n".join([records.rstrip("\n"), padding * 1200])
    path = tmp_path / "big.gtn"
    path.write_text(big, encoding="utf-8")
    assert path.stat().st_size > 1 << 20
    done = subprocess.run(["gametool", "validate", "--all", "--json", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    (entry,) = json.loads(done.stdout)
    whole = check_text(big, str(path), True)
    streamed = [(r["line"], r["plies"], [e["message"] for e in r["errors"]])
                for r in entry["records"]]
    assert streamed == [(v.line, v.plies, [e.message for e in v.errors]) for v in whole]
    assert len(entry["records"]) == 4


def parsed_verdicts(text: str, all_errors: bool) -> list[tuple[int, int, list[str]]]:
    """The verdicts as read from the records parsed whole (the replay of ``Session.load``),
    without the stream and its plain-line path."""
    from gametool.core.errors import GameError
    from gametool.records import Session, read_text

    try:
        records = read_text(text, "f.gtn")
    except GameError as exc:
        return [(exc.where.line or 1, 0, [str(exc)])]
    out = []
    for record in records:
        errors: list[GameError] = []
        plies = 0
        try:
            session = Session._from_header(record, "f.gtn")
            try:
                session._replay_body(errors if all_errors else None)
                session._check_result_tags(errors if all_errors else None)
            finally:
                plies = session.ply - session.guessed
        except GameError as exc:
            errors.append(exc)
        out.append((record.line, plies, [str(e) for e in errors]))
    return out


def damaged(text: str, rng: random.Random) -> list[str]:
    """A few copies of a record, each damaged in one way a hand or a transfer damages one."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    if not body:
        return []
    out = []
    seats = sorted({line.split(": ", 1)[0].split(". ", 1)[-1] for line in
                    (lines[i] for i in body)})
    for way in range(5):
        copy = list(lines)
        i = rng.choice(body)
        if way == 0:
            del copy[i]  # a lost line: every ply number after it is off by one
        elif way == 1:
            head, _, action = copy[i].partition(": ")
            copy[i] = f"{head}: {action[::-1]}"  # a typo
        elif way == 2:
            j = rng.choice(body)
            copy[i], copy[j] = copy[j], copy[i]
        elif way == 3:
            copy[i:i] = ["(", copy[rng.choice(body)], ")", "; a note", copy[i] + " $1 { again }"]
        else:  # the action written for the wrong seat
            number, _, rest = copy[i].partition(". ")
            seat, _, action = rest.partition(": ")
            other = [name for name in seats if name != seat]
            copy[i] = f"{number}. {rng.choice(other or [seat])}: {action}"
        out.append("\n".join(copy) + "\n")
    return out


@pytest.mark.parametrize("all_errors", [False, True], ids=["first", "all"])
def test_stream_reads_as_the_parsed_records(all_errors: bool) -> None:
    """A sample record of every game, whole and damaged: the stream (with its path for plain
    lines) and the replay of the parsed records give the same verdicts, and so do the lines
    of a file (with their line ends, CRLF ones too)."""
    from gametool.records import check_lines, check_text

    rng = random.Random(5)
    folders = sorted(Path(__file__).parent.parent.glob("sample_games/*"))
    assert len(folders) > 15
    texts = []
    for folder in folders:  # the shortest record of each game, to keep this quick
        text = min((path.read_text(encoding="utf-8") for path in folder.glob("*.gtn")),
                   key=len)
        texts += [text, *damaged(text, rng)[::2 if all_errors else 1]]
    texts.append("\n".join(texts[:5]))  # several records in one file
    for text in texts:
        expected = parsed_verdicts(text, all_errors)
        streamed = [(v.line, v.plies, [str(e) for e in v.errors])
                    for v in check_text(text, "f.gtn", all_errors)]
        assert streamed == expected, text
        crlf = text.replace("\n", "\r\n")
        lines = io.StringIO(crlf, newline="")
        assert [(v.line, v.plies, [str(e) for e in v.errors])
                for v in check_lines(lines, "f.gtn", all_errors)] == expected


@pytest.mark.parametrize("all_errors", [False, True], ids=["first", "all"])
def test_stream_reads_records_of_one_header_each_as_alone(all_errors: bool) -> None:
    """Many records of each game in one text, whole and damaged, with the same header (the
    stream makes their game once): each verdict is the one of the records parsed whole."""
    from gametool.records import check_text

    rng = random.Random(11)
    parts = []
    for folder in sorted(Path(__file__).parent.parent.glob("sample_games/*")):
        text = min((path.read_text(encoding="utf-8") for path in folder.glob("*.gtn")),
                   key=len)
        parts += [text, *damaged(text, rng)[1:3], text]
    joined = "\n".join(parts)
    expected = parsed_verdicts(joined, all_errors)
    assert len(expected) == len(parts)
    assert [(v.line, v.plies, [str(e) for e in v.errors])
            for v in check_text(joined, "f.gtn", all_errors)] == expected


ODD_ENDS = ("", " ", "\t", "\r", " $1", " {a note}", "{", "}", ";", "|", "$", "\u2028", "\xa0",
            "\x0c", " e5", "!", "+", "#", "\u00e9", " {a\tb}", " {a\x0bb}", " {\u2028}", " {a\x85}",
            " {\x1cb} ", " {\u00e9\x00}", " {" + "x" * 2048 + "}", " {" + "x" * 2049 + "}", " {}{}")
ODD_SEATS = ("{seat}", "{seat} ", "{seat}x", "{other}", "white", "black", "WHITE", "Ann",
             "{seat}:", " {seat}", "chance")


@pytest.mark.parametrize("all_errors", [False, True], ids=["first", "all"])
def test_a_turn_line_read_as_the_next_seats_word_is_read_as_the_patterns_read_it(
        all_errors: bool) -> None:
    """The stream tries a turn line first as the next seat's name and one word; a line with
    anything else about its seat or its word (a space, a tab, CR, a glyph, a note, another
    seat, a line break of another kind, in the comment too) must be read as the notation's
    reader reads it."""
    from gametool.records import check_lines, check_text

    rng = random.Random(3)
    moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
             "Bb3", "d6", "c3", "O-O"]
    for _ in range(120):
        lines = ['[Game "chess"]', '[Players "ann; bob"]', '[Result "*"]', ""]
        for ply, move in enumerate(moves, 1):
            seat, other = ("ann", "bob") if ply % 2 else ("bob", "ann")
            if rng.random() < 0.15:
                seat = rng.choice(ODD_SEATS).format(seat=seat, other=other)
            if rng.random() < 0.15:
                move += rng.choice(ODD_ENDS)
            lines.append(f"{ply}. {seat}: {move}")
        text = "\n".join(lines) + "\n"
        expected = parsed_verdicts(text, all_errors)
        assert [(v.line, v.plies, [str(e) for e in v.errors])
                for v in check_text(text, "f.gtn", all_errors)] == expected, text
        # The lines of a file, cut at LF only (a comment may hold a line break of another kind).
        assert [(v.line, v.plies, [str(e) for e in v.errors])
                for v in check_lines(text.splitlines(keepends=True) if "\r" in text
                                     else [f"{line}\n" for line in text.split("\n")[:-1]],
                                     "f.gtn", all_errors)] == expected, text
        if "\r" in text:
            continue  # (CR before LF: one line break here, two once LF becomes CRLF)
        lines_read = io.StringIO(text.replace("\n", "\r\n"), newline="")  # with line ends
        assert [(v.line, v.plies, [str(e) for e in v.errors])
                for v in check_lines(lines_read, "f.gtn", all_errors)] == expected, text
