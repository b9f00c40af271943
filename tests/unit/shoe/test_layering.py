"""Drivers know nothing of games or simulators: the shoe driver imports neither."""

import ast
from pathlib import Path

import drivers.shoe


def test_shoe_driver_imports_nothing_from_controller_or_simulators():
    for path in Path(drivers.shoe.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(("controller", "simulators")), f"{path.name} imports {name}"
