"""Track geometry of a race game as data: spaces, seats, start points, limits, special spaces.

Every player runs the whole loop from their own start point, so a figure's place is a track
position ``r`` (0 .. length-1) counted from its owner's start. All rules that depend on where a
figure stands (packing limit, special spaces, home table, entry) are written in ``r`` and are the
same for every seat; only the start point differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

UNLIMITED = 99
HAND = -1
BAR = -2


@dataclass(frozen=True)
class Geometry:
    """The board of one race game: ``spaces`` numbered 1..spaces, one start per seat."""

    spaces: int
    starts: tuple[int, ...]
    """The start point of each seat, as a 0-based space index."""
    letters: tuple[str, ...]
    colours: tuple[str, ...]
    one_figure: frozenset[int]
    """Track positions holding at most one own figure (the packing limit)."""
    special: frozenset[int] = frozenset()
    """Track positions that are special spaces (one figure per colour, never hit or closed)."""
    start_limit: int = 2
    figures: int = 15
    home_size: int = 6
    tracks: tuple[tuple[int, ...], ...] = field(init=False)
    """``tracks[seat][r]``: the 0-based space of track position r."""
    rel: tuple[tuple[int, ...], ...] = field(init=False)
    """``rel[seat][space]``: the track position of a 0-based space."""
    cap: tuple[int, ...] = field(init=False)
    """``cap[r]``: how many own figures track position r may hold."""
    nseats: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.spaces
        tracks = tuple(tuple((s + r) % n for r in range(n)) for s in self.starts)
        rel = tuple(tuple((sp - s) % n for sp in range(n)) for s in self.starts)
        cap = []
        for r in range(n):
            if r == 0:
                cap.append(self.start_limit)
            elif r in self.special or r in self.one_figure:
                cap.append(1)
            else:
                cap.append(UNLIMITED)
        object.__setattr__(self, "tracks", tracks)
        object.__setattr__(self, "rel", rel)
        object.__setattr__(self, "cap", tuple(cap))
        object.__setattr__(self, "nseats", len(self.starts))

    @property
    def seats(self) -> int:
        return self.nseats

    @property
    def home(self) -> int:
        """The first track position of the home table."""
        return self.spaces - self.home_size

    def is_special_space(self, space: int) -> bool:
        """Whether a 0-based space is a special space (the same for every seat)."""
        return self.rel[0][space] in self.special

    def reentry_spaces(self, seat: int) -> tuple[int, ...]:
        """The six 0-based spaces where ``seat`` re-enters from the bar (r = 0..5)."""
        return self.tracks[seat][:6]


# Tawula: 24 points, Black from 1 and White from 13 (D1, D2); one-figure points r = 1..10.
TAWULA = Geometry(
    spaces=24, starts=(0, 12), letters=("B", "W"), colours=("Black", "White"),
    one_figure=frozenset(range(1, 11)),
)

# Track Gammon: 36 spaces, starts 12 apart (D1, D2); packing on both opponent sides (D6) and the
# three side centres 7, 19, 31 as special spaces (r = 6, 18, 30 for every seat).
TRACK = Geometry(
    spaces=36, starts=(0, 12, 24), letters=("B", "G", "W"), colours=("Black", "Green", "White"),
    one_figure=frozenset(range(1, 11)) | frozenset(range(13, 23)),
    special=frozenset((6, 18, 30)),
)
