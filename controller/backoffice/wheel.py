"""The wheel's chi-square bias flag over the back office's 7- and 30-day windows, per roulette
table (docs/backoffice.md): the winning pockets of the settled rounds in their latest version,
over the gaming days ending with the report's, tested against a fair wheel
(the floor's one chi-square test, ``controller.floor.wheel_bias``). A flag needs every pocket to expect at least
``MIN_EXPECTED`` balls and ``p < BIAS_ALPHA``, the pit dashboard's own level, so a few days of a
quiet table never flag.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

import psycopg

from controller.floor.gaming_day import gaming_day
from controller.floor.wheel_bias import BIAS_ALPHA, MIN_EXPECTED, POCKETS, uniformity
from controller.table import registry

WINDOWS = (7, 30)

POCKET_COUNTS = """
SELECT table_id, outcome->>'wheel', pocket, count(*)
FROM rounds, jsonb_array_elements_text(CASE WHEN jsonb_typeof(outcome->'numbers') = 'array'
                                            THEN outcome->'numbers' ELSE '[]' END) AS pocket
WHERE NOT superseded AND status = 'settled' AND game = ANY(%(games)s) AND table_id = ANY(%(tables)s)
  AND closed >= %(start)s AND closed < %(end)s
GROUP BY 1, 2, 3"""


def wheel_games() -> list[str]:
    """The games dealt on a wheel (their adapter's own device), as the registry declares them."""
    return [game.name for game in registry.GAMES.values() if game.adapter.device == "wheel"]


def bias_flags(conn: psycopg.Connection[Any], spec: Any, wheel_tables: list[str]) -> dict[str, dict[str, Any]]:
    """By table: ``{"7": {...}, "30": {...}}``, each with the balls counted, the statistic, its
    p-value and ``flag``."""
    if not wheel_tables:
        return {}
    end = gaming_day(spec.day, spec.starts, spec.zone).end
    out: dict[str, dict[str, Any]] = defaultdict(dict)
    for days in WINDOWS:
        start = gaming_day(spec.day - timedelta(days=days - 1), spec.starts, spec.zone).start
        counts: dict[str, dict[str, int]] = defaultdict(dict)
        wheels: dict[str, str] = {}
        for table_id, wheel, pocket, n in conn.execute(POCKET_COUNTS, {"tables": wheel_tables, "games": wheel_games(),
                                                                       "start": start, "end": end}):
            if wheel in POCKETS and pocket in POCKETS[wheel]:
                wheels.setdefault(table_id, wheel)
                if wheels[table_id] == wheel:
                    counts[table_id][pocket] = counts[table_id].get(pocket, 0) + int(n)
        for table_id in wheel_tables:
            pockets = POCKETS[wheels.get(table_id, "european")]
            test = uniformity([counts[table_id].get(p, 0) for p in pockets])
            enough = test.n / len(pockets) >= MIN_EXPECTED
            out[table_id][str(days)] = {"days": days, "wheel": wheels.get(table_id), "balls": test.n,
                                        "chi_square": round(test.statistic, 3), "p_value": test.p_value,
                                        "enough": enough, "flag": enough and test.p_value < BIAS_ALPHA}
    return dict(out)
