"""Dealer performance by shift (docs/backoffice.md, "Dealers by shift"): besides rounds, voids
and corrections from the rounds, the alerts given to a dealer (holds raised, procedure errors,
result mismatches) and the dealer's pace against the target of the tables dealt.

Procedure errors are the table's own alert codes:

- **cards out of turn**: a card the round could not take when it came out of the shoe: the
  game's ``<game>.card...`` rules (``blackjack.card.decision_pending``, ``baccarat.card``,
  ``russian.card.unexpected``, ...), ``table.card.no_round`` and ``table.card_during_hold``;
- **wrong cards keyed**: a key-in the table refused (``table.key_card.not_a_card``,
  ``table.key_card.unexpected``) or a card that cannot be in the shoe (``shoe.impossible_card``);
- **result mismatches**: ``protection.result_mismatch``, two sources of one result disagreeing.

An alert goes to the dealer its details name (a mismatch names one), else to the dealer of its
round, else to the dealer signed in at that table at the time.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

import psycopg

OUT_OF_TURN: Final = r"^[a-z_]+\.card([._][a-z_.]*)?$"
WRONG_KEYED: Final = ("table.key_card.not_a_card", "table.key_card.unexpected", "shoe.impossible_card")
MISMATCH: Final = "protection.result_mismatch"

DEALER_ALERTS = """
SELECT coalesce(nullif(a.body->>'dealer', ''), r.dealer, d.dealer, ''),
       count(*) FILTER (WHERE a.hold), count(*) FILTER (WHERE a.code ~ %(out_of_turn)s),
       count(*) FILTER (WHERE a.code = ANY(%(wrong)s)), count(*) FILTER (WHERE a.code = %(mismatch)s)
FROM alerts a
LEFT JOIN LATERAL (SELECT dealer FROM rounds r WHERE r.table_id = a.table_id AND r.round_id = a.round_id
                   ORDER BY version LIMIT 1) r ON true
LEFT JOIN LATERAL (SELECT dealer FROM dealer_events d WHERE d.table_id = a.table_id AND d.ts <= a.ts
                   ORDER BY d.ts DESC, d.seq DESC LIMIT 1) d ON true
WHERE (a.hold OR a.code ~ %(out_of_turn)s OR a.code = ANY(%(wrong)s) OR a.code = %(mismatch)s)
  AND a.ts >= %(start)s AND a.ts < %(end)s AND (%(tables)s::text[] IS NULL OR a.table_id = ANY(%(tables)s))
GROUP BY 1"""

ZERO: Final = {"holds": 0, "cards_out_of_turn": 0, "wrong_cards_keyed": 0, "result_mismatches": 0}


def alerts_by_dealer(conn: psycopg.Connection[Any], params: dict[str, Any]) -> dict[str, dict[str, int]]:
    """By dealer ('' for none): holds raised, cards out of turn, wrong cards keyed, mismatches."""
    values = {"start": params["start"], "end": params["end"], "tables": params["tables"], "out_of_turn": OUT_OF_TURN,
              "wrong": list(WRONG_KEYED), "mismatch": MISMATCH}
    return {dealer: {"holds": int(h), "cards_out_of_turn": int(o), "wrong_cards_keyed": int(w),
                     "result_mismatches": int(m)}
            for dealer, h, o, w, m in conn.execute(DEALER_ALERTS, values)}


def pace_targets(conn: psycopg.Connection[Any], rounds_by_table: list[tuple[str, str, int]]) -> dict[str, int | None]:
    """By dealer: the pace target of the tables dealt (rounds an hour, weighted by the rounds
    dealt at each), None when no table dealt has said its target."""
    tables = sorted({t for _, t, _ in rounds_by_table})
    targets = dict(conn.execute("SELECT table_id, pace_target FROM floor_tables WHERE table_id = ANY(%s) "
                                "AND pace_target IS NOT NULL", (tables,)).fetchall())
    weighted: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for dealer, table_id, rounds in rounds_by_table:
        if table_id in targets:
            weighted[dealer][0] += rounds * targets[table_id]
            weighted[dealer][1] += rounds
    return {dealer: round(total / n) for dealer, (total, n) in weighted.items() if n}


def performance(row: dict[str, Any], alerts: dict[str, int], target: int | None) -> dict[str, Any]:
    """A dealer's row with its alerts and pace."""
    rate = row["rounds_per_hour"]
    row.update(alerts)
    row["procedure_errors"] = alerts["cards_out_of_turn"] + alerts["wrong_cards_keyed"] + alerts["result_mismatches"]
    row["pace_target"] = target
    row["pace_pct"] = round(100.0 * rate / target, 1) if rate is not None and target else None
    return row
