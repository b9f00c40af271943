"""The players of ``bench/studio.py``: one WebSocket each to a studio instance, one bet request a
round at a random moment of the betting time, and the times the bench reports (accept, the
result and the ``settled`` on the page). Kept lean: 10,000 of them share one process with the
stand-in table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import websockets

ISSUER, AUDIENCE = "casino-a", "croupier-studio"
#: connections being opened at once (a burst far past the listen backlog only waits in SYN retries)
CONNECTING = 200


@dataclass
class Times:
    """What the bench reports, gathered by every player (monotonic clock of this process)."""

    accept_ms: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    #: per round: when the table published the result, and when each player saw it / its settled
    published: dict[str, float] = field(default_factory=dict)
    result_at: dict[str, list[float]] = field(default_factory=dict)
    settled_at: dict[str, list[float]] = field(default_factory=dict)
    credited: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0


def launch_token(player: str, secret: str) -> str:
    now = datetime.now(UTC)
    return jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": player, "name": player, "currency": "EUR",
                       "jti": uuid.uuid4().hex, "exp": now + timedelta(hours=2)}, secret, algorithm="HS256")


class BenchPlayer:
    def __init__(self, n: int, urls: list[str], secret: str, times: Times, rng: random.Random) -> None:
        self.player = f"bench-{n}"
        self.urls = urls
        self.home = n % len(urls)
        self.secret, self.times, self.rng = secret, times, rng
        self.ws: Any = None
        self.open_round: str | None = None
        self.opened = asyncio.Event()
        self.answer: asyncio.Future[dict[str, Any]] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.gone = asyncio.Event()

    async def connect(self, gate: asyncio.Semaphore) -> None:
        """Connect and join (a new launch token each time), to the home instance or the next one."""
        for attempt in range(len(self.urls) * 20):
            url = self.urls[(self.home + attempt) % len(self.urls)]
            try:
                async with gate:
                    ws = await websockets.connect(url, max_size=2**16, open_timeout=30, ping_interval=None)
                    await ws.send(json.dumps({"v": 1, "type": "join", "token": launch_token(self.player, self.secret),
                                              "table": "rl-eu"}))
                    joined = json.loads(await asyncio.wait_for(ws.recv(), 30))
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.2)
                continue
            if joined.get("type") != "joined":
                raise RuntimeError(f"{self.player} not joined: {joined}")
            self.home = (self.home + attempt) % len(self.urls)
            self.ws, self.gone = ws, asyncio.Event()
            self.reader = asyncio.create_task(self._read(ws))
            return
        raise RuntimeError(f"{self.player} could not connect to any studio")

    async def _read(self, ws: Any) -> None:
        times = self.times
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                now = time.monotonic()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "betting":
                    if message.get("status") == "open":
                        self.open_round = message.get("round")
                        self.opened.set()
                elif kind == "result":
                    times.result_at.setdefault(str(message.get("round")), []).append(now)
                elif kind == "settled":
                    round_id = str(message.get("round"))
                    times.settled_at.setdefault(round_id, []).append(now)
                    times.credited[round_id] = times.credited.get(round_id, 0) + (message.get("balance") is not None)
                elif kind in ("accepted", "refused") and self.answer is not None and not self.answer.done():
                    self.answer.set_result(message)
        self.gone.set()

    async def bet(self, round_id: str, within_s: float) -> bool:
        """Wait for the round to open, bet once at a random moment of ``within_s``; True: accepted."""
        while self.open_round != round_id:
            self.opened.clear()
            await self.opened.wait()
        await asyncio.sleep(self.rng.uniform(0, within_s))
        request = {"v": 1, "type": "bet", "request": uuid.uuid4().hex, "round": round_id,
                   "bets": [{"kind": self.rng.choice(("red", "black", "even", "odd")), "amount": 500}]}
        self.answer = asyncio.get_running_loop().create_future()
        started = time.monotonic()
        await self.ws.send(json.dumps(request))
        answer = await asyncio.wait_for(self.answer, 60)
        if answer["type"] == "accepted":
            self.times.accept_ms.append((time.monotonic() - started) * 1000)
            return True
        self.times.refused[answer["reason"]] = self.times.refused.get(answer["reason"], 0) + 1
        return False

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            await asyncio.gather(self.reader, return_exceptions=True)


async def connect_all(players: list[BenchPlayer]) -> None:
    gate = asyncio.Semaphore(CONNECTING)
    await asyncio.gather(*(p.connect(gate) for p in players))


async def wait_for(done: Callable[[], bool], within: float, step: float = 0.01) -> bool:
    """Poll ``done`` (counters filled by the players' readers) until true or ``within`` s."""
    end = time.monotonic() + within
    while not done():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(step)
    return True
