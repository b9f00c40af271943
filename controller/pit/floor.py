"""The floor's totals, above the tiles (docs/pit.md, "The floor view").

Pure: from every table's model, the rule-set edges known so far, and ``now`` (wall-clock
seconds). Money is summed per currency (tables of two currencies are never added together):
drop and win from each table's retained ``ledger`` (since its journal began), hold = win /
drop, and the theoretical edge weighted by each table's drop over the tables whose edge is
known; the remote players' drop and win (docs/studio.md) beside the felt's. Rounds per hour
count the rounds closed in the last hour that the dashboard holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.pit.model import TableModel, remote_money
from controller.pit.stats import parse_ts

HOUR_S = 3600.0


def table_status(model: TableModel) -> str:
    """open, closing (after this round), closed (by the pit, no round open) or offline."""
    state = model.state
    if state.get("closing") is True:
        return "closing" if state.get("round") else "closed"
    return "offline" if model.online is False else "open"


def _rounds_in_last_hour(model: TableModel, now: float) -> int:
    """Newest first, stopping at the first round closed over an hour ago (a corrected round,
    whose record came late, is passed over rather than stopped at), so a tick costs an hour's
    rounds, not the 2,000 kept."""
    count = 0
    for record in reversed(model.rounds.values()):
        closed = parse_ts(record.get("closed"))
        if closed is None or closed.tzinfo is None:
            continue
        if now - closed.timestamp() <= HOUR_S:
            count += 1
        elif not record.get("corrections"):
            break
    return count


def floor_totals(tables: Iterable[TableModel], edges: Mapping[str, float], now: float,
                 fallback: tuple[str, int]) -> dict[str, Any]:
    """``edges``: table id -> the rule set's edge, for the tables whose edge is known."""
    money: dict[str, dict[str, Any]] = {}
    status = {"open": 0, "closing": 0, "closed": 0, "offline": 0}
    rounds_hour = 0
    updated = 0.0
    for model in tables:
        status[table_status(model)] += 1
        rounds_hour += _rounds_in_last_hour(model, now)
        updated = max(updated, model.updated)
        stake, payout = model.ledger.get("stake_total"), model.ledger.get("payout_total")
        if not isinstance(stake, int) or not isinstance(payout, int):
            continue
        code = model.state.get("currency") if isinstance(model.state.get("currency"), str) else fallback[0]
        digits = model.state.get("currency_digits")
        sums = money.setdefault(str(code), {"currency": code, "currency_digits": digits if isinstance(digits, int)
                                            else fallback[1], "drop": 0, "win": 0, "edged_drop": 0, "edged": 0.0,
                                            "remote_drop": 0, "remote_win": 0})
        remote = remote_money(model.ledger)
        if remote is not None:
            sums["remote_drop"] += remote["drop"]
            sums["remote_win"] += remote["win"]
        sums["drop"] += stake
        sums["win"] += stake - payout
        edge = edges.get(model.table)
        if edge is not None:
            sums["edged_drop"] += stake
            sums["edged"] += edge * stake
    by_currency = []
    for code in sorted(money):
        sums = money[code]
        by_currency.append({
            "currency": sums["currency"], "currency_digits": sums["currency_digits"], "drop": sums["drop"],
            "win": sums["win"], "hold": sums["win"] / sums["drop"] if sums["drop"] else None,
            "edge": sums["edged"] / sums["edged_drop"] if sums["edged_drop"] else None,
            "remote_drop": sums["remote_drop"], "remote_win": sums["remote_win"],
        })
    return {"money": by_currency, "rounds_last_hour": rounds_hour, "tables": status,
            "updated": updated or None}
