"""The shape of the package, read from its source: no two modules reach each other through
their imports (an import inside a function counts, as does one under ``TYPE_CHECKING``), no
module is longer than 1,000 lines, and the command groups stand apart from the root and from
each other. One level up, the folders form layers that point one way (``LAYERS``): a folder
imports only folders below its layer, so no circle joins two folders, and each folder says in
its docstring what it owns."""

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


# -- the folders: layers that point one way --------------------------------------------------

LAYERS: tuple[tuple[str, ...], ...] = (
    ("notation",),
    ("gametool.core",),
    ("gametool.games",),
    ("gametool.records",),
    ("gametool.pgn",),
    ("gametool.sources",),
    ("gametool.views", "gametool.archives", "gametool.players"),
    ("gametool.referee",),
    ("gametool.cli",),
)
"""The folders from the bottom up: a folder imports only folders of lower layers; the folders
of one layer never import each other."""

LEVEL = {folder: level for level, folders in enumerate(LAYERS) for folder in folders}
LOOSE_MODULES = 5
"""At most this many modules stand directly in ``gametool/`` (the package and its start)."""


def folder_of(module: str) -> str:
    """The folder a module belongs to: ``notation`` or ``gametool.X``; a module that stands
    directly in ``gametool/`` is a node of its own (see :func:`level`)."""
    parts = module.split(".")
    if parts[0] == "notation":
        return "notation"
    if len(parts) >= 2 and f"gametool.{parts[1]}" in LEVEL:
        return f"gametool.{parts[1]}"
    return module


def level(folder: str) -> int:
    """A folder's layer. Of the modules directly in ``gametool/``, the package itself (its
    version) lies below everything and so may import nothing; the others (``__main__``) start
    the command line and stand above it."""
    if folder in LEVEL:
        return LEVEL[folder]
    return -1 if folder == "gametool" else len(LAYERS)


def folder_graph(modules: dict[str, set[str]]) -> dict[str, dict[str, set[str]]]:
    """Folder -> folder it imports -> the imports (``module -> module``) that make the edge."""
    graph: dict[str, dict[str, set[str]]] = {}
    for name, targets in modules.items():
        source = folder_of(name)
        edges = graph.setdefault(source, {})
        for target in targets:
            folder = folder_of(target)
            if folder != source:
                edges.setdefault(folder, set()).add(f"{name} -> {target}")
    return graph


def layer_faults(modules: dict[str, set[str]]) -> list[str]:
    """Every import from a folder into a folder of its own layer or one above, one line each."""
    faults = []
    for source, edges in sorted(folder_graph(modules).items()):
        for target, imports in sorted(edges.items()):
            if level(target) < level(source):
                continue
            way = "a folder of its own layer" if level(target) == level(source) \
                else "a folder above it"
            faults.append(f"{source} imports {way}, {target}: {sorted(imports)[0]}")
    return faults


def folder_circles(modules: dict[str, set[str]]) -> list[list[str]]:
    graph = folder_graph(modules)
    whole = {folder: set(edges) for folder, edges in graph.items()}
    for edges in graph.values():
        for target in edges:
            whole.setdefault(target, set())
    return circles(whole)


def test_every_folder_has_its_layer() -> None:
    folders = {f"gametool.{p.name}" for p in (ROOT / "gametool").iterdir()
               if (p / "__init__.py").exists()}
    assert folders | {"notation"} == set(LEVEL), "a folder without a layer (or a layer "\
        f"without a folder): {sorted(folders ^ (set(LEVEL) - {'notation'}))}"


def test_no_folder_imports_one_above_it_or_beside_it() -> None:
    faults = layer_faults(import_graph())
    assert not faults, "\n".join(faults)


def test_no_circle_among_the_folders() -> None:
    found = folder_circles(import_graph())
    assert not found, "folder circles: " + "; ".join(" <-> ".join(g) for g in found)


def test_few_modules_stand_directly_in_the_package() -> None:
    loose = sorted(p.name for p in (ROOT / "gametool").glob("*.py"))
    assert len(loose) <= LOOSE_MODULES, loose


@pytest.mark.parametrize("folder", sorted(LEVEL))
def test_every_folder_says_what_it_owns(folder: str) -> None:
    """Each folder's ``__init__.py`` opens with a docstring (what it owns, what it may import)."""
    path = ROOT.joinpath(*folder.split("."), "__init__.py")
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 8, f"{path.relative_to(ROOT)} has no docstring"


def test_the_folder_checks_catch_an_upward_import_and_a_circle() -> None:
    """A made-up house: records reaches up to the command line, and views and players import
    each other (a circle, and two folders of one layer that know each other)."""
    modules = {
        "notation.record": set(),
        "gametool.core.engine": {"notation.record"},
        "gametool.records.reading": {"gametool.core.engine", "gametool.cli.output"},
        "gametool.views.render": {"gametool.records.reading", "gametool.players.auto"},
        "gametool.players.auto": {"gametool.views.render"},
        "gametool.cli.output": {"gametool.views.render"},
    }
    faults = layer_faults(modules)
    assert any(f.startswith("gametool.records imports a folder above it, gametool.cli")
               for f in faults), faults
    assert any(f.startswith("gametool.views imports a folder of its own layer, "
                            "gametool.players") for f in faults), faults
    assert len(faults) == 3, faults  # also players -> views; nothing lawful is reported
    assert folder_circles(modules) == [
        ["gametool.cli", "gametool.players", "gametool.records", "gametool.views"]]
    del modules["gametool.records.reading"]  # the records' upward import alone closed it
    modules["gametool.records.reading"] = {"gametool.core.engine"}
    assert folder_circles(modules) == [["gametool.players", "gametool.views"]]


def test_the_folder_checks_read_a_package_tree(tmp_path: Path) -> None:
    """The same checks over files on disk: a core module that imports a game is reported."""
    (tmp_path / "gametool" / "core").mkdir(parents=True)
    (tmp_path / "gametool" / "games").mkdir()
    for folder in ("gametool", "gametool/core", "gametool/games"):
        (tmp_path / folder / "__init__.py").write_text('"""A folder."""\n')
    (tmp_path / "gametool" / "core" / "engine.py").write_text(
        "def f():\n    from gametool.games import chess\n")
    (tmp_path / "gametool" / "games" / "chess.py").write_text(
        "from ..core.engine import f\n")
    files = {".".join(p.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): p
             for p in tmp_path.rglob("*.py")}
    modules = {name: imported(name, path, set(files)) for name, path in files.items()}
    assert modules["gametool.games.chess"] == {"gametool.core.engine"}
    assert layer_faults(modules) == [
        "gametool.core imports a folder above it, gametool.games: "
        "gametool.core.engine -> gametool.games.chess"]
    assert folder_circles(modules) == [["gametool.core", "gametool.games"]]


# -- names: one word, one meaning -----------------------------------------------------------

SAME_MEANING = {
    "errors": "the error kinds of a layer: notation's syntax errors, the core's game errors",
    "game": "a game package's class that holds its rules",
    "state": "a game package's position value",
    "board": "a game package's board geometry",
    "rules": "a game package's rules (what is legal)",
    "notation": "how actions and records are written: the syntax package, a game's notation",
    "views": "a position as a seat sees it: a game's views, the folder that shows them",
    "referee": "the referee: its folder and the module of its one mail",
}
"""The names that more than one module or folder bears, each for the one thing it means."""


def names_in_the_house(root: Path = ROOT) -> dict[str, list[str]]:
    """Every module's and folder's last name (``__init__`` aside) -> where it stands."""
    found: dict[str, list[str]] = {}
    for package in PACKAGES:
        base = root / package
        for path in sorted([base, *base.rglob("*")]):
            if "__pycache__" in path.parts or path.name == "__init__.py":
                continue
            if path.is_dir() and (path / "__init__.py").exists():
                found.setdefault(path.name, []).append(path.relative_to(root).as_posix() + "/")
            elif path.suffix == ".py":
                found.setdefault(path.stem, []).append(path.relative_to(root).as_posix())
    return found


def clashes(found: dict[str, list[str]]) -> dict[str, list[str]]:
    return {name: places for name, places in found.items()
            if len(places) > 1 and name not in SAME_MEANING}


def test_no_two_modules_bear_one_name_for_two_things() -> None:
    found = clashes(names_in_the_house())
    assert not found, "one name, several things (rename, or say in SAME_MEANING what the " \
        f"name means everywhere): {found}"


def test_a_name_borne_twice_is_caught(tmp_path: Path) -> None:
    for folder in ("notation", "gametool/core", "gametool/games/gami"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "gametool/games/gami/core.py").write_text("")
    (tmp_path / "gametool/core/errors.py").write_text("")
    (tmp_path / "notation/errors.py").write_text("")
    assert clashes(names_in_the_house(tmp_path)) == {
        "core": ["gametool/core/", "gametool/games/gami/core.py"]}


def test_the_readme_layout_is_the_map_of_the_house() -> None:
    """The README's Layout section names every folder, each on a line of its own, in the
    order of the layers."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    items = [line for line in layout.splitlines() if line.startswith("- `")]
    named = [line[3:].split("`", 1)[0] for line in items]
    folders = [folder.replace(".", "/") + "/" for layer in LAYERS for folder in layer]
    assert named[:len(folders)] == folders, named
    for folder in (ROOT / "gametool").iterdir():
        if folder.is_dir() and folder.name != "__pycache__":
            assert f"gametool/{folder.name}/" in layout, folder.name
