"""The studio's link to its tables over their MQTT broker, under its own account.

It reads ``croupier/<table>/betting`` (retained) and ``croupier/<table>/round`` of each table it
serves, in a persistent session (QoS 1, a stable client id: records published while the studio
was away are delivered when it is back), one worker per table so a slow settlement of one table
never delays another's seal; and publishes the seal and settled messages on ``.../studio``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiomqtt
import psycopg
from psycopg_pool import PoolTimeout

from controller.jsonbound import InputRefused, check_json
from drivers.mqtt.link import TCP_NODELAY
from drivers.mqtt.tls import tls_context
from drivers.mqtt.url import BrokerUrl

log = logging.getLogger(__name__)
Handler = Callable[[str, Any], Awaitable[None]]
#: a round record at most (a big blackjack round with corrections stays far below)
MAX_RECORD_BYTES = 256 * 1024
MAX_RECORD_DEPTH = 8
#: messages waiting per table at most before the link reconnects and lets the broker hold the rest
QUEUE = 1000


class TableLink:
    def __init__(self, url: str, tables: list[str], on_betting: Handler, on_round: Handler,
                 client_id: str = "croupier-studio", on_event: Handler | None = None) -> None:
        self.url = BrokerUrl.parse(url)
        self.tables = tables
        self.handlers = {"betting": on_betting, "round": on_round}
        if on_event is not None:  # the table's journal stream: cards and numbers as dealt, for the operators' feed
            self.handlers["event"] = on_event
        self.client_id = client_id
        self._tls = tls_context(self.url)
        self._client: aiomqtt.Client | None = None
        self._queues: dict[str, asyncio.Queue[tuple[str, Any]]] = {t: asyncio.Queue(QUEUE) for t in tables}
        self.connected = asyncio.Event()

    async def publish(self, table: str, message: dict[str, Any], leaf: str = "studio", retain: bool = False) -> None:
        """QoS 1, not retained, on ``croupier/<table>/studio``; a message lost with the broker away
        is logged (the table closes without the seal after its grace and returns the bets). The
        studio's retained ``alert`` of a table (flagged wallet movements) goes the same way."""
        client = self._client
        if client is None:
            log.warning("studio: broker away; %s of %s not sent", message.get("type"), message.get("round"))
            return
        try:
            await client.publish(f"croupier/{table}/{leaf}", json.dumps(message, separators=(",", ":")), qos=1,
                                 retain=retain)
        except aiomqtt.MqttError as exc:
            log.warning("studio: %s of %s not sent: %s", message.get("type"), message.get("round"), exc)

    async def run(self) -> None:
        workers = [asyncio.create_task(self._work(t), name=f"studio-{t}") for t in self.tables]
        try:
            await self._link()
        finally:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)

    async def _link(self) -> None:
        delay = 0.05
        while True:
            try:
                async with aiomqtt.Client(
                        self.url.host, self.url.port, transport=self.url.transport, username=self.url.username,
                        password=self.url.password, identifier=self.client_id, clean_session=False,
                        tls_context=self._tls, socket_options=TCP_NODELAY if self.url.transport == "tcp" else (),
                ) as client:
                    await client.subscribe([(f"croupier/{t}/{leaf}", 1) for t in self.tables
                                            for leaf in self.handlers])
                    self._client = client
                    self.connected.set()
                    delay = 0.05
                    log.info("studio: connected to %s", self.url.redacted())
                    async for message in client.messages:
                        self._route(str(message.topic), message.payload)
            except aiomqtt.MqttError as exc:
                log.warning("studio: broker %s: %s; retrying in %.1f s", self.url.redacted(), exc, delay)
            finally:
                self._client = None
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _route(self, topic: str, payload: Any) -> None:
        parts = topic.split("/")
        if len(parts) != 3 or parts[1] not in self._queues or parts[2] not in self.handlers:
            return
        raw = payload if isinstance(payload, bytes | str) else b""
        try:
            data = check_json(raw, max_bytes=MAX_RECORD_BYTES, max_depth=MAX_RECORD_DEPTH)
        except InputRefused as exc:
            log.warning("studio: %s refused: %s", topic, exc.message)
            return
        try:
            self._queues[parts[1]].put_nowait((parts[2], data))
        except asyncio.QueueFull:
            log.error("studio: %s: %d messages waiting; dropping the link so the broker keeps the rest", topic, QUEUE)
            raise aiomqtt.MqttError("queue full") from None

    async def _work(self, table: str) -> None:
        """The table's messages in order; one whose handling meets the book out of reach is tried
        again until it goes through (a round record is never dropped for an outage)."""
        queue = self._queues[table]
        while True:
            leaf, data = await queue.get()
            delay = 0.1
            while True:
                try:
                    await self.handlers[leaf](table, data)
                except (psycopg.Error, PoolTimeout, OSError) as exc:
                    log.warning("studio: %s/%s waits for the book: %s; again in %.1f s", table, leaf, exc, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
                    continue
                except Exception:  # a bug in one message's handling must not stop the table's worker
                    log.exception("studio: %s/%s not handled", table, leaf)
                break
