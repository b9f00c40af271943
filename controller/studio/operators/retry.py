"""The retry worker of one operator: credits, cancels and adjustments that got no trustworthy
answer are asked again with backoff until the operator answers, for ``give_up`` (24 hours), then
flagged for manual reconciliation. It reads its work from the wallet log, so a restart of the
studio resumes where it stopped. One worker per operator: a slow operator delays only its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from controller.studio.operators import alerts
from controller.studio.operators.background import Background
from controller.studio.operators.http_wallet import HttpWallet
from controller.studio.operators.interface import WalletStatus


@dataclass(frozen=True)
class RetryPolicy:
    base: timedelta = timedelta(seconds=2)
    cap: timedelta = timedelta(minutes=5)
    give_up: timedelta = timedelta(hours=24)
    #: how long a claimed row is the worker's before another may take it (a call's deadline and more)
    lease: timedelta = timedelta(seconds=60)
    #: a debit still unanswered this long after it was logged is given up and cancelled (longer
    #: than any betting time: its call was cut short by a stop or a deadline of the studio)
    debit_window: timedelta = timedelta(minutes=2)
    #: how often the log is read when nothing woke the worker
    poll_s: float = 1.0
    batch: int = 50

    def backoff(self, attempts: int) -> timedelta:
        """The wait after ``attempts`` failed attempts: doubling from ``base``, at most ``cap``."""
        wait: timedelta = self.base * (2 ** min(max(attempts - 1, 0), 30))
        return min(self.cap, wait)


class RetryWorker(Background):
    def __init__(self, wallet: HttpWallet, policy: RetryPolicy) -> None:
        super().__init__(f"wallet-retry-{wallet.operator.id}")
        self.wallet = wallet
        self.policy = policy

    async def run(self) -> None:
        while True:
            await self.pass_once()
            await self.nap(self.policy.poll_s)

    async def pass_once(self) -> int:
        """Ask again every movement that is due; returns how many were asked."""
        wallet, policy = self.wallet, self.policy
        operator = wallet.operator.id
        now = wallet.now()
        due = await wallet.log.claim_due(operator, now, policy.lease, policy.batch)
        for logged in due:
            if now - logged.created >= policy.give_up:
                await wallet.log.flag(logged.tx.tx, f"no answer from the operator after {logged.attempts} attempts "
                                                    f"since {logged.created.isoformat()}")
                alerts.anomaly(operator, "flagged", logged.tx.tx, "given up: manual reconciliation")
                continue
            result = await wallet.send(logged.tx, logged.kind)
            if result.status is WalletStatus.UNKNOWN:
                await wallet.log.reschedule(logged.tx.tx, wallet.now() + policy.backoff(logged.attempts + 1))
        for logged in await wallet.log.stale_debits(operator, now - policy.debit_window, policy.batch):
            await wallet.abandon(logged.tx)
        counts = await wallet.log.counts(operator)
        alerts.PENDING.labels(operator).set(counts.get("pending", 0))
        alerts.FLAGGED.labels(operator).set(counts.get("flagged", 0))
        return len(due)
