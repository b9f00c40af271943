"""``croupier backoffice``: run the consumer, migrate the database, print reports and ratings
(docs/backoffice.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from pathlib import Path
from typing import Annotated

import typer

from controller.backoffice.config import BackofficeConfig, BackofficeConfigError, load
from controller.backoffice.provenance import Trust

ConfigOption = Annotated[Path | None, typer.Option(help="TOML with \\[backoffice], \\[mqtt] and \\[metrics]")]
DatabaseOption = Annotated[str | None, typer.Option(
    help="postgresql://user@host/db (else \\[backoffice] database or $CROUPIER_DATABASE_URL)")]


def _config(path: Path | None) -> BackofficeConfig:
    try:
        return load(path)
    except BackofficeConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _database(cfg: BackofficeConfig, given: str | None) -> str:
    try:
        return cfg.database_url(given)
    except BackofficeConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


async def consume(cfg: BackofficeConfig, broker: str, database: str, trust: dict[str, Trust]) -> None:
    """Until SIGINT or SIGTERM: the consumer, its metrics served if configured."""
    from controller.backoffice.consumer import Consumer

    b = cfg.backoffice
    consumer = Consumer(broker, database, client_id=b.client_id, batch_max=b.batch_max, queue_limit=b.queue_limit,
                        trust=trust)
    if cfg.metrics.enabled:
        server = consumer.metrics.serve(cfg.metrics.host, cfg.metrics.port)
        typer.echo(f"metrics: {server.url}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    typer.echo(f"backoffice: {_redacted_database(database)}")
    await consumer.run(stop)


def _redacted_database(url: str) -> str:
    from drivers.mqtt.url import redacted

    return redacted(url)


def register(app: typer.Typer) -> None:
    office = typer.Typer(no_args_is_help=True, help="The back office: the floor's rounds in PostgreSQL, and reports.")

    @office.command("run")
    def run(
        config: ConfigOption = None,
        database: DatabaseOption = None,
        broker: Annotated[str | None, typer.Option(
            help="the back office's own account: mqtts://backoffice@host:8883?cafile=... (password: "
                 "CROUPIER_MQTT_PASSWORD)")] = None,
        insecure: Annotated[bool, typer.Option("--insecure", help="allow a plaintext or anonymous broker (lab only)")] = False,
        migrate_first: Annotated[bool, typer.Option("--migrate", help="apply the schema's migrations first")] = False,
        log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error")] = "warning",
    ) -> None:
        """Record every table's rounds, alerts, pit commands, dealer sign-ins and journal heads."""
        import psycopg

        from controller.backoffice import settings
        from controller.backoffice.migrate import MigrationError, migrate, require_current

        cfg = _config(config)
        url = _database(cfg, database)
        try:
            broker_url = cfg.broker_url(broker, insecure)
            trust = cfg.trust()
            if migrate_first:
                migrate(url)
            with psycopg.connect(url, connect_timeout=10) as conn:
                require_current(conn)
                settings.publish(conn, cfg.backoffice)  # the dashboard's history reads the same day and shifts
        except (BackofficeConfigError, MigrationError, psycopg.Error) as exc:
            typer.echo(f"error: {str(exc).strip()}", err=True)
            raise typer.Exit(2) from None
        logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(consume(cfg, broker_url, url, trust))

    @office.command("migrate")
    def migrate_cmd(config: ConfigOption = None, database: DatabaseOption = None) -> None:
        """Apply the schema's versioned migrations that the database does not have yet."""
        import psycopg

        from controller.backoffice.migrate import MigrationError, migrate

        url = _database(_config(config), database)
        try:
            lines = migrate(url)
        except (MigrationError, psycopg.Error) as exc:
            typer.echo(f"error: {str(exc).strip()}", err=True)
            raise typer.Exit(2) from None
        for line in lines or ["the schema is up to date"]:
            typer.echo(line)

    @office.command("rebuild-tallies")
    def rebuild_cmd(config: ConfigOption = None, database: DatabaseOption = None) -> None:
        """Recompute the reports' tallies from the stored rounds (one transaction; the consumer may run)."""
        import psycopg

        from controller.backoffice.migrate import MigrationError, require_current
        from controller.backoffice.tallies import rebuild

        url = _database(_config(config), database)
        try:
            with psycopg.connect(url, connect_timeout=10) as conn:
                require_current(conn)
                rows = rebuild(conn)
        except (MigrationError, psycopg.Error) as exc:
            typer.echo(f"error: {str(exc).strip()}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"tallies rebuilt: {rows} rows")

    from controller.backoffice import report_cli

    report_cli.register(office, _config, _database)
    app.add_typer(office, name="backoffice")
