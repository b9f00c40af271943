"""Every operator's wallet and retry worker, each with its own HTTP client (its own connections
and deadlines): one slow or absent operator never holds a call to another."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import httpx
from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.http_wallet import HttpWallet, as_wallet, utc_now
from controller.studio.operators.interface import Wallet
from controller.studio.operators.retry import RetryPolicy, RetryWorker
from controller.studio.operators.settings import Operator
from controller.studio.operators.txlog import TxLog

#: connections to one operator at most: a flood of calls queues for that operator only
MAX_CONNECTIONS = 32


class OperatorWallets:
    def __init__(self, operators: Mapping[str, Operator], pool: AsyncConnectionPool[Any], *,
                 policy: RetryPolicy | None = None, now: Callable[[], datetime] = utc_now) -> None:
        self.policy = policy or RetryPolicy()
        self.log = TxLog(pool)
        self.wallets: dict[str, HttpWallet] = {}
        self.workers: dict[str, RetryWorker] = {}
        self._clients: list[httpx.AsyncClient] = []
        for op in operators.values():
            timeout = httpx.Timeout(op.settings.timeout_s, connect=min(1.0, op.settings.timeout_s))
            client = httpx.AsyncClient(timeout=timeout, limits=httpx.Limits(max_connections=MAX_CONNECTIONS))
            self._clients.append(client)
            wallet = HttpWallet(op, self.log, client, now=now, first_retry=self.policy.base)
            worker = RetryWorker(wallet, self.policy)
            wallet.wake = worker.wake
            self.wallets[op.id], self.workers[op.id] = wallet, worker

    def __getitem__(self, operator: str) -> HttpWallet:
        return self.wallets[operator]

    def wallet(self, operator: str) -> Wallet:
        """``operator``'s wallet, as the studio holds it."""
        return as_wallet(self.wallets[operator])

    def start(self) -> None:
        for worker in self.workers.values():
            worker.start()

    async def close(self) -> None:
        for worker in self.workers.values():
            await worker.stop()
        for client in self._clients:
            await client.aclose()
