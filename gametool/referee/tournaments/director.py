"""The tournament director: starts a tournament's games, pairs its next rounds, withdraws.

``create`` checks everything first (game, format, players, seats, rounds, options) and then
starts the games of the first round (a swiss) or of every round (a round robin, as
correspondence tournaments play it: every game at once), as ``referee new`` starts a game, each
opening mail saying which tournament and round it belongs to. All of it is made or none: a game
that cannot be started removes those started before it, and the tournament file is written
last.

``advance`` runs after the referee's inbox and clock (``referee inbox``, ``referee tick``):

- a player with two games lost by time forfeit in one tournament is withdrawn from it: every
  game of theirs still running there ends by forfeit (a loss for them), and every player of the
  tournament gets one mail saying so (each seat of an ended game finds its own view and the
  master record of that game in the same mail);
- in a swiss whose round is over, the next round is paired among the players not withdrawn
  (:func:`gametool.referee.tournaments.pairing.swiss`) and its games started;
- a tournament whose last game has ended is over: every player gets the final standings.
"""

from __future__ import annotations

import math
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.records import load_one
from gametool.referee.forfeit import end_by_forfeit
from gametool.referee.mail.journal import Journal, digest
from gametool.referee.mail.message import addresses as checked_addresses
from gametool.referee.referee import MATCH_ID, Outgoing, Referee
from gametool.referee.tournaments import pairing, tournament
from gametool.referee.tournaments.tournament import Game, Played, Tournament

WITHDRAW_AFTER = 2  # games lost by time forfeit in one tournament
ENTRY = "tournament-"  # its journal entries (not a mail's: their keys are not 64 long)
MAX_ROUNDS = 100


@dataclass
class Report:
    """What one ``advance`` did, one line each."""

    lines: list[str] = field(default_factory=list)
    messages: int = 0
    errors: list[str] = field(default_factory=list)  # one tournament's trouble stops no other


def create(ref: Referee, game_id: str, players: list[str], fmt: str, rounds: int | None = None,
           double: bool = False, days: int | None = None,
           options: dict[str, str] | None = None, seats: int | None = None,
           bank: int | None = None) -> tuple[str, list[Outgoing]]:
    """Start a tournament; return its id and the opening messages (written to the outbox)."""
    from gametool import games

    cls = games.playable_class(game_id)
    if fmt not in tournament.FORMATS:
        raise GameError(f"--format {fmt!r}: write round-robin or swiss")
    names = checked_addresses(players)
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise GameError(f"--players names {twice} twice: every player once")
    count = seats or cls.players_default()
    if not cls.min_players <= count <= cls.max_players:
        raise GameError(f"--seats {count}: a game of {cls.name} takes {cls.min_players} to "
                        f"{cls.max_players} seats")
    if len(names) < count + (fmt == "swiss"):
        raise GameError(f"{len(names)} players are too few for a {fmt} of {cls.name} "
                        f"({count} seats a game): give at least {count + (fmt == 'swiss')}")
    if fmt == "round-robin":
        if rounds is not None:
            raise GameError("--rounds is for a swiss: a round robin plays every pairing")
        schedule = pairing.round_robin(names, count, double)
        total = len(schedule)
    else:
        if double:
            raise GameError("--double is for a round robin: a swiss pairs nobody twice")
        most = _most_swiss_rounds(len(names), count)
        total = rounds if rounds is not None else min(most, max(1, math.ceil(
            math.log2(len(names)))))
        if not 1 <= total <= most:
            raise GameError(f"--rounds {total}: a swiss of {len(names)} players in games of "
                            f"{count} seats has 1 to {most} rounds")
        schedule = [pairing.swiss(names, {}, count)]
    tid = f"{cls.id}-{'rr' if fmt == 'round-robin' else 'swiss'}-{secrets.token_hex(4)}"
    made = Tournament(tid, cls.id, fmt, names, total, count, double, days, dict(options or {}),
                      bank=bank)
    for number, planned in enumerate(schedule, 1):
        made.played.append(Played(number, [], list(planned.byes)))
    messages = _start_games(ref, made, [(n, list(r.tables)) for n, r in
                                         enumerate(schedule, 1)])
    path = tournament.path_of(ref.game_dir, tid)
    try:
        storage.private_folder(tournament.folder(ref.game_dir))
        storage.create(str(path), made.text(), mode=storage.PRIVATE_FILE)
    except GameError:
        _remove_games(ref, [g.match for _n, g in made.games()])
        raise
    ref.write(messages)
    return tid, messages


def _most_swiss_rounds(players: int, seats: int) -> int:
    if seats == 2:
        return players - 1 if players % 2 == 0 else players
    return min(MAX_ROUNDS, max(1, (players - 1) // (seats - 1)))


def _start_games(ref: Referee, made: Tournament, tables: list[tuple[int, list[pairing.Table]]],
                 noted: Callable[[str], None] | None = None) -> list[Outgoing]:
    """Start the games of these rounds (records and keys, messages not written); on failure
    remove every game started here and raise. ``noted(match)`` is called before each game's
    record is written."""
    messages: list[Outgoing] = []
    started: list[str] = []

    def before(path: Path, _old: str, _new: str, _messages: list[Outgoing]) -> None:
        if noted is not None:
            noted(path.stem)

    try:
        for number, round_tables in tables:
            played = next(r for r in made.played if r.number == number)
            for table in round_tables:
                match, opening = ref.new(made.game, list(table), made.options,
                                         days=made.days, bank=made.bank, on_create=before)
                started.append(match)
                played.games.append(Game(match, list(table)))
                note = (f"Tournament {made.id} ({made.format}, {len(made.players)} players), "
                        f"round {number} of {made.rounds}: this game is {' - '.join(table)}. "
                        "Ask for the standings with '#standings'.")
                messages += [ref.season._with_note(m, note) for m in opening]
            if made.format == "swiss":
                messages += [_bye(made, number, name) for name in played.byes]
    except GameError:
        _remove_games(ref, started)
        for played in made.played:
            played.games = [g for g in played.games if g.match not in started]
        raise
    return messages


def _bye(made: Tournament, number: int, name: str) -> Outgoing:
    return Outgoing(name, f"[gametool {made.id}] round {number}: a bye",
                    f"Tournament {made.id}, round {number} of {made.rounds}: you have a bye "
                    "this round (one point). Ask for the standings with '#standings'.\n")


def _remove_games(ref: Referee, matches: list[str]) -> None:
    for match in matches:
        for path in (ref.master(match), ref.keys_path(match)):
            try:
                os.unlink(path)
            except OSError:
                pass


def advance(ref: Referee) -> Report:
    """Withdraw, pair and finish every tournament of the game folder as needed (see the
    module's docstring); write the messages to the outbox.

    Each tournament's step is journaled (``OUTBOX/.journal/tournament-...``) as the referee's
    other steps are: the entry names each game of a new round before its record is written,
    then holds the tournament's new text's digest and the step's mails, written to the outbox
    only once the tournament file holds the step. A run killed in between is finished by the
    next one under the tournament file's lock: the file holds the step, and its mails are
    written; or it does not, and the games started for it, which nobody was told of, are
    removed before the round is paired again. No round is paired twice.
    """
    report = Report()
    base = tournament.folder(ref.game_dir)
    if not base.is_dir():
        return report
    journal = Journal(ref.outbox)
    for path in sorted(base.glob("*.json")):
        key = ENTRY + digest(path.name.encode())[:32]
        out: list[Outgoing] = []
        files: list[tuple[str, str]] = []
        step = Report()  # told once the tournament file holds the step

        def change(text: str, path: Path = path, out: list[Outgoing] = out, key: str = key,
                   files: list[tuple[str, str]] = files, report: Report = step) -> str:
            text = _recover(ref, journal, key, text, str(path))
            made = Tournament.from_text(text, str(path))
            if made.finished:
                return text
            entry: dict = {"record": None, "files": [], "games": [],
                           "before": digest(text.encode())}

            def noted(match: str) -> None:  # before the game's record is written
                entry["games"].append(match)
                _keep(journal, key, entry)

            _withdrawals(ref, made, out, report)
            _next_round(ref, made, out, report, noted)
            _finish(ref, made, out, report)
            if not out:
                if entry["games"]:
                    journal.remove(key)
                return text
            new = made.text()
            entry.update(after=digest(new.encode()), files=ref.render_files(out))
            _keep(journal, key, entry)
            files.extend((a, b) for a, b in entry["files"])
            return new

        try:
            storage.update(str(path), change, storage.PRIVATE_FILE)
            ref.write_files(files)
            journal.remove(key)
        except GameError as exc:
            report.errors.append(f"tournament {path.stem}: {exc}")
            continue
        except (RecursionError, OverflowError, UnicodeDecodeError) as exc:
            report.errors.append(f"tournament {path.stem}: {path}: not a tournament file the "
                                 f"referee wrote ({type(exc).__name__})")
            continue
        report.lines += step.lines
        report.messages += len(out)
    return report


def _keep(journal: Journal, key: str, entry: dict) -> None:
    storage.private_folder(journal.folder.parent)
    storage.private_folder(journal.folder)
    journal.write(key, entry)


def _recover(ref: Referee, journal: Journal, key: str, text: str, where: str) -> str:
    """Finish the step a run cut short left in the journal for this tournament (under its
    file's lock): its mails when the file holds it, else the removal of the games it started,
    which no mail has named."""
    entry = journal.read(key)
    if entry is None:
        journal.remove(key)  # none, or not one this referee writes
        return text
    if entry.get("after") == digest(text.encode()):
        ref.write_files([(a, b) for a, b in entry["files"]])
    else:
        named = {game.match for _n, game in Tournament.from_text(text, where).games()}
        started = entry.get("games")
        _remove_games(ref, [m for m in (started if isinstance(started, list) else [])
                            if isinstance(m, str) and MATCH_ID.fullmatch(m) and m not in named])
    journal.remove(key)
    return text


def _withdrawals(ref: Referee, made: Tournament, out: list[Outgoing], report: Report) -> None:
    done, running = tournament.results(ref.game_dir, made)
    counts = tournament.time_forfeits(done)
    leaving = [p for p in made.players
               if p not in made.withdrawn and counts.get(p, 0) >= WITHDRAW_AFTER]
    if not leaving:
        return
    made.withdrawn += leaving
    ended: dict[str, list[tuple[str, str]]] = {}  # player: (match, that seat's final mail)
    lost: list[str] = []
    for game in running:
        gone = [p for p in game.seats if p in leaving]
        if not gone:
            continue
        finals = _forfeit(ref, game.match, gone)
        if finals is None:
            continue
        lost.append(f"{game.match} ({' - '.join(game.seats)})")
        for message in finals:
            ended.setdefault(message.to, []).append((game.match, message.body))
    who = ", ".join(leaving)
    note = (f"Tournament {made.id}: {who} {'is' if len(leaving) == 1 else 'are'} withdrawn "
            f"after losing {WITHDRAW_AFTER} games by time forfeit. "
            + (f"Their games still running are lost by forfeit: {', '.join(lost)}."
               if lost else "No game of theirs was still running.")
            + " They are paired no more.")
    told = []
    for player in made.players:
        parts = [note]
        for match, body in ended.get(player, []):
            parts.append(f"Your game {match}, now over:\n\n{body.rstrip()}")
        told.append(Outgoing(player, f"[gametool {made.id}] withdrawn: {who}",
                             "\n\n".join(parts) + "\n"))
    out += told
    report.lines.append(f"tournament {made.id}: withdrawn {who}; {len(lost)} games forfeited")


def _forfeit(ref: Referee, match: str, gone: list[str]) -> list[Outgoing] | None:
    """End a running game by forfeit of the withdrawn seats; each seat's final message (None
    when the game had ended meanwhile)."""
    path = ref.master(match)
    finals: list[Outgoing] = []

    reason = f"forfeit: {', '.join(gone)} withdrawn from the tournament"

    def change(text: str) -> str:
        session = load_one(text, str(path))
        if session.outcome() is not None:
            if reason in text:  # ended so by a run cut short before the tournament was saved
                finals.extend(ref.messages(match, session))
            return text
        end_by_forfeit(session, gone, reason, ref.now())
        finals.extend(ref.messages(match, session))
        return session.text()

    storage.update(str(path), change, storage.PRIVATE_FILE)
    return finals or None


def _next_round(ref: Referee, made: Tournament, out: list[Outgoing], report: Report,
                noted: Callable[[str], None] | None = None) -> None:
    if made.format != "swiss" or len(made.played) >= made.rounds:
        return
    done, running = tournament.results(ref.game_dir, made)
    if running:
        return
    active = [p for p in made.players if p not in made.withdrawn]
    history = _history(made, done)
    number = len(made.played) + 1
    try:
        planned = pairing.swiss(active, history, made.seats) if len(active) >= made.seats \
            else None
    except pairing.PairingError:
        planned = None
    if planned is None:
        made.rounds = len(made.played)
        report.lines.append(f"tournament {made.id}: no pairing left for round {number}")
        return
    made.played.append(Played(number, [], list(planned.byes)))
    out += _start_games(ref, made, [(number, list(planned.tables))], noted)
    report.lines.append(f"tournament {made.id}: round {number} paired, "
                        f"{len(planned.tables)} games")


def _history(made: Tournament, done: list[tournament.Result]) -> dict[str, pairing.History]:
    history = {p: pairing.History() for p in made.players}
    finished = {r.match: r for r in done}
    for played in made.played:
        for name in played.byes:
            history[name].byes += 1
            history[name].points += 1.0
        for game in played.games:
            for i, name in enumerate(game.seats):
                history[name].met.update(p for p in game.seats if p != name)
                history[name].seats.append(i)
            result = finished.get(game.match)
            if result is None:
                continue
            others = len(result.seats) - 1
            for i, name in enumerate(result.seats):
                history[name].points += sum(tournament.pairwise(result.ranks, i, j)
                                            for j in range(len(result.seats)) if j != i) / others
    return history


def _finish(ref: Referee, made: Tournament, out: list[Outgoing], report: Report) -> None:
    if len(made.played) < made.rounds:
        return
    _done, running = tournament.results(ref.game_dir, made)
    if running:
        return
    made.finished = True
    table = tournament.as_text(ref.game_dir, made)
    final = [Outgoing(p, f"[gametool {made.id}] the tournament is over",
                      f"Tournament {made.id} is over. The final standings:\n\n{table}")
             for p in made.players]
    out += final
    report.lines.append(f"tournament {made.id}: over")
