"""The referee's side files (prepared moves ``MATCH.if``, ``leave.json``, ``digest.json``):
state like the record, read strictly and written with the mail that changes them.

Reading. A side file that cannot be read, or that holds anything but the shape the referee
writes (bad UTF-8, deep nesting, a number beyond any float, a list where a table belongs), is
:class:`Damaged`: one line naming the file and what is wrong. Nothing is decided on it (no
forfeit, no prepared move played or dropped), and nothing rewrites it: the referee mends or
removes it by hand, and the mail that needed it waits for the next run.

Writing. While a mail is read, its changes to side files are kept in a :class:`Sides` (what
it reads back sees them), never written: a refused mail so changes no side file. Once the mail
is kept, the changes go into its journal entry with the record's new text, and are written
before the record is replaced (:func:`apply`), so that a run killed anywhere writes them once
more, the same, and never half of them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from gametool.core import storage
from gametool.core.errors import GameError
from gametool.referee.mail.outgoing import Unkept

MAX_BYTES = 1 << 20
NAMES = ("leave.json", "digest.json")
"""The side files of the game folder besides the prepared moves (``MATCH.if``)."""


class Damaged(Unkept):
    """A side file the referee cannot read: its fault (or a hand's), never the sender's; a mail
    that needs it waits, and a retry can help once the file is mended."""


def damaged(path: str | Path, what: str) -> Damaged:
    return Damaged(f"{path}: {what}; mend or remove it by hand (nothing was decided on it)")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:20]} is beyond any time or count")
    return value


def _constant(text: str) -> None:
    raise ValueError(f"{text} is not a number")


def parse_json(text: str, path: str | Path, kind: str) -> object:
    """The JSON value of a side file's text; :class:`Damaged` when it is none."""
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_constant)
    except RecursionError:
        raise damaged(path, f"not a {kind} the referee wrote (nested too deep)") from None
    except ValueError as exc:
        raise damaged(path, f"not a {kind} the referee wrote ({str(exc)[:80]})") from None


def read_text(path: str | Path) -> str | None:
    """The text of a side file, None when there is none; :class:`Damaged` when it cannot be
    read as UTF-8 text of a sensible size."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise damaged(path, "a folder where a file belongs") from None
    except OSError as exc:
        raise damaged(path, f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise damaged(path, f"larger than {MAX_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise damaged(path, f"not UTF-8 text (byte {exc.start})") from None


class Sides:
    """The side-file changes of one mail, kept until the mail is: path to new text (None: the
    file is removed). Reading through it sees them."""

    def __init__(self) -> None:
        self.writes: dict[str, str | None] = {}

    def read(self, path: str | Path) -> str | None:
        key = str(path)
        if key in self.writes:
            return self.writes[key]
        return read_text(path)

    def write(self, path: str | Path, text: str) -> None:
        self.writes[str(path)] = text

    def remove(self, path: str | Path) -> None:
        self.writes[str(path)] = None

    def as_json(self) -> list[list[str | None]]:
        return [[path, text] for path, text in self.writes.items()]


def read(path: str | Path, sides: Sides | None) -> str | None:
    """A side file's text as the mail under way sees it (``sides``), else as on disk."""
    return sides.read(path) if sides is not None else read_text(path)


def allowed(game_dir: Path, path: Path) -> bool:
    """Whether ``path`` names a side file of ``game_dir`` (a journal entry names them: none may
    lead anywhere else)."""
    if path.parent.resolve() != game_dir.resolve():
        return False
    return path.name in NAMES or (path.suffix == ".if" and path.stem != "")


def well_formed(items: object) -> bool:
    return isinstance(items, list) and all(
        isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
        and (item[1] is None or isinstance(item[1], str)) for item in items)


def apply(game_dir: Path, items: list) -> None:
    """Write (or remove) each side file as a journal entry holds it; the same again is
    harmless. A failure to write is Unkept (the entry stays for the next run)."""
    for name, text in items:
        path = Path(name)
        if not allowed(game_dir, path):
            raise Unkept(f"{name}: not a side file of {game_dir}; the journal entry is not "
                         "one the referee wrote")
        if text is None:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise Unkept(f"{path}: cannot remove: {exc.strerror or exc}") from None
            continue
        try:
            storage.private_folder(path.parent)
            storage.write_atomic(str(path), text, storage.PRIVATE_FILE)
        except GameError as exc:
            raise Unkept(str(exc)) from None
