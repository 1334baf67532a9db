"""Tournaments run by the referee: the tournament file, its pairings and its director."""
