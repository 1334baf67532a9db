"""The shape of the package, read from its source: no two modules reach each other through
their imports (an import inside a function counts, as does one under ``TYPE_CHECKING``), no
module is longer than 1,000 lines, and the command groups stand apart from the root and from
each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gametool", "notation")
LONGEST = 1000


def module_files() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by the name of its folder)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of the packages that the module NAME imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                targets.add(whole if whole in modules else base)
    return {target for target in targets if target in modules and target != name}


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imported(name, path, set(files)) for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return groups


def test_the_graph_sees_imports_of_every_kind() -> None:
    graph = import_graph()
    assert "gametool.cli" in graph
    assert "gametool.cli.commands.common" in graph["gametool.cli.commands.records_group"]
    assert "notation.record" in graph["gametool.records.reading"]


def test_no_two_modules_reach_each_other() -> None:
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(group) for group in found)


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize("name", sorted(module_files()))
def test_no_module_is_longer_than_a_thousand_lines(name: str) -> None:
    lines = module_files()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= LONGEST, f"{name} has {lines} lines"


def test_the_root_only_assembles_the_groups() -> None:
    root = module_files()["gametool.cli"]
    assert root.read_text(encoding="utf-8").count("\n") < 300


def test_a_command_group_imports_neither_the_root_nor_another_group() -> None:
    graph = import_graph()
    groups = {name for name in graph if name.startswith("gametool.cli.commands.")}
    shared = {"gametool.cli.commands", "gametool.cli.commands.common"}
    for group in groups - shared:
        wrong = graph[group] & ({"gametool.cli"} | groups - shared - {group})
        assert not wrong, f"{group} imports {sorted(wrong)}"
