"""PGN as a format over records: reading real PGN game by game, endings off the board,
variations, and the round trip through python-chess."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def test_no_game_package_imports_the_record_layer() -> None:
    offenders = [str(path.relative_to(ROOT))
                 for path in (ROOT / "gametool" / "games").rglob("*.py")
                 if {"gametool.record", "gametool.formats", "gametool.cli"} & _imports(path)]
    assert offenders == []


def test_the_cli_names_no_game_and_no_format() -> None:
    imported = _imports(ROOT / "gametool" / "cli.py")
    assert not [name for name in imported
                if name.startswith(("gametool.games.", "gametool.formats"))]
