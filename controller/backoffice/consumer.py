"""``croupier backoffice``: every table's feed into PostgreSQL, losing nothing and counting
nothing twice (docs/backoffice.md).

The session is persistent (stable client id, ``clean_session=False``, QoS 1), and the broker's
acknowledgement is sent by hand, **after** the rows a message gave are committed. So:

- killed (``kill -9``) before a commit: the broker still holds the message and sends it again
  on the next connection;
- killed between commit and acknowledgement: it comes again, and the idempotent keys of
  ``store`` make the second insert a no-op;
- the database away: nothing is acknowledged, the broker stops sending once its in-flight
  window is full and queues the rest in the session, and the batch is retried until the
  database is back;
- a message that cannot be read, or whose reading fails in any way (``parsed``), is committed
  as a ``rejected`` row and acknowledged like any other: it never keeps a slot of the broker's
  in-flight window.

paho acknowledges a QoS 1 message as soon as its callback returns unless told otherwise, so
the manual mode is set on the client before it connects: a session resumed with messages
waiting delivers them right after CONNACK. Acknowledgements go out in the order the messages
came, as MQTT requires. What is held in memory is bounded by ``queue_limit``: past it the
link is dropped and made again, and the broker redelivers what was not acknowledged.

A safeguard after a backlog (the database away, or a large batch drained): a bench run with a
long outage once ended with the feed's last in-flight window neither stored nor dropped by the
broker, most likely still held unsent in the session (docs/backoffice.md). So once such a
connection has been quiet for ``resync_idle`` seconds with nothing left to write, the link is
made again, and the broker resends whatever it still counts in flight; a redelivery that was
already stored is a no-op.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiomqtt
from psycopg_pool import AsyncConnectionPool

from controller.backoffice import records, store
from controller.backoffice.metrics import BackofficeMetrics
from controller.backoffice.provenance import Trust
from drivers.link import retry
from drivers.mqtt.subscriber import PersistentSubscriber
from drivers.mqtt.url import BrokerUrl
from drivers.reconnect import Backoff

log = logging.getLogger(__name__)

FILTERS = tuple(f"croupier/+/{leaf}" for leaf in records.LEAVES)
#: a batch this large means the broker had a backlog for this connection (a restart's catch-up)
BACKLOG_BATCH = 100


@dataclass(frozen=True, slots=True)
class Delivery:
    """One message as received: the connection it came on (its ack is only valid there), its
    packet id, and the rows it gives."""

    connection: int
    mid: int
    qos: int
    retain: bool
    rows: list[records.Row]


def published(row: records.Row) -> datetime | None:
    if isinstance(row, records.RoundRow):
        ts = row.raw.get("ts")
        return records.parse_timestamp(ts) if isinstance(ts, str) else row.closed
    if isinstance(row, records.AlertRow):
        return row.ts
    if isinstance(row, records.HeadRow):
        return row.head.ts
    if isinstance(row, records.DealerRow | records.CommandRow | records.TableRow):
        return row.ts
    return None


def parsed(topic: str, payload: bytes) -> list[records.Row]:
    """``records.parse``, and whatever it still raises kept as rejected with its reason: one
    message must never stop the stream (it is committed as rejected and acknowledged)."""
    try:
        return records.parse(topic, payload)
    except Exception as exc:  # a defect in parsing: keep the message, name the defect, go on
        log.exception("backoffice: a message on %s could not be parsed; kept as rejected", topic)
        return [records.Rejected(topic, payload[:4096], f"unreadable ({type(exc).__name__}): {str(exc)[:200]}")]


class Consumer:
    def __init__(self, broker: str | BrokerUrl, database: str, *, client_id: str = "croupier-backoffice",
                 batch_max: int = 500, queue_limit: int = 10_000, metrics: BackofficeMetrics | None = None,
                 keepalive: int = 10, backoff_max: float = 5.0, wall: Callable[[], float] = time.time,
                 resync_idle: float = 10.0, trust: Mapping[str, Trust] | None = None) -> None:
        #: the persistent session, acknowledged by hand (drivers/mqtt/subscriber.py)
        self._subscriber = PersistentSubscriber(broker, client_id, FILTERS, self._route, keepalive=keepalive,
                                                backoff_max=backoff_max, watch=self._until_relink,
                                                label="backoffice")
        self._subscriber.on_attempt.append(self._attempting)
        self._subscriber.on_up.append(lambda: self.metrics.broker_up.set(1))
        self._subscriber.on_down.append(self._down)
        self.url = self._subscriber.url
        self.database = database
        #: table -> what is configured of it (its journal key: a corrected version must carry valid MACs)
        self.trust = dict(trust or {})
        self.client_id = client_id
        self.batch_max = batch_max
        self.queue_limit = queue_limit
        self.metrics = metrics or BackofficeMetrics()
        self._backoff_max = backoff_max
        self._wall = wall
        self._queue: asyncio.Queue[Delivery] = asyncio.Queue()
        self._overflow = asyncio.Event()
        self.committed = 0  # messages whose rows are committed (and acknowledged, where the link allowed)
        self._progress = asyncio.Condition()
        self._resync_idle = resync_idle
        self._last_arrival = 0.0  # time.monotonic() of the last message routed
        self._arrived = 0  # messages routed on this connection
        self._behind = False  # this connection had a backlog: the database away or a large batch
        self._writing = False  # the writer holds a batch not yet acknowledged
        self.resyncs = 0  # links made again because the feed went quiet after a backlog

    # -- running -------------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Until ``stop`` is set (or cancelled): the link and the writer side by side."""
        stop = stop or asyncio.Event()
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(self.database, min_size=1, max_size=2, open=False,
                                                              timeout=5.0, reconnect_timeout=0)
        await pool.open(wait=False)
        try:
            async with asyncio.TaskGroup() as tasks:
                link = tasks.create_task(self._link())
                writer = tasks.create_task(self._writer(pool))
                await stop.wait()
                link.cancel()
                writer.cancel()
        finally:
            await pool.close()

    async def wait_connected(self) -> None:
        await self._subscriber.wait_connected()

    async def wait_committed(self, count: int) -> None:
        """Until at least ``count`` messages have been committed since start."""
        async with self._progress:
            await self._progress.wait_for(lambda: self.committed >= count)

    # -- the broker side -------------------------------------------------------------------------
    async def _link(self) -> None:
        await self._subscriber.run()

    @property
    def _connection(self) -> int:
        """The number of the broker connection in use: a message's ack is only valid on it."""
        return self._subscriber.connection

    @property
    def connections(self) -> int:
        """Successful connections to the broker so far."""
        return self._subscriber.connections

    def _attempting(self, connection: int) -> None:
        self._arrived, self._behind = 0, False

    def _down(self, reason: str) -> None:
        self._overflow.clear()
        self.metrics.broker_up.set(0)

    async def _until_relink(self) -> str:
        """Watches each connection (the subscriber makes the link again when this returns): the
        queue over its limit, or the feed quiet after a backlog."""
        overflow = asyncio.create_task(self._overflow.wait())
        quiet = asyncio.create_task(self._quiet_after_backlog())
        try:
            await asyncio.wait((overflow, quiet), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (overflow, quiet):
                task.cancel()
        if self._overflow.is_set():
            log.warning("backoffice: %d messages waiting; reconnecting so the broker holds the rest",
                        self._queue.qsize())
            return "queue limit reached"
        self.resyncs += 1
        log.info("backoffice: feed quiet after a backlog; reconnecting so the broker resends "
                 "what it still holds in flight")
        return "quiet after a backlog"

    async def _quiet_after_backlog(self) -> None:
        """Returns once this connection, after a backlog, has had no message for ``resync_idle``
        seconds and nothing is left to write or acknowledge."""
        while True:
            await asyncio.sleep(self._resync_idle / 4)
            if (self._behind and self._arrived and not self._writing and self._queue.empty()
                    and time.monotonic() - self._last_arrival >= self._resync_idle):
                return

    def _route(self, message: aiomqtt.Message) -> None:
        if self._overflow.is_set():
            return  # unacknowledged: the broker sends it again after the reconnect
        if self._queue.qsize() >= self.queue_limit:
            self._overflow.set()
            return
        self._arrived += 1
        self._last_arrival = time.monotonic()
        payload = message.payload if isinstance(message.payload, bytes) else str(message.payload or "").encode()
        topic = str(message.topic)
        where = records.table_of(topic)
        self.metrics.messages.labels(where[1] if where else "other").inc()
        rows = parsed(topic, payload)
        self._queue.put_nowait(Delivery(self._connection, message.mid, int(message.qos), bool(message.retain), rows))
        self.metrics.queued.set(self._queue.qsize())

    def _ack(self, deliveries: list[Delivery]) -> None:
        for d in deliveries:
            self._subscriber.ack(d.connection, d.mid, d.qos)
            # on a connection that is gone this does nothing; the broker redelivers and the keys dedupe

    # -- the database side -----------------------------------------------------------------------
    async def _writer(self, pool: AsyncConnectionPool[Any]) -> None:
        while True:
            batch = [await self._queue.get()]
            self._writing = True
            while len(batch) < self.batch_max and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            if len(batch) >= BACKLOG_BATCH:
                self._behind = True
            rows = [row for d in batch for row in d.rows]
            written = await self._commit(pool, rows)
            now = self._wall()
            self._ack(batch)
            self._writing = False
            self._count(batch, rows, written, now)

    async def _commit(self, pool: AsyncConnectionPool[Any], rows: list[records.Row]) -> store.Written:
        """``store.write``, tried again (on the one link loop) until the database takes it."""
        down = False

        def unavailable(exc: BaseException) -> None:
            nonlocal down
            self._behind = True
            self.metrics.database_up.set(0)
            self.metrics.database_errors.inc()
            if not down:
                log.warning("backoffice: database unavailable (%s); holding %d messages in the broker's session",
                            exc, self._queue.qsize() + 1)
                down = True

        refused = await retry("backoffice database", lambda: store.write(pool, rows, self.trust), errors=(store.DatabaseDown,),
                              backoff=Backoff(0.1, max(self._backoff_max, 0.1)), on_failure=unavailable)
        self.metrics.database_up.set(1)
        if down:
            log.warning("backoffice: database back; catching up")
        return refused

    def _count(self, batch: list[Delivery], rows: list[records.Row], written: store.Written, now: float) -> None:
        m = self.metrics
        m.batches.inc()
        for row in rows:
            m.rows.labels(type(row).__name__.removesuffix("Row").lower()).inc()
        m.rejected.inc(written.rejected)
        for code, n in written.alerts.items():
            m.intake_alerts.labels(code).inc(n)
            log.warning("backoffice: %d intake alert(s) %s (see the intake_alerts table)", n, code)
        for d in batch:
            if d.retain:
                continue  # a retained message is as old as its table's last change
            for row in d.rows:
                ts = published(row)
                if ts is not None:
                    lag = max(0.0, now - ts.timestamp())
                    m.lag.observe(lag)
                    m.last_lag.set(lag)
                    break
        m.queued.set(self._queue.qsize())
        self.committed += len(batch)
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self._progress:
            self._progress.notify_all()
