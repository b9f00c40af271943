"""Broker URLs and the link's outbox, without a broker."""

from __future__ import annotations

import asyncio

import pytest

from drivers.mqtt import BrokerUrl, Outbox, OutboxFull, Outgoing


def test_urls_round_trip() -> None:
    tcp = BrokerUrl.parse("mqtt://controller:p%40ss@127.0.0.1:1884")
    assert (tcp.transport, tcp.host, tcp.port, tcp.username, tcp.password) == ("tcp", "127.0.0.1", 1884, "controller", "p@ss")
    assert BrokerUrl.parse(str(tcp)) == tcp
    assert tcp.redacted() == "mqtt://controller:***@127.0.0.1:1884"
    unix = BrokerUrl.parse("unix://spot-3:x@/tmp/mq/mqtt.sock")
    assert (unix.transport, unix.host, unix.username) == ("unix", "/tmp/mq/mqtt.sock", "spot-3")
    assert BrokerUrl.parse(str(unix)) == unix
    assert BrokerUrl.parse("unix:///run/mosquitto.sock").username is None
    assert BrokerUrl.parse("mqtt://broker").port == 1883


@pytest.mark.parametrize("bad", ["http://x", "mqtt://", "mqtt://h:notaport", "unix://", "broker:1883"])
def test_bad_urls_say_so(bad: str) -> None:
    with pytest.raises(ValueError):
        BrokerUrl.parse(bad)


async def test_outbox_keeps_the_head_until_acknowledged() -> None:
    box = Outbox(limit=2)
    a, b = Outgoing("t", b"a"), Outgoing("t", b"b")
    box.put(a)
    box.put(b)
    with pytest.raises(OutboxFull):
        box.put(Outgoing("t", b"c"))
    assert await box.head() is a
    assert await box.head() is a  # a failed publish leaves it in place
    box.ack(a)
    assert await box.head() is b
    drained = asyncio.create_task(box.drained())
    await asyncio.sleep(0)
    assert not drained.done()
    box.ack(b)
    await asyncio.wait_for(drained, 1)
    waiting = asyncio.create_task(box.head())
    await asyncio.sleep(0)
    box.put(a)
    assert await asyncio.wait_for(waiting, 1) is a
