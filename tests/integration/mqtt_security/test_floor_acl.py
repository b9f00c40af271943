"""The broker ``croupier broker-config`` writes, run by the real mosquitto over TLS: every account
publishes what it owns and nothing else. mosquitto drops an ACL violation silently, so each probe
is followed by an allowed marker and the watcher must see the marker alone (not "not yet")."""

from __future__ import annotations

from pathlib import Path

import aiomqtt
import pytest

from controller import lab_ca
from drivers.mqtt.tls import tls_context
from tests.integration.mqtt_security.conftest import FloorBroker, take, watching

MARKER = ("pit", "croupier/bj1/command")

# (account, topic, delivered)
PROBES = [
    ("bj1-spot-2", "croupier/bj1/spot/2/press", True),
    ("bj1-spot-2", "croupier/bj1/spot/3/press", False),  # another spot's press
    ("bj1-spot-2", "croupier/bj1/spot/3/online", False),
    ("bj1-spot-2", "croupier/bj2/spot/2/press", False),  # the same spot number at another table
    ("bj1-spot-2", "croupier/bj1/spot/2/lamp", False),  # a lamp is the controller's
    ("bj1-spot-2", "croupier/bj1/command", False),
    ("bj1-controller", "croupier/bj1/event", True),
    ("bj1-controller", "croupier/bj1/spot/1/lamp", True),
    ("bj1-controller", "croupier/bj2/event", False),  # another table's feed
    ("bj1-controller", "croupier/bj2/round", False),
    ("bj1-controller", "croupier/bj1/command", False),  # a controller cannot command itself
    ("bj1-controller", "croupier/bj1/spot/1/press", False),
    ("bj2-controller", "croupier/bj2/round", True),
    ("pit", "croupier/bj2/command", True),
    ("pit", "croupier/bj1/event", False),  # the pit commands, it does not speak for a table
    ("viewer", "croupier/bj1/command", False),  # read-only
    ("viewer", "croupier/bj1/event", False),
    ("viewer", "croupier/bj1/state", False),
]


async def probe(floor: FloorBroker, user: str, topic: str, watch: aiomqtt.Client) -> list[str]:
    async with floor.client(user) as c:
        await c.publish(topic, f"probe {user}".encode(), qos=1)
    async with floor.client(MARKER[0]) as c:
        await c.publish(MARKER[1], b"marker", qos=1)
    got: list[str] = []
    while not got or got[-1] != MARKER[1]:
        got += [str(m.topic) for m in await take(watch, 1)]
    return got


async def test_each_account_publishes_only_what_it_owns(floor: FloorBroker) -> None:
    async with watching(floor.client("pit"), "croupier/bj1/#", "croupier/bj2/#") as watch:
        wrong = []
        for user, topic, allowed in PROBES:
            got = await probe(floor, user, topic, watch)
            assert got in ([topic, MARKER[1]], [MARKER[1]]), (user, topic, got)
            if (got == [topic, MARKER[1]]) != allowed:
                wrong.append((user, topic, "delivered" if allowed is False else "dropped"))
    assert not wrong, wrong


async def test_a_reader_reads_the_feed_but_not_the_spots_or_commands(floor: FloorBroker) -> None:
    async with watching(floor.client("viewer"), "croupier/bj1/#") as viewer:
        async with floor.client("bj1-controller") as c:
            await c.publish("croupier/bj1/spot/1/lamp", b"lamp", qos=1)
            await c.publish("croupier/bj1/event", b"event", qos=1)
        async with floor.client("pit") as c:
            await c.publish("croupier/bj1/command", b"command", qos=1)
        async with floor.client("bj1-controller") as c:
            await c.publish("croupier/bj1/round", b"round", qos=1)
            await c.publish("croupier/bj1/round", b"marker", qos=1)  # delivered after anything published before it
        got = await take(viewer, 3)
        assert [m.payload for m in got] == [b"event", b"round", b"marker"] and len(viewer.messages) == 0


async def test_a_spot_reads_only_its_own_lamp(floor: FloorBroker) -> None:
    async with watching(floor.client("bj1-spot-1"), "croupier/bj1/spot/+/lamp") as spot1:
        async with floor.client("bj1-controller") as c:
            await c.publish("croupier/bj1/spot/2/lamp", b"theirs", qos=1)
            await c.publish("croupier/bj1/spot/1/lamp", b"mine", qos=1)
            await c.publish("croupier/bj1/spot/1/lamp", b"marker", qos=1)  # delivered after anything before it
        got = await take(spot1, 2)
        assert [m.payload for m in got] == [b"mine", b"marker"] and len(spot1.messages) == 0


@pytest.mark.parametrize("user", [None, "bj1-controller"], ids=["anonymous", "wrong-password"])
async def test_an_unknown_client_cannot_connect_at_all(floor: FloorBroker, user: str | None) -> None:
    url = floor.url(user)
    with pytest.raises(aiomqtt.MqttCodeError) as refused:
        async with aiomqtt.Client(url.host, url.port, username=user, password="not-it" if user else None,
                                  tls_context=tls_context(url), timeout=5):
            pass
    assert refused.value.rc in (4, 5, 134, 135)  # bad user name or password / not authorised


async def test_client_certificates_when_the_broker_requires_them(floor_files: Path, tmp_path: Path) -> None:
    ca = lab_ca.CertFiles(floor_files / "tls" / "ca.pem", floor_files / "tls" / "ca.key")
    cert = lab_ca.issue(ca, tmp_path / "clients", "bj1-controller")
    pit = lab_ca.issue(ca, tmp_path / "clients", "pit")
    broker = FloorBroker(floor_files, client_certificates=True)
    try:
        broker.start()
        with pytest.raises(aiomqtt.MqttError):
            async with broker.client("bj1-controller", timeout=1):
                pass
        async with watching(broker.client("pit", cert=(pit.cert, pit.key)), "croupier/bj1/#") as watch:
            async with broker.client("bj1-controller", cert=(cert.cert, cert.key)) as c:
                await c.publish("croupier/bj1/event", b"with a certificate", qos=1)
            assert [m.payload for m in await take(watch, 1)] == [b"with a certificate"]
    finally:
        broker.close()
