"""Commit-reveal play of Special Salvo with no referee: each seat's private fleet file.

A private file holds one seat's fleet and a random salt; only the SHA-256 commitment of the two
goes into the shared record. The file is plain text, ``Key: value`` lines::

    # gametool private fleet: keep this file secret until the game ends
    Game: special-salvo
    Seat: ann
    Fleet: cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s
    Salt: 5e0c...

The functions here turn a private file and a record into the actions the seat owes: its
commitment, its reports on the opponent's salvos, and its reveal once the game is decided.
"""

from __future__ import annotations

import copy
import os
import secrets
from dataclasses import dataclass, replace

from gametool.errors import GameError
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo.game import SpecialSalvo
from gametool.games.special_salvo.state import REPORT, REVEAL
from gametool.record import Session

HEADER = "# gametool private fleet: keep this file secret until the game ends"


@dataclass(frozen=True)
class PrivateFleet:
    """One seat's secret: its fleet and the salt of its commitment."""

    seat: str
    placements: tuple[fl.Placement, ...]
    salt: str

    @property
    def commitment(self) -> str:
        return fl.commitment(self.placements, self.salt)

    def text(self) -> str:
        return (f"{HEADER}\nGame: {SpecialSalvo.id}\nSeat: {self.seat}\n"
                f"Fleet: {fl.format_fleet(self.placements)}\nSalt: {self.salt}\n")


def _game(session: Session) -> SpecialSalvo:
    game = session.game
    if not isinstance(game, SpecialSalvo) or game.referee:
        raise GameError("a private fleet file is for special-salvo with --option referee=off "
                        "(commit-reveal play)")
    return game


def read_fleet(game: SpecialSalvo, text: str) -> tuple[fl.Placement, ...]:
    """A whole fleet written as in a placement ('cv a1 e, bb j10 s, ...'), checked."""
    kind, placements = nt.read(f"place {text}")
    fl.check_fleet(placements, game.classic)
    return tuple(sorted(placements))


def new_private(session: Session, seat: str, fleet_text: str) -> PrivateFleet:
    """A fresh secret for ``seat``: the fleet checked under the record's options, a new salt."""
    game = _game(session)
    name = session.names[session.seat_index(seat)]
    return PrivateFleet(name, read_fleet(game, fleet_text), secrets.token_hex(16))


def load_private(path: str) -> PrivateFleet:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise GameError(f"{path}: cannot read the private file: {exc.strerror}") from None
    fields: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, colon, value = line.partition(":")
        if not colon:
            raise GameError(f"{path}:{number}: expected 'Key: value'")
        fields[key.strip().lower()] = value.strip()
    missing = [k for k in ("game", "seat", "fleet", "salt") if k not in fields]
    if missing or fields["game"] != SpecialSalvo.id:
        raise GameError(f"{path}: not a special-salvo private fleet file"
                        + (f" (no {', '.join(missing)})" if missing else ""))
    kind, placements = nt.read(f"place {fields['fleet']}")
    return PrivateFleet(fields["seat"], tuple(sorted(placements)), fields["salt"].lower())


def save_private(path: str, secret: PrivateFleet) -> None:
    """Write a new private file, readable by its owner only; never overwrite one."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise GameError(f"{path} already exists: it may hold a fleet in play; choose another "
                        "name") from None
    except OSError as exc:
        raise GameError(f"{path}: cannot write the private file: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret.text())


def _owner(session: Session, seat: str, secret: PrivateFleet) -> int:
    index = session.seat_index(seat)
    if secret.seat.lower() != session.names[index].lower():
        raise GameError(f"the private file belongs to {secret.seat}, not {session.names[index]}")
    return index


def commit_actions(session: Session, seat: str, secret: PrivateFleet) -> list[str]:
    """The commitment ``seat`` records for its private fleet."""
    game = _game(session)
    _owner(session, seat, secret)
    fl.check_fleet(secret.placements, game.classic)
    return [f"commit {secret.commitment}"]


def answer_actions(session: Session, seat: str, secret: PrivateFleet) -> list[str]:
    """What the record asks of ``seat`` now: a report on the opponent's salvo, or the reveal."""
    game = _game(session)
    index = _owner(session, seat, secret)
    state = session.state
    if state.commits[index] != secret.commitment:
        raise GameError(f"the private file does not match {session.names[index]}'s commitment "
                        "in this record")
    if session.to_move() != index or state.phase not in (REPORT, REVEAL):
        mover = session.seat_name(session.to_move())
        raise GameError(f"nothing for {session.names[index]} to answer now"
                        + (f": {mover} is to move" if mover else ": the game is over"))
    if state.phase == REPORT:
        return [game.format_action(state, game.true_report(state, secret.placements))]
    return [f"reveal {fl.format_fleet(secret.placements)} salt {secret.salt}"]


def with_own_fleet(session: Session, seat: str, path: str) -> Session:
    """A copy of ``session`` for display whose states hold ``seat``'s fleet from its private
    file, so that its own ocean shows its ships (the record itself is not changed)."""
    _game(session)
    secret = load_private(path)
    index = _owner(session, seat, secret)
    committed = session.state.commits[index]
    if committed is not None and committed != secret.commitment:
        raise GameError(f"the private file does not match {session.names[index]}'s commitment "
                        "in this record")
    shown = copy.copy(session)
    shown.states = [replace(state, placed=tuple(secret.placements if i == index else fleet
                                                for i, fleet in enumerate(state.placed)))
                    for state in session.states]
    return shown
