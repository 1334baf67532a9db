"""PGN, the chess world's record format: the reader (games become records), the writer of
``export --pgn``, its text rules and ECO classification.

It imports :mod:`gametool.core`, :mod:`gametool.games` and :mod:`gametool.records`; only the
input door (:mod:`gametool.sources`) and the folders above it import it."""
