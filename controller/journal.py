"""The table's journal: SQLite in WAL mode with synchronous FULL, append-only, one row per event.

Every input is committed here before the table acts on it, so a crash at any instant loses at
most an input that was never acted on. Replaying rows in ``seq`` order rebuilds the table; the
pit feed keeps its own cursor so a broker outage is caught up in journal order.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    ts       TEXT    NOT NULL,
    round_id TEXT,
    kind     TEXT    NOT NULL,
    source   TEXT    NOT NULL,
    payload  TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS events_round ON events(round_id);
CREATE TABLE IF NOT EXISTS cursors (
    name TEXT PRIMARY KEY,
    seq  INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
"""


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    ts: str
    round_id: str | None
    kind: str
    source: str
    payload: dict[str, Any]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Journal:
    """Append-only event log. ``append`` returns only once the row is durable on disk."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def append(self, kind: str, payload: dict[str, Any], *, source: str, round_id: str | None = None,
               ts: str | None = None) -> Entry:
        ts = ts or utc_now()
        text = json.dumps(payload, separators=(",", ":"), sort_keys=True)
        cur = self._db.execute(
            "INSERT INTO events (ts, round_id, kind, source, payload) VALUES (?, ?, ?, ?, ?)",
            (ts, round_id, kind, source, text),
        )
        return Entry(int(cur.lastrowid or 0), ts, round_id, kind, source, payload)

    def entries(self, after: int = 0, round_id: str | None = None) -> Iterator[Entry]:
        """Rows in journal order, after ``after`` (exclusive), optionally of one round."""
        if round_id is None:
            rows = self._db.execute(
                "SELECT seq, ts, round_id, kind, source, payload FROM events WHERE seq > ? ORDER BY seq", (after,)
            )
        else:
            rows = self._db.execute(
                "SELECT seq, ts, round_id, kind, source, payload FROM events WHERE seq > ? AND round_id = ?"
                " ORDER BY seq",
                (after, round_id),
            )
        for seq, ts, rid, kind, source, payload in rows:
            yield Entry(seq, ts, rid, kind, source, json.loads(payload))

    def last_seq(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(row[0])

    def cursor(self, name: str) -> int:
        row = self._db.execute("SELECT seq FROM cursors WHERE name = ?", (name,)).fetchone()
        return int(row[0]) if row else 0

    def set_cursor(self, name: str, seq: int) -> None:
        self._db.execute(
            "INSERT INTO cursors (name, seq) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET seq = excluded.seq",
            (name, seq),
        )

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
