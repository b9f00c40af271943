"""The open round's betting status as the studio sees it: open, sealing, closed, none.

A table may have a betting time (``[table] betting_s``): opening betting sets a deadline (the
journaled open's ``ts`` plus the betting time) and the core asks the loop for it with a
``Deadline`` effect; the loop journals ``close_betting`` from source ``timer`` when it passes. A
remote table (``[table] remote``) does not close at once: the close puts the round in
``sealing`` (the felt is closed) until the studio's seal of the round is journaled, or until
``seal_grace_s`` pass (the loop journals ``close_betting`` from ``timer:seal``: closed without
the seal, every remote bet returned). The journal is the one cut-off: these times only say
when the loop journals the close; nothing here reads a clock (docs/studio.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from controller.table.effects import Deadline

#: the sources the loop journals a timer's ``close_betting`` under
TIMER, SEAL_TIMER = "timer", "timer:seal"
TIMERS = frozenset((TIMER, SEAL_TIMER))
OPEN, SEALING, CLOSED, NONE = "open", "sealing", "closed", "none"


def later(ts: str, seconds: int) -> str:
    """``ts`` (the journal's ISO-8601 UTC, ``...Z``) plus ``seconds``, in the journal's form."""
    at = datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(UTC) + timedelta(seconds=seconds)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


@dataclass(frozen=True, slots=True)
class BettingTime:
    """The table's settings (journaled in ``table_started``: replay uses those of its time)."""

    betting_s: int = 0
    seal_grace_s: int = 3
    remote: bool = False
    #: a seated remote player's time per decision, and what the table does at its end (docs/studio.md, "Seats")
    decision_s: int = 15
    decision_policy: str = "refund"

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> BettingTime:
        """From a ``table_started`` entry's ``betting`` (an older entry without it: none)."""
        given = payload.get("betting")
        if not isinstance(given, dict):
            return cls()
        return cls(int(given.get("betting_s", 0)), int(given.get("seal_grace_s", 3)), bool(given.get("remote")),
                   int(given.get("decision_s", 15)), str(given.get("decision_policy", "refund")))

    def dump(self) -> dict[str, Any]:
        return {"betting_s": self.betting_s, "seal_grace_s": self.seal_grace_s, "remote": self.remote,
                "decision_s": self.decision_s, "decision_policy": self.decision_policy}


@dataclass(slots=True)
class BettingDesk:
    """The open round's betting status; the settings it opened under stay with it."""

    time: BettingTime = BettingTime()
    status: str = NONE
    round_id: str | None = None
    opened: str | None = None
    #: the betting time's end (None: the dealer closes)
    deadline: str | None = None
    #: while sealing: when the table closes without the seal
    grace_end: str | None = None
    #: the journal seq of the entry that made this status
    seq: int = 0
    #: the open round takes remote bets (the setting it opened under)
    remote: bool = False
    sealed: bool = False
    seal: dict[str, Any] | None = None

    def set_time(self, time: BettingTime) -> None:
        """The settings rounds opened from now on take (the open round keeps its own)."""
        self.time = time

    def opened_round(self, round_id: str, ts: str, seq: int) -> list[Deadline]:
        self.status, self.round_id, self.opened, self.seq = OPEN, round_id, ts, seq
        self.remote, self.sealed, self.seal, self.grace_end = self.time.remote, False, None, None
        self.deadline = later(ts, self.time.betting_s) if self.time.betting_s and ts else None
        return self.deadlines()

    def closing(self, ts: str, seq: int) -> list[Deadline]:
        """The felt closed: a remote round waits for its seal, any other is closed."""
        self.seq = seq
        if not self.remote:
            self.status = CLOSED
            return []
        self.status = SEALING
        self.grace_end = later(ts, self.time.seal_grace_s) if ts else None
        return self.deadlines()

    def closed(self, seq: int, seal: dict[str, Any] | None) -> None:
        """Betting closed, with the studio's seal or without it."""
        self.status, self.seq, self.sealed, self.seal, self.grace_end = CLOSED, seq, seal is not None, seal, None

    def round_closed(self, seq: int) -> None:
        self.status, self.round_id, self.opened, self.deadline, self.seq = NONE, None, None, None, seq
        self.grace_end, self.sealed, self.seal = None, False, None

    def deadlines(self) -> list[Deadline]:
        """What the loop must journal when (a restart re-arms these from the replayed state)."""
        if self.status == OPEN and self.deadline is not None:
            return [Deadline(self.round_id, TIMER, self.deadline)]
        if self.status == SEALING and self.grace_end is not None:
            return [Deadline(self.round_id, SEAL_TIMER, self.grace_end)]
        return []

    def due(self, source: str) -> bool:
        """A timer's close from ``source`` applies now (else it came after the close: a no-op)."""
        return (source == TIMER and self.status == OPEN) or (source == SEAL_TIMER and self.status == SEALING)

    def remote_part(self) -> dict[str, Any] | None:
        """The round record's ``remote`` (None for a table without remote bets)."""
        if not self.remote:
            return None
        return {"sealed": self.sealed, "seal": self.seal, "settled": None}
