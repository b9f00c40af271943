"""The soak's report: one JSON object (``--json``) or a few lines for a person, and whether the
run passed (docs/hil.md, "Reading the report")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class SoakReport:
    game: str
    table: str
    seed: int
    rounds: int
    rounds_settled: int = 0
    rounds_void: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    faults_not_injected: dict[str, str] = field(default_factory=dict)
    lost_bets: int = 0
    double_settled: int = 0
    payout_mismatches: int = 0
    card_mismatches: int = 0
    ledger_balanced: bool = False
    feed_complete: bool = False
    journal_verified: bool = False
    stake_total: int = 0
    payout_total: int = 0
    controller_starts: int = 0
    controller_crashes: int = 0
    starts_refused: int = 0
    disk_full_holds: int = 0
    cards_dealt: int = 0
    cards_unread: int = 0
    journal_entries: int = 0
    elapsed_s: float = 0.0
    work_dir: str = ""
    errors: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (self.lost_bets == 0 and self.double_settled == 0 and self.payout_mismatches == 0
                and self.card_mismatches == 0 and self.ledger_balanced and self.feed_complete
                and self.journal_verified and self.controller_crashes == 0 and not self.errors
                and self.rounds_settled + self.rounds_void >= self.rounds)

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "passed": self.passed}

    def lines(self) -> list[str]:
        faults = ", ".join(f"{k} {n}" for k, n in sorted(self.faults.items())) or "none"
        out = [
            f"soak {self.game} table {self.table} seed {self.seed}: {'PASSED' if self.passed else 'FAILED'} "
            f"in {self.elapsed_s:.0f} s",
            f"  rounds: {self.rounds_settled} settled, {self.rounds_void} void (of {self.rounds}); "
            f"controller started {self.controller_starts} times, {self.controller_crashes} crash(es), "
            f"{self.starts_refused} start(s) refused (a device missing)",
            f"  faults ({sum(self.faults.values())}): {faults}",
            f"  lost bets {self.lost_bets}, double settled {self.double_settled}, payout mismatches "
            f"{self.payout_mismatches}, card/number mismatches {self.card_mismatches}",
            f"  ledger balanced {self.ledger_balanced} (stakes {self.stake_total}, payouts {self.payout_total}), "
            f"feed complete {self.feed_complete}, journal verified {self.journal_verified}",
            f"  disk-full holds {self.disk_full_holds}; cards dealt {self.cards_dealt}, never read {self.cards_unread}; "
            f"journal entries {self.journal_entries}",
        ]
        out += [f"  not injected: {k}: {why}" for k, why in self.faults_not_injected.items()]
        out += [f"  error: {e}" for e in self.errors]
        out += [f"  e.g. {e}" for e in self.examples]
        out.append(f"  files: {self.work_dir}")
        return out
