"""Computer players (random, greedy, mcts), self-play corpora and the seeded random games of the
checks and benchmarks.

It imports the input door and what lies below; never views, archives or the referee."""
