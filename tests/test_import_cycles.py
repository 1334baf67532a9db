"""The modules of each game import one another in one direction only: a game's package has a
bottom (state, rules) and a top (the game class, views, notation) that never points back.
Every import counts: at the top of a module, inside a function, or for type checking only."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).parent.parent / "gametool" / "games"


def module_names() -> dict[str, Path]:
    names = {}
    for path in GAMES.rglob("*.py"):
        parts = list(path.relative_to(GAMES.parent.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the module imports (``from package import module`` names
    the module; ``from module import name`` the module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_game_package_imports_in_a_circle() -> None:
    known = module_names()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found = cycles(graph)
    assert not found, "\n".join(
        " <-> ".join(group) + ": " + "; ".join(f"{m} imports {sorted(graph[m] & set(group))}"
                                               for m in group) for group in found)


def test_the_check_sees_an_import_inside_a_function() -> None:
    """The check itself: a circle made by an import inside a function is found."""
    graph = {"a": {"b"}, "b": set(), "c": {"a"}}
    assert cycles(graph) == []
    graph["b"] = {"c"}
    assert cycles(graph) == [["a", "b", "c"]]
    source = "def f():\n    from gametool.games.chess import board\n"
    tree_imports = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)]
    assert tree_imports and tree_imports[0].module == "gametool.games.chess"
