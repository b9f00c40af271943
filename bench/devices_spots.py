"""Bet-spot latency: p50/p99 from a simulated spot's publish of a press to the driver emitting its
press event, through a real mosquitto on loopback (QoS 1, TCP_NODELAY), next to the wire size.

    .venv/bin/python bench/devices_spots.py [samples]
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiomqtt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drivers.mqtt import MqttLink
from drivers.mqtt.link import TCP_NODELAY
from drivers.spots import SpotPress, SpotsSession
from simulators.spots import SpotDevice
from tests.fixtures.mosquitto import MosquittoBroker

TABLE = "bench"
WARMUP = 20


def publish_packet_size(topic: str, payload: bytes) -> int:
    """MQTT 3.1.1 PUBLISH at QoS 1: fixed header, topic, packet id, payload."""
    remaining = 2 + len(topic.encode()) + 2 + len(payload)
    length_bytes = 1 if remaining < 128 else 2 if remaining < 16384 else 3
    return 1 + length_bytes + remaining


async def measure(samples: int) -> dict[str, object]:
    """Two publishers: the simulated spot (paho's network thread, as device firmware would run
    its own stack) and a plain aiomqtt client on the driver's own loop, which leaves out the
    thread hop and so shows the driver's own share."""
    with MosquittoBroker(spots=3) as broker:
        link = MqttLink(broker.tcp_url(), f"croupier-{TABLE}-spots")
        session = SpotsSession(link, TABLE, range(1, 4))
        arrived: asyncio.Queue[int] = asyncio.Queue()

        async def collect() -> None:
            async for event in session.events():
                if isinstance(event, SpotPress):
                    arrived.put_nowait(time.perf_counter_ns())

        async def timed(publish: Callable[[], Awaitable[object]]) -> list[float]:
            latencies = []
            for i in range(WARMUP + samples):
                sent = time.perf_counter_ns()
                await publish()
                got = await asyncio.wait_for(arrived.get(), 5)
                if i >= WARMUP:
                    latencies.append((got - sent) / 1000)
            return latencies

        async with link:
            task = asyncio.create_task(collect())
            await link.wait_connected()
            spot = SpotDevice(broker.tcp_url(broker.spot(3)), TABLE, 3)
            await spot.start()
            via_spot = await timed(lambda: spot.press("hit"))
            await spot.stop()
            creds = broker.spot(2)
            async with aiomqtt.Client("127.0.0.1", broker.port, username=creds.username, password=creds.password,
                                      socket_options=TCP_NODELAY) as raw:
                seq = iter(range(1, 10**9))
                topic = f"croupier/{TABLE}/spot/2/press"
                via_raw = await timed(lambda: raw.publish(topic, SpotDevice.encode_press("spot-2", next(seq), "hit"), qos=1))
            task.cancel()
    payload = SpotDevice.encode_press(spot.device, spot.seq, "hit")
    return {
        "samples": samples,
        "p50_us": percentile(via_spot, 50),
        "p99_us": percentile(via_spot, 99),
        "in_loop_publisher_p50_us": percentile(via_raw, 50),
        "in_loop_publisher_p99_us": percentile(via_raw, 99),
        "payload_bytes": len(payload),
        "publish_packet_bytes": publish_packet_size(spot.topic("press"), payload),
        "path": "spot publish -> mosquitto (tcp loopback, QoS 1, TCP_NODELAY) -> MqttLink -> SpotsSession event",
    }


def percentile(values: list[float], pct: int) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, len(ordered) * pct // 100)], 1)


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    result = asyncio.run(measure(samples))
    print(f"spots: p50 {result['p50_us']} us, p99 {result['p99_us']} us over {samples} presses "
          f"(simulated spot, paho thread); in-loop aiomqtt publisher: p50 {result['in_loop_publisher_p50_us']} us, "
          f"p99 {result['in_loop_publisher_p99_us']} us")
    print(f"       payload {result['payload_bytes']} B, PUBLISH packet {result['publish_packet_bytes']} B; {result['path']}")


if __name__ == "__main__":
    main()
