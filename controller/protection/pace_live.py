"""The pace alert at a live table: ``protection.pace`` when the rounds per hour over a full window
of the table's clock stay below the target (the pit also sees the pace itself in the table's
``state``, docs/protection.md). Raised once, and again only after the table has caught up."""

from __future__ import annotations

from typing import Final

from controller.config import TableConfig
from controller.journal import Entry, Journal
from controller.protection.alerting import alert_after
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.holds import WARNING
from controller.table.pace import seconds

CODE: Final = "protection.pace"
#: between two round closes, the pace is looked at again after this many seconds of the table's clock
LOOK_EVERY_S: Final = 10.0
#: the journal's latest entries a restart reads for the last pace alert
REBUILD_ENTRIES: Final = 50_000


class PaceListener:
    """A ``TableLoop`` listener: the table's pace against its target, and the alert."""

    def __init__(self, loop: TableLoop, target: int | None, window_s: int) -> None:
        self.loop, self.target, self.window_s = loop, target, window_s
        self.raised = False
        self._looked = float("-inf")

    def on_entry(self, entry: Entry) -> None:
        if self.target is None or entry.kind == inputs.ALERT:
            return
        at = seconds(entry.ts)
        if entry.kind != inputs.ROUND_CLOSED and at - self._looked < LOOK_EVERY_S:
            return
        self._looked = at
        core = self.loop.core
        rate = core.round.close_times.pace(entry.ts, self.target, self.window_s)["rounds_per_hour"]
        if rate is None or core.closing:
            return
        if rate >= self.target:
            self.raised = False
        elif not self.raised:
            self.raised = True
            alert_after(self.loop, WARNING, CODE,
                        f"{rate:g} rounds an hour over the last {self.window_s / 60:g} minutes, below the "
                        f"target of {self.target} an hour", entry.seq, dealer=core.dealer,
                        rounds_per_hour=rate, target=self.target, window_s=self.window_s)

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        """The prompt says nothing of the pace."""


def watch_pace(loop: TableLoop, journal: Journal, config: TableConfig) -> PaceListener:
    """The pace watch; after a restart it does not raise again a pace alert the journal holds
    while the table is still below its target."""
    target = config.protection.pace_target or loop.core.adapter.pace_target
    listener = PaceListener(loop, target, config.protection.pace_window_s)
    raised = any(entry.kind == inputs.ALERT and entry.payload.get("code") == CODE
                 for entry in journal.entries(after=max(0, journal.last_seq() - REBUILD_ENTRIES)))
    core = loop.core
    rate = core.round.close_times.pace(core.ts(), target, listener.window_s)["rounds_per_hour"]
    listener.raised = raised and target is not None and rate is not None and rate < target
    return listener
