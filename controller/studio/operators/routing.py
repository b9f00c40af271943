"""The studio's one wallet in front of every operator's: a movement goes to the wallet of the
operator whose player it is (its HTTP wallet through the wallet log and its retry worker, or the
studio's house wallet for an operator without a ``wallet_url``).

The studio's book and settlement name movements their own way (``debit:<request>``,
``cancel:<request>``, ``credit:<table>:<round>:<operator>:<player>``, and a correction's
``adjust:<table>:<round>:<operator>:<player>:<version>`` as a credit or a debit of the difference);
here they become the operator contract's: a cancel names the debit it returns and has the one id
the debit's own give-up uses (``<debit>:cancel``: the operator returns it once), a correction is an
``adjust`` with a signed amount, and every call carries its round.

A credit, cancel or adjustment is the operator's once its row is in the wallet log (committed
before the call): the answer is awaited at most ``hand_over_s``, and not at all while that operator
is slow (its last answer was late); the operator's retry worker finishes it (across restarts, 24
hours, then flagged). So a slow operator costs a settlement one ``hand_over_s`` at most, and never
delays another operator's movements or a table.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.http_wallet import HttpWallet, cancel_of
from controller.studio.operators.interface import Kind, WalletResult, WalletStatus, WalletTx
from controller.studio.wallet import Wallet

ADJUST = "adjust:"
#: how long settlement waits for an operator's answer before leaving the call to its retry worker
HAND_OVER_S = 1.0


def debit_id(request: str) -> str:
    """The studio's debit of a bet request (``book.py`` names it so)."""
    return f"debit:{request}"


class OperatorRouter:
    """``Wallet`` for the studio: each movement to its operator's wallet (``wallets``) or ``house``."""

    def __init__(self, pool: AsyncConnectionPool[Any], wallets: Mapping[str, HttpWallet], house: Wallet, *,
                 hand_over_s: float = HAND_OVER_S) -> None:
        self.pool = pool
        self.wallets = dict(wallets)
        self.house = house
        self.hand_over_s = hand_over_s
        self._calls: set[asyncio.Task[WalletResult]] = set()
        #: operators whose last answer did not come within ``hand_over_s``: not waited for
        self._slow: set[str] = set()

    async def debit(self, tx: WalletTx) -> WalletResult:
        wallet = self.wallets.get(tx.operator)
        if wallet is None:
            return await self.house.debit(tx)
        if tx.tx.startswith(ADJUST):  # a correction that pays less than was paid
            return await self._hand_over(Kind.ADJUST, self._adjustment(tx, -tx.amount))
        return await wallet.debit(replace(tx, round=tx.round or await self._round_of(tx.ref)))

    async def credit(self, tx: WalletTx) -> WalletResult:
        wallet = self.wallets.get(tx.operator)
        if wallet is None:
            return await self.house.credit(tx)
        if tx.tx.startswith(ADJUST):
            return await self._hand_over(Kind.ADJUST, self._adjustment(tx, tx.amount))
        debit = await self._debit_of(tx)
        return await self._hand_over(Kind.CREDIT, replace(tx, ref=debit or tx.tx, round=tx.round or tx.ref))

    async def cancel(self, tx: WalletTx) -> WalletResult:
        wallet = self.wallets.get(tx.operator)
        if wallet is None:
            return await self.house.cancel(tx)
        debit = replace(tx, tx=debit_id(tx.ref), ref=tx.ref, round=tx.round or await self._round_of(tx.ref))
        return await self._hand_over(Kind.CANCEL, cancel_of(debit))

    async def balance(self, operator: str, player: str, currency: str) -> int | None:
        """The house's balance, or the operator's last answer for the player (None: none yet)."""
        if operator not in self.wallets:
            return await self.house.balance(operator, player, currency)
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT balance FROM op_wallet_tx WHERE operator = %s AND player = %s AND currency = %s "
                "AND state = 'answered' AND balance IS NOT NULL ORDER BY answered DESC LIMIT 1",
                (operator, player, currency))
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def close(self) -> None:
        """Stop waiting for answers still on their way (their rows stay pending for the retry worker)."""
        for task in self._calls:
            task.cancel()
        await asyncio.gather(*self._calls, return_exceptions=True)

    # ------------------------------------------------------------------------------------------
    async def _hand_over(self, kind: Kind, tx: WalletTx) -> WalletResult:
        """Log the movement, then ask the operator, waiting for the answer at most ``hand_over_s``
        (not at all while the operator is slow: its last answer did not come in time). Once logged
        the movement is the operator's wallet's to finish, so a late answer is still OK here."""
        wallet = self.wallets[tx.operator]
        found = await wallet.logged(tx, kind)
        if found is not None:  # answered before; or given up or flagged: the log and the pit have it
            return found if found.status is not WalletStatus.UNKNOWN else WalletResult(WalletStatus.OK)
        task = asyncio.create_task(self._attempt(wallet, kind, tx), name=f"wallet {tx.tx}")
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0 if tx.operator in self._slow else self.hand_over_s):
                result: WalletResult = await asyncio.shield(task)
                if result.status is not WalletStatus.UNKNOWN:
                    return result
        self._slow.add(tx.operator)
        return WalletResult(WalletStatus.OK)

    async def _attempt(self, wallet: HttpWallet, kind: Kind, tx: WalletTx) -> WalletResult:
        result = await wallet.attempt(tx, kind)
        if result.status is not WalletStatus.UNKNOWN:
            self._slow.discard(tx.operator)  # answering again: the next movement waits for its answer
        return result

    @staticmethod
    def _adjustment(tx: WalletTx, amount: int) -> WalletTx:
        """The studio's ``adjust:<table>:<round>:<operator>:<player>:<version>`` as the contract's
        adjustment ``<round>:adj<version>:<operator>:<player>:<currency>`` (the round is its ``ref``)."""
        version = tx.tx.rsplit(":", 1)[1]
        round_id = tx.ref
        adjusted = f"{round_id}:adj{version}:{tx.operator}:{tx.player}:{tx.currency}"
        return replace(tx, tx=adjusted, ref=adjusted, amount=amount, round=round_id)

    async def _round_of(self, request: str) -> str:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT round FROM studio_requests WHERE request = %s", (request,))
            row = await cur.fetchone()
        return "" if row is None else str(row[0])

    async def _debit_of(self, credit: WalletTx) -> str | None:
        """The player's debit in the credit's round (its ``ref`` is the round)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT request FROM studio_bets WHERE round = %s AND operator = %s AND player = %s "
                                     "ORDER BY id LIMIT 1", (credit.ref, credit.operator, credit.player))
            row = await cur.fetchone()
        return None if row is None else debit_id(str(row[0]))


def as_studio_wallet(router: OperatorRouter) -> Wallet:
    """mypy checks here that the router is the studio's ``Wallet``."""
    return router
