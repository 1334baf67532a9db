"""PGN as a format over records: reading real PGN game by game, endings off the board,
variations, and the round trip through python-chess."""

from __future__ import annotations

import ast
import io
import json
import os
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import chess.pgn as pychess_pgn
import pytest
from click.testing import CliRunner

from gametool.cli import cli
from gametool.core.errors import IllegalAction
from gametool.games.chess.game import Chess
from gametool.pgn import reader as pgn_module
from gametool.records import check_text, load_one

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def test_no_game_package_imports_the_record_layer() -> None:
    offenders = [str(path.relative_to(ROOT))
                 for path in (ROOT / "gametool" / "games").rglob("*.py")
                 if {"gametool.records", "gametool.pgn",
                                 "gametool.views", "gametool.cli"} & _imports(path)]
    assert offenders == []


def test_the_cli_names_no_game_and_no_format() -> None:
    imported = _imports(ROOT / "gametool" / "cli" / "__init__.py")
    assert not [name for name in imported
                if name.startswith(("gametool.games.", "gametool.pgn"))]


# -- reading real PGN, game by game --------------------------------------------------------------

GOOD = '''[Event "good one"]
[White "Ann"]
[Black "Ben"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
'''

KNIGHTS = "1. Nf3 Nf6 2. Ng1 Ng8 " * 4  # sixteen plies: the fifth occurrence of the start


def mixed_file() -> tuple[str, dict[int, tuple[int, int, str]]]:
    """A PGN text mixing good games with each kind of bad game, and where each bad game must
    be reported: game number -> (line, column, words of the reason)."""
    games: list[str] = []
    bad: dict[int, tuple[int, int, str]] = {}

    def add(text: str, line: int | None = None, column: int | None = None,
            words: str = "") -> None:
        first = sum(g.count("\n") + 1 for g in games) + 1
        games.append(text)
        if line is not None:
            bad[len(games)] = (first + line - 1, column or 0, words)

    add(GOOD)
    add('[Event "illegal"]\n\n1. e4 e5 2. Ke3 Nc6 *\n', 3, 13, "illegal move 'Ke3'")
    add('[Event "numbers without periods, and two"]\n\n1 e4 e5 2.. Nf3 3... Nc6 '
        '4 Bb5 a6 *\n')
    add('[Event "null move"]\n\n1. e4 -- 2. d4 d5 *\n')
    add('[Event "bad token"]\n\n1. e4 e5 2. Nf3 } Nc6 *\n', 3, 17, "unexpected '}'")
    add('[Event "brace as text"]\n\n1. e4 {a {b c; d} e5 *\n')  # comments do not nest
    add('[Event "The "Big" Match"]\n\n1. d4 d5 1/2-1/2\n')
    add('[Event "unclosed variation"]\n\n1. e4 (1. d4 d5 2. c4 *\n', 3, 7,
        "unclosed variation")
    add('[Event "en passant"]\n\n1. e4 a6 2. e5 d5 3. exd6 e.p. *\n')
    add('[Event "unclosed comment"]\n\n1. e4 {never closed e5 *\n', 3, 7, "unclosed comment")
    add('[Event "stray parenthesis"]\n\n1. e4 e5 ) 2. Nf3 *\n', 3, 10, "closes no variation")
    add('[Event "NAG out of range"]\n\n1. e4 $256 *\n', 3, 7, "$0 to $255")
    add('[Event "result contradicts"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n', 3, 21,
        "contradicts the moves")
    add('[Event "malformed tag\n\n1. e4 *\n', 1, 1, "malformed tag pair")
    add(f'[Event "past fivefold"]\n\n{KNIGHTS}9. e4 e5 1/2-1/2\n')
    add('[Event "castling as a king move"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Kg1 Nf6 *\n')
    add('[Event "illegal in a variation"]\n\n1. e4 e5 (1... Ke6) 2. Nf3 *\n', 3, 16,
        "in a variation")
    add('[Event "no result"]\n\n1. d4 d5 2. c4\n')
    add('[Event "another variant"]\n[Variant "Chess960"]\n\n1. e4 *\n', 2, 1, "Chess960")
    add(GOOD.replace("good one", "good two"))
    return "\n".join(games), bad


def run_import(tmp_path: Path, text: str | bytes, *extra: str) -> tuple[int, str, str, Path]:
    source = tmp_path / "games.pgn"
    if isinstance(text, str):
        source.write_text(text, encoding="utf-8")
    else:
        source.write_bytes(text)
    out = tmp_path / "games.gtn"
    result = CliRunner().invoke(cli, ["import", str(source), "-o", str(out), *extra])
    return result.exit_code, result.stdout, result.stderr, out


def test_every_readable_game_is_imported_and_every_bad_one_reported_at_its_token(
        tmp_path: Path) -> None:
    text, bad = mixed_file()
    rejects = tmp_path / "rejects.pgn"
    code, _out, err, out = run_import(tmp_path, text, "--rejects", str(rejects))
    assert code == 1
    source = tmp_path / "games.pgn"
    total = text.count("[Event ")
    verdicts = check_text(out.read_text(encoding="utf-8"), str(out))
    assert len(verdicts) == total - len(bad)
    assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]
    lines = [line for line in err.splitlines() if "warning" not in line]
    for number, (line, column, words) in bad.items():
        prefix = f"{source}:{line}:{column}: game {number}: "
        found = [x for x in lines if x.startswith(prefix)]
        assert found and words in found[0], (prefix, words, err)
    assert f"{len(bad)} of {total} games refused" in err
    kept = rejects.read_text(encoding="utf-8")
    events = re.findall(r'^\[Event "(.*)"\]$', kept, re.MULTILINE)
    assert len(events) == len(bad) - 1  # and one whose tag is malformed
    assert "illegal" in events and "result contradicts" in events
    assert '[Event "malformed tag' in kept and "1. e4 $256 *" in kept
    assert "no result: read as '*'" in err or "no result at the end" in err


def _read_all(text: str) -> list[Any]:
    stream = io.StringIO(text)
    out = []
    while (game := pychess_pgn.read_game(stream)) is not None:
        out.append(game)
    return out


def test_latin1_input_is_read(tmp_path: Path) -> None:
    text = '[Event "Sch\xe4fer"]\n[White "M\xfcller"]\n\n1. e4 e5 *\n'
    code, _out, err, out = run_import(tmp_path, text.encode("latin-1"))
    assert code == 0, err
    assert '[Event "Schäfer"]' in out.read_text(encoding="utf-8")


def test_null_moves_are_kept_and_never_listed(tmp_path: Path) -> None:
    code, _out, err, out = run_import(tmp_path, '[Event "n"]\n\n1. e4 -- 2. d4 *\n')
    assert code == 0, err
    record = out.read_text(encoding="utf-8")
    assert "2. black: --" in record and "null_moves=on" in record
    session = load_one(record)
    assert "--" not in [session.game.format_action(session.state, a)
                        for a in session.game.legal_actions(session.state)]
    exported = CliRunner().invoke(cli, ["export", str(out), "--pgn"]).stdout
    game = pychess_pgn.read_game(io.StringIO(exported))
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "0000", "d2d4"]


def test_a_null_move_needs_the_option_and_no_check() -> None:
    plain = Chess()
    with pytest.raises(IllegalAction, match="null_moves=on"):
        plain.parse_action(plain.initial_state(2), "--")
    game = Chess({"null_moves": "on"})
    checked = game.decode_position("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", 2)
    with pytest.raises(IllegalAction, match="in check"):
        game.parse_action(checked, "--")


def test_games_past_an_automatic_draw_are_read_with_automatic_draws_off(
        tmp_path: Path) -> None:
    code, _out, err, out = run_import(
        tmp_path, f'[Event "k"]\n[Result "1/2-1/2"]\n\n{KNIGHTS}9. e4 e5 1/2-1/2\n')
    assert code == 0, err
    session = load_one(out.read_text(encoding="utf-8"))
    assert session.game.non_default_options() == [("automatic_draws", "off")]
    # A draw without a Termination tag is the automatic draw the moves went past.
    assert session.ply == 18 and session.outcome().termination == "fivefold repetition"
    assert session.ending is not None
    dead = ('[Event "d"]\n[SetUp "1"]\n[FEN "7k/8/8/4r3/8/2B5/8/K7 w - - 0 1"]\n\n'
            '1. Bxe5+ Kg8 2. Kb2 1/2-1/2\n')
    code, _out, err, out = run_import(tmp_path, dead, "--force")
    assert code == 0, err
    session = load_one(out.read_text(encoding="utf-8"))
    assert session.game.non_default_options() == [("automatic_draws", "off")]
    assert session.ply == 3


def test_automatic_draws_off_leaves_them_claimable() -> None:
    game = Chess({"automatic_draws": "off"})
    dead = game.decode_position("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 2)
    assert game.outcome(dead) is None
    claim = game.parse_action(dead, "claim-draw")
    assert game.outcome(game.apply(dead, claim)).termination == "dead position"
    assert claim in game.legal_actions(dead)
    state = game.initial_state(2)
    for text in ("Nf3 Nf6 Ng1 Ng8 " * 4).split():
        state = game.apply(state, game.parse_action(state, text))
    assert game.outcome(state) is None and state.repetitions() == 5
    clock = game.decode_position("6k1/5ppp/8/8/8/8/8/R6K w - - 149 100", 2)
    after = game.apply(clock, game.parse_action(clock, "Ra2"))
    assert game.outcome(after) is None


def test_a_missing_result_is_read_as_a_star_with_a_warning(tmp_path: Path) -> None:
    code, _out, err, out = run_import(tmp_path, '[Event "x"]\n\n1. e4 e5\n\n[Event "y"]\n\n'
                                                '1. d4 *\n')
    assert code == 0
    assert "game 1: warning: no result" in err
    assert len(check_text(out.read_text(encoding="utf-8"))) == 2


def test_lenient_san_is_written_canonically(tmp_path: Path) -> None:
    """What python-chess also reads: castling as the king's move, 'x' on a non-capture."""
    code, _out, err, out = run_import(
        tmp_path, '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Kg1 Nxf6 5. Pd3 *\n')
    assert code == 0, err
    record = out.read_text(encoding="utf-8")
    assert "7. white: O-O" in record and "8. black: Nf6" in record and "9. white: d3" in record


# -- endings off the board ----------------------------------------------------------------------

ENDED = '''[Game "chess"]
[Players "ann; ben"]
[Result "1/2-1/2"]
[Termination "agreement"]

1. ann: e4
2. ben: e5
end: 1/2-1/2 agreement { a handshake }
'''


def test_an_ending_off_the_board_validates_and_ends_the_game(tmp_path: Path) -> None:
    session = load_one(ENDED)
    assert session.outcome().termination == "agreement"
    assert session.outcome().result_tag() == "1/2-1/2"
    assert session.to_move() is None
    assert session.text() == ENDED
    path = tmp_path / "ended.gtn"
    path.write_text(ENDED)
    runner = CliRunner()
    assert runner.invoke(cli, ["moves", str(path)]).stdout == ""
    refused = runner.invoke(cli, ["move", str(path), "Nf3"])
    assert refused.exit_code == 1 and "over" in refused.stderr
    assert path.read_text() == ENDED
    shown = runner.invoke(cli, ["show", str(path)]).stdout
    assert "result: 1/2-1/2 (agreement)" in shown


def test_an_ending_is_general_over_games_and_checked() -> None:
    three = '''[Game "track-gammon"]
[Players "a; b; c"]
[Seed "s"]
[Result "2-1-3"]
[Termination "adjudication"]

end: 2-1-3 adjudication
'''
    session = load_one(three)
    assert [r.result for r in session.outcome().results] == ["loss", "win", "loss"]
    bad = ENDED.replace("end: 1/2-1/2", "end: 2-0")
    assert "result '2-0'" in str(check_text(bad)[0].errors[0])
    after_mate = ('[Game "chess"]\n[Players "a; b"]\n\n1. a: f3\n2. b: e5\n3. a: g4\n'
                  '4. b: Qh4#\nend: 1-0 time forfeit\n')
    assert "already over" in str(check_text(after_mate)[0].errors[0])
    moves_after = ENDED.replace("{ a handshake }", "\n3. ann: Nf3")
    assert "after the ending" in str(check_text(moves_after)[0].errors[0])


def test_results_the_moves_do_not_reach_become_endings(tmp_path: Path) -> None:
    pgn = ('[Event "a"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n\n'
           '[Event "b"]\n[Result "0-1"]\n[Termination "time forfeit"]\n\n1. e4 e5 2. Nf3 0-1\n\n'
           '[Event "c"]\n[Result "1-0"]\n[Termination "Black resigned"]\n\n1. e4 1-0\n\n'
           '[Event "d"]\n[Result "1-0"]\n[Termination "abandoned"]\n\n1-0\n')
    code, _out, err, out = run_import(tmp_path, pgn)
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert ": resign" not in text and "PGNResult" not in text
    assert "end: 1/2-1/2\n" in text and "end: 0-1 time forfeit" in text
    assert "end: 1-0 Black resigned" in text and "end: 1-0 abandoned" in text
    verdicts = check_text(text)
    assert len(verdicts) == 4 and all(v.ok for v in verdicts)
    assert [load_one_at(text, i).outcome().result_tag() for i in range(4)] == [
        "1/2-1/2", "0-1", "1-0", "1-0"]


def load_one_at(text: str, index: int) -> Any:
    from gametool.records import Session, read_text

    return Session.load(read_text(text)[index])


# -- the round trip ----------------------------------------------------------------------------

def _tree(node: Any) -> Any:
    """A python-chess node as plain data: move, comments, NAGs and every variation."""
    return [(child.move.uci(), child.starting_comment, child.comment, sorted(child.nags),
             _tree(child)) for child in node.variations]


def test_pgn_round_trip_keeps_tags_results_comments_nags_and_variations(tmp_path: Path) -> None:
    source = DATA / "archive.pgn"
    out = tmp_path / "archive.gtn"
    runner = CliRunner()
    imported = runner.invoke(cli, ["import", str(source), "-o", str(out)])
    assert imported.exit_code == 0, imported.stderr
    assert all(v.ok for v in check_text(out.read_text(encoding="utf-8")))
    exported = runner.invoke(cli, ["export", str(out), "--pgn"])
    assert exported.exit_code == 0, exported.stderr
    originals = _read_all(source.read_text(encoding="utf-8"))
    again = _read_all(exported.stdout)
    assert len(originals) == len(again) == 5
    for first, second in zip(originals, again, strict=True):
        assert list(second.headers.items()) == list(first.headers.items())
        assert second.comment == first.comment
        assert _tree(second) == _tree(first)
    assert again[2].headers["White"] == "?" and again[2].headers["Black"] == "?"
    assert [g.headers.get("Termination") for g in again] == [
        "agreement", "Time forfeit", None, "adjudication", "time forfeit"]


# -- variations in the record -------------------------------------------------------------------

BRANCHED = '''[Game "chess"]
[Players "ann; ben"]
[Result "*"]

1. ann: e4
2. ben: e5
(
  2. ben: c5 { the Sicilian }
  (
    2. ben: e6 $2
  )
  3. ann: Nf3
)
3. ann: Nf3
'''


def test_variations_are_checked_by_the_engine_at_their_line_and_column() -> None:
    session = load_one(BRANCHED)
    assert session.ply == 3 and session.text() == BRANCHED
    assert [(b.start, b.depth, [s.text for s in b.steps]) for b in session.branches] == [
        (2, 1, ["e4", "c5", "Nf3"]), (2, 2, ["e4", "e6"])]
    illegal = BRANCHED.replace("  3. ann: Nf3", "  3. ann: Nf6")
    errors = check_text(illegal, "b.gtn")[0].errors
    assert [str(e) for e in errors] == [
        "b.gtn:12:11: ply 3: illegal move 'Nf6': no knight of White can legally move to f6"]
    too_far = BRANCHED.replace("    2. ben: e6 $2", "    5. ben: e6")
    assert "variation must replace a ply already played" in str(
        check_text(too_far)[0].errors[0])
    unclosed = BRANCHED.replace("\n)\n3. ann", "\n3. ann")
    assert "unclosed variation" in str(check_text(unclosed)[0].errors[0])


def test_commands_follow_the_main_line_and_replay_shows_variations(tmp_path: Path) -> None:
    path = tmp_path / "b.gtn"
    path.write_text(BRANCHED)
    runner = CliRunner()
    assert "last: ann: Nf3" in runner.invoke(cli, ["show", str(path)]).stdout
    assert "Nc6" in runner.invoke(cli, ["moves", str(path)]).stdout.split()
    replayed = runner.invoke(cli, ["replay", str(path), "--variations"]).stdout
    assert "variation 1 (depth 1), replacing ply 2:" in replayed
    assert "last: ben: c5" in replayed and "last: ben: e6" in replayed
    assert "last: ben: c5" not in runner.invoke(cli, ["replay", str(path)]).stdout
    data = json.loads(runner.invoke(cli, ["replay", str(path), "--variations", "--json"]).stdout)
    assert [len(v["frames"]) for v in data["variations"]] == [2, 1]
    assert runner.invoke(cli, ["move", str(path), "Nc6"]).exit_code == 0
    assert path.read_text() == BRANCHED + "4. ben: Nc6\n"


def test_an_ending_reason_of_any_text_reads_back(tmp_path: Path) -> None:
    code, _out, err, out = run_import(
        tmp_path, '[Event "x"]\n[Termination "lost on time; {flag}"]\n\n1. e4 e5 0-1\n')
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert 'end: 0-1 "lost on time; {flag}"' in text
    session = load_one(text)
    assert session.outcome().termination == "lost on time; {flag}"
    assert session.text() == text


def test_no_records_file_when_no_game_is_read(tmp_path: Path) -> None:
    code, _out, err, out = run_import(tmp_path, '[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
    assert code == 1 and "1 of 1 games refused" in err and not out.exists()
    code, _out, err, out = run_import(tmp_path, "\n\n")
    assert code == 1 and "no PGN game found" in err and not out.exists()


def test_export_pgn_refuses_other_games_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "c.gtn"
    runner = CliRunner()
    runner.invoke(cli, ["start", "colors", "-o", str(path)])
    result = runner.invoke(cli, ["export", str(path), "--pgn"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "only chess records" in result.stderr


def test_a_native_ending_goes_to_pgn_and_back(tmp_path: Path) -> None:
    path = tmp_path / "e.gtn"
    path.write_text(ENDED)
    runner = CliRunner()
    exported = runner.invoke(cli, ["export", str(path), "--pgn"]).stdout
    game = pychess_pgn.read_game(io.StringIO(exported))
    assert game.headers["Result"] == "1/2-1/2" and game.headers["Termination"] == "agreement"
    source = tmp_path / "e.pgn"
    source.write_text(exported)
    back = runner.invoke(cli, ["import", str(source)]).stdout
    assert "end: 1/2-1/2 agreement" in back and all(v.ok for v in check_text(back))


def test_mutated_pgn_never_breaks_the_import() -> None:
    """Random edits of real-looking PGN: every game is imported or refused with a reason, and
    every imported record validates."""
    from gametool.pgn import reader as pgn

    base = [(DATA / "archive.pgn").read_text(encoding="utf-8"), mixed_file()[0]]
    rng = random.Random(16)
    alphabet = '{}()[]"\\;$!?.-0123456789 \nabcdefghKQRBNOxe=+#*/%Z'
    for _ in range(120):
        text = list(rng.choice(base))
        for _edit in range(rng.randint(1, 6)):
            at = rng.randrange(len(text))
            roll = rng.random()
            if roll < 0.4:
                text[at] = rng.choice(alphabet)
            elif roll < 0.7:
                del text[at]
            else:
                text.insert(at, rng.choice(alphabet))
        report = pgn.import_games("".join(text), "m.pgn")
        assert all(r.message and r.line >= 1 and r.column >= 1 for r in report.refused)
        verdicts = check_text(report.text()) if report.games else []
        assert all(v.ok for v in verdicts), [str(e) for v in verdicts for e in v.errors]


def test_a_tag_given_twice_keeps_its_last_value_with_a_warning(tmp_path: Path) -> None:
    code, _out, err, out = run_import(
        tmp_path, '[Event "x"]\n[Annotator "a"]\n[Annotator "b"]\n\n1. e4 *\n')
    assert code == 0 and "tag Annotator given twice" in err
    text = out.read_text(encoding="utf-8")
    assert '[Annotator "b"]' in text and '[Annotator "a"]' not in text
    assert all(v.ok for v in check_text(text))


# -- every game of a real file, as written -------------------------------------------------


def gametool(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command, as a pipeline runs it."""
    return subprocess.run(["gametool", *args], input=stdin, capture_output=True, text=True,
                          check=False, timeout=120)


def test_games_with_tags_and_no_moves_are_records_of_their_own(tmp_path: Path) -> None:
    text = "".join(f'[Event "World Rapid {n}"]\n[White "Ann {n}"]\n[Black "Ben {n}"]\n'
                   f'[Result "{r}"]\n\n' for n, r in enumerate(["1-0", "0-1", "1/2-1/2"]))
    code, _out, err, out = run_import(tmp_path, text + '[Event "last"]\n\n1. e4 *\n')
    assert code == 0 and err == f"4 games imported to {out}\n", err
    verdicts = check_text(out.read_text(encoding="utf-8"))
    assert [v.plies for v in verdicts] == [0, 0, 0, 1] and all(v.ok for v in verdicts)
    assert re.findall(r"^end: (.*)$", out.read_text(), re.MULTILINE) == [
        "1-0", "0-1", "1/2-1/2"]


def test_tags_and_moves_may_share_a_line(tmp_path: Path) -> None:
    lines = ['[Event "a"][Result "1-0"] 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0',
             '[Event "b"] [Result "*"] 1. d4 *',
             '[Event "c"]',
             '[Result "0-1"] 1. f3 e5 2. g4 Qh4# 0-1']
    code, _out, err, out = run_import(tmp_path, "\n".join(lines) + "\n")
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert re.findall(r'^\[Event "(.*)"\]$', text, re.MULTILINE) == ["a", "b", "c"]
    assert [v.plies for v in check_text(text)] == [7, 1, 4]


def test_a_stray_comma_is_skipped_with_a_warning_at_its_place(tmp_path: Path) -> None:
    code, _out, err, out = run_import(
        tmp_path, '[Event "x"]\n\n1. e4 e5 2. Nf3 (2. f4, exf4) 2... Nc6, 3. Bb5 *\n')
    assert code == 0
    source = tmp_path / "games.pgn"
    assert err.splitlines() == [
        f"{source}:3:23: game 1: warning: stray ',' between moves skipped",
        f"{source}:3:39: game 1: warning: stray ',' between moves skipped",
        f"1 game imported to {out}"]
    assert "(2. f4 exf4)" in CliRunner().invoke(cli, ["export", str(out), "--pgn"]).stdout


DEAD_STAR = ('[Event "dead"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/3p4/4K3/4B3 w - - 0 1"]\n'
             '[Result "*"]\n\n1. Kxd3 *\n')


def test_a_star_is_never_rewritten(tmp_path: Path) -> None:
    code, _out, err, out = run_import(tmp_path, DEAD_STAR)
    assert code == 0
    assert "warning: result '*' kept, but the moves end 1/2-1/2 (dead position)" in err
    assert all(v.ok for v in check_text(out.read_text(encoding="utf-8")))
    exported = CliRunner().invoke(cli, ["export", str(out), "--pgn"]).stdout
    assert '[Result "*"]' in exported and exported.rstrip().endswith("1. Kxd3 *")


MATE_CONTRADICTED = '[Event "x"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n'


def test_fix_results_takes_the_board_s_result_and_keeps_the_original(tmp_path: Path) -> None:
    code, _out, err, out = run_import(tmp_path, MATE_CONTRADICTED)
    assert code == 1 and not out.exists()
    assert "result 1-0 contradicts the moves, which end 0-1 (checkmate)" in err
    code, _out, err, out = run_import(tmp_path, MATE_CONTRADICTED, "--fix-results")
    assert code == 0 and "warning: result 1-0 contradicts the moves" in err
    text = out.read_text(encoding="utf-8")
    assert '[Result "0-1"]' in text and '[OriginalResult "1-0"]' in text
    assert all(v.ok for v in check_text(text))
    # A Result tag that the movetext contradicts: the movetext's result.
    code, _out, err, out = run_import(
        tmp_path, '[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 0-1\n', "--fix-results", "--force")
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert "end: 0-1" in text and '[OriginalResult "1-0"]' in text


def test_import_to_dev_null_only_checks(tmp_path: Path) -> None:
    source = tmp_path / "games.pgn"
    source.write_text(GOOD + "\n" + DEAD_STAR)
    done = gametool("import", str(source), "-o", os.devnull)
    assert done.returncode == 0 and done.stdout == ""
    assert "result '*' kept" in done.stderr and "already exists" not in done.stderr


def test_every_game_refused_with_force_empties_the_output(tmp_path: Path) -> None:
    source = tmp_path / "bad.pgn"
    source.write_text('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
    out = tmp_path / "out.gtn"
    out.write_text("stale records\n")
    done = gametool("import", str(source), "-o", str(out))
    assert done.returncode == 1 and out.read_text() == "stale records\n"
    assert done.stderr.strip() == f"gametool: {out}: already exists (use --force to overwrite)"
    done = gametool("import", str(source), "-o", str(out), "--force")
    assert done.returncode == 1 and out.read_text() == ""
    assert f"{out}: emptied: every game was refused" in done.stderr
    assert "1 of 1 games refused" in done.stderr


def test_import_eco_names_the_opening_from_the_table(tmp_path: Path) -> None:
    code, _out, err, out = run_import(
        tmp_path, '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n'
        '\n[Event "transposed"]\n\n1. Nf3 Nc6 2. e4 e5 3. Bb5 *\n', "--eco")
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert re.findall(r'^\[ECO "(.*)"\]$', text, re.MULTILINE) == ["C84", "C60"]
    assert '[Opening "Ruy Lopez: Closed"]' in text
    assert '[Opening "Ruy Lopez"]' in text
    with open(Path(pgn_module.__file__).parent.parent / "data" / "eco.tsv") as table:
        assert "CC0" in table.readline()


# -- export --pgn as collectors want it -----------------------------------------------------


def exported(tmp_path: Path, *options: str) -> str:
    source = tmp_path / "archive.gtn"
    if not source.exists():
        source.write_text(CliRunner().invoke(cli, ["import", str(DATA / "famous.pgn")]).stdout)
    result = CliRunner().invoke(cli, ["export", str(source), "--pgn", *options])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_export_lines_are_80_wide_and_a_number_stays_with_its_move(tmp_path: Path) -> None:
    text = exported(tmp_path)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert not [line for line in text.splitlines() if re.search(r"\d\.$|\d\.\.\.$", line)]
    assert any(len(line) > 76 for line in text.splitlines())


def test_export_leaves_out_comments_nags_variations_and_tags(tmp_path: Path) -> None:
    full = exported(tmp_path)
    assert "{" in full and "$" in full and "(" in full
    bare = exported(tmp_path, "--no-comments", "--no-nags", "--no-variations", "--seven-tags")
    assert "{" not in bare and "$" not in bare and "(" not in bare
    tags = set(re.findall(r"^\[(\w+) ", bare, re.MULTILINE))
    assert tags <= {"Event", "Site", "Date", "Round", "White", "Black", "Result", "SetUp", "FEN"}
    games = list(_games(full))
    again = list(_games(bare))
    assert [g.headers["Result"] for g in games] == [g.headers["Result"] for g in again]
    assert [list(g.mainline_moves()) for g in games] == [list(g.mainline_moves())
                                                          for g in again]


def _games(text: str) -> Any:
    stream = io.StringIO(text)
    while (game := pychess_pgn.read_game(stream)) is not None:
        yield game


def test_export_in_lan_and_uci_with_fen_comments_as_python_chess_has_them(
        tmp_path: Path) -> None:
    games = list(_games(exported(tmp_path)))
    uci = exported(tmp_path, "--notation", "uci", "--fen-comments", "--no-comments",
                   "--no-variations")
    lan = exported(tmp_path, "--notation", "lan", "--no-comments", "--no-variations",
                   "--no-nags")
    uci_games = re.split(r"\n\n(?=\[Event)", uci.strip())
    lan_games = re.split(r"\n\n(?=\[Event)", lan.strip())
    assert len(uci_games) == len(lan_games) == len(games)
    for game, in_uci, in_lan in zip(games, uci_games, lan_games, strict=True):
        board = game.board()
        want_uci, want_lan, fens = [], [], []
        for move in game.mainline_moves():
            want_uci.append(move.uci())
            want_lan.append(board.lan(move))
            board.push(move)
            fens.append(board.fen(en_passant="fen"))
        body = in_uci.split("\n\n", 1)[1].replace("\n", " ")
        assert re.findall(r"\{([^}]*)\}", body) == fens
        words = re.sub(r"\{[^}]*\}", " ", body).split()
        assert [w for w in words if not re.fullmatch(r"\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*", w)] \
            == want_uci
        words = in_lan.split("\n\n", 1)[1].split()
        assert [w for w in words if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", w)] \
            == want_lan


def test_export_plies_cuts_the_main_line(tmp_path: Path) -> None:
    text = exported(tmp_path, "--plies", "5")
    for game in _games(text):
        assert len(list(game.mainline_moves())) <= 5
        assert game.headers["Result"] == "*" or len(list(game.mainline_moves())) < 5
    code = CliRunner().invoke(cli, ["export", str(tmp_path / "archive.gtn"), "--no-nags"])
    assert code.exit_code == 2 and "--no-nags: with a format (--pgn)" in code.stderr


def test_one_game_a_line_with_results_that_disagree(tmp_path: Path) -> None:
    """The way pgn-extract's own tests write games: tags, a move and a result on one line."""
    pairs = [(tag, end) for tag in ("1-0", "0-1", "1/2-1/2") for end in ("*", "0-1")]
    text = "".join(f'[Result "{tag}"] e4 {end}\n' for tag, end in pairs)
    code, _out, err, out = run_import(tmp_path, text)
    assert code == 1 and "2 of 6 games refused" in err
    assert "game 2: the Result tag says 1-0 but the movetext ends 0-1" in err
    assert re.findall(r"^end: (.*)$", out.read_text(), re.MULTILINE) == [
        "1-0", "0-1", "0-1", "1/2-1/2"]
    code, _out, err, out = run_import(tmp_path, text, "--fix-results", "--force")
    assert code == 0
    assert re.findall(r"^end: (.*)$", out.read_text(), re.MULTILINE) == [
        "1-0", "0-1", "0-1", "0-1", "1/2-1/2", "0-1"]
    assert re.findall(r'^\[OriginalResult "(.*)"\]$', out.read_text(), re.MULTILINE) == [
        "1-0", "1/2-1/2"]
    # A game that cannot be read costs that game only, not the lines after it.
    code, _out, err, out = run_import(tmp_path, text.replace("e4 *", "e4 } *", 1), "--force")
    assert code == 1 and "game 1: unexpected '}'" in err and "3 of 6 games refused" in err


def test_export_json_of_one_record_needs_no_seat(tmp_path: Path) -> None:
    path = tmp_path / "g.gtn"
    path.write_text(CliRunner().invoke(cli, ["import", "-"], input=GOOD).stdout)
    result = CliRunner().invoke(cli, ["export", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["tags"]["View"] == "spectator" and data["tags"]["Result"] == "1-0"
    assert CliRunner().invoke(cli, ["export", str(path)]).exit_code == 2


def test_an_import_writes_the_records_it_keeps() -> None:
    """An import that only writes its records (and makes the game of many records once)
    writes those of an import that keeps every session."""
    text = "\n".join((DATA / name).read_text(encoding="utf-8")
                     for name in ("archive.pgn", "famous.pgn"))
    written = pgn_module.import_games(text, "a.pgn")
    kept = pgn_module.import_games(text, "a.pgn", keep=True)
    assert len(written.games) > 10
    assert written.text() == kept.text() == "\n".join(g.session.text() for g in kept.games
                                                      if g.session is not None)
    assert written.messages == kept.messages
    assert [r.where("a.pgn") for r in written.refused] == [r.where("a.pgn")
                                                          for r in kept.refused]
