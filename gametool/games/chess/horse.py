"""Super Horse Chess: chess on the same core, plus one compulsory Trojan-horse action per turn.

A turn is one action ``(move, horse)``: the chess move (an int, as in chess) and the horse
action, ``None`` or a tuple: ``(PLACE, sq)``, ``(REMOVE, a, b)`` with ``b = -1`` for a single
removal, ``(HMOVE, from, to, promotion)``. Horses are board characters (``*`` neutral, ``H``/``h``
owned) that block every piece and are never captured (D8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import islice, repeat
from typing import Any, ClassVar

from gametool.core.engine import RESIGN, Option, Outcome, seat_text
from gametool.core.errors import GameOver, IllegalAction
from gametool.games.chess.board import EMPTY, PROMO_LETTERS, SQUARE_NAMES, make_move
from gametool.games.chess.game import (
    CHECKMATE,
    CLAIM,
    FIVEFOLD,
    RESIGNATION,
    SEVENTY_FIVE,
    STALEMATE,
    THREEFOLD,
    Chess,
    claim_reason,
    ended,
    render_board,
)
from gametool.games.chess.horse_notation import read_turn
from gametool.games.chess.horses import (
    CAP,
    HMOVE,
    LINES,
    NAME_ORDER,
    PLACE,
    PLACES,
    REL_BLACK,
    REL_WHITE,
    REMOVE,
    REMOVES,
    TOUCH,
    check_reach,
    horse_moves,
    horse_text,
    moves_after,
    shields,
)
from gametool.games.chess.position import _UNSET, Position, read_fen, write_fen
from gametool.games.chess.san import check_suffix, resolve, san_body

__all__ = ["HMOVE", "PLACE", "REMOVE", "SuperHorseChess"]

MAX_PLIES = "max plies"


class SuperHorseChess(Chess):
    """Chess plus Trojan horses: after every chess move, one horse action (D2)."""

    plain_moves = False  # a turn is a chess move and a horse action: read in full
    stem_signs = "+#"  # a turn's stem lacks only its check or mate sign

    id = "super-horse-chess"
    aliases = ("shc", "horse-chess")
    name = "Super Horse Chess"
    options: ClassVar[tuple[Option, ...]] = (
        Option("horses", "neutral", ("neutral", "owned"),
               help="D1: neutral horses are one shared pool; owned horses belong to a player"),
        Option("horse_action", "required", ("required", "optional"),
               help="D2: the horse action after each chess move is compulsory, or may be skipped"),
        Option("max_plies", "1000", kind=int, minimum=1,
               help="D14: the game is drawn after this many turns"),
    )
    max_plies = 1000
    summary = """\
Super Horse Chess is chess (see 'gametool rules chess') with Trojan horses: neutral blockers
(or, with horses=owned, each player's own) that fill a square, block every piece and every check,
and are never captured. A turn is a chess move, legal as in chess with the horses as obstacles,
then one compulsory horse action (D2; horse_action=optional lets a player skip it):
place a horse on any vacant square while fewer than 6 are on the board (D3); remove 1 horse
(1-3 on the board) or 2 (4-6) (D4); or move one horse a square forward or sideways, or two
squares forward jumping an occupied square onto a vacant one (D5). Forward is toward the acting
player's last rank (D6). A horse move ending on that rank promotes it to a knight, bishop, rook
or queen of the mover (D7); a placement never promotes.

The mover's king must be safe after the chess move and again after the horse action (D9).
Checkmate and stalemate are judged on the chess moves alone (D10), after the whole turn (D11).
Fivefold repetition (horses included in the position, D12) and the 75-move rule draw at once;
threefold repetition and the 50-move rule draw on 'claim-draw'. There is no dead-position draw
(D13). The game is drawn after max_plies turns (D14, default 1000).
"""
    notation = """\
A turn is the chess move (SAN, or long algebraic as in chess), a space, and the horse action:
  @d5          place a horse on d5
  -d5          remove the horse on d5;  -b3 -d3  remove two (written in square order)
  Hd5-d6       move the horse on d5 to d6;  Hd7-d8=Q  a move that promotes (=N, =B, =R, =Q)
The check suffix (+ or #) closes the turn: 'Ra8 @a3#'. Input also takes the suffix straight after
the chess move, and '=' before a promotion letter is optional. A pawn move starts with a
lower-case file (h4); a horse move with an upper-case H.
  action = turn | "claim-draw" [ turn ] | "resign"
  examples: e4 @d5   Nf3 @g1   Kb1 Hd7-d8=Q+   Kb1 -b3 -d3   claim-draw Ng8 @d5
"""

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.owned = self.settings["horses"] == "owned"
        self.required = self.settings["horse_action"] == "required"
        self.max_plies = self.settings["max_plies"]
        self.horse_symbols = "Hh" if self.owned else "*"

    # -- the rules ---------------------------------------------------------------------------

    def _judge(self, pos: Position, moving: bool | None = None) -> Outcome | None:
        """The end of the game in ``pos``, or None; ``moving``: whether the side to move has a
        legal chess move, when the caller knows it."""
        if pos.end is not None:
            termination, winner = pos.end
            return (Outcome.draw(2, termination) if winner is None
                    else Outcome.win(2, winner, termination))
        if moving is None:
            moving = pos.has_move()
        if not moving:  # D10: judged on the chess moves alone
            if pos.in_check():
                return Outcome.win(2, 1 if pos.white else 0, CHECKMATE)
            return Outcome.draw(2, STALEMATE)
        if pos.halfmove >= 150:
            return Outcome.draw(2, SEVENTY_FIVE)
        if len(pos.history) >= 8 and pos.repetitions() >= 5:  # D12: horses in the key
            return Outcome.draw(2, FIVEFOLD)
        if pos.ply >= self.max_plies:  # D14
            return Outcome.draw(2, MAX_PLIES)
        return None  # D13: no dead-position draw

    def horse_chars(self, white: bool) -> tuple[str, str]:
        """(the horses this side acts on, the symbol it places)."""
        if not self.owned:
            return "*", "*"
        return ("H", "H") if white else ("h", "h")

    def horse_actions(self, board: str, white: bool,
                      vacant: Sequence[int] | None = None) -> list[Any]:
        """Every legal horse action on ``board`` (after the chess move) for the mover.

        ``vacant`` may give the vacant squares of ``board`` when the caller knows them."""
        return self._horse_parts(board, white, vacant)[0]

    def _horse_parts(self, board: str, white: bool, vacant: Sequence[int] | None = None,
                     reuse: Any = None
                     ) -> tuple[list[Any], list[int], list[Any], dict[int, list[Any]], Any, Any]:
        """The horse actions, and the parts ``turns`` reuses: horse squares, removals, the
        moves of each horse, and the squares whose change could alter king safety.

        ``reuse`` = (moves of each horse before the chess move, the old shield sets, the
        squares near the move): a horse away from the move that shields the king neither
        before nor after keeps its moves."""
        mine, _symbol = self.horse_chars(white)
        if vacant is None:
            vacant = [s for s, c in enumerate(board) if c == EMPTY]
        horses = []
        i = board.find(mine)
        while i >= 0:
            horses.append(i)
            i = board.find(mine, i + 1)
        n = len(horses)
        # D3; a placement only adds a blocker, so it never exposes the king.
        out: list[Any] = [PLACES[s] for s in vacant] if n < CAP else []
        if not n:
            return out, horses, [], {}, frozenset(), (set(), set())
        ksq = board.index("K" if white else "k")
        single, double, watched = shields(board, ksq, white, mine)
        removals: list[Any] = []
        if n <= 3:  # D4
            removals = [REMOVES[s] for s in horses if s not in single]
        else:
            horses.sort(key=NAME_ORDER.__getitem__)  # two removals in square-name order
            for i, a in enumerate(horses):
                if a in single:
                    continue
                for b in horses[i + 1:]:
                    if b not in single and (a, b) not in double and (b, a) not in double:
                        removals.append((REMOVE, a, b))
        out += removals
        moves = {}
        if reuse is not None:
            old_moves, (old_single, old_double), near = reuse
            for s in horses:
                if (s in near or s in single or s in old_single
                        or (double and any(s in pair for pair in double))
                        or (old_double and any(s in pair for pair in old_double))):
                    moves[s] = got = horse_moves(board, s, white, ksq, mine, single, double)
                else:
                    moves[s] = got = old_moves[s]
                out += got
            return out, horses, removals, moves, watched, (single, double)
        for s in horses:
            moves[s] = got = horse_moves(board, s, white, ksq, mine, single, double)
            out += got
        return out, horses, removals, moves, watched, (single, double)

    def turns(self, pos: Position) -> list[Any]:
        """Every legal turn (chess move, horse action), memoised on the position.

        The horse actions are worked out once on the board before the chess move; for each
        move only what it can change is redone: placements on the squares it empties or
        fills, the moves of horses that look at those squares, and the removals and shielding
        horses' moves when the king is in check, the move is en passant or castling, or it
        moves the king or touches a line from the king through a horse so that some horse
        shields the king before or after it (D9)."""
        memo = pos._turns
        rules = (self.owned, self.required)
        if memo is not None and memo[0] == rules:
            return memo[1]
        turns: list[Any] = []
        board, white, castling, ep = pos.board, pos.white, pos.castling, pos.ep
        base = [s for s, c in enumerate(board) if c == EMPTY]
        _all, horses, removals, hmoves, watched, guard = self._horse_parts(board, white, base)
        ksq = board.index("K" if white else "k")
        mine = self.horse_chars(white)[0]
        placements = list(map(PLACES.__getitem__, base)) if len(horses) < CAP else None
        count = len(base)
        index = {sq: i for i, sq in enumerate(base)}
        tail = removals + [h for s in horses for h in hmoves[s]]
        required = self.required
        # In check, the moves of a shielding horse were judged unsafe on the board before the
        # chess move for the wrong reason (the check the move answers): redo them per move.
        check = bool(horses) and pos.in_check()
        unguarded = not guard[0] and not guard[1]  # no horse shields the king before the move
        rel = REL_WHITE if white else REL_BLACK
        hot = frozenset().union(*(rel[s] for s in horses))  # squares some horse move looks at
        for m in pos.moves:
            f, t = m & 63, (m >> 6) & 63
            quiet = board[t] == EMPTY
            after = None
            redo = check or f == ksq or f in watched or t in watched
            if redo and unguarded and not check and not (f == ksq and abs(t - f) == 2):
                # A king step or a move on a watched line that leaves no horse shielding the
                # king either: no horse action can expose it, so the base actions stand.
                king = t if f == ksq else ksq
                if LINES[king].isdisjoint(horses):
                    redo = False
                else:
                    after = make_move(board, m, white, castling, ep)[0]
                    now = shields(after, king, white, mine)
                    redo = bool(now[0] or now[1])
            if redo or (quiet and board[f] in "Pp" and (f ^ t) & 7):
                if after is None:
                    after = make_move(board, m, white, castling, ep)[0]
                vacant = None
                if not (f == ksq and abs(t - f) == 2) and not (quiet and board[f] in "Pp"):
                    vacant = [*base, f] if not quiet else [s for s in base if s != t] + [f]
                # King safety may change: redo the removals and the shielding horses' moves.
                near = TOUCH[f] | TOUCH[t]
                if f == ksq and abs(t - f) == 2:  # castling: the rook's squares change too
                    near = near | TOUCH[f + 3 if t > f else f - 4] | TOUCH[(f + t) >> 1]
                elif quiet and board[f] in "Pp" and (f ^ t) & 7:  # en passant: the taken pawn
                    near = near | TOUCH[t - 8 if white else t + 8]
                actions = self._horse_parts(after, white, vacant, (hmoves, guard, near))[0]
            else:
                if f not in hot and t not in hot:
                    rest = tail  # no horse beside the squares the move changes
                else:
                    rest = removals.copy()
                    if unguarded:  # the horses beside the move see f emptied and t filled
                        for s in horses:
                            rest += (moves_after(board, s, white, f, t)
                                     if f in rel[s] or t in rel[s] else hmoves[s])
                    else:
                        if after is None:
                            after = make_move(board, m, white, castling, ep)[0]
                        for s in horses:
                            if f in rel[s] or t in rel[s]:
                                rest += horse_moves(after, s, white, ksq, mine, *guard)
                            else:
                                rest += hmoves[s]
                if (placements is None and not rest) or not required:
                    turns.append((m, None))
                if placements is not None:
                    # The placements of the board before the move, without the square the move
                    # fills and with the one it empties, in square order then f last (no copy).
                    if quiet:
                        i = index[t]
                        turns.extend(zip(repeat(m, i), placements, strict=False))
                        turns.extend(zip(repeat(m, count - i - 1),
                                         islice(placements, i + 1, None), strict=True))
                    else:
                        turns.extend(zip(repeat(m, count), placements, strict=True))
                    turns.append((m, PLACES[f]))
                turns.extend(zip(repeat(m, len(rest)), rest, strict=True))
                continue
            if not actions or not required:
                turns.append((m, None))
            turns.extend(zip(repeat(m, len(actions)), actions, strict=True))
        pos._turns = (rules, turns)
        return turns

    def perft_actions(self, state: Position) -> list[Any]:
        return self.turns(state)  # no claim-draw: a claim is not a move

    def perft(self, state: Position, depth: int) -> int:
        """Whole turns, bulk-counted at the last level; as in chess, automatic draws (and the
        max_plies draw) are ignored."""
        if depth <= 0:
            return 1
        if self.perft_seat(state) is None:
            return 0
        turns = self.turns(state)
        if depth == 1:
            return len(turns)
        return sum(self.perft(self.apply(state, turn), depth - 1) for turn in turns)

    def legal_actions(self, state: Position) -> list[Any]:
        turns = self.turns(state)
        if state.halfmove >= 99 or len(state.history) >= 3:
            memo = state.memo
            key = ("claims", self.owned, self.required)
            claims = memo.get(key)
            if claims is None:
                claims = memo[key] = self._claims(state, turns)
            return turns + claims
        return list(turns)

    def _claims(self, pos: Position, turns: list[Any]) -> list[Any]:
        """The valid claims: alone, and with each turn after which a claim holds (D1 of chess).

        A turn that moves no pawn and captures none can repeat an earlier position (D12: a
        piece capture is undone by a horse promotion); one that also captures nothing brings the
        clock to 100 from 99."""
        out: list[Any] = [(CLAIM, None)] if claim_reason(pos) else []
        hist = pos.history
        board = pos.board
        fifty = pos.halfmove >= 99
        twice: set[Any] = set()
        same = hist[-1::-2]  # earlier positions with the opponent to move, as after a turn
        if len(hist) >= 3 and len(set(same)) != len(same):
            twice = {k for k, seen in Counter(same).items() if seen >= 2}
        if not fifty and not twice:
            return out
        boards = {k[0] for k in twice}
        # Per chess move: the board after it, and the boards seen twice that a horse action
        # (which changes at most two squares) could still turn it into.
        moved: dict[int, tuple[str, list[str]]] = {}
        for m, h in turns:
            mover, victim = board[m & 63], board[(m >> 6) & 63]
            if mover in "Pp" or victim in "Pp":
                continue
            if fifty and victim == EMPTY:
                out.append((CLAIM | m, h))
                continue
            if twice:
                # The board alone rules out nearly every turn; the whole key (castling
                # rights, an en-passant capture) is asked only of a board seen twice.
                entry = moved.get(m)
                if entry is None:
                    after_move = make_move(board, m, pos.white, pos.castling, pos.ep)[0]
                    near = [seen for seen in boards
                            if sum(a != b for a, b in zip(after_move, seen, strict=True)) <= 2]
                    entry = moved[m] = (after_move, near)
                after_board, near = entry
                if not near:
                    continue
                if h is not None:
                    after_board = self._horse_board(after_board, h, pos.white)
                if after_board in boards and self._play(pos, m, h).key in twice:
                    out.append((CLAIM | m, h))
        return out

    def _horse_board(self, board: str, h: Any, white: bool) -> str:
        """The board after the horse action ``h`` of the given side."""
        cells = list(board)
        kind = h[0]
        if kind == PLACE:
            cells[h[1]] = self.horse_chars(white)[1]
        elif kind == REMOVE:
            cells[h[1]] = EMPTY
            if h[2] >= 0:
                cells[h[2]] = EMPTY
        else:
            piece = cells[h[1]]
            if h[3]:  # D7: the horse becomes a piece of the mover
                letter = PROMO_LETTERS[h[3]]
                piece = letter if white else letter.lower()
            cells[h[1]], cells[h[2]] = EMPTY, piece
        return "".join(cells)

    def _play(self, pos: Position, m: int, h: Any) -> Position:
        board, castling, ep, zeroing = make_move(pos.board, m, pos.white, pos.castling, pos.ep)
        if h is not None:
            board = self._horse_board(board, h, pos.white)
        # D12: only pawn moves and captures reset the clock, never a horse action. The earlier
        # positions can recur after anything but a pawn move or a pawn's capture, since a horse
        # promotion can bring back a captured piece (pawns are never created).
        halfmove = 0 if zeroing else pos.halfmove + 1
        fullmove = pos.fullmove + (not pos.white)
        if zeroing and (pos.board[m & 63] in "Pp" or pos.board[(m >> 6) & 63] in "Pp"):
            return Position(board, not pos.white, castling, ep, halfmove, fullmove, (),
                            pos.ply + 1)
        # The history is this position's and its key, worked out when first asked: the
        # positions a search or a claim list tries need none, and copying it would make each
        # of them cost the length of the game.
        return Position(board, not pos.white, castling, ep, halfmove, fullmove, None,
                        pos.ply + 1, None, pos)

    def apply(self, state: Position, action: Any) -> Position:
        if action == RESIGN:
            return ended(state, (RESIGNATION, 0 if not state.white else 1))
        m, h = action
        if m == CLAIM:
            return ended(state, (claim_reason(state) or THREEFOLD, None))
        after = self._play(state, m & ~CLAIM, h)
        if m & CLAIM:
            return ended(state, (claim_reason(after) or THREEFOLD, None), after)
        return after

    # -- text --------------------------------------------------------------------------------

    def format_action(self, state: Position, action: Any) -> str:
        if action == RESIGN:
            return RESIGN
        m, h = action
        if m == CLAIM:
            return "claim-draw"
        move = m & ~CLAIM
        memo = state.memo
        part = memo.get(move)
        if part is None:  # the SAN, board and check state after the chess move alone
            board, castling, ep, _z = make_move(state.board, move, state.white,
                                                state.castling, state.ep)
            reach = check_reach(board, board.index("k" if state.white else "K"))
            part = memo[move] = (san_body(state, move), board, castling, ep, reach,
                                 check_suffix(board, not state.white, castling, ep))
        body, board, castling, ep, reach, suffix = part
        text = body
        if h is not None:
            text += " " + horse_text(h)
            # D11: a horse action on a line to the enemy king may change the check, and any
            # horse action may change a check into mate or back (it fills or frees a square).
            # A placement only fills a square, and a horse attacks nothing: where the chess
            # move gives no check, none follows it.
            if suffix or (h[0] != PLACE
                          and (h[1] in reach or (len(h) > 2 and h[2] in reach))):
                final = self._horse_board(board, h, state.white)
                suffix = check_suffix(final, not state.white, castling, ep)
        text += suffix
        return f"claim-draw {text}" if m & CLAIM else text

    def action_stem(self, state: Position, action: Any) -> str | None:
        """The turn's text without its check or mate sign (the sign after a horse action
        needs the position after it tested for check and for a legal move)."""
        if action == RESIGN:
            return None
        m, h = action
        if m == CLAIM:
            return None
        move = m & ~CLAIM
        memo = state.memo
        key = ("stem", move)
        body = memo.get(key)
        if body is None:
            body = memo[key] = san_body(state, move)
        if h is not None:
            body += " " + horse_text(h)
        return f"claim-draw {body}" if m & CLAIM else body

    def parse_action(self, state: Position, text: str) -> Any:
        if state._status is not _UNSET or state.end is not None:
            if self.outcome(state) is not None:
                raise GameOver("the game is over: no more turns")
            return self._read_turn(state, text)
        # The end is judged after the reading, when it is not known yet: a chess move read
        # is a legal one, so the side to move has one (D10) and no search need say so. What is
        # refused or read is then the same as with the end judged first.
        try:
            action = self._read_turn(state, text)
        except Exception:
            if self.outcome(state) is not None:
                raise GameOver("the game is over: no more turns") from None
            raise
        moving = True if action != RESIGN and action[0] != CLAIM else None
        if self.outcome(state) if moving is None else self._judged(state, moving):
            raise GameOver("the game is over: no more turns")
        return action

    def _judged(self, pos: Position, moving: bool) -> Outcome | None:
        status = pos._status = self._judge(pos, moving)
        return status

    def _read_turn(self, state: Position, text: str) -> Any:
        """The action ``text`` names in ``state``, whose game is not over."""
        if text.strip().lower() == RESIGN:
            return RESIGN
        claim, movetext, h = read_turn(text.strip())
        body = text.split(None, 1)[-1] if claim else text
        if movetext is None:
            if claim_reason(state) is None:
                raise IllegalAction(self._no_claim(state, "claim-draw"))
            return (CLAIM, None)
        memo = state.memo
        m = memo.get(movetext)
        if m is None:
            m = memo[movetext] = resolve(state, movetext, body.split()[0])
        if not self.is_turn(state, m, h, True):  # resolve gives only a legal chess move
            self._refuse_horse(state, m, h, body)
        if not claim:
            return (m, h)
        after = self._play(state, m, h)
        if claim_reason(after) is None:
            raise IllegalAction(self._no_claim(after, text.strip()))
        return (CLAIM | m, h)

    def is_turn(self, pos: Position, m: int, h: Any, legal: bool = False) -> bool:
        """Whether (chess move, horse action) is a legal turn: the whole list of turns when it
        is known already, else the horse actions after this one move (what ``turns`` lists for
        it, worked out on its own); ``legal``: the chess move is known to be legal."""
        memo = pos._turns
        if memo is not None and memo[0] == (self.owned, self.required):
            return (m, h) in self._turn_set(pos)
        if not legal and m not in pos.moves_to((m >> 6) & 63):
            return False
        after = make_move(pos.board, m, pos.white, pos.castling, pos.ep)[0]
        if h is None:
            return not self.required or not self.horse_actions(after, pos.white)
        return self.horse_legal(after, pos.white, h)

    def horse_legal(self, board: str, white: bool, h: Any) -> bool:
        """Whether ``h`` is among :meth:`horse_actions` of ``board``, worked out for ``h``
        alone: a placement needs a vacant square and fewer than CAP horses (it never exposes
        the king), a removal or a horse move the shields of the king (D3, D4, D5, D9)."""
        mine = self.horse_chars(white)[0]
        kind, s = h[0], h[1]
        if kind == PLACE:
            return board[s] == EMPTY and board.count(mine) < CAP
        if board[s] != mine:
            return False
        ksq = board.index("K" if white else "k")
        # Only a horse on a line from the king can shield it (removing one elsewhere, or
        # moving it, exposes nothing): the shields are worked out for those alone.
        line = LINES[ksq]
        if kind == REMOVE:
            b = h[2]
            if board.count(mine) <= 3:
                if b != -1:
                    return False
            elif not (b >= 0 and board[b] == mine and NAME_ORDER[s] < NAME_ORDER[b]):
                return False
            if s not in line and (b < 0 or b not in line):
                return True
            single, double, _watched = shields(board, ksq, white, mine)
            return (s not in single and b not in single and (s, b) not in double
                    and (b, s) not in double)
        if s not in line:
            return h in horse_moves(board, s, white, ksq, mine, set(), set())
        single, double, _watched = shields(board, ksq, white, mine)
        return h in horse_moves(board, s, white, ksq, mine, single, double)

    def _turn_set(self, pos: Position) -> set[Any]:
        turns = self.turns(pos)
        memo = pos._turns
        if len(memo) == 2:
            memo = pos._turns = (*memo, set(turns))
        return memo[2]

    def _refuse_horse(self, pos: Position, m: int, h: Any, text: str) -> None:
        """Raise IllegalAction saying why the horse part of a turn is not allowed."""
        after = make_move(pos.board, m, pos.white, pos.castling, pos.ep)[0]
        legal = self.horse_actions(after, pos.white)
        quoted = repr(text.strip())
        if h is None:
            raise IllegalAction(f"illegal turn {quoted}: a horse action must follow the "
                                "chess move (D2: place, remove or move a horse)")
        mine, _symbol = self.horse_chars(pos.white)
        count = after.count(mine)
        who = "" if not self.owned else ("White " if pos.white else "Black ")
        kind = h[0]
        if kind == PLACE:
            if after[h[1]] != EMPTY:
                why = f"{SQUARE_NAMES[h[1]]} is not vacant after the chess move (D3)"
            else:
                why = f"{count} {who}horses are on the board, the most allowed is {CAP} (D1, D3)"
        elif kind == REMOVE:
            squares = [s for s in h[1:] if s >= 0]
            need = 1 if count <= 3 else 2
            bad = [s for s in squares if after[s] != mine]
            if bad:
                why = f"there is no {who}horse on {SQUARE_NAMES[bad[0]]}"
            elif len(squares) == 2 and squares[0] == squares[1]:
                why = "the same horse cannot be removed twice"
            elif len(squares) != need:
                why = (f"with {count} {who}horse(s) on the board exactly {need} must be removed "
                       "(D4)")
            else:
                why = "the removal would leave the mover's king in check (D9)"
        else:
            why = self._hmove_problem(after, pos.white, h, mine, who)
        if h in legal:  # only the claim or the chess move could be at fault: not reached
            why = "not allowed here"
        raise IllegalAction(f"illegal turn {quoted}: {why}")

    def _hmove_problem(self, board: str, white: bool, h: Any, mine: str, who: str) -> str:
        _kind, frm, to, promo = h
        step, last = (8, 7) if white else (-8, 0)
        if board[frm] != mine:
            return f"there is no {who}horse on {SQUARE_NAMES[frm]}"
        if board[to] != EMPTY:
            return f"{SQUARE_NAMES[to]} is occupied: a horse move ends on a vacant square (D5)"
        if to == frm + 2 * step:
            if board[frm + step] == EMPTY:
                return "the jump needs an occupied square in between (D5)"
        elif to != frm + step and not (to >> 3 == frm >> 3 and abs(to - frm) == 1):
            return ("a horse moves one square forward or sideways, or jumps two forward; "
                    f"forward for {'White' if white else 'Black'} is toward rank "
                    f"{last + 1} (D5, D6)")
        if to >> 3 == last and not promo:
            return "a horse reaching the last rank must be promoted: =N, =B, =R or =Q (D7)"
        if to >> 3 != last and promo:
            return "only a horse move ending on the mover's last rank promotes (D7)"
        return "moving this horse would leave the mover's king in check (D9)"

    # -- presentation --------------------------------------------------------------------------

    def view(self, state: Position, seat: int | None) -> dict[str, Any]:
        data = super().view(state, seat)
        data["horses"] = self._horse_counts(state)
        return data

    def _horse_counts(self, state: Position) -> dict[str, int]:
        """Horses on the board: each seat's (owned horses) or the neutral ones."""
        if self.owned:
            return {seat_text(0): state.board.count("H"), seat_text(1): state.board.count("h")}
        return {"neutral": state.board.count("*")}

    def render(self, state: Position, seat: int | None, names: Sequence[str]) -> str:
        board = state.board
        if self.owned:
            line = (f"horses: {board.count('H')} White (H), {board.count('h')} Black (h); "
                    f"at most {CAP} each")
        else:
            line = f"horses (*): {board.count('*')} on the board, at most {CAP}"
        return render_board(state, names, extra=[line, f"turn {state.ply} of at most "
                                                       f"{self.max_plies}"],
                            outcome=self.outcome(state))

    def decode_position(self, text: str, nseats: int) -> Position:
        return read_fen(text.strip(), self.horse_symbols)

    def encode_position(self, state: Position) -> str:
        return write_fen(state)
