"""One studio process: the schema migrated, the book's pool, the wallets, the broker link, the
operators' feed and endpoint, and the players' WebSocket server, started and stopped together
(``croupier studio serve``).

Each operator with a ``wallet_url`` (docs/operators.md) has its HTTP wallet, its wallet log and
its retry worker; the others' players keep their money in the house wallet. With ``[studio] amqp``
the operators' feed is published to each one's queue; the outbox is written either way.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg
from prometheus_client import REGISTRY
from psycopg_pool import AsyncConnectionPool

from controller.metrics import MetricsServer
from controller.studio.api import build_app
from controller.studio.book import owner_key
from controller.studio.config import StudioConfig
from controller.studio.link import TableLink
from controller.studio.migrate import migrate
from controller.studio.operators.api import operator_api
from controller.studio.operators.flagwatch import FlagWatch
from controller.studio.operators.late import LateBalances
from controller.studio.operators.migrate import migrate as migrate_operators
from controller.studio.operators.publisher import FeedPublisher
from controller.studio.operators.retry import RetryPolicy
from controller.studio.operators.routing import OperatorRouter
from controller.studio.operators.tablefeed import TableFeed
from controller.studio.operators.wallets import OperatorWallets
from controller.studio.service import Studio
from controller.studio.wallet import HouseWallet
from controller.web.frames import FrameWebSocket
from controller.web.serving import EmbeddedServer, Limits, embedded_server

#: database connections of the book at most
POOL = 20


class StudioServer:
    def __init__(self, config: StudioConfig, database: str, *, retry: RetryPolicy | None = None) -> None:
        self.config = config
        self.database = database
        self.host = config.studio.host
        self.port = config.studio.port
        # not autocommit: what one ``pool.connection()`` block writes commits together (the
        # operators' outbox and wallet log write a fact and its record in one block)
        self.pool: AsyncConnectionPool[Any] = AsyncConnectionPool(database, min_size=2, max_size=POOL, open=False,
                                                                  timeout=10.0)
        self.house = HouseWallet(self.pool)
        self.operators = config.wallet_operators()
        self.wallets = OperatorWallets(self.operators, self.pool, policy=retry) if self.operators else None
        self.router = OperatorRouter(self.pool, self.wallets.wallets if self.wallets else {}, self.house)
        #: the house wallet: the money of the players of every operator without its own (the tests fund it)
        self.wallet = self.house
        self.studio = Studio(config, self.pool, self.router if self.operators else self.house)
        self.late = LateBalances(self.pool, self.studio.hub.to_player)
        for http_wallet in (self.wallets.wallets.values() if self.wallets else ()):
            http_wallet.answered = self.late.answered
        self.feed = TableFeed(self.pool, {name: t.game for name, t in config.studio.tables.items()})
        self.studio.book.feed = self.studio.settler.feed = self.feed
        self.publisher = FeedPublisher(self.pool, config.studio.amqp, self.operators) \
            if config.studio.amqp and self.operators else None
        self.link: TableLink | None = None
        self.flags: FlagWatch | None = None
        if config.mqtt.broker not in ("none", "embedded"):
            self.link = TableLink(config.mqtt.connect_url(), list(config.studio.tables), self.studio.on_betting,
                                  self.studio.on_round, client_id=config.studio.client_id, on_event=self.feed.on_event)
            self.studio.publish = self.link.publish
            if self.operators:
                link = self.link
                self.flags = FlagWatch(self.pool, list(config.studio.tables),
                                       lambda table, alert, retain: link.publish(table, alert, "alert", retain=retain))
                link.handlers["studio_command"] = self.flags.acknowledge  # the pit acknowledges the studio's alerts
        self._server: EmbeddedServer | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self.metrics: MetricsServer | None = None
        #: holds this process's advisory lock (its name, ``client_id``) while it runs: the other
        #: processes sharing the book see it alive (controller/studio/book.py)
        self._alive: psycopg.AsyncConnection[Any] | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}/v1/play"

    def start_feed(self, amqp_url: str) -> None:
        """Publish the operators' feed to ``amqp_url`` from now on (a broker that came up after the
        studio: the outbox kept every event, the publisher sends them all, in order)."""
        if self.publisher is None and self.operators:
            self.publisher = FeedPublisher(self.pool, amqp_url, self.operators)
            self.publisher.start()

    def app(self) -> Any:
        """The players' API, and the operators' endpoint (reconciliation, round detail, snapshots;
        each request signed with the operator's wallet secret) on the same port."""
        extra = operator_api(self.pool, self.operators).routes if self.operators else []
        return build_app(self.studio, extra)

    async def start(self) -> None:
        if self.config.studio.metrics_port is not None:  # first: a port in use fails the start, before any link
            self.metrics = MetricsServer(REGISTRY, self.config.studio.metrics_host, self.config.studio.metrics_port)
        await asyncio.to_thread(migrate, self.database)
        await asyncio.to_thread(migrate_operators, self.database)
        self._alive = await psycopg.AsyncConnection.connect(self.database, autocommit=True)
        cur = await self._alive.execute("SELECT pg_try_advisory_lock(hashtext(%s))",
                                        (owner_key(self.config.studio.client_id),))
        row = await cur.fetchone()
        if not (row and row[0]):
            await self._alive.close()
            raise RuntimeError(f"another studio process runs with client_id {self.config.studio.client_id!r} on "
                               "this book: give each process its own")
        await self.pool.open(wait=True)
        await self.studio.start()
        for background in (self.wallets, self.publisher, self.flags):
            if background is not None:
                background.start()
        s = self.config.studio
        limits = Limits(max_connections=s.max_connections + 16, per_client=s.per_client,
                        ws_max_size=s.message_bytes, concurrency=s.max_connections + 16,
                        connect_rate=max(10.0, s.per_client / 2), connect_burst=float(s.per_client), backlog=256)
        # no permessage-deflate: the players' messages are a few hundred bytes, and compressing each
        # for each connection (a result to 10,000 players is 10,000 compressions) cost more CPU than
        # the rest of sending it; and a push to the table writes one frame to every player's socket
        # (controller/web/frames.py, controller/studio/hub.py)
        self._server = embedded_server(self.app(), limits=limits, host=self.host, port=self.port, ws_ping_interval=20,
                                       ws_per_message_deflate=False, ws=FrameWebSocket)
        web = asyncio.create_task(self._server.serve(), name="studio web")
        self._tasks = [web]
        if self.link is not None:
            self._tasks.append(asyncio.create_task(self.link.run(), name="studio link"))
        while not self._server.started:
            if web.done():
                web.result()
                raise RuntimeError(f"the studio could not listen on {self.host}:{self.port}")
            await asyncio.sleep(0.02)
        if self.port == 0:
            self.port = int(self._server.servers[0].sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        for task in self._tasks[1:]:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), 5.0)
        await self.studio.close()
        for background in (self.flags, self.publisher):
            if background is not None:
                await background.stop()
        await self.router.close()
        if self.wallets is not None:
            await self.wallets.close()
        await self.pool.close()
        if self.metrics is not None:
            self.metrics.close()
            self.metrics = None
        if self._alive is not None:
            await self._alive.close()

    async def __aenter__(self) -> StudioServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
