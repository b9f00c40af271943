"""Sign-in throttling for both pages: a lockout per account and per client address after
repeated failures, and argon2 verified in a thread with bounded concurrency, so a burst of
sign-ins neither guesses a password nor slows the table's loop (docs/security.md).

While an account or a client is locked out, a sign-in is refused *without* checking the
password, even a right one: a guess made during the lockout tells nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from controller.auth import Accounts, Session

log = logging.getLogger(__name__)


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
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.accounts = accounts
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
                session = await asyncio.to_thread(self.accounts.sign_in, user, password)
        finally:
            self._busy -= 1
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
