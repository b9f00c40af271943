"""The consumer against a real mosquitto and a real PostgreSQL: every kind of feed message
lands in its table, duplicates change nothing, a correction is a new version beside the old,
a database that goes away loses nothing, and a message the broker delivered but the database
never got (the consumer gone first) is delivered again."""

from __future__ import annotations

import asyncio
import json
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import psycopg

from controller.backoffice.cluster import Cluster
from controller.backoffice.consumer import Consumer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.backoffice import feed, journaled
from tests.integration.backoffice.feed import T0, Publisher, event, round_record, ts
from tests.integration.backoffice.feed import state as feed_state
from tests.support.waiting import until

WAIT = 60.0


def running(mosquitto: MosquittoBroker, database: str) -> AbstractAsyncContextManager[Consumer]:
    return feed.running(mosquitto.tcp_url(mosquitto.pit), database, WAIT)


async def received(consumer: Consumer, count: int) -> None:
    """Until the consumer has had ``count`` round messages from the broker."""
    await until(lambda: consumer.metrics.messages.labels("round")._value.get() >= count,
                f"{count} round messages received", within=WAIT)


def rows(database: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(database) as conn:
        return conn.execute(sql).fetchall()


async def send(publisher: Publisher, topic: str, body: object, retain: bool = False) -> None:
    await asyncio.to_thread(publisher.send, topic, body, retain)  # type: ignore[arg-type]


async def test_every_kind_of_feed_message_is_kept_once(mosquitto: MosquittoBroker, migrated: str,
                                                       publisher: Publisher) -> None:
    head = {"v": 1, "table": "bj1", "seq": 12, "hash": "ab" * 32, "ts": ts(T0)}
    alert = {"v": 1, "table": "bj1", "round": "bj1-000001", "ts": ts(T0), "seq": 9, "severity": "error",
             "code": "blackjack.dealer.stands", "message": "dealer drew on 17", "hold": True}
    state = feed_state("bj1", T0, phase="idle")
    messages = [
        ("croupier/bj1/state", state),
        ("croupier/bj1/event", event("bj1", 1, "command", {"command": "sign_in", "dealer": "maria"})),
        ("croupier/bj1/event", event("bj1", 2, "device", {"type": "card", "card": "AS"}, source="shoe")),
        ("croupier/bj1/round", round_record("bj1", 1, seq=10, stake=1000, payout=2500)),
        ("croupier/bj1/alert", alert),
        ("croupier/bj1/event", event("bj1", 11, "pit_command", {"v": 1, "id": "pit-1", "sender": "anna",
                                                                "command": "acknowledge_alert", "alert": 9})),
        ("croupier/bj1/head", head),
        ("croupier/bj1/event", event("bj1", 13, "command", {"command": "sign_out"})),
    ]
    async with running(mosquitto, migrated) as consumer:
        for topic, body in messages + messages:  # every message twice: at-least-once delivery
            await send(publisher, topic, body)
        await asyncio.wait_for(consumer.wait_committed(2 * len(messages)), WAIT)
    assert rows(migrated, "SELECT table_id, game, preset, currency FROM floor_tables") == [("bj1", "blackjack", "ru6", "EUR")]
    assert rows(migrated, "SELECT round_id, version, preset, stake_total, payout_total, dealer FROM rounds") == [
        ("bj1-000001", 0, "ru6", 1000, 2500, "maria")]
    assert rows(migrated, "SELECT n, kind, player, stake, payout FROM bets") == [(0, "main", "p1", 1000, 2500)]
    assert rows(migrated, "SELECT seq, code, hold FROM alerts") == [(9, "blackjack.dealer.stands", True)]
    assert rows(migrated, "SELECT seq, command, sender, command_id FROM pit_commands") == [
        (11, "acknowledge_alert", "anna", "pit-1")]
    assert rows(migrated, "SELECT seq, action, dealer FROM dealer_events ORDER BY seq") == [
        (1, "sign_in", "maria"), (13, "sign_out", None)]
    assert rows(migrated, "SELECT seq, hash FROM journal_heads") == [(12, "ab" * 32)]
    assert rows(migrated, "SELECT count(*) FROM rejected") == [(0,)]


async def test_a_correction_is_a_new_version_and_the_first_is_kept(mosquitto: MosquittoBroker, migrated: str,
                                                                  publisher: Publisher, tmp_path: Path) -> None:
    """A correction as a table journals and publishes it (its journal rows ride along)."""
    table = journaled.corrected_round(tmp_path / "bj1.db")
    first, corrected = table.first, [m for m in table.messages if m.topic.endswith("/round")][-1]
    async with running(mosquitto, migrated) as consumer:
        for m in table.messages:
            await send(publisher, m.topic, m.payload, m.retain)
        await send(publisher, "croupier/bj1/round", first)  # redelivered: a no-op
        await asyncio.wait_for(consumer.wait_committed(len(table.messages) + 1), WAIT)
    assert json.loads(corrected.payload)["seq"] == 5  # row 1 of a keyed journal declares its key
    assert rows(migrated, "SELECT version, seq, payout_total FROM rounds ORDER BY version") == [(0, 2, 0), (1, 5, 2000)]
    assert rows(migrated, "SELECT count(*) FROM rejected") == [(0,)]


async def test_unreadable_messages_are_kept_as_rejected_and_do_not_block(mosquitto: MosquittoBroker, migrated: str,
                                                                         publisher: Publisher) -> None:
    bad_totals = {**round_record("bj1", 1, seq=10), "stake_total": 5}
    nul = round_record("bj1", 2, seq=11, dealer="ma\u0000ria")  # valid JSON the database refuses (NUL in text)
    async with running(mosquitto, migrated) as consumer:
        for body in (b"{not json", bad_totals, {**round_record("bj1", 3, seq=12), "stake_total": 1.5}, nul,
                     round_record("bj1", 4, seq=13)):
            await send(publisher, "croupier/bj1/round", body)  # type: ignore[arg-type]
        await asyncio.wait_for(consumer.wait_committed(5), WAIT)
    assert rows(migrated, "SELECT round_id FROM rounds") == [("bj1-000004",)]
    reasons = [r[0] for r in rows(migrated, "SELECT reason FROM rejected ORDER BY id")]
    assert len(reasons) == 4
    assert any("not JSON" in r for r in reasons)
    assert any("sum of its bets" in r for r in reasons)
    assert any("database refused" in r for r in reasons)


async def test_a_database_that_goes_away_loses_nothing(mosquitto: MosquittoBroker, migrated: str, postgres: Cluster,
                                                       publisher: Publisher) -> None:
    async with running(mosquitto, migrated) as consumer:
        for n in range(1, 11):
            await send(publisher, "croupier/bj1/round", round_record("bj1", n, seq=n))
        await asyncio.wait_for(consumer.wait_committed(10), WAIT)
        await asyncio.to_thread(postgres.stop, "immediate")
        for n in range(11, 61):  # more than the broker's in-flight window: the rest wait in the session
            await send(publisher, "croupier/bj1/round", round_record("bj1", n, seq=n))
        assert consumer.committed == 10
        await asyncio.to_thread(postgres.start)
        await asyncio.wait_for(consumer.wait_committed(60), WAIT)
    assert rows(migrated, "SELECT count(*), count(DISTINCT round_id), sum(stake_total) FROM rounds") == [(60, 60, 60_000)]


async def test_what_was_received_but_never_committed_comes_again(mosquitto: MosquittoBroker, migrated: str,
                                                                 postgres: Cluster, publisher: Publisher) -> None:
    """The first consumer gets the messages while the database is down and goes away without
    committing them: since it never acknowledged them, the broker gives them to the next one."""
    await asyncio.to_thread(postgres.stop, "fast")
    async with running(mosquitto, migrated) as first:
        for n in range(1, 6):
            await send(publisher, "croupier/bj1/round", round_record("bj1", n, seq=n))
        await received(first, 5)
        assert first.committed == 0
    await asyncio.to_thread(postgres.start)
    async with running(mosquitto, migrated) as second:
        await asyncio.wait_for(second.wait_committed(5), WAIT)
    assert rows(migrated, "SELECT count(*) FROM rounds") == [(5,)]


async def test_past_its_queue_limit_it_lets_the_broker_hold_the_rest(mosquitto: MosquittoBroker, migrated: str,
                                                                     postgres: Cluster, publisher: Publisher) -> None:
    """The database down and more messages in flight than the consumer may hold: it drops the
    link rather than the messages, and the broker redelivers what was never acknowledged."""
    async with feed.running(mosquitto.tcp_url(mosquitto.pit), migrated, WAIT, queue_limit=10) as consumer:
        await asyncio.to_thread(postgres.stop, "fast")
        for n in range(1, 41):
            await send(publisher, "croupier/bj1/round", round_record("bj1", n, seq=n))
        # past the limit it made the link again
        await until(lambda: consumer.connections >= 2, "the link dropped and made again", within=WAIT)
        assert consumer.committed == 0
        await asyncio.to_thread(postgres.start)
        count = "SELECT count(*) FROM rounds"
        await until(lambda: rows(migrated, count) == [(40,)], "all 40 rounds stored", within=WAIT, poll=0.05,
                    describe=lambda: f"stored {rows(migrated, count)}")
