"""Records that a successful command writes can always be read again, the reader's limits are
checked before the work they bound, and file failures leave the record as it was.

Tag values: write-then-read is exact for any value (escapes for quotes, backslashes and every
character that would end a line). Limits: ply numbers, line and tag lengths, file size, option
values. Files: a full disk or a name too long is one clear line; stale temporary files of an
interrupted write are removed by the next write to that folder.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gametool.cli import cli
from gametool.core import storage
from gametool.records import Session, load_one
from notation import record as gtn
from notation.errors import NotationError

RUNNER = CliRunner()


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(stderr: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "internal error" not in stderr and "Traceback" not in stderr


# -- tag values ----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(value=st.text())
def test_any_tag_value_reads_back_exactly(value: str) -> None:
    record = gtn.Record(tags=[gtn.Tag("Game", "colors"), gtn.Tag("Event", value)])
    text = gtn.write(record)
    assert text.encode("utf-8")  # always writable as UTF-8
    again = gtn.parse(text)
    assert len(again) == 1
    assert again[0].get("Event") == value
    assert gtn.write(again[0]) == text


@settings(max_examples=100, deadline=None)
@given(value=st.text(), comment=st.text())
def test_any_tag_value_survives_a_session(value: str, comment: str) -> None:
    session = Session.start("colors", None, {}, None, None)
    session.record.set("Event", value)
    session.play(["d4=R"])
    text = session.text()
    again = load_one(text)
    assert again.record.get("Event") == value
    assert again.text() == text


@pytest.mark.parametrize("written, value", [
    (r"a\nb", "a\nb"),
    (r"tab\there", "tab\there"),
    (r"\u00e9t\u00e9", "été"),
    (r"\u{1F600}", "\U0001F600"),
    (r"C:\games\x", r"C:\games\x"),
    (r"quote \" and \\", 'quote " and \\'),
    (r"\ud800", r"\ud800"),  # a surrogate is no character: kept as written
])
def test_escapes_in_tag_values(written: str, value: str) -> None:
    record = gtn.parse(f'[Game "colors"]\n[Event "{written}"]\n')[0]
    assert record.get("Event") == value
    again = gtn.parse(gtn.write(record))[0]
    assert again.get("Event") == value


def test_a_tag_with_a_newline_escape_survives_a_move(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    assert invoke("start", "colors", "-o", str(path))[0] == 0
    path.write_text(path.read_text().replace("[Date", '[Event "a\\nb\\r\\fc"]\n[Date'))
    status, _, err = invoke("move", str(path), "--auto", "random", "--seed", "1")
    assert status == 0, err
    status, out, err = invoke("validate", str(path))
    assert status == 0, out + err
    status, out, _ = invoke("show", str(path), "--json")
    assert status == 0
    assert load_one(path.read_text()).record.get("Event") == "a\nb\r\fc"
    assert all(line.startswith(("[", "1.", "2.")) or not line
               for line in path.read_text().splitlines())


def test_a_comment_never_breaks_a_line() -> None:
    record = gtn.parse('[Game "colors"]\n\n1. p1: d4=R { x }\n')[0]
    record.body[0].comment = "first\nsecond\u2028third\x85"
    text = gtn.write(record)
    again = gtn.parse(text)[0]
    assert len(again.turns) == 1
    assert gtn.write(again) == text


# -- limits --------------------------------------------------------------------------------------


def record_with(line: str) -> str:
    return f'[Game "colors"]\n[Players "p1; p2"]\n\n{line}\n'


def test_a_ply_number_of_thousands_of_digits(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    path.write_text(record_with("9" * 5000 + ". p1: d4=R"))
    status, out, err = invoke("validate", str(path))
    assert status == 1
    assert "ply number of 5,000 digits" in out + err
    status, _, err = invoke("show", str(path))
    assert status == 1
    one_line_error(err)


def test_a_line_too_long_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    path.write_text('[Event "' + "x" * 2_000_000 + '"]\n' + record_with("1. p1: d4=R"))
    status, _, err = invoke("show", str(path))
    assert status == 1
    one_line_error(err)
    assert "a line holds at most" in err


def test_a_tag_value_too_long(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    path.write_text('[Event "' + "x" * 20_000 + '"]\n' + record_with("1. p1: d4=R"))
    status, _, err = invoke("show", str(path))
    assert status == 1
    assert "a tag value holds at most" in err


def test_a_file_too_large_is_refused_before_reading(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "g.gtn"
    path.write_text(record_with("1. p1: d4=R") + "{ " + "x" * 2000 + " }\n")
    before = path.read_bytes()
    for args in (["show", str(path)], ["move", str(path), "e4=R"]):
        status, _, err = invoke(*args)
        assert status == 1
        assert "a record file holds at most 1,000 bytes" in err
    assert path.read_bytes() == before
    status, _, err = invoke("show", "-", input=before.decode())
    assert status == 1 and "<stdin>" in err


@pytest.mark.parametrize("value, message", [
    ("9" * 5000, "too long"),
    ("99999999999999999999", "too long"),
    ("9999999", "at most"),
])
def test_whole_number_options_are_bounded(value: str, message: str) -> None:
    status, _, err = invoke("start", "sapos", "--option", f"max_plies={value}")
    assert status == 1
    one_line_error(err)
    assert message in err


def test_many_seats_are_refused_clearly() -> None:
    status, _, err = invoke("start", "colors", "--players", ",".join(f"s{i}" for i in range(5000)))
    assert status == 1
    one_line_error(err)


# -- files ---------------------------------------------------------------------------------------


def test_a_file_name_too_long(tmp_path: Path) -> None:
    name = str(tmp_path / ("a" * 300 + ".gtn"))
    for args in (["start", "colors", "-o", name], ["show", name], ["validate", name]):
        status, out, err = invoke(*args)
        assert status == 1, args
        assert "internal error" not in out + err
        assert "too long" in out + err


def test_a_full_disk_leaves_the_record_intact(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.gtn"
    assert invoke("start", "colors", "-o", str(path))[0] == 0
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(storage.os, "fsync", full)
    status, _, err = invoke("move", str(path), "d4=R")
    assert status == 1
    one_line_error(err)
    assert "no space left" in err
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.gtn"]


def stale(folder: Path, name: str, age: float) -> Path:
    temp = folder / name
    temp.write_text("half a record")
    past = time.time() - age
    os.utime(temp, (past, past))
    return temp


def test_stale_temporary_files_are_removed_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    assert invoke("start", "colors", "-o", str(path))[0] == 0
    old = stale(tmp_path, ".gametool-crashed.tmp", 3600)
    young = stale(tmp_path, ".gametool-young.tmp", 0)
    other = stale(tmp_path, "notes.tmp", 3600)
    held = stale(tmp_path, ".gametool-held.tmp", 3600)
    # A write under way holds a lock on its temporary file: that one is never removed.
    fd = os.open(held, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert invoke("move", str(path), "d4=R")[0] == 0
    finally:
        os.close(fd)
    assert not old.exists()
    assert young.exists() and other.exists() and held.exists()
    assert "d4=R" in path.read_text()


def test_a_write_holds_its_temporary_file_until_the_rename(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        os.utime(src, (0, 0))  # as old as can be: only the lock protects it now
        seen.append(storage.clean_stale_temporaries(str(tmp_path)))
        real_replace(src, dst)

    monkeypatch.setattr(storage.os, "replace", replace)
    storage.write_atomic(str(tmp_path / "g.gtn"), "text\n")
    assert seen == [[]]
    assert (tmp_path / "g.gtn").read_text() == "text\n"


# -- the fast paths of the reader agree with its grammar ----------------------------------------

TURN_TEXT = st.text(st.sampled_from("ab12 |-x/=.:;{}$!?\t"), max_size=30)


@settings(max_examples=400, deadline=None)
@given(actions=TURN_TEXT, indent=st.sampled_from(["", "  ", "\t"]))
def test_fast_turn_lines_read_as_the_grammar_reads_them(actions: str, indent: str) -> None:
    import dataclasses

    line = f"{indent}3. ann: {actions}"
    text = f'[Game "colors"]\n\n{line}\n'
    try:
        fast = gtn.parse(text)
    except gtn.NotationError as exc:
        fast = exc
    original = gtn._FAST_TURN
    gtn._FAST_TURN = __import__("re").compile(r"(?!)")  # never matches: the grammar reads all
    try:
        try:
            slow = gtn.parse(text)
        except gtn.NotationError as exc:
            slow = exc
    finally:
        gtn._FAST_TURN = original
    if isinstance(slow, Exception) or isinstance(fast, Exception):
        assert type(fast) is type(slow), (fast, slow)
        return
    assert [dataclasses.asdict(t) for t in fast[0].turns] == \
        [dataclasses.asdict(t) for t in slow[0].turns]


def test_a_ply_beyond_the_games_bound_is_refused_as_such(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    path.write_text(record_with("50. p1: d4=R"))
    status, out, err = invoke("validate", str(path))
    assert status == 1
    assert "ply 50 is beyond the 49 plies a game of colors can last" in out + err


def test_the_bound_on_plies_follows_a_race_games_option() -> None:
    from gametool import games

    tawula = games.playable_class("tawula")
    assert tawula({"max_plies": "4000"}).max_plies == 2 * tawula({}).max_plies
    assert tawula({}).max_plies == tawula.max_plies


def test_a_pgn_tag_with_escapes_imports_into_a_readable_record(tmp_path: Path) -> None:
    pgn = tmp_path / "t.pgn"
    pgn.write_text('[Event "a\\nb \\u00e9 \\"q\\""]\n[White "x"]\n[Black "y"]\n'
                   '[Result "*"]\n\n1. e4 e5 *\n')
    out = tmp_path / "t.gtn"
    status, _, err = invoke("import", str(pgn), "-o", str(out))
    assert status == 0, err
    status, text, err = invoke("validate", str(out))
    assert status == 0, text + err
    # PGN knows only the escapes \\ and \": the rest of the value is kept as written.
    assert load_one(out.read_text()).record.get("Event") == 'a\\nb \\u00e9 "q"'


def test_a_tag_value_written_all_in_escapes_reads_back(tmp_path: Path) -> None:
    """A tag value within its bound may be written up to ten times longer (every character an
    escape): the record a command writes must still read."""
    path = tmp_path / "g.gtn"
    path.write_text('[Game "colors"]\n[Players "a; b"]\n[Event "' + "\x7f" * 16_000 + '"]\n'
                    '[Annotator "' + "\U0010ffff" * 16_384 + '"]\n')
    status, _, err = invoke("move", str(path), "--auto", "random", "--seed", "1")
    assert status == 0, err
    assert max(len(line) for line in path.read_text().splitlines()) > gtn.MAX_LINE
    status, out, err = invoke("validate", str(path))
    assert status == 0, err
    record = load_one(path.read_text()).record
    assert record.get("Event") == "\x7f" * 16_000
    assert record.get("Annotator") == "\U0010ffff" * 16_384
    assert gtn.write(record).count("\n") == path.read_text().count("\n")


def test_tag_names_and_tag_lines_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    path.write_text('[Game "colors"]\n[' + "E" * 300 + ' "x"]\n')
    status, _, err = invoke("validate", str(path))
    assert status == 1 and "tag name of 300 characters" in err
    path.write_text('[Game "colors"]\n[Event "' + "x" * (gtn.MAX_TAG_LINE) + '"]\n')
    status, _, err = invoke("show", str(path))
    assert status == 1 and f"a line holds at most {gtn.MAX_TAG_LINE:,}" in err
    one_line_error(err)


def test_the_writer_refuses_a_line_the_reader_would_refuse() -> None:
    record = gtn.parse('[Game "colors"]\n\n1. p1: d4=R { x }\n')[0]
    record.body[0].comment = "y" * gtn.MAX_COMMENTED_LINE
    with pytest.raises(NotationError, match="a line holds at most"):
        gtn.write(record)
    record.body[0].comment = None
    record.tags.append(gtn.Tag("Event", "z" * (gtn.MAX_TAG_VALUE + 1)))
    with pytest.raises(NotationError, match="a tag value holds at most"):
        gtn.write(record)


def test_pgn_games_beyond_a_record_s_bounds_are_refused_one_by_one(tmp_path: Path) -> None:
    pgn = tmp_path / "a.pgn"
    long_comment = "word " * (gtn.MAX_COMMENT // 5 + 1)
    pgn.write_text('[Event "long comment"]\n[Result "*"]\n\n1. e4 {' + long_comment +
                   '} e5 *\n\n[Event "' + "\x01" * 14_000 + '"]\n[Result "*"]\n\n1. d4 *\n\n'
                   '[Event "' + "e" * 20_000 + '"]\n[Result "*"]\n\n1. c4 *\n')
    out = tmp_path / "a.gtn"
    status, _, err = invoke("import", str(pgn), "-o", str(out))
    assert status == 1
    size = 5 * (gtn.MAX_COMMENT // 5 + 1) - 1
    assert f"game 1: comment of {size:,} characters: a comment holds at most" in err
    assert "game 3: cannot write the record: the tag Event would have a value of 20,000" in err
    status, listed, err = invoke("validate", str(out))
    assert status == 0, err
    assert load_one(out.read_text()).record.get("Event") == "\x01" * 14_000


HUGE_NUMBER = "9" * 5000


@pytest.mark.parametrize("args", [
    ["show", "{f}", "--ply", HUGE_NUMBER], ["show", "{f}", "--ply", "-1"],
    ["replay", "{f}", "--from", HUGE_NUMBER], ["replay", "{f}", "--to", "4" * 30],
    ["move", "{f}", "--auto", "random", "--expect-ply", HUGE_NUMBER],
    ["move", "{f}", "--auto", "mcts", "--budget", "999999999"],
    ["move", "{f}", "--auto", "mcts", "--budget", HUGE_NUMBER],
    ["undo", "{f}", "--plies", HUGE_NUMBER], ["show", "{f}", "--record", HUGE_NUMBER],
    ["perft", "{f}", HUGE_NUMBER], ["selfplay", "colors", "-n", "10000000"],
    ["validate", "{f}", "--jobs", "100000"], ["filter", "{f}", "--min-plies", HUGE_NUMBER],
])
def test_whole_number_options_are_bounded_and_never_echoed_whole(tmp_path: Path,
                                                                   args: list[str]) -> None:
    path = tmp_path / "g.gtn"
    assert invoke("start", "colors", "-o", str(path))[0] == 0
    before = path.read_bytes()
    result = RUNNER.invoke(cli, [a.replace("{f}", str(path)) for a in args])
    assert result.exit_code == 2, result.output
    error, = result.stderr.strip().splitlines()
    assert error.startswith("gametool: usage: invalid value for") and "is not in the range" in error
    assert len(error) < 200 and path.read_bytes() == before


def test_an_option_given_twice_or_in_other_digits_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    status, _, err = invoke("start", "colors", "--option", "runs=longest", "--option",
                            "runs=each-row", "-o", str(path))
    assert status == 1 and "option runs is given twice (runs=longest and runs=each-row)" in err
    assert not path.exists()
    for value in ("\uff11\uff10", "1_0", "--5", "٣"):
        status, _, err = invoke("start", "gami-four", "--option", f"max_plies={value}")
        assert status == 1 and "expected a whole number" in err, value
    path.write_text('[Game "gami-four"]\n[Players "a; b"]\n'
                    '[Options "max_plies=4; MAX_PLIES=600"]\n')
    status, out, err = invoke("validate", str(path))
    assert status == 1 and "option max_plies is given twice" in out + err


def test_an_ending_reason_with_a_line_separator_is_written_quoted(tmp_path: Path) -> None:
    pgn = tmp_path / "u.pgn"
    pgn.write_text('[White "a"]\n[Black "b"]\n[Result "1-0"]\n[Termination "x\u2028y\x85z"]\n\n'
                   '1. e4 e5 1-0\n')
    out = tmp_path / "u.gtn"
    assert invoke("import", str(pgn), "-o", str(out))[0] == 0
    status, _, err = invoke("validate", str(out))
    assert status == 0, err
    assert load_one(out.read_text()).ending.termination == "x\u2028y\x85z"


def test_a_seat_named_like_another_seat_s_default_name_is_refused(tmp_path: Path) -> None:
    for gid, names in (("johari-bones", "p2,p1,cy"), ("track-gammon", "p2,p1,cy"),
                       ("chess", "ann,p1")):
        status, _, err = invoke("start", gid, "--players", names)
        assert status == 1 and "is the default name of that seat" in err, (gid, err)
    assert invoke("start", "chess", "--players", "p1,p2")[0] == 0


def test_a_record_the_reader_takes_can_be_written_back(tmp_path: Path) -> None:
    """Comments and ending reasons are bounded below the line, so the writer's spacing and
    escapes never push a record it has read over the line bound."""
    path = tmp_path / "c.gtn"
    head = '[Game "chess"]\n[Players "ann; ben"]\n[Result "*"]\n\n'
    path.write_text(head + "1.ann:e4{" + "x" * gtn.MAX_COMMENT + "}\n")
    status, _, err = invoke("move", str(path), "e5")
    assert status == 0, err
    assert invoke("validate", str(path))[0] == 0
    path.write_text(head + "1.ann:e4{" + "x" * (gtn.MAX_COMMENT + 1) + "}\n")
    status, out, err = invoke("validate", str(path))
    assert status == 1 and f"a comment holds at most {gtn.MAX_COMMENT:,}" in out + err
    path.write_text(head.replace("*", "1-0") + '1. ann: e4\nend: 1-0 "' + "\\u{2028}" * 2_048
                    + '"\n')
    status, out, err = invoke("export", str(path), "--as", "ann")
    assert status == 0, err
    path.write_text(head + '1. ann: e4\nend: 1-0 "' + "y" * 2_049 + '"\n')
    status, out, err = invoke("validate", str(path))
    assert status == 1 and "the reason of an ending holds at most 2,048" in out + err
