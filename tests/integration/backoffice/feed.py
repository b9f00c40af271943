"""Feed messages as a table publishes them (docs/protocols.md §4), for the back office's tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import paho.mqtt.client as paho

from controller.backoffice.consumer import Consumer
from drivers.mqtt.url import BrokerUrl
from tests.fixtures.mosquitto import MosquittoBroker
from tests.support import outcomes
from tests.unit.pit import feed_messages

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def ts(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def round_record(table: str, n: int, *, seq: int, stake: int = 1000, payout: int = 0, status: str = "settled",
                 dealer: str | None = "maria", player: str | None = "p1", game: str = "blackjack",
                 at: datetime = T0, corrections: list[dict[str, Any]] | None = None, kind: str = "main") -> dict[str, Any]:
    opened, closed = at + timedelta(minutes=n), at + timedelta(minutes=n, seconds=40)
    bets = [{"box": 1, "hand": 1, "kind": kind, "player": player, "stake": stake, "payout": payout}]
    return {"v": 1, "table": table, "round": f"{table}-{n:06d}", "ts": ts(closed), "seq": seq, "game": game,
            "opened": ts(opened), "closed": ts(closed), "status": status, "dealer": dealer, "shoe": "S-1",
            "shoe_round": n, "outcome": outcomes.roulette("17") if game == "roulette" else outcomes.blackjack(),
            "bets": bets, "stake_total": stake,
            "payout_total": payout, "corrections": corrections or []}


def correction(seq: int, approval: int | None = None, *, before: int = 0, after: int = 0,
               at: datetime = T0) -> dict[str, Any]:
    """An approved correction as a round carries it (controller/records/round.py ``Correction``)."""
    return {"seq": seq, "reason": "paid wrong", "requested_by": "dealer", "requested": ts(at), "approved_by": "anna",
            "approved": ts(at), "approval": approval or seq + 1, "changes": [], "payout_total_before": before,
            "payout_total_after": after}


def state(table: str, at: datetime = T0, **over: Any) -> dict[str, Any]:
    """A table's retained ``state`` (controller/records/state.py), blackjack ru6 in EUR unless told."""
    return feed_messages.state(table, ts=ts(at), **{"game": "blackjack", "preset": "ru6", "currency": "EUR",
                                                    "currency_digits": 2, **over})


def event(table: str, seq: int, kind: str, payload: dict[str, Any], at: datetime = T0, source: str = "dealer") -> dict[str, Any]:
    return {"v": 1, "table": table, "round": None, "ts": ts(at), "seq": seq, "kind": kind, "source": source,
            "payload": payload}


class Publisher:
    """A table's feed account publishing QoS 1, each publish waited for (PUBACK)."""

    def __init__(self, broker: MosquittoBroker) -> None:
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-feed")
        self.client.username_pw_set(broker.controller.username, broker.controller.password)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def send(self, topic: str, body: dict[str, Any] | bytes, retain: bool = False) -> None:
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(timeout=10)
        assert info.is_published()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@asynccontextmanager
async def running(broker: str | BrokerUrl, database: str, wait: float = 60.0, **kwargs: Any) -> AsyncIterator[Consumer]:
    """A consumer in this loop, connected; stopped cleanly on the way out."""
    consumer = Consumer(broker, database, backoff_max=0.5, **kwargs)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    await asyncio.wait_for(consumer.wait_connected(), wait)
    try:
        yield consumer
    finally:
        stop.set()
        await asyncio.wait_for(task, wait)
