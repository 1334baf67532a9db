"""Race games with dice on a loop track: Tawula and Track Gammon share one engine."""

from gametool.games.race.tawula import Tawula
from gametool.games.race.track_gammon import TrackGammon

__all__ = ["Tawula", "TrackGammon"]
