"""Device health as the table knows it: online or not, and an uncleared fault (docs/devices.md).

A round opens only with every device the game needs online and no fault; a process start knows
no device as online until it reports, and a fault stays until the device reports healthy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class DeviceHealth:
    #: device -> {"online": bool, "fault": str | None}
    devices: dict[str, dict[str, Any]] = field(default_factory=dict)

    def change(self, device: str, **change: Any) -> bool:
        """Set what changed of a device's health; True when anything did."""
        health = self.devices.setdefault(device, {"online": False, "fault": None})
        if all(health.get(k) == v for k, v in change.items()):
            return False
        health.update(change)
        return True

    def restarted(self) -> None:
        """The process started: every device is offline until it reports (faults stay)."""
        for health in self.devices.values():
            health["online"] = False

    def online(self, device: str) -> bool:
        return bool(self.devices.get(device, {}).get("online"))

    def fault(self, device: str) -> str | None:
        fault = self.devices.get(device, {}).get("fault")
        return str(fault) if fault else None

    def faults(self) -> dict[str, str]:
        return {d: str(h["fault"]) for d, h in self.devices.items() if h.get("fault")}
