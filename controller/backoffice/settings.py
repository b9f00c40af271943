"""The back office's gaming day, shifts, pits and flag level kept in its database
(``floor_settings``, migration 0004), written by ``croupier backoffice run`` from its config at
every start, so a reader of the same database (the pit dashboard's history) reports the same
days and shifts as the back office without a copy of its config."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from pydantic import ValidationError

from controller.backoffice.config import BackofficeSection

WRITE = """
INSERT INTO floor_settings (id, gaming_day_starts, timezone, shifts, pits, z_flag, updated)
VALUES (true, %s, %s, %s, %s, %s, now())
ON CONFLICT (id) DO UPDATE SET gaming_day_starts = excluded.gaming_day_starts, timezone = excluded.timezone,
    shifts = excluded.shifts, pits = excluded.pits, z_flag = excluded.z_flag, updated = excluded.updated"""
READ = "SELECT gaming_day_starts, timezone, shifts, pits, z_flag FROM floor_settings WHERE id"


def publish(conn: psycopg.Connection[Any], section: BackofficeSection) -> None:
    with conn.transaction():
        conn.execute(WRITE, (section.gaming_day_starts, section.timezone, Jsonb(section.shifts), Jsonb(section.pits),
                             section.z_flag))


def read(conn: psycopg.Connection[Any]) -> BackofficeSection | None:
    """The settings the back office last ran with; None before it ever ran (or if unreadable)."""
    row = conn.execute(READ).fetchone()
    if row is None:
        return None
    starts, zone, shifts, pits, z_flag = row
    try:
        return BackofficeSection(gaming_day_starts=starts, timezone=zone, shifts=shifts, pits=pits, z_flag=z_flag)
    except ValidationError:
        return None
