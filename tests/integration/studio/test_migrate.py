"""The studio's schema: applied once, again applies nothing, a newer database is refused, and it
keeps to its own tables beside the back office's in one database."""

from __future__ import annotations

import psycopg
import pytest

from controller.backoffice.migrate import migrate as backoffice_migrate
from controller.studio.migrate import StudioMigrationError, migrate, shipped


def test_migrations_apply_once_beside_the_back_office(database: str) -> None:
    backoffice_migrate(database)
    assert migrate(database) == len(shipped()) >= 3
    assert migrate(database) == 0
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("INSERT INTO studio_migrations (version, name) VALUES (999, 'from_the_future')")
    with pytest.raises(StudioMigrationError, match="newer than this program"):
        migrate(database)
