"""``drivers.mqtt.PersistentSubscriber`` against a real mosquitto: a message the reader did not
acknowledge comes again on its next connection (the session is persistent), one it acknowledged
does not, what was published while it was away is delivered when it is back, and a restart the
reader asks for is a new connection with the same session."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import aiomqtt

from drivers.mqtt import PersistentSubscriber
from drivers.mqtt.url import BrokerUrl
from tests.fixtures.mosquitto import MosquittoBroker
from tests.support.waiting import until

WAIT = 20.0
FILTERS = ("croupier/+/round",)


class Reader:
    """What the subscriber handed over, in order, with the connection each came on."""

    def __init__(self, url: str) -> None:
        self.got: list[aiomqtt.Message] = []
        self.on: list[int] = []
        self.subscriber = PersistentSubscriber(url, "test-reader", FILTERS, self.take, backoff_max=0.2)

    def take(self, message: aiomqtt.Message) -> None:
        self.got.append(message)
        self.on.append(self.subscriber.connection)

    def payloads(self) -> list[bytes]:
        return [bytes(m.payload) for m in self.got if isinstance(m.payload, bytes)]


@contextlib.asynccontextmanager
async def reading(url: str) -> AsyncIterator[Reader]:
    reader = Reader(url)
    task = asyncio.create_task(reader.subscriber.run())
    try:
        await asyncio.wait_for(reader.subscriber.wait_connected(), WAIT)
        yield reader
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def publish(url: str, *payloads: bytes) -> None:
    broker = BrokerUrl.parse(url)
    async with aiomqtt.Client(broker.host, broker.port, username=broker.username, password=broker.password,
                              identifier="test-table") as client:
        for payload in payloads:
            await client.publish("croupier/bj1/round", payload, qos=1)


async def test_only_what_was_acknowledged_is_gone_after_a_reconnect(mosquitto: MosquittoBroker) -> None:
    pit, table = mosquitto.tcp_url(mosquitto.pit), mosquitto.tcp_url()
    async with reading(pit) as first:
        await publish(table, b"one", b"two")
        await until(lambda: len(first.got) == 2, "two messages", within=WAIT)
        acked = first.got[0]
        assert first.subscriber.ack(first.on[0], acked.mid, acked.qos)
    # "two" was never acknowledged; "three" is published while nobody reads
    await publish(table, b"three")
    async with reading(pit) as second:
        await until(lambda: b"three" in second.payloads(), "what was kept in the session", within=WAIT)
        assert second.payloads() == [b"two", b"three"]
        assert second.subscriber.runner.diagnostics()["state"] == "connected"


async def test_an_acknowledgement_for_an_earlier_connection_is_not_sent(mosquitto: MosquittoBroker) -> None:
    pit, table = mosquitto.tcp_url(mosquitto.pit), mosquitto.tcp_url()
    async with reading(pit) as reader:
        await publish(table, b"one")
        await until(lambda: len(reader.got) == 1, "one message", within=WAIT)
        message, connection = reader.got[0], reader.on[0]
        reader.subscriber.restart("the reader asked")
        await until(lambda: reader.subscriber.connections == 2 and reader.subscriber.connected.is_set(),
                    "a new connection", within=WAIT)
        assert not reader.subscriber.ack(connection, message.mid, message.qos)  # that connection is gone
        await until(lambda: len(reader.got) == 2, "the message again", within=WAIT)
        assert reader.payloads() == [b"one", b"one"] and reader.on[1] == reader.subscriber.connection
        assert reader.subscriber.ack(reader.on[1], reader.got[1].mid, reader.got[1].qos)
