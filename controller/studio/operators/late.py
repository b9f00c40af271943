"""A balance that comes after the round's ``settled``: when an operator answers a round's credit (or
a returned bet's cancel) after settlement stopped waiting for it, the player was told ``settled``
with ``balance: null``; the answer's balance is written to the round's payment and pushed to the
player as a ``balance`` message (docs/studio.md). An answer that comes before settlement marks
the payment done is simply the one ``settled`` carries."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.interface import Kind, WalletResult, WalletTx

log = logging.getLogger("croupier.studio.operators")
#: sends one message to a seated player: (table, operator, player, message)
ToPlayer = Callable[[str, str, str, dict[str, Any]], None]


def payment_of(tx: WalletTx, kind: Kind) -> str | None:
    """The studio's payment id of an operator movement: a credit keeps it, a cancel names the debit
    (``debit:<request>``) whose payment is ``cancel:<request>``; an adjustment is no round's balance."""
    if kind is Kind.CREDIT:
        return tx.tx
    if kind is Kind.CANCEL and tx.ref.startswith("debit:"):
        return f"cancel:{tx.ref.removeprefix('debit:')}"
    return None


class LateBalances:
    def __init__(self, pool: AsyncConnectionPool[Any], to_player: ToPlayer) -> None:
        self.pool = pool
        self.to_player = to_player
        self.pushed = 0

    async def answered(self, tx: WalletTx, kind: Kind, result: WalletResult) -> None:
        """Keep the answer's balance on the payment still without one; push it when ``settled`` went without."""
        payment = payment_of(tx, kind)
        if payment is None or result.balance is None:
            return
        try:
            async with self.pool.connection() as conn:
                cur = await conn.execute(
                    "UPDATE studio_payments SET balance = %s WHERE tx = %s AND balance IS NULL "
                    "RETURNING done, table_id, round, operator, player, currency", (result.balance, payment))
                row = await cur.fetchone()
        except Exception as exc:  # noqa: BLE001  # the book away: the player's next join or history has it
            log.warning("studio: late balance of %s not kept: %s", payment, exc)
            return
        if row is None or not row[0]:  # settled not sent yet: its message carries this balance
            return
        _, table, round_id, operator, player, currency = row
        self.to_player(str(table), str(operator), str(player), {
            "v": 1, "type": "balance", "round": str(round_id), "balance": int(result.balance), "currency": str(currency)})
        self.pushed += 1
