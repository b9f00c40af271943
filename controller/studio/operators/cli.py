"""The operators' commands of ``croupier studio``: ``operator-sim``, ``reconcile``, ``replay``,
``operators-migrate`` and ``operators-api``. The studio's command group adds them with
``app.add_typer(operators_app)`` (no name: the commands sit beside ``serve`` and ``simulate``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

import typer

from controller.studio.operators.settings import Operator, OperatorsConfigError, OperatorsFile, load, read_secret

operators_app = typer.Typer(no_args_is_help=True, add_completion=False, help="The operators' wallet, feed and books.")

ConfigOption = Annotated[Path, typer.Option("--config", help="the operators' TOML file (docs/operators.md)")]
OperatorOption = Annotated[str, typer.Option("--operator", help="the operator's id, as in the file")]


def fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def config_and(path: Path, operator: str | None = None) -> tuple[OperatorsFile, dict[str, Operator]]:
    try:
        config, operators = load(path)
    except OperatorsConfigError as exc:
        raise fail(str(exc)) from None
    if operator is not None and operator not in operators:
        raise fail(f"no operator {operator!r} in {path} (known: {', '.join(sorted(operators)) or 'none'})")
    return config, operators


@contextlib.asynccontextmanager
async def opened_pool(url: str) -> AsyncIterator[Any]:
    from psycopg_pool import AsyncConnectionPool

    async with AsyncConnectionPool(url, min_size=1, max_size=4, open=False) as pool:
        yield pool


@operators_app.command("operators-migrate")
def migrate_cmd(config: ConfigOption) -> None:
    """Create or update the operators' tables in the studio's database."""
    from controller.studio.migrate import StudioMigrationError
    from controller.studio.operators.migrate import migrate

    file, _ = config_and(config)
    try:
        typer.echo(f"applied {migrate(file.database)} migration(s)")
    except (StudioMigrationError, OSError) as exc:
        raise fail(str(exc)) from None


@operators_app.command("reconcile")
def reconcile_cmd(config: ConfigOption, operator: OperatorOption,
                  start: Annotated[str, typer.Option("--from", help="ISO time, inclusive (e.g. 2026-12-05T00:00:00Z)")],
                  end: Annotated[str, typer.Option("--to", help="ISO time, exclusive")],
                  as_csv: Annotated[bool, typer.Option("--csv", help="CSV with a header line")] = False,
                  as_json: Annotated[bool, typer.Option("--json", help="JSON (the default)")] = False) -> None:
    """Every wallet transaction of an operator in a time range, with its status."""
    from controller.studio.operators import reconcile
    from controller.studio.operators.api import parse_time

    if as_csv and as_json:
        raise fail("--csv or --json, not both")
    file, _ = config_and(config, operator)
    try:
        t1, t2 = parse_time(start, "--from"), parse_time(end, "--to")
    except ValueError as exc:
        raise fail(str(exc)) from None

    async def read() -> list[reconcile.ReconcileRow]:
        async with opened_pool(file.database) as pool, pool.connection() as conn:
            return await reconcile.rows(conn, operator, t1, t2)

    found = asyncio.run(read())
    typer.echo(reconcile.to_csv(found) if as_csv else reconcile.to_json(found), nl=not as_csv)


@operators_app.command("replay")
def replay_cmd(config: ConfigOption, operator: OperatorOption,
               table: Annotated[str, typer.Option("--table")],
               first: Annotated[int, typer.Option("--from", min=1, help="the first sequence number to publish again")],
               last: Annotated[int | None, typer.Option("--to", min=1, help="the last one (default: the latest)")] = None,
               ) -> None:
    """Publish a range of a table's feed again to an operator's queue (marked as a replay)."""
    from controller.studio.operators.publisher import replay

    file, operators = config_and(config, operator)

    async def run() -> int:
        async with opened_pool(file.database) as pool:
            return await replay(pool, file.amqp, operators[operator], table, first, last)

    typer.echo(json.dumps({"operator": operator, "table": table, "published": asyncio.run(run())}))


@operators_app.command("operators-api")
def api_cmd(config: ConfigOption) -> None:
    """Serve the operators' endpoint (reconciliation, round detail, snapshots) on api_host:api_port."""
    import uvicorn

    from controller.studio.operators.api import operator_api

    file, operators = config_and(config)

    async def run() -> None:
        async with opened_pool(file.database) as pool:
            server = uvicorn.Server(uvicorn.Config(operator_api(pool, operators), host=file.api_host,
                                                   port=file.api_port, log_level="warning"))
            await server.serve()

    asyncio.run(run())


@operators_app.command("operator-sim")
def operator_sim_cmd(
    secret_file: Annotated[Path, typer.Option("--secret-file", help="the wallet secret it shares with the studio")],
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8472,
    store: Annotated[Path, typer.Option("--store", help="its SQLite books")] = Path("operator-sim.sqlite"),
    fund: Annotated[list[str] | None, typer.Option("--fund", help="player:CUR:amount (minor units), repeatable")] = None,
    stake_limit: Annotated[int, typer.Option("--stake-limit", help="its own limit on one debit")] = 10**9,
    fault: Annotated[list[str] | None, typer.Option("--fault", help="delay_s=3, fail_500=2, drop_after_commit=1, "
                                                                    "contradict=1, oversize=8000, away_s=120")] = None,
    amqp: Annotated[str | None, typer.Option("--amqp", help="consume its feed queue on this broker")] = None,
    queue: Annotated[str | None, typer.Option("--queue", help="its queue (croupier.<operator>)")] = None,
    feed_secret_file: Annotated[Path | None, typer.Option("--feed-secret-file")] = None,
    duplicate: Annotated[bool, typer.Option("--duplicate", help="take every feed message twice")] = False,
) -> None:
    """A reference operator: the generic wallet contract over HTTP, and a checking feed consumer."""
    import uvicorn

    from controller.studio.operators.sim.consumer import FeedConsumer
    from controller.studio.operators.sim.faults import Faults
    from controller.studio.operators.sim.store import SimStore
    from controller.studio.operators.sim.wallet_app import wallet_app

    try:
        secret = read_secret(secret_file, "--secret-file")
        feed_secret = read_secret(feed_secret_file, "--feed-secret-file") if feed_secret_file else None
    except OperatorsConfigError as exc:
        raise fail(str(exc)) from None
    if amqp and not (queue and feed_secret):
        raise fail("--amqp needs --queue and --feed-secret-file")
    faults, books = Faults(), SimStore(store, stake_limit=stake_limit)
    try:
        faults.update({k: v for k, _, v in (f.partition("=") for f in fault or [])})
        for item in fund or []:
            player, currency, amount = item.split(":")
            books.fund(player, currency, int(amount))
    except ValueError as exc:
        raise fail(f"--fault key=value, --fund player:CUR:amount: {exc}") from None
    consumer = FeedConsumer(amqp, queue, feed_secret, duplicate=duplicate) if amqp and queue and feed_secret else None

    @contextlib.asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        if consumer is not None:
            await consumer.start()
        try:
            yield
        finally:
            if consumer is not None:
                await consumer.stop()

    app = wallet_app(books, secret, faults, consumer.tally if consumer else None, lifespan=lifespan)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def main() -> None:  # pragma: no cover - ``python -m controller.studio.operators.cli`` before the studio's group exists
    operators_app()


if __name__ == "__main__":  # pragma: no cover
    main()
