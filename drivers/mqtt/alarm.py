"""Which broker failures are a misconfiguration to report at once (a certificate, a name, the
credentials) or a session taken over, rather than an outage that may end by itself."""

from __future__ import annotations

from collections import deque

from drivers.clock import Clock
from drivers.reconnect import Backoff

#: MQTT 5 DISCONNECT reason: another client connected with this client id
SESSION_TAKEN_OVER = 0x8E

#: after a takeover the next attempt waits longer each time (so two clients sharing an id do
#: not throw each other off forever); a link that stays up ``TAKEOVER_BACKOFF.maximum`` resets it
TAKEOVER_BACKOFF = Backoff(2.0, 60.0)
#: a link the broker takes back within this many seconds of dropping it was dropped for no fault
#: of the line; ``QUICK_REJOINS`` of those within ``REJOIN_WINDOW`` seconds are a takeover
QUICK_REJOIN = 1.0
QUICK_REJOINS = 2
REJOIN_WINDOW = 60.0

_MISCONFIGURED = (
    "certificate",  # [SSL: CERTIFICATE_VERIFY_FAILED], hostname mismatch
    "ssl",
    "name or service not known",  # DNS
    "temporary failure in name resolution",
    "nodename nor servname",
    "no address associated",
    "not authorized",  # CONNACK refusals: the account
    "bad user name or password",
    "client identifier not valid",
)


def is_misconfiguration(error: str) -> bool:
    """A failure that will not end by waiting: report it at the first attempt."""
    text = error.lower()
    return any(marker in text for marker in _MISCONFIGURED)


def is_takeover(exc: BaseException | None) -> bool:
    """The broker dropped the session because another client connected under its id (the
    reason may sit on the error's cause: aiomqtt's "Disconnected during message iteration")."""
    if exc is None:
        return False
    rc = getattr(exc, "rc", None)
    value = getattr(rc, "value", rc)
    if value == SESSION_TAKEN_OVER or "session taken over" in str(exc).lower():
        return True
    return is_takeover(exc.__cause__)


class Takeovers:
    """Tells a session taken over from a blip. mosquitto 2.0 closes the old connection of a
    client id taken by another client without saying why (MQTT 3.1.1 has no reason to give):
    what shows is a working link dropped and taken back at once, again and again, as the two
    clients throw each other off. That pattern, or a broker's 0x8E, is a takeover."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.count = 0
        self.in_a_row = 0
        self._dropped_at: float | None = None
        self._rejoins: deque[float] = deque()
        self._up_since: float | None = None

    def connected(self) -> None:
        now = self.clock.monotonic()
        if self._dropped_at is not None and now - self._dropped_at < QUICK_REJOIN:
            self._rejoins.append(now)
        while self._rejoins and now - self._rejoins[0] > REJOIN_WINDOW:
            self._rejoins.popleft()
        self._up_since = now

    def dropped(self, was_up: bool, said: bool) -> bool:
        """The link failed (``was_up``: a working one dropped; ``said``: the broker said 0x8E);
        True when this is a takeover."""
        now = self.clock.monotonic()
        if self._up_since is not None and now - self._up_since >= TAKEOVER_BACKOFF.maximum:
            self.in_a_row = 0  # it stayed up long enough: whatever took it over has stopped
            self._rejoins.clear()
        self._up_since = None
        self._dropped_at = now if was_up else None
        taken = said or (was_up and len(self._rejoins) >= QUICK_REJOINS)
        if taken:
            self.count += 1
            self.in_a_row += 1
        return taken

    def delay(self) -> float:
        """The least wait before the next attempt (0 unless takeovers are going on)."""
        return TAKEOVER_BACKOFF.delay(self.in_a_row) if self.in_a_row else 0.0
