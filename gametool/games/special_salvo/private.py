"""Commit-reveal play of Special Salvo with no referee: each seat's private fleet file.

A private file holds one seat's fleet and a random salt; only the SHA-256 commitment of the two
goes into the shared record. The file is plain text, ``Key: value`` lines::

    # gametool private fleet: keep this file secret until the game ends
    Game: special-salvo
    Seat: ann
    Fleet: cv a1 e, bb j10 s, cr c5 e, sub f8 se, pt a10 s
    Salt: 5e0c...

This module reads, writes and checks private files; turning one and a record into the actions
the seat owes is the commit-reveal hook's work (``gametool.cli.hooks.fleet_files``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.games.special_salvo import fleet as fl
from gametool.games.special_salvo import notation as nt
from gametool.games.special_salvo.game import SpecialSalvo

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


def read_fleet(game: SpecialSalvo, text: str) -> tuple[fl.Placement, ...]:
    """A whole fleet written as in a placement ('cv a1 e, bb j10 s, ...'), checked."""
    kind, placements = nt.read(f"place {text}")
    fl.check_fleet(placements, game.classic)
    return tuple(sorted(placements))


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
    # Whole or not at all: a full disk leaves no empty file that every retry would refuse.
    storage.write_new(path, secret.text(), 0o600, exists="already exists: it may hold a "
                      "fleet in play; choose another name")
