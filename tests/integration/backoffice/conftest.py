"""The back office's tests run against the real PostgreSQL of tests/fixtures/postgres.py (and mosquitto)."""

from collections.abc import Iterator

import pytest

from controller.backoffice.migrate import migrate
from tests.fixtures.mosquitto import MosquittoBroker
from tests.fixtures.postgres import database, postgres, postgres_cluster
from tests.integration.backoffice.feed import Publisher

__all__ = ["database", "migrated", "postgres", "postgres_cluster", "publisher"]


@pytest.fixture
def migrated(database: str) -> str:
    """A throwaway database at the back office's current schema."""
    migrate(database)
    return database


@pytest.fixture
def publisher(mosquitto: MosquittoBroker) -> Iterator[Publisher]:
    """A table's side of the feed: publishes what a test hands it, on the controller's account."""
    p = Publisher(mosquitto)
    yield p
    p.close()
