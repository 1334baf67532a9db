"""PGN files as real archives write them, read by every archive command as the other readers
(python-chess) read them: comments holding ';', '{' or '[', files of games without tags, '%'
lines, Windows line ends and Latin-1 kept by split, a blank line amid one game's tags, game
numbers in files larger than a part, '*' never rewritten, names in any script, the end of a
game that goes on past a dead position, ECO of a game whose FEN is the standard start,
PlyCount, long comments and empty tags."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import chess.pgn
import pytest

from notation import record as gtn


def gametool(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def python_chess_games(data: bytes) -> list[chess.pgn.Game]:
    handle = io.StringIO(data.decode("utf-8", errors="replace"))
    out = []
    while (game := chess.pgn.read_game(handle)) is not None:
        out.append(game)
    return out


def split_files(tmp_path: Path, source: Path) -> list[Path]:
    folder = tmp_path / "parts"
    done = gametool("split", str(source), "-o", str(folder))
    assert done.returncode == 0, done.stderr
    return sorted(folder.iterdir())


SEMICOLON = ('[Event "a"]\n[Result "*"]\n\n1. e4 {one; two} *\n\n'
             '[Event "b"]\n[Result "*"]\n\n1. d4 *\n')


def test_a_semicolon_inside_a_comment_does_not_hide_the_next_game(tmp_path: Path) -> None:
    source = tmp_path / "semi.pgn"
    source.write_text(SEMICOLON)
    files = split_files(tmp_path, source)
    assert [f.read_text() for f in files] == [
        '[Event "a"]\n[Result "*"]\n\n1. e4 {one; two} *\n',
        '[Event "b"]\n[Result "*"]\n\n1. d4 *\n']


def test_game_boundaries_after_such_comments_let_a_large_file_be_cut(tmp_path: Path) -> None:
    from gametool.sources import distribute

    game = ('[Event "e{n}"]\n[Result "1-0"]\n\n1. e4 {a; b [c] {d} e5 {x;\ny} 2. Qh5 Nc6 '
            '3. Bc4 Nf6 4. Qxf7# 1-0\n\n')
    source = tmp_path / "many.pgn"
    source.write_text("".join(game.replace("{n}", str(n)) for n in range(3000)))
    parts = list(distribute.stream_parts(str(source), size=20_000, ranges=True))
    assert len(parts) > 5
    # Each part starts at a game's first tag.
    with open(source, "rb") as handle:
        for part in parts:
            handle.seek(part.offset)
            assert handle.read(8) == b'[Event "'
    done = gametool("validate", "--jobs", "2", str(source))
    assert done.returncode == 0, done.stderr
    assert "ok (3000 records" in done.stdout


TAGLESS = ("% written by some program\n"
           "1. e4 e5 2. Nf3 Nc6 1-0\n\n"
           "1. d4 {a { b; [c]} d5 0-1\n\n"
           "1. c4 e5\n2. Nc3 1/2-1/2\n\n"
           "1. f4 (1. g4 d5) e5 *\n")


def test_split_agrees_with_import_and_python_chess_on_tagless_games(tmp_path: Path) -> None:
    source = tmp_path / "tagless.pgn"
    source.write_text(TAGLESS)
    files = split_files(tmp_path, source)
    assert len(files) == 4 == len(python_chess_games(TAGLESS.encode()))
    assert files[0].read_text().startswith("% written by some program\n1. e4")
    done = gametool("import", str(source))
    assert done.returncode == 0, done.stderr
    assert "4 games imported" in done.stderr
    for part in files:  # each file is one game
        one = gametool("import", str(part))
        assert "1 game imported" in one.stderr, one.stderr


def test_split_keeps_windows_line_ends_and_latin_1_byte_for_byte(tmp_path: Path) -> None:
    games = ['[Event "Zürich"]\r\n[White "Müller"]\r\n[Result "1-0"]\r\n\r\n1. e4 1-0\r\n',
             '[Event "Gödel"]\r\n[Result "*"]\r\n\r\n1. d4 {Übung; ja} *\r\n']
    data = "\r\n".join(games).encode("latin-1")
    source = tmp_path / "old.pgn"
    source.write_bytes(data)
    files = split_files(tmp_path, source)
    assert [f.read_bytes() for f in files] == [g.encode("latin-1") for g in games]


def test_a_blank_line_after_event_is_one_game_as_python_chess_reads_it(tmp_path: Path) -> None:
    text = ('[Event "Bundesliga"]\n\n[Site "Berlin"]\n[White "A"]\n[Black "B"]\n'
            '[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
            '[Event "Bundesliga"]\n\n[Site "Bonn"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n')
    source = tmp_path / "cb.pgn"
    source.write_text(text)
    read = python_chess_games(text.encode())
    assert [g.headers["Site"] for g in read] == ["Berlin", "Bonn"]
    done = gametool("import", str(source))
    assert "2 games imported" in done.stderr, done.stderr
    assert '[Site "Berlin"]' in done.stdout and '[Site "Bonn"]' in done.stdout
    assert len(split_files(tmp_path, source)) == 2


def test_a_game_of_tags_alone_is_still_a_game_of_its_own(tmp_path: Path) -> None:
    source = tmp_path / "tags.pgn"
    source.write_text('[Event "only tags"]\n[Result "*"]\n\n[Event "next"]\n[Result "*"]\n\n'
                      '1. e4 *\n')
    done = gametool("import", str(source))
    assert "2 games imported" in done.stderr, done.stderr
    assert len(split_files(tmp_path, source)) == 2


def test_a_brace_inside_a_comment_is_text(tmp_path: Path) -> None:
    source = tmp_path / "brace.pgn"
    source.write_text('[Event "x"]\n[Result "*"]\n\n1. e4 {see {this} e5 *\n')
    done = gametool("import", str(source))
    assert done.returncode == 0, done.stderr
    assert "1. white: e4 { see {this }" in done.stdout
    assert "2. black: e5" in done.stdout


def test_errors_in_a_file_larger_than_a_part_name_the_game_in_the_file(tmp_path: Path) -> None:
    game = ('[Event "e"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# '
            f'{{{"a long note " * 80}}} 1-0\n\n')
    count = (5 << 18) // len(game)  # 1.25 MiB: two parts
    source = tmp_path / "big.pgn"
    source.write_text(game * count + '[Event "bad"]\n[Result "*"]\n\n1. e4 Ke5 *\n')
    line = 5 * count + 4
    expected = f"{source}:{line}:7: game {count + 1}: move 1... Ke5"
    for args in (["validate"], ["validate", "--jobs", "2"], ["stats"], ["stats", "--jobs", "2"],
                 ["filter", "-o", str(tmp_path / "out.gtn")], ["import"],
                 ["import", "--jobs", "2"]):
        done = gametool(*args, str(source))
        assert done.returncode == 1, args
        assert expected in done.stderr, (args, done.stderr[-500:])


STARS = ('[Event "a"]\n[Result "*"]\n\n1. e4 1-0\n\n'
         '[Event "b"]\n[Result "*"]\n\n1. f3 e5 2. g4 Qh4# *\n\n'
         '[Event "c"]\n[Result "1-0"]\n\n1. e4 1-0\n')


def test_a_star_is_never_rewritten_and_filter_finds_every_star(tmp_path: Path) -> None:
    source = tmp_path / "stars.pgn"
    source.write_text(STARS)
    done = gametool("import", str(source))
    assert done.returncode == 0, done.stderr
    records = done.stdout.split("\n\n[Game")
    assert '[Result "*"]' in records[0] and '[Event "a"]' in records[0]
    assert "the Result tag says * but the movetext ends 1-0: '*' kept" in done.stderr
    fixed = gametool("import", "--fix-results", str(source))
    assert '[OriginalResult "*"]' in fixed.stdout
    kept = gametool("filter", "--result", "*", "--json", str(source))
    events = [dict(r["tags"])["Event"] if isinstance(r["tags"], dict) else None
              for r in json.loads(kept.stdout)]
    assert events == ["a", "b"], kept.stdout
    assert "2 of 3 records kept" in kept.stderr


def test_players_keep_the_letters_of_any_script(tmp_path: Path) -> None:
    source = tmp_path / "names.pgn"
    source.write_text('[White "Непомнящий, Ян"]\n[Black "李 白"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
                      '[White "S\u030cahovic\u0301, Ljubomir"]\n[Black "?"]\n[Result "0-1"]\n\n'
                      "1. d4 0-1\n")
    out = tmp_path / "names.gtn"
    done = gametool("import", str(source), "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert '[Players "Непомнящий_Ян; 李_白"]' in text
    assert '[Players "Šahović_Ljubomir; black"]' in text
    assert gametool("validate", str(out)).returncode == 0
    stats = json.loads(gametool("stats", "--json", str(source)).stdout)
    assert set(stats["chess"]["seats"]) == {"Непомнящий_Ян", "李_白", "Šahović_Ljubomir",
                                            "black"}


def test_a_draw_one_ply_past_a_dead_position_is_that_draw(tmp_path: Path) -> None:
    source = tmp_path / "dead.pgn"
    source.write_text('[SetUp "1"]\n[FEN "4k3/8/8/8/8/2n5/3B4/4K3 w - - 0 1"]\n'
                      '[Result "1/2-1/2"]\n\n1. Bxc3 Kd7 1/2-1/2\n')
    stats = json.loads(gametool("stats", "--json", str(source)).stdout)
    assert stats["chess"]["terminations"] == {"dead position": 1}
    kept = gametool("filter", "--termination", "dead position", str(source))
    assert "1 of 1 record kept" in kept.stderr


def test_eco_classifies_a_game_whose_fen_is_the_standard_start(tmp_path: Path) -> None:
    source = tmp_path / "fen.pgn"
    source.write_text('[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - '
                      '0 1"]\n[Result "*"]\n\n1. e4 c5 2. Nf3 d6 *\n')
    done = gametool("import", "--eco", str(source))
    assert '[ECO "B50"]' in done.stdout, done.stdout
    assert "1 of 1 record kept" in gametool("filter", "--eco", "B50", str(source)).stderr


def test_export_adds_a_plycount(tmp_path: Path) -> None:
    source = tmp_path / "g.pgn"
    source.write_text('[PlyCount "99"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n')
    record = tmp_path / "g.gtn"
    assert gametool("import", str(source), "-o", str(record)).returncode == 0
    out = gametool("export", "--pgn", "--plycount", str(record)).stdout
    assert out.count("PlyCount") == 1 and '[PlyCount "3"]' in out
    cut = gametool("export", "--pgn", "--plycount", "--plies", "2", str(record)).stdout
    assert '[PlyCount "2"]' in cut
    assert '[PlyCount "99"]' in gametool("export", "--pgn", str(record)).stdout


def test_long_comments_and_empty_tags_read_and_write_back(tmp_path: Path) -> None:
    comment = " ".join(["word"] * 20_000)  # 99,999 characters
    assert len(comment) > 32_768 and len(comment) <= gtn.MAX_COMMENT
    source = tmp_path / "long.pgn"
    source.write_text('[Event ""]\n[Site ""]\n[Date ""]\n[Annotator ""]\n[Result "*"]\n\n'
                      f"1. e4 {{{comment}}} e5 *\n")
    record = tmp_path / "long.gtn"
    done = gametool("import", str(source), "-o", str(record))
    assert done.returncode == 0, done.stderr
    assert gametool("validate", str(record)).returncode == 0
    out = gametool("export", "--pgn", str(record)).stdout
    for tag in ("Event", "Site", "Date", "Annotator"):
        assert f'[{tag} ""]' in out
    back = python_chess_games(out.encode())[0]
    assert " ".join(back.next().comment.split()) == comment
    assert [m.san() for m in [back.next()]] == ["e4"]


@pytest.mark.parametrize("size", [gtn.MAX_COMMENT + 1])
def test_a_comment_beyond_the_bound_is_refused_in_one_line(tmp_path: Path, size: int) -> None:
    source = tmp_path / "huge.pgn"
    source.write_text(f'[Result "*"]\n\n1. e4 {{{"x" * size}}} *\n')
    done = gametool("import", str(source))
    assert done.returncode == 1
    assert "a comment holds at most" in done.stderr
    assert "Traceback" not in done.stderr
