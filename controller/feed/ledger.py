"""Running totals since the journal began, derived from ``round_closed`` entries only.

Never stored: rebuilt by folding the journal on start, so it cannot drift from the rounds the
pit has seen. A later ``round_closed`` for a round already counted (a correction) replaces the
earlier record instead of counting the round twice. What a void round returned is a refund,
counted apart from the totals (the handle excludes it); the bets that stood in a void round
count in the totals like a settled round's (controller/round_money.py).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from controller.feed.messages import ROUND_CLOSED, VERSION
from controller.journal import Entry
from controller.round_money import net_of_refunds, returned

log = logging.getLogger(__name__)


#: rounds whose last record is kept (a correction replaces its round's counted record); the
#: table corrects only its last 1000 rounds
ROUNDS_KEPT = 2000


class RoundTotals(BaseModel):
    """The part of a round record the ledger needs; money in integer minor units, strictly."""

    model_config = ConfigDict(extra="ignore", strict=True)

    status: Literal["settled", "void"]
    stake_total: int = Field(ge=0)
    payout_total: int = Field(ge=0)
    #: what a void returned (controller/round_money.py), read from the record's ``outcome.void``
    returned: int = Field(0, ge=0)

    def counted(self) -> tuple[int, int]:
        """(drop, paid), as controller/round_money.py counts a round."""
        return net_of_refunds(self.stake_total, self.payout_total, self.returned)


@dataclass(frozen=True, slots=True)
class LedgerTotals:
    rounds_settled: int = 0
    rounds_void: int = 0
    stake_total: int = 0
    payout_total: int = 0
    void_stake_total: int = 0
    seq: int = 0  # the journal entry these totals run through
    round: str | None = None  # the last round counted

    def message(self, table: str, ts: str) -> dict[str, Any]:
        body = asdict(self)
        round_id = body.pop("round")
        return {"v": VERSION, "table": table, "round": round_id, "ts": ts, **body}


class Ledger:
    """Fold entries in journal order with ``apply``; read ``totals``."""

    def __init__(self) -> None:
        self._by_round: dict[str, RoundTotals] = {}
        self._totals = LedgerTotals()
        self.rejected = 0  # round_closed entries whose record could not be counted

    @property
    def totals(self) -> LedgerTotals:
        return self._totals

    def apply(self, entry: Entry) -> bool:
        """True when the totals changed."""
        if entry.kind != ROUND_CLOSED:
            return False
        try:
            record = RoundTotals.model_validate({**entry.payload, "returned": returned(entry.payload)})
        except ValidationError as exc:
            self.rejected += 1
            log.error("round_closed seq %d not counted in the ledger: %s", entry.seq, exc.errors()[:3])
            return False
        round_id = str(entry.payload.get("round") or entry.round_id or f"seq:{entry.seq}")
        t = self._totals
        settled, void, refunds = t.rounds_settled, t.rounds_void, t.void_stake_total
        stake, payout = t.stake_total, t.payout_total
        previous = self._by_round.get(round_id)
        for sign, rec in ((-1, previous), (1, record)):
            if rec is None:
                continue
            counted_stake, counted_payout = rec.counted()
            stake += sign * counted_stake
            payout += sign * counted_payout
            if rec.status == "settled":
                settled += sign
            else:
                void += sign
                refunds += sign * rec.returned
        self._by_round[round_id] = record
        while len(self._by_round) > ROUNDS_KEPT:  # corrections reach only recent rounds
            del self._by_round[next(iter(self._by_round))]
        self._totals = LedgerTotals(settled, void, stake, payout, refunds, entry.seq, round_id)
        return True

    def state(self) -> dict[str, Any]:
        """Totals and the recent rounds, as JSON, for ``from_state`` (saved beside the feed cursor)."""
        return {"totals": asdict(self._totals),
                "rounds": {r: [t.status, t.stake_total, t.payout_total, t.returned] for r, t in self._by_round.items()}}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Ledger:
        ledger = cls()
        ledger._totals = LedgerTotals(**state["totals"])
        for round_id, (status, stake, payout, *refunds) in state["rounds"].items():
            # a state saved before it kept what a void returned: a void then returned every stake
            returned = refunds[0] if refunds else (stake if status == "void" else 0)
            ledger._by_round[round_id] = RoundTotals(status=status, stake_total=stake, payout_total=payout,
                                                     returned=returned)
        return ledger
