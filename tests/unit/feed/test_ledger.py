"""The ledger folds closed rounds into running totals (integer minor units)."""

from __future__ import annotations

from typing import Any

from controller.feed import Ledger, LedgerTotals
from controller.journal import Entry


def closed(seq: int, rid: str, status: str, stake: int, payout: int, **extra: Any) -> Entry:
    payload = {"v": 1, "round": rid, "status": status, "stake_total": stake, "payout_total": payout, **extra}
    return Entry(seq, "2026-11-29T16:00:00.000Z", rid, "round_closed", "table", payload)


def test_settled_and_void_rounds_are_counted_apart() -> None:
    ledger = Ledger()
    assert ledger.apply(closed(3, "r1", "settled", 1000, 2500))
    assert ledger.apply(closed(7, "r2", "void", 400, 400))
    assert ledger.apply(closed(9, "r3", "settled", 600, 0))
    assert ledger.totals == LedgerTotals(rounds_settled=2, rounds_void=1, stake_total=1600, payout_total=2500,
                                         void_stake_total=400, seq=9, round="r3")


def test_other_kinds_leave_it_alone() -> None:
    ledger = Ledger()
    assert not ledger.apply(Entry(1, "t", "r1", "card", "shoe", {"stake_total": 5, "status": "settled"}))
    assert ledger.totals == LedgerTotals()


def test_a_second_record_for_a_round_replaces_the_first() -> None:
    ledger = Ledger()
    ledger.apply(closed(3, "r1", "settled", 1000, 2000))
    ledger.apply(closed(4, "r2", "settled", 500, 0))
    ledger.apply(closed(9, "r1", "settled", 1000, 2500))  # a correction to r1's payout
    ledger.apply(closed(12, "r2", "void", 500, 500))  # r2 voided after the fact
    t = ledger.totals
    totals = (t.rounds_settled, t.rounds_void, t.stake_total, t.payout_total, t.void_stake_total)
    assert totals == (1, 1, 1000, 2500, 500)


def test_a_record_it_cannot_count_is_rejected_not_guessed() -> None:
    ledger = Ledger()
    for bad in (
        closed(1, "r1", "settled", 10.5, 0),  # type: ignore[arg-type]  # not minor units
        closed(2, "r2", "settled", "100", 0),  # type: ignore[arg-type]
        closed(3, "r3", "settled", True, 0),  # type: ignore[arg-type]
        closed(4, "r4", "pending", 100, 0),
        closed(5, "r5", "settled", -100, 0),
        Entry(6, "t", "r6", "round_closed", "table", {"status": "settled"}),
    ):
        assert not ledger.apply(bad)
    assert ledger.rejected == 6 and ledger.totals == LedgerTotals()


def test_the_message_carries_the_envelope() -> None:
    ledger = Ledger()
    ledger.apply(closed(3, "r1", "settled", 1000, 2500))
    assert ledger.totals.message("bj1", "2026-11-29T16:02:00.000Z") == {
        "v": 1, "table": "bj1", "round": "r1", "ts": "2026-11-29T16:02:00.000Z", "rounds_settled": 1,
        "rounds_void": 0, "stake_total": 1000, "payout_total": 2500, "void_stake_total": 0, "seq": 3,
    }
