"""``croupier run`` and ``croupier recall``: one table from its config file, and its history."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from controller.config import ConfigError, TableConfig, load
from controller.journal import JournalFull


def _config(path: Path) -> TableConfig:
    try:
        return load(path)
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        config: Annotated[Path, typer.Option(help="the table's TOML config file")],
        rounds: Annotated[int | None, typer.Option(
            min=1, help="simulated players and dealer close N rounds (one resumed from the journal counts), then exit")] = None,
        pace: Annotated[float, typer.Option(min=0.0, help="with --rounds: seconds the simulated people take per action")] = 0.0,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
        quiet: Annotated[bool, typer.Option("--quiet", help="alerts and rounds only, no prompts")] = False,
        log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error (to stderr)")]
        = "warning",
        log_json: Annotated[bool, typer.Option("--log-json", help="log as JSON lines")] = False,
    ) -> None:
        """Run the table with its configured devices (journal replayed first: an open round resumes)."""
        from controller.logs import LEVELS, configure
        from controller.table.app import run_table

        if log_level.lower() not in LEVELS:
            raise typer.BadParameter(f"one of {', '.join(LEVELS)}", param_hint="--log-level")
        configure(log_level, as_json=log_json)
        from drivers.errors import DriverError

        cfg = _config(config)
        try:
            with contextlib.suppress(KeyboardInterrupt):
                asyncio.run(run_table(cfg, rounds, pace=pace, as_json=as_json, prompts=not quiet))
        # a device that cannot be opened, a journal that cannot take the start: one line to act on
        except (DriverError, JournalFull) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        except sqlite3.Error as exc:  # not a journal, no permission, a broken file
            typer.echo(f"error: cannot use the journal {cfg.journal_path}: {exc}", err=True)
            raise typer.Exit(2) from None

    @app.command("recall")
    def recall_cmd(
        config: Annotated[Path | None, typer.Option(help="the table's TOML config file")] = None,
        journal: Annotated[Path | None, typer.Option(help="a journal file by its path, instead of --config")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="a JSON array of round records")] = False,
        last: Annotated[int | None, typer.Option(min=1, help="the last N rounds (default 10)")] = None,
        all_: Annotated[bool, typer.Option("--all", help="every round in the journal")] = False,
        round_id: Annotated[str | None, typer.Option("--round", help="one round by id")] = None,
    ) -> None:
        """Print closed rounds from the journal (works while the table runs or holds)."""
        from controller.table.printer import round_line
        from controller.table.recall import recall

        if sum((last is not None, all_, round_id is not None)) > 1:
            raise typer.BadParameter("give at most one of --last, --all, --round")
        if (config is None) == (journal is None):
            raise typer.BadParameter("give --config or --journal (one of them)")
        if journal is not None and not journal.is_file():
            typer.echo(f"error: no journal at {journal}", err=True)
            raise typer.Exit(2)
        journal_path = journal if journal is not None else _config(config).journal_path  # type: ignore[arg-type]
        records = recall(journal_path, last=None if all_ else (last or 10), round_id=round_id)
        if round_id is not None and not records:
            typer.echo(f"error: no closed round {round_id!r} in {journal_path}", err=True)
            raise typer.Exit(1)
        if as_json:
            typer.echo(json.dumps(records))
        else:
            for record in records:
                typer.echo(round_line(record))


def main() -> None:
    """``python -m controller.table_cli``: these commands alone (the whole command line is
    ``croupier``, controller/cli.py, which registers them; this module never imports it)."""
    app = typer.Typer(no_args_is_help=True, add_completion=False, help="Croupier: run a table, recall its rounds.")
    register(app)
    app()


if __name__ == "__main__":
    main()
