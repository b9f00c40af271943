"""Where a report reads its figures: the tallies kept at insert (migration 0003: per table,
15-minute bucket, dealer and game; stakes per bet kind), or the stored rounds themselves.

Both give the same columns, so the report's arithmetic is one. The tallies answer a period
only when it starts and ends on their 15-minute grid (every gaming day and shift that starts
on a quarter hour, in any time zone of whole quarter hours); any other period, and
``recompute=True``, reads the rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

BUCKET_SECONDS = 900

#: what a round returned (controller/round_money.py), as the schema's ``round_returned``
RETURNED = "round_returned(status, outcome, stake_total)"

#: the period's rounds, each in its latest version (``superseded`` is kept by the schema's triggers)
WHERE_LATEST = """NOT superseded AND closed >= %(start)s AND closed < %(end)s
  AND (%(tables)s::text[] IS NULL OR table_id = ANY(%(tables)s))"""
WHERE_TALLY = """bucket >= %(start)s AND bucket < %(end)s
  AND (%(tables)s::text[] IS NULL OR table_id = ANY(%(tables)s))"""


@dataclass(frozen=True)
class Source:
    """The queries a report runs, from one source."""

    name: str
    tables: str  # table_id, game, rounds, void, drop, paid, first opened, last closed, corrected, occupancy, players max
    stakes: str  # table_id, game, preset, kind, stake (settled rounds)
    dealers: str  # dealer, rounds, void, corrected, first opened, last closed, tables
    daily: str  # table_id, gaming day, drop, paid
    dealer_tables: str  # dealer, table_id, rounds


ROUNDS = Source(
    "rounds",
    tables=f"""
SELECT table_id, min(game), count(*), count(*) FILTER (WHERE status = 'void'),
       coalesce(sum(stake_total - {RETURNED}), 0)::bigint, coalesce(sum(greatest(0, payout_total - {RETURNED})), 0)::bigint,
       min(opened), max(closed), count(*) FILTER (WHERE version > 0), (sum(boxes)::numeric / count(*))::float8, max(players)
FROM rounds WHERE {WHERE_LATEST} GROUP BY table_id ORDER BY table_id""",
    stakes=f"""
SELECT l.table_id, l.game, coalesce(nullif(l.preset, ''), t.preset), split_part(b.kind, ':', 1), sum(b.stake)::bigint
FROM (SELECT table_id, round_id, version, game, preset FROM rounds WHERE {WHERE_LATEST} AND status = 'settled') l
JOIN bets b USING (table_id, round_id, version) LEFT JOIN floor_tables t USING (table_id)
GROUP BY 1, 2, 3, 4""",
    dealers=f"""
SELECT coalesce(dealer, ''), count(*), count(*) FILTER (WHERE status = 'void'), count(*) FILTER (WHERE version > 0),
       min(opened), max(closed), count(DISTINCT table_id)
FROM rounds WHERE {WHERE_LATEST} GROUP BY 1 ORDER BY 1""",
    daily=f"""
SELECT table_id, ((closed AT TIME ZONE %(zone)s) - %(starts)s::interval)::date AS day,
       coalesce(sum(stake_total - {RETURNED}), 0)::bigint, coalesce(sum(greatest(0, payout_total - {RETURNED})), 0)::bigint
FROM rounds WHERE {WHERE_LATEST} GROUP BY 1, 2""",
    dealer_tables=f"SELECT coalesce(dealer, ''), table_id, count(*) FROM rounds WHERE {WHERE_LATEST} GROUP BY 1, 2",
)

TALLIES = Source(
    "tallies",
    tables=f"""
SELECT table_id, min(game), sum(rounds)::bigint, sum(voids)::bigint, sum(drop_total)::bigint, sum(paid_total)::bigint,
       min(first_opened), max(last_closed), sum(corrected)::bigint, (sum(boxes_total)::numeric / sum(rounds))::float8,
       max(players_max)
FROM round_tally WHERE {WHERE_TALLY} GROUP BY table_id ORDER BY table_id""",
    stakes="""
SELECT s.table_id, s.game, coalesce(nullif(s.preset, ''), t.preset), s.kind, sum(s.stake)::bigint
FROM stake_tally s LEFT JOIN floor_tables t USING (table_id)
WHERE s.bucket >= %(start)s AND s.bucket < %(end)s AND (%(tables)s::text[] IS NULL OR s.table_id = ANY(%(tables)s))
GROUP BY 1, 2, 3, 4""",
    dealers=f"""
SELECT dealer, sum(rounds)::bigint, sum(voids)::bigint, sum(corrected)::bigint, min(first_opened), max(last_closed),
       count(DISTINCT table_id)
FROM round_tally WHERE {WHERE_TALLY} GROUP BY 1 ORDER BY 1""",
    daily=f"""
SELECT table_id, ((bucket AT TIME ZONE %(zone)s) - %(starts)s::interval)::date AS day,
       sum(drop_total)::bigint, sum(paid_total)::bigint
FROM round_tally WHERE {WHERE_TALLY} GROUP BY 1, 2""",
    dealer_tables=f"SELECT dealer, table_id, sum(rounds)::bigint FROM round_tally WHERE {WHERE_TALLY} GROUP BY 1, 2",
)


def on_grid(*instants: datetime) -> bool:
    """Whether every instant is a bucket boundary, so the tallies hold exactly its period."""
    return all(int(i.timestamp()) % BUCKET_SECONDS == 0 and i.microsecond == 0 for i in instants)


def source(recompute: bool, *instants: datetime) -> Source:
    return ROUNDS if recompute or not on_grid(*instants) else TALLIES


def rebuild(conn: psycopg.Connection[Any]) -> int:
    """Both tallies recomputed from the stored rounds, in one transaction; returns their rows."""
    with conn.transaction():
        row = conn.execute("SELECT tally_rebuild()").fetchone()
    return int(row[0]) if row else 0


TALLY_DUMP = """
SELECT 'round', table_id, bucket, dealer || '|' || game, rounds, voids, corrected, drop_total, paid_total, boxes_total,
       players_max, first_opened, last_closed FROM round_tally
UNION ALL
SELECT 'stake', table_id, bucket, game || '|' || preset || '|' || kind, stake, 0, 0, 0, 0, 0, 0, NULL, NULL FROM stake_tally
ORDER BY 1, 2, 3, 4"""


def dump(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    """Every tally row in a fixed order: to compare the kept tallies with a rebuild."""
    return list(conn.execute(TALLY_DUMP).fetchall())
