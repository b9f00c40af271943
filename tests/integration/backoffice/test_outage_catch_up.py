"""A long database outage under a busy feed: the broker holds thousands of messages in the
back office's session, the database comes back while the tables keep publishing, and every
message the broker acknowledged to a table is stored once the feed goes quiet, including what
the broker still counted in flight but never sent on that connection (docs/backoffice.md)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator

import aiomqtt
import paho.mqtt.client as paho
import psycopg
import pytest

from controller.backoffice.cluster import Cluster
from controller.backoffice.consumer import Consumer
from controller.backoffice.migrate import migrate
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.backoffice import feed
from tests.integration.backoffice.feed import event, round_record
from tests.support.waiting import until

WAIT = 90.0
TABLES = 20
EVENTS = 10  # journal events per round, as a dealt round has


class Floor:
    """Tables publishing rounds QoS 1 as fast as the broker takes them, on one connection; a
    round counts once the broker acknowledged it (PUBACK)."""

    def __init__(self, broker: MosquittoBroker) -> None:
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-floor")
        self.client.username_pw_set(broker.controller.username, broker.controller.password)
        self.client.max_inflight_messages_set(1000)
        self.client.max_queued_messages_set(0)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        self.dealt = dict.fromkeys((f"t{i:02d}" for i in range(TABLES)), 0)
        self.acknowledged = 0

    def deal(self, rounds_each: int) -> None:
        infos = []
        for _ in range(rounds_each):
            for table, n in self.dealt.items():
                n += 1
                seq = n * (EVENTS + 1)
                for k in range(EVENTS):
                    self.client.publish(f"croupier/{table}/event", json.dumps(
                        event(table, seq - EVENTS + k, "device", {"type": "card", "card": "AS"})), qos=1)
                infos.append(self.client.publish(f"croupier/{table}/round",
                                                 json.dumps(round_record(table, n, seq=seq)), qos=1))
                self.dealt[table] = n
        for info in infos:
            info.wait_for_publish(timeout=WAIT)
            assert info.is_published(), "the broker did not acknowledge a round"
        self.acknowledged += len(infos)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class DeepQueueBroker(MosquittoBroker):
    """The broker ``broker-config`` writes for a floor (an in-flight window of 200) with room for
    a long outage's messages."""

    def _write_config(self) -> None:
        super()._write_config()
        conf = self.dir / "mosquitto.conf"
        conf.write_text(conf.read_text().replace("max_queued_messages 10000",
                                                 "max_queued_messages 1000000\nmax_inflight_messages 200"))


@pytest.fixture
def broker() -> Iterator[MosquittoBroker]:
    with DeepQueueBroker(spots=0) as b:
        yield b


@pytest.fixture
def floor(broker: MosquittoBroker) -> Iterator[Floor]:
    f = Floor(broker)
    yield f
    f.close()


def stored(database: str) -> int:
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT count(*) FROM rounds").fetchone()
    return int(row[0]) if row else 0


async def test_a_long_outage_under_a_busy_feed_loses_nothing(broker: MosquittoBroker, database: str,
                                                            postgres: Cluster, floor: Floor) -> None:
    migrate(database)
    async with feed.running(broker.tcp_url(broker.pit), database, WAIT) as consumer:
        await asyncio.to_thread(floor.deal, 1)
        await until(lambda: stored(database) == floor.acknowledged, "the first rounds stored", within=WAIT)
        await asyncio.to_thread(postgres.stop, "immediate")
        await asyncio.to_thread(floor.deal, 100)  # held in the session: many times the in-flight window
        dealing = threading.Thread(target=floor.deal, args=(40,))  # the tables play on through the catch-up
        dealing.start()
        await asyncio.to_thread(postgres.start)
        await asyncio.to_thread(dealing.join)
        total = floor.acknowledged
        await until(lambda: stored(database) == total, f"all {total} acknowledged rounds stored", within=WAIT,
                    describe=lambda: f"{stored(database)} stored, {consumer.connections} connection(s)", poll=0.2)
    assert stored(database) == total


class MissesOneRound(Consumer):
    """The consumer as it is after a backlog when the broker keeps one message in flight and never
    sends it on this connection: that message does not reach it the first time."""

    missed: str | None = None

    def _route(self, message: aiomqtt.Message) -> None:
        if self.missed is None and str(message.topic).endswith("/round"):
            self.missed = str(message.topic)
            return  # neither acknowledged nor queued: only the broker has it
        super()._route(message)


async def test_what_the_broker_holds_in_flight_comes_once_the_feed_is_quiet(
        broker: MosquittoBroker, database: str, postgres: Cluster, floor: Floor) -> None:
    migrate(database)
    consumer = MissesOneRound(broker.tcp_url(broker.pit), database, backoff_max=0.5, resync_idle=0.5)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    try:
        await asyncio.wait_for(consumer.wait_connected(), WAIT)
        await asyncio.to_thread(postgres.stop, "immediate")
        await asyncio.to_thread(floor.deal, 3)  # held while the database is away
        await asyncio.to_thread(postgres.start)
        total = floor.acknowledged
        await until(lambda: stored(database) == total, f"all {total} acknowledged rounds stored", within=WAIT,
                    describe=lambda: f"{stored(database)} stored, missed {consumer.missed}", poll=0.2)
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT)
    assert consumer.missed is not None
    assert consumer.resyncs >= 1
