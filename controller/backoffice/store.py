"""One batch of feed rows into PostgreSQL, in one transaction, every insert idempotent
(``ON CONFLICT DO NOTHING`` on the row's own key), so a redelivered message changes nothing.

A row the database refuses for its content (a NUL byte in a text, say) must not block the
stream behind it: the batch is then written row by row under savepoints and the refused row
goes to ``rejected`` with the database's reason. A database that is away (connection lost,
pool timeout) raises ``DatabaseDown``: the caller keeps the batch and the broker keeps the
messages, since nothing was acknowledged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from controller.backoffice.records import (
    AlertRow,
    CommandRow,
    DealerRow,
    HeadRow,
    Rejected,
    RemoteRow,
    RoundRow,
    Row,
    TableRow,
)


class DatabaseDown(RuntimeError):
    """The database cannot take the batch now; try again later."""


TABLE_SQL = """
INSERT INTO floor_tables AS t (table_id, game, preset, currency, currency_digits, pace_target, updated)
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (table_id) DO UPDATE SET game = excluded.game, preset = excluded.preset,
    currency = coalesce(excluded.currency, t.currency),
    currency_digits = coalesce(excluded.currency_digits, t.currency_digits),
    pace_target = coalesce(excluded.pace_target, t.pace_target), updated = excluded.updated
WHERE t.updated <= excluded.updated"""
ROUND_SQL = """
INSERT INTO rounds (table_id, round_id, version, seq, game, preset, status, opened, closed, dealer, shoe,
                    shoe_round, stake_total, payout_total, outcome, corrections, record, boxes, players)
VALUES (%s, %s, %s, %s, %s, coalesce(%s, (SELECT preset FROM floor_tables WHERE table_id = %s AND game = %s)),
        %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING"""
BET_SQL = """
INSERT INTO bets (table_id, round_id, version, n, box, hand, kind, player, stake, payout)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"""
ALERT_SQL = """
INSERT INTO alerts (table_id, seq, round_id, ts, severity, code, message, hold, body)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"""
COMMAND_SQL = """
INSERT INTO pit_commands (table_id, seq, ts, round_id, command, sender, command_id, body)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"""
DEALER_SQL = """
INSERT INTO dealer_events (table_id, seq, ts, action, dealer) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"""
HEAD_SQL = "INSERT INTO journal_heads (table_id, seq, hash, ts) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING"
REJECTED_SQL = "INSERT INTO rejected (topic, payload, reason) VALUES (%s, %s, %s)"
#: a round's remote totals: the latest by seq wins, so totals sent again replace and never add
REMOTE_SQL = """
INSERT INTO remote_rounds (table_id, round_id, seq, ts, bets, stake, paid, refunded) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (table_id, round_id) DO UPDATE SET seq = EXCLUDED.seq, ts = EXCLUDED.ts, bets = EXCLUDED.bets,
    stake = EXCLUDED.stake, paid = EXCLUDED.paid, refunded = EXCLUDED.refunded
WHERE remote_rounds.seq < EXCLUDED.seq"""


def _json(value: Any) -> Jsonb:
    return Jsonb(value, dumps=lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False))


def statements(row: Row) -> list[tuple[str, tuple[Any, ...]]]:
    """The inserts one row needs, in order."""
    if isinstance(row, TableRow):
        return [(TABLE_SQL, (row.table, row.game, row.preset, row.currency, row.currency_digits, row.pace_target,
                             row.ts))]
    if isinstance(row, RoundRow):
        r, v = row.record, row.version
        out: list[tuple[str, tuple[Any, ...]]] = [(ROUND_SQL, (
                            r.table, r.round, v, r.seq, r.game, None, r.table, r.game, r.status, r.opened, r.closed,
                            r.dealer, r.shoe, r.shoe_round, r.stake_total, r.payout_total, _json(r.outcome),
                            _json(r.corrections), _json(row.raw), len({b.box for b in r.bets}),
                            len({b.player for b in r.bets if b.player is not None})))]
        out += [(BET_SQL, (r.table, r.round, v, n, b.box, b.hand, b.kind, b.player, b.stake, b.payout))
                for n, b in enumerate(r.bets)]
        return out
    if isinstance(row, AlertRow):
        a = row.alert
        return [(ALERT_SQL, (a.table, a.seq, a.round, a.ts, a.severity, a.code, a.message, bool(a.hold), _json(row.raw)))]
    if isinstance(row, CommandRow):
        return [(COMMAND_SQL, (row.table, row.seq, row.ts, row.round, row.command, row.sender, row.command_id,
                               _json(row.payload)))]
    if isinstance(row, DealerRow):
        return [(DEALER_SQL, (row.table, row.seq, row.ts, row.action, row.dealer))]
    if isinstance(row, RemoteRow):
        return [(REMOTE_SQL, (row.table, row.round, row.seq, row.ts, row.count, row.stake, row.paid, row.refunded))]
    if isinstance(row, HeadRow):
        h = row.head
        return [(HEAD_SQL, (h.table, h.seq, h.hash, h.ts))]
    return [(REJECTED_SQL, (row.topic, row.payload, row.reason))]


def _grouped(rows: Sequence[Row]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The batch's statements grouped by kind for ``executemany``: tables first (a round takes
    its preset from its table), then rounds, then their bets, then the rest."""
    pending: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        for sql, params in statements(row):
            pending.setdefault(sql, []).append(params)
    first = {TABLE_SQL: 0, ROUND_SQL: 1, BET_SQL: 2}
    return sorted(pending.items(), key=lambda item: first.get(item[0], 3))


#: what a row's content can make the database refuse (a NUL byte, a broken constraint); any
#: other error (connection lost, server shutting down or starting, a missing table) means the
#: database cannot take the batch now, and it is retried whole
_REFUSED = (psycopg.DataError, psycopg.IntegrityError)


async def write(pool: AsyncConnectionPool[Any], rows: Sequence[Row]) -> int:
    """Commit ``rows``; returns how many were refused by the database and kept as rejected.
    ``DatabaseDown`` when nothing could be committed now."""
    if not rows:
        return 0
    try:
        async with pool.connection() as conn:
            try:
                async with conn.transaction(), conn.cursor() as cur:
                    for sql, params in _grouped(rows):
                        await cur.executemany(sql, params)
                return 0
            except _REFUSED:
                return await _one_by_one(conn, rows)
    except (psycopg.Error, PoolTimeout) as exc:
        raise DatabaseDown(str(exc).strip() or type(exc).__name__) from None


async def _one_by_one(conn: psycopg.AsyncConnection[Any], rows: Sequence[Row]) -> int:
    refused = 0
    async with conn.transaction(), conn.cursor() as cur:
        for row in sorted(rows, key=lambda r: 0 if isinstance(r, TableRow) else 1):
            try:
                async with conn.transaction():
                    for sql, params in statements(row):
                        await cur.execute(sql, params)
            except _REFUSED as exc:
                refused += 1
                topic, payload = _described(row)
                await cur.execute(REJECTED_SQL, (topic, payload, f"database refused it: {str(exc).strip()[:300]}"))
    return refused


def _described(row: Row) -> tuple[str, bytes]:
    if isinstance(row, Rejected):
        return row.topic, row.payload
    raw: Any
    if isinstance(row, RoundRow):
        raw, leaf, table = row.raw, "round", row.record.table
    elif isinstance(row, AlertRow):
        raw, leaf, table = row.raw, "alert", row.alert.table
    elif isinstance(row, HeadRow):
        raw, leaf, table = row.head.model_dump(mode="json"), "head", row.head.table
    elif isinstance(row, TableRow):
        raw, leaf, table = {"game": row.game, "preset": row.preset}, "state", row.table
    else:
        raw, leaf, table = {"seq": row.seq}, "event", row.table
    text = json.dumps(raw, default=str, ensure_ascii=True).replace("\\u0000", "\\\\u0000")
    return f"croupier/{table}/{leaf}", text.encode()[:4096]
