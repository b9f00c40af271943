"""A persistent subscriber that acknowledges by hand: for a reader that must lose nothing and
store nothing twice (the back office, docs/backoffice.md).

The session is persistent (a stable client id, ``clean_session=False``, QoS 1 by default): the
broker keeps what arrives while the reader is away. A message is acknowledged only when the
reader says so (``ack``), **after** it committed what the message gave, so a reader killed in
between gets the message again on its next connection.

paho acknowledges a QoS 1 message as soon as its callback returns unless told otherwise, so
the manual mode is set on the client before it connects: a session resumed with messages
waiting delivers them right after CONNACK. MQTT wants acknowledgements in the order the messages
came; an acknowledgement is only valid on the connection the message came on (``ack`` of an
earlier connection's message does nothing: the broker sends it again, the reader's keys dedupe).

Messages are handed to ``on_message`` inside paho's callback (aiomqtt's ``queue_type`` hook), so
nothing waits in a client-owned queue. The reader may end a connection (``restart``: too much
held in memory, say) and may give a ``watch`` coroutine per connection that ends it when it
returns; the broker then redelivers whatever was not acknowledged. The connection cycle is the
shared ``drivers.link.LinkRunner``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import aiomqtt

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.link import LinkRunner
from drivers.mqtt.link import drain, session_client
from drivers.mqtt.tls import tls_context
from drivers.mqtt.url import BrokerUrl
from drivers.reconnect import Backoff

log = logging.getLogger(__name__)


class PersistentSubscriber:
    """Subscribe ``filters`` on a persistent session; ``on_message(message)`` for each message,
    ``ack(connection, mid, qos)`` once it is committed. Run with ``run()`` (until cancelled)."""

    def __init__(
        self,
        url: str | BrokerUrl,
        client_id: str,
        filters: tuple[str, ...],
        on_message: Callable[[aiomqtt.Message], None],
        *,
        qos: int = 1,
        keepalive: int = 10,
        backoff_min: float = 0.05,
        backoff_max: float = 5.0,
        clock: Clock = SYSTEM_CLOCK,
        watch: Callable[[], Coroutine[Any, Any, str]] | None = None,
        label: str | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        """``label`` names the reader in logs; ``logger`` takes them (and the MQTT client's) instead
        of this module's (a soak that stops the broker on purpose keeps them quiet)."""
        self.url = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
        self._tls = tls_context(self.url)  # an unreadable CA or certificate fails here, not in the loop
        self.client_id = client_id
        self.filters = filters
        self.qos = qos
        self._on_message = on_message
        self._keepalive = keepalive
        self._watch = watch
        self.label = label or client_id
        self._log = logger or log
        self.runner = LinkRunner(self.label, self._attempt, backoff=Backoff(backoff_min, backoff_max),
                                 clock=clock, errors=(aiomqtt.MqttError,), delay=self._failed)
        self._client: aiomqtt.Client | None = None
        #: the number of the connection being made or in use (a message's ack is only valid on it)
        self.connection = 0
        self.connections = 0  # successful connections so far
        self.connected = asyncio.Event()
        self._restart: asyncio.Event = asyncio.Event()
        self._restart_reason = ""
        self._chosen = False  # the reader ended the last connection (``restart`` or ``watch``)
        #: called at the start of each attempt (the reader resets what it counts per connection)
        self.on_attempt: list[Callable[[int], None]] = []
        #: called once connected and subscribed
        self.on_up: list[Callable[[], None]] = []
        #: called when a connection ends (or an attempt fails), with why
        self.on_down: list[Callable[[str], None]] = []

    # -- the reader's side
    def ack(self, connection: int, mid: int, qos: int) -> bool:
        """Acknowledge message ``mid`` (QoS ``qos``) that came on ``connection``; False when that
        connection is gone (the broker sends the message again) or QoS 0 needs none."""
        client = self._client
        if client is None or connection != self.connection or qos == 0:
            return False
        client._client.ack(mid, qos)  # aiomqtt has no public manual ack; paho's is this
        return True

    def restart(self, reason: str) -> None:
        """End this connection and make a new one; what was not acknowledged comes again."""
        if not self._restart.is_set():
            self._restart_reason = reason
            self._restart.set()

    async def run(self) -> None:
        await self.runner.run()

    async def wait_connected(self) -> None:
        await self.connected.wait()

    # -- one connection
    def _new_client(self) -> aiomqtt.Client:
        client = session_client(self.url, self._tls, self.client_id, self._on_message, keepalive=self._keepalive,
                                logger=self._log)
        client._client.manual_ack_set(True)  # before CONNECT: a resumed session delivers at once
        return client

    async def _attempt(self, up: Callable[[], None]) -> str:
        self.connection += 1
        self._restart.clear()
        self._chosen = False
        for callback in self.on_attempt:
            callback(self.connection)
        client = self._client = self._new_client()  # messages may come (and be acknowledged) at CONNACK
        try:
            async with client:
                self.connections += 1
                up()
                await client.subscribe([(f, self.qos) for f in self.filters])
                self.connected.set()
                for hook in self.on_up:
                    hook()
                self._log.info("%s: connected to %s as %s", self.label, self.url.redacted(), self.client_id)
                return await self._serve(client)
        finally:
            self._client = None
            self.connected.clear()

    async def _serve(self, client: aiomqtt.Client) -> str:
        """Until the broker goes (its ``MqttError`` is raised), the reader restarts the
        connection, or the watch ends it; why it ended."""
        messages = asyncio.create_task(drain(client))
        restart = asyncio.create_task(self._restart.wait())
        waits: set[asyncio.Task[Any]] = {messages, restart}
        watch: asyncio.Task[str] | None = None
        if self._watch is not None:
            watch = asyncio.create_task(self._watch())
            waits.add(watch)
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()
        if self._restart.is_set():
            self._chosen = True
            return self._restart_reason
        if watch is not None and watch.done() and not watch.cancelled():
            self._chosen = True
            return watch.result()
        messages.result()  # the disconnect's MqttError, if any
        return "disconnected"

    def _failed(self, reason: str) -> float:
        """The connection ended (or never came): tell the reader, log, and the wait."""
        delay = self.runner.reconnect.failed(reason)
        for callback in self.on_down:
            callback(reason)
        if not self._chosen:  # the reader's own restarts were logged where it chose them
            self._log.warning("%s: broker %s: %s; retrying in %.1f s", self.label, self.url.redacted(), reason, delay)
        return delay

