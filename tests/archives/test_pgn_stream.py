"""Import's short ways, against the long ones.

Import reads a PGN file a piece at a time and finds where its games end itself: the last game
of a piece is read again with the next one. Whatever the pieces, the games, refusals, warnings,
game numbers, lines and columns must be those of reading the whole text at once.

Import writes a record's body as the converter built it (``Session.text(as_built=True)``),
its turn lines held as runs of texts: it must be the text the canonical writer makes, which
checks and copies every line."""

from __future__ import annotations

import lzma
import random
from pathlib import Path

import pytest
from test_pgn_reader_equivalence import AWKWARD, FILES, GAMES, mutate

from gametool import sources
from gametool.pgn import eco
from gametool.pgn import reader as pgn

LONG_GAME = ('[Event "long"]\n[Result "*"]\n\n'
             + "\n".join(f"{n}. Nf3 Nf6 {n}... {{back}} {n + 1}. Ng1 Ng8 {{and again}}"
                         for n in range(1, 120, 2)) + " *\n")


def _pieces(rng: random.Random, text: str) -> list[str]:
    """``text`` cut after random newlines, as a file's blocks are cut (at b"\\n": a U+2028 or
    a form feed ends no line there)."""
    lines = text.split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    pieces, piece = [], ""
    for line in lines:
        piece += line
        if rng.random() < 0.3:
            pieces.append(piece)
            piece = ""
    return pieces + ([piece] if piece else [])


def expect_same_by_pieces(text: str, rng: random.Random, monkeypatch: pytest.MonkeyPatch,
                          name: str | None = "x.pgn") -> int:
    whole = list(pgn.imports(text, name))
    monkeypatch.setattr(pgn, "PIECE", rng.choice([1, 2, 40, 300, 2000]))
    pieces = _pieces(rng, text)
    assert "".join(pieces) == text
    assert list(pgn.imports_stream(pieces, name)) == whole, (text, pieces)
    return len(whole)


@pytest.mark.parametrize("number", range(len(AWKWARD)))
def test_awkward_texts_by_pieces(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(number)
    text = AWKWARD[number]
    for _ in range(4):
        expect_same_by_pieces(text + "\n" + text, rng, monkeypatch)


def test_project_files_by_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    count = 0
    for path in FILES:
        count += expect_same_by_pieces(pgn.decode(path.read_bytes()), rng, monkeypatch)
    assert count > 25


def test_real_games_by_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start of each file of the bench's real games (comments with ';' and '[' in them,
    games that end with and without a result)."""
    rng = random.Random(11)
    count = 0
    for path in sorted((Path(__file__).parent.parent.parent / "bench" / "data").glob("*.pgn.xz")):
        text = pgn.decode(lzma.decompress(path.read_bytes()))
        text = text[:text.index("\n[Event ", 250_000) + 1]
        count += expect_same_by_pieces(text, rng, monkeypatch)
    assert count > 100


def test_mutated_games_by_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(20261128)
    refused = count = 0
    for _ in range(300):
        text = "\n".join(rng.choice(GAMES) for _ in range(rng.randint(2, 4)))
        text = mutate(rng, text)
        whole = list(pgn.imports(text, None))
        refused += sum(isinstance(item, pgn.Refusal) for item, _m in whole)
        count += expect_same_by_pieces(text, rng, monkeypatch, None)
    assert count > 600 and refused > 50


def test_a_game_longer_than_a_piece_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    text = LONG_GAME + '\n[Event "next"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    assert expect_same_by_pieces(text, rng, monkeypatch) == 2
    monkeypatch.setattr(pgn, "PIECE", 10)
    read = list(pgn.imports_stream(text.splitlines(keepends=True), "x.pgn"))
    assert [item.index for item, _m in read] == [1, 2]
    assert "Nf3" in read[0][0].text and "Qxf7" in read[1][0].text


def test_a_refusal_names_its_line_in_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [f'[Event "{n}"]\n[Result "*"]\n\n1. e4 e5 *\n' for n in range(30)]
    games[21] = '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n'
    monkeypatch.setattr(pgn, "PIECE", 50)
    read = list(pgn.imports_stream(games, "x.pgn"))
    refusals = [item for item, _m in read if isinstance(item, pgn.Refusal)]
    assert [(r.index, r.line, r.column) for r in refusals] == [(22, 21 * 4 + 4, 13)]
    assert read[21][1] == [f"x.pgn:88:13: game 22: {refusals[0].message}"]


def test_pgn_texts_are_the_lines_of_the_file(tmp_path: Path) -> None:
    data = ("\ufeff[Event \"é\"]\r\n1. e4 {naïve} *\r\n".encode()
            + '[Event "Latin-1 é"]\n1. d4 *\n'.encode("latin-1") * 3
            + b"\n1. c4 {last line, no newline} *")
    path = tmp_path / "mixed.pgn"
    path.write_bytes(data)
    expected = "".join(sources.lines(str(path)))
    for block in (1, 7, 64, 1 << 16):
        saved = sources.BLOCK
        sources.BLOCK = block
        try:
            texts = list(sources.pgn_texts(str(path)))
        finally:
            sources.BLOCK = saved
        assert "".join(texts) == expected
        assert all(text.endswith("\n") for text in texts[:-1])
    assert expected.startswith('[Event "é"]\n') and "Latin-1 é" in expected


def expect_as_built_canonical(text: str) -> int:
    """Every game of ``text`` that imports: its body as built writes what the canonical
    writer writes, and so does the record built only to be written (its turn lines held as
    runs of texts, see gtn.TurnRun), with the same messages; the number of games."""
    count = 0
    table = eco.table()  # (its tags set from the states of either)
    kept = list(pgn.imports(text, None, keep=True, eco=table))
    written = list(pgn.imports(text, None, eco=table))
    assert len(kept) == len(written)
    for (item, messages), (only, its_messages) in zip(kept, written, strict=True):
        assert messages == its_messages
        if isinstance(item, pgn.Imported):
            assert item.session is not None and only.session is None
            assert item.session.text(as_built=True) == item.session.text() == item.text
            assert only.text == item.text
            count += 1
        else:
            assert only == item
    return count


def test_records_as_built_are_canonical() -> None:
    rng = random.Random(5)
    texts = [pgn.decode(path.read_bytes()) for path in FILES] + AWKWARD
    for path in sorted((Path(__file__).parent.parent.parent / "bench" / "data").glob("*.pgn.xz")):
        text = pgn.decode(lzma.decompress(path.read_bytes()))
        texts.append(text[:text.index("\n[Event ", 250_000) + 1])
    texts += [mutate(rng, "\n".join(rng.choice(GAMES) for _ in range(3))) for _ in range(300)]
    assert sum(expect_as_built_canonical(text) for text in texts) > 700
