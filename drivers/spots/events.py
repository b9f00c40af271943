"""Bet-spot device events. ``type`` names them on ``croupier listen spots --json``."""

from __future__ import annotations

from typing import Literal

from drivers.events import DeviceEvent, Refused


class SpotPress(DeviceEvent):
    """A button press, applied once per (device, seq) however often MQTT delivers it."""

    type: Literal["press"] = "press"
    spot: int
    device: str
    button: str
    seq: int
    amount: int | None = None  # minor units, bet presses only
    kind: str | None = None  # bet kind, bet presses only


class SpotOnline(DeviceEvent):
    """Presence from the retained ``online`` topic (``0`` is the device's MQTT will)."""

    type: Literal["spot_online"] = "spot_online"
    spot: int
    online: bool


class SpotRefused(Refused):
    """``reason`` is a stable code (counted per code); ``detail`` says what exactly was wrong."""

    spot: int | None = None
    detail: str = ""
