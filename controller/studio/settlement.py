"""Settling a round's remote bets from the table's round record, and paying what is owed.

The engines decide every payout (``TableRules.payout``). A void round, or one the table closed
without the studio's seal, returns every remote bet (the house sheet's coefficient 1). The
payouts, the round's new status and the wallet calls still owed are written in one transaction;
the calls are then made, one player's in order and players at once, each marked done, so a crash between the two only delays them
(``pay_due`` at start makes them again: every wallet call is idempotent on its id).

A round's record published again (a correction) settles its remote bets again when what they are
owed changed (another number, the round made void): only the difference moves, a credit or a
debit per player, once per correction.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.interface import WalletStatus, WalletTx
from controller.studio.operators.tablefeed import TableFeed, round_facts
from controller.studio.rules import TableRules
from controller.studio.seats import added_stakes, felt_settlement
from controller.studio.wallet import Wallet

log = logging.getLogger(__name__)
#: players whose wallet calls a settlement makes at once: each call may wait for its operator's
#: answer (``hand_over_s`` at most), so one after the other a round of many players would hold
#: the table's worker, and the next round's seal, for the sum of those waits
PAY_AT_ONCE = 16


def returned(record: dict[str, Any]) -> bool:
    """The round's remote bets are returned: the round is void, or its close had no seal."""
    remote = record.get("remote")
    return record.get("status") == "void" or not (isinstance(remote, dict) and remote.get("sealed") is True)


class Settler:
    def __init__(self, pool: AsyncConnectionPool[Any], wallet: Wallet) -> None:
        self.pool = pool
        self.wallet = wallet
        #: the operators' feed: a round's result and settlement written in their own transaction
        self.feed: TableFeed | None = None

    async def settle(self, table: str, record: dict[str, Any], rules: TableRules) -> dict[str, Any] | None:
        """Settle the round of ``record`` once (None: not a round of the studio's, or settled already)."""
        round_id = str(record.get("round"))
        refund = returned(record)
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("UPDATE studio_rounds SET status = 'sealed' WHERE table_id = %s AND round = %s "
                                     "AND status IN ('open', 'sealed') RETURNING currency", (table, round_id))
            row = await cur.fetchone()
            if row is None:
                return await self._resettle(conn, table, record, rules)
            bets = await _bets(conn, table, round_id)
            payouts = _payouts(bets, record, rules)
            payments = _payments(table, round_id, row[0], bets, payouts, refund)
            added = [] if refund else added_stakes(table, round_id, row[0], rules.game, record, bets)
            settled = await _write(conn, table, record, bets, payouts, payments + added, sum(a[-1] for a in added))
            await round_facts(self.feed, conn, table, record, settled, corrected=False)
            return settled

    async def _resettle(self, conn: Any, table: str, record: dict[str, Any], rules: TableRules) -> dict[str, Any] | None:
        """A round settled before, its record published again (a correction): when what the remote
        bets are owed changed, settle them again and move only the difference per player."""
        round_id = str(record.get("round"))
        cur = await conn.execute("SELECT currency, record FROM studio_rounds WHERE table_id = %s AND round = %s "
                                 "AND status IN ('settled', 'refunded') FOR UPDATE", (table, round_id))
        row = await cur.fetchone()
        if row is None:
            return None
        currency, before = row
        if before is not None and returned(before) == returned(record) and before.get("outcome") == record.get("outcome"):
            return None  # the same result: nothing a remote bet is owed changed
        bets = await _bets(conn, table, round_id)
        payouts = _payouts(bets, record, rules)
        delta: dict[tuple[str, str], int] = defaultdict(int)
        for b, paid in zip(bets, payouts):
            delta[(b[2], b[3])] += paid - int(b[6] or 0)
        version = len(record.get("corrections") or []) or 1
        payments = [(f"adjust:{table}:{round_id}:{operator}:{player}:{version}", "credit" if owed > 0 else "debit",
                     round_id, table, round_id, operator, player, currency, abs(owed))
                    for (operator, player), owed in sorted(delta.items()) if owed]
        settled = await _write(conn, table, record, bets, payouts, payments)
        await round_facts(self.feed, conn, table, record, settled, corrected=True)
        return settled

    async def pay_due(self) -> int:
        """Make every wallet call settlement still owes; returns how many were made."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT tx, kind, ref, operator, player, currency, amount FROM studio_payments "
                                     "WHERE NOT done ORDER BY tx")
            due = await cur.fetchall()
        players: dict[tuple[str, str], list[Any]] = defaultdict(list)
        for row in due:
            players[(row[3], row[4])].append(row)
        gate = asyncio.Semaphore(PAY_AT_ONCE)
        outcomes = await asyncio.gather(*(self._pay(gate, rows) for rows in players.values()), return_exceptions=True)
        for outcome in outcomes:  # every player's calls had their turn; then the first failure, as it was raised
            if isinstance(outcome, BaseException):
                raise outcome
        return len(due)

    async def _pay(self, gate: asyncio.Semaphore, rows: list[Any]) -> None:
        """One player's calls, in their order (players at once, ``PAY_AT_ONCE`` at most)."""
        async with gate:
            for row in rows:
                await self._call(*row)

    async def _call(self, tx: str, kind: str, ref: str, operator: str, player: str, currency: str, amount: int) -> None:
        calls = {"credit": self.wallet.credit, "cancel": self.wallet.cancel, "debit": self.wallet.debit}
        result = await calls[kind](WalletTx(tx, ref, operator, player, currency, int(amount)))
        if result.status is not WalletStatus.OK:  # kept due: tried again at the next settlement and start
            log.error("studio: wallet %s %s of %s for %s/%s: %s", kind, tx, amount, operator, player,
                      result.status.value)
            return
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE studio_payments SET done = true, balance = %s WHERE tx = %s",
                               (result.balance, tx))


async def _bets(conn: Any, table: str, round_id: str) -> list[Any]:
    """(id, request, operator, player, kind, amount, payout) of every remote bet of the round."""
    cur = await conn.execute("SELECT id, request, operator, player, kind, amount, payout FROM studio_bets "
                             "WHERE table_id = %s AND round = %s ORDER BY id", (table, round_id))
    return list(await cur.fetchall())


def _payouts(bets: list[Any], record: dict[str, Any], rules: TableRules) -> list[int]:
    """What each bet returns on the record: its stake when the round's bets are returned, else the engine's."""
    outcome = record.get("outcome") or {}
    if returned(record):
        return [int(b[5]) for b in bets]
    return [felt[0] if (felt := felt_settlement(rules.game, record, b)) is not None
            else rules.payout(b[4], int(b[5]), outcome) for b in bets]


async def _write(conn: Any, table: str, record: dict[str, Any], bets: list[Any], payouts: list[int],
                 payments: list[tuple[Any, ...]], added: int = 0) -> dict[str, Any]:
    """The bets' payouts, the wallet calls owed and the round's totals, in the caller's transaction
    (``added``: the stake the table added to felt bets, debited with the round, is stake too)."""
    round_id = str(record.get("round"))
    refund = returned(record)
    async with conn.cursor() as many:
        await many.executemany("UPDATE studio_bets SET status = %s, payout = %s WHERE id = %s",
                               [("refunded" if refund else "settled", p, b[0]) for b, p in zip(bets, payouts)])
        await many.executemany(
            "INSERT INTO studio_payments (tx, kind, ref, table_id, round, operator, player, currency, amount) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING", payments)
    stake = sum(int(b[5]) for b in bets) + added
    settled = {"round": round_id, "count": len(bets), "stake": stake,
               "paid": 0 if refund else sum(payouts), "refunded": stake if refund else 0}
    await conn.execute("UPDATE studio_rounds SET status = %s, record = %s, settled = %s WHERE table_id = %s AND round = %s",
                       ("refunded" if refund else "settled", Jsonb(record), Jsonb(settled), table, round_id))
    return settled


def _payments(table: str, round_id: str, currency: str, bets: list[Any], payouts: list[int],
              refund: bool) -> list[tuple[Any, ...]]:
    """One credit per player (a zero credit too: it closes the round at the wallet), or one cancel
    per request when the round's bets are returned."""
    rows: list[tuple[Any, ...]] = []
    if refund:
        requests: dict[str, tuple[str, str, int]] = {}
        for b in bets:
            operator, player, total = requests.get(b[1], (b[2], b[3], 0))
            requests[b[1]] = (operator, player, total + int(b[5]))
        for request, (operator, player, total) in sorted(requests.items()):
            rows.append((f"cancel:{request}", "cancel", request, table, round_id, operator, player, currency, total))
        return rows
    owed: dict[tuple[str, str], int] = defaultdict(int)
    for b, paid in zip(bets, payouts):
        owed[(b[2], b[3])] += paid
    for (operator, player), total in sorted(owed.items()):
        rows.append((f"credit:{table}:{round_id}:{operator}:{player}", "credit", round_id, table, round_id, operator,
                     player, currency, total))
    return rows
