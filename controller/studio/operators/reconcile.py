"""Reconciliation for an operator: every wallet transaction in a time range with its status (the
same rows for ``croupier studio reconcile`` and the operator's HTTP endpoint), and a round's detail
for a dispute: its transactions and the feed events of its table."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from controller.studio.operators import outbox
from controller.studio.operators.feedmsg import FeedEvent

COLUMNS = ("tx", "kind", "ref", "round", "player", "currency", "amount", "state", "result", "balance", "attempts",
           "created", "answered", "flag_reason")


class ReconcileRow(BaseModel):
    """One wallet transaction as the operator may check it against its own books."""

    model_config = ConfigDict(frozen=True)

    tx: str
    kind: str
    ref: str
    round: str
    player: str
    currency: str
    amount: int
    state: str  # pending, answered, cancelled, flagged
    result: str | None  # ok, insufficient_funds, operator_limit, token_refused
    balance: int | None
    attempts: int
    created: str
    answered: str | None
    flag_reason: str | None


def _row(values: tuple[Any, ...]) -> ReconcileRow:
    data = dict(zip(COLUMNS, values))
    data["created"] = data["created"].isoformat()
    data["answered"] = data["answered"].isoformat() if data["answered"] else None
    return ReconcileRow.model_validate(data)


async def rows(conn: Any, operator: str, start: datetime, end: datetime) -> list[ReconcileRow]:
    """The operator's transactions created in ``[start, end)``, oldest first."""
    cur = await conn.execute(f"SELECT {', '.join(COLUMNS)} FROM op_wallet_tx WHERE operator = %s AND created >= %s "
                             "AND created < %s ORDER BY created, tx", (operator, start, end))
    return [_row(r) for r in await cur.fetchall()]


async def round_detail(conn: Any, operator: str, round: str) -> dict[str, Any] | None:
    """The operator's transactions of ``round`` and the feed events of that round; None when the
    round has neither."""
    cur = await conn.execute(f"SELECT {', '.join(COLUMNS)} FROM op_wallet_tx WHERE operator = %s AND round = %s "
                             "ORDER BY created, tx", (operator, round))
    txs = [_row(r).model_dump() for r in await cur.fetchall()]
    cur = await conn.execute(f"SELECT {outbox.EVENT_COLUMNS} FROM op_feed_outbox WHERE round = %s ORDER BY table_id, seq",
                             (round,))
    events = [_event(outbox.event_of(r)) for r in await cur.fetchall()]
    if not txs and not events:
        return None
    return {"v": 1, "round": round, "transactions": txs, "events": events}


def _event(event: FeedEvent) -> dict[str, Any]:
    return {"table": event.table, "seq": event.seq, "type": event.type, "game": event.game, "trace": event.trace,
            "at": event.at.isoformat(), "data": event.data}


def to_csv(found: list[ReconcileRow]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in found:
        writer.writerow(row.model_dump())
    return out.getvalue()


def to_json(found: list[ReconcileRow]) -> str:
    return json.dumps({"v": 1, "rows": [r.model_dump() for r in found]}, indent=1)
