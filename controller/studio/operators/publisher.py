"""The feed's publisher: reads each operator's unpublished events from the outbox, in order per
table, and publishes them as persistent messages to that operator's durable queue (one per
operator, or per operator and game) with publisher confirms; an event counts as published for
that operator only once the broker confirmed it (``op_feed_cursor``). A broker that goes away
mid-stream is reconnected with backoff and the unconfirmed events are sent again: an operator may
see an event twice (it drops it by ``(table, seq)``), never miss one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import Any

import aio_pika
import aio_pika.exceptions
import psycopg
from aio_pika.abc import AbstractChannel, AbstractRobustConnection
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators import alerts, feedmsg, outbox
from controller.studio.operators.background import Background
from controller.studio.operators.feedmsg import FeedEvent
from controller.studio.operators.settings import Operator

log = logging.getLogger("croupier.studio.operators.feed")
#: what a lost broker (aio-pika's connection exceptions, a timeout) or database raises
BROKER_TROUBLE = (*aio_pika.exceptions.CONNECTION_EXCEPTIONS, TimeoutError, psycopg.Error)
BATCH = 200


def queue_name(operator: Operator, game: str) -> str:
    return f"croupier.{operator.id}.{game}" if operator.settings.per_game else f"croupier.{operator.id}"


def amqp_message(operator: Operator, event: FeedEvent, *, replay: bool = False) -> aio_pika.Message:
    body = feedmsg.message(operator.id, operator.feed_secret, event)
    headers: dict[str, Any] = {"table": event.table, "seq": event.seq, "trace": event.trace, "type": event.type}
    if replay:
        headers["replay"] = True
    return aio_pika.Message(json.dumps(body, separators=(",", ":")).encode(), content_type="application/json",
                            delivery_mode=aio_pika.DeliveryMode.PERSISTENT, message_id=f"{event.table}:{event.seq}",
                            correlation_id=event.trace, headers=headers)


class QueueSender:
    """Publishes to an operator's queues on one confirming channel, declaring each queue once."""

    def __init__(self, channel: AbstractChannel) -> None:
        self.channel = channel
        self._declared: set[str] = set()

    async def send(self, operator: Operator, event: FeedEvent, *, replay: bool = False) -> None:
        """Returns once the broker confirmed the message (persisted to the durable queue)."""
        name = queue_name(operator, event.game)
        if name not in self._declared:
            await self.channel.declare_queue(name, durable=True, auto_delete=False)
            self._declared.add(name)
        await self.channel.default_exchange.publish(amqp_message(operator, event, replay=replay), routing_key=name,
                                                    mandatory=True)


async def confirming_channel(url: str) -> tuple[AbstractRobustConnection, AbstractChannel]:
    connection = await aio_pika.connect_robust(url, reconnect_interval=0.5)
    channel = await connection.channel(publisher_confirms=True)
    return connection, channel


class FeedPublisher(Background):
    def __init__(self, pool: AsyncConnectionPool[Any], amqp_url: str, operators: Mapping[str, Operator], *,
                 poll_s: float = 0.2, max_backoff_s: float = 5.0) -> None:
        super().__init__("operator-feed")
        self.pool = pool
        self.url = amqp_url
        self.operators = dict(operators)
        self.poll_s = poll_s
        self.max_backoff_s = max_backoff_s

    async def run(self) -> None:
        failures = 0
        while True:
            try:
                connection, channel = await confirming_channel(self.url)
                try:
                    sender = QueueSender(channel)
                    failures = 0
                    while True:
                        published = sum([await self.publish_operator(sender, op) for op in self.operators.values()])
                        if not published:
                            await self.nap(self.poll_s)
                finally:
                    with contextlib.suppress(Exception):
                        await connection.close()
            except asyncio.CancelledError:
                raise
            except BROKER_TROUBLE as exc:  # the broker or the database went away: reconnect, resend the unconfirmed
                failures += 1
                log.warning("operator feed: broker unavailable (%s: %s); retrying", type(exc).__name__, exc)
                await asyncio.sleep(min(self.max_backoff_s, 0.2 * 2 ** min(failures, 8)))

    async def publish_operator(self, sender: QueueSender, operator: Operator) -> int:
        """Publish the next batch of ``operator``'s unpublished events; returns how many were confirmed."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT c.table_id, coalesce(k.seq, 0), c.last_seq FROM op_feed_counter c LEFT JOIN op_feed_cursor k "
                "ON k.operator = %s AND k.table_id = c.table_id WHERE c.last_seq > coalesce(k.seq, 0)", (operator.id,))
            behind = [(str(t), int(done), int(last)) for t, done, last in await cur.fetchall()
                      if operator.settings.takes(str(t))]
        alerts.FEED_LAG.labels(operator.id).set(sum(last - done for _, done, last in behind))
        total = 0
        for table, done, _ in behind:
            async with self.pool.connection() as conn:
                batch = await outbox.events(conn, table, done, limit=BATCH)
            confirmed = done
            try:
                for event in batch:
                    if event.seq != confirmed + 1:
                        break  # a number not committed yet (a transaction still open): wait for it
                    await sender.send(operator, event)
                    confirmed = event.seq
            finally:
                if confirmed > done:
                    await self._advance(operator.id, table, confirmed)
                    total += confirmed - done
        return total

    async def _advance(self, operator: str, table: str, seq: int) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO op_feed_cursor (operator, table_id, seq) VALUES (%s, %s, %s) ON CONFLICT (operator, table_id) "
                "DO UPDATE SET seq = greatest(op_feed_cursor.seq, excluded.seq)", (operator, table, seq))


async def replay(pool: AsyncConnectionPool[Any], amqp_url: str, operator: Operator, table: str, first: int,
                 last: int | None = None) -> int:
    """Publish ``table``'s events ``first``..``last`` again to ``operator`` (marked ``replay``); returns
    how many. The operator drops those it holds by ``(table, seq)``."""
    connection, channel = await confirming_channel(amqp_url)
    sender, count, after = QueueSender(channel), 0, first - 1
    try:
        while True:
            async with pool.connection() as conn:
                batch = await outbox.events(conn, table, after, last, limit=BATCH)
            if not batch:
                return count
            for event in batch:
                await sender.send(operator, event, replay=True)
                count, after = count + 1, event.seq
    finally:
        await connection.close()
