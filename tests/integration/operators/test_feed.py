"""The operators' feed against real RabbitMQ and PostgreSQL: every event published once in order
per table, through a broker restart mid-stream (the consumer drops repeats by seq, sees no gap),
to an operator away and back, again on replay; nothing that was rolled back is published."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators import outbox
from controller.studio.operators.publisher import FeedPublisher, queue_name, replay
from controller.studio.operators.settings import Operator
from controller.studio.operators.sim.consumer import FeedConsumer
from tests.fixtures.rabbitmq import RabbitServer
from tests.support.waiting import until

from .conftest import eventually, make_operator


async def deal(pool: AsyncConnectionPool[Any], table: str, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        async with pool.connection() as conn, conn.transaction():
            await outbox.append(conn, table, "baccarat", "card", {"card": "AS", "i": i}, round=f"{table}-{i // 10:06d}",
                                state={"round": f"{table}-{i // 10:06d}", "cards": i % 10})


async def cursor(pool: AsyncConnectionPool[Any], operator: str) -> dict[str, int]:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT table_id, seq FROM op_feed_cursor WHERE operator = %s", (operator,))
        return {str(t): int(s) for t, s in await cur.fetchall()}


def operator(tmp_path: Path, name: str = "casino-a", **settings: Any) -> Operator:
    return make_operator(tmp_path, name, "http://127.0.0.1:9/wallet", **settings)


async def test_every_event_once_in_order_through_a_broker_restart(
        pool: AsyncConnectionPool[Any], rabbitmq: RabbitServer, tmp_path: Path) -> None:
    op = operator(tmp_path)
    publisher = FeedPublisher(pool, rabbitmq.url, {op.id: op}, poll_s=0.05, max_backoff_s=0.5)
    publisher.start()
    try:
        await deal(pool, "bac-1", 60)
        async with pool.connection() as conn, conn.transaction():
            await outbox.append(conn, "bac-1", "baccarat", "card", {"card": "KS"})
            raise psycopg.Rollback()  # this event never happened: it must never be published, nor leave a gap
        await eventually(lambda: cursor(pool, op.id), lambda c: c.get("bac-1", 0) >= 20, "events published")
        rabbitmq.stop()  # the broker goes away mid-stream
        await deal(pool, "bac-1", 60, start=60)
        await deal(pool, "bj-2", 30)
        rabbitmq.start()
        await eventually(lambda: cursor(pool, op.id), lambda c: c == {"bac-1": 120, "bj-2": 30}, "all events confirmed")
    finally:
        await publisher.stop()
    consumer = FeedConsumer(rabbitmq.url, queue_name(op, "baccarat"), op.feed_secret)
    await consumer.start()
    try:
        tally = consumer.tally
        await until(lambda: tally.last == {"bac-1": 120, "bj-2": 30}, "the operator holding every event",
                    arrived=tally.arrived, describe=lambda: str(tally.last))
    finally:
        await consumer.stop()
    assert tally.taken == {"bac-1": list(range(1, 121)), "bj-2": list(range(1, 31))}
    assert (tally.gaps, tally.bad_mac, tally.unreadable) == ([], 0, 0)


async def test_operator_away_then_back_gets_everything_in_order_and_replay_resends(
        pool: AsyncConnectionPool[Any], rabbitmq: RabbitServer, tmp_path: Path) -> None:
    away, here = operator(tmp_path, "casino-b", per_game=True), operator(tmp_path, "casino-c", tables=["rl-9"])
    publisher = FeedPublisher(pool, rabbitmq.url, {away.id: away, here.id: here}, poll_s=0.05)
    live = FeedConsumer(rabbitmq.url, queue_name(here, "baccarat"), here.feed_secret, duplicate=True)
    await live.start()
    publisher.start()
    try:
        await deal(pool, "bac-7", 40)  # casino-b is away the whole time; casino-c does not take bac-7
        async with pool.connection() as conn, conn.transaction():
            await outbox.append(conn, "rl-9", "roulette", "result", {"number": 17}, round="rl-9-000001")
        await eventually(lambda: cursor(pool, away.id), lambda c: c == {"bac-7": 40, "rl-9": 1}, "published to casino-b")
        # the event, then its redelivered copy (the consumer's duplicate fault), dropped
        await until(lambda: live.tally.last == {"rl-9": 1} and live.tally.duplicates == 1,
                    "casino-c holding its table's event once", arrived=live.tally.arrived)
    finally:
        await publisher.stop()
        await live.stop()
    back = FeedConsumer(rabbitmq.url, queue_name(away, "baccarat"), away.feed_secret)
    await back.start()
    try:
        await until(lambda: back.tally.last.get("bac-7") == 40, "casino-b catching up", arrived=back.tally.arrived)
        assert back.tally.taken["bac-7"] == list(range(1, 41)) and back.tally.gaps == []
        assert await replay(pool, rabbitmq.url, away, "bac-7", 31) == 10
        await until(lambda: back.tally.duplicates == 10, "the replayed range dropped as held", arrived=back.tally.arrived)
    finally:
        await back.stop()
    assert back.tally.gaps == [] and back.tally.bad_mac == 0


async def test_concurrent_events_of_one_table_get_one_gapless_sequence(pool: AsyncConnectionPool[Any]) -> None:
    async def writer(n: int) -> list[int]:
        seqs = []
        for i in range(15):
            async with pool.connection() as conn, conn.transaction():
                seqs.append(await outbox.append(conn, "rl-1", "roulette", "bet", {"writer": n, "i": i}))
        return seqs

    taken = [s for seqs in await asyncio.gather(*(writer(n) for n in range(6))) for s in seqs]
    assert sorted(taken) == list(range(1, 91))
    async with pool.connection() as conn:
        stored = [e.seq for e in await outbox.events(conn, "rl-1", 0)]
    assert stored == list(range(1, 91))


async def test_snapshot_then_the_stream_from_the_next_sequence(
        pool: AsyncConnectionPool[Any], rabbitmq: RabbitServer, tmp_path: Path) -> None:
    op = operator(tmp_path, "casino-s")
    publisher = FeedPublisher(pool, rabbitmq.url, {op.id: op}, poll_s=0.05)
    publisher.start()
    consumer = FeedConsumer(rabbitmq.url, queue_name(op, "baccarat"), op.feed_secret)
    try:
        await deal(pool, "bac-3", 13)  # the operator was not listening for these
        async with pool.connection() as conn:
            snapshot = await outbox.snapshot(conn, "bac-3")
        assert snapshot == {"v": 1, "table": "bac-3", "seq": 13, "game": "baccarat",
                            "state": {"round": "bac-3-000001", "cards": 2}}
        consumer.tally.from_snapshot(snapshot)
        await consumer.start()
        await deal(pool, "bac-3", 4, start=13)
        await until(lambda: consumer.tally.last == {"bac-3": 17} and consumer.tally.duplicates == 13,
                    "the live stream after the snapshot", arrived=consumer.tally.arrived,
                    describe=lambda: str(consumer.tally))
    finally:
        await publisher.stop()
        await consumer.stop()
    assert consumer.tally.taken == {"bac-3": [14, 15, 16, 17]} and consumer.tally.gaps == []


async def test_the_operators_consumer_keeps_consuming_through_broker_restarts(
        pool: AsyncConnectionPool[Any], rabbitmq: RabbitServer, tmp_path: Path) -> None:
    """The reference operator's consumer reading while the broker restarts under it (twice, with a
    delivery held unacknowledged by the duplicate fault): everything after each restart arrives
    too, once and in order."""
    op = operator(tmp_path, "casino-r")
    publisher = FeedPublisher(pool, rabbitmq.url, {op.id: op}, poll_s=0.05, max_backoff_s=0.5)
    consumer = FeedConsumer(rabbitmq.url, queue_name(op, "baccarat"), op.feed_secret, duplicate=True)
    await consumer.start()
    publisher.start()
    tally = consumer.tally
    try:
        for restart in range(2):
            await deal(pool, "bac-r", 15, start=15 * restart)
            await until(functools.partial(lambda read: tally.last.get("bac-r", 0) >= read, 10 * (restart + 1)),
                        "events read before the restart",
                        arrived=tally.arrived, describe=lambda: str(tally.last))
            await asyncio.to_thread(rabbitmq.stop)  # the consumer keeps running: it meets a broker starting
            await asyncio.to_thread(rabbitmq.start)
        await deal(pool, "bac-r", 15, start=30)
        await until(lambda: tally.last.get("bac-r") == 45, "every event after the restarts", arrived=tally.arrived,
                    describe=lambda: str(tally.last), within=90)
    finally:
        await publisher.stop()
        await consumer.stop()
    assert tally.taken == {"bac-r": list(range(1, 46))} and tally.gaps == []
