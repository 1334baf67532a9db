"""Chess and Super Horse Chess edge cases found by audits, checked through the installed command:
fivefold repetition reached by null moves, castling notation that names only the king's move,
and a stalemate with a horse on the en-passant square."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import chess as pychess
import chess.pgn as pychess_pgn

from gametool.games.chess import Chess, SuperHorseChess


def gametool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gametool", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def record(game: str, moves: list[str], options: str = "", position: str = "") -> str:
    tags = [f'[Game "{game}"]', '[Players "ann; ben"]']
    if options:
        tags.append(f'[Options "{options}"]')
    if position:
        tags.append(f'[Position "{position}"]')
    lines = [f"{i}. {'ann' if i % 2 else 'ben'}: {text}" for i, text in enumerate(moves, 1)]
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + ("\n" if lines else "")


# -- fivefold repetition reached by null moves -------------------------------------------------


def test_ten_null_moves_are_refused_at_the_ninth(tmp_path: Path) -> None:
    """Two null moves bring the start back: its fifth occurrence comes after ply 8 (D4)."""
    path = tmp_path / "nulls.gtn"
    path.write_text(record("chess", ["--"] * 10, "null_moves=on"))
    done = gametool("validate", str(path), cwd=tmp_path)
    assert done.returncode != 0
    assert "ply 9: the game is over (1/2-1/2, fivefold repetition)" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    path.write_text(record("chess", ["--"] * 8, "null_moves=on"))
    done = gametool("show", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "fivefold repetition" in done.stdout
    path.write_text(record("chess", ["--"] * 7, "null_moves=on"))
    assert gametool("validate", str(path), cwd=tmp_path).returncode == 0


def test_null_moves_mixed_with_moves_reach_the_fifth_occurrence(tmp_path: Path) -> None:
    """Nf3 -- Ng1 -- brings the start back after 4 plies; a null pair after 2: the position
    after 1. Nf3 occurs a fifth time at ply 9, with pawns on the board and a small clock."""
    moves = ["Nf3", "--", "--", "--", "--", "--", "--", "--", "--", "Nc6"]
    path = tmp_path / "mixed.gtn"
    path.write_text(record("chess", moves, "null_moves=on"))
    done = gametool("validate", str(path), cwd=tmp_path)
    assert "ply 10: the game is over (1/2-1/2, fivefold repetition)" in done.stderr, done.stderr


def test_the_move_command_refuses_after_the_fifth_occurrence_by_null_moves(
        tmp_path: Path) -> None:
    path = tmp_path / "live.gtn"
    path.write_text(record("chess", ["--"] * 8, "null_moves=on"))
    before = path.read_bytes()
    done = gametool("move", str(path), "--", "--", cwd=tmp_path)
    assert done.returncode != 0 and "over" in done.stderr
    assert path.read_bytes() == before


def test_import_of_a_game_past_the_fifth_occurrence_turns_automatic_draws_off(
        tmp_path: Path) -> None:
    pgn = tmp_path / "nulls.pgn"
    pgn.write_text('[Event "n"]\n[Result "*"]\n\n1. -- -- 2. -- -- 3. -- -- 4. -- -- '
                   '5. -- -- 6. e4 *\n')
    out = tmp_path / "nulls.gtn"
    done = gametool("import", str(pgn), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "automatic_draws=off" in text and "null_moves=on" in text
    assert gametool("validate", str(out), cwd=tmp_path).returncode == 0
    # Stopping at the eighth null move, the game is drawn there, and the option is not needed.
    pgn.write_text('[Event "n"]\n[Result "1/2-1/2"]\n\n1. -- -- 2. -- -- 3. -- -- 4. -- -- '
                   '1/2-1/2\n')
    out = tmp_path / "drawn.gtn"
    done = gametool("import", str(pgn), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "automatic_draws" not in out.read_text()


def test_the_fifth_occurrence_agrees_with_python_chess_over_null_moves() -> None:
    """python-chess counts the same repetitions when the moves include null moves (here the
    fifth occurrence comes at ply 13, the clock at 12)."""
    game = Chess({"null_moves": "on"})
    texts = ["e4", "Nf6", "--", "Ng8", "--", "--", "--", "Nc6", "--", "Nb8"] + ["--"] * 8
    state = game.initial_state(2)
    board = pychess.Board()
    for ply, text in enumerate(texts, 1):
        ours = game.outcome(state)
        theirs = board.is_fivefold_repetition()
        assert (ours is not None) == theirs, (ply, text)
        if ours is not None:
            break
        state = game.apply(state, game.parse_action(state, text))
        board.push(pychess.Move.null() if text == "--" else board.parse_san(text))
    else:
        raise AssertionError("no fifth occurrence")


# -- castling names the king's move only -------------------------------------------------------


ROOK_ON_E1 = "7k/8/8/8/8/8/8/K3R3 w - - 0 1"


def test_castling_text_never_names_a_rook_move(tmp_path: Path) -> None:
    path = tmp_path / "rook.gtn"
    for text in ("O-O-O", "O-O", "0-0-0", "0-0"):
        path.write_text(record("chess", [text], position=ROOK_ON_E1))
        done = gametool("validate", str(path), cwd=tmp_path)
        assert done.returncode != 0, text
        assert "cannot castle" in done.stderr, done.stderr
    path.write_text(record("chess", [], position=ROOK_ON_E1))
    before = path.read_bytes()
    done = gametool("move", str(path), "O-O-O", cwd=tmp_path)
    assert done.returncode != 0 and "cannot castle" in done.stderr
    assert path.read_bytes() == before
    done = gametool("move", str(path), "Rc1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ann: Rc1" in path.read_text()


def test_castling_text_never_names_a_queen_move_for_black(tmp_path: Path) -> None:
    path = tmp_path / "queen.gtn"
    path.write_text(record("chess", ["Kb1", "O-O"], position="k3q3/8/8/8/8/8/8/K7 w - - 0 1"))
    done = gametool("validate", str(path), cwd=tmp_path)
    assert done.returncode != 0 and "cannot castle" in done.stderr, done.stderr


def test_castling_after_the_rook_first_is_still_read_by_its_king(tmp_path: Path) -> None:
    """The same text read twice in one process (the remembered moves): once where it castles,
    once where a rook stands on the king's square."""
    game = Chess()
    state = game.decode_position("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", 2)
    m = game.parse_action(state, "O-O-O")
    assert game.format_action(state, m) == "O-O-O"
    rook = game.decode_position("7k/8/8/8/8/8/8/K3R3 w - - 0 1", 2)
    for _ in range(2):
        try:
            action = game.parse_action(rook, "O-O-O")
        except Exception as exc:  # noqa: BLE001 - the refusal is what is checked
            assert "cannot castle" in str(exc)
        else:
            raise AssertionError(f"read as {game.format_action(rook, action)}")
        try:
            game.read_move(rook, "O-O-O")
        except Exception as exc:  # noqa: BLE001
            assert "cannot castle" in str(exc)
        else:
            raise AssertionError("read_move took O-O-O as a rook's move")


ORDINARY = ("1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nf6 5. Nc3 Bb4 6. Bg5 h6 7. Bxf6 Qxf6 "
            "8. Qd2 a6 9. O-O-O")
QUEEN_ON_E1 = "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. e3 e6 5. Ke2 a6 6. Qe1 a5 7. O-O-O"


def test_import_reads_castling_as_the_kings_move_only(tmp_path: Path) -> None:
    """After 8. Qd2 a6 O-O-O is the king's move; with the king gone from e1 and the queen
    there instead, O-O-O is refused, as python-chess refuses it (never read as Qc1)."""
    pgn = tmp_path / "g.pgn"
    out = tmp_path / "g.gtn"
    pgn.write_text(f'[Event "c"]\n[Result "*"]\n\n{ORDINARY} *\n')
    done = gametool("import", str(pgn), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert out.read_text().rstrip().endswith("O-O-O"), out.read_text()
    exported = gametool("export", str(out), "--pgn", cwd=tmp_path).stdout
    ours = pychess_pgn.read_game(io.StringIO(exported))
    theirs = pychess_pgn.read_game(io.StringIO(pgn.read_text()))
    assert ours is not None and theirs is not None and not ours.errors
    assert ours.end().board().fen() == theirs.end().board().fen()
    pgn.write_text(f'[Event "q"]\n[Result "*"]\n\n{QUEEN_ON_E1} *\n')
    out = tmp_path / "q.gtn"
    theirs = pychess_pgn.read_game(io.StringIO(pgn.read_text()))
    assert theirs is not None and theirs.errors  # python-chess refuses the last move
    done = gametool("import", str(pgn), "-o", str(out), cwd=tmp_path)
    assert done.returncode != 0, out.read_text()
    assert "cannot castle" in done.stderr, done.stderr


def test_a_rook_on_the_kings_square_imports_as_the_rook(tmp_path: Path) -> None:
    pgn = tmp_path / "r.pgn"
    pgn.write_text(f'[Event "r"]\n[SetUp "1"]\n[FEN "{ROOK_ON_E1}"]\n[Result "*"]\n\n'
                   "1. O-O-O *\n")
    out = tmp_path / "r.gtn"
    done = gametool("import", str(pgn), "-o", str(out), cwd=tmp_path)
    assert done.returncode != 0 or "Rc1" not in out.read_text(), out.read_text()


def test_completion_offers_castling_only_where_the_king_castles(tmp_path: Path) -> None:
    path = tmp_path / "c.gtn"
    path.write_text(record("chess", [], position=ROOK_ON_E1))
    done = gametool("moves", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "O-O" not in done.stdout and "Rc1" in done.stdout
    game = Chess()
    state = game.decode_position(ROOK_ON_E1, 2)
    assert not [a for a in game.legal_actions(state)
                if game.format_action(state, a).startswith("O-O")]


# -- Super Horse Chess: a horse on the en-passant square ---------------------------------------


HORSE_ON_EP = "k7/8/3**3/3pP3/8/8/6**/6*K w - d6 0 1"


def test_a_horse_on_the_en_passant_square_leaves_a_stalemate(tmp_path: Path) -> None:
    game = SuperHorseChess()
    state = game.decode_position(HORSE_ON_EP, 2)
    assert game.legal_actions(state) == []
    outcome = game.outcome(state)
    assert outcome is not None and outcome.termination == "stalemate"
    same = game.decode_position(HORSE_ON_EP.replace(" d6 ", " - "), 2)
    assert game.outcome(same) == outcome
    path = tmp_path / "h.gtn"
    path.write_text(record("super-horse-chess", [], position=HORSE_ON_EP))
    done = gametool("show", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "stalemate" in done.stdout
    path.write_text(record("super-horse-chess", ["exd6 @a1"], position=HORSE_ON_EP))
    done = gametool("validate", str(path), cwd=tmp_path)
    assert done.returncode != 0 and "over" in done.stderr, done.stderr


def test_a_pawn_beside_the_horse_still_has_its_other_moves() -> None:
    """The en-passant square blocked by a horse takes away that capture only."""
    game = SuperHorseChess()
    state = game.decode_position("k7/8/3*4/3pP3/8/8/6**/6*K w - d6 0 1", 2)
    texts = {game.format_action(state, a).split()[0] for a in game.legal_actions(state)}
    assert texts == {"e6"}
    assert game.outcome(state) is None
