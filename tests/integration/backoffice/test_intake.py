"""The back office's intake against hostile feed messages, with a real mosquitto and a real
PostgreSQL: a message nested past the parser's stack, amounts no table can produce, corrected
versions the table's journal does not back, and a version re-sent with another body. Each is
kept with its reason (and alerted where the floor must know), and the stream goes on."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from controller.backoffice.provenance import Trust
from controller.backoffice.store import CONFLICT, UNBACKED, UNPROVEN
from controller.feed import Feed
from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.backoffice import feed, journaled
from tests.integration.backoffice.feed import Publisher, correction, round_record
from tests.integration.backoffice.test_consumer import rows, send
from tests.support.waiting import until

WAIT = 60.0
ROUND = "croupier/bj1/round"


def running(mosquitto: MosquittoBroker, database: str, **kwargs: Any) -> Any:
    return feed.running(mosquitto.tcp_url(mosquitto.pit), database, WAIT, **kwargs)


async def test_thirty_messages_nested_past_the_stack_are_rejected_and_the_stream_goes_on(
        mosquitto: MosquittoBroker, migrated: str, publisher: Publisher) -> None:
    """Each is kept as rejected and acknowledged (none holds a slot of the broker's in-flight
    window), and a consumer started again after them connects and stores what follows."""
    hostile = [b'{"v":1,"table":"bj1","outcome":' + b"[" * depth + b"]" * depth + b"}"
               for depth in range(100_000, 100_030)]
    async with running(mosquitto, migrated) as consumer:
        for payload in hostile:
            await send(publisher, ROUND, payload)
        await asyncio.wait_for(consumer.wait_committed(len(hostile)), WAIT)
    async with running(mosquitto, migrated) as again:  # the same session, resumed
        for n in range(1, 6):
            await send(publisher, ROUND, round_record("bj1", n, seq=n))
        await asyncio.wait_for(again.wait_committed(5), WAIT)
    assert rows(migrated, "SELECT count(*) FROM rounds") == [(5,)]
    reasons = rows(migrated, "SELECT reason FROM rejected")
    assert len(reasons) == 30 and all("nested" in r[0] for r in reasons)


async def test_a_round_of_amounts_no_table_can_produce_is_rejected_alone(
        mosquitto: MosquittoBroker, migrated: str, publisher: Publisher) -> None:
    absurd = round_record("bj1", 1, seq=1, stake=10**15, payout=10**15)
    async with running(mosquitto, migrated) as consumer:
        await send(publisher, ROUND, absurd)
        for n in range(2, 12):
            await send(publisher, ROUND, round_record("bj1", n, seq=n, stake=1000, payout=2000))
        await asyncio.wait_for(consumer.wait_committed(11), WAIT)
    assert rows(migrated, "SELECT count(*), sum(stake_total) FROM rounds") == [(10, 10_000)]
    assert rows(migrated, "SELECT sum(rounds), sum(drop_total) FROM round_tally") == [(10, 10_000)]
    [(reason,)] = rows(migrated, "SELECT reason FROM rejected")
    assert "bets.0.stake" in reason and "less than or equal to 1000000000000" in reason


KEYED = {"bj1": Trust(journaled.KEY)}


def forged(corrected: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A corrected record re-sent by the table's account, without (or with made-up) journal rows."""
    return {**corrected, "ts": corrected["corrections"][-1]["approved"], "seq": 99, **extra}


async def test_a_forged_correction_is_refused_and_alerted(mosquitto: MosquittoBroker, migrated: str,
                                                          publisher: Publisher, tmp_path: Path) -> None:
    """With the table's key: a version without journal rows, or with rows made with another key,
    is refused; the first version stays the latest and the floor has an alert per refusal."""
    table = journaled.corrected_round(tmp_path / "bj1.db")
    other = journaled.corrected_round(tmp_path / "forger.db", key=b"f" * 32, payout=900_000)
    [forged_round] = [json.loads(m.payload) for m in other.messages if m.topic == ROUND][1:]
    async with running(mosquitto, migrated, trust=KEYED) as consumer:
        await send(publisher, ROUND, table.first)
        await send(publisher, ROUND, forged(table.corrected))
        await send(publisher, ROUND, forged_round)
        await asyncio.wait_for(consumer.wait_committed(3), WAIT)
        assert consumer.metrics.intake_alerts.labels(UNPROVEN)._value.get() == 2
    assert rows(migrated, "SELECT version, payout_total FROM rounds") == [(0, 0)]
    reasons = [r[0] for r in rows(migrated, "SELECT reason FROM rejected ORDER BY id")]
    assert "without the journal rows" in reasons[0] and "MAC mismatch" in reasons[1]
    assert rows(migrated, "SELECT round_id, version, code FROM intake_alerts ORDER BY id") == [
        ("bj1-000001", 1, UNPROVEN), ("bj1-000001", 1, UNPROVEN)]


async def test_without_a_key_rows_no_recorded_head_vouches_for_are_refused(
        mosquitto: MosquittoBroker, migrated: str, publisher: Publisher, tmp_path: Path) -> None:
    """A forger's own chain (no head of it recorded) is refused by a back office without the key."""
    other = journaled.corrected_round(tmp_path / "forger.db", key=None, payout=900_000)
    [first, forged_round] = [json.loads(m.payload) for m in other.messages if m.topic == ROUND]
    async with running(mosquitto, migrated) as consumer:
        await send(publisher, ROUND, first)
        await send(publisher, ROUND, forged_round)  # its head never sent
        await asyncio.wait_for(consumer.wait_committed(2), WAIT)
    assert rows(migrated, "SELECT version FROM rounds") == [(0,)]
    [(reason,)] = rows(migrated, "SELECT reason FROM rejected")
    assert "no recorded journal head vouches" in reason


async def test_a_correction_the_keyed_journal_backs_is_taken(mosquitto: MosquittoBroker, migrated: str,
                                                             publisher: Publisher, tmp_path: Path) -> None:
    """The table's journal written with its key, the feed's messages as built from it, and the
    back office holding the same key: the corrected version is the latest, nothing refused."""
    table = journaled.corrected_round(tmp_path / "bj1.db")
    rounds = [m for m in table.messages if m.topic == ROUND]
    async with running(mosquitto, migrated, trust=KEYED) as consumer:
        for m in rounds:  # no head needed: the MACs prove the rows
            await send(publisher, m.topic, m.payload, m.retain)
        await asyncio.wait_for(consumer.wait_committed(len(rounds)), WAIT)
    assert rows(migrated, "SELECT version, payout_total, superseded FROM rounds ORDER BY version") == [
        (0, 0, True), (1, 2000, False)]
    assert rows(migrated, "SELECT count(*) FROM rejected") == [(0,)]
    assert rows(migrated, "SELECT count(*) FROM intake_alerts") == [(0,)]


async def test_an_older_tables_corrections_are_taken_and_alerted_only_where_configured(
        mosquitto: MosquittoBroker, migrated: str, publisher: Publisher) -> None:
    """``[tables.bj1] unbacked_corrections = true``: bj1's corrected version without journal rows
    (a table older than them) is taken and alerted; bj2's, not so configured, is refused."""
    trust = {"bj1": Trust(unbacked=True)}
    async with running(mosquitto, migrated, trust=trust) as consumer:
        for table in ("bj1", "bj2"):
            await send(publisher, f"croupier/{table}/round", round_record(table, 1, seq=1, payout=0))
            await send(publisher, f"croupier/{table}/round", {**round_record(table, 1, seq=5, payout=2000),
                                                              "corrections": [correction(3, 4)]})
        await asyncio.wait_for(consumer.wait_committed(4), WAIT)
    assert rows(migrated, "SELECT table_id, version FROM rounds ORDER BY 1, 2") == [("bj1", 0), ("bj1", 1), ("bj2", 0)]
    assert rows(migrated, "SELECT table_id, code FROM intake_alerts ORDER BY id") == [("bj1", UNBACKED),
                                                                                     ("bj2", UNPROVEN)]


@pytest.mark.parametrize("key", [journaled.KEY, None], ids=["keyed", "unkeyed"])
async def test_a_correction_published_by_the_tables_own_feed_is_taken(mosquitto: MosquittoBroker, migrated: str,
                                                                      tmp_path: Path, key: bytes | None) -> None:
    """The table's real feed (controller/feed/) reading its journal: keyed, the back office holds
    the key and checks the MACs; unkeyed, it holds the rows against the head the feed published."""
    path = tmp_path / "bj1.db"
    journaled.corrected_round(path, key=key)
    with Journal(path, key=key) as journal:
        async with running(mosquitto, migrated, trust={"bj1": Trust(key)}) as consumer:
            async with Feed.connect(mosquitto.tcp_url(), journal, "bj1", backoff_max=0.5) as table_feed:
                await asyncio.wait_for(table_feed.wait_caught_up(), WAIT)
            stored = "SELECT version, payout_total FROM rounds ORDER BY version"
            await until(lambda: rows(migrated, stored) == [(0, 0), (1, 2000)], "both versions stored", within=WAIT,
                        describe=lambda: f"{rows(migrated, stored)}, rejected "
                                         f"{rows(migrated, 'SELECT reason FROM rejected')}")
            assert consumer.metrics.intake_alerts.labels(UNPROVEN)._value.get() == 0
    assert rows(migrated, "SELECT count(*) FROM rejected") == [(0,)]


async def test_a_version_resent_with_another_body_is_kept_and_alerted(mosquitto: MosquittoBroker, migrated: str,
                                                                      publisher: Publisher) -> None:
    first = round_record("bj1", 1, seq=1, stake=1000, payout=0)
    other = round_record("bj1", 1, seq=1, stake=1000, payout=2000)
    async with running(mosquitto, migrated) as consumer:
        for body in (first, first, other, other):  # identical re-sends are no-ops; the other body is kept once
            await send(publisher, ROUND, body)
        await asyncio.wait_for(consumer.wait_committed(4), WAIT)
        assert consumer.metrics.intake_alerts.labels(CONFLICT)._value.get() == 2
    assert rows(migrated, "SELECT version, payout_total FROM rounds") == [(0, 0)]
    assert rows(migrated, "SELECT version, (record->>'payout_total')::bigint FROM round_conflicts") == [(0, 2000)]
    alerts = rows(migrated, "SELECT round_id, version, code, message FROM intake_alerts ORDER BY id")
    assert [a[:3] for a in alerts] == [("bj1-000001", 0, CONFLICT)] * 2
    assert "sent again with another body" in str(alerts[0][3])
