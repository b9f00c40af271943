"""Per-device latency: p50/p99 from a frame's last byte arriving to the driver emitting its event,
next to the frame's wire time at line speed. Runs each device's own measurement in turn."""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DEVICES = ("devices_wheel", "devices_shoe", "devices_spots")


def main(samples: int = 500) -> None:
    for name in DEVICES:
        module = importlib.import_module(name)
        result = asyncio.run(module.measure(samples))
        print(f"{name.removeprefix('devices_'):>6}: {result}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
