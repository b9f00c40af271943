"""One snapshot of the database for everything one report reads.

A report is many queries (tables, baselines, wheels, dealers, ratings). Under PostgreSQL's
default READ COMMITTED each query sees the rounds committed when *it* starts, so a report taken
while the consumer writes could say 969 rounds for the floor and 971 for its dealers. Inside a
``REPEATABLE READ`` transaction (PostgreSQL: snapshot isolation) every query sees the snapshot
taken at the first one, and read-only it never blocks or fails the consumer's inserts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus


@contextmanager
def snapshot(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """Every query inside reads one snapshot. Within a transaction the caller already opened,
    the caller's transaction is the snapshot (open it with ``snapshot`` too)."""
    if conn.info.transaction_status != TransactionStatus.IDLE:
        yield
        return
    isolation, read_only, autocommit = conn.isolation_level, conn.read_only, conn.autocommit
    conn.autocommit = False
    conn.isolation_level, conn.read_only = psycopg.IsolationLevel.REPEATABLE_READ, True
    try:
        with conn.transaction():
            yield
    finally:
        conn.isolation_level, conn.read_only, conn.autocommit = isolation, read_only, autocommit
