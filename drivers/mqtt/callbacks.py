"""paho's per-topic message callbacks, made free to look up when there are none.

paho looks up the callbacks of ``message_callback_add`` for every message it receives, through
a recursive closure that refers to itself: a reference cycle of six objects per message that
only the cyclic garbage collector frees. Our clients never add such callbacks (aiomqtt routes
every message through ``on_message``), so the lookup finds nothing and the garbage alone is the
cost: at 2,000 messages a second it ran the collector twenty times a second and, in the pit
dashboard, moved the floor model's young objects into the oldest generation within a second,
so a full collection (15 to 30 ms of the event loop) came every few seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import aiomqtt
from paho.mqtt.matcher import MQTTMatcher


class CallbackFilters(MQTTMatcher):
    """paho's matcher, answering at once while no per-topic callback was added."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]

    def iter_match(self, topic: str) -> Iterator[Any]:
        if not self._root._children:
            return iter(())
        return super().iter_match(topic)  # type: ignore[no-untyped-call, no-any-return]


def without_callback_garbage(client: aiomqtt.Client) -> aiomqtt.Client:
    """``client`` with paho's per-topic callbacks held in a ``CallbackFilters`` (same behaviour,
    no garbage per message); a paho that keeps them elsewhere is left as it is."""
    paho = client._client
    if type(getattr(paho, "_on_message_filtered", None)) is MQTTMatcher:
        paho._on_message_filtered = CallbackFilters()
    return client
