"""A table's pace: rounds closed per hour over the last window of the table's own clock.

The clock is the journal's: each entry's ``ts``, so the pace a replay computes is the pace the
table showed. A pace is known once the table's closed rounds reach back a full window (before
that it is ``None``: not yet known). Targets are rounds per hour: each game adapter's
``pace_target`` by default (docs/protection.md), or ``[protection] pace_target``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any, Final

DEFAULT_WINDOW_S: Final = 1800


@lru_cache(maxsize=256)
def seconds(ts: str) -> float:
    """A journal ``ts`` (ISO-8601, UTC) as seconds since the epoch (the same few ``ts`` are asked
    for again and again: the entry being applied, each time the state is built)."""
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def rounds_per_hour(closed_newest_first: Iterable[float], oldest: float | None, now: float | None,
                    window_s: int) -> float | None:
    """Rounds closed in the ``window_s`` seconds up to ``now``, scaled to an hour; None while the
    closed rounds (``oldest`` the first of them) do not yet reach back a whole window. Times are
    seconds since the epoch."""
    if now is None or oldest is None:
        return None
    start = now - window_s
    if oldest > start:
        return None
    count = 0
    for at in closed_newest_first:
        if at < start:
            break
        count += 1
    return round(count * 3600 / window_s, 1)


@dataclass(slots=True)
class CloseTimes:
    """When the table's last ``kept`` rounds closed, in seconds, oldest first: kept as rounds
    close, so building the state (on every change of the prompt) neither walks every round
    record nor parses their times again."""

    kept: int
    times: deque[float] = field(default_factory=deque)

    def closed(self, ts: str) -> None:
        if ts:
            self.times.append(seconds(ts))
            if len(self.times) > self.kept:
                self.times.popleft()

    def pace(self, now: str, target: int | None, window_s: int) -> dict[str, Any]:
        """The ``pace`` of the table's ``state`` at ``now`` (the journal ``ts`` being applied)."""
        times = self.times
        rate = rounds_per_hour(reversed(times), times[0] if times else None, seconds(now) if now else None, window_s)
        return {"rounds_per_hour": rate, "target": target, "window_s": window_s}
