"""One batch of feed rows into PostgreSQL, in one transaction, every insert idempotent
(``ON CONFLICT DO NOTHING`` on the row's own key), so a redelivered message changes nothing.

A row the database refuses for its content (a NUL byte in a text, say) must not block the
stream behind it: the batch is then written row by row under savepoints and the refused row
goes to ``rejected`` with the database's reason. A database that is away (connection lost,
pool timeout) raises ``DatabaseDown``: the caller keeps the batch and the broker keeps the
messages, since nothing was acknowledged.

Before anything is inserted, a corrected round version is held against its table's journal
(``provenance``): a version the journal does not back goes to ``rejected`` with the reason and
raises an ``intake_alerts`` row; and a version already stored with another body is kept in
``round_conflicts`` and alerted (an identical re-send stays a no-op).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from controller.backoffice import provenance
from controller.backoffice.records import (
    AlertRow,
    CommandRow,
    ConflictRow,
    DealerRow,
    HeadRow,
    IntakeAlert,
    Rejected,
    RemoteRow,
    RoundRow,
    Row,
    TableRow,
)

log = logging.getLogger(__name__)
NO_TRUST = provenance.Trust()

UNPROVEN = "round.unproven_version"
UNBACKED = "round.unbacked_version"
CONFLICT = "round.conflicting_version"


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

INTAKE_ALERT_SQL = "INSERT INTO intake_alerts (table_id, round_id, version, code, message) VALUES (%s, %s, %s, %s, %s)"
CONFLICT_SQL = """
INSERT INTO round_conflicts (table_id, round_id, version, record) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING"""
STORED_SQL = """
SELECT table_id, round_id, version, record FROM rounds
WHERE (table_id, round_id, version) IN (SELECT * FROM unnest(%s::text[], %s::text[], %s::integer[]))"""
HEADS_SQL = """
SELECT table_id, seq, hash FROM journal_heads
WHERE (table_id, seq) IN (SELECT * FROM unnest(%s::text[], %s::bigint[]))"""


@dataclass(slots=True)
class Written:
    """What one committed batch came to: rows kept as rejected (unreadable, refused by the
    database, or a version the journal does not back) and the intake alerts raised, by code."""

    rejected: int = 0
    alerts: Counter[str] = field(default_factory=Counter)


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
                            r.table, r.round, v, r.seq, r.game, None, r.table, r.game, r.status, row.opened, row.closed,
                            r.dealer, r.shoe, r.shoe_round, r.stake_total, r.payout_total, _json(row.raw.get("outcome")),
                            _json(row.raw.get("corrections") or []), _json(row.raw), len({b.box for b in r.bets}),
                            len({b.player for b in r.bets if b.player is not None})))]
        out += [(BET_SQL, (r.table, r.round, v, n, b.box, b.hand, b.kind, b.player, b.stake, b.payout))
                for n, b in enumerate(r.bets)]
        return out
    if isinstance(row, AlertRow):
        a = row.alert
        return [(ALERT_SQL, (a.table, a.seq, a.round, row.ts, a.severity, a.code, a.message, bool(a.hold), _json(row.raw)))]
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
    if isinstance(row, IntakeAlert):
        return [(INTAKE_ALERT_SQL, (row.table, row.round, row.version, row.code, row.message))]
    if isinstance(row, ConflictRow):
        r = row.row.record
        return [(CONFLICT_SQL, (r.table, r.round, row.row.version, _json(row.row.raw)))]
    return [(REJECTED_SQL, (row.topic, row.payload, row.reason))]


def vetted(rows: Sequence[Row], trust: Mapping[str, provenance.Trust]) -> list[Row]:
    """The batch as it may be written: a corrected version the journal does not back becomes a
    rejected row and an alert (``provenance``), and a row no statement can be made of (a defect)
    a rejected row with the reason, so that no message can stop the stream."""
    out: list[Row] = []
    for row in rows:
        try:
            if isinstance(row, RoundRow):
                verdict = provenance.check(row, trust.get(row.record.table, NO_TRUST))
                if verdict.refused is not None:
                    out += _unproven(row, verdict.refused)
                    continue
                if verdict.unbacked:
                    r = row.record
                    out.append(IntakeAlert(r.table, r.round, row.version, UNBACKED,
                                           f"round {r.round} version {row.version} taken without the journal rows "
                                           "that approved it (this table's unbacked corrections are trusted)"))
                row = replace(row, heads=verdict.heads)
            statements(row)
        except Exception as exc:  # a defect: keep the message, say why, go on
            log.exception("backoffice: a %s could not be made into rows; kept as rejected", type(row).__name__)
            topic, payload = _described(row)
            out.append(Rejected(topic, payload, f"unwritable ({type(exc).__name__}): {str(exc)[:200]}"))
            continue
        out.append(row)
    return out


def _unproven(row: RoundRow, reason: str) -> list[Row]:
    r = row.record
    said = f"round {r.round} version {row.version} refused: {reason}"
    return [Rejected(row.topic, _described(row)[1], f"round: {reason}"), IntakeAlert(r.table, r.round, row.version,
                                                                                       UNPROVEN, said)]


async def resolved(cur: psycopg.AsyncCursor[Any], rows: list[Row]) -> list[Row]:
    """The batch against what is stored (in the writing transaction): the batch's heads first,
    then a version that waits on a head taken only if a recorded head vouches for it and none
    contradicts it, and a version stored (or earlier in the batch) with another body kept as a
    conflict."""
    heads = [statements(r)[0][1] for r in rows if isinstance(r, HeadRow)]
    if heads:
        await cur.executemany(HEAD_SQL, heads)
    rows = await _vouched(cur, rows)
    rounds = [r for r in rows if isinstance(r, RoundRow)]
    if not rounds:
        return rows
    await cur.execute(STORED_SQL, ([r.record.table for r in rounds], [r.record.round for r in rounds],
                                   [r.version for r in rounds]))
    stored: dict[tuple[str, str, int], Any] = {(t, rid, v): rec for t, rid, v, rec in await cur.fetchall()}
    out: list[Row] = []
    for row in rows:
        if isinstance(row, RoundRow):
            key = (row.record.table, row.record.round, row.version)
            known = stored.setdefault(key, row.raw)
            if known != row.raw:
                said = (f"round {key[1]} version {key[2]} was sent again with another body; the first one "
                        "stays, the other is kept in round_conflicts")
                out += [ConflictRow(row), IntakeAlert(key[0], key[1], key[2], CONFLICT, said)]
                continue
        out.append(row)
    return out


async def _vouched(cur: psycopg.AsyncCursor[Any], rows: list[Row]) -> list[Row]:
    waiting = [(r.record.table, seq, digest) for r in rows if isinstance(r, RoundRow) for seq, digest in r.heads]
    if not waiting:
        return rows
    await cur.execute(HEADS_SQL, ([t for t, _, _ in waiting], [s for _, s, _ in waiting]))
    recorded: dict[tuple[str, int], set[str]] = {}
    for table, seq, digest in await cur.fetchall():
        recorded.setdefault((table, seq), set()).add(digest)
    out: list[Row] = []
    for row in rows:
        if isinstance(row, RoundRow) and row.heads:
            table = row.record.table
            seen = [(seq, digest, recorded.get((table, seq), set())) for seq, digest in row.heads]
            contradicted = next((seq for seq, digest, known in seen if known - {digest}), None)
            if contradicted is not None:
                out += _unproven(row, f"its journal rows contradict the head recorded at seq {contradicted}")
                continue
            if not any(digest in known for _, digest, known in seen):
                out += _unproven(row, "no recorded journal head vouches for its journal rows (and no journal key "
                                      "is configured for this table)")
                continue
        out.append(row)
    return out


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


async def write(pool: AsyncConnectionPool[Any], rows: Sequence[Row],
                trust: Mapping[str, provenance.Trust] | None = None) -> Written:
    """Commit ``rows`` (``trust``: what is configured of each table: its journal key, ...);
    ``DatabaseDown`` when nothing could be committed now."""
    if not rows:
        return Written()
    given = vetted(rows, trust or {})
    try:
        async with pool.connection() as conn:
            try:
                async with conn.transaction(), conn.cursor() as cur:
                    final = await resolved(cur, given)
                    for sql, params in _grouped(final):
                        await cur.executemany(sql, params)
                return _written(final, 0)
            except _REFUSED:
                return await _one_by_one(conn, given)
    except (psycopg.Error, PoolTimeout) as exc:
        raise DatabaseDown(str(exc).strip() or type(exc).__name__) from None


def _written(rows: Sequence[Row], refused: int) -> Written:
    return Written(refused + sum(isinstance(r, Rejected) for r in rows),
                   Counter(r.code for r in rows if isinstance(r, IntakeAlert)))


async def _one_by_one(conn: psycopg.AsyncConnection[Any], given: list[Row]) -> Written:
    refused = 0
    async with conn.transaction(), conn.cursor() as cur:
        rows = await resolved(cur, given)
        for row in sorted(rows, key=lambda r: 0 if isinstance(r, TableRow) else 1):
            try:
                async with conn.transaction():
                    for sql, params in statements(row):
                        await cur.execute(sql, params)
            except _REFUSED as exc:
                refused += 1
                topic, payload = _described(row)
                await cur.execute(REJECTED_SQL, (topic, payload, f"database refused it: {str(exc).strip()[:300]}"))
    return _written(rows, refused)


def _described(row: Row) -> tuple[str, bytes]:
    if isinstance(row, Rejected):
        return row.topic, row.payload
    raw: Any
    if isinstance(row, ConflictRow):
        row = row.row
    if isinstance(row, IntakeAlert):
        raw, leaf, table = {"code": row.code, "message": row.message}, "round", row.table
    elif isinstance(row, RoundRow):
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
