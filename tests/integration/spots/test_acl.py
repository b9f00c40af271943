"""The fixture's ACL, observed by delivery (mosquitto drops violations silently). Each probe is
followed by an allowed marker message, so "not delivered" is not just "not delivered yet"."""

from __future__ import annotations

import aiomqtt

from tests.fixtures.mosquitto import Credentials, MosquittoBroker
from tests.integration.spots.test_link import NODELAY, observer, take


def client(broker: MosquittoBroker, who: Credentials) -> aiomqtt.Client:
    return aiomqtt.Client("127.0.0.1", broker.port, username=who.username, password=who.password, socket_options=NODELAY)


async def test_who_may_publish_what(mosquitto: MosquittoBroker) -> None:
    probes = [
        (mosquitto.pit, "croupier/bj1/command", True),
        (mosquitto.spot(2), "croupier/bj1/command", False),
        (mosquitto.spot(2), "croupier/bj1/spot/2/press", True),
        (mosquitto.spot(2), "croupier/bj1/spot/3/press", False),
        (mosquitto.spot(2), "croupier/bj1/spot/3/online", False),
        (mosquitto.spot(2), "croupier/bj1/spot/2/lamp", False),
        (mosquitto.pit, "croupier/bj1/spot/2/lamp", False),
        (mosquitto.controller, "croupier/bj1/spot/2/lamp", True),
    ]
    async with observer(mosquitto, "croupier/#") as watch:
        for who, topic, allowed in probes:
            async with client(mosquitto, who) as c:
                await c.publish(topic, f"probe {who.username}".encode(), qos=1)
            async with client(mosquitto, mosquitto.controller) as c:
                await c.publish("croupier/bj1/marker", b"m", qos=1)
            got = await take(watch, 2 if allowed else 1)
            assert [str(m.topic) for m in got][-1] == "croupier/bj1/marker", (who.username, topic)
            assert (len(got) == 2) == allowed, (who.username, topic)


async def test_a_spot_reads_only_its_own_lamp(mosquitto: MosquittoBroker) -> None:
    async with client(mosquitto, mosquitto.spot(1)) as spot1:
        await spot1.subscribe("croupier/bj1/spot/+/lamp", qos=1)
        await spot1.subscribe("croupier/bj1/spot/+/press", qos=1)
        async with client(mosquitto, mosquitto.controller) as c:
            await c.publish("croupier/bj1/spot/2/lamp", b"theirs", qos=1)
            await c.publish("croupier/bj1/spot/2/press", b"theirs", qos=1)
            await c.publish("croupier/bj1/spot/1/lamp", b"mine", qos=1)
            await c.publish("croupier/bj1/spot/1/lamp", b"marker", qos=1)  # delivered after anything before it
        got = await take(spot1, 2)
        assert [m.payload for m in got] == [b"mine", b"marker"] and len(spot1.messages) == 0
