"""The layers, checked by reading every module's imports (``ast``), as docs/architecture.md's
table draws them (every row of it is a rule here, ``test_every_row_of_the_layer_table_is_checked``):
drivers and simulators never import the controller, the engines never import the table, the pure
table never imports its runtime, the simulated people or a face, and no two controller modules
import each other in a circle.

Every import counts, for layers and for circles: those inside functions (they run), the
``importlib.import_module("...")`` calls with a literal name, and those under
``if TYPE_CHECKING:`` (a type named from a layer above is an arrow up all the same, and two
modules that name each other's types are one module in two files)."""

from __future__ import annotations

import ast
import fnmatch
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "drivers", "simulators")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))}


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


#: the modules of a game package that are not its engine, by role (docs/architecture.md, "Adding a
#: game"): each belongs to the layer of its role, not to the engines' row
ADAPTERS = ("controller.games.*.adapter", "controller.games.*.view", "controller.games.*.game")
ANALYSES = ("controller.games.*.analysis",)
BOARDS = ("controller.games.*.board",)
ROLES = (*ADAPTERS, *ANALYSES, *BOARDS)


def _matches(name: str, pattern: str) -> bool:
    """``name`` is the module ``pattern`` names or one under it; a ``*`` stands for one part."""
    parts, wanted = name.split("."), pattern.split(".")
    return len(parts) >= len(wanted) and all(fnmatch.fnmatchcase(p, w) for p, w in zip(parts, wanted, strict=False))


def _under(name: str, layer: str, roles: tuple[str, ...] = ROLES) -> bool:
    """``name`` belongs to ``layer``: a prefix (``controller.table``) or a pattern by role
    (``controller.games.*.adapter``). A module a role pattern names belongs to that role's layer,
    not to the layer of the pattern's fixed head (an adapter in ``controller/games/<game>/`` is the
    table's, not an engine); it stays under every wider prefix (``controller``)."""
    if not _matches(name, layer):
        return False
    return "*" in layer or not any(_matches(name, role) and role.partition(".*")[0] == layer for role in roles)


#: the layers of docs/architecture.md's table, by module prefix or by role pattern
ENGINES = ("controller.games", "controller.cards", "controller.money", "controller.shoe")
TABLE = ("controller.table", *ADAPTERS)
RECORDS = ("controller.journal", "controller.journal_keyed", "controller.journal_lock", "controller.journal_checkpoint",
           "controller.verify",
           "controller.config", "controller.mqtt_config")
RUNTIME = ("controller.runtime", "controller.metrics")
PEOPLE = ("controller.people",)
TERMINAL = ("controller.terminal",)
PLUMBING = ("controller.auth", "controller.heap", "controller.lab_ca",
            "controller.logs", "controller.sd_notify", "controller.stopping")
FACES = ("controller.console", "controller.pit", "controller.feed", "controller.cli", "controller.demo",
         "controller.process", "controller.table_runtime", "controller.table_cli", "controller.devices_cli", "controller.anchor",
         "controller.broker_config", "controller.backoffice", "controller.hil")
PAGES = ("controller.console", "controller.pit")
#: what does I/O, keeps a clock or runs tasks: never in the engines or the pure table
IO = ("asyncio", "socket", "sqlite3", "subprocess", "threading", "time", "serial", "usb", "aiomqtt", "starlette",
      "uvicorn", "controller.journal")


def rule(layers: tuple[str, ...], forbidden: tuple[str, ...], why: str) -> list[tuple[str, str, str]]:
    return [(layer, target, why) for layer in layers for target in forbidden]


RULES = [
    # (modules under, may not import, why)
    ("drivers", "controller", "drivers know nothing of games or tables"),
    ("drivers", "simulators", "a driver talks to real hardware; the registry names simulators by string only"),
    ("simulators", "controller", "a simulator is a device: it knows its protocol, not the table"),
    *rule(ENGINES, (*TABLE, *RUNTIME, *PEOPLE, *TERMINAL, *FACES, "controller.config", "drivers", "simulators", *IO),
          "engines are pure: no table, no feed, no devices, no I/O"),
    *rule(("controller.analysis", *ANALYSES), (*TABLE, *RUNTIME, *PEOPLE, *FACES, "drivers", "simulators"),
          "analysis runs the engines alone"),
    *rule(("controller.commands",), (*TABLE, *RUNTIME, *FACES, "drivers"),
          "the command model is shared by every edge: no table, no face, no device"),
    *rule(("controller.records",), (*TABLE, *RUNTIME, *PEOPLE, *TERMINAL, *FACES, "controller.protection",
                                    "controller.config", "drivers", "simulators", *IO),
          "the record contract is what the table writes and every face reads: no table, no face, no I/O"),
    ("controller.jsonbound", "controller", "the bounded JSON parser is the standard library's alone"),
    ("controller.jsonbound", "drivers", "the bounded JSON parser is the standard library's alone"),
    *rule(TABLE, (*RUNTIME, *PEOPLE, *TERMINAL, *FACES, "controller.protection", "controller.config", "simulators",
                  *(io for io in IO if io != "controller.journal")),
          "the table is the pure state machine: no runtime, no people, no face, no I/O of its own"),
    *rule(RECORDS, (*RUNTIME, *PEOPLE, *TERMINAL, *FACES, "simulators"),
          "the journal and the config sit under the runtime: no runtime, no people, no face"),
    *rule(RUNTIME, (*PEOPLE, *TERMINAL, *FACES, "controller.protection"),
          "the runtime drives the table: no simulated people, no terminal, no face"),
    *rule(PEOPLE, (*TERMINAL, *FACES), "simulated people play through the runtime: no terminal, no face"),
    *rule(TERMINAL, (*PEOPLE, *FACES), "the terminal is the table's text face: no simulated people, no other face"),
    *rule(PLUMBING, ("controller", "drivers", "simulators"), "process plumbing is the standard library's alone"),
    *rule(("controller.boards", *BOARDS, "controller.round_money"), (*TABLE, *RUNTIME, *FACES, "drivers"),
          "result boards are computed from round records: no table, feed or page"),
    *rule(("controller.protection",), ("controller.feed", *PAGES, *TERMINAL),
          "the watches read the journal and journal their alerts: no page, no feed"),
    *rule(("controller.floor",), (*FACES, "controller.protection", *RUNTIME, "drivers"),
          "the floor layer is what the faces share: no face, no runtime, no device"),
    *rule(("controller.web",), (*TABLE, *RUNTIME, "controller.games", "controller.feed", "drivers"),
          "the pages' shared web side knows no table and no game"),
    *rule(("controller.floor.store",), ("controller", "drivers", "simulators", "psycopg", "psycopg_pool"),
          "the floor's store interface is the standard library's alone: its implementations import it"),
    *rule(tuple(f"controller.pit.{p.stem}" for p in sorted((ROOT / "controller" / "pit").glob("*.py"))
                if p.stem not in ("__init__", "cli")), ("controller.backoffice", "psycopg", "psycopg_pool"),
          "the dashboard reads the floor's store (controller/floor/); only its process wiring (cli) opens the back office's"),
]

def drivers_beyond_events(target: str, known: dict[str, Path]) -> bool:
    """A module of the drivers other than their event models (``drivers/events.py``,
    ``drivers/<device>/events.py``): transports, sessions, codecs, devices, the registry."""
    return (target in known and _under(target, "drivers") and target != "drivers"
            and target.rpartition(".")[2] != "events")


def violations(known: dict[str, Path] | None = None) -> list[str]:
    """Every import that breaks a row, counting imports inside functions and under
    ``if TYPE_CHECKING:`` (a type named from a layer above is an arrow up all the same)."""
    found = []
    known = modules() if known is None else known
    for name, path in known.items():
        for target, line in imported(path, name, typing_too=True):
            for layer, forbidden, why in RULES:
                if _under(name, layer) and _under(target, forbidden):
                    found.append(f"{path.name}:{line} {name} imports {target} ({why})")
            if any(_under(name, layer) for layer in TABLE) and drivers_beyond_events(target, known):
                found.append(f"{path.name}:{line} {name} imports {target} "
                             "(the pure table knows the drivers' event models only, never a transport or device)")
    return sorted(set(found))


def test_no_layer_is_broken() -> None:
    assert violations() == []


def import_graph(known: dict[str, Path] | None = None) -> dict[str, set[str]]:
    known = modules() if known is None else known
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


def runtime_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {t for t, _ in imported(path, name) if t in known and _under(t, "controller") and t != name}
            for name, path in known.items() if _under(name, "controller")}


def test_no_import_cycles_among_controller_modules() -> None:
    assert cycles(runtime_graph()) == []


def test_no_import_cycles_counting_type_checking_imports() -> None:
    assert cycles(import_graph()) == []


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


def _package(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / (name.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return modules(root)


def test_an_arrow_up_counts_when_lazy_or_only_for_types(tmp_path: Path) -> None:
    """The pure table naming the runtime's loop for a type, or importing the feed inside a
    function, breaks its row; a driver's event model does not, its transport does."""
    known = _package(tmp_path, {
        "controller.table.view": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                 "    from controller.runtime.loop import TableLoop\n",
        "controller.table.wiring": "def f():\n    from controller.feed import Feed\n",
        "controller.table.events": "from drivers.shoe.events import CardDrawn\nfrom drivers.shoe import transport\n",
        "controller.runtime.loop": "", "controller.feed": "", "drivers.shoe.events": "", "drivers.shoe.transport": "",
    })
    found = "\n".join(violations(known))
    assert "controller.table.view imports controller.runtime.loop" in found
    assert "controller.table.wiring imports controller.feed" in found
    assert "imports drivers.shoe.transport" in found
    assert "drivers.shoe.events " not in found


def test_a_circle_counts_when_lazy_or_only_for_types(tmp_path: Path) -> None:
    known = _package(tmp_path, {
        "controller.hil.faults": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                 "    from controller.hil.soak import Soak\n",
        "controller.hil.soak": "def run():\n    from controller.hil import faults\n",
    })
    assert cycles(import_graph(known)) == [["controller.hil.faults", "controller.hil.soak"]]


#: the faces that share statistics: they meet in ``controller/floor``, never import each other
SHARING_FACES = ("controller.pit", "controller.backoffice", "controller.protection")
#: the dashboard's process wiring hands it the back office's store (the pit's own modules read only
#: controller/floor's interface); the broker policy both use is ``controller.mqtt_config``'s
CROSSINGS_LEFT = ("controller.pit.cli",)


def test_pit_backoffice_and_protection_share_only_through_the_floor() -> None:
    found = []
    for name, path in modules().items():
        own = next((face for face in SHARING_FACES if _under(name, face)), None)
        if own is None or name in CROSSINGS_LEFT:
            continue
        for target, line in imported(path, name, typing_too=True):
            if any(_under(target, face) for face in SHARING_FACES if face != own):
                found.append(f"{path.name}:{line} {name} imports {target} (share it through controller/floor)")
    assert found == []


def _layer_table() -> list[tuple[list[str], str]]:
    """docs/architecture.md's layer table: (the modules of a row, what it never imports)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## Layers and what each may import", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("layer", "") or set(cells[0]) <= {"-"}:
            continue
        paths = [p for p in re.findall(r"`([^`]+)`", cells[1]) if p.startswith(("controller/", "drivers/", "simulators/"))]
        rows.append(([p.removesuffix("/").removesuffix(".py").replace("/", ".") for p in paths], cells[3]))
    return rows


def test_every_row_of_the_layer_table_is_checked() -> None:
    """A row that says what it never imports has a rule here for every module it names, and
    every module of the controller belongs to a row, so a new package is placed on purpose."""
    rows = _layer_table()
    assert len(rows) >= 10
    ruled = {layer for layer, _, _ in RULES} | set(TABLE)
    for where, never in rows:
        if never != "—":
            assert [w for w in where if w not in ruled] == [], f"a row of the layer table has no rule: {where}"
    placed = [w for where, _ in rows for w in where]
    unplaced = sorted(name for name in modules() if _under(name, "controller") and name != "controller"
                      and not any(_under(name, w) for w in placed))
    assert unplaced == [], "modules in no row of docs/architecture.md's layer table"


def test_a_role_pattern_places_a_game_module_in_its_role_layer(tmp_path: Path) -> None:
    """A game package's adapter is the table's (it may import the table, an engine may not import
    it) and its analysis is the analysis layer's (it may not import the table); the rest of the
    package is an engine, under every rule of the engines' row."""
    known = _package(tmp_path, {
        "controller.games.toy.round": "from controller.table import core\n",
        "controller.games.toy.rules": "from controller.games.toy import adapter\n",
        "controller.games.toy.adapter": "from controller.table.games import base\nfrom controller.games.toy import round\n",
        "controller.games.toy.analysis": "from controller.table import core\n",
        "controller.games.toy.board": "from controller.games.toy import round\n",
        "controller.games.toy.game": "from controller.games.toy import adapter, analysis, board\n",
        "controller.table.core": "", "controller.table.games.base": "",
    })
    found = "\n".join(violations(known))
    assert "controller.games.toy.round imports controller.table.core" in found
    assert "controller.games.toy.rules imports controller.games.toy.adapter" in found
    assert "controller.games.toy.analysis imports controller.table.core" in found
    assert "toy.adapter imports" not in found and "toy.board imports" not in found and "toy.game imports" not in found
    assert _under("controller.games.toy.adapter", "controller.games.*.adapter")
    assert not _under("controller.games.toy.adapter", "controller.games")
    assert _under("controller.games.toy.adapter", "controller")
    assert _under("controller.games.toy.rules", "controller.games")
    assert not _under("controller.games.toy.rules", "controller.games.*.adapter")


def test_the_table_reader_takes_role_patterns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row naming ``controller/games/*/adapter.py`` reads as the pattern ``controller.games.*.adapter``."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.md").write_text(
        "## Layers and what each may import\n\n| layer | where | may import | never imports |\n|---|---|---|---|\n"
        "| engines | `controller/games/`, `controller/cards.py` | pydantic | the table |\n"
        "| table | `controller/table/`, `controller/games/*/adapter.py` (each game's) | engines | the runtime |\n"
        "\n## Next\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert _layer_table() == [(["controller.games", "controller.cards"], "the table"),
                              (["controller.table", "controller.games.*.adapter"], "the runtime")]


@pytest.mark.parametrize(("graph", "expected"), [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
])
def test_cycle_finder(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(graph) == expected
