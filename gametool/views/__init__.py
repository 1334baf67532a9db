"""Views of records for people: text and JSON (render), tables, the terminal's colours and
stepping, SVG pictures (svg) and the replay page (html).

It imports the folders below the input door and the door itself; never archives, players or the
referee."""
