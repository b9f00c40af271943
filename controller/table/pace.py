"""A table's pace: rounds closed per hour over the last window of the table's own clock.

The clock is the journal's: each entry's ``ts``, so the pace a replay computes is the pace the
table showed. A pace is known once the table's closed rounds reach back a full window (before
that it is ``None``: not yet known). Targets are rounds per hour: each game adapter's
``pace_target`` by default (docs/protection.md), or ``[protection] pace_target``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Final

DEFAULT_WINDOW_S: Final = 1800


def seconds(ts: str) -> float:
    """A journal ``ts`` (ISO-8601, UTC) as seconds since the epoch."""
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def rounds_per_hour(closed_newest_first: Iterable[str], oldest: str | None, now: str, window_s: int) -> float | None:
    """Rounds closed in the ``window_s`` seconds up to ``now``, scaled to an hour; None while the
    closed rounds (``oldest`` the first of them) do not yet reach back a whole window."""
    if not now or oldest is None:
        return None
    end = seconds(now)
    start = end - window_s
    if seconds(oldest) > start:
        return None
    count = 0
    for ts in closed_newest_first:
        if seconds(ts) < start:
            break
        count += 1
    return round(count * 3600 / window_s, 1)


def pace(records: Mapping[str, Mapping[str, Any]], now: str, target: int | None, window_s: int) -> dict[str, Any]:
    """The ``pace`` of the table's ``state`` from its closed round records (oldest first)."""
    closed = [r["closed"] for r in records.values() if r.get("closed")]
    rate = rounds_per_hour(reversed(closed), closed[0] if closed else None, now, window_s)
    return {"rounds_per_hour": rate, "target": target, "window_s": window_s}
