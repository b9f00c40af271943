"""Structure of the code base: no class over 300 lines in controller/, drivers/ or simulators/.

A class that long holds several jobs: split it by job into small modules, each with one job.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "drivers", "simulators")
MAX_CLASS_LINES = 300

def long_classes(source: str, max_lines: int = MAX_CLASS_LINES) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length) of every class in ``source`` longer than ``max_lines``,
    counting from its first decorator to its last line; nested classes are checked too."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                length = (child.end_lineno or child.lineno) - first + 1
                name = f"{prefix}{child.name}"
                if length > max_lines:
                    found.append((name, first, length))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_no_class_over_300_lines() -> None:
    files = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    assert files, "no source files found"
    too_long = [
        f"{path.relative_to(ROOT)}:{line} class {name} is {length} lines (at most {MAX_CLASS_LINES})"
        for path in files
        for name, line, length in long_classes(path.read_text(encoding="utf-8"))
    ]
    assert not too_long, "\n".join(too_long)


@pytest.mark.parametrize(("lines", "flagged"), [(300, False), (301, True)])
def test_the_check_counts_lines_from_decorator_to_end(lines: int, flagged: bool) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(lines - 2))
    source = f"@decorator\nclass Outer:\n{body}\n\n\ndef after() -> None:\n    pass\n"
    assert [(n, first, length) for n, first, length in long_classes(source)] == (
        [("Outer", 1, 301)] if flagged else []
    )


def test_the_check_finds_nested_classes() -> None:
    body = "\n".join(f"        y{i} = {i}" for i in range(5))
    source = f"def factory():\n    class Inner:\n{body}\n    return Inner\n"
    assert long_classes(source, max_lines=5) == [("Inner", 2, 6)]
