"""The core: the game protocol (engine), seeded chance, the error kinds, diagrams and figure
shapes, seat names, hints and close matches, tables, signals and the garbage collector.

It imports only :mod:`notation`; every other folder of gametool may import it."""
