"""Flagged wallet movements shown to the pit: the studio counts its operators' flagged transactions
per table (a flag is a money movement no operator answered for 24 hours, or answered two ways) and
publishes a retained error alert ``studio.wallet_flagged`` on that table's ``alert`` topic whenever
the count changes, so the pit dashboard shows it on the table where the round was played; the
``croupier_operator_wallet_flagged{operator}`` gauge says the same to Prometheus."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators import alerts
from controller.studio.operators.background import Background

log = logging.getLogger("croupier.studio.operators")
#: publishes one message on a topic, retained
PublishRetained = Callable[[str, dict[str, Any]], Awaitable[None]]
CODE = "studio.wallet_flagged"


def flagged_alert(table: str, count: int, latest: tuple[str, str, str] | None, now: datetime) -> dict[str, Any]:
    """The retained alert of ``table``'s flagged movements (``count`` 0: cleared, an info)."""
    ts = now.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if count == 0:
        return {"v": 1, "table": table, "round": None, "ts": ts, "seq": 1, "severity": "info", "code": CODE,
                "message": "No wallet movement of the studio's players at this table is waiting for manual reconciliation."}
    tx, operator, round_id = latest or ("", "", "")
    return {"v": 1, "table": table, "round": round_id or None, "ts": ts, "seq": count, "severity": "error", "code": CODE,
            "message": f"{count} wallet movement(s) of remote players flagged for manual reconciliation with the "
                       f"operator (latest: {tx} at {operator}); see croupier studio reconcile.", "count": count}


class FlagWatch(Background):
    def __init__(self, pool: AsyncConnectionPool[Any], tables: list[str], publish: PublishRetained, *,
                 poll_s: float = 5.0) -> None:
        super().__init__("wallet-flags")
        self.pool = pool
        self.tables = tables
        self.publish = publish
        self.poll_s = poll_s
        #: the count each table's alert last said (none said: 0)
        self.said: dict[str, int] = {}

    async def run(self) -> None:
        while True:
            try:
                await self.pass_once()
            except Exception as exc:  # noqa: BLE001  # the book away: the next pass tells
                log.warning("studio: flagged wallet movements not read: %s", exc)
            await self.nap(self.poll_s)

    async def pass_once(self) -> dict[str, int]:
        """Publish the alert of every table whose count changed; returns the counts."""
        counts, latest = await flagged(self.pool)
        for operator, n in (await flagged_by_operator(self.pool)).items():
            alerts.FLAGGED.labels(operator).set(n)
        now = datetime.now(UTC)
        for table in self.tables:
            count = counts.get(table, 0)
            if self.said.get(table, 0) != count:
                await self.publish(table, flagged_alert(table, count, latest.get(table), now))
                self.said[table] = count
        return counts


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
