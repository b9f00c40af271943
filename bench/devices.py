"""Per-device latency: p50/p99 from a frame's last byte arriving to the driver emitting its event,
next to the frame's wire time at line speed. Runs each device's own measurement in turn.

    .venv/bin/python bench/devices.py [samples] [--json]
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DEVICES = ("devices_wheel", "devices_shoe", "devices_spots")


def main(samples: int = 500, as_json: bool = False) -> None:
    results = {}
    for name in DEVICES:
        module = importlib.import_module(name)
        result = asyncio.run(module.measure(samples))
        results[name.removeprefix("devices_")] = result
        if not as_json:
            print(f"{name.removeprefix('devices_'):>6}: {result}")
    if as_json:
        print(json.dumps(results))


if __name__ == "__main__":
    positional = [a for a in sys.argv[1:] if a != "--json"]
    main(int(positional[0]) if positional else 500, as_json="--json" in sys.argv[1:])
