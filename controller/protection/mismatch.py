"""The two-source mismatch rate at a live table: every check of a dealer's key against the
device's result (``protection.result_confirmed`` or ``protection.result_mismatch``, journaled
by controller/table/result_check.py) is counted per device and per dealer, and
``protection.mismatch_rate`` (warning) is raised when one's share of mismatches passes
``[protection] mismatch_rate`` over at least ``mismatch_min_results`` checks; again only after
it has fallen back. A restart recounts from the journal's latest entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from controller.config import TableConfig
from controller.journal import Entry, Journal
from controller.protection.alerting import alert_after
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.holds import WARNING
from controller.table.result_check import CONFIRMED, MISMATCH

CODE: Final = "protection.mismatch_rate"
REBUILD_ENTRIES: Final = 50_000


@dataclass
class Tally:
    checks: int = 0
    mismatches: int = 0
    raised: bool = False

    @property
    def rate(self) -> float:
        return self.mismatches / self.checks if self.checks else 0.0


class MismatchRates:
    """Checks and mismatches per ("device", name) and ("dealer", name)."""

    def __init__(self, threshold: float, min_results: int) -> None:
        self.threshold, self.min_results = threshold, min_results
        self.tallies: dict[tuple[str, str], Tally] = {}

    def checked(self, payload: dict[str, Any]) -> list[tuple[str, str, Tally]]:
        """One check's alert; the (who, name, tally) whose rate has just risen past the threshold."""
        risen = []
        for who in ("device", "dealer"):
            name = str(payload.get(who) or "unknown")
            tally = self.tallies.setdefault((who, name), Tally())
            tally.checks += 1
            tally.mismatches += payload.get("code") == MISMATCH
            if tally.checks < self.min_results:
                continue
            if tally.rate <= self.threshold:
                tally.raised = False
            elif not tally.raised:
                tally.raised = True
                risen.append((who, name, tally))
        return risen


class MismatchListener:
    def __init__(self, loop: TableLoop, rates: MismatchRates) -> None:
        self.loop, self.rates = loop, rates

    def on_entry(self, entry: Entry) -> None:
        if entry.kind != inputs.ALERT or entry.payload.get("code") not in (CONFIRMED, MISMATCH):
            return
        for who, name, tally in self.rates.checked(entry.payload):
            alert_after(self.loop, WARNING, CODE,
                        f"{who} {name}: {tally.mismatches} of {tally.checks} results keyed by the dealer disagree "
                        f"with the device ({tally.rate:.0%}, above {self.rates.threshold:.0%})", entry.seq,
                        device=entry.payload.get("device"), dealer=entry.payload.get("dealer"), rate_of=who,
                        checks=tally.checks, mismatches=tally.mismatches, rate=round(tally.rate, 4))

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        """The prompt is no check."""


def watch_mismatches(loop: TableLoop, journal: Journal, config: TableConfig) -> MismatchListener:
    rates = MismatchRates(config.protection.mismatch_rate, config.protection.mismatch_min_results)
    for entry in journal.entries(after=max(0, journal.last_seq() - REBUILD_ENTRIES)):
        if entry.kind == inputs.ALERT and entry.payload.get("code") in (CONFIRMED, MISMATCH):
            rates.checked(entry.payload)
    return MismatchListener(loop, rates)
