"""Sign-in throttling for both pages: a lockout per account and per client address after
repeated failures, and argon2 verified with bounded concurrency in a worker process of lower
scheduling priority, so a burst of sign-ins neither guesses a password nor slows the table's
loop (docs/security.md). argon2 takes tenths of a second and several cores by design; in a
thread of the table's own process a burst took a fifth of its rounds, since the machine's cores
were argon2's; at a lower priority the table's process is served first.

While an account or a client is locked out, a sign-in is refused *without* checking the
password, even a right one: a guess made during the lockout tells nothing.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from controller.auth import Accounts, Session, verify_password

log = logging.getLogger(__name__)


#: how much lower the hash checker runs than the process that serves the pages
NICENESS = 10
Verify = Callable[[str, str], Awaitable[bool]]


def _lower_priority() -> None:
    os.nice(NICENESS)


class _Checker:
    """One worker process (spawned on the first sign-in, shared by every page of the process)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def __call__(self, password: str, password_hash: str) -> bool:
        loop = asyncio.get_running_loop()
        for _ in range(2):  # a worker that died is replaced once
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_lower_priority)
            try:
                return await loop.run_in_executor(self._pool, verify_password, password, password_hash)
            except BrokenProcessPool:
                self._pool = None
        return await asyncio.to_thread(verify_password, password, password_hash)


checker = _Checker()


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0
    lockouts: int = 0


@dataclass(frozen=True)
class Refused:
    """A sign-in refused: ``status`` 401 (wrong), 429 (locked out or busy); ``retry_after`` s."""

    status: int
    message: str
    retry_after: float = 0.0


class SignInGuard:
    """``await guard.sign_in(user, password, client)``: a ``Session`` or a ``Refused``.

    After ``account_failures`` wrong passwords for one account, or ``client_failures`` from
    one client, that account or client is locked for ``lockout`` seconds, doubled at each
    further lockout up to ``max_lockout``; a right password clears the account's count and
    the client's. At most ``concurrency`` hashes are verified at once and ``queue`` more wait;
    beyond that a sign-in is refused as busy."""

    def __init__(self, accounts: Accounts, *, account_failures: int = 5, client_failures: int = 20,
                 lockout: float = 60.0, max_lockout: float = 900.0, concurrency: int = 1, queue: int = 4,
                 clock: Callable[[], float] = time.monotonic, verify: Verify | None = None) -> None:
        self.accounts = accounts
        self._verify = verify or checker
        self.account_failures, self.client_failures = account_failures, client_failures
        self.lockout, self.max_lockout = lockout, max_lockout
        self._clock = clock
        self._slots = asyncio.Semaphore(concurrency)
        self._capacity = concurrency + queue
        self._busy = 0
        self._by_account: dict[str, _Failures] = {}
        self._by_client: dict[str, _Failures] = {}

    async def sign_in(self, user: str, password: str, client: str) -> Session | Refused:
        now = self._clock()
        for failures in (self._by_account.get(user), self._by_client.get(client)):
            if failures is not None and failures.locked_until > now:
                wait = failures.locked_until - now
                return Refused(429, f"too many failed sign-ins: try again in {wait:.0f} s", wait)
        if self._busy >= self._capacity:
            return Refused(429, "too many sign-ins at once: try again in a moment", 1.0)
        self._busy += 1
        try:
            async with self._slots:  # argon2 is slow by design: off the loop, a bounded few at once
                right = await self._verify(password, self.accounts.hash_of(user))
        finally:
            self._busy -= 1
        session = self.accounts.open_session(user) if right else None
        if session is not None:
            self._by_account.pop(user, None)
            self._by_client.pop(client, None)
            return session
        self._failed(self._by_account, user, self.account_failures, "account")
        self._failed(self._by_client, client, self.client_failures, "client")
        return Refused(401, "unknown user or wrong password")

    def _failed(self, table: dict[str, _Failures], key: str, limit: int, what: str) -> None:
        if key not in table and len(table) >= 10_000:  # bounded: the oldest entry goes
            del table[next(iter(table))]
        failures = table.setdefault(key, _Failures())
        failures.count += 1
        if failures.count >= limit:
            span = min(self.max_lockout, self.lockout * 2 ** failures.lockouts)
            failures.locked_until = self._clock() + span
            failures.lockouts += 1
            failures.count = 0
            log.warning("sign-in: %s %r locked for %.0f s after %d failures", what, key[:64], span, limit)
