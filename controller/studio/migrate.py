"""A schema of the studio's: the SQL files in a package's ``migrations/`` (``NNNN_name.sql``),
applied in order, each in its own transaction and recorded in that schema's own table, so the
studio's book, the operators' tables and the back office may share one database. A database
newer than this program is refused. The studio's book is ``STUDIO``; the operators' tables
(controller/studio/operators/migrate.py) are a ``Schema`` too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


class StudioMigrationError(RuntimeError):
    pass


@dataclass(frozen=True)
class Schema:
    #: the package whose ``migrations/`` folder holds the SQL files
    package: str
    #: the table that records what was applied
    table: str
    #: its migrator's ``pg_advisory_lock`` key (two migrators of one schema wait for each other)
    lock_key: int
    #: what a refusal calls it
    called: str

    def shipped(self) -> list[tuple[int, str, str]]:
        """(version, name, sql) of every migration, oldest first."""
        folder = resources.files(self.package).joinpath("migrations")
        return sorted((int(m[1]), m[2], item.read_text(encoding="utf-8"))
                      for item in folder.iterdir() if (m := NAME.fullmatch(item.name)))

    def migrate(self, url: str) -> int:
        """Apply what is missing; returns how many migrations were applied."""
        wanted = self.shipped()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (self.lock_key,))
            try:
                conn.execute(f"CREATE TABLE IF NOT EXISTS {self.table} (version integer PRIMARY KEY, "
                             "name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
                row = conn.execute(f"SELECT coalesce(max(version), 0) FROM {self.table}").fetchone()
                have = int(row[0]) if row else 0
                if have > len(wanted):
                    raise StudioMigrationError(f"{self.called} is at version {have}, newer than this "
                                               f"program's {len(wanted)}: upgrade croupier")
                for version, name, sql in wanted[have:]:
                    with conn.transaction():
                        conn.execute(sql.encode())
                        conn.execute(f"INSERT INTO {self.table} (version, name) VALUES (%s, %s)", (version, name))
                return len(wanted) - have
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (self.lock_key,))


STUDIO = Schema("controller.studio", "studio_migrations", 0x0C0C_57D0, "the studio's database")
migrate = STUDIO.migrate
shipped = STUDIO.shipped
