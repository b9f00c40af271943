"""Settling a round's remote bets from the table's round record, and paying what is owed.

The engines decide every payout (``TableRules.payout``). A void round, or one the table closed
without the studio's seal, returns every remote bet (the house sheet's coefficient 1). The
payouts, the round's new status and the wallet calls still owed are written in one transaction;
the calls are then made, one player's in order and players at once, each marked done, so a crash between the two only delays them
(``pay_due`` at start makes them again: every wallet call is idempotent on its id).

A round's record published again (a correction) settles its remote bets again when what they are
owed changed (another number, the round made void): only the difference moves, a credit or a
debit per player, once per correction.

Several studio processes may hear the same record: the round's row lock lets exactly one settle
it (the others find it settled); the wallet calls owed are claimed ``FOR UPDATE SKIP LOCKED``,
so each is made by one process at a time, and a process that finds a round's calls claimed
waits for them (or makes them, when the process that claimed them died: its lock went with it).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.interface import WalletResult, WalletStatus, WalletTx
from controller.studio.operators.tablefeed import TableFeed, round_facts
from controller.studio.rules import TableRules
from controller.studio.seats import added_stakes, felt_settlement
from controller.studio.wallet import CreditsInBatch, Wallet

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

    async def pay_due(self, table: str | None = None, round_id: str | None = None) -> int:
        """Make every wallet call settlement still owes (of one round, when given) that no other
        process is making now; returns how many were made."""
        where, args = ("AND table_id = %s AND round = %s", (table, round_id)) if table is not None else ("", ())
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("SELECT tx, kind, ref, operator, player, currency, amount FROM studio_payments "
                                     f"WHERE NOT done {where} ORDER BY tx FOR UPDATE SKIP LOCKED", args)
            due = await cur.fetchall()
            txs = [WalletTx(tx, ref, operator, player, currency, int(amount))
                   for tx, _, ref, operator, player, currency, amount in due]
            kinds = [row[1] for row in due]
            if isinstance(self.wallet, CreditsInBatch) and set(kinds) == {"credit"} \
                    and len({(t.operator, t.player, t.currency) for t in txs}) == len(txs):
                results = await self.wallet.credit_many(txs)  # a round's credits: one per player
            else:
                results = await self._by_player(kinds, txs)
            done = []
            for (tx, kind, _, operator, player, _, amount), result in zip(due, results):
                if result.status is not WalletStatus.OK:  # kept due: tried again at the next settlement and start
                    log.error("studio: wallet %s %s of %s for %s/%s: %s", kind, tx, amount, operator, player,
                              result.status.value)
                    continue
                done.append((result.balance, tx))
            # coalesce: an answer that came after the hand-over but before this line kept its balance
            await conn.execute("UPDATE studio_payments SET done = true, "
                               "balance = coalesce(d.balance, studio_payments.balance) "
                               "FROM unnest(%s::bigint[], %s::text[]) AS d (balance, tx) WHERE studio_payments.tx = d.tx",
                               ([b for b, _ in done], [t for _, t in done]))
        return len(due)

    async def _by_player(self, kinds: list[str], txs: list[WalletTx]) -> list[WalletResult]:
        """The calls' answers, in their order: players at once (``PAY_AT_ONCE`` at most), each
        player's calls one after the other; then the first failure, as it was raised."""
        calls = {"credit": self.wallet.credit, "cancel": self.wallet.cancel, "debit": self.wallet.debit}
        answers: dict[int, WalletResult] = {}
        players: dict[tuple[str, str], list[int]] = defaultdict(list)
        for n, tx in enumerate(txs):
            players[(tx.operator, tx.player)].append(n)
        gate = asyncio.Semaphore(PAY_AT_ONCE)

        async def pay(calls_of_one: list[int]) -> None:
            async with gate:
                for n in calls_of_one:
                    answers[n] = await calls[kinds[n]](txs[n])

        for outcome in await asyncio.gather(*(pay(n) for n in players.values()), return_exceptions=True):
            if isinstance(outcome, BaseException):
                raise outcome
        return [answers[n] for n in range(len(txs))]

    async def paid(self, table: str, round_id: str) -> bool:
        """Once a round settled (by this process or another) has every wallet call made: waits for
        the calls another process is making, makes those it left; False: the round is not settled.
        A call the wallet refused stays due (logged, made again at the next settlement and start):
        it is not asked again here in a loop."""
        while True:
            made = await self.pay_due(table, round_id)
            async with self.pool.connection() as conn:
                cur = await conn.execute("SELECT status FROM studio_rounds WHERE table_id = %s AND round = %s",
                                         (table, round_id))
                row = await cur.fetchone()
                if row is None or row[0] not in ("settled", "refunded"):
                    return False
                # waits while another process holds them: done when it commits, free when it died
                cur = await conn.execute("SELECT count(*) FROM (SELECT 1 FROM studio_payments WHERE table_id = %s "
                                         "AND round = %s AND NOT done FOR UPDATE) AS due", (table, round_id))
                left = await cur.fetchone()
            if left is None or left[0] == 0 or made:
                return True


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
    await conn.execute("UPDATE studio_bets SET status = %s, payout = p.payout FROM unnest(%s::text[], %s::bigint[]) "
                       "AS p (id, payout) WHERE studio_bets.id = p.id",
                       ("refunded" if refund else "settled", [b[0] for b in bets], payouts))
    if payments:  # one statement for the round's calls (not one per player)
        await conn.execute(
            "INSERT INTO studio_payments (tx, kind, ref, table_id, round, operator, player, currency, amount) "
            "SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], "
            "%s::text[], %s::bigint[]) ON CONFLICT DO NOTHING", [list(c) for c in zip(*payments, strict=True)])
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
