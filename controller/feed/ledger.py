"""Running totals since the journal began, derived from ``round_closed`` entries only.

Never stored: rebuilt by folding the journal on start, so it cannot drift from the rounds the
pit has seen. A later ``round_closed`` for a round already counted (a correction) replaces the
earlier record instead of counting the round twice. What a void round returned is a refund,
counted apart from the totals (the handle excludes it); the bets that stood in a void round
count in the totals like a settled round's (controller/round_money.py).

A remote table's ``remote_settled`` entries (what the studio paid on a round's remote bets,
docs/studio.md) are counted beside the felt's: each round's latest totals once, so the totals
the studio sends again after a correction replace the earlier ones.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from controller.feed.messages import REMOTE_SETTLED, ROUND_CLOSED, VERSION
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
    remote_rounds: int = 0
    remote_stake_total: int = 0
    remote_paid_total: int = 0
    remote_refunded_total: int = 0

    def message(self, table: str, ts: str) -> dict[str, Any]:
        body = asdict(self)
        round_id = body.pop("round")
        if not self.remote_rounds:  # a table without remote bets: the message as it always was
            body = {k: v for k, v in body.items() if not k.startswith("remote_")}
        return {"v": VERSION, "table": table, "round": round_id, "ts": ts, **body}


class Ledger:
    """Fold entries in journal order with ``apply``; read ``totals``."""

    def __init__(self) -> None:
        self._by_round: dict[str, RoundTotals] = {}
        #: round -> the studio's latest (stake, paid, refunded) of it
        self._remote: dict[str, tuple[int, int, int]] = {}
        self._totals = LedgerTotals()
        self.rejected = 0  # round_closed entries whose record could not be counted

    @property
    def totals(self) -> LedgerTotals:
        return self._totals

    def apply(self, entry: Entry) -> bool:
        """True when the totals changed."""
        if entry.kind == REMOTE_SETTLED:
            return self._remote_settled(entry)
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
        self._totals = replace(self._totals, rounds_settled=settled, rounds_void=void, stake_total=stake,
                               payout_total=payout, void_stake_total=refunds, seq=entry.seq, round=round_id)
        return True

    def _remote_settled(self, entry: Entry) -> bool:
        p = entry.payload
        figures = (p.get("stake"), p.get("paid"), p.get("refunded"))
        if not isinstance(p.get("round"), str) or not all(type(f) is int and f >= 0 for f in figures):
            self.rejected += 1
            log.error("remote_settled seq %d not counted in the ledger: %r", entry.seq, figures)
            return False
        t = self._totals
        new = p["round"] not in self._remote
        before = self._remote.pop(p["round"], (0, 0, 0))
        now = (int(p["stake"]), int(p["paid"]), int(p["refunded"]))
        self._remote[p["round"]] = now
        while len(self._remote) > ROUNDS_KEPT:
            del self._remote[next(iter(self._remote))]
        self._totals = replace(
            t, seq=entry.seq, remote_rounds=t.remote_rounds + new,
            remote_stake_total=t.remote_stake_total + now[0] - before[0],
            remote_paid_total=t.remote_paid_total + now[1] - before[1],
            remote_refunded_total=t.remote_refunded_total + now[2] - before[2])
        return True

    def state(self) -> dict[str, Any]:
        """Totals and the recent rounds, as JSON, for ``from_state`` (saved beside the feed cursor)."""
        return {"totals": asdict(self._totals),
                "rounds": {r: [t.status, t.stake_total, t.payout_total, t.returned] for r, t in self._by_round.items()},
                "remote": {r: list(figures) for r, figures in self._remote.items()}}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Ledger:
        ledger = cls()
        ledger._totals = LedgerTotals(**state["totals"])
        for round_id, (status, stake, payout, *refunds) in state["rounds"].items():
            # a state saved before it kept what a void returned: a void then returned every stake
            returned = refunds[0] if refunds else (stake if status == "void" else 0)
            ledger._by_round[round_id] = RoundTotals(status=status, stake_total=stake, payout_total=payout,
                                                     returned=returned)
        for round_id, (stake, paid, refunded) in state.get("remote", {}).items():
            ledger._remote[round_id] = (stake, paid, refunded)
        return ledger
