"""The studio's tests run against the real PostgreSQL of tests/fixtures/postgres.py (and mosquitto)."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jwt
import pytest
import websockets
from psycopg_pool import AsyncConnectionPool
from pydantic import TypeAdapter

from controller.studio.book import Book, Player
from controller.studio.config import StudioConfig, TableSection
from controller.studio.migrate import migrate
from controller.studio.protocol import ServerMessage
from controller.studio.rules import TableRules
from controller.studio.server import StudioServer
from controller.studio.standin import StandInTable
from controller.studio.wallet import HouseWallet
from tests.fixtures.mosquitto import Credentials, MosquittoBroker, find_passwd_tool
from tests.fixtures.postgres import database, postgres, postgres_cluster
from tests.integration.studio.fake_studio import studio_floor

__all__ = ["database", "postgres", "postgres_cluster", "studio_floor"]

ROULETTE_LIMITS = {"straight": [100, 10000], "red": [500, 100000], "black": [500, 100000]}
ROULETTE_RULES = TableRules(TableSection(game="roulette", preset="european"))


@pytest.fixture
async def pool(database: str) -> AsyncIterator[AsyncConnectionPool[Any]]:
    migrate(database)
    async with AsyncConnectionPool(database, min_size=1, max_size=20, open=False) as opened:
        yield opened


@pytest.fixture
async def wallet(pool: AsyncConnectionPool[Any]) -> HouseWallet:
    return HouseWallet(pool)


@pytest.fixture
async def book(pool: AsyncConnectionPool[Any], wallet: HouseWallet) -> Book:
    return Book(pool, wallet)


def player(n: int = 1, **limits: int) -> Player:
    return Player("casino-a", f"p{n}", f"Player {n}", "EUR", **limits)


# ----------------------------------------------------------------------------- broker, studio, players


SECRET = "s" * 48
STUDIO_ACL = """
user studio
topic read croupier/+/betting
topic read croupier/+/round
topic read croupier/+/state
topic read croupier/+/head
topic read croupier/+/event
topic write croupier/+/studio
topic write croupier/+/alert
"""


class StudioBroker(MosquittoBroker):
    """The test broker with the studio's own account, as the contract's ACL has it."""

    def _write_auth(self) -> None:
        self.studio = Credentials("studio", secrets.token_hex(8))
        super()._write_auth()
        passwd = self.dir / "passwd"
        subprocess.run([str(find_passwd_tool(self.executable)), "-b", str(passwd), "studio", self.studio.password],
                       check=True, capture_output=True)
        passwd.chmod(0o644)
        acl = self.dir / "acl"
        acl.write_text(acl.read_text() + STUDIO_ACL)


@pytest.fixture
def broker() -> Iterator[StudioBroker]:
    b = StudioBroker(spots=0)
    b.start()
    try:
        yield b
    finally:
        b.close()


def operator_secret(tmp_path: Path) -> Path:
    """The operator's HS256 secret in a file only its owner reads (as the config requires)."""
    secret = tmp_path / "casino-a.secret"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    return secret


def studio_config(tmp_path: Path, broker: StudioBroker, **studio: object) -> StudioConfig:
    secret = operator_secret(tmp_path)
    return StudioConfig.model_validate({
        "studio": {"host": "127.0.0.1", "port": 0, "idle_s": 30, "join_s": 10,
                   "tables": {"rl-eu": {"game": "roulette", "preset": "european"}},
                   "operators": {"casino-a": {"algorithm": "HS256", "secret_file": str(secret),
                                              "issuer": "casino-a"}}, **studio},
        "mqtt": {"broker": broker.tcp_url(broker.studio), "insecure": True},
        "base": tmp_path})


def token(player: str = "p1", *, expires_in: float = 300, secret: str = SECRET, issuer: str = "casino-a",
          currency: str = "EUR", **claims: object) -> str:
    now = datetime.now(UTC)
    body = {"iss": issuer, "aud": "croupier-studio", "sub": player, "name": f"Player {player}",
            "currency": currency, "jti": uuid.uuid4().hex, "iat": now, "nbf": now - timedelta(seconds=1),
            "exp": now + timedelta(seconds=expires_in), **claims}
    return jwt.encode(body, secret, algorithm="HS256")


class Table(StandInTable):
    """The contract's table stand-in (controller/studio/standin.py) under the table's own broker
    account, with the round's result and the timing chosen by the test."""

    def __init__(self, broker: StudioBroker, table: str = "rl-eu") -> None:
        super().__init__(broker.tcp_url(broker.controller), table, ROULETTE_RULES, ROULETTE_LIMITS, seed=0)

    async def betting(self, status: str, round_id: str | None, deadline: datetime | None = None,  # type: ignore[override]
                      sealed: bool | None = None, *, deadline_s: float | None = None, seq: int = 0) -> None:
        when = deadline if deadline_s is None else datetime.now(UTC) + timedelta(seconds=deadline_s)
        await super().betting(status, round_id, when, sealed)

    async def record(self, round_id: str, number: str, *, status: str = "settled", sealed: bool = True) -> None:
        await self.publish_record(round_id, {"wheel": "european", "numbers": [number], "colours": ["red"],
                                             "multipliers": {}, "voids": [], "sources": ["wheel"]}, status=status, sealed=sealed)

    async def wait_for(self, kind: str, round_id: str, within: float = 20.0) -> dict[str, Any]:
        heard = self.seals if kind == "seal" else self.settled
        assert await self._wait(lambda: round_id in heard, within), f"no {kind} of {round_id} within {within} s"
        return heard[round_id]


SERVER = TypeAdapter(ServerMessage)


def received(raw: str | bytes) -> dict[str, Any]:
    """A message from the studio, checked against the published schema's model (docs/schemas/studio-server.json)."""
    message: dict[str, Any] = json.loads(raw)
    SERVER.validate_python(message)
    return message


class Client:
    """One player's WebSocket: send, and read answers and pushes by type."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ws: websockets.ClientConnection | None = None
        self.inbox: list[dict[str, object]] = []

    async def __aenter__(self) -> Client:
        self.ws = await websockets.connect(self.url, max_size=2**20)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, message: dict[str, object] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def next(self, kind: str, within: float = 20.0, **match: object) -> dict[str, object]:
        assert self.ws is not None
        deadline = time.monotonic() + within
        while True:
            for i, m in enumerate(self.inbox):
                if m.get("type") == kind and all(m.get(k) == v for k, v in match.items()):
                    return self.inbox.pop(i)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind} {match} within {within} s; inbox {self.inbox}")
            self.inbox.append(received(await asyncio.wait_for(self.ws.recv(), left)))

    async def join(self, tok: str, table: str = "rl-eu") -> dict[str, object]:
        await self.send({"v": 1, "type": "join", "token": tok, "table": table})
        return await self.next_of("joined", "refused")

    async def next_of(self, *kinds: str, within: float = 20.0) -> dict[str, object]:
        assert self.ws is not None
        deadline = time.monotonic() + within
        while True:
            for i, m in enumerate(self.inbox):
                if m.get("type") in kinds:
                    return self.inbox.pop(i)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"none of {kinds} within {within} s; inbox {self.inbox}")
            self.inbox.append(received(await asyncio.wait_for(self.ws.recv(), left)))

    async def bet(self, request: str, round_id: str, *bets: tuple[str, int]) -> dict[str, object]:
        await self.send({"v": 1, "type": "bet", "request": request, "round": round_id,
                         "bets": [{"kind": k, "amount": a} for k, a in bets]})
        return await self.next_of("accepted", "refused")




@pytest.fixture
async def studio(tmp_path: Path, broker: StudioBroker, database: str) -> AsyncIterator[StudioServer]:
    server = StudioServer(studio_config(tmp_path, broker), database)
    async with server:
        assert server.link is not None
        await asyncio.wait_for(server.link.connected.wait(), 20)
        yield server
