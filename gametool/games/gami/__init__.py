"""The Gami card games: Gami Plus, Gami: Four and Gami: Seven, on one shared set of rules (base), cards (cards) and notation."""

from gametool.games.gami.four import GamiFour
from gametool.games.gami.plus import GamiPlus
from gametool.games.gami.seven import GamiSeven

__all__ = ["GamiFour", "GamiPlus", "GamiSeven"]
