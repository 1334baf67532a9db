"""The games: one module or package per game, holding its rules, its notation and its
diagrams; and here the registry, id -> the module and class that hold a game's rules.

Games are imported only when asked for, so a command that needs one game loads one module.
Adding a game means adding one line to ``GAMES``; everything else about it (its names, its
aliases, its options, its summary) is declared on its class (see ``docs/adding-a-game.md``).

A game imports :mod:`gametool.core` and :mod:`notation`, never a folder above them: a game
never reads a record file, prints or draws SVG.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from gametool.core.engine import Game
from gametool.core.errors import UnavailableGame, UnknownGame

GAMES: dict[str, str] = {
    "colors": "gametool.games.colors:Colors",
    "colors-8x8": "gametool.games.colors:Colors8x8",
    "assembly": "gametool.games.assembly:Assembly",
    "desdemona": "gametool.games.desdemona:Desdemona",
    "sapos": "gametool.games.sapos:Sapos",
    "chess": "gametool.games.chess.game:Chess",
    "super-horse-chess": "gametool.games.chess.horse:SuperHorseChess",
    "special-salvo": "gametool.games.special_salvo:SpecialSalvo",
    "tawula": "gametool.games.race:Tawula",
    "track-gammon": "gametool.games.race:TrackGammon",
    "belemmer": "gametool.games.belemmer:Belemmer",
    "gami-plus": "gametool.games.gami:GamiPlus",
    "gami-four": "gametool.games.gami:GamiFour",
    "gami-seven": "gametool.games.gami:GamiSeven",
    "space-cards": "gametool.games.space_cards:SpaceCards",
    "two-headed-dragon": "gametool.games.two_headed_dragon:TwoHeadedDragon",
    "johari-bones": "gametool.games.johari_bones:JohariBones",
    "western-mahjong": "gametool.games.western_mahjong:WesternMahjong",
    "po-go": "gametool.games.pogo:PoGo",
    "tic-tac-toe": "gametool.games.tic_tac_toe:TicTacToe",
}



def aliases() -> dict[str, str]:
    """Every other name a game is known by (its class's ``aliases``) -> the game's id. Asking
    loads every game: only a name that is no id needs it."""
    return dict(_alias_table())


@cache
def _alias_table() -> tuple[tuple[str, str], ...]:
    table: dict[str, str] = {}
    for gid in GAMES:
        for alias in _class_at(GAMES[gid]).aliases:
            key = alias.lower()
            if key in GAMES or table.get(key, gid) != gid:
                raise ValueError(f"alias {alias!r} of {gid} already names "
                                 f"{table.get(key, key)}")
            table[key] = gid
    return tuple(table.items())


def canonical_id(name: str) -> str:
    key = name.strip().lower()
    if key in GAMES:
        return key
    known = aliases()
    key = known.get(key, key)
    if key not in GAMES:
        from gametool.core.suggest import close_matches

        near = close_matches(key, [*GAMES, *known])
        also = f"did you mean {' or '.join(near)}? " if near else ""
        raise UnknownGame(f"unknown game {name!r} ({also}see 'gametool list')")
    return key


def aliases_of(game_id: str) -> list[str]:
    """The other names ``game_id`` is known by, as its class declares them."""
    return [alias.lower() for alias in game_class(game_id).aliases]


def game_class(name: str) -> type[Game]:
    """The class of a registered game, playable or not."""
    return _class_at(GAMES[canonical_id(name)])


@cache
def _class_at(where: str) -> type[Game]:
    """The class that a registry entry (``module:Class``) names, its module imported."""
    module, _, attr = where.partition(":")
    return getattr(import_module(module), attr)


def playable_class(name: str) -> type[Game]:
    """The class of a game whose rules can be played; raises UnavailableGame otherwise."""
    cls = game_class(name)
    if cls.status != "playable":
        raise UnavailableGame(f"{cls.id}: {cls.status} - {cls.summary}")
    return cls


def all_classes() -> list[type[Game]]:
    return [game_class(gid) for gid in GAMES]


def playable_ids() -> list[str]:
    return [gid for gid in GAMES if game_class(gid).status == "playable"]
