"""The remote players' lines of a report (docs/studio.md, docs/backoffice.md): per table, the
rounds the studio settled remote bets on, their drop (stakes - refunds) and win (stakes - what
the studio paid), each round counted once with its latest totals and in the gaming day its
record closed in; summed for the floor beside the felt's figures."""

from __future__ import annotations

from typing import Any

import psycopg

SQL = """
SELECT m.table_id, count(*), coalesce(sum(m.bets), 0), coalesce(sum(m.stake - m.refunded), 0),
       coalesce(sum(m.stake - m.paid), 0)
FROM remote_rounds m
JOIN rounds r ON r.table_id = m.table_id AND r.round_id = m.round_id AND NOT r.superseded
WHERE r.closed >= %(start)s AND r.closed < %(end)s AND (%(tables)s::text[] IS NULL OR m.table_id = ANY(%(tables)s))
GROUP BY m.table_id ORDER BY m.table_id"""


def section(conn: psycopg.Connection[Any], params: dict[str, Any]) -> dict[str, Any]:
    """``{"tables": {table: {rounds, bets, drop, win}}, "floor": {...}}`` for the report's window;
    empty tables when no table took remote bets."""
    values = {k: params[k] for k in ("start", "end", "tables")}
    tables = {table: {"rounds": int(rounds), "bets": int(bets), "drop": int(drop), "win": int(win)}
              for table, rounds, bets, drop, win in conn.execute(SQL, values).fetchall()}
    floor = {key: sum(t[key] for t in tables.values()) for key in ("rounds", "bets", "drop", "win")}
    return {"tables": tables, "floor": floor}
