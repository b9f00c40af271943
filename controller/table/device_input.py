"""Where a device event goes at the table: health (online, offline), a bet spot's press (the
command it stands for, ``presses``), the game's own device (``game_device``), the shoe's
accounting (``shoe_device``). The table is seen through ``EventTable`` only."""

from __future__ import annotations

from typing import Any, Protocol, cast

from controller.commands.models import Command
from controller.commands.parse import parse_order
from controller.jsonbound import InputRefused
from controller.table.events import device_of
from controller.table.games.base import Engine, GameAdapter
from controller.table.holds import ERROR, WARNING
from controller.table.presses import PressRefused, press_command
from controller.table.refusal import Refusal
from controller.table.shoe_device import SHOE, ShoeDevice, ShoeTable
from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline, Refused
from drivers.spots.events import SpotPress


class EventTable(ShoeTable, Protocol):
    """What a device event needs of the table."""

    @property
    def engine(self) -> Engine | None: ...

    @property
    def adapter(self) -> GameAdapter: ...

    @property
    def shoe_device(self) -> ShoeDevice: ...

    def command(self, order: Command) -> None: ...

    def game_device_step(self, device: str, event: DeviceEvent) -> None: ...

    def press_refused(self, notice: str) -> None: ...


#: the ways an event can go before its device is looked at, by the event's class
ONLINE, OFFLINE, PRESS, REFUSED, OTHER = "online", "offline", "press", "refused", "other"
_WAYS: dict[type[DeviceEvent], str] = {}


def _way(cls: type[DeviceEvent]) -> str:
    """Which of the ways ``route`` tells apart by class an event of ``cls`` takes, looked up once
    per class: a pydantic model's ``isinstance`` goes through ``ABCMeta`` (about 0.3 µs a miss,
    three misses for every card)."""
    way = _WAYS.get(cls)
    if way is None:
        way = _WAYS[cls] = next((w for base, w in ((DeviceOnline, ONLINE), (DeviceOffline, OFFLINE),
                                                   (SpotPress, PRESS), (Refused, REFUSED))
                                 if issubclass(cls, base)), OTHER)
    return way


def route(table: EventTable, event: DeviceEvent) -> None:
    device = device_of(event)
    way = _WAYS.get(type(event)) or _way(type(event))
    if way == OTHER:  # a device's own event (a card, by far the most frequent): first
        if device == table.adapter.device:
            table.game_device_step(device, event)
        elif device == SHOE:
            table.shoe_device.device_step(table, event)
        # else another device's own event: journaled (and its presence tracked), no game step
    elif way == ONLINE:
        table.health_change(device, online=True)
    elif way == OFFLINE:
        table.health_change(device, online=False)
        table.alert(ERROR, "device.offline", f"{device} offline: {cast(DeviceOffline, event).reason}")
    elif way == PRESS:
        _press(table, cast(SpotPress, event))
    elif device == table.adapter.device:  # the game's own device refused something
        table.game_device_step(device, event)
    elif device != SHOE:
        refused = cast(Refused, event)
        table.alert(WARNING, "device.refused", f"{device}: {refused.reason}", raw=refused.raw)
    else:
        table.shoe_device.device_step(table, event)


def _press(table: EventTable, press: SpotPress) -> None:
    """A bet-spot press: the command it stands for now, or refused with the reason left on the
    dealer's prompt."""
    try:
        payload: dict[str, Any] = press_command(press.model_dump(mode="json"), table.engine)
        table.command(parse_order(payload))
    except (PressRefused, Refusal, InputRefused) as exc:
        table.press_refused(f"spot {press.spot} {press.button} refused: {exc.message}")
        raise Refusal(exc.code, exc.message) from None
