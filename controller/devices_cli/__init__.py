"""CLI glue for hardware-in-the-loop work: one module per device, each with
``register(listen_app, sim_app)`` adding its ``croupier listen <dev>`` and ``croupier sim <dev>``.
Events print as one line each, or with ``--json`` one JSON object per line with a ``type`` field."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Coroutine
from typing import Any

import typer
from pydantic import BaseModel


def run_until_stopped(main: Coroutine[Any, Any, None]) -> None:
    """``asyncio.run(main)`` until it ends or the process is told to stop: Ctrl-C (SIGINT) or
    SIGTERM (``kill``, ``systemctl stop``, a test runner) cancel it, and the command exits 0
    after its ``finally`` blocks ran (a simulator's pty closed, a link's DISCONNECT sent)."""

    async def guarded() -> None:
        task = asyncio.ensure_future(main)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, task.cancel)
        try:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(guarded())


def print_event(event: BaseModel, as_json: bool) -> None:
    """One device event on stdout: JSON line (``--json``) or a readable line."""
    if as_json:
        typer.echo(event.model_dump_json())
    else:
        fields = event.model_dump(mode="json")
        kind = fields.pop("type", type(event).__name__)
        typer.echo(f"{kind:<16} " + " ".join(f"{k}={v}" for k, v in fields.items()))
