"""Card-shoe driver latency: from the last byte of a CARD frame reaching the host side to the
driver emitting its ``card`` event, per transport, next to the frame's time on the wire.

"Reaching the host side": for serial, the simulator's write of the frame into the pty master
(the kernel tty hop, the asyncio wake-up, decoding and the session are all inside the figure);
for USB, the frame's bytes entering the simulated device's IN FIFO (pyusb's core, the reader
thread's bulk read, ``call_soon_threadsafe``, decoding and the session are inside).

Wire time models: serial 115200 8N1 = 10 bits per byte. USB full-speed (12 Mbit/s) bulk IN, the
frame in one short data packet plus 13 bytes of protocol overhead per transaction (IN token 3,
data PID + CRC16 3, ACK handshake 1, SYNC and EOP 3 x 2), bit stuffing ignored; the host
controller's 1 ms frame scheduling is not counted.

    python bench/devices_shoe.py [samples]
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from the repo root or bench/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.shoe import Shoe
from drivers.events import DeviceEvent
from drivers.shoe import SerialTransport, ShoeSession, UsbTransport
from drivers.shoe.codec import Card, encode
from drivers.shoe.events import CardDrawn
from simulators.shoe import SerialShoeSim, ShoeFirmware, UsbShoeSim

SERIAL_BPS = 115200
USB_FS_BPS = 12_000_000
USB_OVERHEAD_BYTES = 13


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _measure_one(kind: str, samples: int) -> dict[str, float | int | str]:
    decks = max(1, -(-samples // 52))
    fw = ShoeFirmware(Shoe(decks, random.Random(1)), rng=random.Random(2), window=1)
    sim = SerialShoeSim(fw) if kind == "serial" else UsbShoeSim(fw)
    await sim.start()
    transport = SerialTransport(sim.path) if kind == "serial" else UsbTransport(backend=sim.backend)
    sent: dict[int, float] = {}
    got: dict[int, float] = {}
    arrived = asyncio.Event()

    def tap(data: bytes) -> None:
        if b";CARD;" in data and data.endswith(b"\r\n"):
            n = int(data.split(b";")[3].split(b"*")[0])
            sent.setdefault(n, time.perf_counter())

    def on_event(event: DeviceEvent) -> None:
        if isinstance(event, CardDrawn):
            got.setdefault(event.n, time.perf_counter())
            arrived.set()

    fw.tap = tap
    session = ShoeSession(transport, on_event=on_event)
    task = asyncio.create_task(session.run())
    try:
        while not session.online:
            await asyncio.sleep(0.01)
        for _ in range(samples):
            arrived.clear()
            fw.draw()
            await asyncio.wait_for(arrived.wait(), 5)
            await asyncio.sleep(0.002)  # let the ACK go out: one card in flight at a time
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await sim.stop()
    lat = [(got[n] - sent[n]) * 1e6 for n in got if n in sent]
    frame = len(encode(0x002A, Card("QH", 17)))
    wire = frame * 10 / SERIAL_BPS if kind == "serial" else (frame + USB_OVERHEAD_BYTES) * 8 / USB_FS_BPS
    return {
        "transport": kind,
        "samples": len(lat),
        "p50_us": round(statistics.median(lat), 1),
        "p99_us": round(_pct(lat, 0.99), 1),
        "frame_bytes": frame,
        "wire_us": round(wire * 1e6, 1),
        "wire_model": ("115200 8N1, 10 bits/byte" if kind == "serial"
                       else "USB full-speed 12 Mbit/s bulk, 1 short packet + 13 B overhead"),
    }


async def measure(samples: int) -> dict:
    """p50/p99 last-byte-to-event latency per transport (microseconds), with wire times."""
    return {kind: await _measure_one(kind, samples) for kind in ("serial", "usb")}


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    results = asyncio.run(measure(samples))
    print(f"CSP/1 shoe: last byte of a CARD frame -> card event ({samples} cards per transport)")
    for r in results.values():
        print(
            f"  {r['transport']:<6} p50 {r['p50_us']:>8.1f} us  p99 {r['p99_us']:>8.1f} us   "
            f"wire time of the {r['frame_bytes']}-byte frame {r['wire_us']:>7.1f} us ({r['wire_model']})"
        )


if __name__ == "__main__":
    main()
