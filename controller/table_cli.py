"""``croupier run``, ``croupier recall`` and ``croupier diagnose``: one table from its config
file, its history, and the state of its parts."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from controller.config import ConfigError, TableConfig, load
from controller.journal import Journal, JournalFull, JournalInUse, JournalKeyError, JournalUntrusted
from controller.journal_keyed import write_new_key


def _config(path: Path) -> TableConfig:
    try:
        return load(path)
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _missing_journal(cfg: TableConfig, config: Path) -> str:
    return (f"no journal at {cfg.journal_path} (from [table] journal in {config}): check the path; "
            f"a new table's journal is made by `croupier init --config {config}` or `croupier run --new-journal`")


def create_journal(cfg: TableConfig, *, err: bool = False) -> None:
    """A new, empty journal (its directory too), keyed, said in one line (``err``: on standard
    error, where ``run --json`` keeps standard output for its JSON lines). Its key file
    (``[journal] key_file``, else ``<journal>.key`` beside it) is made first when missing: a
    fresh random key, mode 0600; ``CROUPIER_JOURNAL_KEY`` instead when set and no file is named."""
    key_path = cfg.key_path
    if key_path is not None and not key_path.exists():
        write_new_key(key_path)
        typer.echo(f"new journal key: {key_path} (back it up apart from the journal)", err=err)
    Journal(cfg.journal_path, exclusive=True, key=cfg.journal_key()).close()
    typer.echo(f"new journal: {cfg.journal_path}", err=err)


def adopt_key(cfg: TableConfig, heads: Path | None) -> str:
    """Key a journal made before its key (``croupier adopt-key``): its plain chain (and the
    recorded heads, if given) checked first, then the row declaring it keyed from here on,
    MAC'd with the key. What it says; ``typer.Exit`` with the reason when it must not."""
    from controller.verify import read_heads, verify_file

    if not cfg.journal_path.is_file():
        raise _fail(f"no journal at {cfg.journal_path}")
    said = []
    key_path = cfg.key_path
    if key_path is not None and not key_path.exists():
        write_new_key(key_path)
        said.append(f"new journal key: {key_path} (back it up apart from the journal)")
    with Journal(cfg.journal_path, exclusive=True, key=cfg.journal_key(), adopting=True) as journal:
        if journal.keyed_from is not None:
            return "\n".join([*said, f"the journal {cfg.journal_path} is keyed with this key already, from seq "
                                      f"{journal.keyed_from}: nothing changed"])
        declared = journal.declaration()
        if declared is not None:
            raise _untrusted(f"the journal {cfg.journal_path} declares a key at seq {declared.seq} but its MACs are "
                             "gone: it was keyed and stripped; restore it from backup")
        verdict = verify_file(cfg.journal_path, None, read_heads(heads, cfg.table.id) if heads is not None else None)
        if not verdict.ok:
            for line in verdict.lines():
                typer.echo(line, err=True)
            raise _untrusted(f"the journal {cfg.journal_path} does not verify, so it is not keyed; restore it "
                             "from backup")
        if verdict.macs_unchecked:
            raise _untrusted(f"the journal {cfg.journal_path} carries MACs on {verdict.macs_unchecked} rows: it was "
                             "keyed, and rows without one were written without its key or stripped; restore it "
                             "from backup")
        entry = journal.declare_keyed()
    covered = "the plain chain and the recorded heads" if heads is not None else "the plain chain alone"
    return "\n".join([*said, f"the journal {cfg.journal_path} is keyed from seq {entry.seq}; rows before it are "
                              f"covered by {covered}, as they stand now"])


def _untrusted(message: str) -> typer.Exit:
    """A journal that cannot be trusted: exit 1, like ``verify-journal`` on a broken journal."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(1)


def register(app: typer.Typer) -> None:
    @app.command("init")
    def init(config: Annotated[Path, typer.Option(help="the table's TOML config file")]) -> None:
        """Create a new table's empty journal where the config says (refused if one is there)."""
        cfg = _config(config)
        if cfg.journal_path.exists():
            raise _fail(f"a journal is already at {cfg.journal_path}: nothing changed")
        try:
            create_journal(cfg)
        except (OSError, sqlite3.Error, JournalInUse, ConfigError) as exc:
            raise _fail(f"cannot create the journal {cfg.journal_path}: {exc}") from None

    @app.command("adopt-key")
    def adopt_key_cmd(
        config: Annotated[Path, typer.Option(help="the table's TOML config file")],
        against: Annotated[Path | None, typer.Option(
            help="recorded heads (croupier anchor --out): each must be a row of the journal first")] = None,
    ) -> None:
        """Key a journal made before its key: checked (plain chain, recorded heads), then keyed from
        its end with the configured key, or a new one beside it (docs/security.md). Run once, with
        the table stopped."""
        cfg = _config(config)
        try:
            typer.echo(adopt_key(cfg, against))
        except (OSError, sqlite3.Error, JournalInUse, JournalKeyError, ConfigError) as exc:
            raise _fail(f"cannot key the journal {cfg.journal_path}: {exc}") from None

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
        new_journal: Annotated[bool, typer.Option(
            "--new-journal", help="create the journal if there is none (a new table); without it a missing one is an error")]
        = False,
    ) -> None:
        """Run the table with its configured devices (journal replayed first: an open round resumes).
        Stops cleanly on Ctrl-C or SIGTERM (exit 0)."""
        from controller.logs import LEVELS, configure
        from controller.process import run_table

        if log_level.lower() not in LEVELS:
            raise typer.BadParameter(f"one of {', '.join(LEVELS)}", param_hint="--log-level")
        configure(log_level, as_json=log_json)
        from controller import stopping
        from drivers.errors import DriverError

        cfg = _config(config)
        try:
            if not cfg.journal_path.exists():
                if not new_journal:  # a typo in the path must not start a table from round 1
                    raise _fail(_missing_journal(cfg, config))
                try:
                    create_journal(cfg, err=True)
                except OSError as exc:
                    raise _fail(f"cannot create the journal {cfg.journal_path}: {exc}") from None
            stopping.run(run_table(cfg, rounds, pace=pace, as_json=as_json, prompts=not quiet))
        # a device that cannot be opened, a journal that cannot take the start: one line to act on
        except JournalUntrusted as exc:  # a keyed journal whose MACs are gone: never played on
            raise _untrusted(f"{exc}; `croupier verify-journal --config {config}` shows the whole journal") from None
        except (DriverError, JournalFull, JournalInUse, JournalKeyError, ConfigError) as exc:
            raise _fail(str(exc)) from None
        except sqlite3.Error as exc:  # not a journal, no permission, a broken file
            raise _fail(f"cannot use the journal {cfg.journal_path}: {exc}") from None

    @app.command("recall")
    def recall_cmd(
        config: Annotated[Path | None, typer.Option(help="the table's TOML config file")] = None,
        journal: Annotated[Path | None, typer.Option(help="a journal file by its path, instead of --config")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="a JSON array of round records")] = False,
        last: Annotated[int | None, typer.Option(min=1, help="the last N rounds (default 10)")] = None,
        all_: Annotated[bool, typer.Option("--all", help="every round in the journal")] = False,
        round_id: Annotated[str | None, typer.Option("--round", help="one round by id")] = None,
        currency: Annotated[str, typer.Option(help="with --journal: the table's currency (ISO 4217)")] = "EUR",
        digits: Annotated[int, typer.Option(min=0, max=3, help="with --journal: its minor unit's digits")] = 2,
    ) -> None:
        """Print closed rounds from the journal (works while the table runs or holds)."""
        from controller.table.recall import recall
        from controller.terminal.printer import round_line

        if sum((last is not None, all_, round_id is not None)) > 1:
            raise typer.BadParameter("give at most one of --last, --all, --round")
        if (config is None) == (journal is None):
            raise typer.BadParameter("give --config or --journal (one of them)")
        if journal is not None and not journal.is_file():
            typer.echo(f"error: no journal at {journal}", err=True)
            raise typer.Exit(2)
        cfg = _config(config) if config is not None else None
        journal_path = journal if journal is not None else cfg.journal_path  # type: ignore[union-attr]
        records = recall(journal_path, last=None if all_ else (last or 10), round_id=round_id)
        if round_id is not None and not records:
            typer.echo(f"error: no closed round {round_id!r} in {journal_path}", err=True)
            raise typer.Exit(1)
        if as_json:
            typer.echo(json.dumps(records))
        else:
            for record in records:
                typer.echo(round_line(record, currency=cfg.table.currency if cfg else currency,
                                      digits=cfg.table.currency_digits if cfg else digits))

    @app.command("diagnose")
    def diagnose_cmd(config: Annotated[Path, typer.Option(help="the table's TOML config file")]) -> None:
        """Print the table's diagnostics as JSON, without secrets: live from the running table
        (devices and their links, feed, console, open round, holds), else what its config and
        journal say (docs/deployment.md, "Diagnostics")."""
        from controller.runtime import diagnostics

        cfg = _config(config)
        dump = diagnostics.read_live(diagnostics.diagnostics_socket(cfg)) or diagnostics.offline(cfg)
        typer.echo(json.dumps(dump, indent=2, default=str))


def main() -> None:
    """``python -m controller.table_cli``: these commands alone (the whole command line is
    ``croupier``, controller/cli.py, which registers them; this module never imports it)."""
    app = typer.Typer(no_args_is_help=True, add_completion=False, help="Croupier: run a table, recall its rounds.",
                      rich_markup_mode=None)  # plain help: a flag reads as a flag, not "<bool>"
    register(app)
    app()


if __name__ == "__main__":
    main()
