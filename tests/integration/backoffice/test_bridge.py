"""Pits bridged to a central broker, as ``croupier broker-config`` writes them, on two real
mosquitto processes over TLS: tables publish on their pit's broker, the back office reads the
central one. Each bridge may write only its own pit's tables there; the bridge broken mid-run
(the central broker stopped) loses nothing once it is back. And the back office's account
reads the feed and writes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import psycopg
import pytest

from controller import broker_config
from controller.backoffice.consumer import Consumer
from controller.backoffice.migrate import migrate
from tests.integration.backoffice.feed import round_record, running
from tests.integration.mqtt_security.conftest import FloorBroker
from tests.support.waiting import until_awaited

WAIT = 60.0
TABLES = [broker_config.Table("bj1", 0), broker_config.Table("bj2", 0), broker_config.Table("rl1", 0)]
NORTH = [t for t in TABLES if t.id != "rl1"]


class BridgedBroker(FloorBroker):
    """A pit broker from the generated files, with the bridge ``broker-config --bridge-to`` adds."""

    def __init__(self, out: Path, bridge: broker_config.BridgeTo, tables: list[broker_config.Table]) -> None:
        self.bridge, self.tables = bridge, tables
        super().__init__(out)

    def _write_config(self) -> None:
        super()._write_config()
        with (self.dir / "mosquitto.conf").open("a") as conf:
            conf.write(broker_config.bridge_conf(self.bridge, self.tables))


def generate(out: Path, tables: list[broker_config.Table], **kwargs: object) -> None:
    broker_config.generate(out, tables, tls=None, make_ca=True, hosts=["127.0.0.1", "localhost"], **kwargs)  # type: ignore[arg-type]
    for path in (out / "passwd", out / "tls" / "broker.key"):
        path.chmod(0o644)  # mosquitto started as root drops to user mosquitto unless told otherwise


@pytest.fixture
def central(tmp_path: Path) -> Iterator[FloorBroker]:
    out = tmp_path / "central"
    generate(out, TABLES, central=True, backoffice="backoffice",
             bridges=broker_config.parse_bridges(["north=bj1,bj2", "south=rl1"], TABLES))
    broker = FloorBroker(out)
    broker.start()
    yield broker
    broker.close()


@pytest.fixture
def north(tmp_path: Path, central: FloorBroker) -> Iterator[BridgedBroker]:
    out = tmp_path / "north"
    bridge = broker_config.bridge_to(f"127.0.0.1:{central.port}", "north", central.out / "tls" / "ca.pem",
                                     central.out / "secrets" / "bridge-north.secret")
    assert bridge is not None
    generate(out, NORTH, bridge_to=bridge)
    broker = BridgedBroker(out, bridge, NORTH)
    broker.start()
    yield broker
    broker.close()


def office(central: FloorBroker, database: str) -> AbstractAsyncContextManager[Consumer]:
    return running(central.url("backoffice"), database, WAIT)


async def publish(broker: FloorBroker, user: str, bodies: list[dict[str, object]]) -> None:
    async with broker.client(user) as client:
        for body in bodies:
            await client.publish(f"croupier/{body['table']}/round", json.dumps(body).encode(), qos=1)


def stored(database: str) -> list[tuple[object, ...]]:
    with psycopg.connect(database) as conn:
        return conn.execute("SELECT table_id, count(*) FROM rounds GROUP BY 1 ORDER BY 1").fetchall()


async def until_stored(database: str, expected: list[tuple[object, ...]]) -> None:
    async def holds() -> bool:
        return await asyncio.to_thread(stored, database) == expected

    await until_awaited(holds, f"rounds per table {expected} stored", within=WAIT, poll=0.05,
                        describe=lambda: f"stored {stored(database)}")


def test_the_generated_bridge_forwards_the_feed_and_takes_commands_only_if_asked(tmp_path: Path) -> None:
    bridge = broker_config.BridgeTo("north", "central.floor", 8883, Path("/etc/croupier/central-ca.pem"), "s3cret")
    text = broker_config.bridge_conf(bridge, NORTH)
    topics = [line for line in text.splitlines() if line.startswith("topic ")]
    assert "topic croupier/bj1/round out 1" in topics and "topic croupier/bj2/head out 1" in topics
    assert not [t for t in topics if "event" in t or "prompt" in t or " in " in t]
    assert "cleansession false" in text and "bridge_cafile /etc/croupier/central-ca.pem" in text
    commanded = broker_config.bridge_conf(broker_config.BridgeTo("north", "c", 8883, Path("/ca.pem"), "x", True), NORTH)
    assert "topic croupier/bj1/command in 1" in commanded
    floor = {a.username: a for a in broker_config.accounts(TABLES, central=True,
                                                           bridges=broker_config.parse_bridges(["north=bj1,bj2"], TABLES))}
    assert "bj1-controller" not in floor
    assert ("write", "croupier/bj1/round") in floor["bridge-north"].topics
    assert not [t for t in floor["bridge-north"].topics if "rl1" in t or t[0] == "read"]
    with pytest.raises(ValueError, match="two pits"):
        broker_config.parse_bridges(["north=bj1", "south=bj1"], TABLES)


async def test_a_bridged_floor_delivers_every_round_to_the_central_back_office(
        central: FloorBroker, north: BridgedBroker, database: str) -> None:
    migrate(database)
    async with office(central, database):
        await publish(north, "bj1-controller", [round_record("bj1", n, seq=n) for n in range(1, 6)])
        await publish(north, "bj2-controller", [round_record("bj2", n, seq=n) for n in range(1, 4)])
        await until_stored(database, [("bj1", 5), ("bj2", 3)])

        # a bridge writes only its own pit's tables: north's account cannot speak for rl1 (south)
        await publish(central, "bridge-north", [round_record("rl1", 1, seq=1), round_record("bj1", 6, seq=6)])
        await until_stored(database, [("bj1", 6), ("bj2", 3)])

        # the link to the centre breaks mid-run; the pit keeps its tables' rounds for the bridge
        await asyncio.to_thread(central.stop)
        await publish(north, "bj1-controller", [round_record("bj1", n, seq=n) for n in range(7, 31)])
        await asyncio.to_thread(central.start)
        await until_stored(database, [("bj1", 30), ("bj2", 3)])


async def test_the_back_office_account_reads_the_feed_and_writes_nothing(central: FloorBroker, database: str) -> None:
    migrate(database)
    async with office(central, database):
        await publish(central, "backoffice", [round_record("bj1", 1, seq=1)])  # refused by the ACL, silently
        await publish(central, "bridge-north", [round_record("bj1", 2, seq=2)])
        await until_stored(database, [("bj1", 1)])
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT round_id FROM rounds").fetchall() == [("bj1-000002",)]
