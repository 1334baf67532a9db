"""Play by email, the referee's side: one mail read, checked and applied (referee, season),
the clock, leave and the time bank, the daily mail, conditional moves, standings, tournaments,
verification of published records, mail in and out (transport) and the mail's own parts
(mail/).

It may import every folder below the command line; the command line's referee group is its
only user."""
