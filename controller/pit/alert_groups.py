"""Open alerts as the pit lists them: an error alone, repeats of a warning grouped (docs/pit.md).

A shift of keying slips raises the same warning dozens of times; the list shows it once per
table, code and subject (a correction), with how many, the first and latest time and the latest message, and one
*Acknowledge* for the lot. Every error stays on its own line: each needs its own look. Pure:
the input is ``FloorModel.alerts()`` or ``TableModel.open_alerts()`` (most severe first, newest
first within a severity), and the order is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

GROUPED = frozenset(("warning", "info"))
#: what an alert is about when it names one thing of its own (a correction): repeats about
#: different things are different lines (two corrections waiting are two, each to look at)
SUBJECT = "correction"
#: groups listed at most (the floor's list and a table's)
LISTED = 50


def group_alerts(alerts: Iterable[Mapping[str, Any]], limit: int = LISTED) -> list[dict[str, Any]]:
    """Each entry: the newest alert's fields plus ``count``, ``first_ts`` and ``seqs`` (the
    journal seqs to acknowledge, newest first; empty for the dashboard's own alerts)."""
    out: list[dict[str, Any]] = []
    groups: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for alert in alerts:
        seq = alert.get("seq")
        severity = str(alert.get("severity"))
        key = (str(alert.get("table")), severity, str(alert.get("code")), str(alert.get(SUBJECT)))
        group = groups.get(key) if severity in GROUPED and isinstance(seq, int) else None
        if group is not None:
            group["count"] += 1
            group["seqs"].append(seq)
            group["first_ts"] = alert.get("ts", group["first_ts"])
            continue
        entry = {**alert, "count": int(alert.get("count") or 1), "first_ts": alert.get("ts"),
                 "seqs": [seq] if isinstance(seq, int) else []}
        out.append(entry)
        if severity in GROUPED and isinstance(seq, int):
            groups[key] = entry
    return out[:limit]
