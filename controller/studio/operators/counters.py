"""The operators' side in figures, for a test, the demo or a soak's report: what the studio's wallet
log and feed cursor say beside what the reference operator's books and feed consumer hold. One
function of the two sides' stores, so any run (``croupier studio simulate`` with operator faults,
the integration tests) prints the same figures.

``mismatches`` counts movements the two books disagree on: an answer the studio kept that is not
the operator's, or money the operator moved that the studio does not know of.
"""

from __future__ import annotations

from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.sim.consumer import FeedTally
from controller.studio.operators.sim.store import SimStore


async def counters(pool: AsyncConnectionPool[Any], store: SimStore, feed: FeedTally | None = None) -> dict[str, int]:
    """debits, credits, cancels, adjustments, retries, mismatches, pending, flagged; published,
    delivered, gaps, duplicates_after_dedup (delivered and the last two need the operator's feed)."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT tx, kind, state, result, balance, attempts FROM op_wallet_tx")
        logged = await cur.fetchall()
        cur = await conn.execute("SELECT coalesce(sum(seq), 0) FROM op_feed_cursor")
        row = await cur.fetchone()
    published = int(row[0]) if row else 0
    theirs = store.transactions()
    kinds = {"debit": 0, "credit": 0, "cancel": 0, "adjust": 0}
    out = {"retries": 0, "mismatches": 0, "pending": 0, "flagged": 0}
    ours = set()
    for tx, kind, state, result, balance, attempts in logged:
        ours.add(str(tx))
        kinds[str(kind)] += 1
        out["retries"] += max(0, int(attempts) - 1)
        out["pending"] += state == "pending"
        out["flagged"] += state == "flagged"
        if state == "answered":
            answer = theirs.get(str(tx), (None, 0, {}))[2]
            out["mismatches"] += (answer.get("status"), answer.get("balance")) != (result, balance)
    out["mismatches"] += sum(1 for tx, (_, moved, _) in theirs.items() if moved and tx not in ours)
    figures = {**{f"{k}s" if k != "adjust" else "adjustments": n for k, n in kinds.items()}, **out,
               "published": published}
    if feed is not None:
        taken = [seq for seqs in feed.taken.values() for seq in seqs]
        figures.update(delivered=len(taken), gaps=len(feed.gaps), duplicates_after_dedup=len(taken) - len(set(
            (t, s) for t, seqs in feed.taken.items() for s in seqs)))
    return figures
