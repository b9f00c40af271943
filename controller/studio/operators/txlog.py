"""The wallet's log in PostgreSQL: a row per transaction (ours), a row per request sent and per
answer or failure received, each committed before it is acted on, so a restart knows every call
that may have reached an operator and every answer that came back.

An answer that differs from an earlier answer to the same transaction is a contradiction: both are
kept and the transaction is flagged for manual reconciliation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.interface import Kind, WalletResult, WalletStatus, WalletTx

MAX_LOGGED_BODY = 4096
TX_COLUMNS = "tx, ref, operator, player, currency, amount, round, kind, state, result, balance, attempts, created"


@dataclass(frozen=True)
class Logged:
    """A transaction as the log holds it."""

    tx: WalletTx
    kind: Kind
    state: str
    result: WalletResult | None
    attempts: int
    created: datetime


def _logged(row: tuple[Any, ...]) -> Logged:
    tx = WalletTx(*row[:7])
    result = None if row[9] is None else WalletResult(WalletStatus(row[9]), row[10])
    return Logged(tx, Kind(row[7]), row[8], result, int(row[11]), row[12])


class TxLog:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self.pool = pool

    async def open(self, tx: WalletTx, kind: Kind, now: datetime, first_due: datetime) -> Logged:
        """The transaction's row, written now if it is new (the same id again returns the first)."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO op_wallet_tx (tx, kind, ref, operator, player, round, currency, amount, created, "
                "next_attempt) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (tx) DO NOTHING",
                (tx.tx, kind.value, tx.ref, tx.operator, tx.player, tx.round, tx.currency, tx.amount, now, first_due))
            found = await self.get(tx.tx, conn)
        assert found is not None
        return found

    async def get(self, tx: str, conn: Any = None) -> Logged | None:
        if conn is None:
            async with self.pool.connection() as own:
                return await self.get(tx, own)
        cur = await conn.execute(f"SELECT {TX_COLUMNS} FROM op_wallet_tx WHERE tx = %s", (tx,))
        row = await cur.fetchone()
        return None if row is None else _logged(row)

    async def request(self, tx: str, body: bytes) -> int:
        """Count and keep one request before it is sent; returns its attempt number."""
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("UPDATE op_wallet_tx SET attempts = attempts + 1 WHERE tx = %s RETURNING attempts",
                                     (tx,))
            row = await cur.fetchone()
            assert row is not None
            await conn.execute("INSERT INTO op_wallet_exchange (tx, attempt, direction, body) VALUES (%s, %s, 'request', %s)",
                               (tx, row[0], body[:MAX_LOGGED_BODY].decode(errors="replace")))
        return int(row[0])

    async def failure(self, tx: str, attempt: int, note: str, http_status: int | None = None, body: bytes = b"") -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO op_wallet_exchange (tx, attempt, direction, http_status, body, note) "
                "VALUES (%s, %s, 'failure', %s, %s, %s)",
                (tx, attempt, http_status, body[:MAX_LOGGED_BODY].decode(errors="replace"), note[:500]))

    async def answer(self, tx: str, attempt: int, body: bytes, result: WalletResult, wire_status: str) -> str | None:
        """Keep an answer read into the contract; returns what it contradicts (None: agrees with
        every earlier answer to this transaction). A temporary error (``retry``) contradicts nothing."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT 1 FROM op_wallet_tx WHERE tx = %s FOR UPDATE", (tx,))
            cur = await conn.execute(
                "SELECT status, balance, attempt FROM op_wallet_exchange WHERE tx = %s AND direction = 'answer' "
                "AND status <> 'retry' ORDER BY id", (tx,))
            earlier = await cur.fetchall()
            await conn.execute(
                "INSERT INTO op_wallet_exchange (tx, attempt, direction, http_status, body, status, balance) "
                "VALUES (%s, %s, 'answer', 200, %s, %s, %s)",
                (tx, attempt, body[:MAX_LOGGED_BODY].decode(errors="replace"), wire_status, result.balance))
        if wire_status == "retry":
            return None
        for status, balance, first in earlier:
            if (status, balance) != (wire_status, result.balance):
                return (f"answer {wire_status}/{result.balance} to attempt {attempt} contradicts "
                        f"{status}/{balance} to attempt {first}")
        return None

    async def settle(self, tx: str, result: WalletResult, now: datetime) -> None:
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE op_wallet_tx SET state = 'answered', result = %s, balance = %s, answered = %s "
                               "WHERE tx = %s AND state = 'pending'", (result.status.value, result.balance, now, tx))

    async def flag(self, tx: str, reason: str) -> None:
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE op_wallet_tx SET state = 'flagged', flag_reason = %s WHERE tx = %s",
                               (reason[:1000], tx))

    async def give_up_debit(self, tx: str) -> None:
        """A debit never answered: from now on it is returned by its cancel, never guessed."""
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE op_wallet_tx SET state = 'cancelled' WHERE tx = %s AND state = 'pending'", (tx,))

    async def reschedule(self, tx: str, due: datetime) -> None:
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE op_wallet_tx SET next_attempt = %s WHERE tx = %s AND state = 'pending'", (due, tx))

    async def claim_due(self, operator: str, now: datetime, lease: timedelta, limit: int) -> list[Logged]:
        """Credits, cancels and adjustments of ``operator`` due for another attempt, leased to the
        caller (another worker skips them until the lease ends)."""
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                f"UPDATE op_wallet_tx SET next_attempt = %s WHERE tx IN (SELECT tx FROM op_wallet_tx WHERE operator = %s "
                "AND state = 'pending' AND kind <> 'debit' AND next_attempt <= %s ORDER BY next_attempt LIMIT %s "
                f"FOR UPDATE SKIP LOCKED) RETURNING {TX_COLUMNS}", (now + lease, operator, now, limit))
            rows = await cur.fetchall()
        return sorted((_logged(r) for r in rows), key=lambda r: r.created)

    async def stale_debits(self, operator: str, created_by: datetime, limit: int) -> list[Logged]:
        """Debits of ``operator`` still pending, logged at ``created_by`` or earlier: their call was cut
        short (the studio stopped or gave up mid-call), and betting has closed since."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                f"SELECT {TX_COLUMNS} FROM op_wallet_tx WHERE operator = %s AND state = 'pending' AND kind = 'debit' "
                "AND created <= %s ORDER BY created LIMIT %s", (operator, created_by, limit))
            return [_logged(r) for r in await cur.fetchall()]

    async def counts(self, operator: str) -> dict[str, int]:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT state, count(*) FROM op_wallet_tx WHERE operator = %s GROUP BY state",
                                     (operator,))
            return {str(state): int(n) for state, n in await cur.fetchall()}
