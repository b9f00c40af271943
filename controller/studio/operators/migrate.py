"""The operators' schema: the SQL files in ``migrations/`` applied in order, each in its own
transaction, recorded in ``operators_migrations`` (its own table, beside the studio's and the back
office's in the same database). A database newer than this program is refused."""

from __future__ import annotations

import re
from importlib import resources

import psycopg

NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
LOCK_KEY = 0x0C0C_0B0E  # pg_advisory_lock key of this migrator
TABLE = "operators_migrations"


class OperatorsMigrationError(RuntimeError):
    pass


def shipped() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration, oldest first."""
    folder = resources.files("controller.studio.operators").joinpath("migrations")
    found = [(int(m[1]), m[2], item.read_text(encoding="utf-8"))
             for item in folder.iterdir() if (m := NAME.fullmatch(item.name))]
    return sorted(found)


def migrate(url: str) -> int:
    """Apply what is missing; returns how many migrations were applied."""
    wanted = shipped()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (version integer PRIMARY KEY, name text NOT NULL, "
                         "applied timestamptz NOT NULL DEFAULT now())")
            row = conn.execute(f"SELECT coalesce(max(version), 0) FROM {TABLE}").fetchone()
            have = int(row[0]) if row else 0
            if have > len(wanted):
                raise OperatorsMigrationError(f"the operators' schema is at version {have}, newer than this "
                                              f"program's {len(wanted)}: upgrade croupier")
            for version, name, sql in wanted[have:]:
                with conn.transaction():
                    conn.execute(sql.encode())
                    conn.execute(f"INSERT INTO {TABLE} (version, name) VALUES (%s, %s)", (version, name))
            return len(wanted) - have
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
