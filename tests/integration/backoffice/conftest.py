"""The back office's tests run against the real PostgreSQL of tests/fixtures/postgres.py."""

from tests.fixtures.postgres import database, postgres, postgres_cluster

__all__ = ["database", "postgres", "postgres_cluster"]
