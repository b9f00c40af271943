"""The MQTT link over TLS against the real mosquitto: it connects with the CA that signed the
broker's certificate, and is refused with any other CA or with no TLS at all on the TLS port."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiomqtt
import pytest

from controller import lab_ca
from drivers.errors import DeviceAddressError
from drivers.mqtt import BrokerUrl, MqttLink
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.mqtt_security.conftest import NODELAY, is_verify_failure, take
from tests.support.waiting import until


async def test_the_link_publishes_over_mqtts_with_the_brokers_ca(tls_broker: MosquittoBroker) -> None:
    pit = tls_broker.pit
    async with aiomqtt.Client("127.0.0.1", tls_broker.port, username=pit.username, password=pit.password,
                              socket_options=NODELAY) as watch:
        await watch.subscribe("croupier/bj1/event", qos=1)
        link = MqttLink(tls_broker.tls_url(), "tls-feed", backoff_max=0.5)
        assert link.url.tls and link.url.port == tls_broker.tls_port
        async with link:
            await asyncio.wait_for(link.wait_connected(), 5)
            link.publish("croupier/bj1/event", b'{"seq":1}')
            await asyncio.wait_for(link.drained(), 5)
        got = await take(watch, 1)
    assert got[0].payload == b'{"seq":1}'


async def test_a_wrong_ca_is_refused(tls_broker: MosquittoBroker, tmp_path: Path) -> None:
    other = lab_ca.make_ca(tmp_path / "other", "Someone else's CA")
    link = MqttLink(tls_broker.tls_url(cafile=other.cert), "wrong-ca", backoff_min=0.05, backoff_max=0.1)
    async with link:
        await until(lambda: link.reconnect.failures >= 3, "three refused attempts")
        assert not link.connected and link.connections == 0
        assert is_verify_failure(link.last_error), link.last_error


async def test_plaintext_on_the_tls_port_gets_nothing(tls_broker: MosquittoBroker) -> None:
    who = tls_broker.controller
    with pytest.raises(aiomqtt.MqttError):
        async with aiomqtt.Client("127.0.0.1", tls_broker.tls_port, username=who.username, password=who.password,
                                  timeout=2):
            pass


def test_an_unreadable_ca_fails_when_the_link_is_made(tmp_path: Path) -> None:
    url = BrokerUrl.parse(f"mqtts://c@127.0.0.1:8883?cafile={tmp_path}/missing.pem")
    with pytest.raises(DeviceAddressError, match="missing.pem"):
        MqttLink(url, "no-ca")
