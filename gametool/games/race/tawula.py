"""Tawula, the two-player race game on 24 points (``rules/tawula.md``)."""

from __future__ import annotations

from typing import ClassVar

from gametool.core.engine import Option
from gametool.games.race.game import RaceGame, common_options
from gametool.games.race.geometry import TAWULA
from gametool.games.race.state import RaceState
from gametool.games.race.view import cell


class Tawula(RaceGame):
    id = "tawula"
    name = "Tawula"
    min_players = 2
    max_players = 2
    default_players = 2
    seat_names = ("Black", "White")
    geometry = TAWULA
    prefix_output = False
    space_word = "point"
    max_plies = 4_100  # 2000 player actions (D13) and at most ~2 chance rolls for each
    options: ClassVar[tuple[Option, ...]] = (
        Option("opening", "roll", ("roll", "black"),
               help="roll: an opening roll-off, the winner plays both dice; black: Black "
                    "begins (D3)"),
        *common_options(2000),
    )
    summary: ClassVar[str] = """\
Tawula ("Turkish backgammon") is a race of 15 figures each around a tables board of 24 points,
numbered 1-24 counter-clockwise. Black (seat 1) starts on point 1 and moves 1, 2, ..., 24; White
(seat 2) starts on 13 and moves 13, ..., 24, 1, ..., 12. Each player begins with 2 figures on
the start point and 13 in hand.

Chance rolls two dice before every turn (written "roll 6-4"). With opening=roll the first roll
is a roll-off: the first die is Black's, the second White's; a tie is void and rolled again,
otherwise the higher die moves first and plays both numbers.

A turn is a sequence of sub-moves, one die each (a double gives four): an entry from hand lands
d points past the start (h/X), a re-entry from the bar lands d-1 past it (bar/X, the start counts
1), a move goes exactly d points forward, a bear-off leaves the board. A point holding 2 or more
enemy figures is closed; landing on a lone enemy figure hits it to its owner's bar. At most 1 own
figure may stand on each of the 10 points after the start, at most 2 on the start; from the head
(the 12th point of the track) on there is no limit. The start point is frozen while figures are
in hand; a figure on the bar must re-enter before any other sub-move (bar_priority=all); bearing
off needs every remaining figure in the home table (the last 6 points), exactly or with a larger
die from the farthest-back figure.

Both dice must be used if possible, otherwise the higher one; with no sub-move at all the turn is
"pass". The first player to bear off all 15 figures wins (1-0 or 0-1); there is no doubling and
no gammon. The game is drawn after max_plies player actions, or at once in a dead position where
no player could move with any roll. courtesy=on forbids newly shutting out an opponent on the bar
behind six points of 2 or more figures.
"""
    notation: ClassVar[str] = """\
action  = [ player ": " ] ( turn | "pass" | "resign" )
turn    = submove { " " submove }
submove = source "/" target [ "*" ] [ "(" count ")" ]
source  = point | "h" | "bar"        target = point | "off"
point   = 1 .. 24                    count  = 2 | 3 | 4   (repeat the sub-move)
chance  = "roll " die "-" die        player = B | W

Sub-moves are written in the order played, each separately, with * on every hit and no player
prefix. On input the prefix is optional (it must name the player to move), * is optional and
(n) repeats a sub-move. A bear-off either die could make uses the lower one. Examples: roll 5-3,
h/6 h/4, bar/16 h/15, 7/10*, 20/off 23/off, 14/18(2), pass.

A typed turn is recorded as typed: its sub-moves in the order and along the path played.

Positions (start --position, the Position tag) are one line: a group per seat, then the turn:
  B:1x2,5,12x12 W:13x2,8x2 turn=B dice=4-3
A group lists S (one figure on space S), SxN (N figures), hN (in hand: the figures not
placed otherwise), barN, offN, placeN and left. turn=L names the seat to move, dice=A-B its
roll (without it chance rolls first), turn=opening the roll-off; plies=N the player
actions so far (less than max_plies). A finished game has end=borne-off, resignation,
dead-position or max-plies instead of turn=, and only where the rules end the game so:
  B:19,off14 W:13x2 turn=B dice=6-4      B:off15 W:13x2 end=borne-off
show --json gives the encoding as "encoding"; start --position reads back every one.
"""

    def board_rows(self, state: RaceState) -> list[list[str]]:
        """Seen from Black: 12..1 along the far edge, 13..24 along the near edge."""
        top = list(range(11, -1, -1))
        bottom = list(range(12, 24))
        return [[str(s + 1) for s in top], [cell(self, state, s) for s in top],
                [cell(self, state, s) for s in bottom], [str(s + 1) for s in bottom]]
