"""``croupier demo --dir`` started again: its RabbitMQ node comes back from the directory with the
messages its durable queue held (same node, user and password), and the reference operator's
consumer goes on from the position kept in its books: no false gap, nothing lost in between."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import aio_pika

from controller.studio.operators import feedmsg
from controller.studio.operators.rabbit import RabbitServer
from controller.studio.operators.sim.consumer import FeedConsumer, FeedTally
from controller.studio.operators.sim.store import SimStore
from tests.support.waiting import until

SECRET = b"s" * 32
QUEUE = "croupier.demo-casino"


async def publish(url: str, seqs: range) -> None:
    """The studio's way: persistent messages on the durable queue, confirmed."""
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel(publisher_confirms=True)
        await channel.declare_queue(QUEUE, durable=True, auto_delete=False)
        for seq in seqs:
            event = feedmsg.FeedEvent("rl-eu", seq, f"r{seq}", "result", "roulette", "x",
                                      datetime(2026, 12, 5, tzinfo=UTC), {"number": seq % 37})
            body = feedmsg.canonical(feedmsg.message("demo-casino", SECRET, event))
            await channel.default_exchange.publish(
                aio_pika.Message(body, delivery_mode=aio_pika.DeliveryMode.PERSISTENT), routing_key=QUEUE)


async def consume(url: str, store: SimStore, until_seq: int) -> FeedTally:
    tally = FeedTally()
    consumer = FeedConsumer(url, QUEUE, SECRET, tally=tally, store=store)
    await consumer.start()
    try:
        await until(lambda: tally.last.get("rl-eu", 0) >= until_seq, f"the feed taken up to seq {until_seq}",
                    within=60, arrived=tally.arrived, describe=lambda: str(tally.taken))
    finally:
        await consumer.stop()
    return tally


def test_a_restarted_demo_rabbit_keeps_its_queue_and_the_consumer_its_position(tmp_path: Path) -> None:
    books = SimStore(tmp_path / "operator-sim.sqlite")
    first = RabbitServer(tmp_path / "rabbitmq")
    first.start()
    try:
        asyncio.run(publish(first.url, range(1, 4)))
        taken = asyncio.run(consume(first.url, books, 3))
        assert taken.taken == {"rl-eu": [1, 2, 3]} and not taken.gaps
        asyncio.run(publish(first.url, range(4, 6)))  # published and confirmed, not yet consumed
        url = first.url
    finally:
        first.close()
    assert (tmp_path / "rabbitmq").is_dir()  # a kept directory stays

    again = RabbitServer(tmp_path / "rabbitmq")
    assert (again.node, again.user, again.password) == (first.node, first.user, first.password)
    again.start()
    try:
        assert again.url.split("@")[0] == url.split("@")[0]  # the same user and password
        asyncio.run(publish(again.url, range(6, 7)))
        tally = asyncio.run(consume(again.url, SimStore(tmp_path / "operator-sim.sqlite"), 6))
        assert tally.taken == {"rl-eu": [4, 5, 6]}, tally.taken
        assert tally.gaps == [] and tally.duplicates == 0
    finally:
        again.close()
