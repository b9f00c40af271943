"""Feed messages straight into a migrated database through the consumer's own parse and
inserts (no broker): for the report tests."""

from __future__ import annotations

import json
from typing import Any

import psycopg

from controller.backoffice import records, store


def seed(database: str, messages: list[tuple[str, dict[str, Any]]]) -> None:
    with psycopg.connect(database) as conn, conn.transaction():
        for topic, body in messages:
            for row in records.parse(topic, json.dumps(body).encode()):
                assert not isinstance(row, records.Rejected), row.reason
                for sql, params in store.statements(row):
                    conn.execute(sql, params)
