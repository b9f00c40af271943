"""The reference operator of a simulation (``simulate --operator-faults``): its HTTP wallet served in
this process on a loopback port with its own books (``sim/store.py``), a throwaway RabbitMQ
(``operators/rabbit.py``) with the operator's feed consumer on its queue, and the faults it shows
round after round, one at a time (slow answers, HTTP 500s, timeouts, an answer dropped after a
committed debit, the operator away for a while; duplicated deliveries for the whole run), and the
broker restarted once mid-round. The run ends only once the wallet's retries and the feed drained
(bounded), so the two books and the feed can be compared to the table's journal."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from psycopg_pool import AsyncConnectionPool

from controller.studio.operators.counters import counters
from controller.studio.operators.publisher import queue_name
from controller.studio.operators.rabbit import RabbitServer
from controller.studio.operators.retry import RetryPolicy
from controller.studio.operators.settings import Operator
from controller.studio.operators.sim.consumer import FeedConsumer, FeedTally
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.operators.sim.wallet_app import wallet_app
from controller.web.serving import EmbeddedServer, embedded_server

#: one wallet call's deadline at the operator in a simulation
TIMEOUT_S = 1.0
#: each fault's switches for one round (``duplicate`` is the feed consumer's, for the whole run)
EPISODES: dict[str, dict[str, float]] = {
    "slow": {"delay_s": TIMEOUT_S / 3},  # answered within the deadline
    "http500": {"fail_500": 3},
    "timeout": {"delay_s": TIMEOUT_S + 0.5},  # committed, answered after the deadline
    "drop": {"drop_after_commit": 2},  # committed, the connection closed without the answer
    "away": {"away_s": 2.0},  # HTTP 503 to everything
}
FAULTS = (*EPISODES, "duplicate")
#: the retry worker of a simulation: seconds, not the minutes of production, so a run drains
RETRY = RetryPolicy(base=timedelta(seconds=0.3), cap=timedelta(seconds=2), poll_s=0.2,
                    debit_window=timedelta(seconds=20))


def parse_faults(text: str) -> tuple[str, ...]:
    """``all``, ``none`` or a comma list of ``FAULTS``; ValueError names an unknown one."""
    if text.strip() == "all":
        return FAULTS
    if text.strip() == "none":
        return ()
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in FAULTS]
    if unknown:
        raise ValueError(f"--operator-faults: unknown {', '.join(unknown)} (all, none or some of {', '.join(FAULTS)})")
    return names


def _secret(path: Path) -> Path:
    path.write_text(secrets.token_hex(32))
    path.chmod(0o600)
    return path


@dataclass
class ReferenceOperator:
    """The running operator: its books, its switches, its feed consumer's tally and the broker."""

    name: str
    faults: tuple[str, ...]
    store: SimStore
    switches: Faults
    rabbit: RabbitServer
    wallet_url: str
    wallet_secret: Path
    feed_secret: Path
    tally: FeedTally = field(default_factory=FeedTally)
    restarts: int = 0
    consumer: FeedConsumer | None = None

    def section(self) -> dict[str, Any]:
        """What the studio's ``[studio.operators.<name>]`` gains: this operator's wallet and feed."""
        return {"wallet_url": self.wallet_url, "wallet_secret_file": self.wallet_secret,
                "feed_secret_file": self.feed_secret, "timeout_s": TIMEOUT_S}

    async def consume(self, operator: Operator, game: str) -> None:
        """The operator's consumer on its queue (duplicating every delivery with ``duplicate``)."""
        self.consumer = FeedConsumer(self.rabbit.url, queue_name(operator, game), operator.feed_secret,
                                     duplicate="duplicate" in self.faults, tally=self.tally)
        await self.consumer.start()

    async def drive(self, pool: AsyncConnectionPool[Any], table: str, restart_at: int | None) -> None:
        """Each new round of ``table`` gets the next fault (the last one's switches off first); the
        broker is stopped and started again once, as round ``restart_at`` opens. Until cancelled."""
        episodes = itertools.cycle([EPISODES[f] for f in self.faults if f in EPISODES] or [{}])
        seen = 0
        while True:
            async with pool.connection() as conn:
                cur = await conn.execute("SELECT count(*) FROM studio_rounds WHERE table_id = %s", (table,))
                row = await cur.fetchone()
            opened = int(row[0]) if row else 0
            if opened > seen:
                seen = opened
                self.calm()
                self.switches.update(next(episodes))
                if restart_at is not None and seen >= restart_at and not self.restarts:
                    self.restarts += 1
                    await asyncio.to_thread(self.rabbit.stop)
                    await asyncio.to_thread(self.rabbit.start)
            await asyncio.sleep(0.1)

    def calm(self) -> None:
        """Every switch off (the duplicate deliveries are the consumer's, they stay)."""
        self.switches.delay_s, self.switches.fail_500, self.switches.drop_after_commit = 0.0, 0, 0
        self.switches.away_until = 0.0

    async def drain(self, pool: AsyncConnectionPool[Any], within: float) -> bool:
        """Faults off, then wait until no wallet movement is pending and the consumer holds every
        event the studio wrote to its outbox (at most ``within`` seconds); whether it drained."""
        self.calm()
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            figures = await counters(pool, self.store, self.tally)
            async with pool.connection() as conn:
                cur = await conn.execute("SELECT table_id, last_seq FROM op_feed_counter")
                written = {str(t): int(s) for t, s in await cur.fetchall()}
            if figures["pending"] == 0 and written == self.tally.last:
                return True
            await asyncio.sleep(0.2)
        return False


async def _serve(app: Any) -> tuple[EmbeddedServer, asyncio.Task[None], str]:
    server = embedded_server(app, host="127.0.0.1", port=0)
    task = asyncio.create_task(server.serve(), name="reference operator wallet")
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("the reference operator's wallet could not listen")
        await asyncio.sleep(0.02)
    port = int(server.servers[0].sockets[0].getsockname()[1])
    return server, task, f"http://127.0.0.1:{port}/wallet"


@contextlib.asynccontextmanager
async def reference_operator(name: str, directory: Path, faults: tuple[str, ...],
                             funds: Mapping[str, int]) -> AsyncIterator[ReferenceOperator]:
    """The operator ``name`` serving its wallet with its players ``funds`` (EUR, minor units) and a
    throwaway RabbitMQ, both stopped (by their PIDs) when the block ends."""
    directory.mkdir(parents=True, exist_ok=True)
    wallet_secret, feed_secret = _secret(directory / "wallet.secret"), _secret(directory / "feed.secret")
    store, switches = SimStore(directory / "operator.sqlite"), Faults()
    for player, amount in funds.items():
        store.fund(player, "EUR", amount)
    tally = FeedTally()
    rabbit = RabbitServer()
    server, task, url = await _serve(wallet_app(store, wallet_secret.read_bytes(), switches, tally))
    try:
        await asyncio.to_thread(rabbit.start)
        run = ReferenceOperator(name, faults, store, switches, rabbit, url, wallet_secret, feed_secret, tally)
        try:
            yield run
        finally:
            if run.consumer is not None:
                with contextlib.suppress(Exception):
                    await run.consumer.stop()
    finally:
        server.should_exit = True
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.to_thread(rabbit.close)
