"""The shared MQTT link against a real mosquitto, observed by plain aiomqtt clients."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiomqtt

from drivers.mqtt import BrokerUrl, LinkDown, LinkUp, MqttLink, Outgoing
from tests.fixtures.mosquitto import Credentials, MosquittoBroker
from tests.support.waiting import until

NODELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)


@asynccontextmanager
async def observer(broker: MosquittoBroker, topic: str, who: Credentials | None = None) -> AsyncIterator[aiomqtt.Client]:
    who = who or broker.controller
    async with aiomqtt.Client(
        "127.0.0.1", broker.port, username=who.username, password=who.password, socket_options=NODELAY
    ) as client:
        await client.subscribe(topic, qos=1)
        yield client


async def take(client: aiomqtt.Client, n: int, timeout: float = 5.0) -> list[aiomqtt.Message]:
    async def collect() -> list[aiomqtt.Message]:
        out = []
        async for message in client.messages:
            out.append(message)
            if len(out) == n:
                return out
        return out

    return await asyncio.wait_for(collect(), timeout)


async def test_outbox_order_survives_a_broker_restart(mosquitto: MosquittoBroker) -> None:
    link = MqttLink(mosquitto.tcp_url(), "feed-test", backoff_min=1.0, backoff_max=1.0)
    states = link.subscribe("croupier/bj1/none")
    async with link:
        await asyncio.wait_for(link.wait_connected(), 5)
        mosquitto.stop()
        assert isinstance(await asyncio.wait_for(states.get(), 5), LinkUp)
        assert isinstance(await asyncio.wait_for(states.get(), 5), LinkDown)
        for i in range(50):
            link.publish("croupier/bj1/event", f"{i}")
        mosquitto.start()
        async with observer(mosquitto, "croupier/bj1/event") as watch:  # before the link's 1 s backoff ends
            received = await take(watch, 50)
        assert [int(m.payload) for m in received] == list(range(50))
        assert isinstance(await asyncio.wait_for(states.get(), 5), LinkUp)
        assert link.pending == 0 and link.connections == 2


async def test_messages_queued_before_the_first_connection_go_out(mosquitto: MosquittoBroker) -> None:
    mosquitto.stop()
    link = MqttLink(mosquitto.tcp_url(), "early", backoff_min=0.5, backoff_max=0.5,
                    birth=Outgoing("croupier/bj1/link", b"1", retain=True))
    states = link.subscribe("croupier/bj1/none")
    async with link:
        link.publish("croupier/bj1/state", b'{"phase":"open"}', retain=True)
        down = await asyncio.wait_for(states.get(), 5)
        assert isinstance(down, LinkDown) and link.last_error
        mosquitto.start()
        await asyncio.wait_for(link.drained(), 5)
        async with observer(mosquitto, "croupier/bj1/#") as watch:
            got = {str(m.topic): m.payload for m in await take(watch, 2)}
    assert got == {"croupier/bj1/state": b'{"phase":"open"}', "croupier/bj1/link": b"1"}


async def test_refused_credentials_keep_retrying_and_say_why(mosquitto: MosquittoBroker) -> None:
    url = BrokerUrl.parse(mosquitto.tcp_url()).with_credentials("controller", "wrong")
    link = MqttLink(url, "bad-login", backoff_min=0.05, backoff_max=0.1)
    states = link.subscribe("croupier/#")
    async with link:
        down = await asyncio.wait_for(states.get(), 5)
        await until(lambda: link.reconnect.failures >= 4, "four refused attempts")
        assert isinstance(down, LinkDown)
        assert "authori" in down.reason.lower() or "auth" in link.last_error.lower()
        assert len(states) == 0  # one LinkDown per outage, not per attempt
        assert not link.connected and link.connections == 0


LINK_PROCESS = """
import asyncio, sys
from drivers.mqtt import MqttLink, Outgoing
async def main():
    link = MqttLink(sys.argv[1], "with-will", will=Outgoing("croupier/bj1/controller", b"0", retain=True),
                    birth=Outgoing("croupier/bj1/controller", b"1", retain=True))
    async with link:
        await asyncio.Event().wait()  # up until the test kills it
asyncio.run(main())
"""


async def test_will_is_published_when_the_process_dies(mosquitto: MosquittoBroker) -> None:
    """SIGKILL: no DISCONNECT reaches the broker, so it publishes the retained will."""
    async with observer(mosquitto, "croupier/bj1/controller") as watch:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LINK_PROCESS, mosquitto.unix_url(), cwd=Path(__file__).parents[3]
        )
        try:
            assert (await take(watch, 1, timeout=10))[0].payload == b"1"
        finally:
            process.kill()
            await process.wait()
        assert (await take(watch, 1))[0].payload == b"0"
