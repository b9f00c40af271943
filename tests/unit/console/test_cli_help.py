"""The command line's help reads as a person types it: a flag is shown as the flag alone, never
followed by a value's type ("--json <bool>" made every switch look as if it took a value)."""

from __future__ import annotations

from typing import Any

import typer.main
from typer.testing import CliRunner

from controller.cli import app


def every_command(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, command in getattr(group, "commands", {}).items():
        found += every_command(command, (*path, name))
    return found


def test_no_flag_is_shown_with_a_value_type() -> None:
    root = typer.main.get_command(app)
    runner = CliRunner()
    paths = every_command(root)
    assert len(paths) > 15
    for path in paths:
        shown = runner.invoke(app, [*path, "--help"], terminal_width=200)
        assert shown.exit_code == 0, (path, shown.output)
        assert "<bool>" not in shown.output, f"croupier {' '.join(path)} --help:\n{shown.output}"
    said = runner.invoke(app, ["run", "--help"], terminal_width=200).output
    assert "--json " in said and "--config <path>" in said  # a flag alone; an option with its value
