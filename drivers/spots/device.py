"""The bet-spot buttons of one table as a ``Device`` (``docs/devices.md``): a ``SpotsSession`` on
its own ``MqttLink``. ``open`` starts the link and waits up to ``connect_timeout`` for the broker;
a broker that does not answer by then is not fatal: the buttons are a convenience beside the
dealer's own keying, so the table plays on while the link keeps reconnecting, and ``health``
reports the spots offline with the broker's last error (logged once, naming the broker).

Commands: ``lamp(spot, mode, text="")`` (retained, so a spot that reconnects shows it at once).
``close`` gives lamps still queued up to ``drain_timeout`` to reach the broker.

The table restores each spot's press watermark (``restore``) before ``open`` so a press the
broker redelivers after a restart is still a duplicate, and may pass a ``gate(topic)`` that
drops a message before it is decoded (its rate limit).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from drivers.base import DeviceBase
from drivers.clock import Clock
from drivers.device import Health
from drivers.device_kit import Command, EventSink, stop_task
from drivers.errors import DeviceAddressError, UnsupportedCommand
from drivers.mqtt import MqttLink
from drivers.registry import BuildOptions, DeviceAddress
from drivers.spots import codec
from drivers.spots.session import SpotsSession

log = logging.getLogger(__name__)


class SpotsDevice(DeviceBase):
    """Every spot of one table, as one device named ``spots``."""

    def __init__(self, link: MqttLink, table: str, spots: Collection[int] | None = None, *, name: str = "spots",
                 sink: EventSink | None = None, gate: Callable[[str], bool] | None = None,
                 connect_timeout: float = 10.0, drain_timeout: float = 1.0) -> None:
        super().__init__(name, sink=sink)
        self.address = link.url.redacted()
        self.link = link
        self.session = SpotsSession(link, table, spots, gate=gate)
        self.connect_timeout = connect_timeout
        self.drain_timeout = drain_timeout
        self._pump: asyncio.Task[None] | None = None
        self._last_seen: float | None = None
        self._commands: dict[str, Command] = {"lamp": self._lamp}

    def commands(self) -> dict[str, Command]:
        return self._commands

    def restore(self, watermarks: Mapping[str, int]) -> None:
        """Each spot device's highest applied press ``seq`` (from the journal), before ``open``."""
        for device, seq in watermarks.items():
            self.session.tracker.restore(device, seq)

    async def _lamp(self, spot: int, mode: str, text: str = "") -> None:
        if mode not in codec.LAMP_MODES:
            raise UnsupportedCommand(f"lamp mode {mode!r}; one of: {', '.join(codec.LAMP_MODES)}")
        try:
            self.session.lamp(spot, mode, text)  # type: ignore[arg-type]  # checked just above
        except ValueError as exc:
            raise UnsupportedCommand(f"lamp for spot {spot}: {exc}") from None

    async def _start(self) -> None:
        await self.link.start()
        try:
            await asyncio.wait_for(self.link.wait_connected(), self.connect_timeout)
        except TimeoutError:
            reason = self.link.last_error or "no answer"
            log.warning("cannot reach the broker %s yet (%s): the spots are offline until it answers",
                        self.address, reason)
        self._pump = asyncio.create_task(self._deliver(), name=f"{self.name}-events")

    async def _deliver(self) -> None:
        async for event in self.session.events():
            self._last_seen = asyncio.get_running_loop().time()
            self.emit(event)

    def link_state(self) -> dict[str, Any] | None:
        return {**self.link.runner.diagnostics(), "pending": self.link.pending}

    def health(self) -> Health:
        fault = None if self.link.connected or not self.link.last_error else self.link.last_error
        return Health(online=self.link.connected, fault=fault, last_seen=self._last_seen)

    async def _stop(self) -> None:
        await stop_task(self._pump)
        self._pump = None
        await self.link.close(drain_timeout=self.drain_timeout)


# --------------------------------------------------------------------------- registry builder
_OWN = ("table", "spots", "client_id", "backoff")


def spots_address(broker: str, table: str, spots: int = 0, client_id: str | None = None) -> str:
    """The registry URL of table ``table``'s spots on ``broker`` (a broker URL, its TLS query
    kept): the inverse of ``mqtt_spots``."""
    parts = urlsplit(broker)
    own = {"table": table, **({"spots": str(spots)} if spots else {}), **({"client_id": client_id} if client_id else {})}
    query = "&".join(q for q in (parts.query, urlencode(own)) if q)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def _redacted(url: str) -> str:
    """``url`` for a message: the broker password never leaves in clear."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, _, host = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=f"{user.partition(':')[0]}:***@{host}"))


def _table_and_path(scheme: str, path: str, table: str | None) -> tuple[str | None, str]:
    """The table (``?table=``, else a broker URL's path names it) and the broker's own path (a
    unix socket's; a TCP broker has none)."""
    if scheme == "unix":
        return table, path
    named = path.strip("/")
    return (table or named) if named else table, ""


def _new_link(broker: str, client_id: str, backoff: float, clock: Clock, shown: str) -> MqttLink:
    """A link of the device's own; ``DeviceAddressError`` naming the (redacted) URL."""
    try:
        return MqttLink(broker, client_id, backoff_max=max(backoff, 0.05), clock=clock)
    except DeviceAddressError as exc:
        raise DeviceAddressError(f"{shown}: {exc}") from None


def mqtt_spots(address: DeviceAddress, options: BuildOptions) -> SpotsDevice:
    """``mqtt://user:pass@host:1883/T1?spots=7`` (``mqtts://``, or ``unix://.../b.sock?table=T1``):
    the spots of table T1 on that broker; ``backoff`` caps the reconnect delay (seconds, 1 by
    default: a press should not wait long after a broker blip); other query parameters
    (``cafile`` ...) are the broker's. Extras: ``link``, an ``MqttLink`` to share instead of a
    new one; ``gate`` and ``watermarks`` (``SpotsDevice``)."""
    shown = _redacted(address.url)
    parts = urlsplit(address.url)
    own = {k: v for k, v in address.params.items() if k in _OWN}
    broker_query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in _OWN])
    params = DeviceAddress(shown, address.kind, address.scheme, address.target, own).options(
        table=None, spots=0, client_id=None, backoff=1.0)
    table, path = _table_and_path(address.scheme, parts.path, params["table"])
    if not table:
        raise DeviceAddressError(f"{shown}: which table? (mqtt://host:port/TABLE or ?table=TABLE)")
    broker = urlunsplit((parts.scheme, parts.netloc, path, broker_query, ""))
    link = options.extra("link", MqttLink)
    if link is None:
        link = _new_link(broker, params["client_id"] or f"croupier-{table}-{options.name}", params["backoff"],
                         options.clock, shown)
    spots = range(1, params["spots"] + 1) if params["spots"] > 0 else None
    device = SpotsDevice(link, table, spots, name=options.name, sink=options.sink,
                         gate=options.extra("gate", Callable))  # type: ignore[arg-type]
    device.restore(options.extra("watermarks", Mapping) or {})
    return device
