"""The studio with a real operator: ``croupier studio``'s service (WebSockets, its book in PostgreSQL,
the table's stand-in on mosquitto) moving money through the reference operator's HTTP wallet and
publishing the table's events to its queue on a real RabbitMQ, where its consumer checks them.

The operator away during play is ``AWAY_S`` long (20 s here; ``CROUPIER_AWAY_S=600`` runs the same
test for ten minutes, as ``croupier studio operator-sim --fault away_s=600`` does by hand)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiomqtt
import httpx
import pytest
from psycopg_pool import AsyncConnectionPool

from controller.pit.answers import CommandAnswers
from controller.pit.commands import build, topic_for
from controller.pit.model import FloorModel
from controller.studio.config import StudioConfig
from controller.studio.operators import signing
from controller.studio.operators.counters import counters
from controller.studio.operators.flagwatch import FlagWatch
from controller.studio.operators.publisher import queue_name
from controller.studio.operators.retry import RetryPolicy
from controller.studio.operators.sim.consumer import FeedConsumer
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.operators.sim.wallet_app import wallet_app
from controller.studio.server import StudioServer
from tests.fixtures.rabbitmq import RabbitServer
from tests.integration.studio.conftest import SERVER, Client, StudioBroker, Table, broker, operator_secret, token

from .conftest import eventually, serve

__all__ = ["broker"]

T = TypeVar("T")
AWAY_S = float(os.environ.get("CROUPIER_AWAY_S", "20"))
FAST = RetryPolicy(base=timedelta(seconds=0.3), cap=timedelta(seconds=2), poll_s=0.2)


@dataclass
class Floor:
    studio: StudioServer
    store: SimStore
    faults: Faults
    consumer: FeedConsumer
    table: Table
    pool: AsyncConnectionPool[Any]


def secret_file(directory: Path, name: str) -> Path:
    path = directory / name
    path.write_text(secrets.token_hex(32))
    path.chmod(0o600)
    return path


def reading(value: Callable[[], T]) -> Callable[[], Awaitable[T]]:
    """``eventually``'s reader for a value read at once (the operator's books, the consumer's tally)."""
    async def read() -> T:
        return value()

    return read


@contextlib.asynccontextmanager
async def floor(tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer,
                retry: RetryPolicy = FAST, **studio: Any) -> AsyncIterator[Floor]:
    wallet_secret, feed_secret = secret_file(tmp_path, "wallet.secret"), secret_file(tmp_path, "feed.secret")
    store, faults = SimStore(tmp_path / "sim.sqlite"), Faults()
    for player in ("p1", "p2", "p3"):
        store.fund(player, "EUR", 10_000)
    async with serve(wallet_app(store, wallet_secret.read_bytes(), faults)) as base:
        config = StudioConfig.model_validate({
            "studio": {"host": "127.0.0.1", "port": 0, "amqp": rabbitmq.url, **studio,
                       "tables": {"rl-eu": {"game": "roulette", "preset": "european"}},
                       "operators": {"casino-a": {"algorithm": "HS256", "secret_file": str(operator_secret(tmp_path)),
                                                  "issuer": "casino-a", "wallet_url": f"{base}/wallet",
                                                  "wallet_secret_file": str(wallet_secret),
                                                  "feed_secret_file": str(feed_secret), "timeout_s": 1.0}}},
            "mqtt": {"broker": broker.tcp_url(broker.studio), "insecure": True}, "base": tmp_path})
        operator = config.wallet_operators()["casino-a"]
        consumer = FeedConsumer(rabbitmq.url, queue_name(operator, "roulette"), operator.feed_secret)
        async with StudioServer(config, database, retry=retry) as studio, Table(broker) as table:
            assert studio.link is not None
            await asyncio.wait_for(studio.link.connected.wait(), 20)
            await consumer.start()
            try:
                yield Floor(studio, store, faults, consumer, table, studio.pool)
            finally:
                await consumer.stop()


async def signed_gets(base: str, secret: bytes, *targets: str) -> list[Any]:
    """Each target's JSON, signed as the operator signs; then the first one with a wrong key: its status."""
    async with httpx.AsyncClient(base_url=base) as http:
        found: list[Any] = []
        for target in targets:
            headers = signing.signed_headers(secret, "casino-a", int(time.time() * 1000), uuid.uuid4().hex,
                                             target.encode())
            answer = await http.get(target, headers=headers)
            assert answer.status_code == 200, answer.text
            found.append(answer.json())
        wrong = signing.signed_headers(b"x" * 32, "casino-a", int(time.time() * 1000), "r", targets[0].encode())
        found.append((await http.get(targets[0], headers=wrong)).status_code)
        return found


async def feed_types(pool: AsyncConnectionPool[Any], table: str = "rl-eu") -> list[tuple[int, str, str]]:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT seq, type, round FROM op_feed_outbox WHERE table_id = %s ORDER BY seq", (table,))
        return [(int(s), str(t), str(r)) for s, t, r in await cur.fetchall()]


async def dealt(table: Table, round_id: str, seq: int, number: str) -> None:
    """The table's journal stream: the wheel's number as dealt (its ``event`` leaf)."""
    assert table._client is not None
    entry = {"v": 1, "table": "rl-eu", "round": round_id, "ts": "2026-12-05T10:00:00.000Z", "seq": seq,
             "kind": "device", "source": "wheel", "payload": {"type": "winning_number", "number": number, "spin": seq}}
    await table._client.publish("croupier/rl-eu/event", json.dumps(entry), qos=1)


async def test_debit_on_accept_credit_once_cancel_of_a_late_bet_and_the_feed_in_order(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    round_id = "rl-eu-000001"
    async with floor(tmp_path, broker, database, rabbitmq) as f, Client(f.studio.url) as one, \
            Client(f.studio.url) as two:
        assert (await one.join(token("p1")))["type"] == "joined"
        assert (await two.join(token("p2")))["type"] == "joined"
        await f.table.betting("open", round_id, deadline_s=60)
        await one.next("betting", status="open")
        accepted = await one.bet("a1", round_id, ("straight:17", 100), ("red", 500))
        assert accepted["type"] == "accepted" and accepted["balance"] == 9_400  # the operator's own balance
        assert f.store.balance("p1", "EUR") == 9_400 and f.store.count("debit") == 1
        async with Client(f.studio.url) as three:
            await three.join(token("p3"))
            f.faults.token_refused = 1  # p3's session ended at the operator: the player is told so
            assert (await three.bet("c1", round_id, ("red", 500)))["reason"] == "token_refused"
            assert f.store.balance("p3", "EUR") == 10_000

        f.faults.delay_s = 0.6  # p2's debit is made at the operator, its answer slower than the seal
        late = asyncio.create_task(two.bet("b1", round_id, ("black", 1000)))
        await eventually(reading(lambda: f.store.count("debit")), lambda n: n == 3, "p2's debit made")
        await f.table.betting("sealing", round_id)
        seal = await f.table.wait_for("seal", round_id)
        f.faults.delay_s = 0
        assert seal["count"] == 2 and seal["stake"] == 600
        assert (await late)["reason"] == "late"
        await eventually(reading(lambda: f.store.balance("p2", "EUR")), lambda b: b == 10_000,
                         "p2's late debit cancelled at the operator")
        assert f.store.count("cancel", "debit:b1") == 1

        await f.table.betting("closed", round_id, sealed=True)
        await dealt(f.table, round_id, 7, "17")
        await dealt(f.table, round_id, 7, "17")  # the table's stream delivered twice: one event
        await f.table.record(round_id, "17")
        await f.table.wait_for("settled", round_id)
        await f.table.record(round_id, "17")  # the record again (a redelivery): nothing moves again
        mine = await one.next("settled", round=round_id)
        assert mine["paid"] == 3600
        await eventually(reading(lambda: f.store.balance("p1", "EUR")), lambda b: b == 13_000, "p1 paid")
        assert f.store.count("credit") == 1 and f.store.count("credit", "debit:a1") == 1

        types = [t for _, t, _ in await feed_types(f.pool)]
        assert types == ["round_start", "bets_closed", "number", "result", "settled"]
        tally = f.consumer.tally
        await eventually(reading(lambda: dict(tally.last)), lambda last: last == {"rl-eu": 5},
                         "every event at the operator")
        assert tally.taken == {"rl-eu": [1, 2, 3, 4, 5]} and (tally.gaps, tally.bad_mac) == ([], 0)
        figures = await counters(f.pool, f.store, tally)
        assert figures["debits"] == 3 and figures["credits"] == 1 and figures["cancels"] == 2
        assert figures["mismatches"] == 0 and figures["gaps"] == 0 and figures["published"] == 5

        # the operators' endpoint on the studio's own port, for the operator that signs
        base = f.studio.url.replace("ws://", "http://").removesuffix("/v1/play")
        snapshot, detail, forged = await signed_gets(base, f.studio.operators["casino-a"].wallet_secret,
                                                     "/v1/tables/rl-eu/snapshot", f"/v1/rounds/{round_id}")
        assert snapshot["seq"] == 5 and snapshot["state"]["round"] == round_id
        assert snapshot["state"]["status"] == "settled" and snapshot["state"]["number"] == "17"
        assert {t["tx"] for t in detail["transactions"]} == {"debit:a1", "debit:b1", "debit:b1:cancel", "debit:c1",
                                                             "debit:c1:cancel", f"credit:rl-eu:{round_id}:casino-a:p1"}
        assert forged == 401


async def test_operator_away_during_play_then_every_event_and_every_call_on_return(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    async with floor(tmp_path, broker, database, rabbitmq) as f, Client(f.studio.url) as one, \
            Client(f.studio.url) as two:
        await one.join(token("p1"))
        await two.join(token("p2"))
        await f.table.betting("open", "rl-eu-000001", deadline_s=60)
        await one.next("betting", status="open")
        assert (await one.bet("a1", "rl-eu-000001", ("red", 500)))["type"] == "accepted"

        await f.consumer.stop()  # the operator goes away: its wallet and its feed consumer
        f.faults.update({"away_s": AWAY_S})
        refused = await two.bet("b1", "rl-eu-000001", ("black", 1000))
        assert refused["reason"] == "wallet"  # never guessed: refused, and its debit cancelled later
        await f.table.betting("sealing", "rl-eu-000001")
        await f.table.wait_for("seal", "rl-eu-000001")
        await f.table.betting("closed", "rl-eu-000001", sealed=True)
        await f.table.record("rl-eu-000001", "1")  # red: p1 is owed 1000
        await f.table.wait_for("settled", "rl-eu-000001")  # the table is not held by the operator away
        await f.table.betting("open", "rl-eu-000002", deadline_s=60)
        await f.table.betting("sealing", "rl-eu-000002")
        await f.table.wait_for("seal", "rl-eu-000002")
        await f.table.record("rl-eu-000002", "0")
        await f.table.wait_for("settled", "rl-eu-000002")
        assert f.faults.away and f.store.balance("p1", "EUR") == 9_500  # still away: the credit waits

        await eventually(reading(lambda: f.store.balance("p1", "EUR")), lambda b: b == 10_500,
                         "p1's credit made on return", within=AWAY_S + 60)
        await eventually(reading(lambda: f.store.count("cancel", "debit:b1")), lambda n: n == 1,
                         "p2's unknown debit cancelled on return", within=30)
        assert f.store.balance("p2", "EUR") == 10_000
        await f.consumer.start()
        tally = f.consumer.tally
        events = await feed_types(f.pool)
        await eventually(reading(lambda: dict(tally.last)), lambda last: last == {"rl-eu": len(events)},
                         "every event of the time away")
        assert tally.taken == {"rl-eu": list(range(1, len(events) + 1))} and tally.gaps == []
        assert [t for _, t, _ in events] == ["round_start", "bets_closed", "result", "settled",
                                            "round_start", "bets_closed", "result", "settled"]
        await eventually(lambda: counters(f.pool, f.store, tally), lambda c: c["pending"] == 0,
                         "every answer of the operator's return kept")
        figures = await counters(f.pool, f.store, tally)
        assert figures["retries"] > 0 and figures["flagged"] == 0 and figures["mismatches"] == 0


async def test_a_rabbitmq_restart_mid_round_loses_no_event(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    round_id = "rl-eu-000001"
    async with floor(tmp_path, broker, database, rabbitmq) as f, Client(f.studio.url) as one:
        await one.join(token("p1"))
        await f.table.betting("open", round_id, deadline_s=60)
        await one.next("betting", status="open")
        assert (await one.bet("a1", round_id, ("red", 500)))["type"] == "accepted"
        rabbitmq.stop()
        try:
            await f.table.betting("sealing", round_id)
            await f.table.wait_for("seal", round_id)
            await f.table.betting("closed", round_id, sealed=True)
            await dealt(f.table, round_id, 3, "3")
            await f.table.record(round_id, "3")
            await f.table.wait_for("settled", round_id)
        finally:
            rabbitmq.start()
        tally = f.consumer.tally
        await eventually(reading(lambda: dict(tally.last)), lambda last: last == {"rl-eu": 5},
                         "every event after the broker's restart", within=90)
        assert tally.taken == {"rl-eu": [1, 2, 3, 4, 5]} and tally.gaps == []
        assert f.store.balance("p1", "EUR") == 10_500


async def corrected(table: Table, round_id: str, number: str, corrections: int) -> None:
    """The round's record again after the pit approved a correction of its number."""
    await table.publish_record(round_id, {"wheel": "european", "numbers": [number], "colours": ["red"],
                                          "multipliers": {}, "voids": [], "sources": ["wheel"]},
                               corrections=corrections)


async def test_a_corrected_round_is_one_adjustment_of_the_difference(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    round_id = "rl-eu-000001"
    async with floor(tmp_path, broker, database, rabbitmq) as f, Client(f.studio.url) as one:
        await one.join(token("p1"))
        await f.table.betting("open", round_id, deadline_s=60)
        await one.next("betting", status="open")
        assert (await one.bet("a1", round_id, ("straight:17", 100), ("red", 500)))["type"] == "accepted"
        await f.table.betting("sealing", round_id)
        await f.table.wait_for("seal", round_id)
        await f.table.record(round_id, "17")
        await f.table.wait_for("settled", round_id)
        await eventually(reading(lambda: f.store.balance("p1", "EUR")), lambda b: b == 13_000, "p1 paid")
        f.table.settled.pop(round_id)
        await corrected(f.table, round_id, "1", 1)  # the number was 1 (red): 1000 is owed, 3600 was paid
        await f.table.wait_for("settled", round_id)
        await eventually(reading(lambda: f.store.balance("p1", "EUR")), lambda b: b == 10_400,
                         "the difference taken back by one adjustment")
        await corrected(f.table, round_id, "1", 1)  # the same correction heard again: nothing moves
        await f.table.betting("open", "rl-eu-000002", deadline_s=60)  # the table's worker got past it
        await one.next("betting", status="open", round="rl-eu-000002")
        adjustments = {tx: (kind, moved) for tx, (kind, moved, _) in f.store.transactions().items() if kind == "adjust"}
        assert adjustments == {f"{round_id}:adj1:casino-a:p1:EUR": ("adjust", -2600)}
        assert f.store.balance("p1", "EUR") == 10_400
        assert [t for _, t, _ in await feed_types(f.pool)][-2:] == ["corrected", "round_start"]
        figures = await counters(f.pool, f.store, f.consumer.tally)
        assert (figures["adjustments"], figures["credits"], figures["mismatches"]) == (1, 1, 0)


async def test_a_movement_unanswered_past_the_give_up_is_flagged_on_the_pit_and_in_metrics(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    round_id = "rl-eu-000001"
    give_up = RetryPolicy(base=timedelta(seconds=0.3), cap=timedelta(seconds=1), give_up=timedelta(seconds=2),
                          poll_s=0.2)  # 24 hours in production
    pit = FloorModel()
    async with floor(tmp_path, broker, database, rabbitmq, give_up, metrics_port=0) as f, Client(f.studio.url) as one, \
            aiomqtt.Client("127.0.0.1", broker.port, username=broker.controller.username,
                           password=broker.controller.password) as watcher:
        await watcher.subscribe("croupier/rl-eu/alert", qos=1)
        await one.join(token("p1"))
        await f.table.betting("open", round_id, deadline_s=60)
        await one.next("betting", status="open")
        assert (await one.bet("a1", round_id, ("red", 500)))["type"] == "accepted"
        f.faults.update({"away_s": 120})
        await f.table.betting("sealing", round_id)
        await f.table.wait_for("seal", round_id)
        await f.table.record(round_id, "1")
        await f.table.wait_for("settled", round_id)
        async with asyncio.timeout(60):
            async for message in watcher.messages:  # what the pit dashboard reads
                if pit.apply(str(message.topic), bytes(message.payload), time.time()) == "rl-eu":
                    break
        (alert,) = [a for a in pit.tables["rl-eu"].open_alerts() if a["code"] == "studio.wallet_flagged"]
        assert alert["severity"] == "error" and alert["count"] == 1 and "credit:rl-eu:rl-eu-000001" in alert["message"]
        await acknowledged_at_the_pit(broker, pit, watcher, alert)
        published: list[dict[str, Any]] = []

        async def said(table: str, message: dict[str, Any], retain: bool) -> None:
            published.append(message)

        await FlagWatch(f.pool, ["rl-eu"], said).pass_once()  # a restarted studio
        assert [(m["severity"], m["seq"], m["by"]) for m in published] == [("info", alert["seq"], "boss")]
        assert f.studio.metrics is not None
        async with httpx.AsyncClient() as http:
            scraped = (await http.get(f.studio.metrics.url)).text
        assert 'croupier_operator_wallet_flagged{operator="casino-a"} 1.0' in scraped
        figures = await counters(f.pool, f.store)
        assert figures["flagged"] == 1 and f.store.balance("p1", "EUR") == 9_500  # never paid behind anyone's back


async def acknowledged_at_the_pit(broker: StudioBroker, pit: FloorModel, watcher: aiomqtt.Client,
                                  alert: dict[str, Any]) -> None:
    """A pit boss acknowledges the studio's alert the pit's way (``build`` and ``topic_for``, as
    ``/api/command`` sends it) under the pit's account: the studio answers it and it leaves the list."""
    request = {"table": "rl-eu", "command": "acknowledge_alert", "alert": alert["seq"]}
    _, payload = build("boss", request)
    topic = topic_for(request, pit.tables["rl-eu"])
    assert topic == "croupier/rl-eu/studio_command"
    answers = CommandAnswers()
    answers.sent("rl-eu", json.loads(payload), time.time())
    async with aiomqtt.Client("127.0.0.1", broker.port, username=broker.pit.username,
                              password=broker.pit.password) as boss:
        await boss.publish(topic, payload, qos=1)
    answered: list[Any] = []
    async with asyncio.timeout(30):
        async for message in watcher.messages:
            if pit.apply(str(message.topic), bytes(message.payload), time.time()) == "rl-eu":
                answered += answers.seen(pit.tables["rl-eu"], "alert", time.time())
                if pit.tables["rl-eu"].studio["studio.wallet_flagged"].get("by"):  # republished, acknowledged
                    break
    assert pit.tables["rl-eu"].studio_acknowledged[alert["seq"]] == "boss"
    now = pit.tables["rl-eu"].studio["studio.wallet_flagged"]
    assert (now["severity"], now["seq"], now["by"], now["count"]) == ("info", alert["seq"], "boss", 1)
    assert not [a for a in pit.tables["rl-eu"].open_alerts() if a["code"] == "studio.wallet_flagged"]
    assert [a["answer"] for a in answered] == ["accepted"]


async def test_a_credit_owed_when_the_studio_stops_is_made_by_the_next_studio(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    round_id = "rl-eu-000001"
    async with floor(tmp_path, broker, database, rabbitmq) as f, Client(f.studio.url) as one:
        await one.join(token("p1"))
        await f.table.betting("open", round_id, deadline_s=60)
        await one.next("betting", status="open")
        assert (await one.bet("a1", round_id, ("red", 500)))["type"] == "accepted"
        f.faults.update({"away_s": 8})
        await f.table.betting("sealing", round_id)
        await f.table.wait_for("seal", round_id)
        await f.table.record(round_id, "1")
        await f.table.wait_for("settled", round_id)
        await f.studio.stop()  # the credit is still owed: its row in the wallet log, pending
        assert f.store.balance("p1", "EUR") == 9_500
        async with StudioServer(f.studio.config, database, retry=FAST) as again:
            await eventually(reading(lambda: f.store.balance("p1", "EUR")), lambda b: b == 10_500,
                             "the credit made by the restarted studio's retry worker", within=60)
            assert f.store.count("credit") == 1
            await eventually(lambda: counters(again.pool, f.store), lambda c: c["pending"] == 0,
                             "the operator's answer kept in the restarted studio's log")
            figures = await counters(again.pool, f.store)
            assert figures["retries"] > 0 and figures["mismatches"] == 0


@pytest.mark.parametrize("delay_s", [3.0, 0.6], ids=["past-the-deadline", "within-the-deadline"])
async def test_a_slow_operator_costs_a_settlement_one_wait_not_one_per_player(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer, delay_s: float) -> None:
    """Answers later than the 1 s deadline: the first credit waits for it, the others not at all;
    answers within it: the credits wait for them together, not one after the other (8 x 0.6 s
    held the table's worker, and with it the next round's seal)."""
    round_id, players = "rl-eu-000001", [f"s{n}" for n in range(8)]
    async with floor(tmp_path, broker, database, rabbitmq) as f, contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(f.studio.url)) for _ in players]
        for player, client in zip(players, clients):
            f.store.fund(player, "EUR", 10_000)
            await client.join(token(player))
        await f.table.betting("open", round_id, deadline_s=60)
        await clients[0].next("betting", status="open")
        for n, client in enumerate(clients):
            assert (await client.bet(f"r{n}", round_id, ("red", 500)))["type"] == "accepted"
        await f.table.betting("sealing", round_id)
        await f.table.wait_for("seal", round_id)
        f.faults.delay_s = delay_s
        started = time.monotonic()
        await f.table.record(round_id, "1")
        await f.table.wait_for("settled", round_id)
        took = time.monotonic() - started
        # one by one: 8 s (past the deadline, before the operator was known slow) or 4.8 s (within it)
        assert took < 3.0, f"the table waited {took:.1f} s for 8 credits to a slow operator"
        f.faults.delay_s = 0
        await eventually(reading(lambda: [f.store.balance(p, "EUR") for p in players]),
                         lambda balances: balances == [10_500] * 8, "every credit made by the retry worker",
                         within=60)
        assert f.store.count("credit") == 8


async def test_a_settled_without_the_slow_operators_balance_is_followed_by_the_balance_it_answers(
        tmp_path: Path, broker: StudioBroker, database: str, rabbitmq: RabbitServer) -> None:
    round_id = "rl-eu-000001"
    async with floor(tmp_path, broker, database, rabbitmq) as f, Client(f.studio.url) as one:
        await one.join(token("p1"))
        await f.table.betting("open", round_id, deadline_s=60)
        await one.next("betting", status="open")
        assert (await one.bet("a1", round_id, ("red", 500)))["type"] == "accepted"
        await f.table.betting("sealing", round_id)
        await f.table.wait_for("seal", round_id)
        f.faults.delay_s = 3.0  # the credit's answer later than settlement waits
        await f.table.record(round_id, "1")
        settled = SERVER.validate_python(await one.next("settled", round=round_id)).model_dump()
        assert settled["paid"] == 1_000 and settled["balance"] is None  # the schema's "not answered yet"
        f.faults.delay_s = 0
        pushed = SERVER.validate_python(await one.next("balance", within=60)).model_dump()
        assert pushed == {"v": 1, "type": "balance", "round": round_id, "balance": 10_500, "currency": "EUR"}
        assert f.store.balance("p1", "EUR") == 10_500
        await one.send({"v": 1, "type": "history", "limit": 5})
        (played,) = (await one.next("history"))["rounds"]  # type: ignore[misc]
        assert played["balance"] == 10_500  # kept on the round's payment too
