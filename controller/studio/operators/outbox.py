"""The feed's outbox: an event is written in the same PostgreSQL transaction as the fact it reports
(the caller's), with the next number of its table's gapless sequence. The counter row is locked by
the increment until that transaction ends, so sequences are assigned in commit order and a rolled
back event takes its number with it: nothing is published that did not happen, nothing that
happened is lost, and the operator sees 1, 2, 3 ... per table.

``append`` may also set the table's current state (what a snapshot returns) in the same
transaction, so a snapshot and the sequence never disagree.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from psycopg.types.json import Jsonb

from controller.studio.operators.feedmsg import FeedEvent

EVENT_COLUMNS = "table_id, seq, round, type, game, trace, at, data"


def event_of(row: tuple[Any, ...]) -> FeedEvent:
    return FeedEvent(str(row[0]), int(row[1]), str(row[2]), str(row[3]), str(row[4]), str(row[5]), row[6], dict(row[7]))


async def append(conn: Any, table: str, game: str, type: str, data: dict[str, Any], *, round: str = "",
                 state: dict[str, Any] | None = None, trace: str | None = None, at: datetime | None = None) -> int:
    """Write one event in ``conn``'s open transaction; returns its sequence number."""
    cur = await conn.execute(
        "INSERT INTO op_feed_counter (table_id, last_seq) VALUES (%s, 1) ON CONFLICT (table_id) "
        "DO UPDATE SET last_seq = op_feed_counter.last_seq + 1 RETURNING last_seq", (table,))
    row = await cur.fetchone()
    seq = int(row[0])
    await conn.execute(
        f"INSERT INTO op_feed_outbox ({EVENT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (table, seq, round, type, game, trace or uuid.uuid4().hex, at or datetime.now(UTC), Jsonb(data)))
    if state is not None:
        await conn.execute(
            "INSERT INTO op_feed_state (table_id, seq, game, state) VALUES (%s, %s, %s, %s) ON CONFLICT (table_id) "
            "DO UPDATE SET seq = excluded.seq, game = excluded.game, state = excluded.state",
            (table, seq, game, Jsonb(state)))
    return seq


async def events(conn: Any, table: str, after: int, until: int | None = None, limit: int = 500) -> list[FeedEvent]:
    cur = await conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM op_feed_outbox WHERE table_id = %s AND seq > %s AND seq <= %s ORDER BY seq LIMIT %s",
        (table, after, until if until is not None else 2**62, limit))
    return [event_of(r) for r in await cur.fetchall()]


async def snapshot(conn: Any, table: str) -> dict[str, Any] | None:
    """The table's current state and the sequence it stands at: an operator takes it, then reads
    its queue from ``seq + 1`` on (dropping what it already holds)."""
    cur = await conn.execute("SELECT seq, game, state FROM op_feed_state WHERE table_id = %s", (table,))
    row = await cur.fetchone()
    if row is None:
        return None
    return {"v": 1, "table": table, "seq": int(row[0]), "game": str(row[1]), "state": dict(row[2])}
