"""The devices panel's lines, true to the drivers' offline rule (docs/console.md): a device the
table counts online has been heard within its driver's 3 s heartbeat window, so the console says
"online" and no "last seen" count; an offline device says for how long the console has known it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DeviceStatus:
    """Remembers when each device's state last changed (on the console's clock)."""

    def __init__(self) -> None:
        self._state: dict[str, tuple[str, float]] = {}

    def lines(self, devices: Mapping[str, Mapping[str, Any]], now: float) -> list[dict[str, Any]]:
        rows = []
        for name, health in sorted(devices.items()):
            online, fault = bool(health.get("online")), health.get("fault")
            state = f"fault:{fault}" if fault else "online" if online else "offline"
            if self._state.get(name, ("", 0.0))[0] != state:
                self._state[name] = (state, now)
            since = now - self._state[name][1]
            # no running "since": the text says it where it shows (an offline device's whole
            # seconds), so a view does not change every time it is taken
            rows.append({"name": name, "online": online, "fault": fault, "text": status_text(online, fault, since)})
        return rows


def status_text(online: bool, fault: Any, since: float) -> str:
    if fault:
        return f"FAULT: {str(fault).replace('_', ' ')}"
    if online:
        return "online"
    return f"OFFLINE for {duration(since)}"


def duration(seconds: float) -> str:
    s = max(0, int(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"
