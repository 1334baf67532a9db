"""Where games start in a PGN file, line by line: the scan of a line's comments and variations
against a reference that walks the line a character at a time, and the games of a large file's
parts as its cutting found them against the games of each part cut again."""

from __future__ import annotations

import lzma
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametool.archives.tagscan import games
from gametool.sources.boundaries import Starts, ends_with_result
from gametool.sources.distribute import stream_parts

DATA = Path(__file__).resolve().parent.parent.parent / "bench" / "data"

ENDS_WITH_RESULT = re.compile(r"(?:^|[\s.)])(?:1-0|0-1|1/2-1/2|\*)[ \t\r\n]*$")
"""A line ends a game when it ends with a result that is a word of its own."""

PIECES = ["{", "}", "(", ")", ";", " ", "e4", "1.", "1-0", "0-1", "1/2-1/2", "*", "[%clk 0:01]",
          "\t", "x"]


def walked(text: str, comment: bool, parens: int) -> tuple[bool, bool, int]:
    """(whether the line, outside comments, ends with a result; comment open after it;
    variations open after it), a character at a time: a ``{`` opens a comment that the next
    ``}`` closes (comments do not nest), a ``;`` outside one ends the line, parentheses
    outside one open and close variations."""
    outside = []
    for char in text:
        if comment:
            comment = char != "}"
            outside.append(" ") if not comment else None
            continue
        if char == ";":
            break
        if char in "{}()":
            outside.append(" ")
            comment = char == "{"
            if char == "(":
                parens += 1
            elif char == ")" and parens:
                parens -= 1
            continue
        outside.append(char)
    return bool(ENDS_WITH_RESULT.search("".join(outside))), comment, parens


@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=12).map("".join), max_size=6))
@settings(max_examples=600, deadline=None)
def test_a_line_outside_its_comments_is_what_a_walk_through_it_finds(lines: list[str]) -> None:
    starts = Starts(True)
    comment, parens = False, 0
    for text in lines:
        outside = starts._scan(text)
        ends, comment, parens = walked(text, comment, parens)
        assert (starts.comment, starts.parens) == (comment, parens), text
        if not comment:
            assert ends_with_result(outside) == ends, text


@given(st.lists(st.sampled_from([*PIECES, "\n", "\r", "\u00a0", "\x1c", ".", "2", "-"]),
                max_size=10).map("".join))
@settings(max_examples=600, deadline=None)
def test_a_result_ends_a_line_as_the_pattern_says(text: str) -> None:
    assert ends_with_result(text) == bool(ENDS_WITH_RESULT.search(text)), text


@pytest.mark.parametrize("size", [1, 5_000, 200_000])
def test_a_tag_query_takes_the_games_where_the_cutting_found_them(tmp_path: Path,
                                                                 size: int) -> None:
    """The real games of bench/data cut into parts: each part's games, taken where the cutting
    of the whole file found them, are the games its text is cut into again."""
    data = b"\n".join(lzma.decompress(path.read_bytes()) for path in sorted(DATA.glob("*.xz")))
    source = tmp_path / "real.pgn"
    source.write_bytes(data)
    parts = list(stream_parts(str(source), size=size))
    assert len(parts) > 1
    total = 0
    for part in parts:
        assert part.text is not None and part.starts is not None
        found = list(games(part.text, part.starts))
        assert found == list(games(part.text))
        assert "".join(text for _line, text in found) == part.text
        total += len(found)
    assert total == 1048  # the games of bench/data (see its README.md)
