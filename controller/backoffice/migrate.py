"""Versioned migrations: the plain SQL files in ``migrations/`` (``NNNN_name.sql``), applied in
order, each in its own transaction with its version recorded in ``schema_migrations``. Running
it again applies only what is new; a database newer than this program is refused, never
"repaired". A lock keeps two migrators from racing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
LOCK_KEY = 0x0C0C_B0FF  # pg_advisory_lock key of the back office's migrator


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


class MigrationError(RuntimeError):
    pass


def migrations() -> list[Migration]:
    """Every shipped migration, oldest first."""
    found = []
    for item in resources.files("controller.backoffice").joinpath("migrations").iterdir():
        match = NAME.fullmatch(item.name)
        if match:
            found.append(Migration(int(match[1]), match[2], item.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1, 2, 3 ... without gaps: {versions}")
    return found


def current_version(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    return int(str(row[0])) if row else 0


def migrate(url: str) -> list[str]:
    """Apply what is missing; returns one line per migration applied (none: up to date)."""
    shipped = migrations()
    done: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                         "name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
            have = current_version(conn)
            if have > len(shipped):
                raise MigrationError(f"the database is at schema version {have}, newer than this program's "
                                     f"{len(shipped)}: upgrade croupier")
            for m in shipped[have:]:
                with conn.transaction():
                    conn.execute(m.sql.encode())
                    conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (m.version, m.name))
                done.append(f"applied {m.version:04d}_{m.name}")
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return done


def require_current(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    """MigrationError unless the schema is exactly this program's (run ``croupier backoffice migrate``)."""
    have, want = current_version(conn), len(migrations())
    if have != want:
        raise MigrationError(f"the database is at schema version {have}, this program needs {want}: "
                             "run croupier backoffice migrate --database URL")
