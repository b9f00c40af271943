"""The floor's totals, above the tiles (docs/pit.md, "The floor view").

Pure: from every table's model, the rule-set edges known so far, and ``now`` (wall-clock
seconds). Money is summed per currency (tables of two currencies are never added together):
drop and win from each table's retained ``ledger`` (since its journal began), hold = win /
drop, and the theoretical edge weighted by each table's drop over the tables whose edge is
known; the remote players' drop and win (docs/studio.md) beside the felt's. Rounds per hour
count the rounds closed in the last hour that the dashboard holds.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.pit.model import TableModel, remote_money
from controller.pit.stats import parse_ts

HOUR_S = 3600.0
INFINITY = float("inf")
STATUSES = ("open", "closing", "closed", "offline")


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
    until = INFINITY
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
        return self.count(model, now)[0]

    def count(self, model: TableModel, now: float) -> tuple[int, float]:
        """The count, and until when it holds."""
        kept = self._kept.get(model.table)
        if kept is not None and kept[0] == model.rounds_changed and now <= kept[2]:
            return kept[1], kept[2]
        count, until = _rounds_in_last_hour(model, now)
        self._kept[model.table] = (model.rounds_changed, count, until)
        return count, until

    def forget(self, table: str) -> None:
        """The table is gone from the floor."""
        self._kept.pop(table, None)


def rounds_in_last_hour(model: TableModel, now: float) -> int:
    return _rounds_in_last_hour(model, now)[0]


def _state_key(state: Mapping[str, Any]) -> tuple[object, ...]:
    """What a table's share takes from its ``state``: most new states change none of it."""
    return (state.get("closing") is True, bool(state.get("round")), state.get("currency"),
            state.get("currency_digits"), state.get("game"), state.get("preset"))


@dataclass(slots=True)
class _Share:
    """One table's share of the totals: its status, its rounds of the last hour (until when
    that count holds), its last change, and its money (None: its ledger has no totals); with
    what they were counted from (a new ``ledger`` is a new dict)."""

    state: tuple[object, ...]  # ``_state_key``
    ledger: dict[str, Any]
    online: bool | None
    rounds_changed: int
    status: str
    rounds_hour: int
    until: float
    updated: float
    money: tuple[str, int, int, int, int, int, float | None] | None  # code, digits, stake, payout,
    #                                                                   remote drop, remote win, edge

    def counts(self, model: TableModel) -> bool:
        """Whether the table's share is still this one (its ``updated`` aside)."""
        return (model.ledger is self.ledger and model.online == self.online
                and model.rounds_changed == self.rounds_changed and _state_key(model.state) == self.state)


@dataclass
class _Sums:
    """One currency's sums over the tables in it; the theoretical edge as stakes per edge
    (integers: a table's share taken out again leaves no rounding behind)."""

    tables: int = 0
    drop: int = 0
    win: int = 0
    remote_drop: int = 0
    remote_win: int = 0
    digits: Counter[int] = field(default_factory=Counter)
    staked: Counter[float] = field(default_factory=Counter)

    def add(self, share: tuple[str, int, int, int, int, int, float | None], sign: int) -> None:
        _, digits, stake, payout, remote_drop, remote_win, edge = share
        self.tables += sign
        self.drop += sign * stake
        self.win += sign * (stake - payout)
        self.remote_drop += sign * remote_drop
        self.remote_win += sign * remote_win
        self.digits[digits] += sign
        if edge is not None:
            self.staked[edge] += sign * stake


class FloorTotals:
    """The floor's totals kept table by table: ``update`` takes out and adds again the shares
    of the tables named changed, of those whose oldest round of the last hour turned an hour
    old, and of every table after ``recount_all`` (an edge became known). A tick of a thousand
    tables then costs its changed tables, not the floor: the sums were the dashboard's longest
    stall of its feed, some 3 ms ten times a second."""

    def __init__(self, fallback: tuple[str, int], last_hour: RoundsLastHour | None = None) -> None:
        self.fallback = fallback
        self._last_hour = last_hour if last_hour is not None else RoundsLastHour()
        self._all = True
        self._reset()

    def _reset(self) -> None:
        self._shares: dict[str, _Share] = {}
        self._expiring: list[tuple[float, str]] = []  # (until, table): a heap
        self._status = dict.fromkeys(STATUSES, 0)
        self._rounds_hour = 0
        self._money: dict[str, _Sums] = {}
        self._updated = 0.0
        self._updated_stale = False

    def recount_all(self) -> None:
        """Every table's share is computed again at the next ``update``."""
        self._all = True

    def update(self, tables: Mapping[str, TableModel], changed: Iterable[str],
               edge: Callable[[TableModel], float | None], now: float) -> dict[str, Any]:
        """The totals of ``tables`` (in floor order) once the shares of ``changed`` tables are
        counted again; ``edge``: a table's rule-set edge, None while unknown."""
        recount: Iterable[str] = ()
        if self._all:
            self._all = False
            self._reset()
            recount, changed = tables, ()
        else:
            recount = set()
            while self._expiring and self._expiring[0][0] < now:
                until, table = heapq.heappop(self._expiring)
                share = self._shares.get(table)
                if share is not None and share.until == until:
                    recount.add(table)
        for table in changed:
            model, share = tables.get(table), self._shares.get(table)
            if model is None or share is None or table in recount or not share.counts(model):
                self._recount(table, model, edge, now)
            elif model.updated != share.updated:  # a prompt, say: the table changed, its share did not
                if model.updated >= self._updated:
                    self._updated = model.updated
                elif share.updated >= self._updated:  # the latest change was this table's, and went back
                    self._updated_stale = True
                share.updated = model.updated
        for table in recount:
            self._recount(table, tables.get(table), edge, now)
        if len(self._expiring) > 4 * len(self._shares) + 64:  # what passed its time, or was replaced
            self._expiring = [(s.until, t) for t, s in self._shares.items() if s.until != INFINITY]
            heapq.heapify(self._expiring)
        return self._view(tables)

    def _recount(self, table: str, model: TableModel | None, edge: Callable[[TableModel], float | None],
                 now: float) -> None:
        before = self._take(table)
        if model is None:
            self._last_hour.forget(table)
        share = self._share(model, edge, now) if model is not None else None
        if share is not None:
            self._put(table, share, before)
        if before is not None and before.updated >= self._updated and (share is None or share.updated < before.updated):
            self._updated_stale = True  # the latest change was this table's, and is gone

    def _share(self, model: TableModel, edge: Callable[[TableModel], float | None], now: float) -> _Share:
        count, until = self._last_hour.count(model, now)
        money = None
        stake, payout = model.ledger.get("stake_total"), model.ledger.get("payout_total")
        if isinstance(stake, int) and isinstance(payout, int):
            state = model.state
            code = state.get("currency") if isinstance(state.get("currency"), str) else self.fallback[0]
            digits = state.get("currency_digits")
            remote = remote_money(model.ledger) or {"drop": 0, "win": 0}
            money = (str(code), digits if isinstance(digits, int) else self.fallback[1], stake, payout,
                     remote["drop"], remote["win"], edge(model))
        return _Share(_state_key(model.state), model.ledger, model.online, model.rounds_changed, table_status(model),
                      count, until, model.updated, money)

    def _put(self, table: str, share: _Share, before: _Share | None) -> None:
        self._shares[table] = share
        self._count(share, 1)
        if share.until != INFINITY and (before is None or before.until != share.until):
            heapq.heappush(self._expiring, (share.until, table))
        self._updated = max(self._updated, share.updated)

    def _take(self, table: str) -> _Share | None:
        share = self._shares.pop(table, None)
        if share is not None:
            self._count(share, -1)
        return share

    def _count(self, share: _Share, sign: int) -> None:
        self._status[share.status] += sign
        self._rounds_hour += sign * share.rounds_hour
        if share.money is not None:
            sums = self._money.get(share.money[0])
            if sums is None:
                sums = self._money[share.money[0]] = _Sums()
            sums.add(share.money, sign)
            if not sums.tables:
                del self._money[share.money[0]]

    def _digits(self, code: str, sums: _Sums, tables: Mapping[str, TableModel]) -> int:
        """The currency's digits: those of its first table on the floor (tables of one currency
        agree, but one that says otherwise must not make the figure depend on arrival order)."""
        given = [d for d, n in sums.digits.items() if n]
        if len(given) == 1:
            return given[0]
        for table in tables:
            share = self._shares.get(table)
            if share is not None and share.money is not None and share.money[0] == code:
                return share.money[1]
        return self.fallback[1]

    def _view(self, tables: Mapping[str, TableModel]) -> dict[str, Any]:
        if self._updated_stale:
            self._updated_stale = False
            self._updated = max((s.updated for s in self._shares.values()), default=0.0)
        by_currency = []
        for code in sorted(self._money):
            sums = self._money[code]
            edged_drop = sum(sums.staked.values())
            edged = sum(edge * stake for edge, stake in sums.staked.items())
            by_currency.append({
                "currency": code, "currency_digits": self._digits(code, sums, tables), "drop": sums.drop,
                "win": sums.win, "hold": sums.win / sums.drop if sums.drop else None,
                "edge": edged / edged_drop if edged_drop else None,
                "remote_drop": sums.remote_drop, "remote_win": sums.remote_win,
            })
        return {"money": by_currency, "rounds_last_hour": self._rounds_hour, "tables": dict(self._status),
                "updated": self._updated or None}


def floor_totals(tables: Iterable[TableModel], edges: Mapping[str, float], now: float,
                 fallback: tuple[str, int], last_hour: RoundsLastHour | None = None) -> dict[str, Any]:
    """The totals of ``tables`` counted afresh. ``edges``: table id -> the rule set's edge,
    for the tables whose edge is known; ``last_hour`` keeps the counts of the last hour."""
    listed = {model.table: model for model in tables}
    return FloorTotals(fallback, last_hour).update(listed, listed, lambda m: edges.get(m.table), now)
