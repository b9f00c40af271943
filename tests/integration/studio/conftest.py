"""The studio's tests run against the real PostgreSQL of tests/fixtures/postgres.py (and mosquitto)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from psycopg_pool import AsyncConnectionPool

from controller.studio.book import Book, Player
from controller.studio.migrate import migrate
from controller.studio.wallet import HouseWallet
from tests.fixtures.postgres import database, postgres, postgres_cluster

__all__ = ["database", "postgres", "postgres_cluster"]

ROULETTE_LIMITS = {"straight": [100, 10000], "red": [500, 100000], "black": [500, 100000]}


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
