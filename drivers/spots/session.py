"""The bet-spot conversation for one table: presses applied once per (device, seq), presence
from the retained ``online`` flags, lamps out through the shared MQTT link.

Sequence rule. ``seq`` rises per device, so a press at or below the last applied one is a QoS 1
redelivery and is refused as ``duplicate``. A device that reboots counts from 1 again: a press
with ``seq`` 1 is accepted as a restart only after the device announced ``online`` 1 live (not
a retained copy) since its last applied press. A device that merely reconnected re-announces too,
then resends its unacknowledged presses with their old numbers, which are above 1 unless it had
pressed only once; in that one ambiguous case the press is refused (the player presses again),
never applied twice. After a controller restart, ``restore()`` the watermarks from the journal.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection

from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline
from drivers.mqtt import LinkDown, LinkUp, MqttLink, Received
from drivers.spots import codec
from drivers.spots.events import SpotOnline, SpotPress, SpotRefused

RAW_LIMIT = 200
#: presses waiting to be read; beyond it new ones are dropped (a flood, or a stalled reader)
QUEUE_LIMIT = 1000
log = logging.getLogger(__name__)


class SpotTracker:
    """Pure state: what each message means given what came before. No I/O, no clock."""

    def __init__(self, table: str, spots: Collection[int] | None = None) -> None:
        codec.topic_root(table)  # validates the table id
        self.table = table
        self.spots = frozenset(spots) if spots is not None else None
        self.last_seq: dict[str, int] = {}
        self.presence: dict[int, bool] = {}
        self.refusals: Counter[str] = Counter()
        self._announced: set[str] = set()  # live online=1 since the last applied press

    def restore(self, device: str, seq: int) -> None:
        """Seed a watermark (from the journal) so redeliveries after a restart stay duplicates."""
        self.last_seq[device] = max(seq, self.last_seq.get(device, 0))

    def handle(self, topic: str, payload: bytes, retain: bool) -> list[DeviceEvent]:
        try:
            spot, leaf = codec.parse_topic(self.table, topic)
            if self.spots is not None and spot not in self.spots:
                raise codec.SpotCodecError("unknown_spot", f"spot {spot} is not at this table")
            if leaf == "press":
                return self._press(spot, payload, retain)
            if leaf == "online":
                return self._online(spot, codec.decode_online(payload), retain)
            raise codec.SpotCodecError("bad_topic", f"unexpected leaf {leaf[:40]!r}")
        except codec.SpotCodecError as exc:
            return [self._refuse(exc.reason, exc.detail, topic, payload)]
        except Exception as exc:  # a codec gap must cost one press, never the spots for good
            log.exception("spots %s: press on %s not understood", self.table, topic[:RAW_LIMIT])
            return [self._refuse("unreadable", f"{type(exc).__name__}: {exc}"[:RAW_LIMIT], topic, payload)]

    def _press(self, spot: int, payload: bytes, retain: bool) -> list[DeviceEvent]:
        press = codec.decode_press(payload)
        if press.device_spot != spot:
            raise codec.SpotCodecError("wrong_device", f"{press.device} on spot {spot}'s topic")
        if retain:
            raise codec.SpotCodecError("retained_press", "a press must not be retained")
        last = self.last_seq.get(press.device)
        rebooted = press.seq == 1 and last is not None and last > 1 and press.device in self._announced
        if last is not None and press.seq <= last and not rebooted:
            raise codec.SpotCodecError("duplicate", f"seq {press.seq} <= last applied {last}")
        self.last_seq[press.device] = press.seq
        self._announced.discard(press.device)
        return [
            SpotPress(
                spot=spot, device=press.device, button=press.button, seq=press.seq,
                amount=press.amount, kind=press.kind,
            )
        ]

    def _online(self, spot: int, online: bool, retain: bool) -> list[DeviceEvent]:
        if online and not retain:
            self._announced.add(f"spot-{spot}")
        if self.presence.get(spot) == online:
            return []
        self.presence[spot] = online
        return [SpotOnline(spot=spot, online=online)]

    def _refuse(self, reason: str, detail: str, topic: str, payload: bytes) -> SpotRefused:
        self.refusals[reason] += 1
        spot: int | None
        try:
            spot, _ = codec.parse_topic(self.table, topic)
        except codec.SpotCodecError:
            spot = None
        return SpotRefused(
            device=f"spot-{spot}" if spot is not None else topic[:RAW_LIMIT],
            spot=spot,
            reason=reason,
            detail=detail,
            raw=payload[:RAW_LIMIT].decode("utf-8", "replace"),
        )


class SpotsSession:
    """Wires a ``SpotTracker`` to an ``MqttLink``: register before the link starts, then iterate
    ``events()``. The link's own state comes out as DeviceOnline/DeviceOffline for ``broker``."""

    BROKER = "broker"

    def __init__(self, link: MqttLink, table: str, spots: Collection[int] | None = None, *,
                 gate: Callable[[str], bool] | None = None, queue_limit: int = QUEUE_LIMIT) -> None:
        self.tracker = SpotTracker(table, spots)
        self._link = link
        self._table = table
        #: ``gate(topic)`` False drops a message before it is decoded (the table's rate limit)
        self._gate = gate
        self._messages = link.subscribe(codec.spot_filter(table, "press"), codec.spot_filter(table, "online"),
                                        limit=queue_limit)

    @property
    def dropped(self) -> int:
        """Messages dropped because nobody read them fast enough (the queue was full)."""
        return self._messages.dropped

    @property
    def refusals(self) -> Counter[str]:
        return self.tracker.refusals

    def lamp(self, spot: int, mode: codec.LampMode, text: str = "") -> None:
        """Retained, so a device that (re)connects shows the current state at once."""
        self._link.publish(codec.spot_topic(self._table, spot, "lamp"), codec.encode_lamp(mode, text), retain=True)

    async def events(self) -> AsyncIterator[DeviceEvent]:
        async for item in self._messages:
            if isinstance(item, Received):
                if self._gate is not None and not self._gate(item.topic):
                    continue
                for event in self.tracker.handle(item.topic, item.payload, item.retain):
                    yield event
            elif isinstance(item, LinkUp):
                yield DeviceOnline(device=self.BROKER, detail=self._link.url.redacted())
            elif isinstance(item, LinkDown):
                yield DeviceOffline(device=self.BROKER, reason=item.reason)
