"""uvicorn as both pages run it: inside a loop it does not own, with limits that keep a flood of
connections from taking the descriptors and the loop the table plays on (docs/security.md).

* at most ``max_connections`` open connections, ``per_client`` from one address, and new ones
  from one address at ``connect_rate`` a second (burst ``connect_burst``): one more is closed
  as it is accepted (its descriptor is back at once), so idle sockets cannot pile up
  to the process's ``RLIMIT_NOFILE``; and a small listen backlog, since the loop accepts up to
  that many at one go before it can close any;
* a connection that has not sent a complete request within ``header_timeout`` seconds is
  closed (a silent socket, or a slow-loris trickle of headers);
* idle keep-alive connections close after ``keep_alive`` seconds; WebSocket messages are
  bounded by ``ws_max_size``; request bodies are bounded and timed by ``WebGuard``.
* TLS when a certificate and key are given.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    max_connections: int = 256
    per_client: int = 32
    header_timeout: float = 10.0
    keep_alive: float = 5.0
    ws_max_size: int = 16384
    #: requests and WebSockets served at once; more get 503
    concurrency: int = 200
    #: new connections a second from one address, with a burst: a page opens a handful; a
    #: flood of short requests (a sign-in burst) costs the loop each one it serves
    connect_rate: float = 10.0
    connect_burst: float = 40.0
    #: the listen backlog, and so how many connections the loop accepts at one go before any is
    #: refused: kept far below the descriptor limit (a burst of 2,000 accepted at once is EMFILE)
    backlog: int = 64


DEFAULT_LIMITS = Limits()
#: seconds between two passes over the connections to forget the closed ones
PRUNE_EVERY = 0.05


class _Connections:
    """The open connections by client address (a connection upgraded to a WebSocket keeps its
    transport, so it is counted until that transport closes)."""

    def __init__(self) -> None:
        self.by_client: dict[str, set[asyncio.BaseTransport]] = {}
        #: transports counted, closed ones included until the next prune
        self.total = 0
        self.refused = 0
        self._pruned = -PRUNE_EVERY
        #: client -> [tokens, when last filled]
        self._buckets: dict[str, list[float]] = {}

    def admit(self, transport: asyncio.BaseTransport, limits: Limits) -> bool:
        peer = transport.get_extra_info("peername")
        client = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        mine = self.by_client.setdefault(client, set())
        now = time.monotonic()
        if not self._take(client, now, limits):
            return self._refuse(client, mine)
        if (self.total >= limits.max_connections or len(mine) >= limits.per_client) and now - self._pruned > PRUNE_EVERY:
            self._pruned = now  # only at a limit, and not for every refusal of a flood
            self._prune()
            mine = self.by_client.setdefault(client, set())
        if self.total >= limits.max_connections or len(mine) >= limits.per_client:
            return self._refuse(client, mine)
        mine.add(transport)
        self.total += 1
        return True

    def _take(self, client: str, now: float, limits: Limits) -> bool:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= 10_000:  # bounded, however many addresses
                self._buckets.clear()
            bucket = self._buckets[client] = [limits.connect_burst, now]
        bucket[0] = min(limits.connect_burst, bucket[0] + (now - bucket[1]) * limits.connect_rate)
        bucket[1] = now
        if bucket[0] < 1.0:
            return False
        bucket[0] -= 1.0
        return True

    def _refuse(self, client: str, mine: set[asyncio.BaseTransport]) -> bool:
        self.refused += 1
        if self.refused in (1, 10, 100, 1000) or self.refused % 10000 == 0:  # a flood is not 100k log lines
            log.warning("web: %d connections refused (open %d, from %s %d)", self.refused, self.total, client,
                        len(mine))
        return False

    def _prune(self) -> None:
        """Forget the transports that have closed since (counted until then)."""
        self.total = 0
        for key in list(self.by_client):
            live = {t for t in self.by_client[key] if not t.is_closing()}
            if live:
                self.by_client[key] = live
                self.total += len(live)
            else:
                del self.by_client[key]

    @property
    def open(self) -> int:
        return sum(1 for ts in self.by_client.values() for t in ts if not t.is_closing())


def guarded_protocol(limits: Limits, connections: _Connections) -> type[H11Protocol]:
    """uvicorn's h11 protocol, admitting a connection only under the limits, and closing one
    that sends no complete request in time."""

    class Guarded(H11Protocol):
        _admitted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not connections.admit(transport, limits):
                transport.abort()
                return
            self._admitted = True
            super().connection_made(transport)
            self._header_timer = self.loop.call_later(limits.header_timeout, self._no_request)

        def _no_request(self) -> None:
            if self.cycle is None and not self.transport.is_closing():
                self.transport.abort()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._header_timer.cancel()  # a WebSocket is timed by its pings, not by this
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            timer = getattr(self, "_header_timer", None)
            if timer is not None:
                timer.cancel()
            if self._admitted:
                super().connection_lost(exc)

    return Guarded


class EmbeddedServer(uvicorn.Server):
    """uvicorn in a loop it does not own: the process keeps its own signal handlers."""

    def __init__(self, config: uvicorn.Config, connections: _Connections) -> None:
        super().__init__(config)
        self.connections = connections

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def embedded_server(app: Any, *, limits: Limits = DEFAULT_LIMITS, tls_cert: str | Path | None = None,
                    tls_key: str | Path | None = None, **options: Any) -> EmbeddedServer:
    """A server for ``app`` under ``limits`` (TLS when ``tls_cert`` and ``tls_key`` are given)."""
    connections = _Connections()
    tls: dict[str, Any] = {}
    if tls_cert is not None and tls_key is not None:
        tls = {"ssl_certfile": str(tls_cert), "ssl_keyfile": str(tls_key)}
    options.setdefault("ws", "websockets-sansio")
    config = uvicorn.Config(app, log_level="warning", lifespan="off",
                            http=guarded_protocol(limits, connections), access_log=False,
                            limit_concurrency=limits.concurrency, timeout_keep_alive=int(max(1, limits.keep_alive)),
                            ws_max_size=limits.ws_max_size, ws_max_queue=8, h11_max_incomplete_event_size=16384,
                            backlog=limits.backlog, timeout_graceful_shutdown=1, **tls, **options)
    return EmbeddedServer(config, connections)
