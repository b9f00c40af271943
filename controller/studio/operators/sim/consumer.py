"""The reference operator's feed consumer: reads its durable queue, checks each message's MAC,
drops a message it already holds by ``(table, seq)`` and reports every gap in a table's sequence.
Given the operator's books (``SimStore``), its position per table is kept there, so a consumer
started again goes on from where it stopped instead of counting the whole stream before as a gap.
With ``duplicate`` it sends each message back once after taking it (a redelivery), to show that
the dedup holds."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

import aio_pika
import aio_pika.exceptions
from aio_pika.abc import AbstractIncomingMessage

from controller.studio.operators import feedmsg
from controller.studio.operators.sim.store import SimStore


@dataclass
class FeedTally:
    """What the consumer saw: per table the sequence taken, duplicates, gaps and bad MACs."""

    last: dict[str, int] = field(default_factory=dict)
    taken: dict[str, list[int]] = field(default_factory=dict)
    duplicates: int = 0
    gaps: list[tuple[str, int, int]] = field(default_factory=list)  # (table, expected, got)
    bad_mac: int = 0
    unreadable: int = 0
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def from_snapshot(self, snapshot: dict[str, Any]) -> None:
        """Hold a table's snapshot: the stream is read from its ``seq + 1`` on."""
        self.last[str(snapshot["table"])] = int(snapshot["seq"])

    def take(self, message: dict[str, Any]) -> None:
        table, seq = str(message["table"]), int(message["seq"])
        last = self.last.get(table, 0)
        if seq <= last:
            self.duplicates += 1
            return
        if seq != last + 1:
            self.gaps.append((table, last + 1, seq))
        self.last[table] = seq
        self.taken.setdefault(table, []).append(seq)


class FeedConsumer:
    def __init__(self, url: str, queue: str, feed_secret: bytes, *, duplicate: bool = False,
                 tally: FeedTally | None = None, store: SimStore | None = None) -> None:
        self.url = url
        self.queue = queue
        self.secret = feed_secret
        self.duplicate = duplicate
        self.tally = tally or FeedTally()
        self.store = store
        self._connection: aio_pika.abc.AbstractConnection | None = None
        self._lost = asyncio.Event()
        self._keeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Consume from now on (a first connection that fails is the caller's error); a broker that
        goes away is connected to again until ``stop``. Its own loop, not aio-pika's robust
        connection: that one's channel restore can fail on a restarted broker and consume nothing."""
        if self.store is not None:
            self.tally.last.update(self.store.feed_positions())
        await self._open()
        self._keeper = asyncio.create_task(self._keep(), name=f"feed consumer {self.queue}")

    async def stop(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
            self._keeper = None
        await self._close()

    async def _open(self) -> None:
        lost = asyncio.Event()
        connection = await aio_pika.connect(self.url)
        connection.close_callbacks.add(lambda *_: lost.set())
        try:
            channel = await connection.channel()
            channel.close_callbacks.add(lambda *_: lost.set())
            await channel.set_qos(prefetch_count=1)  # one at a time: in order, even across a redelivery
            queue = await channel.declare_queue(self.queue, durable=True, auto_delete=False)
            await queue.consume(self._on_message)
        except BaseException:
            await connection.close()
            raise
        self._connection, self._lost = connection, lost

    async def _close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(*aio_pika.exceptions.CONNECTION_EXCEPTIONS, TimeoutError):
                await connection.close()

    async def _keep(self) -> None:
        """Wait for the connection or channel to close; connect again (every 0.5 s until it works).
        The unacknowledged message is delivered again: dropped by ``(table, seq)`` if taken."""
        while True:
            await self._lost.wait()
            await self._close()
            while True:
                try:
                    await self._open()
                    break
                except (*aio_pika.exceptions.CONNECTION_EXCEPTIONS, TimeoutError):
                    await asyncio.sleep(0.5)

    async def _on_message(self, incoming: AbstractIncomingMessage) -> None:
        try:
            message = json.loads(incoming.body)
            feedmsg.FeedMessage.model_validate(message)  # the published schema (docs/schemas/operator-feed.json)
        except ValueError:  # not JSON, or not a feed message (pydantic's ValidationError is a ValueError)
            self.tally.unreadable += 1
            await incoming.reject(requeue=False)
            return
        if not feedmsg.verify(self.secret, message):
            self.tally.bad_mac += 1
            await incoming.reject(requeue=False)
            return
        self.tally.take(message)
        if self.store is not None:
            table = str(message["table"])
            self.store.keep_position(table, self.tally.last[table])
        self.tally.arrived.set()
        if self.duplicate and not incoming.redelivered:
            await incoming.reject(requeue=True)  # taken, and delivered again
        else:
            await incoming.ack()
