"""Bet-spot devices in software: each spot is its own MQTT client with its own credentials
(username ``spot-<n>``), a retained ``online`` 0 will, ``online`` 1 retained on every connect,
presses with a rising ``seq`` and a subscription to its own lamp.

Like a device's firmware, a simulated spot runs its own MQTT stack (paho's threaded network loop
with paho's reconnect and paho's QoS 1 resend), shares no code with the driver's link, and
builds its JSON by hand, so a bug in the driver cannot hide behind the same bug here.

Fault injection for tests: ``duplicate_last`` (the same seq again), ``publish_raw`` (malformed
bytes), ``press_as`` (another device id in the payload), ``press_on`` (another spot's topic,
which the broker's ACL must drop), ``crash`` (no DISCONNECT: the broker publishes the will),
``reboot`` (crash, then start again; the counter restarts at seq 1).
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable, Iterator
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from drivers.mqtt.tls import tls_context
from drivers.mqtt.url import BrokerUrl


class SpotDevice:
    def __init__(self, url: str, table: str, spot: int, *, client_id: str | None = None) -> None:
        self.address = BrokerUrl.parse(url)
        self.table = table
        self.spot = spot
        self.device = f"spot-{spot}"
        self.client_id = client_id or f"croupier-{table}-spot-{spot}"
        self.seq = 0
        self.lamps: list[dict[str, Any]] = []  # every lamp payload received, oldest first
        self.on_lamp: Callable[[SpotDevice, dict[str, Any]], None] | None = None
        self._last_press: bytes | None = None
        self._client: paho.Client | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connected = asyncio.Event()
        self._lamp_seen = asyncio.Event()

    def topic(self, leaf: str, spot: int | None = None) -> str:
        return f"croupier/{self.table}/spot/{spot or self.spot}/{leaf}"

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def wait_connected(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    @property
    def lamp(self) -> dict[str, Any] | None:
        return self.lamps[-1] if self.lamps else None

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self, timeout: float = 5.0) -> None:
        """Power on: connect, announce, subscribe to the lamp; returns once connected."""
        self._loop = asyncio.get_running_loop()
        client = paho.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=False,
            transport=self.address.transport,
            reconnect_on_failure=True,
        )
        if self.address.username is not None:
            client.username_pw_set(self.address.username, self.address.password)
        if self.address.tls:  # mqtts://: the broker's certificate checked as the table's link does
            client.tls_set_context(tls_context(self.address))
        client.will_set(self.topic("online"), b"0", qos=1, retain=True)
        client.reconnect_delay_set(min_delay=0.1, max_delay=1.0)  # type: ignore[arg-type]
        client.on_socket_open = self._on_socket_open
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.connect_async(self.address.host, self.address.port, keepalive=10)
        client.loop_start()
        self._client = client
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def stop(self) -> None:
        """Orderly power-off: announce offline, then DISCONNECT (so no will)."""
        client = self._take_client()
        if client is None:
            return
        if client.is_connected():
            info = client.publish(self.topic("online"), b"0", qos=1, retain=True)
            await asyncio.to_thread(_wait_published, info, 2.0)
            client.disconnect()
        await asyncio.to_thread(client.loop_stop)

    async def crash(self) -> None:
        """Power loss: the socket drops without DISCONNECT, so the broker publishes the will.
        The press counter is volatile: the next ``start`` counts from seq 1 again."""
        client = self._take_client()
        self.seq = 0
        self._last_press = None
        if client is None:
            return
        await asyncio.to_thread(client.loop_stop)
        sock = client.socket()
        if isinstance(sock, socket.socket):
            sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    async def reboot(self) -> None:
        """A crash and a fresh start; the firmware's counter starts again at seq 1."""
        await self.crash()
        await self.start()

    # -- presses ------------------------------------------------------------------------------
    async def press(self, button: str, amount: int | None = None, kind: str | None = None) -> int:
        """Publish the next press (QoS 1). Connected: waits for the broker's PUBACK. Offline:
        paho queues it and sends it after reconnect. Returns its seq."""
        self.seq += 1
        payload = self.encode_press(self.device, self.seq, button, amount, kind)
        self._last_press = payload
        await self._publish(self.topic("press"), payload)
        return self.seq

    async def duplicate_last(self) -> None:
        """The same payload, same seq, again: what a QoS 1 redelivery looks like."""
        if self._last_press is None:
            raise RuntimeError("nothing pressed yet")
        await self._publish(self.topic("press"), self._last_press)

    async def press_as(self, device: str, button: str, amount: int | None = None, kind: str | None = None) -> int:
        """A press on this spot's own topic claiming to come from another device."""
        self.seq += 1
        await self._publish(self.topic("press"), self.encode_press(device, self.seq, button, amount, kind))
        return self.seq

    async def press_on(self, other_spot: int, button: str, amount: int | None = None, kind: str | None = None) -> int:
        """A press on another spot's topic, impersonating it; the broker's ACL must drop it."""
        self.seq += 1
        payload = self.encode_press(f"spot-{other_spot}", self.seq, button, amount, kind)
        await self._publish(self.topic("press", other_spot), payload)
        return self.seq

    async def publish_raw(self, payload: bytes, leaf: str = "press", retain: bool = False) -> None:
        await self._publish(self.topic(leaf), payload, retain)

    async def wait_lamp(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
        """Until a received lamp payload satisfies ``predicate``."""
        async def seen() -> dict[str, Any]:
            while True:
                for lamp in reversed(self.lamps):
                    if predicate(lamp):
                        return dict(lamp)
                self._lamp_seen.clear()
                await self._lamp_seen.wait()

        return await asyncio.wait_for(seen(), timeout)

    # -- internals ----------------------------------------------------------------------------
    @staticmethod
    def encode_press(device: str, seq: int, button: str, amount: int | None = None, kind: str | None = None) -> bytes:
        """The firmware's own JSON, written independently of the driver's codec."""
        body: dict[str, Any] = {"v": 1, "device": device, "seq": seq, "button": button}
        if amount is not None:
            body["amount"] = amount
        if kind is not None:
            body["kind"] = kind
        return json.dumps(body, separators=(",", ":")).encode()

    async def _publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        if self._client is None:
            raise RuntimeError(f"{self.device} is not powered on")
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        if info.rc == paho.MQTT_ERR_SUCCESS:
            await asyncio.to_thread(_wait_published, info, 5.0)

    def _take_client(self) -> paho.Client | None:
        client, self._client = self._client, None
        self._connected.clear()
        return client

    def _call(self, fn: Callable[[], None]) -> None:
        """From paho's network thread into the test's event loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(fn)

    def _on_socket_open(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            return
        client.publish(self.topic("online"), b"1", qos=1, retain=True)
        client.subscribe(self.topic("lamp"), qos=1)
        self._call(self._connected.set)

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._call(self._connected.clear)

    def _on_message(self, client: paho.Client, userdata: Any, message: paho.MQTTMessage) -> None:
        if message.topic != self.topic("lamp"):
            return  # some brokers (amqtt) replay retained messages of other clients' subscriptions
        try:
            lamp = json.loads(message.payload)
        except ValueError:
            lamp = None
        if not isinstance(lamp, dict):
            lamp = {"invalid": message.payload.decode("utf-8", "replace")}

        def record() -> None:
            self.lamps.append(lamp)
            self._lamp_seen.set()
            if self.on_lamp is not None:
                self.on_lamp(self, lamp)

        self._call(record)


def _wait_published(info: paho.MQTTMessageInfo, timeout: float) -> None:
    """Best effort: a publish that loses its connection is resent by paho after reconnect."""
    try:
        info.wait_for_publish(timeout)
    except (RuntimeError, ValueError):
        pass


class SpotsSimulator:
    """The player positions of one table: ``spots[n]`` is spot n's device."""

    def __init__(self, table: str, urls: dict[int, str]) -> None:
        self.table = table
        self.devices = {n: SpotDevice(url, table, n) for n, url in sorted(urls.items())}

    @classmethod
    def with_credentials(cls, broker_url: str, table: str, spots: int, password: Callable[[int], str | None]) -> SpotsSimulator:
        """Each spot n logs in as ``spot-<n>`` with ``password(n)`` (``None``: anonymous broker)."""
        base = BrokerUrl.parse(broker_url)
        urls = {}
        for n in range(1, spots + 1):
            secret = password(n)
            creds = (f"spot-{n}", secret) if secret is not None else (None, None)
            urls[n] = str(base.with_credentials(*creds))
        return cls(table, urls)

    def __getitem__(self, spot: int) -> SpotDevice:
        return self.devices[spot]

    def __iter__(self) -> Iterator[SpotDevice]:
        return iter(self.devices.values())

    async def start(self) -> None:
        """One after another, as a table powers up; amqtt (the demo broker) races on
        simultaneous connects that resume sessions while others subscribe."""
        for device in self:
            await device.start()

    async def stop(self) -> None:
        await asyncio.gather(*(d.stop() for d in self))

    async def __aenter__(self) -> SpotsSimulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


