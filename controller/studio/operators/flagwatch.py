"""Flagged wallet movements shown to the pit: the studio counts its operators' flagged transactions
per table (a flag is a money movement no operator answered for 24 hours, or answered two ways) and
publishes a retained error alert ``studio.wallet_flagged`` on that table's ``alert`` topic whenever
the count changes, so the pit dashboard shows it on the table where the round was played; the
``croupier_operator_wallet_flagged{operator}`` gauge says the same to Prometheus.

The alert is the studio's, not the table journal's: it says ``"origin": "studio"`` and its ``seq``
is the studio's own (the time it was raised, in milliseconds: never a journal's seq). The pit
acknowledges it to the studio on ``croupier/<table>/studio_command`` (the pit's ``acknowledge_alert``
command); the studio answers as a table does, with a ``pit.alert_acknowledged`` alert naming it, and
republishes it as an info that says who acknowledged. More flagged movements raise it again (a new
seq); fewer keep it as it was. What was raised and acknowledged is kept in ``op_flag_alerts``, so
a restarted studio neither raises an acknowledged alert again nor forgets an open one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators import alerts
from controller.studio.operators.background import Background

log = logging.getLogger("croupier.studio.operators")
#: publishes one alert of a table (retained: the flagged count; not: an acknowledgement)
PublishAlert = Callable[[str, dict[str, Any], bool], Awaitable[None]]
CODE = "studio.wallet_flagged"
ACKNOWLEDGED = "pit.alert_acknowledged"
ORIGIN = "studio"
SENDER_MAX = 64


@dataclass(frozen=True)
class Raised:
    """A table's alert as last published: its seq, the count it said, who acknowledged it."""

    seq: int
    count: int
    by: str | None = None
    #: the latest flagged movement's (tx, operator, round), for the message
    latest: tuple[str, str, str] | None = None


def _ts(now: datetime) -> str:
    return now.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def flagged_alert(table: str, raised: Raised, now: datetime) -> dict[str, Any]:
    """The retained alert of ``table``'s flagged movements (count 0: cleared; acknowledged: an info)."""
    base = {"v": 1, "table": table, "ts": _ts(now), "seq": raised.seq, "code": CODE, "origin": ORIGIN}
    if raised.count == 0:
        return {**base, "round": None, "severity": "info",
                "message": "No wallet movement of the studio's players at this table is waiting for manual reconciliation."}
    tx, operator, round_id = raised.latest or ("", "", "")
    said = f"{raised.count} wallet movement(s) of remote players flagged for manual reconciliation with the operator"
    said += f" (latest: {tx} at {operator})" if tx else ""
    if raised.by is not None:
        return {**base, "round": round_id or None, "severity": "info", "count": raised.count, "by": raised.by,
                "message": f"{said}; acknowledged by {raised.by}; see croupier studio reconcile."}
    return {**base, "round": round_id or None, "severity": "error", "count": raised.count,
            "message": f"{said}; see croupier studio reconcile."}


def acknowledged_alert(table: str, alert: int, by: str, seq: int, now: datetime) -> dict[str, Any]:
    """The studio's answer to the pit's acknowledgement, as a table answers one."""
    return {"v": 1, "table": table, "round": None, "ts": _ts(now), "seq": seq, "severity": "info",
            "code": ACKNOWLEDGED, "origin": ORIGIN, "alert": alert, "by": by,
            "message": f"{by} acknowledged the studio's alert of flagged wallet movements."}


class FlagWatch(Background):
    def __init__(self, pool: AsyncConnectionPool[Any], tables: list[str], publish: PublishAlert, *,
                 poll_s: float = 5.0) -> None:
        super().__init__("wallet-flags")
        self.pool = pool
        self.tables = tables
        self.publish = publish
        self.poll_s = poll_s
        #: each table's alert as last published (none: nothing flagged was ever said)
        self.raised: dict[str, Raised] = {}
        self._loaded = False
        #: tables whose kept alert this run has not published yet
        self._unsaid: set[str] = set()
        self._last_seq = 0
        self._lock = asyncio.Lock()

    async def run(self) -> None:
        while True:
            try:
                await self.pass_once()
            except Exception as exc:  # noqa: BLE001  # the book away: the next pass tells
                log.warning("studio: flagged wallet movements not read: %s", exc)
            await self.nap(self.poll_s)

    async def pass_once(self) -> dict[str, int]:
        """Publish the alert of every table whose count changed; returns the counts."""
        async with self._lock:
            if not self._loaded:
                await self._load()
            counts, latest = await flagged(self.pool)
            for operator, n in (await flagged_by_operator(self.pool)).items():
                alerts.FLAGGED.labels(operator).set(n)
            now = datetime.now(UTC)
            for table in self.tables:
                count, was = counts.get(table, 0), self.raised.get(table)
                if (was.count if was else 0) == count:
                    if was is not None and table in self._unsaid:  # as kept, said again (a broker that lost it)
                        await self.publish(table, flagged_alert(table, replace(was, latest=latest.get(table)), now), True)
                    self._unsaid.discard(table)
                    continue
                self._unsaid.discard(table)
                if was is None or count > was.count or count == 0:  # more flagged, or none: said anew
                    raised = Raised(self._next_seq(now), count, None, latest.get(table))
                else:  # fewer, still some: the same alert, acknowledged or not
                    raised = replace(was, count=count, latest=latest.get(table))
                await self._keep(table, raised)
                await self.publish(table, flagged_alert(table, raised, now), True)
            return counts

    async def acknowledge(self, table: str, command: Any) -> None:
        """The pit's ``acknowledge_alert`` of this table's alert (``croupier/<table>/studio_command``)."""
        if not isinstance(command, dict) or command.get("command") != "acknowledge_alert":
            log.warning("studio: %s/studio_command refused: not an acknowledge_alert", table)
            return
        seq, sender = command.get("alert"), command.get("sender")
        if not isinstance(sender, str) or not 0 < len(sender) <= SENDER_MAX or not sender.isprintable():
            log.warning("studio: %s/studio_command refused: no sender", table)
            return
        async with self._lock:
            if not self._loaded:
                await self._load()
            raised = self.raised.get(table)
            if raised is None or raised.seq != seq or raised.count == 0:
                log.info("studio: %s acknowledged alert %s of %s, not the one open", sender, seq, table)
                return
            now = datetime.now(UTC)
            if raised.by is None:
                raised = replace(raised, by=sender)
                await self._keep(table, raised, now)
            await self.publish(table, acknowledged_alert(table, raised.seq, sender, self._next_seq(now), now), False)
            await self.publish(table, flagged_alert(table, raised, now), True)
            log.info("studio: %s acknowledged the flagged wallet movements' alert of %s", sender, table)

    # ------------------------------------------------------------------------------------------
    def _next_seq(self, now: datetime) -> int:
        self._last_seq = max(self._last_seq + 1, int(now.timestamp() * 1000))
        return self._last_seq

    async def _load(self) -> None:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT table_id, seq, count, acknowledged_by FROM op_flag_alerts")
            for table, seq, count, by in await cur.fetchall():
                self.raised[str(table)] = Raised(int(seq), int(count), by)
                self._unsaid.add(str(table))
                self._last_seq = max(self._last_seq, int(seq))
        self._loaded = True

    async def _keep(self, table: str, raised: Raised, acknowledged: datetime | None = None) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO op_flag_alerts (table_id, seq, count, acknowledged_by, acknowledged_at) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, "
                "count = excluded.count, acknowledged_by = excluded.acknowledged_by, "
                "acknowledged_at = CASE WHEN excluded.acknowledged_by IS NULL THEN NULL "
                "ELSE coalesce(excluded.acknowledged_at, op_flag_alerts.acknowledged_at) END",
                (table, raised.seq, raised.count, raised.by, acknowledged))
        self.raised[table] = raised


async def flagged(pool: AsyncConnectionPool[Any]) -> tuple[dict[str, int], dict[str, tuple[str, str, str]]]:
    """Per table: how many movements are flagged, and the latest's (tx, operator, round)."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT r.table_id, t.tx, t.operator, t.round FROM op_wallet_tx t JOIN studio_rounds r ON r.round = t.round "
            "WHERE t.state = 'flagged' ORDER BY t.created")
        rows = await cur.fetchall()
    counts: dict[str, int] = {}
    latest: dict[str, tuple[str, str, str]] = {}
    for table, tx, operator, round_id in rows:
        counts[table] = counts.get(table, 0) + 1
        latest[table] = (str(tx), str(operator), str(round_id))
    return counts, latest


async def flagged_by_operator(pool: AsyncConnectionPool[Any]) -> dict[str, int]:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT operator, count(*) FILTER (WHERE state = 'flagged') FROM op_wallet_tx "
                                 "GROUP BY operator")
        return {str(op): int(n) for op, n in await cur.fetchall()}
