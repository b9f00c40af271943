"""Report time over a big floor (docs/backoffice.md, "Scaling"): ``--tables`` tables and
``--rounds`` rounds (3 bets each) in one gaming day, plus ``--baseline-per-day`` rounds a day on
each of the 30 gaming days before it, generated inside a real PostgreSQL; then the day's report
(``Reporter.report``: tables, pits, floor, dealers, the 7- and 30-day baselines) and the day's
report without the baseline part, both timed from the tallies (migration 0003) and, as the same
run's baseline, recomputed from the stored rounds (``--recompute``, the unrolled queries); also
a bare ``SELECT count(*), sum(stake_total)`` over the day's rows, and whether both reports agree.

Run: ``.venv/bin/python bench/backoffice_report.py [--tables 1000] [--rounds 1000000]
[--baseline-per-day 100000]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from datetime import time as clock
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from controller.backoffice import tallies
from controller.backoffice.cluster import Cluster
from controller.backoffice.migrate import migrate
from controller.backoffice.report import Reporter, ReportSpec
from controller.floor.gaming_day import gaming_day

DAY = date(2026, 12, 1)
ZONE = ZoneInfo("Europe/Riga")
STARTS = clock(6)

GENERATE = """
INSERT INTO rounds (table_id, round_id, version, seq, game, preset, status, opened, closed, dealer, shoe, shoe_round,
                    stake_total, payout_total, outcome, corrections, record, boxes, players)
SELECT 't' || lpad((i %% %(tables)s)::text, 4, '0'), %(prefix)s || i, 0, i, 'blackjack', 'ru6',
       CASE WHEN i %% 200 = 0 THEN 'void' ELSE 'settled' END,
       %(start)s::timestamptz + (i * 86000.0 / %(n)s) * interval '1 second',
       %(start)s::timestamptz + (i * 86000.0 / %(n)s + 40) * interval '1 second',
       'd' || (((i %% %(tables)s) * 7 + i * 24 / %(n)s) %% 300), 'S-1',
       1 + i %% 60, 3000, (i::bigint * 7919) %% 6000, '{}', '[]', '{}', 3, 3
FROM generate_series(1, %(n)s) AS i"""
BETS = """
INSERT INTO bets (table_id, round_id, version, n, box, hand, kind, player, stake, payout)
SELECT 't' || lpad((i %% %(tables)s)::text, 4, '0'), %(prefix)s || i, 0, b, b + 1, 1,
       CASE WHEN b = 2 THEN 'perfect_pairs' ELSE 'main' END, 'p' || ((i * 31 + b) %% 50000), 1000,
       CASE WHEN b = 0 THEN (i::bigint * 7919) %% 6000 ELSE 0 END
FROM generate_series(1, %(n)s) AS i CROSS JOIN generate_series(0, 2) AS b"""


def generate(conn: psycopg.Connection, tables: int, n: int, day: date, prefix: str) -> None:
    start = gaming_day(day, STARTS, ZONE).start
    conn.execute(GENERATE, {"tables": tables, "prefix": prefix, "start": start, "n": n})
    conn.execute(BETS, {"tables": tables, "prefix": prefix, "n": n})
    conn.commit()


def timed(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--baseline-per-day", type=int, default=100_000)
    parser.add_argument("--repeat-rounds", type=int, default=2, help="runs of the slow baseline (best is kept)")
    parser.add_argument("--json", action="store_true", help="(the figures are printed as JSON anyway)")
    args = parser.parse_args()
    with Cluster() as pg:
        with psycopg.connect(pg.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
            conn.execute("ALTER SYSTEM SET work_mem = '64MB'")
            conn.execute("SELECT pg_reload_conf()")
        url = pg.url("bench")
        migrate(url)
        with psycopg.connect(url) as conn:
            conn.execute("INSERT INTO floor_tables (table_id, game, preset, updated) SELECT 't' || lpad(i::text, 4, '0'), "
                         "'blackjack', 'ru6', now() FROM generate_series(0, %s) i", (args.tables - 1,))
            t0 = time.perf_counter()
            for generated in ("rounds", "bets"):  # every generated round is a version 0: tallies rebuilt below
                conn.execute(f"ALTER TABLE {generated} DISABLE TRIGGER USER")
            generate(conn, args.tables, args.rounds, DAY, "d0-")
            for back in range(1, 31):
                generate(conn, args.tables, args.baseline_per_day, date.fromordinal(DAY.toordinal() - back), f"d{back}-")
            for generated in ("rounds", "bets"):
                conn.execute(f"ALTER TABLE {generated} ENABLE TRIGGER USER")
            conn.commit()
            load_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            tally_rows = tallies.rebuild(conn)  # the generated rows went in with the triggers off
            rebuild_s = time.perf_counter() - t0
            conn.execute("ANALYZE")
            conn.commit()
            total = conn.execute("SELECT count(*), (SELECT count(*) FROM bets) FROM rounds").fetchone()
            window = gaming_day(DAY, STARTS, ZONE)
            pits = {"north": [f"t{i:04d}" for i in range(0, args.tables, 2)]}
            reporter = Reporter(conn)
            reporter.report(ReportSpec(DAY, STARTS, ZONE, pits=pits))  # the edges once per process: not timed
            bare = timed(lambda: conn.execute("SELECT count(*), sum(stake_total) FROM rounds WHERE closed >= %s AND "
                                              "closed < %s", (window.start, window.end)).fetchone())
            figures = {}
            for name, recompute in (("tallies", False), ("rounds", True)):
                spec = ReportSpec(DAY, STARTS, ZONE, pits=pits, recompute=recompute)
                repeat = 3 if not recompute else args.repeat_rounds
                full = timed(lambda: reporter.report(spec), repeat)  # noqa: B023 (run here, in the loop)
                saved = Reporter._baselines
                Reporter._baselines = lambda self, spec, tables: None  # type: ignore[method-assign]
                day_only = timed(lambda: reporter.report(spec), repeat)  # noqa: B023
                Reporter._baselines = saved  # type: ignore[method-assign]
                figures[name] = {"report_day_without_baselines_s": round(day_only, 3),
                                 "baselines_7_30_days_s": round(full - day_only, 3), "report_full_s": round(full, 3)}
            same = reporter.report(ReportSpec(DAY, STARTS, ZONE, pits=pits))
            again = reporter.report(ReportSpec(DAY, STARTS, ZONE, pits=pits, recompute=True))
            same.pop("source"), again.pop("source")
        print(json.dumps({
            "tables": args.tables, "day_rounds": args.rounds, "baseline_rounds_per_day": args.baseline_per_day,
            "rows": {"rounds": total[0], "bets": total[1], "tallies": tally_rows}, "load_s": round(load_s, 1),
            "tally_rebuild_s": round(rebuild_s, 1), "bare_count_sum_day_s": round(bare, 3),
            "from_tallies": figures["tallies"], "baseline_from_rounds": figures["rounds"],
            "tallies_equal_rounds": same == again,
            "indexes": "round_tally and stake_tally (bucket, table_id, ...); rounds (closed) WHERE NOT superseded, "
                       "(table_id, closed), (dealer, closed); bets primary key, (player)",
        }, indent=1))


if __name__ == "__main__":
    main()
