"""One reconnecting MQTT link per process role (the spots driver, the pit feed), over TLS for
an ``mqtts://`` URL (docs/security.md).

aiomqtt 2 does not reconnect by itself; this is the maintainers' idiom: one long-lived task
(the shared ``drivers.link.LinkRunner``) re-enters the client with capped, jittered backoff,
subscribes again on every entry and owns the outbound queue, so the application never calls
``publish`` on a live socket.

Each connection attempt gets a fresh aiomqtt client with the same client id and
``clean_session=False``: the broker keeps the session (subscriptions, QoS 1 messages queued
while we were away), while paho keeps no hidden copy of unacknowledged publishes. The outbox
is then the only place an unacknowledged message lives, and it is resent in order.

Incoming messages are routed inside paho's ``on_message`` callback (through aiomqtt's
``queue_type`` hook), so nothing sits in a client-owned queue that a dropped connection could
discard after the broker's message was acknowledged.

A session taken over (another client connected under this client id) is told from a broker
blip by its pattern: the broker drops a working link and takes it back at once, again and again
(``drivers.mqtt.alarm.Takeovers``; an MQTT 5 broker's reason 0x8E says it outright).

A broker that cannot be reached is loud (``drivers.reconnect``): a refused port or a broker
that stopped is a WARNING once the outage has lasted ``warn_after`` seconds, a certificate, DNS
or credentials failure and a session taken over at the first attempt; then again every
``warn_every`` seconds while it lasts. ``on_alarm`` callbacks hear the outage once (its reason)
and its end (None), so the table can journal and show it; ``health()`` and ``state`` report it.
After a takeover the link waits longer before each new attempt, so two clients with one id do
not throw each other off forever.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiomqtt
from paho.mqtt.reasoncodes import ReasonCode

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.device import Health
from drivers.link import LinkRunner
from drivers.mqtt.alarm import Takeovers, is_misconfiguration, is_takeover
from drivers.mqtt.callbacks import without_callback_garbage
from drivers.mqtt.outbox import Outbox, Outgoing
from drivers.mqtt.tls import tls_context
from drivers.mqtt.url import BrokerUrl
from drivers.reconnect import MQTT_BACKOFF, Backoff, LinkState, Reconnect

log = logging.getLogger(__name__)

TCP_NODELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)


@dataclass(frozen=True)
class Received:
    topic: str
    payload: bytes
    retain: bool
    qos: int


@dataclass(frozen=True)
class LinkUp:
    """Connected; the subscriptions are being made again and their retained messages follow."""

    attempt: int


@dataclass(frozen=True)
class LinkDown:
    reason: str


LinkItem = Received | LinkUp | LinkDown


#: topics whose match with a subscription's filters is kept (then forgotten all at once)
MATCHES_KEPT = 50_000


class Subscription:
    """Messages matching any of its topic filters, interleaved with the link's up/down
    transitions, in the order they arrived (one queue, so a device's announcement and its
    next press cannot swap). One consumer per subscription."""

    def __init__(self, filters: tuple[str, ...], qos: int, limit: int | None = None) -> None:
        self.filters = filters
        self.qos = qos
        self._wildcards = [aiomqtt.Wildcard(f) for f in filters]
        self._matched: dict[str, bool] = {}
        self._items: asyncio.Queue[LinkItem] = asyncio.Queue()
        #: messages waiting beyond which new ones are dropped (and counted); None: unbounded
        self.limit = limit
        self.dropped = 0

    def matches(self, topic: aiomqtt.Topic) -> bool:
        """Whether ``topic`` matches a filter; each topic's answer is kept (a floor's feed is a few
        thousand topics, and matching them again took a fifth of the pit dashboard's CPU)."""
        name = topic.value
        known = self._matched.get(name)
        if known is None:
            if len(self._matched) >= MATCHES_KEPT:
                self._matched.clear()
            known = self._matched[name] = any(topic.matches(w) for w in self._wildcards)
        return known

    def deliver(self, item: LinkItem) -> None:
        if self.limit is not None and isinstance(item, Received) and self._items.qsize() >= self.limit:
            self.dropped += 1  # the link's own up/down transitions always get through
            return
        self._items.put_nowait(item)

    def __len__(self) -> int:
        """Items waiting to be read."""
        return self._items.qsize()

    async def get(self) -> LinkItem:
        return await self._items.get()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> LinkItem:
        return await self._items.get()


def routing_queue(route: Any) -> type[asyncio.Queue[aiomqtt.Message]]:
    """An aiomqtt ``queue_type`` that hands each message on at once instead of holding it."""

    class RoutingQueue(asyncio.Queue):  # type: ignore[type-arg]
        def put_nowait(self, item: aiomqtt.Message) -> None:
            route(item)

    return RoutingQueue


def session_client(url: BrokerUrl, tls: ssl.SSLContext | None, client_id: str, route: Callable[[aiomqtt.Message], None],
                   *, keepalive: int, **options: Any) -> aiomqtt.Client:
    """A fresh client for one connection of a persistent session (``clean_session=False``) whose
    messages go to ``route`` as they arrive; ``options`` are aiomqtt's (a will, a timeout ...)."""
    return without_callback_garbage(aiomqtt.Client(
        url.host, url.port, transport=url.transport, username=url.username, password=url.password,
        identifier=client_id, clean_session=False, keepalive=keepalive, queue_type=routing_queue(route),
        tls_context=tls,
        # TCP_NODELAY: without it a QoS 1 round trip waits ~40 ms on Nagle; unix sockets have no Nagle.
        socket_options=TCP_NODELAY if url.transport == "tcp" else (), **options))


async def drain(client: aiomqtt.Client) -> None:
    """Messages are routed by the queue hook; this iteration only ends by raising on disconnect."""
    async for _ in client.messages:
        pass


def _is_failure(code: ReasonCode | int) -> bool:
    return code.is_failure if isinstance(code, ReasonCode) else int(code) >= 0x80


class MqttLink:
    """Publish with ``publish()`` (never blocks, QoS 1 by default), read through the
    ``Subscription`` objects from ``subscribe()``, run with ``async with link:``."""

    def __init__(
        self,
        url: str | BrokerUrl,
        client_id: str,
        *,
        will: Outgoing | None = None,
        birth: Outgoing | None = None,
        keepalive: int = 10,
        backoff_min: float = 0.05,
        backoff_max: float = 5.0,
        ack_timeout: float = 10.0,
        outbox_limit: int | None = None,
        clock: Clock = SYSTEM_CLOCK,
        warn_after: float = 3.0,
        warn_every: float = 30.0,
    ) -> None:
        self.url = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
        self._tls = tls_context(self.url)  # an unreadable CA or certificate fails here, not in the loop
        self.client_id = client_id
        self._will = will
        self._birth = birth
        self._keepalive = keepalive
        self.reconnect = Reconnect(Backoff(backoff_min, backoff_max, jitter=MQTT_BACKOFF.jitter), clock,
                                   warn_after=warn_after, warn_every=warn_every)
        #: the connect -> serve -> lost -> back off cycle (the waits are ``_failed``'s)
        self.runner = LinkRunner(client_id, self._attempt, reconnect=self.reconnect, delay=self._failed)
        self._taken = False  # the last attempt ended because another client took the session
        self._ack_timeout = ack_timeout
        self._clock = clock
        self._outbox = Outbox(outbox_limit)
        self._subscriptions: list[Subscription] = []
        self._up = asyncio.Event()
        self._reported_down = False  # a LinkDown goes out once per outage, not per failed attempt
        self.connections = 0  # successful connections so far
        self.last_error = ""
        #: the reason of the outage being reported (warned, told to ``on_alarm``); None: none
        self.alarm: str | None = None
        #: called with the reason when an outage becomes loud, and with None when it ends
        self.on_alarm: list[Callable[[str | None], None]] = []
        self._takeovers = Takeovers(clock)

    # -- application side ------------------------------------------------------------------
    def subscribe(self, *filters: str, qos: int = 1, limit: int | None = None) -> Subscription:
        """Register before ``start``; every connection subscribes again. ``limit`` bounds the
        messages waiting to be read (beyond it new ones are dropped and counted)."""
        if self.runner.running:
            raise RuntimeError("subscribe before the link starts")
        if not filters:
            raise ValueError("at least one topic filter")
        subscription = Subscription(filters, qos, limit)
        self._subscriptions.append(subscription)
        return subscription

    def publish(self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False) -> None:
        """Queue for the broker; goes out now if connected, else in order after reconnect.
        Raises ValueError on a topic no broker would accept, ``OutboxFull`` at the limit."""
        aiomqtt.Topic(topic)  # rejects wildcards and empty topics before they block the outbox
        if qos not in (0, 1, 2):
            raise ValueError(f"qos {qos!r}")
        data = payload.encode() if isinstance(payload, str) else bytes(payload)
        self._outbox.put(Outgoing(topic, data, qos, retain))

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    @property
    def takeovers(self) -> int:
        """Times the broker dropped this session for another client with its client id."""
        return self._takeovers.count

    @property
    def state(self) -> LinkState:
        return self.reconnect.state

    def health(self) -> Health:
        """Online while connected; the outage's reason as the fault once it is loud."""
        return Health(online=self.connected, fault=None if self.connected else self.alarm)

    @property
    def pending(self) -> int:
        return len(self._outbox)

    async def wait_connected(self) -> None:
        """Until connected and subscribed."""
        await self._up.wait()

    async def drained(self) -> None:
        """Until every queued message was acknowledged by the broker."""
        await self._outbox.drained()

    async def start(self) -> None:
        self.runner.start()

    async def close(self, drain_timeout: float = 0.0) -> None:
        """Stop; with ``drain_timeout`` first give queued messages that long to go out.
        A clean close sends DISCONNECT, so the broker does not publish the will."""
        if not self.runner.running:
            return
        if drain_timeout > 0 and self.pending:
            try:
                await asyncio.wait_for(self.drained(), drain_timeout)
            except TimeoutError:
                log.warning("%s: closing with %d messages unsent", self.client_id, self.pending)
        await self.runner.stop()
        self._up.clear()
        if not self._reported_down:
            self._reported_down = True
            self._broadcast(LinkDown("closed"))

    async def __aenter__(self) -> MqttLink:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the link task ------------------------------------------------------------------------
    def _client(self) -> aiomqtt.Client:
        will = None
        if self._will is not None:
            w = self._will
            will = aiomqtt.Will(w.topic, w.payload, w.qos, w.retain)
        return session_client(self.url, self._tls, self.client_id, self._route, keepalive=self._keepalive,
                              will=will, timeout=self._ack_timeout)

    async def _attempt(self, up: Callable[[], None]) -> str:
        """One connection (the shared ``LinkRunner`` repeats it): connect, subscribe, send and
        route until the broker goes; why it went."""
        self._taken = False
        client = self._client()
        try:
            async with client:
                self._connected(up)
                # Before subscribing: some brokers send retained messages ahead of the SUBACK.
                self._broadcast(LinkUp(self.reconnect.attempts))
                for sub in self._subscriptions:
                    granted = await client.subscribe([(f, sub.qos) for f in sub.filters])
                    self._check_granted(sub, granted)
                self._up.set()
                async with asyncio.TaskGroup() as tasks:
                    tasks.create_task(drain(client))
                    tasks.create_task(self._send(client))
        except* aiomqtt.MqttError as group:
            self.last_error = "; ".join(str(e) for e in group.exceptions)
            self._taken = any(is_takeover(e) for e in group.exceptions)
        except* Exception as group:  # a library surprise must not end the link for good
            self.last_error = "; ".join(repr(e) for e in group.exceptions)
            log.error("%s: unexpected link failure", self.client_id, exc_info=group)
        finally:
            self._up.clear()
        if not self._reported_down:
            self._reported_down = True
            self._broadcast(LinkDown(self.last_error or "disconnected"))
        return self.last_error or "disconnected"

    def _connected(self, up: Callable[[], None]) -> None:
        up_for = self.reconnect.down_for()
        up()
        self._takeovers.connected()
        self.connections += 1
        self._reported_down = False
        if self.alarm is not None:
            log.warning("%s: the broker %s answers again (down %.1f s)", self.client_id, self.url.redacted(),
                        up_for or 0.0)
            self.alarm = None
            self._tell(None)

    def _failed(self, reason: str) -> float:
        """Count the failure, warn when it is due, and the seconds to wait before the next try."""
        error = reason
        taken = self._takeovers.dropped(self.reconnect.state is LinkState.CONNECTED, self._taken)
        if taken:
            error = (f"session taken over: another client is connected to {self.url.redacted()} as "
                     f"{self.client_id!r} (the broker drops this link and takes it back at once; {error})")
        delay = max(self.reconnect.failed(error), self._takeovers.delay())
        loud_now = taken or is_misconfiguration(error)
        if self.reconnect.alarm() or (loud_now and self.alarm != error):
            log.warning("%s: cannot keep a link to the broker %s: %s (down %.1f s; retrying in %.2f s)",
                        self.client_id, self.url.redacted(), error, self.reconnect.down_for() or 0.0, delay)
            if self.alarm is None:
                self.alarm = error
                self._tell(error)
            self.alarm = error
        else:
            log.info("%s: %s; retrying in %.2f s", self.client_id, error, delay)
        return delay

    def _tell(self, reason: str | None) -> None:
        for callback in self.on_alarm:
            try:
                callback(reason)
            except Exception:  # a listener's bug must not end the link
                log.exception("%s: link alarm listener failed", self.client_id)

    async def _send(self, client: aiomqtt.Client) -> None:
        if self._birth is not None:
            b = self._birth
            await client.publish(b.topic, b.payload, qos=b.qos, retain=b.retain)
        while True:
            message = await self._outbox.head()
            await client.publish(message.topic, message.payload, qos=message.qos, retain=message.retain)
            self._outbox.ack(message)
            # On 3.11 a cancellation arriving with the broker's PUBACK can be swallowed inside
            # aiomqtt's wait_for; honour it here so close() always returns.
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError

    def _check_granted(self, sub: Subscription, granted: Any) -> None:
        """A refused subscription is logged; mosquitto grants ACL-denied ones and stays silent."""
        failed = [f for f, code in zip(sub.filters, granted) if _is_failure(code)]
        if failed:
            self.last_error = f"subscription refused: {', '.join(failed)}"
            log.warning("%s: %s", self.client_id, self.last_error)

    def _route(self, message: aiomqtt.Message) -> None:
        payload = message.payload
        data = payload if isinstance(payload, bytes) else str(payload or "").encode()
        item = Received(str(message.topic), data, bool(message.retain), int(message.qos))
        for sub in self._subscriptions:
            if sub.matches(message.topic):
                sub.deliver(item)

    def _broadcast(self, item: LinkItem) -> None:
        for sub in self._subscriptions:
            sub.deliver(item)
