"""The studio's schema: the SQL files in ``migrations/`` (``NNNN_name.sql``), applied in order, each
in its own transaction and recorded in ``studio_migrations`` (its own table, so the studio may
share a database with the back office). A database newer than this program is refused."""

from __future__ import annotations

import re
from importlib import resources

import psycopg

NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
LOCK_KEY = 0x0C0C_57D0  # pg_advisory_lock key of the studio's migrator


class StudioMigrationError(RuntimeError):
    pass


def shipped() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration, oldest first."""
    found = []
    for item in resources.files("controller.studio").joinpath("migrations").iterdir():
        match = NAME.fullmatch(item.name)
        if match:
            found.append((int(match[1]), match[2], item.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(url: str) -> int:
    """Apply what is missing; returns how many migrations were applied."""
    wanted = shipped()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS studio_migrations (version integer PRIMARY KEY, "
                         "name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
            row = conn.execute("SELECT coalesce(max(version), 0) FROM studio_migrations").fetchone()
            have = int(row[0]) if row else 0
            if have > len(wanted):
                raise StudioMigrationError(f"the studio's database is at version {have}, newer than this "
                                           f"program's {len(wanted)}: upgrade croupier")
            for version, name, sql in wanted[have:]:
                with conn.transaction():
                    conn.execute(sql.encode())
                    conn.execute("INSERT INTO studio_migrations (version, name) VALUES (%s, %s)", (version, name))
            return len(wanted) - have
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
