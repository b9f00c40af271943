"""Typed events of the card shoe driver (``type`` literal per kind; JSON lines in ``listen``).

Online, offline and refused are the shared ``drivers.events`` classes."""

from __future__ import annotations

from typing import Literal

from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline, Refused


class ShoeEvent(DeviceEvent):
    device: str = "shoe"


class CardDrawn(ShoeEvent):
    """A card left the shoe and was read; ``n`` counts cards drawn since the shoe was loaded."""

    type: Literal["card"] = "card"
    card: str
    n: int


class NoRead(ShoeEvent):
    """A card left the shoe unread: the dealer must key it in."""

    type: Literal["noread"] = "noread"
    n: int


class CutCard(ShoeEvent):
    """The cut card came out after ``n`` cards."""

    type: Literal["cut"] = "cut"
    n: int


class LostCard(ShoeEvent):
    """Card ``expected_n`` never arrived (``got_n`` is the next count seen): stop and alert."""

    type: Literal["lost_card"] = "lost_card"
    expected_n: int
    got_n: int


class ShoeStatus(ShoeEvent):
    """The shoe's reported state, emitted when it changes (STATUS arrives every second)."""

    type: Literal["shoe_status"] = "shoe_status"
    state: str
    n: int
    shoe_id: str


class ShoeFault(ShoeEvent):
    type: Literal["fault"] = "fault"
    code: int
    text: str


class Hello(ShoeEvent):
    """The shoe powered up or was reset."""

    type: Literal["hello"] = "hello"
    model: str
    firmware: str
    serial: str


__all__ = [
    "CardDrawn", "CutCard", "DeviceOffline", "DeviceOnline", "Hello", "LostCard", "NoRead",
    "Refused", "ShoeEvent", "ShoeFault", "ShoeStatus",
]
