"""The contract's table, stood in for by a few lines (docs/studio.md, "Simulating"): it publishes
``croupier/<table>/betting`` and ``round`` as a remote table would, journals (here: keeps) the
seals and settled totals it hears on ``croupier/<table>/studio``, and draws each result through
the game's own engine from a seeded generator. ``croupier studio simulate`` plays against it
until the table side's own process speaks the contract."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import aiomqtt

from controller.cards import CARDS
from controller.games.base import CloseBetting, Deal, ExpectKind, WheelResult
from controller.games.roulette.layout import wheel
from controller.games.roulette.rules import RouletteRules
from controller.studio.rules import TableRules
from drivers.mqtt.link import TCP_NODELAY
from drivers.mqtt.url import BrokerUrl


def _stamp(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _correction(seq: int, when: str) -> dict[str, Any]:
    """An approved correction of the round's result (it changed no felt bet: the felt has none here)."""
    return {"seq": seq, "reason": "the wheel's number was misread", "requested_by": "dealer", "requested": when,
            "approved_by": "pit", "approved": when, "approval": seq, "changes": [],
            "payout_total_before": 0, "payout_total_after": 0}


class StandInTable:
    def __init__(self, broker: str, table: str, rules: TableRules, limits: dict[str, list[int]], seed: int,
                 currency: str = "EUR", digits: int = 2) -> None:
        self.url = BrokerUrl.parse(broker)
        self.table = table
        self.rules = rules
        self.limits = limits
        self.random = random.Random(seed)
        self.currency, self.digits = currency, digits
        self.seals: dict[str, dict[str, Any]] = {}
        self.settled: dict[str, dict[str, Any]] = {}
        self._heard = asyncio.Condition()
        self._client: aiomqtt.Client | None = None
        self._listener: asyncio.Task[None] | None = None
        self._seq = 0

    async def __aenter__(self) -> StandInTable:
        # TCP_NODELAY as a table's link has it: without it the round record, published right after
        # the betting leaf's close, waited ~40 ms on Nagle
        self._client = aiomqtt.Client(self.url.host, self.url.port, username=self.url.username,
                                      password=self.url.password, identifier=f"standin-{self.table}",
                                      socket_options=TCP_NODELAY)
        await self._client.__aenter__()
        await self._client.subscribe(f"croupier/{self.table}/studio", qos=1)
        self._listener = asyncio.create_task(self._listen())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        if self._client is not None:
            await self._client.__aexit__(None, None, None)

    async def _listen(self) -> None:
        assert self._client is not None
        async for message in self._client.messages:
            try:
                data = json.loads(bytes(message.payload))
            except ValueError:
                continue
            async with self._heard:
                if data.get("type") == "seal":
                    self.seals.setdefault(str(data.get("round")), data)
                elif data.get("type") == "settled":
                    self.settled[str(data.get("round"))] = data
                self._heard.notify_all()

    async def betting(self, status: str, round_id: str | None, deadline: datetime | None = None,
                      sealed: bool | None = None) -> None:
        assert self._client is not None
        self._seq += 1
        now = _stamp(datetime.now(UTC))
        body: dict[str, Any] = {"v": 1, "table": self.table, "round": round_id, "ts": now, "status": status,
                                "opened": now, "deadline": None if deadline is None else
                                _stamp(deadline), "seq": self._seq, "game": self.rules.game,
                                "currency": self.currency, "digits": self.digits, "limits": self.limits,
                                "remote": True}
        if sealed is not None:
            body["sealed"] = sealed
        await self._client.publish(f"croupier/{self.table}/betting", json.dumps(body), qos=1, retain=True)

    async def play(self, round_id: str, betting_s: float, grace_s: float) -> bool:
        """One round: open, the deadline, sealing, the close (with the seal if it came within the
        grace), the result; returns whether the close had the seal."""
        assert self._client is not None
        await self.betting("open", round_id, datetime.now(UTC) + timedelta(seconds=betting_s))
        await asyncio.sleep(betting_s)
        await self.betting("sealing", round_id)
        sealed = await self._wait(lambda: round_id in self.seals, grace_s)
        await self.betting("closed", round_id, sealed=sealed)
        await self.publish_record(round_id, self.draw(), sealed=sealed)
        return sealed

    async def publish_record(self, round_id: str, outcome: dict[str, Any], *, status: str = "settled",
                             sealed: bool = True, corrections: int = 0) -> None:
        """The round record on ``croupier/<table>/round``, with its ``remote`` part (the felt has no bets here);
        ``corrections``: the record as published again after that many approved corrections."""
        assert self._client is not None
        self._seq += 1
        now = _stamp(datetime.now(UTC))
        record = {"v": 1, "table": self.table, "round": round_id, "ts": now, "seq": self._seq, "game": self.rules.game,
                  "opened": now, "closed": now, "status": status, "dealer": None, "shoe": None, "shoe_round": None,
                  "outcome": {"burned": [], **outcome}, "bets": [], "stake_total": 0, "payout_total": 0,
                  "corrections": [_correction(self._seq + n, now) for n in range(corrections)],
                  "remote": {"sealed": sealed, "seal": self.seals.get(round_id), "settled": None}}
        await self._client.publish(f"croupier/{self.table}/round", json.dumps(record), qos=1)

    async def wait_settled(self, round_id: str, within: float) -> bool:
        return await self._wait(lambda: round_id in self.settled, within)

    async def _wait(self, done: Any, within: float) -> bool:
        async with self._heard:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._heard.wait_for(done), within)
            return bool(done())

    def draw(self) -> dict[str, Any]:
        """A result of this game, through its engine: a pocket of the wheel, or a coup from a shuffled shoe."""
        engine = self.rules.adapter.new_round(self.rules.rules)
        engine.apply(CloseBetting())
        if self.rules.game == "roulette":
            assert isinstance(self.rules.rules, RouletteRules)
            pockets = sorted(wheel(self.rules.rules.wheel).pockets)
            engine.apply(WheelResult((self.random.choice(pockets),)))
        else:
            shoe = self.random.sample(sorted(CARDS), 6)
            while engine.expects().kind is ExpectKind.CARD:
                engine.apply(Deal(shoe.pop()))
        outcome: dict[str, Any] = engine.outcome().model_dump(mode="json")
        return outcome
