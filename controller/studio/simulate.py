"""``croupier studio simulate``: R rounds of a table with N simulated remote players through the
real service (the studio's WebSocket API, its book in PostgreSQL, the broker), against the
contract's stand-in table (``standin.py``). Some players are late, some disconnect and come back,
some send a request twice; the run prints one JSON object of what the studio took, sealed and
settled, beside what the table heard, so the two books can be compared."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import websockets

from controller.studio.config import StudioConfig
from controller.studio.server import StudioServer
from controller.studio.standin import StandInTable

#: what a simulated player may bet, per game (some outside the limits, on purpose)
KINDS = {"roulette": ["red", "black", "even", "odd", "dozen:1", "column:2", "straight:17", "straight:0",
                      "split:17-20"],
         "baccarat": ["player", "banker", "tie"]}
STAKES = [100, 200, 500, 500, 1000, 1000, 2500, 5000, 250_000]
START_BALANCE = 200_000
#: the share of players each round who are late, drop their connection, send a request twice
LATE, DISCONNECT, RETRY = 0.1, 0.05, 0.1


@dataclass
class Tally:
    accepted_bets: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    accept_ms: list[float] = field(default_factory=list)


class SimPlayer:
    """One remote player: a WebSocket, a launch token per connection, one request per round."""

    def __init__(self, n: int, url: str, operator: tuple[str, str, str], table: str, game: str,
                 rng: random.Random, tally: Tally) -> None:
        self.player = f"sim-{n}"
        self.url, self.table, self.game = url, table, game
        self.issuer, self.audience, self.secret = operator
        self.rng, self.tally = rng, tally
        self.ws: websockets.ClientConnection | None = None
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        #: the rounds the studio said are open for bets (its ``betting`` pushes)
        self.open_rounds: set[str] = set()
        self.opened = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None

    def token(self) -> str:
        now = datetime.now(UTC)
        return jwt.encode({"iss": self.issuer, "aud": self.audience, "sub": self.player, "name": self.player,
                           "currency": "EUR", "jti": uuid.uuid4().hex, "exp": now + timedelta(minutes=10)},
                          self.secret, algorithm="HS256")

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url)
        self.inbox = asyncio.Queue()
        self._reader = asyncio.create_task(self._read(self.ws))
        await self.ws.send(json.dumps({"v": 1, "type": "join", "token": self.token(), "table": self.table}))
        await self._answer("joined", "refused")

    async def drop(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
        self.ws = None

    async def _read(self, ws: websockets.ClientConnection) -> None:
        inbox = self.inbox
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") != "betting":
                    inbox.put_nowait(message)
                elif message.get("status") == "open":
                    async with self.opened:
                        self.open_rounds.add(str(message.get("round")))
                        self.opened.notify_all()

    async def _answer(self, *kinds: str, within: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + within
        while True:
            message = await asyncio.wait_for(self.inbox.get(), max(0.01, deadline - time.monotonic()))
            if message.get("type") in kinds:
                return message

    async def play(self, round_id: str, sealed: asyncio.Event) -> None:
        if self.ws is None:
            await self.connect()  # back after a disconnect, with a new token
        async with self.opened:
            await asyncio.wait_for(self.opened.wait_for(lambda: round_id in self.open_rounds), 30)
        if self.rng.random() < LATE:
            await sealed.wait()
        bets = [{"kind": self.rng.choice(KINDS[self.game]), "amount": self.rng.choice(STAKES)}
                for _ in range(self.rng.randint(1, 3))]
        request = {"v": 1, "type": "bet", "request": uuid.uuid4().hex, "round": round_id, "bets": bets}
        times = 2 if self.rng.random() < RETRY else 1
        answer: dict[str, Any] = {}
        for _ in range(times):
            assert self.ws is not None
            started = time.perf_counter()
            await self.ws.send(json.dumps(request))
            answer = await self._answer("accepted", "refused")
            if answer["type"] == "accepted":
                self.tally.accept_ms.append((time.perf_counter() - started) * 1000)
        if answer["type"] == "accepted":
            self.tally.accepted_bets += len(answer["bets"])
        else:
            self.tally.refused[answer["reason"]] += 1
        if self.rng.random() < DISCONNECT:
            await self.drop()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return round(values[0], 2)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1], 2)


async def simulate(config: StudioConfig, database: str, broker: str, *, players: int, rounds: int, seed: int,
                   betting_s: float = 1.0, grace_s: float = 3.0) -> dict[str, Any]:
    table_id, section = next(iter(config.studio.tables.items()))
    if section.game not in KINDS:
        raise ValueError(f"simulate plays a roulette or baccarat table, not {section.game}")
    hs = [(op.issuer, op.audience, key) for (name, key), op in
          zip(config.keys().items(), config.studio.operators.values()) if op.algorithm == "HS256"]
    if not hs:
        raise ValueError("simulate signs its players' tokens: the config needs an HS256 operator")
    issuer, audience, secret = hs[0]
    operator = next(n for n, op in config.studio.operators.items() if op.issuer == issuer)
    run_config = config.model_copy(update={
        "studio": config.studio.model_copy(update={"host": "127.0.0.1", "port": 0,
                                                   "per_client": max(config.studio.per_client, players + 16),
                                                   "max_connections": max(config.studio.max_connections, players + 16)}),
        "mqtt": config.mqtt.model_copy(update={"broker": broker, "insecure": True})})
    rng = random.Random(seed)
    tally = Tally()
    async with StudioServer(run_config, database) as server:
        assert server.link is not None
        await asyncio.wait_for(server.link.connected.wait(), 30)
        rules = server.studio.tables[table_id]
        limits = {k: [v.min, v.max] for k, v in rules.rules.limits.items()}
        sims = [SimPlayer(n, server.url, (issuer, audience, secret), table_id, section.game,
                          random.Random(rng.random()), tally) for n in range(1, players + 1)]
        for sim in sims:
            await server.wallet.fund(operator, sim.player, "EUR", START_BALANCE)
        sealed_count = 0
        async with StandInTable(broker, table_id, rules, limits, seed) as table:
            await asyncio.gather(*(s.connect() for s in sims))
            for r in range(1, rounds + 1):
                round_id = f"{table_id}-sim-{seed}-{r:06d}"
                closed = asyncio.Event()
                bets = [asyncio.create_task(s.play(round_id, closed)) for s in sims]
                had_seal = await table.play(round_id, betting_s, grace_s)
                closed.set()
                sealed_count += had_seal
                await asyncio.gather(*bets, return_exceptions=True)
                await table.wait_settled(round_id, 30)
            await asyncio.gather(*(s.drop() for s in sims))
            heard = list(table.settled.values())
        books = await _books(server, table_id)
    return {
        "rounds": rounds, "players": players, "bets_accepted": tally.accepted_bets,
        "bets_refused": dict(sorted(tally.refused.items())), "settled": books["settled"], "refunded": books["refunded"],
        "seals_journaled": sealed_count, "drop": books["drop"], "paid": books["paid"],
        "table_drop": sum(int(s["stake"]) - int(s["refunded"]) for s in heard),
        "table_paid": sum(int(s["paid"]) for s in heard),
        "accept_ms": {"p50": _percentile(tally.accept_ms, 50), "p99": _percentile(tally.accept_ms, 99)},
    }


async def _books(server: StudioServer, table: str) -> dict[str, int]:
    async with server.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) FILTER (WHERE status = 'settled'), count(*) FILTER (WHERE status = 'refunded'), "
            "coalesce(sum(amount) FILTER (WHERE status = 'settled'), 0), "
            "coalesce(sum(payout) FILTER (WHERE status = 'settled'), 0) FROM studio_bets WHERE table_id = %s",
            (table,))
        row = await cur.fetchone()
    assert row is not None
    return {"settled": int(row[0]), "refunded": int(row[1]), "drop": int(row[2]), "paid": int(row[3])}
