"""A floor broker run from exactly the files ``croupier broker-config --studio studio=bj1`` writes
(the real mosquitto, TLS, the generated ACL), and a fake studio: a real MQTT client on the
studio's account that reads the tables' ``betting`` and ``round`` and publishes the contract's
seal and totals (docs/studio.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller import broker_config, records
from controller.table import registry  # noqa: F401 (the registered games' outcome models)
from tests.integration.mqtt_security.conftest import TABLES, FloorBroker
from tests.support.waiting import until

STUDIO = "studio"
DIGEST = "cd" * 32


def floor_with_studio(out: Path, tables: list[broker_config.Table], studio: str) -> Iterator[FloorBroker]:
    """A floor broker from ``croupier broker-config`` with a studio account (``studio`` as
    ``--studio``), started for the test and stopped after it."""
    broker_config.generate(out, tables, tls=None, make_ca=True, hosts=["127.0.0.1", "localhost"], readers=["viewer"],
                           studios=broker_config.parse_studios([studio], tables))
    for path in (out / "passwd", out / "tls" / "broker.key"):
        path.chmod(0o644)  # mosquitto started as root drops to user mosquitto unless told otherwise
    broker = FloorBroker(out)
    try:
        broker.start()
        yield broker
    finally:
        broker.close()


@pytest.fixture
def studio_floor(tmp_path: Path) -> Iterator[FloorBroker]:
    yield from floor_with_studio(tmp_path / "floor", TABLES, f"{STUDIO}=bj1")


class FakeStudio:
    """The studio's side of the contract, by hand: what it read, and ``send`` for what it says."""

    def __init__(self, floor: FloorBroker, table: str = "bj1") -> None:
        self.floor, self.table = floor, table
        self.betting: list[dict[str, Any]] = []
        self.rounds: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> FakeStudio:
        self._client = self.floor.client(STUDIO)
        await self._client.__aenter__()
        await self._client.subscribe(f"croupier/{self.table}/betting", qos=1)
        await self._client.subscribe(f"croupier/{self.table}/round", qos=1)
        self._task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._client is not None:
            await self._client.__aexit__(None, None, None)

    async def _read(self) -> None:
        assert self._client is not None
        async for message in self._client.messages:
            body = json.loads(bytes(message.payload)) if isinstance(message.payload, bytes | bytearray) else None
            if isinstance(body, dict):
                leaf = str(message.topic).rsplit("/", 1)[1]
                records.parse(leaf, body)  # what the contract's schema says (docs/schemas/)
                (self.betting if str(message.topic).endswith("/betting") else self.rounds).append(body)
                self.arrived.set()

    async def wait(self, condition: Any, what: str, within: float = 20) -> None:
        await until(condition, what, within=within, arrived=self.arrived)

    def status(self) -> tuple[str | None, str | None]:
        last = self.betting[-1] if self.betting else {}
        return last.get("round"), last.get("status")

    async def send(self, message: dict[str, Any]) -> None:
        await self.publish(json.dumps(message).encode())

    async def publish(self, payload: bytes, retain: bool = False) -> None:
        assert self._client is not None
        await self._client.publish(f"croupier/{self.table}/studio", payload, qos=1, retain=retain)


def seal(round_id: str, ident: str, stake: int = 500) -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "seal", "round": round_id, "count": 1, "stake": stake,
            "kinds": {"main": stake}, "players": 1, "digest": DIGEST, "studio_note": "a field the table ignores"}


def settled(round_id: str, ident: str, stake: int = 500, paid: int = 0, refunded: int = 500) -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "settled", "round": round_id, "count": 1, "stake": stake, "paid": paid,
            "refunded": refunded}
