"""Wheel driver latency: from the last byte of a status or winning-number line written on the
simulator side of a pty to the driver emitting its event, next to that line's wire time at
9600 baud (10 bits per byte). One line in flight at a time, so nothing queues."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drivers.events import DeviceEvent
from drivers.wheel import codec
from drivers.wheel.session import WheelSession
from simulators.pty_port import PtyPort

BAUD_BITS = 10 / 9600


def _wire_ms(message: codec.Reply) -> float:
    return len(codec.encode(message)) * BAUD_BITS * 1000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(samples: int) -> dict:
    """p50/p99 in microseconds per line kind; ``samples`` game cycles (3 statuses + 1 number each)."""
    emitted = asyncio.Event()
    stamp = [0.0]

    def emit(event: DeviceEvent) -> None:
        if event.type in ("place_bets", "ball_in_rim", "no_more_bets", "winning_number"):
            stamp[0] = time.perf_counter()
            emitted.set()

    lat: dict[str, list[float]] = {"status": [], "number": []}
    # mode with automatic status: the driver neither asks *O nor polls, the line carries only our lines
    async with PtyPort() as port, WheelSession(port.path, emit=emit, mode=128) as session:
            await asyncio.wait_for(session.connected.wait(), 5)
            # the driver trusts a wheel once it answers *V with its banner: play that wheel's part
            while not (await asyncio.wait_for(port.read_line(), 5)).startswith(b"*V"):
                pass
            port.write(codec.encode(codec.Banner("bench wheel")))
            await asyncio.wait_for(session.identified.wait(), 5)

            async def send(message: codec.Reply, kind: str | None) -> None:
                emitted.clear()
                port.write(codec.encode(message))
                written = time.perf_counter()
                if kind is None:
                    await asyncio.sleep(0.002)
                    return
                await asyncio.wait_for(emitted.wait(), 2)
                lat[kind].append((stamp[0] - written) * 1e6)

            win: str | None = None
            for i in range(samples):
                spin = i % 256 + 1
                number = str(i % 37)
                for state in (2, 3, 4):
                    await send(codec.Status(state, spin, win, 0, 165, 1), "status")
                await send(codec.WinningNumber(number), "number")
                await send(codec.Status(5, spin, number, 0, 165, 1), None)
                win = number
    status_line = codec.Status(2, 11, "27", 0, 165, 1)
    return {
        "samples": {k: len(v) for k, v in lat.items()},
        "status_p50_us": round(statistics.median(lat["status"]), 1),
        "status_p99_us": round(_percentile(lat["status"], 0.99), 1),
        "status_wire_ms": round(_wire_ms(status_line), 3),
        "number_p50_us": round(statistics.median(lat["number"]), 1),
        "number_p99_us": round(_percentile(lat["number"], 0.99), 1),
        "number_wire_ms": round(_wire_ms(codec.WinningNumber("27")), 3),
    }


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    result = asyncio.run(measure(n))
    print(f"wheel: {result['samples']['status']} status lines, {result['samples']['number']} number lines")
    print(
        f"  status line  p50 {result['status_p50_us']:8.1f} us  p99 {result['status_p99_us']:8.1f} us"
        f"  (wire time at 9600 baud: {result['status_wire_ms']:.3f} ms)"
    )
    print(
        f"  number line  p50 {result['number_p50_us']:8.1f} us  p99 {result['number_p99_us']:8.1f} us"
        f"  (wire time at 9600 baud: {result['number_wire_ms']:.3f} ms)"
    )
