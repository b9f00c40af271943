"""The per-player report of the advantage-play watch (docs/protection.md): every
``protection.advantage_play`` alert the tables raised, as the back office stored it, by player,
with the evidence each flag carries (the test, Pearson's r of bet against true count with its
95 % interval, the p-value, the rounds, the index plays and the edge the count gave the player
per hour), beside the player's own rating over the same days.

A flag never carries the count of a shoe in play (no live hot-shoe signal); a flag that also
carries bet-by-count points (``evidence.bets_by_count``: ``[true count, bet]`` pairs) has them
drawn, else the chart shows each flag's r and interval.
"""

from __future__ import annotations

from typing import Any, Final

import psycopg

from controller.backoffice.evidence import MAX_POINTS, Evidence
from controller.floor.gaming_day import Period

CODE: Final = "protection.advantage_play"

FLAGS = """
SELECT a.body->>'player', a.table_id, a.seq, a.ts, a.round_id, a.message, a.body->'evidence', t.currency,
       t.currency_digits
FROM alerts a LEFT JOIN floor_tables t USING (table_id)
WHERE a.code = %(code)s AND a.ts >= %(start)s AND a.ts < %(end)s
  AND (%(player)s::text IS NULL OR a.body->>'player' = %(player)s)
ORDER BY 1, a.ts, a.table_id, a.seq"""


def _flag(table_id: str, seq: int, ts: Any, round_id: str | None, message: str, raw: Any) -> dict[str, Any]:
    e = Evidence.read(raw)
    return {"table": table_id, "seq": seq, "ts": ts.isoformat(), "round": round_id, "message": message,
            "test": e.test, "statistic": e.statistic, "ci": list(e.ci), "p_value": e.p_value, "rounds": e.rounds,
            "average_bet": e.average_bet, "edge_per_hour": e.edge_per_hour, "index_plays": dict(e.index_plays),
            "bets_by_count": e.bets_by_count}


def flagged_players(conn: psycopg.Connection[Any], period: Period, *, player: str | None = None) -> dict[str, Any]:
    """By player id: the flags raised in the period, the index plays added up over them, and the
    highest edge per hour a flag estimated."""
    players: dict[str, dict[str, Any]] = {}
    params = {"code": CODE, "start": period.start, "end": period.end, "player": player}
    for pid, table_id, seq, ts, round_id, message, evidence, currency, digits in conn.execute(FLAGS, params):
        if not pid:
            continue
        p = players.setdefault(pid, {"flags": [], "tables": [], "index_plays": {}, "edge_per_hour_max": None,
                                     "currency": currency, "currency_digits": digits})
        flag = {**_flag(table_id, seq, ts, round_id, message, evidence), "currency": currency, "currency_digits": digits}
        p["flags"].append(flag)
        if table_id not in p["tables"]:
            p["tables"].append(table_id)
        for key, value in flag["index_plays"].items():
            p["index_plays"][key] = p["index_plays"].get(key, 0) + value
        if flag["edge_per_hour"] is not None:
            p["edge_per_hour_max"] = max(p["edge_per_hour_max"] or flag["edge_per_hour"], flag["edge_per_hour"])
    return players


def chart(flags: list[dict[str, Any]], width: int = 640, height: int = 240) -> dict[str, Any]:
    """What the page draws, as numbers only (the template writes them into SVG attributes, escaped):
    the bet-by-count points when the flags carry them, else each flag's r with its interval."""
    points = [pt for f in flags for pt in f["bets_by_count"]][:MAX_POINTS]
    pad = 40
    if points:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, x1 = min(xs + [-1.0]), max(xs + [1.0])
        y1 = max(ys) or 1.0  # a bet axis from 0
        return {"kind": "points", "width": width, "height": height, "x_label": "true count", "y_label": "bet",
                "x_min": x0, "x_max": x1, "y_max": round(y1),
                "dots": [(round(pad + (x - x0) / (x1 - x0) * (width - 2 * pad), 1),
                          round(height - pad - y / y1 * (height - 2 * pad), 1)) for x, y in points]}
    rows = [f for f in flags if f["statistic"] is not None]
    step = (width - 2 * pad) / max(1, len(rows))

    def y(r: float) -> float:
        return round(height - pad - (max(-1.0, min(1.0, r)) + 1) / 2 * (height - 2 * pad), 1)

    bars = []
    for i, f in enumerate(rows):
        lo, hi = f["ci"]
        x = round(pad + step * (i + 0.5), 1)
        bars.append({"x": x, "y": y(f["statistic"]), "lo": y(lo if lo is not None else f["statistic"]),
                     "hi": y(hi if hi is not None else f["statistic"]), "label": f["table"]})
    return {"kind": "intervals", "width": width, "height": height, "zero": y(0.0), "top": y(1.0), "bottom": y(-1.0),
            "left": pad, "right": width - pad, "bars": bars}
