"""Sign-in throttling shared by the console and the pit: lockouts per account and per client
on the injected clock, a right password refused while locked, and argon2 verified off the loop
a bounded few at a time."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from controller.auth import Account, Accounts, Session, hash_password, verify_password
from controller.web.signin import Refused, SignInGuard

HASH = hash_password("right")


def accounts(clock: Any) -> Accounts:
    return Accounts({n: Account(n, "dealer", HASH) for n in ("ann", "bob", "cid")}, clock=clock)


async def test_230_wrong_passwords_then_the_right_one_is_refused_until_the_lockout_ends() -> None:
    now = [1000.0]
    guard = SignInGuard(accounts(lambda: now[0]), account_failures=5, client_failures=1000, lockout=60.0,
                        clock=lambda: now[0])
    results = [await guard.sign_in("ann", "wrong", "10.0.0.9") for _ in range(230)]
    assert [r.status for r in results[:5] if isinstance(r, Refused)] == [401] * 5
    assert all(isinstance(r, Refused) and r.status == 429 for r in results[5:])  # not even checked
    right = await guard.sign_in("ann", "right", "10.0.0.9")
    assert isinstance(right, Refused) and right.status == 429 and right.retry_after > 0
    assert isinstance(await guard.sign_in("bob", "right", "10.0.0.9"), Session)  # another account is not locked
    now[0] += 61.0
    assert isinstance(await guard.sign_in("ann", "right", "10.0.0.9"), Session)


async def test_a_lockout_doubles_each_time_and_a_success_clears_the_count() -> None:
    now = [0.0]
    guard = SignInGuard(accounts(lambda: now[0]), account_failures=3, lockout=10.0, max_lockout=25.0,
                        clock=lambda: now[0])
    waits = []
    for _ in range(3):
        for _ in range(3):
            await guard.sign_in("ann", "wrong", "c")
        refused = await guard.sign_in("ann", "right", "c")
        assert isinstance(refused, Refused)
        waits.append(round(refused.retry_after))
        now[0] += refused.retry_after + 0.1
    assert waits == [10, 20, 25]
    assert isinstance(await guard.sign_in("ann", "right", "c"), Session)
    for _ in range(2):  # the count started again after the success
        await guard.sign_in("ann", "wrong", "c")
    assert isinstance(await guard.sign_in("ann", "right", "c"), Session)


async def test_one_client_guessing_across_accounts_is_locked_out() -> None:
    now = [0.0]
    guard = SignInGuard(accounts(lambda: now[0]), account_failures=100, client_failures=6, clock=lambda: now[0])
    for user in ["ann", "bob", "cid"] * 2:
        await guard.sign_in(user, "wrong", "10.0.0.66")
    refused = await guard.sign_in("cid", "right", "10.0.0.66")
    assert isinstance(refused, Refused) and refused.status == 429
    assert isinstance(await guard.sign_in("cid", "right", "10.0.0.7"), Session)  # another terminal


class CountingChecks:
    """The real argon2 check, in a thread, counted while it runs."""

    def __init__(self) -> None:
        self.running = self.most = 0
        self.lock = threading.Lock()

    def check(self, password: str, password_hash: str) -> bool:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return verify_password(password, password_hash)
        finally:
            with self.lock:
                self.running -= 1

    async def __call__(self, password: str, password_hash: str) -> bool:
        return await asyncio.to_thread(self.check, password, password_hash)


async def test_a_burst_is_verified_a_bounded_few_at_a_time_off_the_loop_and_the_excess_refused() -> None:
    counting = CountingChecks()
    guard = SignInGuard(accounts(time.monotonic), account_failures=1000, client_failures=1000, concurrency=2, queue=6,
                        verify=counting)
    ticks = 0
    stop = asyncio.Event()

    async def heartbeat() -> None:  # the loop goes on turning while argon2 runs
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0)

    beat = asyncio.create_task(heartbeat())
    began = time.perf_counter()
    results = await asyncio.gather(*(guard.sign_in("ann", "wrong", f"c{k}") for k in range(20)))
    stop.set()
    await beat
    assert counting.most <= 2
    statuses = sorted(r.status for r in results if isinstance(r, Refused))
    assert statuses.count(401) == 8 and statuses.count(429) == 12  # 2 running + 6 waiting; the rest busy
    assert ticks > 8 * 10, (ticks, time.perf_counter() - began)


async def test_the_default_check_runs_in_a_worker_process_of_lower_priority() -> None:
    import os

    from controller.web import signin

    assert await signin.checker("right", HASH) and not await signin.checker("wrong", HASH)
    pool = signin.checker._pool
    assert pool is not None
    [worker] = [p.pid for p in pool._processes.values()]
    lower = min(19, os.getpriority(os.PRIO_PROCESS, 0) + signin.NICENESS)
    assert worker != os.getpid() and os.getpriority(os.PRIO_PROCESS, worker) == lower
