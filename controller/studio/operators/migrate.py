"""The operators' schema: their SQL files in ``migrations/``, recorded in ``operators_migrations``
beside the studio's and the back office's tables in the same database (controller/studio/migrate.py)."""

from __future__ import annotations

from controller.studio.migrate import Schema

OPERATORS = Schema("controller.studio.operators", "operators_migrations", 0x0C0C_0B0E, "the operators' schema")
migrate = OPERATORS.migrate
