"""``croupier pit``: the pit dashboard as a process of its own (docs/pit.md)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer

from controller.heap import Thresholds, freeze_start
from controller.pit.config import PitConfig, PitConfigError, load

#: the collector's thresholds: the young generations as Python's defaults, a full collection
#: after 100 of the middle one's instead of 10. The floor's snapshots live a few seconds, long
#: enough to reach the oldest generation, and at a thousand tables a full collection (every few
#: seconds by default) stalled the feed 15 to 30 ms; the process makes little cyclic garbage
#: (drivers/mqtt/callbacks.py), so the longer wait costs little memory.
GC_THRESHOLDS: Thresholds = (700, 10, 100)


async def serve(config: PitConfig, broker: str) -> None:
    """Run the dashboard until cancelled, printing its address."""
    from controller.pit.server import PitServer

    store = None
    if config.pit.backoffice is not None:  # the floor's store is the back office's (controller/floor/)
        from controller.backoffice.floor_store import BackofficeFloorStore

        store = BackofficeFloorStore(config.pit.backoffice)
    try:
        async with PitServer(broker, config.make_accounts(), host=config.pit.host, port=config.pit.port,
                             client_id=config.pit.client_id, metrics=config.metrics_at(), history=store,
                             **config.server_options()) as pit:
            freeze_start(GC_THRESHOLDS)  # a full collection then walks the floor's objects only (controller/heap.py)
            typer.echo(f"pit: {pit.url}", err=False)
            if pit.metrics is not None and pit.metrics.server is not None:
                typer.echo(f"metrics: {pit.metrics.server.url}", err=False)
            await asyncio.Event().wait()
    finally:
        if store is not None:
            store.close()


def register(app: typer.Typer) -> None:
    @app.command("pit")
    def pit(
        broker: Annotated[str | None, typer.Option(
            help="the dashboard's own account: mqtts://pit@host:8883?cafile=... (password: CROUPIER_MQTT_PASSWORD)")] = None,
        config: Annotated[Path | None, typer.Option(
            help="TOML with \\[pit], \\[mqtt] and \\[accounts.<name>] (argon2 hashes)")] = None,
        host: Annotated[str | None, typer.Option(help="listen address (default 127.0.0.1)")] = None,
        port: Annotated[int | None, typer.Option(min=0, max=65535, help="listen port (default 8600; 0: any free)")] = None,
        metrics: Annotated[str | None, typer.Option(
            help="serve Prometheus metrics at PORT or HOST:PORT (else as \\[metrics] says)")] = None,
        insecure: Annotated[bool, typer.Option("--insecure", help="allow a plaintext or anonymous broker (lab only)")] = False,
    ) -> None:
        """Serve the pit dashboard: every table on the broker, live, with pit commands."""
        try:
            cfg = load(config) if config is not None else PitConfig()
        except PitConfigError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if host is not None:
            cfg.pit.host = host
        if port is not None:
            cfg.pit.port = port
        try:
            if metrics is not None:
                cfg.serve_metrics(metrics)
            url = cfg.broker_url(broker, insecure)
        except PitConfigError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if not cfg.accounts:
            typer.echo("warning: no [accounts] in the config: nobody can sign in", err=True)
        logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        from controller import stopping

        stopping.run(serve(cfg, url))  # Ctrl-C and SIGTERM alike: the dashboard closes its links
