"""``croupier studio``: serve the remote players (docs/studio.md)."""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path
from typing import Annotated

import typer

from controller.studio.config import StudioConfig, StudioConfigError, load

studio_app = typer.Typer(no_args_is_help=True, help="The studio remote players bet through (docs/studio.md).")
ConfigOption = Annotated[Path, typer.Option(help="TOML with \\[studio] and \\[mqtt]")]
DatabaseOption = Annotated[str | None, typer.Option(
    help="postgresql://user@host/db (else \\[studio] database or $CROUPIER_STUDIO_DATABASE_URL)")]


def _config(path: Path, database: str | None) -> tuple[StudioConfig, str]:
    try:
        cfg = load(path)
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


def register(app: typer.Typer) -> None:
    app.add_typer(studio_app, name="studio")
