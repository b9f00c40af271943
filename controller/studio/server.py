"""One studio process: the schema migrated, the book's pool, the wallet, the broker link and the
players' WebSocket server, started and stopped together (``croupier studio serve``)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from controller.studio.api import build_app
from controller.studio.book import owner_key
from controller.studio.config import StudioConfig
from controller.studio.link import TableLink
from controller.studio.migrate import migrate
from controller.studio.service import Studio
from controller.studio.wallet import HouseWallet
from controller.web.serving import EmbeddedServer, Limits, embedded_server

#: database connections of the book at most
POOL = 20


class StudioServer:
    def __init__(self, config: StudioConfig, database: str) -> None:
        self.config = config
        self.database = database
        self.host = config.studio.host
        self.port = config.studio.port
        # autocommit: a lone statement is one round trip, not three (BEGIN, it, COMMIT); what must
        # be atomic is in an explicit ``transaction()``
        self.pool: AsyncConnectionPool[Any] = AsyncConnectionPool(database, min_size=2, max_size=POOL, open=False,
                                                                  timeout=10.0, kwargs={"autocommit": True})
        self.wallet = HouseWallet(self.pool)
        self.studio = Studio(config, self.pool, self.wallet)
        self.link: TableLink | None = None
        if config.mqtt.broker not in ("none", "embedded"):
            self.link = TableLink(config.mqtt.connect_url(), list(config.studio.tables), self.studio.on_betting,
                                  self.studio.on_round, client_id=config.studio.client_id)
            self.studio.publish = self.link.publish
        self._server: EmbeddedServer | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        #: holds this process's advisory lock (its name, ``client_id``) while it runs: the other
        #: processes sharing the book see it alive (controller/studio/book.py)
        self._alive: psycopg.AsyncConnection[Any] | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}/v1/play"

    async def start(self) -> None:
        await asyncio.to_thread(migrate, self.database)
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
        s = self.config.studio
        limits = Limits(max_connections=s.max_connections + 16, per_client=s.per_client,
                        ws_max_size=s.message_bytes, concurrency=s.max_connections + 16,
                        connect_rate=max(10.0, s.per_client / 2), connect_burst=float(s.per_client), backlog=256)
        self._server = embedded_server(build_app(self.studio), limits=limits, host=self.host, port=self.port,
                                       ws_ping_interval=20)
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
        await self.pool.close()
        if self._alive is not None:
            await self._alive.close()

    async def __aenter__(self) -> StudioServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
