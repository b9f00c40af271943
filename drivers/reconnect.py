"""One reconnect policy (and its state) for every link that reconnects on its own (the shoe's and the wheel's
serial lines, the MQTT link), after aioesphomeapi's ``ReconnectLogic``: a state enum, capped
exponential backoff, and how long the link has been down, so a dead peer is reported loudly
and at a steady rate instead of at every attempt (``docs/devices.md``, "Reconnecting"). The
loop that uses it is ``drivers.link.LinkRunner``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from drivers.clock import SYSTEM_CLOCK, Clock


class LinkState(StrEnum):
    """Where a link is in its reconnect cycle."""

    CONNECTING = "connecting"  # an attempt is under way (first one, or after a wait)
    CONNECTED = "connected"
    WAITING = "waiting"  # the last attempt failed (or the link dropped): the backoff runs
    CLOSED = "closed"  # closed by its owner: no more attempts


@dataclass(frozen=True)
class Backoff:
    """Delays between attempts: ``initial``, doubling (``factor``) up to ``maximum``, each
    shortened by up to ``jitter`` of itself (a fraction, drawn from ``random``) so many clients
    that lost one broker together do not all come back in the same instant."""

    initial: float
    maximum: float
    factor: float = 2.0
    jitter: float = 0.0
    random: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 < self.initial <= self.maximum or self.factor < 1 or not 0 <= self.jitter < 1:
            raise ValueError(f"backoff needs 0 < initial <= maximum, factor >= 1 and 0 <= jitter < 1, not {self}")

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failed attempts in a row (1: the first failure)."""
        capped = min(self.initial * self.factor ** min(max(failures - 1, 0), 64), self.maximum)
        return capped * (1 - self.jitter * self.random()) if self.jitter else capped


#: the shoe's and the wheel's serial lines: soon after a replug, never hammering a dead port
SERIAL_BACKOFF = Backoff(0.1, 2.0)
#: an MQTT broker: a blip is bridged at once, a dead broker is asked every 5 s (at most)
MQTT_BACKOFF = Backoff(0.05, 5.0, jitter=0.1)


class Reconnect:
    """One link's reconnect state. The owner calls ``connecting``/``connected``/``failed``
    (which gives the wait before the next attempt) and ``closed``; ``down_for`` and ``alarm``
    tell it when an outage has lasted long enough to be worth a warning."""

    def __init__(self, backoff: Backoff, clock: Clock = SYSTEM_CLOCK, *, warn_after: float = 3.0,
                 warn_every: float = 30.0) -> None:
        self.backoff = backoff
        self.clock = clock
        self.warn_after = warn_after
        self.warn_every = warn_every
        self.state = LinkState.CONNECTING
        self.failures = 0  # failed attempts since the last connect
        self.attempts = 0
        self.connects = 0
        self.last_error = ""
        self._down_since: float | None = clock.monotonic()  # never connected counts as down
        self._warned_at: float | None = None

    def connecting(self) -> None:
        self.state = LinkState.CONNECTING
        self.attempts += 1

    def connected(self) -> None:
        self.state = LinkState.CONNECTED
        self.failures = 0
        self.connects += 1
        self._down_since = self._warned_at = None

    def failed(self, reason: str) -> float:
        """The attempt failed or the link dropped: the seconds to wait before the next one."""
        if self.state is LinkState.CONNECTED or self._down_since is None:
            self._down_since = self.clock.monotonic()
        self.state = LinkState.WAITING
        self.failures += 1
        self.last_error = reason
        return self.backoff.delay(self.failures)

    async def wait(self, reason: str) -> None:
        """``failed`` then sleep its delay."""
        await self.clock.sleep(self.failed(reason))

    def closed(self) -> None:
        self.state = LinkState.CLOSED

    def down_for(self) -> float | None:
        """Seconds the link has been down (None: it is up, or closed)."""
        if self.state in (LinkState.CONNECTED, LinkState.CLOSED) or self._down_since is None:
            return None
        return self.clock.monotonic() - self._down_since

    def alarm(self) -> bool:
        """True when a warning is due: the outage has lasted ``warn_after`` seconds, and the last
        warning is ``warn_every`` seconds old (a rate limit, while it lasts)."""
        down = self.down_for()
        if down is None or down < self.warn_after:
            return False
        now = self.clock.monotonic()
        if self._warned_at is not None and now - self._warned_at < self.warn_every:
            return False
        self._warned_at = now
        return True

    def level(self) -> int:
        """The log level for a failed attempt now: WARNING when ``alarm`` says so, else DEBUG."""
        return logging.WARNING if self.alarm() else logging.DEBUG
