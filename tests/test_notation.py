"""The record grammar and the shared tokens: syntax only, no rules."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation import record as gtn
from notation import tokens
from notation.errors import NotationError

RECORD = """[Game "colors"]
[Players "p1; p2"]
[Date "2026.11.22"]
[Result "*"]
[Event "club night"]

{ opening }
1. p1: d4=R { a comment }
2. p2: e4=R ; to the end of the line
3. chance: shuffle red KH | toss heads
"""


def test_canonical_text_is_a_fixpoint() -> None:
    records = gtn.parse(RECORD)
    assert gtn.write_all(records) == RECORD


def test_tags_turns_and_comments_are_read() -> None:
    (rec,) = gtn.parse(RECORD)
    assert rec.get("game") == "colors"
    assert rec.get("EVENT") == "club night"
    turns = rec.turns
    assert [t.ply for t in turns] == [1, 2, 3]
    assert turns[0].actions[0].text == "d4=R"
    assert turns[0].actions[0].column == 8
    assert turns[0].comment == "a comment"
    assert turns[1].comment_style == ";"
    assert [a.text for a in turns[2].actions] == ["shuffle red KH", "toss heads"]
    assert isinstance(rec.body[0], gtn.CommentLine)


def test_bom_crlf_blank_lines_trailing_spaces_and_case_are_accepted() -> None:
    messy = "\ufeff" + RECORD.replace("\n", "  \r\n\r\n").replace("[Game", "[game")
    assert gtn.write_all(gtn.parse(messy)) == RECORD


def test_several_records_in_one_file() -> None:
    text = RECORD + "\n" + RECORD.replace("colors", "colors-8x8")
    records = gtn.parse(text)
    assert [r.get("Game") for r in records] == ["colors", "colors-8x8"]
    assert records[1].line == 12
    assert gtn.write_all(records) == text


def test_tag_values_with_quotes_and_backslashes_round_trip() -> None:
    rec = gtn.Record([gtn.Tag("Game", "x"), gtn.Tag("Event", 'the "big" one \\ 2')])
    text = gtn.write(rec)
    assert gtn.parse(text)[0].get("Event") == 'the "big" one \\ 2'


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ('[Game "x"]\n1 p1: d4', 2, 3, "Expected '.'"),
        ('[Game "x"]\n1. p1 d4', 2, 7, "Expected ':'"),
        ("[Game x]", 1, 7, "quoted tag value"),
        ("1. p1: d4", 1, 1, "tag pairs"),
        ('[Game "x"]\n1. p1: a || b', 2, 11, "empty action"),
        ('[Game "x"]\n  1. p1: {c}', 2, 10, "Expected action"),
        ('[Game "x"]\nhello', 2, 1, "ply number"),
    ],
)
def test_syntax_errors_carry_line_and_column(text: str, line: int, column: int,
                                             words: str) -> None:
    with pytest.raises(NotationError) as info:
        gtn.parse(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in info.value.message


@given(st.text(max_size=200))
def test_any_text_parses_or_raises_a_notation_error(text: str) -> None:
    try:
        gtn.parse(text)
    except NotationError as exc:
        assert exc.line is not None and exc.column is not None


def test_square_card_domino_dice_and_tile_tokens() -> None:
    assert tokens.parse_whole(tokens.square(), "D4")[0] == tokens.Square(3, 4)
    assert str(tokens.parse_whole(tokens.square(), "j10")[0]) == "j10"
    assert tokens.parse_whole(tokens.card(), "10h")[0] == tokens.Card("10", "H")
    assert tokens.parse_whole(tokens.card(tokens.CARD_SUITS + tokens.SPACE_SUITS), "7t")[0] \
        == tokens.Card("7", "T")
    assert tokens.parse_whole(tokens.domino(), "5-1")[0] == tokens.Domino(5, 1)
    assert tokens.parse_whole(tokens.roll(), "ROLL 6-4")[0] == tokens.Dice((6, 4))
    assert tokens.parse_whole(tokens.tile(), "rd")[0] == "RD"
    assert tokens.parse_whole(tokens.tile(), "9K")[0] == "9k"


@pytest.mark.parametrize(
    ("grammar", "text", "expected"),
    [
        (tokens.card(), "ZH", "Expected card"),
        (tokens.domino(), "7-1", "Expected domino"),
        (tokens.roll(), "roll 7-1", "Expected 2 dice"),
        (tokens.tile(), "0b", "Expected tile"),
        (tokens.square(), "d4x", "end of action"),
    ],
)
def test_token_errors_name_the_piece(grammar: object, text: str, expected: str) -> None:
    with pytest.raises(NotationError) as info:
        tokens.parse_whole(grammar, text)  # type: ignore[arg-type]
    assert expected in info.value.message


COMMENT_CHARS = "ab }{;\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\xa0\xad\u2028\u2029\u200b\ud800é李"


@given(st.text(COMMENT_CHARS, max_size=12))
def test_a_comment_is_written_on_one_line_as_the_rule_says(text: str) -> None:
    """A comment's characters that would end its line (C0 and C1 controls, the line and
    paragraph separators) are written as spaces, a lone surrogate as '?': the short ways for
    printable and ASCII comments give what the rule gives."""
    expected = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", text)
    if expected != text:
        expected = expected.strip()
    expected = expected.encode("utf-8", "replace").decode("utf-8")
    written = gtn._comment_text(text, "{")
    if ";" in written[:1]:
        assert written == f"; {expected}".rstrip()
    else:
        assert written == (f"{{ {expected} }}" if expected else "{ }")
    assert len(written.splitlines()) <= 1


_COMMENTS = st.one_of(st.none(), st.sampled_from(["", "plain words", "a } brace", "two  spaces",
                                                  "tab\there", "line\nbreak", "é and ü", " "]),
                      st.text(max_size=12))


@given(st.integers(1, 400),
       st.lists(st.tuples(st.sampled_from(["e4", "Nxf7+", "O-O", "a1=Q#"]), _COMMENTS,
                          st.lists(st.integers(0, 255), max_size=2)), max_size=8))
def test_a_run_of_turn_lines_writes_what_its_turn_lines_write(ply: int, lines: list) -> None:
    seats = ["white", "black"]
    as_lines = gtn.Record(tags=[gtn.Tag("Game", "chess")])
    as_run = gtn.Record(tags=[gtn.Tag("Game", "chess")])
    run = gtn.TurnRun(ply)
    as_run.body.append(run)
    for i, (text, comment, nags) in enumerate(lines):
        seat = seats[i % 2]
        as_lines.body.append(gtn.TurnLine(ply + i, seat, [gtn.Action(text)], comment,
                                          nags=list(nags)))
        run.seats.append(seat)
        run.texts.append(text)
        if comment is not None:
            run.comments[i] = comment
        if nags:
            run.nags[i] = list(nags)
    if not lines:
        as_run.body.clear()
    assert gtn.write(as_run) == gtn.write(as_lines)
