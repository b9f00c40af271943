"""The operators' tests: real PostgreSQL (tests/fixtures/postgres.py), real RabbitMQ
(tests/fixtures/rabbitmq.py, one broker per session) and the reference operator served over real
HTTP by uvicorn on a loopback port."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.migrate import migrate
from controller.studio.operators.settings import Operator, OperatorSettings
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.operators.sim.wallet_app import wallet_app
from tests.fixtures.postgres import database, postgres, postgres_cluster
from tests.fixtures.rabbitmq import rabbitmq, rabbitmq_server
from tests.support.waiting import until_awaited

T = TypeVar("T")

__all__ = ["database", "postgres", "postgres_cluster", "rabbitmq", "rabbitmq_server"]


@pytest.fixture
async def pool(database: str) -> AsyncIterator[AsyncConnectionPool[Any]]:
    migrate(database)
    async with AsyncConnectionPool(database, min_size=1, max_size=10, open=False) as opened:
        yield opened


async def eventually(read: Callable[[], Awaitable[T]], holds: Callable[[T], bool], what: str,
                     within: float = 30.0) -> None:
    """``until_awaited`` on a value read (from PostgreSQL, another task's work) and a test of it."""
    async def check() -> bool:
        return holds(await read())

    await until_awaited(check, what, within=within)


@dataclass
class Sim:
    """A running reference operator: its books, its fault switches, its address."""

    operator: Operator
    store: SimStore
    faults: Faults
    url: str


def make_operator(directory: Path, name: str, url: str, **settings: Any) -> Operator:
    wallet_secret, feed_secret = directory / f"{name}.wallet", directory / f"{name}.feed"
    wallet_secret.write_text(secrets.token_hex(32))
    feed_secret.write_text(secrets.token_hex(32))
    s = OperatorSettings(wallet_url=url, wallet_secret_file=wallet_secret, feed_secret_file=feed_secret, **settings)
    return Operator(name, s, wallet_secret.read_bytes(), feed_secret.read_bytes())


@contextlib.asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    """``app`` served by uvicorn on a free loopback port until the block ends; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="off", timeout_graceful_shutdown=1))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()


@pytest.fixture
async def sim(tmp_path: Path) -> AsyncIterator[Sim]:
    store, faults = SimStore(tmp_path / "sim.sqlite"), Faults()
    holder: dict[str, Operator] = {}
    secret = secrets.token_hex(32).encode()

    def app_for() -> Any:
        return wallet_app(store, secret, faults)

    async with serve(app_for()) as base:
        op = make_operator(tmp_path, "casino-a", f"{base}/wallet", timeout_s=1.0)
        op = Operator(op.id, op.settings, secret, op.feed_secret)
        holder["op"] = op
        yield Sim(op, store, faults, base)
