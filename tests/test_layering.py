"""The layers, checked by reading every module's imports (``ast``), as docs/architecture.md
draws them: drivers and simulators never import the controller, the engines never import the
table, the feed or the drivers, and no two controller modules import each other in a circle.

Imports inside functions count (they run), and so do ``importlib.import_module("...")`` calls
with a literal name. Imports under ``if TYPE_CHECKING:`` never run, so they break no layer, but
they count for cycles: two modules that name each other's types are one module in two files."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "drivers", "simulators")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported(path: Path, name: str, typing_too: bool = False) -> Iterator[tuple[str, int]]:
    """(module named, line) for every import in ``path`` that runs (and, ``typing_too``, those
    under ``if TYPE_CHECKING:``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node) and not typing_too:
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            yield base, node.lineno
            for alias in node.names:  # ``from controller.table import inputs`` imports a module
                yield f"{base}.{alias.name}", node.lineno
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
            yield node.args[0].value, node.lineno


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


RULES = [
    # (modules under, may not import, why)
    ("drivers", "controller", "drivers know nothing of games or tables"),
    ("drivers", "simulators", "a driver talks to real hardware; the registry names simulators by string only"),
    ("simulators", "controller", "a simulator is a device: it knows its protocol, not the table"),
    ("controller.games", "controller.table", "engines are pure: no table"),
    ("controller.games", "controller.feed", "engines are pure: no feed"),
    ("controller.games", "drivers", "engines are pure: no devices"),
    ("controller.analysis", "controller.table", "analysis runs the engines alone"),
    ("controller.analysis", "controller.feed", "analysis runs the engines alone"),
    ("controller.analysis", "drivers", "analysis runs the engines alone"),
    ("controller.commands", "controller.table", "the command model is shared by every edge: no table"),
    ("controller.commands", "controller.console", "the command model is shared by every edge: no face"),
    ("controller.commands", "controller.pit", "the command model is shared by every edge: no face"),
    ("controller.commands", "controller.feed", "the command model is shared by every edge: no face"),
    ("controller.commands", "drivers", "the command model knows no device"),
    ("controller.jsonbound", "controller", "the bounded JSON parser is the standard library's alone"),
    ("controller.jsonbound", "drivers", "the bounded JSON parser is the standard library's alone"),
    *(("controller.boards", face, "result boards are computed from round records: no table, feed or page")
      for face in ("controller.table", "controller.feed", "controller.console", "controller.pit", "drivers")),
    *(("controller.protection", face, "the watches read the journal and journal their alerts: no page, no feed")
      for face in ("controller.feed", "controller.console", "controller.pit")),
    *(("controller.web", inner, "the pages' shared web side knows no table and no game")
      for inner in ("controller.table", "controller.games", "controller.feed", "drivers")),
]


def violations() -> list[str]:
    found = []
    for name, path in modules().items():
        for target, line in imported(path, name):
            for layer, forbidden, why in RULES:
                if _under(name, layer) and _under(target, forbidden):
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {target} ({why})")
    return sorted(set(found))


def test_no_layer_is_broken() -> None:
    assert violations() == []


def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        if not _under(name, "controller"):
            continue
        edges = graph.setdefault(name, set())
        for target, _ in imported(path, name, typing_too=True):
            if target in known and _under(target, "controller") and target != name:
                edges.add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


#: circles of type names (``TYPE_CHECKING``) in modules other engineers own, to be broken there
KNOWN_TYPE_CIRCLES = {
    frozenset({"controller.pit.server", "controller.pit.web"}),
    frozenset({"controller.hil.faults", "controller.hil.soak"}),
}


def runtime_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {t for t, _ in imported(path, name) if t in known and _under(t, "controller") and t != name}
            for name, path in known.items() if _under(name, "controller")}


def test_no_import_cycles_among_controller_modules() -> None:
    assert cycles(runtime_graph()) == []


def test_no_import_cycles_counting_type_checking_imports() -> None:
    assert [c for c in cycles(import_graph()) if frozenset(c) not in KNOWN_TYPE_CIRCLES] == []


# ------------------------------------------------------------------ the checker itself
def test_checker_sees_every_kind_of_import(tmp_path: Path) -> None:
    src = tmp_path / "mod.py"
    src.write_text(
        "import importlib\nfrom typing import TYPE_CHECKING\nimport controller.table.core\n"
        "from controller.table import inputs\nfrom . import sibling\n"
        "def f():\n    importlib.import_module('controller.cli')\n    from drivers.errors import DriverError\n"
        "if TYPE_CHECKING:\n    from controller.feed import Feed\n"
    )
    names = {target for target, _ in imported(src, "simulators.pkg.mod")}
    assert {"controller.table.core", "controller.table.inputs", "simulators.pkg.sibling", "controller.cli",
            "drivers.errors"} <= names
    assert "controller.feed" not in names
    assert "controller.feed" in {target for target, _ in imported(src, "simulators.pkg.mod", typing_too=True)}


@pytest.mark.parametrize(("graph", "expected"), [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
])
def test_cycle_finder(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(graph) == expected
