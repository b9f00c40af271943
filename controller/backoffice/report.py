"""A gaming day's report from the stored rounds (docs/backoffice.md, "Reports"): deterministic
and recomputable, every figure SQL over the rounds in their latest corrected version.

Definitions, as the pit's (docs/pit.md, controller/round_money.py): **drop** is the stakes of
settled rounds and of the bets that stood in a void round (what a void returned counts in
neither drop nor win), **paid** what was paid back on them, **win**
= drop - paid, **hold_pct** = 100 * win / drop (0.0 without drop). **theo_win** is each bet's
stake times its own kind's edge for the table's game and preset, rounded to the minor unit.
A round belongs to the gaming day (and shift) in which it closed; a correction keeps the
round's close time, so a corrected round never moves to another day.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import psycopg

from controller.backoffice import dealers, remote, tallies, wheel
from controller.backoffice import edges as bet_edges
from controller.backoffice.snapshot import snapshot
from controller.floor.gaming_day import Period, day_of, gaming_day, shifts

BASELINES = (7, 30)
MIN_BASELINE_DAYS = 3


@dataclass(frozen=True)
class ReportSpec:
    day: date
    starts: time
    zone: ZoneInfo
    shifts: dict[str, time] = field(default_factory=dict)
    shift: str | None = None
    tables: tuple[str, ...] | None = None  # None: every table
    pits: dict[str, list[str]] = field(default_factory=dict)
    z_flag: float = 3.0
    recompute: bool = False  # read the stored rounds, never the tallies

    def pit_of(self, table: str) -> str | None:
        return next((pit for pit, tables in self.pits.items() if table in tables), None)

    def periods(self) -> list[Period]:
        return shifts(self.day, self.starts, self.zone, self.shifts)

    def window(self) -> Period:
        """The whole day, or the one shift asked for (ValueError naming the known ones)."""
        if self.shift is None:
            return gaming_day(self.day, self.starts, self.zone)
        for period in self.periods():
            if period.name == self.shift:
                return period
        raise ValueError(f"no shift {self.shift!r}; the shifts are {', '.join(p.name for p in self.periods())}")


def hold_pct(win: int, drop: int) -> float:
    return round(100.0 * win / drop, 4) if drop else 0.0


def _per_hour(rounds: int, first: datetime | None, last: datetime | None) -> float | None:
    if first is None or last is None or last <= first:
        return None
    return round(rounds * 3600.0 / (last - first).total_seconds(), 2)


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("rounds", "settled", "void", "drop", "paid", "win", "theo_win", "theo_unknown_drop", "corrected")
    out: dict[str, Any] = {k: sum(int(r[k]) for r in rows) for k in keys}
    out["tables"] = len(rows)
    money = {(r.get("currency"), r.get("currency_digits")) for r in rows}
    out["currency"], out["currency_digits"] = money.pop() if len(money) == 1 else (None, None)
    out["hold_pct"] = hold_pct(out["win"], out["drop"])
    out["win_vs_theo"] = out["win"] - out["theo_win"]
    return out


class Reporter:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def _params(self, spec: ReportSpec, window: Period) -> dict[str, Any]:
        tables = list(spec.tables) if spec.tables is not None else None
        return {"start": window.start, "end": window.end, "tables": tables,
                "source": tallies.source(spec.recompute, window.start, window.end)}

    def _run(self, query: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        source: tallies.Source = params["source"]
        values = {k: v for k, v in params.items() if k != "source"}
        return list(self.conn.execute(getattr(source, query), values).fetchall())

    def report(self, spec: ReportSpec) -> dict[str, Any]:
        """The report; every part of it from one snapshot of the database."""
        window = spec.window()
        with snapshot(self.conn):
            return self._report(spec, window)

    def _report(self, spec: ReportSpec, window: Period) -> dict[str, Any]:
        params = self._params(spec, window)
        tables = self._tables(params)
        self._theo(params, tables)
        currencies = {t: (c, d) for t, c, d in self.conn.execute(
            "SELECT table_id, currency, currency_digits FROM floor_tables WHERE table_id = ANY(%s)", (list(tables),))}
        for table_id, figures in tables.items():
            figures["currency"], figures["currency_digits"] = currencies.get(table_id, (None, None))
            figures["pit"] = spec.pit_of(table_id)
            figures["win_vs_theo"] = figures["win"] - figures["theo_win"]
        self._baselines(spec, tables)
        wheels = [t for t, figures in tables.items() if figures["game"] in wheel.wheel_games()]
        for table_id, flags in wheel.bias_flags(self.conn, spec, wheels).items():
            tables[table_id]["wheel_bias"] = flags
        pits: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for figures in tables.values():
            pits[figures["pit"] or ""].append(figures)
        periods = [window] if spec.shift is not None else spec.periods()
        return {
            "day": spec.day.isoformat(),
            "shift": spec.shift,
            "source": params["source"].name,
            "period": {"start": window.start.isoformat(), "end": window.end.isoformat(), "timezone": str(spec.zone),
                       "gaming_day_starts": spec.starts.strftime("%H:%M")},
            "tables": tables,
            "pits": {pit or "(no pit)": _totals(rows) for pit, rows in sorted(pits.items())},
            "floor": _totals(list(tables.values())),
            "dealers": [row for period in periods for row in self._dealers(spec, period)],
            "remote": remote.section(self.conn, params),  # the remote players', beside the felt's (docs/studio.md)
        }

    def _tables(self, params: dict[str, Any]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for table_id, game, rounds, void, drop, paid, first, last, corrected, boxes, players in self._run("tables", params):
            out[table_id] = {
                "game": game, "preset": None, "rounds": rounds, "settled": rounds - void, "void": void,
                "drop": drop, "paid": paid, "win": drop - paid, "hold_pct": hold_pct(drop - paid, drop),
                "theo_win": 0, "theo_unknown_drop": 0, "corrected": corrected,
                "rounds_per_hour": _per_hour(rounds, first, last), "occupancy": round(float(boxes or 0.0), 3),
                "players_max": int(players or 0), "first": first.isoformat(), "last": last.isoformat(),
            }
        return out

    def _theo(self, params: dict[str, Any], tables: dict[str, dict[str, Any]]) -> None:
        theo: dict[str, float] = defaultdict(float)
        for table_id, game, preset, kind, stake in self._run("stakes", params):
            figures = tables[table_id]
            figures["preset"] = figures["preset"] or preset
            edge = bet_edges.bet_edges(game, preset).get(kind)
            if edge is None:
                figures["theo_unknown_drop"] += stake
            else:
                theo[table_id] += stake * edge
        for table_id, value in theo.items():
            tables[table_id]["theo_win"] = round(value)

    def _dealers(self, spec: ReportSpec, period: Period) -> list[dict[str, Any]]:
        params = self._params(spec, period)
        alerts = dealers.alerts_by_dealer(self.conn, params)
        targets = dealers.pace_targets(self.conn, self._run("dealer_tables", params))
        out = []
        for dealer, rounds, void, corrected, first, last, tables in self._run("dealers", params):
            row = {"shift": period.name, "dealer": dealer or None, "rounds": rounds,
                   "rounds_per_hour": _per_hour(rounds, first, last), "corrections": corrected, "voids": void,
                   "tables": tables}
            out.append(dealers.performance(row, alerts.pop(dealer, dict(dealers.ZERO)), targets.get(dealer)))
        for dealer, counts in sorted(alerts.items()):  # alerts with no round closed in the period
            row = {"shift": period.name, "dealer": dealer or None, "rounds": 0, "rounds_per_hour": None,
                   "corrections": 0, "voids": 0, "tables": 0}
            out.append(dealers.performance(row, counts, None))
        return out

    def _baselines(self, spec: ReportSpec, tables: dict[str, dict[str, Any]]) -> None:
        """Each table's daily hold over the 7 and 30 gaming days before this one, and how far
        this day's hold lies from them (z-score, flagged at ``z_flag``)."""
        longest = max(BASELINES)
        start = gaming_day(spec.day - timedelta(days=longest), spec.starts, spec.zone).start
        end = gaming_day(spec.day, spec.starts, spec.zone).start
        days = [gaming_day(spec.day - timedelta(days=n), spec.starts, spec.zone).start for n in range(longest + 1)]
        params = {"start": start, "end": end, "tables": list(tables), "zone": str(spec.zone),
                  "starts": f"{spec.starts.hour} hours {spec.starts.minute} minutes",
                  "source": tallies.source(spec.recompute, *days)}
        daily: dict[str, dict[date, float]] = defaultdict(dict)
        for table_id, day, drop, paid in self._run("daily", params):
            if drop:
                daily[table_id][day] = 100.0 * (drop - paid) / drop
        for table_id, figures in tables.items():
            figures["baseline"] = {str(n): _baseline(daily.get(table_id, {}), spec.day, n, figures, spec.z_flag)
                                   for n in BASELINES}


def _baseline(holds: dict[date, float], day: date, days: int, today: dict[str, Any], z_flag: float) -> dict[str, Any]:
    values = [h for d, h in holds.items() if day - timedelta(days=days) <= d < day]
    out: dict[str, Any] = {"days": len(values), "hold_pct_mean": None, "hold_pct_stdev": None, "z": None, "flag": False}
    if len(values) < MIN_BASELINE_DAYS:
        return out
    mean, stdev = statistics.fmean(values), statistics.stdev(values)
    out["hold_pct_mean"], out["hold_pct_stdev"] = round(mean, 4), round(stdev, 4)
    if today["drop"] and stdev > 0:
        z = (today["hold_pct"] - mean) / stdev
        out["z"] = round(z, 3) if math.isfinite(z) else None
        out["flag"] = out["z"] is not None and abs(z) >= z_flag
    return out


def gaming_day_of(instant: datetime, spec: ReportSpec) -> date:
    return day_of(instant, spec.starts, spec.zone)
