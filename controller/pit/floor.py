"""The floor's totals, above the tiles (docs/pit.md, "The floor view").

Pure: from every table's model, the rule-set edges known so far, and ``now`` (wall-clock
seconds). Money is summed per currency (tables of two currencies are never added together):
drop and win from each table's retained ``ledger`` (since its journal began), hold = win /
drop, and the theoretical edge weighted by each table's drop over the tables whose edge is
known; the remote players' drop and win (docs/studio.md) beside the felt's. Rounds per hour
count the rounds closed in the last hour that the dashboard holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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


def _rounds_in_last_hour(model: TableModel, now: float) -> tuple[int, float]:
    """The count, and until when it holds (the oldest counted round turns an hour old then).
    Newest first, stopping at the first round closed over an hour ago (a corrected round,
    whose record came late, is passed over rather than stopped at), so it costs an hour's
    rounds, not the 2,000 kept."""
    count = 0
    until = float("inf")
    for record in reversed(model.rounds.values()):
        closed = parse_ts(record.get("closed"))
        if closed is None or closed.tzinfo is None:
            continue
        at = closed.timestamp()
        if now - at <= HOUR_S:
            count += 1
            until = min(until, at + HOUR_S)
        elif not record.get("corrections"):
            break
    return count, until


class RoundsLastHour:
    """Each table's rounds closed in the last hour, counted again only when its rounds changed
    or its oldest counted round turned an hour old: a tick of a floor of 1,000 tables is then
    1,000 look-ups, not the 60,000 timestamps of an hour's rounds parsed again."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[int, int, float]] = {}  # table -> (rounds_changed, count, until)

    def __call__(self, model: TableModel, now: float) -> int:
        kept = self._kept.get(model.table)
        if kept is not None and kept[0] == model.rounds_changed  and now <= kept[2]:
            return kept[1]
        count, until = _rounds_in_last_hour(model, now)
        self._kept[model.table] = (model.rounds_changed, count, until)
        return count

    def keep_only(self, tables: Mapping[str, object]) -> None:
        """Forget the tables gone from the floor."""
        if len(self._kept) > len(tables):
            self._kept = {t: k for t, k in self._kept.items() if t in tables}


def rounds_in_last_hour(model: TableModel, now: float) -> int:
    return _rounds_in_last_hour(model, now)[0]


def floor_totals(tables: Iterable[TableModel], edges: Mapping[str, float], now: float,
                 fallback: tuple[str, int],
                 last_hour: Callable[[TableModel, float], int] = rounds_in_last_hour) -> dict[str, Any]:
    """``edges``: table id -> the rule set's edge, for the tables whose edge is known;
    ``last_hour``: a table's rounds closed in the last hour (``RoundsLastHour`` keeps them)."""
    money: dict[str, dict[str, Any]] = {}
    status = {"open": 0, "closing": 0, "closed": 0, "offline": 0}
    rounds_hour = 0
    updated = 0.0
    for model in tables:
        status[table_status(model)] += 1
        rounds_hour += last_hour(model, now)
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
