"""Johari Bones: a dice-poker-like scoring game with dominoes seen by different players."""

from gametool.games.johari_bones.game import JohariBones, JohariState
from gametool.games.johari_bones.scoring import BOXES, best_score

__all__ = ["BOXES", "JohariBones", "JohariState", "best_score"]
