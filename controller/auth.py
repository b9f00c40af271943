"""Who may use the dealer console and the pit dashboard (see ``docs/security.md``).

Accounts live in config as ``name -> {role, password_hash}``; hashes are argon2 (pwdlib), so a
config file never holds a password. A sign-in returns an opaque random token; sessions expire
after ``ttl`` seconds of the injected clock and are kept in memory only (a restart signs
everybody out, which is what a table restart should do anyway).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pwdlib import PasswordHash

Role = Literal["dealer", "pit_boss"]
ROLES: tuple[Role, ...] = ("dealer", "pit_boss")
_HASHER = PasswordHash.recommended()


def hash_password(password: str) -> str:
    """An argon2 hash for an account's ``password_hash`` in config."""
    return _HASHER.hash(password)


def verify_password(password: str, password_hash: str) -> bool:
    """``password`` matches ``password_hash`` (argon2: slow by design, run it off the loop)."""
    return bool(_HASHER.verify(password, password_hash))


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    role: Role
    password_hash: str


@dataclass(frozen=True, slots=True)
class Session:
    token: str
    user: str
    role: Role
    expires: float
    #: sent back by the page on every state-changing request (``X-CSRF-Token``)
    csrf: str = ""


class Accounts:
    """The accounts of one console or dashboard, and their live sessions."""

    def __init__(self, accounts: Mapping[str, Account], ttl: float = 8 * 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._accounts = dict(accounts)
        self._sessions: dict[str, Session] = {}
        self.ttl = ttl
        self._clock = clock

    def sign_in(self, user: str, password: str) -> Session | None:
        """A new session, or None for an unknown user or a wrong password (said the same way)."""
        if not verify_password(password, self.hash_of(user)):
            return None
        return self.open_session(user)

    def hash_of(self, user: str) -> str:
        """The hash to check ``user``'s password against: a dummy one for an unknown user, so a
        check costs the same whether or not the user exists."""
        account = self._accounts.get(user)
        return account.password_hash if account is not None else _DUMMY_HASH

    def open_session(self, user: str) -> Session | None:
        """A new session for ``user`` whose password was checked; None for an unknown user."""
        account = self._accounts.get(user)
        if account is None:
            return None
        self._expire()
        session = Session(secrets.token_urlsafe(32), account.name, account.role, self._clock() + self.ttl,
                          secrets.token_urlsafe(24))
        self._sessions[session.token] = session
        return session

    def session(self, token: str | None) -> Session | None:
        """The live session of ``token``; None when unknown or expired."""
        if not token:
            return None
        session = self._sessions.get(token)
        if session is None:
            return None
        if session.expires <= self._clock():
            del self._sessions[token]
            return None
        return session

    def sign_out(self, token: str) -> None:
        self._sessions.pop(token, None)

    def csrf_ok(self, session: Session, given: str | None) -> bool:
        """``given`` is ``session``'s CSRF token (compared in constant time)."""
        return bool(given) and secrets.compare_digest(session.csrf, str(given))

    def _expire(self) -> None:
        now = self._clock()
        for token in [t for t, s in self._sessions.items() if s.expires <= now]:
            del self._sessions[token]


def accounts_from_config(entries: Mapping[str, Any], ttl: float = 8 * 3600.0,
                         clock: Callable[[], float] = time.monotonic) -> Accounts:
    """The ``[accounts.<name>]`` sections of a config (each with ``role`` and ``password_hash``)."""
    return Accounts({name: Account(name, e.role, e.password_hash) for name, e in entries.items()}, ttl, clock)


_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))
