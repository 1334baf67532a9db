"""PGN import speed: gametool's import + validate beside python-chess and pgn-extract, on the
same PGN text in the same run.

    python bench/pgn.py                      # a corpus of 300 generated games
    python bench/pgn.py --games 1000 --eco   # plus pgn-extract's ECO file, if installed
    python bench/pgn.py --file some.pgn      # any PGN file
    python bench/pgn.py --profile            # and the cProfile top entries of import + validate
    python bench/pgn.py --memory             # peak memory of the archive commands (below)

The corpus (never committed) is built in memory: games played with random legal moves by the
chess engine to a random length (20 to 160 plies), with the tags, comments, NAGs, variations and
results of real archives (checkmates, agreed draws, time forfeits), written as PGN; with --eco,
pgn-extract's own file of ECO openings (short lines, many of them) is added. python-chess reads
each game (``read_game``) and replays its main line on a board; pgn-extract (C) reads and checks
every game and writes nothing. Rates are main-line plies per second of CPU time (this
process's for gametool and python-chess, the child's for pgn-extract), so that other work on a
shared machine counts against no side. gametool's import and validate run in one process, as a
program using the library would run them: every position an import reaches from the standard
start (or a FEN) remembers the moves read from it and the positions they lead to (up to 30,000
moves), so validate of the records just imported follows the same positions, every move looked
up in the position it is written in and every end judged, without reading the moves again; an
opening that several games share is read once. (The command line remembers only openings: one
command reads each record once.)

    python bench/pgn.py --real               # the headline: real games, each command a process
    python bench/pgn.py --real --copies 8    # the real games 8 times over
    python bench/pgn.py --real --instructions  # instructions counted, not CPU time

With --real the games are the real ones of bench/data (see its README: tournament games of
1851 to 2022 and engine games with a comment on every move), each command is run as a user runs
it: gametool and python-chess installed with pip in a new virtual environment (see
``installed``; --in-place runs this environment's, from bytecode, see ``compiled``), each
command in a process of its own, measured by the CPU time of its process
(``resource.getrusage(RUSAGE_CHILDREN)``; with --instructions, by the instructions callgrind
counts, which other work on the machine does not change):
``gametool import``, ``gametool validate`` of the records imported, ``gametool filter --tag
White=...`` (a query on tags only) and ``gametool stats``; python-chess reading every game
(``read_game``) and replaying its main line, and reading every game without the replay;
pgn-extract checking every game (``-s``) and selecting games by a tag (``-Tw``). Rates are
games and main-line plies per CPU second. With --rounds N each ratio is given twice: from the
best time of each command, and as the median over the rounds of the ratio within a round (a
round runs the commands one after another, every other round in the reverse order), which a
machine whose speed drifts from minute to minute moves less.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from gametool.games.chess.game import Chess
from gametool.games.chess.position import forget_shared
from gametool.pgn import reader as pgn
from gametool.records import check_text

ECO_FILE = "/usr/share/pgn-extract/eco.pgn"
ENDINGS = [("1/2-1/2", "agreement"), ("1-0", "time forfeit"), ("0-1", "time forfeit"),
           ("1-0", None), ("0-1", None), ("1/2-1/2", None)]


def generated(count: int, seed: int) -> str:
    """``count`` PGN games of random legal moves, dressed as an archive's games."""
    rng = random.Random(seed)
    game = Chess()
    out = []
    for number in range(1, count + 1):
        state = game.initial_state(2)
        words: list[str] = []
        length = rng.randint(20, 160)
        ply = 0
        while ply < length and game.outcome(state) is None:
            move = rng.choice(state.moves)
            if state.white:
                words.append(f"{state.fullmove}.")
            words.append(game.format_action(state, move))
            if rng.random() < 0.03:
                words.append(f"${rng.randint(1, 6)}")
            if rng.random() < 0.02:
                words.append("{a note on the move}")
            if rng.random() < 0.01 and len(state.moves) > 1:
                other = rng.choice([m for m in state.moves if m != move])
                prefix = f"{state.fullmove}{'.' if state.white else '...'}"
                words.append(f"({prefix} {game.format_action(state, other)})")
            state = game.apply(state, move)
            ply += 1
        outcome = game.outcome(state)
        termination = None
        if outcome is not None:
            result = outcome.result_tag()
        else:
            result, termination = rng.choice(ENDINGS)
        tags = [("Event", "Generated"), ("Site", "bench"), ("Date", "2026.11.24"),
                ("Round", str(number)), ("White", f"Player {rng.randint(1, 50)}"),
                ("Black", f"Player {rng.randint(51, 99)}"), ("Result", result),
                ("WhiteElo", str(rng.randint(1500, 2800))), ("ECO", "A00")]
        if termination:
            tags.append(("Termination", termination))
        head = "\n".join(f'[{name} "{value}"]' for name, value in tags)
        body = " ".join(words + [result])
        out.append(f"{head}\n\n{body}\n")
    return "\n".join(out)


def run_gametool(text: str) -> tuple[float, float, int, int]:
    """(import seconds, validate seconds, games, main-line plies)."""
    began = time.process_time()
    report = pgn.import_games(text)
    records = report.text()
    imported = time.process_time() - began
    began = time.process_time()
    verdicts = check_text(records)
    validated = time.process_time() - began
    if not all(v.ok for v in verdicts):
        raise SystemExit("an imported record does not validate")
    return imported, validated, len(report.games), sum(v.plies for v in verdicts)


def run_python_chess(text: str) -> tuple[float, int, int]:
    import chess.pgn  # the peer, an optional install

    began = time.process_time()
    stream = io.StringIO(text)
    games = plies = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
        games += 1
    return time.process_time() - began, games, plies


def run_pgn_extract(text: str) -> float | None:
    tool = shutil.which("pgn-extract") or ("/usr/games/pgn-extract"
                                            if os.path.exists("/usr/games/pgn-extract") else None)
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "corpus.pgn")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(text)
        began = os.times()
        subprocess.run([tool, "-s", "-o", os.devnull, source], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ended = os.times()
        return (ended.children_user + ended.children_system
                - began.children_user - began.children_system)


# -- memory: the archive commands on 1x, 4x and 16x a 3 MB collection -------------------------

MEMORY_LIMIT_MB = 150
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data")


def collection(megabytes: float = 3.0, seed: int = 1) -> str:
    """A PGN collection of about ``megabytes``: the real-looking games of tests/data and
    generated games, repeated with another Round and other players until the size is reached."""
    pieces = []
    for name in ("famous.pgn", "archive.pgn"):
        with open(os.path.join(DATA, name), "rb") as handle:
            pieces.append(pgn.decode(handle.read()).strip() + "\n")
    pieces.append(generated(600, seed))
    base = "\n".join(pieces)
    out, size, copy = [], 0, 0
    while size < megabytes * 1e6:
        copy += 1
        text = base.replace('[Round "', f'[Round "{copy}.').replace(
            '[White "', f'[White "{copy} ')
        out.append(text)
        size += len(text.encode("utf-8"))
    return "\n".join(out)


def _gametool() -> list[str]:
    found = shutil.which("gametool")
    return [found] if found else [sys.executable, "-m", "gametool"]


_LAUNCH = """\
import os, sys
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_pid, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""
"""A small process that starts the command and says its peak: the kernel counts in a child's
peak the memory of the process it was forked from, so the command is not forked from this one
(which holds the collection)."""


def peak(command: list[str]) -> tuple[float, float, int]:
    """(peak resident memory in MB, seconds, exit status) of one command, from the kernel's
    account of it (wait4's ru_maxrss, in KB on Linux), taken by a small launcher."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-S", "-c", _LAUNCH, *command], capture_output=True,
                          text=True, check=True)
    kilobytes, status = done.stdout.split()
    return int(kilobytes) / 1024, time.perf_counter() - began, int(status)


COMMANDS = ("import", "export", "filter", "stats", "validate", "import-jobs", "stats-jobs",
            "validate-jobs")
"""The commands measured; NAME-jobs is NAME with --jobs 2 (the peak of the command and its
worker processes)."""
LIMITED = ("import", "export", "filter", "stats", "import-jobs", "stats-jobs", "validate-jobs")


def memory(times: tuple[int, ...] = (1, 4, 16), megabytes: float = 3.0,
           chosen: tuple[str, ...] = COMMANDS) -> bool:
    """Peak memory of import, export --pgn, filter, stats and validate on 1x, 4x and
    16x a collection of ``megabytes``; True when every peak of the largest stays under
    MEMORY_LIMIT_MB."""
    base = collection(megabytes)
    tool = _gametool()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        print(f"peak memory (MB) and time (s) of each command; one collection is "
              f"{len(base.encode('utf-8')) / 1e6:.1f} MB, {base.count('[Event ')} games")
        print(f"{'command':12}" + "".join(f"{f'{n}x MB':>10}{f'{n}x s':>9}" for n in times))
        rows: dict[str, list[tuple[float, float, int]]] = {}
        for n in times:
            source = os.path.join(folder, f"c{n}.pgn")
            with open(source, "w", encoding="utf-8") as handle:
                for _ in range(n):
                    handle.write(base + "\n")
            records = os.path.join(folder, f"c{n}.gtn")
            commands = {
                "import": [*tool, "import", source, "-o", records, "--force"],
                "export": [*tool, "export", records, "--pgn", "-o", os.devnull],
                "filter": [*tool, "filter", source, "--termination", "resignation",
                           "-o", os.devnull],
                "stats": [*tool, "stats", source],
                "validate": [*tool, "validate", records],
                "import-jobs": [*tool, "import", source, "-o", records, "--force", "--jobs",
                                "2"],
                "stats-jobs": [*tool, "stats", source, "--jobs", "2"],
                "validate-jobs": [*tool, "validate", records, "--jobs", "2"],
            }
            for name, command in commands.items():
                if name in chosen or (name == "import" and "export" in chosen):
                    rows.setdefault(name, []).append(peak(command))
                    print(f"  {n}x {name}: {rows[name][-1][0]:.1f} MB, "
                          f"{rows[name][-1][1]:.1f} s", flush=True)
            for path in (source, records):
                os.remove(path)
        for name, measured in rows.items():
            print(f"{name:12}" + "".join(f"{mb:10.1f}{s:9.1f}" for mb, s, _rc in measured))
            largest = measured[-1][0]
            if name in LIMITED and largest >= MEMORY_LIMIT_MB:
                ok = False
        print(f"peak of the {times[-1]}x file under {MEMORY_LIMIT_MB} MB for "
              f"{', '.join(n for n in LIMITED if n in rows)}: {'yes' if ok else 'NO'}")
    return ok


# -- real games, each command a process -------------------------------------------------------

BENCH_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
TAG_QUERY = ("White", "Carlsen")
"""The tag-only query measured: the games where Carlsen has White."""

_PEER_REPLAY = """import sys, chess.pgn
games = plies = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
        games += 1
print(games, plies)
"""
_PEER_READ = """import sys, chess.pgn
games = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    while chess.pgn.read_game(handle) is not None:
        games += 1
print(games)
"""


def real_games() -> list[str]:
    """The files of real games in bench/data (compressed with xz)."""
    return sorted(os.path.join(BENCH_DATA, name) for name in os.listdir(BENCH_DATA)
                  if name.endswith(".pgn.xz"))


def real_corpus(path: str, copies: int = 1) -> tuple[int, int]:
    """Write the real games ``copies`` times over to ``path``; (games, main-line plies) as
    python-chess reads them."""
    import lzma

    with open(path, "wb") as out:
        for _ in range(copies):
            for name in real_games():
                with lzma.open(name) as handle:
                    out.write(handle.read().rstrip(b"\r\n") + b"\n\n")
    done = subprocess.run([sys.executable, "-c", _PEER_REPLAY, path], capture_output=True,
                          text=True, check=True)
    games, plies = done.stdout.split()
    return int(games), int(plies)


def cpu(command: list[str]) -> tuple[float, int, str]:
    """(CPU seconds, exit status, standard output) of one command run as a process of its
    own: the user and system time the kernel counts for the children that ended."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, done.returncode, done.stdout


def _pgn_extract() -> str | None:
    return shutil.which("pgn-extract") or ("/usr/games/pgn-extract"
                                           if os.path.exists("/usr/games/pgn-extract") else None)


def compiled() -> None:
    """gametool's modules as bytecode beside them, as an installed copy has them: pip writes
    the bytecode of a package it installs (python-chess's is there), but an editable install
    run where PYTHONDONTWRITEBYTECODE is set would compile every module in every command's
    process, a cost no installed copy pays."""
    import compileall

    import gametool
    import notation

    for package in (gametool, notation):
        compileall.compile_dir(os.path.dirname(package.__file__), quiet=1)


def instructions(command: list[str]) -> tuple[float, int]:
    """(Millions of instructions, exit status) of one command run as a process of its own
    under valgrind's callgrind: a count that other work on the machine does not change (the
    CPU time of a command varies by a tenth and more on a shared machine)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                               *command], capture_output=True, text=True, check=False)
        with open(out) as handle:
            for line in handle:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1]) / 1e6, done.returncode
    raise SystemExit(f"callgrind counted nothing for {command[0]}")


def installed(folder: str) -> tuple[list[str], str]:
    """gametool and python-chess installed in a new virtual environment in ``folder``, as a
    user installs them (``pip install``: no editable install's finder, whose loading every
    process in a development environment pays, about 56 million instructions at each start):
    the command that runs gametool, and the environment's Python."""
    import venv

    venv.create(folder, with_pip=True)
    python = os.path.join(folder, "bin", "python")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    root, "chess"], check=True)
    return [os.path.join(folder, "bin", "gametool")], python


def real(copies: int = 1, rounds: int = 1, counted: bool = False,
         in_place: bool = False) -> dict[str, float]:
    """Each command on the real games (``copies`` times over), the best of ``rounds``: its CPU
    seconds; printed with games/s and plies/s, and the ratios to python-chess. With
    ``counted``, the instructions each command executes instead (see :func:`instructions`):
    the ratios of those. Each command is that of a copy installed for the run (see
    :func:`installed`), or with ``in_place`` this environment's."""
    extract = _pgn_extract()
    with tempfile.TemporaryDirectory() as folder:
        if in_place:
            compiled()
            tool, python = _gametool(), sys.executable
        else:
            tool, python = installed(os.path.join(folder, "env"))
        source = os.path.join(folder, "real.pgn")
        records = os.path.join(folder, "real.gtn")
        games, plies = real_corpus(source, copies)
        size = os.path.getsize(source)
        commands: dict[str, list[str]] = {
            "gametool import": [*tool, "import", source, "-o", records, "--force"],
            "gametool validate (of the records)": [*tool, "validate", records],
            f"gametool filter --tag {TAG_QUERY[0]}=...": [
                *tool, "filter", source, "--tag", f"{TAG_QUERY[0]}={TAG_QUERY[1]}",
                "-o", os.devnull],
            "gametool stats": [*tool, "stats", source],
            "python-chess read + replay": [python, "-c", _PEER_REPLAY, source],
            "python-chess read": [python, "-c", _PEER_READ, source],
        }
        if extract is not None:
            commands["pgn-extract -s (check)"] = [extract, "-s", "-o", os.devnull, source]
            commands[f"pgn-extract -Tw{TAG_QUERY[1]}"] = [
                extract, "-s", f"-Tw{TAG_QUERY[1]}", "-o", os.devnull, source]
        seconds: dict[str, float] = {}
        rounds_spent: list[dict[str, float]] = []  # each round's figures, for its own ratios
        for round_number in range(1 if counted else rounds):
            rounds_spent.append({})
            # Every other round runs the commands in the reverse order: a machine that slows
            # down or speeds up during a round favours neither side over two rounds.
            order = list(commands.items())
            for name, command in order[::-1] if round_number % 2 else order:
                if counted:
                    spent, status = instructions(command)
                else:
                    spent, status, _out = cpu(command)
                if name.startswith("gametool") and status != 0:
                    raise SystemExit(f"{name}: exit status {status}")
                seconds[name] = min(spent, seconds.get(name, spent))
                rounds_spent[-1][name] = spent
    measure = ("instructions of each command's process (callgrind), in millions" if counted
               else f"CPU time of each command's process, best of {rounds}")
    print(f"real games: {games:,} games, {plies:,} main-line plies, {size / 1e6:.1f} MB "
          f"({copies} cop{'y' if copies == 1 else 'ies'} of bench/data), {measure}")
    if counted:
        print(f"{'command':40}{'M instr.':>10}{'k instr./ply':>14}")
        for name, spent in seconds.items():
            print(f"{name:40}{spent:10,.0f}{spent * 1e3 / plies:14,.1f}")
    else:
        print(f"{'command':40}{'CPU s':>9}{'games/s':>11}{'plies/s':>12}")
        for name, spent in seconds.items():
            print(f"{name:40}{spent:9.2f}{games / spent:11,.0f}{plies / spent:12,.0f}")
    pairs = [("import", "gametool import", "python-chess read + replay", 3),
             ("validate", "gametool validate (of the records)", "python-chess read + replay", 4),
             ("tag-only filter", f"gametool filter --tag {TAG_QUERY[0]}=...",
              "python-chess read", 10),
             ("stats", "gametool stats", "python-chess read + replay", None)]
    for label, ours, theirs, target in pairs:
        goal = f" (target {target})" if target else ""
        # On a machine whose speed drifts, the best of each command may come from different
        # moments: the ratio within each round (its commands run one after another) is given
        # too, the median of the rounds.
        within = (f"; within a round, median of {len(rounds_spent)}: "
                  f"{statistics.median(r[theirs] / r[ours] for r in rounds_spent):.2f}"
                  if len(rounds_spent) > 1 else "")
        print(f"speed ratio {label} / {theirs}: {seconds[theirs] / seconds[ours]:.2f}{goal}"
              f"{within}")
    if extract is not None:
        check = seconds["pgn-extract -s (check)"]
        print(f"speed ratio import / pgn-extract -s: {check / seconds['gametool import']:.3f}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eco", action="store_true", help="add pgn-extract's ECO file")
    parser.add_argument("--file", help="a PGN file instead of the generated corpus")
    parser.add_argument("--profile", action="store_true", help="profile the import")
    parser.add_argument("--memory", action="store_true", help="only the peak memory of the "
                        "archive commands on 1x, 4x and 16x a 3 MB collection")
    parser.add_argument("--megabytes", type=float, default=3.0,
                        help="with --memory: the size of the 1x collection")
    parser.add_argument("--times", default="1,4,16",
                        help="with --memory: the sizes measured, in collections (1,4,16)")
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help="with --memory: the commands measured")
    parser.add_argument("--real", action="store_true", help="the real games of bench/data, "
                        "each command a process of its own")
    parser.add_argument("--copies", type=int, default=1,
                        help="with --real: the real games this many times over")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --real: the best of this many runs of each command")
    parser.add_argument("--in-place", action="store_true",
                        help="with --real: run this environment's gametool and python-chess, "
                        "not copies installed for the run")
    parser.add_argument("--instructions", action="store_true",
                        help="with --real: count each command's instructions with valgrind "
                        "(callgrind) instead of its CPU time, a figure a busy machine does "
                        "not change (about 50 times slower)")
    args = parser.parse_args()
    if args.real:
        real(args.copies, args.rounds, args.instructions, args.in_place)
        return
    if args.memory:
        times = tuple(int(n) for n in args.times.split(","))
        chosen = tuple(args.commands.split(","))
        raise SystemExit(0 if memory(times, args.megabytes, chosen) else 1)
    if args.file:
        with open(args.file, "rb") as handle:
            text = pgn.decode(handle.read())
    else:
        text = generated(args.games, args.seed)
        if args.eco and os.path.exists(ECO_FILE):
            with open(ECO_FILE, "rb") as handle:
                text += "\n" + pgn.decode(handle.read())
    # Generating the corpus played its games on the chess engine: forget what that taught the
    # process, so that the import starts as in a new process.
    forget_shared()
    imported, validated, games, plies = run_gametool(text)
    peer, peer_games, peer_plies = run_python_chess(text)
    extract = run_pgn_extract(text)
    both = imported + validated
    print(f"corpus: {games} games imported ({peer_games} read by python-chess), {plies} "
          f"main-line plies, {len(text) / 1e6:.1f} MB")
    rows = [("gametool import", imported), ("gametool validate", validated),
            ("gametool import + validate", both), ("python-chess read_game + replay", peer)]
    if extract is not None:
        rows.append(("pgn-extract (C)", extract))
    for name, seconds in rows:
        print(f"{name:34} {seconds:8.3f} s {plies / seconds:12,.0f} plies/s")
    print(f"ratio import + validate / python-chess: {peer / both:.2f} (target 2)")
    if extract is not None:
        print(f"ratio import + validate / pgn-extract: {extract / both:.4f}")
    if args.profile:
        forget_shared()
        profile = cProfile.Profile()
        profile.enable()
        check_text(pgn.import_games(text).text())
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
