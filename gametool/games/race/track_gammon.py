"""Track Gammon, the three-player Tawula on a triangular track (``rules/track-gammon.md``)."""

from __future__ import annotations

from typing import ClassVar

from gametool.core.engine import Option
from gametool.games.race.game import RaceGame, common_options
from gametool.games.race.geometry import TRACK
from gametool.games.race.state import RaceState
from gametool.games.race.view import cell


class TrackGammon(RaceGame):
    id = "track-gammon"
    name = "Track Gammon"
    min_players = 3
    max_players = 3
    default_players = 3
    leave_action = "resign"  # D12: the resigner leaves, the others play on
    seat_names = ("Black", "Green", "White")
    geometry = TRACK
    prefix_output = True
    space_word = "space"
    start_word = "start corner"
    citations: ClassVar[dict[str, str]] = {
        "D4": "Tawula D4", "D5": "Tawula D5", "D6": "D9, Tawula D6", "D7": "D4, Tawula D7",
        "D9": "D10", "D11": "Tawula D11"}
    max_plies = 6_100  # 3000 player actions (D13) and a chance roll before each
    options: ClassVar[tuple[Option, ...]] = (
        Option("placings", "off", ("off", "on"),
               help="on: after the first finisher the others play on for 2nd and 3rd (D11)"),
        *common_options(3000, bar="D9", courtesy="D10"),
    )
    summary: ClassVar[str] = """\
Track Gammon is Tawula for three on a triangle of 13 spaces a side with shared corners: 36
spaces numbered 1-36 counter-clockwise, corners 1, 13 and 25. Black starts on 1, Green on 13 and
White on 25, each with 2 figures there and 13 in hand; all move counter-clockwise over the whole
loop and bear off from their last 6 spaces (Black 31-36, Green 7-12, White 19-24). Turns go
Black, Green, White; Black begins with an ordinary roll.

Everything else is Tawula: entry from hand lands d spaces past the start, re-entry from the bar
d-1; both dice if possible, else the higher; doubles four times; the start corner is frozen while
figures are in hand; bar first; at most one own figure on each of the ten inner spaces of both
opponents' sides, at most 2 on the start; bearing off only with every figure home.

An ordinary space holds one colour at a time: 2 or more figures of any one other colour close it,
a lone figure of either opponent is hit. The side centres 7, 19 and 31 are special: one figure of
each colour at most, never hit, never closed, but closed to a player who already has a figure
there (also for entries from hand); a figure that left one earlier in the turn frees it.

The first to bear off all 15 wins; the result gives places in seat order (2-1-2: Green won). With
placings=on the others play on for 2nd and 3rd (3-1-2). A resigner leaves and their figures are
removed. max_plies ends the game with the players still in sharing the best free place, as does
a dead position.
"""
    notation: ClassVar[str] = """\
action  = [ player ": " ] ( turn | "pass" | "resign" )
turn    = submove { " " submove }
submove = ( space | "h" | "bar" ) "/" ( space | "off" ) [ "*" ] [ "(" count ")" ]
space   = 1 .. 36        count = 2 | 3 | 4 (repeat)       player = B | G | W
chance  = "roll " die "-" die

Output always writes the player prefix, each sub-move separately and * on every hit. On input
the prefix is optional but must name the player to move. Examples: roll 6-5, B: h/7 h/6,
G: h/19 h/15, W: 36/2, B: 5/10*, G: bar/14, B: 31/off 34/off, B: pass.

A typed turn is recorded as typed: its sub-moves in the order and along the path played.

Positions (start --position, the Position tag) are one line: a group per seat, then the turn:
  B:1x2,7 G:13x2 W:25x2 turn=B dice=6-4
A group lists S (one figure on space S), SxN (N figures), hN (in hand: the figures not
placed otherwise), barN, offN, placeN and left (a seat that left keeps only its borne-off
figures). turn=L names the seat to move, dice=A-B its roll (without it chance rolls
first); plies=N the player actions so far (less than max_plies). A place the rules fix
may be left out. A finished game has end=borne-off, resignation, dead-position or max-plies
instead of turn=, and only where the rules end the game so:
  B:left G:13x2 W:25x2 turn=G      B:left G:left W:25x2 end=resignation
show --json gives the encoding as "encoding"; start --position reads back every one.
"""

    def board_rows(self, state: RaceState) -> list[list[str]]:
        """The three sides of the triangle, 13 spaces each, corners shown on both sides."""
        rows = []
        for side in range(3):
            spaces = [(12 * side + k) % 36 for k in range(13)]
            rows.append([f"({s + 1})" if self.geo.is_special_space(s) else str(s + 1)
                         for s in spaces])
            rows.append([cell(self, state, s) for s in spaces])
        return rows
