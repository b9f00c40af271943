"""A message received by our MQTT clients leaves no garbage for the cyclic collector
(drivers/mqtt/callbacks.py), and paho's per-topic callbacks still work."""

from __future__ import annotations

import gc
from typing import Any

import aiomqtt
from paho.mqtt.client import MQTTMessage

from drivers.mqtt.link import session_client
from drivers.mqtt.url import BrokerUrl


def received(client: aiomqtt.Client, topic: str, count: int) -> list[Any]:
    """What the collector finds unreachable after ``count`` messages of ``topic`` came in."""
    message = MQTTMessage(mid=1, topic=topic.encode())
    message.payload = b"{}"
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(count):
            client._client._handle_on_message(message)
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_a_received_message_leaves_no_reference_cycle() -> None:
    routed: list[aiomqtt.Message] = []
    client = session_client(BrokerUrl.parse("mqtt://127.0.0.1:1883"), None, "test-callbacks", routed.append,
                            keepalive=10)
    garbage = received(client, "croupier/t1/state", 50)
    assert [m.topic.value for m in routed] == ["croupier/t1/state"] * 50
    assert not [o for o in garbage if getattr(o, "__qualname__", "").startswith("MQTTMatcher.iter_match")]


async def test_a_per_topic_callback_still_takes_its_messages() -> None:
    routed: list[aiomqtt.Message] = []
    client = session_client(BrokerUrl.parse("mqtt://127.0.0.1:1883"), None, "test-callbacks", routed.append,
                            keepalive=10)
    taken: list[str] = []
    client._client.message_callback_add("croupier/+/alert", lambda _c, _u, m: taken.append(m.topic))
    received(client, "croupier/t1/alert", 2)
    received(client, "croupier/t1/state", 1)
    assert taken == ["croupier/t1/alert"] * 2 and [m.topic.value for m in routed] == ["croupier/t1/state"]
