"""The operators' feed end to end from a real table: a remote roulette table (``run_table``, its
journal, its MQTT feed) on a floor broker run from ``croupier broker-config --studio`` (TLS, the
generated ACL), ``croupier studio`` with its book in PostgreSQL and the reference operator's HTTP
wallet, and the operator's queue on RabbitMQ. The operator's consumer receives the table opened,
the round started, its bets closed, the number, the result, the settlement and the table closed by
the pit: in that order, each table seq once, no gap."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import broker_config
from controller.config import load
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.studio.config import StudioConfig
from controller.studio.operators.publisher import queue_name
from controller.studio.operators.sim.consumer import FeedConsumer
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.operators.sim.wallet_app import wallet_app
from controller.studio.server import StudioServer
from tests.fixtures.rabbitmq import RabbitServer
from tests.integration.mqtt_security.conftest import FloorBroker, take, watching
from tests.integration.studio.conftest import Client, operator_secret, token
from tests.integration.studio.fake_studio import floor_with_studio
from tests.support.configs import simulated_wheel, write_table_config
from tests.support.waiting import until

from .conftest import eventually, serve
from .test_studio_wiring import feed_types, secret_file

TABLE = "rl1"
EXPECTED = ["table_open", "round_start", "bets_closed", "number", "result", "settled", "table_closed"]


@pytest.fixture
def roulette_floor(tmp_path: Path) -> Iterator[FloorBroker]:
    yield from floor_with_studio(tmp_path / "floor", [broker_config.Table(TABLE, 0)], f"studio={TABLE}")


def mqtt(floor: FloorBroker, user: str) -> dict[str, str]:
    return {"broker": f"mqtts://{user}@127.0.0.1:{floor.port}?cafile={floor.out / 'tls' / 'ca.pem'}",
            "password_file": str(floor.out / "secrets" / f"{user}.secret")}


async def test_a_real_tables_session_reaches_the_operators_queue_in_order_and_gapless(
        tmp_path: Path, roulette_floor: FloorBroker, database: str, rabbitmq: RabbitServer) -> None:
    wallet_secret, feed_secret = secret_file(tmp_path, "wallet.secret"), secret_file(tmp_path, "feed.secret")
    store = SimStore(tmp_path / "sim.sqlite")
    store.fund("p1", "EUR", 10_000)
    async with serve(wallet_app(store, wallet_secret.read_bytes(), Faults())) as base:
        config = StudioConfig.model_validate({
            "studio": {"host": "127.0.0.1", "port": 0, "amqp": rabbitmq.url, "client_id": "studio",
                       "tables": {TABLE: {"game": "roulette", "preset": "european"}},
                       "operators": {"casino-a": {"algorithm": "HS256", "secret_file": str(operator_secret(tmp_path)),
                                                  "issuer": "casino-a", "wallet_url": f"{base}/wallet",
                                                  "wallet_secret_file": str(wallet_secret),
                                                  "feed_secret_file": str(feed_secret)}}},
            "mqtt": mqtt(roulette_floor, "studio"), "base": tmp_path})
        operator = config.wallet_operators()["casino-a"]
        consumer = FeedConsumer(rabbitmq.url, queue_name(operator, "roulette"), operator.feed_secret)
        async with StudioServer(config, database) as studio, Client(studio.url) as one:
            assert studio.link is not None
            await asyncio.wait_for(studio.link.connected.wait(), 20)
            await consumer.start()
            try:
                await play_a_session(tmp_path, roulette_floor, studio, one)
                tally = consumer.tally
                await until(lambda: tally.last.get(TABLE, 0) >= len(EXPECTED), "the whole session at the operator",
                            within=60, arrived=tally.arrived, describe=lambda: str(tally.taken))
            finally:
                await consumer.stop()
            events = await feed_types(studio.pool, TABLE)
    assert [t for _, t, _ in events] == EXPECTED
    assert tally.taken == {TABLE: list(range(1, len(EXPECTED) + 1))}
    assert tally.gaps == [] and tally.bad_mac == 0 and tally.unreadable == 0
    round_id = events[1][2]
    assert [r for _, t, r in events if t not in ("table_open", "table_closed")] == [round_id] * 5
    assert store.balance("p1", "EUR") == 10_500  # red 1: the remote bet paid even money


async def play_a_session(tmp_path: Path, floor: FloorBroker, studio: StudioServer, one: Client) -> None:
    """The table opens, spins one round with a remote bet (the simulated wheel's number) and the pit
    closes it after the round."""
    await one.join(token("p1"), table=TABLE)
    path = write_table_config(tmp_path, "roulette", table_id=TABLE, mqtt=mqtt(floor, f"{TABLE}-controller"),
                              devices={"wheel": simulated_wheel(results=["1"], speed=4.0)},
                              table={"remote": True, "seal_grace_s": 30})

    async def play(loop: TableLoop) -> None:
        await eventually(lambda: feed_types(studio.pool, TABLE), lambda e: [t for _, t, _ in e] == EXPECTED[:1],
                         "the table's start in the feed")
        loop.command("open_round", "dealer")
        betting = await one.next("betting", status="open")
        round_id = str(betting["round"])
        assert (await one.bet("a1", round_id, ("red", 500)))["type"] == "accepted"
        await eventually(lambda: feed_types(studio.pool, TABLE), lambda e: "bets_closed" in [t for _, t, _ in e],
                         "the seal's close in the feed (the wheel's no more bets)", within=60)
        await loop.until(lambda core: "settle" in core.prompt().lower(), timeout=60)  # the wheel's number
        loop.command("settle", "dealer")
        await eventually(lambda: feed_types(studio.pool, TABLE), lambda e: "settled" in [t for _, t, _ in e],
                         "the settlement in the feed", within=40)
        async with floor.client("pit") as pit:
            await pit.publish(f"croupier/{TABLE}/command", json.dumps(
                {"v": 1, "id": "pit-close", "sender": "boss", "command": "close_after_round"}), qos=1)
        await eventually(lambda: feed_types(studio.pool, TABLE), lambda e: "table_closed" in [t for _, t, _ in e],
                         "the pit's close in the feed")

    await run_until(path, play)


async def run_until(path: Path, play: Callable[[TableLoop], Awaitable[None]]) -> None:
    """Run the table until ``play`` is done; what stopped it first is raised."""
    played: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def on_ready(loop: TableLoop, devices: Any) -> None:
        await loop.until(lambda core: core.prompt() == "Open betting", timeout=20)
        try:
            await play(loop)
        except BaseException as exc:
            played.set_exception(exc)
            raise
        played.set_result(None)

    table = asyncio.create_task(run_table(load(path), out=io.StringIO(), prompts=False, on_ready=on_ready,
                                          keyboard=False))
    try:
        await asyncio.wait({table, played}, return_when=asyncio.FIRST_COMPLETED)
        if not played.done():
            table.result()  # the table's own failure
            raise AssertionError("the table stopped before the play was done")
        played.result()
    finally:
        table.cancel()
        await asyncio.gather(table, return_exceptions=True)




async def test_only_the_pit_writes_the_studio_command_topic_and_the_studio_reads_it(roulette_floor: FloorBroker) -> None:
    """The generated ACL: the pit acknowledges the studio's alerts to the studio, nobody else can."""
    topic = f"croupier/{TABLE}/studio_command"
    async with watching(roulette_floor.client("studio"), topic) as studio:
        for user in ("viewer", f"{TABLE}-controller", "studio"):
            async with roulette_floor.client(user) as other:
                await other.publish(topic, f"from {user}".encode(), qos=1)
        async with roulette_floor.client("pit") as pit:
            await pit.publish(topic, b"from the pit", qos=1)
        (arrived,) = await take(studio, 1)
        assert arrived.payload == b"from the pit"
