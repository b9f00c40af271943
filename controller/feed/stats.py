"""The feed's counters (read by metrics, tests and the table's status)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class FeedStats:
    entries_sent: int = 0  # journal entries handed to the link (resends after a restart included)
    cursor: int = 0  # the newest entry the broker acknowledged
    lag: int = 0  # journal entries not yet acknowledged
    commands_delivered: int = 0
    commands_duplicate: int = 0
    commands_refused: int = 0
    handler_errors: int = 0
    snapshots_unencodable: int = 0  # retained snapshots dropped because their body is not JSON
    outcomes_dropped: int = 0  # input outcomes the link's outbox could not take (live only, never retried)
