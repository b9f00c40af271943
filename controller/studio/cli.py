"""``croupier studio``: serve the remote players (docs/studio.md)."""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from controller.heap import Thresholds, freeze_start
from controller.studio.config import StudioConfig, StudioConfigError, load

studio_app = typer.Typer(no_args_is_help=True, help="The studio remote players bet through (docs/studio.md).")
ConfigOption = Annotated[Path, typer.Option(help="TOML with \\[studio] and \\[mqtt]")]
DatabaseOption = Annotated[str | None, typer.Option(
    help="postgresql://user@host/db (else \\[studio] database or $CROUPIER_STUDIO_DATABASE_URL)")]

#: the collector's thresholds. Each connected player holds a few hundred objects for hours:
#: 10,000 players are over a million objects that every full pass walks for nothing. With CPython's
#: defaults (a young pass every 700 allocations) what a bet batch holds for a few milliseconds
#: reached the old generation, and at 5,000 players a full pass (0.5 to 1.4 s, the loop stopped)
#: came twice a round; a young pass every 100,000 allocations finds a batch's objects freed by their
#: reference counts already, and the middle generation is collected often to stay small.
COLLECTOR: Thresholds = (100_000, 2, 10)


def _config(path: Path, database: str | None) -> tuple[StudioConfig, str]:
    cfg = _loaded(path)
    try:
        return cfg, cfg.database_url(database)
    except StudioConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


async def _serve(cfg: StudioConfig, database: str) -> None:
    from controller.studio.server import StudioServer

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with StudioServer(cfg, database) as server:
        freeze_start(COLLECTOR)  # started: before the players come (controller/heap.py)
        typer.echo(f"studio: {server.url}", err=False)
        await stop.wait()


@studio_app.command("serve")
def serve(config: ConfigOption, database: DatabaseOption = None,
          log_level: Annotated[str, typer.Option(help="debug, info, warning, error")] = "info") -> None:
    """Serve the players' WebSocket API and keep the book of the configured tables."""
    cfg, url = _config(config, database)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    try:
        asyncio.run(_serve(cfg, url))
    except OSError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None


@studio_app.command("migrate")
def migrate_command(config: ConfigOption, database: DatabaseOption = None) -> None:
    """Bring the studio's database schema up to date."""
    from controller.studio.migrate import migrate

    _, url = _config(config, database)
    typer.echo(f"studio: {migrate(url)} migrations applied")


@studio_app.command("simulate")
def simulate_command(
    config: ConfigOption,
    players: Annotated[int, typer.Option(min=1, max=5000, help="simulated remote players")] = 20,
    rounds: Annotated[int, typer.Option(min=1, max=10_000, help="rounds to play")] = 5,
    seed: Annotated[int, typer.Option(help="seed of the players' choices and the results")] = 1,
    betting_s: Annotated[int, typer.Option(min=1, max=60, help="the table's betting time of each round (s)")] = 1,
    database: DatabaseOption = None,
    broker: Annotated[str | None, typer.Option(help="the tables' MQTT broker URL (default: an embedded one, "
                                                    "as the demo's)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object (the only output there is)")] = True,
    operator_faults: Annotated[str | None, typer.Option(
        help="the players' operator is the reference operator over HTTP with its feed on a throwaway RabbitMQ, "
             "showing these faults: all, none or some of slow,http500,timeout,drop,away,duplicate")] = None,
    rabbitmq_restart: Annotated[bool | None, typer.Option(
        help="restart the feed's RabbitMQ once mid-round (default: on with --operator-faults all)")] = None,
    drain_s: Annotated[float, typer.Option(min=1, max=3600, help="how long the end waits for the operator's "
                                                                  "retries and feed to drain (s)")] = 120.0,
) -> None:
    """Play ROUNDS rounds of the config's first table with PLAYERS simulated remote players through the
    real table (its devices simulated, batch mode's dealer and seated players), the studio, a broker
    (embedded unless --broker is given) and PostgreSQL (a throwaway cluster unless --database is
    given); print one JSON object."""
    import json

    from controller.studio.simulation.operator import FAULTS, parse_faults

    cfg = _loaded(config)
    try:
        faults = None if operator_faults is None else parse_faults(operator_faults)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    restart = bool(faults is not None and (faults == FAULTS if rabbitmq_restart is None else rabbitmq_restart))
    try:
        result = asyncio.run(_simulate(cfg, database, players, rounds, seed, betting_s, broker,
                                       {"operator_faults": faults, "rabbitmq_restart": restart, "drain_s": drain_s}))
    except (ValueError, RuntimeError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(json.dumps(result, sort_keys=False) if as_json else json.dumps(result, indent=2))


async def _simulate(cfg: StudioConfig, database: str | None, players: int, rounds: int, seed: int,
                    betting_s: int, broker_url: str | None, operator: dict[str, Any]) -> dict[str, object]:
    import contextlib

    import psycopg

    from controller.backoffice.cluster import Cluster
    from controller.studio.simulate import simulate
    from simulators.broker import EmbeddedBroker

    async with contextlib.AsyncExitStack() as stack:
        if database is None:
            cluster = Cluster(die_with_parent=True)
            await asyncio.to_thread(cluster.start)
            stack.callback(cluster.close)
            with psycopg.connect(cluster.url(), autocommit=True) as conn:
                conn.execute('CREATE DATABASE "studio"')
            database = cluster.url("studio")
        if broker_url is None:
            broker_url = (await stack.enter_async_context(EmbeddedBroker())).url
        logging.getLogger("controller").setLevel(logging.ERROR)
        return await simulate(cfg, database, broker_url, players=players, rounds=rounds, seed=seed,
                              betting_s=betting_s, **operator)


def _loaded(path: Path) -> StudioConfig:
    try:
        return load(path)
    except StudioConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    from controller.studio.operators.cli import operators_app

    studio_app.add_typer(operators_app)  # operator-sim, reconcile, replay, operators-api (docs/operators.md)
    app.add_typer(studio_app, name="studio")
