"""Editing a journal file as someone with write access to it would: the append-only triggers
dropped, the statements run, and (``restore_triggers``) the triggers put back so the start has
nothing to see there."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
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


def rechain(path: Path, edit: Callable[[int, str, str], str | None], *, strip_macs: bool = True) -> None:
    """Rewrite rows as someone holding the file but not the key would: ``edit(seq, kind,
    payload)`` gives a row's new payload (None: the row is deleted), every hash after is
    recomputed so the plain chain holds again, and (``strip_macs``) every MAC is set NULL and the
    keyed checkpoint deleted, so the journal looks like one from before its key."""
    from controller.journal import CHECKPOINT, GENESIS, chain_hash

    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, ts, round_id, kind, source, payload, mac FROM events ORDER BY seq").fetchall()
    db.close()
    statements: list[str] = ["DELETE FROM events"]
    values: list[tuple[object, ...]] = []
    prev = GENESIS
    for seq, ts, rid, kind, source, payload, mac in rows:
        payload = edit(seq, kind, payload)
        if payload is None:
            continue
        prev = chain_hash(prev, seq, ts, rid, kind, source, payload)
        values.append((seq, ts, rid, kind, source, payload, prev, None if strip_macs else mac))
    if strip_macs:
        statements.append(f"DELETE FROM cursors WHERE name = '{CHECKPOINT}'")
    tamper(path, *statements)
    db = sqlite3.connect(path)
    db.executemany("INSERT INTO events (seq, ts, round_id, kind, source, payload, hash, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   values)
    db.commit()
    db.close()
