"""Editing a journal file as someone with write access to it would: the append-only triggers
dropped, the statements run, and (``restore_triggers``) the triggers put back so the start has
nothing to see there."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from controller.journal import Journal


def tamper(path: Path, *statements: str, params: tuple[object, ...] = (), restore_triggers: bool = True) -> None:
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER IF EXISTS events_append_only_update")
    db.execute("DROP TRIGGER IF EXISTS events_append_only_delete")
    for statement in statements:
        db.execute(statement, params)
    db.commit()
    db.close()
    if restore_triggers:
        Journal(path).close()
