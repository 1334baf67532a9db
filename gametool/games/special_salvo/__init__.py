"""Special Salvo (rules/special-salvo.md): Salvo with a diagonal submarine, refereed by the
engine or played by commit-reveal with no referee."""

from gametool.games.special_salvo.game import SpecialSalvo
from gametool.games.special_salvo.state import SalvoState

__all__ = ["SalvoState", "SpecialSalvo"]
