"""The simulated remote players: each a WebSocket with a launch token per connection, betting
once on every round the studio says is open. Some are late (they send after the round's betting
closed), some drop their connection and come back with a new token, some send a request twice."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import websockets

from controller.studio.sides import SIDES

#: what a simulated player may bet at a wheel or baccarat table (some outside the limits, on purpose)
MAIN_KINDS = {"roulette": ["red", "black", "even", "odd", "dozen:1", "column:2", "straight:17", "straight:0",
                           "split:17-20"],
              "baccarat": ["player", "banker", "tie"]}
#: the boxes a remote side bet rides on (batch mode seats players on 1, 3 and 5: the others are returned)
BOXES = range(1, 6)
STAKES = [100, 200, 500, 500, 1000, 1000, 2500, 5000, 250_000]
START_BALANCE = 200_000
#: the share of players each round who are late, drop their connection, send a request twice
LATE, DISCONNECT, RETRY = 0.1, 0.05, 0.1


def kinds(game: str) -> list[str]:
    """What a player without a seat tries at ``game``: its main bets, or a card game's side bets on
    each box (a game with neither, Catch a Wave, gets a main bet on a box: refused)."""
    if game in MAIN_KINDS:
        return MAIN_KINDS[game]
    return [f"{side}@{box}" for side in sorted(SIDES.get(game, {"main"})) for box in BOXES]


@dataclass
class Tally:
    accepted_bets: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    accept_ms: list[float] = field(default_factory=list)
    #: every bet id a player was told was accepted
    accepted_ids: set[str] = field(default_factory=set)


class SimPlayer:
    """One remote player: a WebSocket, a launch token per connection, one request per round."""

    def __init__(self, n: int, url: str, operator: tuple[str, str, str], table: str, game: str,
                 rng: random.Random, tally: Tally) -> None:
        self.player = f"sim-{n}"
        self.url, self.table, self.kinds = url, table, kinds(game)
        self.issuer, self.audience, self.secret = operator
        self.rng, self.tally = rng, tally
        self.ws: websockets.ClientConnection | None = None
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        #: the rounds the studio said are open for bets, and those it said are closed
        self.open_rounds: set[str] = set()
        self.closed_rounds: set[str] = set()
        self.changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None

    def token(self) -> str:
        now = datetime.now(UTC)
        return jwt.encode({"iss": self.issuer, "aud": self.audience, "sub": self.player, "name": self.player,
                           "currency": "EUR", "jti": uuid.uuid4().hex, "exp": now + timedelta(minutes=30)},
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

    async def stop(self) -> None:
        """The end of the run: the connection closed."""
        await self.drop()

    async def _read(self, ws: websockets.ClientConnection) -> None:
        inbox = self.inbox
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                message = json.loads(raw)
                if self.pushed(message):
                    continue
                if message.get("type") != "betting":
                    inbox.put_nowait(message)
                    continue
                async with self.changed:
                    heard = self.open_rounds if message.get("status") == "open" else self.closed_rounds
                    heard.add(str(message.get("round")))
                    self.changed.notify_all()

    def pushed(self, message: dict[str, Any]) -> bool:
        """A push this player handles itself as it arrives (a seated player's turn); True when taken."""
        return False

    async def _answer(self, *types: str, within: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + within
        while True:
            message = await asyncio.wait_for(self.inbox.get(), max(0.01, deadline - time.monotonic()))
            if message.get("type") in types:
                return message

    async def run(self) -> None:
        """Bet on every round the studio opens, until cancelled."""
        played: set[str] = set()
        while True:
            if self.ws is None:
                await self.connect()  # back after a disconnect, with a new token
            async with self.changed:
                await self.changed.wait_for(lambda: bool(self.open_rounds - self.closed_rounds - played))
                round_id = min(self.open_rounds - self.closed_rounds - played)
            played.add(round_id)
            try:
                await self.play(round_id)
            except (websockets.ConnectionClosed, TimeoutError):  # the studio went away: back with a new token
                await self.drop()

    def request(self, round_id: str) -> dict[str, Any]:
        """This round's request: one to three bets of the kinds a player without a seat tries."""
        bets = [{"kind": self.rng.choice(self.kinds), "amount": self.rng.choice(STAKES)}
                for _ in range(self.rng.randint(1, 3))]
        return {"v": 1, "type": "bet", "request": uuid.uuid4().hex, "round": round_id, "bets": bets}

    async def play(self, round_id: str) -> None:
        if self.rng.random() < LATE:
            async with self.changed:
                await self.changed.wait_for(lambda: round_id in self.closed_rounds)
        request = self.request(round_id)
        answer: dict[str, Any] = {}
        for _ in range(2 if self.rng.random() < RETRY else 1):
            assert self.ws is not None
            started = time.perf_counter()
            await self.ws.send(json.dumps(request))
            answer = await self._answer("accepted", "refused")
            if answer["type"] == "accepted":
                self.tally.accept_ms.append((time.perf_counter() - started) * 1000)
        if answer["type"] == "accepted":
            self.tally.accepted_bets += len(answer["bets"])
            self.tally.accepted_ids.update(str(b["id"]) for b in answer["bets"])
        else:
            self.tally.refused[answer["reason"]] += 1
        if self.rng.random() < DISCONNECT:
            await self.drop()
