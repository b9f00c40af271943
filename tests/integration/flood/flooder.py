"""A flooding MQTT client in its own process: ``python flooder.py URL USER PASSWORD TOPIC KIND RATE SECONDS``.

Publishes ``RATE`` messages a second (QoS 0) for ``SECONDS`` to ``TOPIC`` with the given
credentials: ``press`` sends valid spot-1 presses with rising seq, ``pit`` valid pit commands
with fresh ids. Prints the number sent."""

from __future__ import annotations

import json
import sys
import time
from urllib.parse import urlsplit

import paho.mqtt.client as paho


def payload(kind: str, n: int) -> bytes:
    if kind == "press":
        return json.dumps({"v": 1, "device": "spot-1", "seq": n, "button": "hit"}).encode()
    return json.dumps({"v": 1, "id": f"flood-{n}", "sender": "pit-boss-anna", "command": "acknowledge_alert",
                       "alert": 10**9 + n}).encode()


def main() -> None:
    url, user, password, topic, kind, rate, seconds = sys.argv[1:8]
    parts = urlsplit(url)
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"flood-{kind}")
    client.username_pw_set(user, password)
    client.max_queued_messages_set(0)
    client.connect(parts.hostname or "127.0.0.1", parts.port or 1883)
    client.loop_start()
    per_tick, tick = int(float(rate)) // 100, 0.01
    sent, start = 0, time.monotonic()
    last = None
    while time.monotonic() - start < float(seconds):
        for _ in range(per_tick):
            sent += 1
            last = client.publish(topic, payload(kind, sent), qos=0)
        ahead = start + (sent / float(rate)) - time.monotonic()
        if ahead > 0:
            time.sleep(min(ahead, tick))  # the flood's own rate: what this process generates
    if last is not None:
        last.wait_for_publish(timeout=10)  # the network loop has written everything before it
    client.loop_stop()
    client.disconnect()
    print(sent, flush=True)


if __name__ == "__main__":
    main()
