"""Archives: many records or PGN games at once, as folders or streams: the corpus and its
filters and statistics, the query language of ``--where``, tag scans and the opening tree.

It imports the input door and what lies below; never views, players or the referee."""
