"""Typed device events: what every driver emits (pydantic, so they validate and serialise alike).

Each device adds its own event classes with a ``type`` literal; ``croupier listen --json``
prints ``model_dump_json()`` of each, one per line.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class DeviceEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    type: str


class DeviceOnline(DeviceEvent):
    type: Literal["online"] = "online"
    device: str
    detail: str = ""


class DeviceOffline(DeviceEvent):
    type: Literal["offline"] = "offline"
    device: str
    reason: str


class Refused(DeviceEvent):
    """Input from a device that was not accepted (malformed, out of order, not allowed)."""

    type: Literal["refused"] = "refused"
    device: str
    reason: str
    raw: str = ""
