"""The rules summary and the notation of Special Salvo, as shown by 'gametool rules' and man."""

SUMMARY = """\
Salvo, Milton Bradley's Battleship played in salvos, with the submarine placed diagonally (option
fleet=classic gives plain Salvo, with a straight submarine). Each of two players has a 10x10
ocean, squares a1-j10, and a fleet of five ships: aircraft carrier cv (5 squares), battleship bb
(4), cruiser cr (3), submarine sub (3) and PT boat pt (2). Ships lie on consecutive squares in a
straight line, inside the ocean, never sharing a square (they may touch); the surface ships run
horizontally or vertically, the submarine exactly diagonally (a diagonal submarine may pass
between the touching corners of two other ships).

Player 1 places a fleet, then Player 2, each hidden from the other. Then, Player 1 first, the
players fire salvos in turn: a salvo names as many distinct squares of the opponent's ocean, none
fired at before, as the firer has ships afloat (option shots=squares: one per square of the
firer's fleet not yet hit; shots=fixed5: always 5), or all the unfired squares if fewer remain.
Each shot of a salvo is answered in the order written: miss, hit, or sunk and the ship when it
hits the last square of a ship (option report=ships names the ship on every hit). The player who
sinks the whole opposing fleet wins at once; with rounds=on the round is completed (Player 2
replies with the shots owed before Player 1's salvo) and two fleets sunk in one round tie.

Referee mode (referee=on, the default): the tool holds both fleets and writes each salvo's report
itself, as an action of the pseudo-seat chance (it involves no randomness, so it is written at
once, with or without a seed; a record that carries a wrong report is rejected). A seat sees
only its own fleet; 'show --as SEAT' draws its ocean and its shots, 'export --as SEAT' hides
the other placement.

Commit-reveal mode (referee=off), for two players and no trusted referee: each seat runs
'gametool commit FILE --as SEAT --private MINE --fleet "cv a1 e, ..."', which keeps the fleet and
a random salt in the private file MINE and records only the SHA-256 commitment. The defender
answers each salvo with 'gametool answer FILE --as SEAT --private MINE', which computes the
report from the private file; 'gametool show FILE --as SEAT --private MINE' draws SEAT's own
ships. When the game is decided on the reports, 'gametool answer' appends each seat's
reveal (fleet and salt), Player 1 first. A reveal that does not open the seat's commitment, a
fleet against the placement rules, or a fleet that contradicts any report the seat made is still
recorded, and ends the game at once against that seat, whatever the reports said; the
termination names the lie, the seat and its ply ("false report by ann at ply 17", "broken
commitment by ben at ply 80", "fleet against the rules by ann at ply 1"). A seat due to reveal
may resign instead.
"""

NOTATION = """\
place cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s
                         a fleet: each ship by one end square and the direction to the other
                         end; or one ship at a time (place pt a10 s), never a part fleet
fire a10 a9 c5 j1 j2     a whole salvo, or one shot at a time (fire a10) until the count is
                         reached; never part of a salvo of several shots
report a10 hit, a9 sunk pt, c5 hit, j1 miss, j2 miss
                         the answer to a salvo, shot by shot in the order fired (the referee,
                         or the defender whole or one shot at a time; report=ships: a10 hit pt)
commit HEX               commit-reveal: SHA-256 of the fleet and a salt (64 hex digits)
reveal cv a1 e, ..., pt a10 s salt HEX
                         commit-reveal: the fleet and salt behind the commitment
resign                   give up the game

Directions: e (rising files), s (falling ranks), se, ne; also w, n, nw, sw on input, turned round
to the canonical west end (north end of a vertical ship): 'pt a9 n' is written 'pt a10 s'. Ships
are written in the order cv bb cr sub pt. Squares are a1-j10, a file letter then a rank; any
case is read, lower case is written. The rules file writes a report as an annotation
'{a10 hit, ...}'; braces are comments in a record, so a report is a 'report' action instead:
referee reports are actions of the seat chance, commit-reveal reports the defender's own.
"""
