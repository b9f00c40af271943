"""The dealer's touch console: a web page served by the table process itself (docs/console.md).

Starlette under uvicorn, in the table's own asyncio loop; the page is static HTML/CSS/JS with
live updates over a WebSocket. Start it beside a running ``TableLoop``::

    server = await start_console(loop, config, accounts, host="127.0.0.1", port=0)
    print(server.url)          # http://127.0.0.1:41234/
    ...
    await server.close()

``start_console(loop, config, accounts, *, host=None, port=None, simulator=None, clock=None)``:

* ``loop``: the table's ``TableLoop`` (its ``core`` is the ``TableCore`` shown; commands go
  through ``loop.command`` / ``loop.submit`` with source ``console:<user>``);
* ``config``: the ``TableConfig`` (currency, journal for recall, ``[console]`` host and port
  when ``host`` / ``port`` are not given; port 0 takes any free port);
* ``accounts``: ``controller.auth.Accounts`` (``accounts_from_config(config.accounts)``);
* ``simulator``: a ``ShoeFirmware`` for the simulator panel of ``croupier demo --manual``;
* ``clock``: the time source of the devices' "last seen" (default the loop's clock).

The returned ``ConsoleServer`` has ``url``, ``hub`` (the ``ConsoleHub``) and ``close()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any, TextIO

from controller.auth import Accounts, accounts_from_config
from controller.config import TableConfig
from controller.console.hub import ConsoleHub
from controller.console.simulator import ShoePanel
from controller.console.web import console_app
from controller.runtime.loop import TableLoop
from controller.table import registry
from controller.web.serving import DEFAULT_LIMITS, EmbeddedServer, Limits, embedded_server

__all__ = ["ConsoleServer", "serve_console", "start_console"]
log = logging.getLogger(__name__)


class ConsoleServer:
    def __init__(self, server: EmbeddedServer, task: asyncio.Task[None], hub: ConsoleHub, url: str) -> None:
        self._server = server
        self._task = task
        self.hub = hub
        self.url = url

    async def close(self) -> None:
        """Close the pages' sockets and stop listening (idempotent)."""
        self._server.should_exit = True
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._task), 5.0)
        if not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.hub.close()


async def start_console(loop: TableLoop, config: TableConfig, accounts: Accounts, *, host: str | None = None,
                        port: int | None = None, simulator: Any = None,
                        clock: Callable[[], float] | None = None, limits: Limits = DEFAULT_LIMITS) -> ConsoleServer:
    """Serve the console of ``loop``'s table; returns once it accepts connections (over TLS
    when ``[console] tls_cert`` and ``tls_key`` are set)."""
    host = host if host is not None else config.console.host
    port = port if port is not None else config.console.port
    hub = ConsoleHub(loop, currency=config.table.currency, digits=config.table.currency_digits,
                     time_zone=config.table.time_zone,
                     clock=clock or asyncio.get_running_loop().time)
    panel = ShoePanel(simulator) if simulator is not None else None
    if panel is not None:
        hub.extras["simulator"] = panel.status
    hub.extras.update(loop.core.adapter.view.console_extras(loop))
    app = console_app(hub, accounts, config.journal_path, panel, assets=registry.game(config.table.game).assets)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"console: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    tls_cert, tls_key = config.console.tls_cert, config.console.tls_key
    # permessage-deflate stays on: measured without it (bench/console_latency.py, docs/console.md),
    # a snapshot's way from the socket into the page had a p99 four to six times longer
    server = embedded_server(app, limits=limits, tls_cert=tls_cert, tls_key=tls_key)
    task = asyncio.create_task(server.serve(sockets=[sock]), name="console")
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("the console server stopped while starting")
        await asyncio.sleep(0.01)
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if tls_cert and tls_key else "http"
    return ConsoleServer(server, task, hub, f"{scheme}://{shown}:{bound}/")


async def serve_console(config: TableConfig, loop: TableLoop, stack: contextlib.AsyncExitStack, out: TextIO,
                        simulator: Any = None) -> ConsoleServer:
    """The console as ``[console]`` configures it, closed with ``stack``; prints its URL."""
    if not config.accounts:
        out.write("console: no [accounts.<name>] in the config: nobody can sign in\n")
    server = await start_console(loop, config, accounts_from_config(config.accounts), simulator=simulator)
    stack.push_async_callback(server.close)
    out.write(f"console {config.table.id}: {server.url}\n")
    out.flush()
    return server
