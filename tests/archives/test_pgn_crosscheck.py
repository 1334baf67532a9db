"""PGN import against python-chess, the outside truth: every main-line move's SAN (with its
check or mate mark) and every game's final position, for the archive files of tests/data and
for random legal games that python-chess plays from positions rich in castling, en passant,
promotions and under-promotions, ambiguous and pinned pieces, checks, mates and stalemates."""

from __future__ import annotations

import io
import random
from pathlib import Path

import chess
import chess.pgn as pychess_pgn
import pytest

from gametool.games.chess.position import forget_shared, write_fen
from gametool.pgn import reader as pgn
from gametool.records import check_text

DATA = Path(__file__).resolve().parent.parent / "data"

STARTS = [
    chess.STARTING_FEN,
    # Castling both ways for both sides, knights and bishops facing each other.
    "r3k2r/pppq1ppp/2n1bn2/3pp3/1b1PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    # Four queens a side: SAN names the file, the rank or the whole square (Qb2b7).
    "1q3q1k/8/1q3q2/8/8/1Q3Q2/8/1Q3Q1K w - - 0 1",
    # The knight on e2 is pinned: only the c2 knight goes to d4, and SAN says Nd4.
    "4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1",
    # Pawns about to promote on both sides (and under-promote).
    "8/PPP1k3/8/8/8/8/ppp1K3/8 w - - 0 1",
    # En passant at once, with a rook that may pin along the fifth rank.
    "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1",
    # Endings where mate and stalemate come quickly.
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "8/8/8/4k3/8/8/8/4K2Q w - - 0 1",
    "7k/8/6K1/8/8/8/8/6Q1 w - - 0 1",
]


def _special(board: chess.Board, move: chess.Move) -> bool:
    if move.promotion or board.is_castling(move) or board.is_en_passant(move):
        return True
    if board.gives_check(move):
        return True
    piece = board.piece_type_at(move.from_square)
    return piece != chess.PAWN and any(
        other != move and other.to_square == move.to_square
        and board.piece_type_at(other.from_square) == piece
        for other in board.legal_moves)


def _pick(board: chess.Board, rng: random.Random) -> chess.Move:
    moves = list(board.legal_moves)
    if len(board.piece_map()) <= 8 or rng.random() < 0.1:
        for move in moves:  # an ending when one is there, often
            board.push(move)
            over = board.is_checkmate() or board.is_stalemate()
            board.pop()
            if over and rng.random() < 0.7:
                return move
    special = [m for m in moves if _special(board, m)]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    return rng.choice(moves)


def _random_game(rng: random.Random, number: int) -> str:
    fen = STARTS[number % len(STARTS)]
    board = chess.Board(fen)
    game = pychess_pgn.Game()
    if fen != chess.STARTING_FEN:
        game.setup(board)
    node = game
    for _ply in range(rng.randint(10, 120)):
        if board.is_game_over(claim_draw=False):
            break
        move = _pick(board, rng)
        node = node.add_variation(move)
        board.push(move)
    outcome = board.outcome(claim_draw=False)
    game.headers["Result"] = (outcome.result() if outcome and outcome.termination in
                              (chess.Termination.CHECKMATE, chess.Termination.STALEMATE)
                              else "*")
    return str(game)


def _expected(text: str) -> list[tuple[list[str], str, str | None]]:
    """Per game: python-chess's SAN of every main-line move, the final FEN (en passant as
    after every double step, as gametool writes it), and mate or stalemate at the end."""
    out = []
    stream = io.StringIO(text)
    while (game := pychess_pgn.read_game(stream)) is not None:
        board = game.board()
        sans = []
        for move in game.mainline_moves():
            sans.append(board.san(move))
            board.push(move)
        end = ("checkmate" if board.is_checkmate() else
               "stalemate" if board.is_stalemate() else None)
        out.append((sans, board.fen(en_passant="fen"), end))
    return out


def _cross_check(text: str) -> list[list[str]]:
    forget_shared()
    expected = _expected(text)
    report = pgn.import_games(text, keep=True)
    assert not report.refused, report.messages
    assert len(report.games) == len(expected)
    all_sans = []
    for imported, (sans, fen, end) in zip(report.games, expected, strict=True):
        session = imported.session
        assert session is not None
        assert [step.text for step in session.steps] == sans
        assert write_fen(session.state) == fen
        if end is not None:
            outcome = session.outcome()
            assert outcome is not None and outcome.termination == end
        all_sans.append(sans)
    # The records just written validate, strictly, in this process (sharing the positions)
    # and in a fresh one (sharing nothing).
    records = report.text()
    assert all(v.ok for v in check_text(records)), [v for v in check_text(records) if not v.ok]
    forget_shared()
    assert all(v.ok for v in check_text(records))
    return all_sans


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.pgn")))
def test_archive_files_import_as_python_chess_reads_them(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    sans = _cross_check(text)
    assert sum(len(s) for s in sans) > 0


def test_random_games_import_as_python_chess_plays_them() -> None:
    rng = random.Random(20261126)
    text = "\n\n".join(_random_game(rng, n) for n in range(72))
    sans = [s for game in _cross_check(text) for s in game]
    # The games cover what they are made for (else the comparison would prove little).
    assert any(s.endswith("#") for s in sans)
    assert any(s.startswith("O-O-O") for s in sans) and any(s.startswith("O-O") for s in sans)
    assert any("=N" in s for s in sans) and any("=R" in s for s in sans)
    assert any("=B" in s for s in sans) and any("=Q" in s for s in sans)
    assert any(s[0] in "QRBNK" and len(s.rstrip("+#").replace("x", "")) == 5 for s in sans)
    assert any(s[0] in "QRBNK" and s[1] in "abcdefgh" and s.rstrip("+#")[2] in "abcdefghx"
               for s in sans)
    assert any(s.endswith("+") for s in sans)
    stalemates = sum(1 for game in _expected(text) if game[2] == "stalemate")
    assert stalemates > 0


def test_en_passant_and_the_pinned_knight() -> None:
    text = ('[FEN "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1"]\n[SetUp "1"]\n\n1. Kg6 Ra6+ 2. Kf5 *\n\n'
            '[FEN "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"]\n[SetUp "1"]\n\n1. exd6 Kd7 *\n\n'
            '[FEN "4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Nd4 Kd7 *\n')
    assert _cross_check(text) == [["Kg6", "Ra6+", "Kf5"], ["exd6", "Kd7"], ["Nd4", "Kd7"]]


def test_a_move_after_mate_is_refused() -> None:
    text = "1. f3 e5 2. g4 Qh4# 3. a3 *\n"
    report = pgn.import_games(text)
    assert report.refused and "checkmate" in report.messages[0]


def test_check_from_the_moved_piece_as_python_chess_says() -> None:
    """Every legal move of positions met in random games: check after it, told from the moved
    piece and the line through its from-square, as python-chess tells it."""
    from gametool.games.chess.board import gives_check, make_move
    from gametool.games.chess.position import read_fen

    rng = random.Random(7)
    seen = checks = 0
    for number in range(24):
        board = chess.Board(STARTS[number % len(STARTS)])
        for _ply in range(60):
            if board.is_game_over(claim_draw=False):
                break
            pos = read_fen(board.fen())
            for move in board.legal_moves:
                m = move.from_square | move.to_square << 6 | (
                    " NBRQ".index(chess.piece_symbol(move.promotion).upper())
                    if move.promotion else 0) << 12
                after = make_move(pos.board, m, pos.white, pos.castling, pos.ep)[0]
                expected = board.gives_check(move)
                assert gives_check(pos.board, after, m, pos.white) == expected, (board.fen(), move)
                seen += 1
                checks += expected
            board.push(_pick(board, rng))
    assert seen > 10_000 and checks > 300


def _verdicts(text: str, all_errors: bool) -> list[str]:
    return [f"{v.ok} {v.plies} " + " | ".join(str(e) for e in v.errors)
            for v in check_text(text, "x.gtn", all_errors=all_errors)]


def test_records_changed_after_import_are_judged_as_by_a_fresh_process() -> None:
    """Import remembers every move it read in the positions it reached from a shared start
    (position.link); a record read afterwards in the same process follows those moves. A record
    that differs from what was imported (another legal move, an illegal one, lines swapped or
    lost, another seat, a claim, options that change the end) must get exactly the verdict it
    gets where nothing was imported before."""
    rng = random.Random(20261127)
    text = "\n\n".join(_random_game(rng, n) for n in range(24))
    forget_shared()
    records = pgn.import_games(text).text()
    lines = records.split("\n")
    turns = [i for i, line in enumerate(lines) if ": " in line and line[0].isdigit()]
    variants = []
    for k in range(60):
        changed = list(lines)
        i, j = rng.choice(turns), rng.choice(turns)
        number, rest = changed[i].split(". ", 1)
        seat, move = rest.split(": ", 1)
        kind = k % 6
        if kind == 0:
            changed[i], changed[j] = changed[j], changed[i]
        elif kind == 1:
            del changed[i]
        elif kind == 2:  # the move written without its check sign or capture mark
            changed[i] = changed[i].replace("+", "").replace("x", "")
        elif kind == 3:  # another move, often legal, of the same piece or pawn
            changed[i] = f"{number}. {seat}: {move[0]}{rng.choice('abcdefgh')}" \
                         f"{rng.choice('12345678')}"
        elif kind == 4:
            changed[i] = f"{number}. {seat}: claim-draw {move}"
        else:  # the draws that end a game become automatic again
            changed = [line for line in changed if not line.startswith("[Options")]
        variants.append("\n".join(changed))
    forget_shared()
    fresh = [_verdicts(v, k % 2 == 0) for k, v in enumerate(variants)]
    assert any(not v.startswith("True") for verdicts in fresh for v in verdicts)
    for k, variant in enumerate(variants):
        forget_shared()
        assert pgn.import_games(text).text() == records
        assert _verdicts(variant, k % 2 == 0) == fresh[k], variant
    assert all(v.ok for v in check_text(records))


def test_a_game_past_an_automatic_draw_shares_nothing_with_the_game_it_ends() -> None:
    """The same moves read under automatic draws (where the fifth repetition ends the game)
    and without them (as a PGN game that went on is imported) start from different shared
    positions: what one remembers never answers for the other."""
    shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 " * 4 + "5. Nf3 Nf6 *"
    forget_shared()
    report = pgn.import_games(shuffle + "\n")
    assert not report.refused
    records = report.text()
    assert "automatic_draws=off" in records
    automatic = "\n".join(line for line in records.split("\n")
                          if not line.startswith("[Options"))
    verdict = check_text(automatic)[0]
    assert not verdict.ok and "fivefold" in str(verdict.errors[0]), verdict
    forget_shared()
    assert [str(e) for e in check_text(automatic)[0].errors] == \
        [str(e) for e in verdict.errors]
    assert check_text(records)[0].ok


def test_the_moves_remembered_are_freed_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past LINK_LIMIT moves remembered the shared starts are forgotten: the positions an
    import keeps alive stay bounded however many games it reads, and the records are the
    same."""
    import gc

    from gametool.games.chess import position

    rng = random.Random(5)
    text = "\n\n".join(_random_game(rng, n) for n in range(40))
    forget_shared()
    gc.collect()
    # Positions other tests of this process keep alive are not this import's.
    before = {id(o) for o in gc.get_objects() if type(o) is position.Position}
    expected = pgn.import_games(text).text()
    forget_shared()
    monkeypatch.setattr(position, "LINK_LIMIT", 200)
    assert pgn.import_games(text).text() == expected
    gc.collect()
    alive = sum(1 for o in gc.get_objects()
                if type(o) is position.Position and id(o) not in before)
    assert alive < 1_000, alive
    assert all(v.ok for v in check_text(expected))
    forget_shared()


def test_every_plain_move_read_in_one_pass_is_what_the_full_reading_gives() -> None:
    """read_move reads a plain SAN (a piece's move, a pawn's advance or capture) by its own
    short way, from the pieces of that letter. In positions of random games from every start
    above, every text of those shapes that names a square, legal or not, ambiguous or not,
    with and without the file or rank of the piece, is read exactly as parse_action reads it
    (the same move, or a refusal), and the canonical SAN and next position are the same."""
    from gametool.core.errors import GameError
    from gametool.games.chess.game import Chess
    from gametool.games.chess.position import read_fen

    game = Chess()
    rng = random.Random(11)
    squares = [f + r for f in "abcdefgh" for r in "12345678"]
    compared = refused = 0
    for number in range(27):
        board = chess.Board(STARTS[number % len(STARTS)])
        for _ply in range(50):
            if board.is_game_over(claim_draw=False):
                break
            fen = board.fen()
            texts = {board.san(move) for move in board.legal_moves}
            for _ in range(40):
                square = rng.choice(squares)
                shape = rng.randrange(6)
                if shape == 0:
                    texts.add(rng.choice("NBRQK") + square)
                elif shape == 1:
                    texts.add(rng.choice("NBRQ") + rng.choice("abcdefgh") + square)
                elif shape == 2:
                    texts.add(rng.choice("NBRQ") + rng.choice("12345678") + "x" + square)
                elif shape == 3:
                    texts.add(square + rng.choice(["", "=Q", "=N"]))
                elif shape == 4:
                    texts.add(rng.choice("abcdefgh") + "x" + square + rng.choice(["", "=R"]))
                else:
                    texts.add(rng.choice("NBRQ") + "x" + square + "+")
            for text in sorted(texts):
                try:
                    expected: object = game.parse_action(read_fen(fen), text)
                except GameError as exc:
                    expected = type(exc)
                try:
                    action, san, after = game.read_move(read_fen(fen), text)
                except GameError as exc:
                    assert type(exc) is expected, (fen, text)
                    refused += 1
                    continue
                assert action == expected, (fen, text)
                start = read_fen(fen)
                assert san == game.format_action(start, action), (fen, text)
                assert write_fen(after) == write_fen(game.apply(start, action)), (fen, text)
                compared += 1
            board.push(_pick(board, rng))
    assert compared > 10_000 and refused > 10_000, (compared, refused)


def test_a_long_game_with_no_capture_keeps_its_repetitions_right() -> None:
    """A position keeps the one before it until its history is asked for (most never are):
    1,200 plies of knights going back and forth, past every automatic draw, read and checked,
    with the repetitions counted as python-chess counts them."""
    moves = ["Nf3", "Nf6", "Ng1", "Ng8"] * 300
    board = chess.Board()
    for san in moves:
        board.push_san(san)
    text = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    forget_shared()
    report = pgn.import_games(text + " *\n", keep=True)
    assert not report.refused, report.messages
    session = report.games[0].session
    assert session is not None and len(session.steps) == 1200
    final = session.state
    assert final.repetitions() == 301  # the start position, 300 times again, and now
    assert final.halfmove == board.halfmove_clock == 1200
    assert check_text(report.text())[0].ok
    forget_shared()
    assert check_text(report.text())[0].ok


def test_a_check_past_the_moves_it_may_remember_judges_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A check remembers the moves it reads while there is room (LINK_LIMIT, and CHECK_LIMIT
    of its own), then reads on without remembering and without forgetting what an import
    remembered: the verdicts are the same as in a fresh process, on records whole and damaged,
    and the positions kept stay bounded."""
    import gc

    from gametool.games.chess import position

    rng = random.Random(17)
    text = "\n\n".join(_random_game(rng, n) for n in range(30))
    forget_shared()
    gc.collect()
    # Positions other tests of this process keep alive are not this check's.
    before = {id(o) for o in gc.get_objects() if type(o) is position.Position}
    records = pgn.import_games(text).text()
    damaged = records.replace("\n5. ", "\n5. x", 7).replace("+\n", "\n", 5)
    expected = [_verdicts(records, False), _verdicts(damaged, True)]
    monkeypatch.setattr(position, "LINK_LIMIT", 150)
    monkeypatch.setattr(position, "CHECK_LIMIT", 40)
    for _ in range(2):
        forget_shared()
        assert pgn.import_games(text).text() == records
        starts = dict(position._STARTS)
        assert [_verdicts(records, False), _verdicts(damaged, True)] == expected
        assert all(position._STARTS.get(key) is pos for key, pos in starts.items())
        assert position._LINKS[0] <= 150 and position._LINKS[1] <= 40
    gc.collect()
    alive = sum(1 for o in gc.get_objects()
                if type(o) is position.Position and id(o) not in before)
    assert alive < 1_500, alive
    forget_shared()


def test_the_command_line_remembers_only_openings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command reads each record once (engine.REMEMBER_ALL off, as the command line sets
    it): moves are remembered only before OPENING_PLIES and at most OPENING_LIMIT of them, and
    the records and verdicts are the same."""
    import gc

    from gametool.core import engine
    from gametool.games.chess import position

    rng = random.Random(23)
    text = "\n\n".join(_random_game(rng, n) for n in range(30))
    forget_shared()
    gc.collect()
    # Positions other tests of this process keep alive are not this command's.
    before = {id(o) for o in gc.get_objects() if type(o) is position.Position}
    records = pgn.import_games(text).text()
    expected = _verdicts(records, True)
    monkeypatch.setattr(engine, "REMEMBER_ALL", False)
    monkeypatch.setattr(position, "OPENING_LIMIT", 100)
    forget_shared()
    assert pgn.import_games(text).text() == records
    assert _verdicts(records, True) == expected
    gc.collect()
    kept = [o for o in gc.get_objects() if type(o) is position.Position
            and o._link is not None and id(o) not in before]
    assert kept and all(p.ply < position.OPENING_PLIES for p in kept)
    assert position._LINKS[0] <= 100
    forget_shared()
