"""The feed's ledger counts the studio's remote totals beside the felt's: each round's latest
totals once (the studio sends them again after a correction), across a saved state."""

from __future__ import annotations

from controller.feed import Ledger
from controller.journal import Entry
from controller.table import inputs


def remote(seq: int, rid: str, stake: int, paid: int, refunded: int = 0) -> Entry:
    payload = {"round": rid, "id": f"m{seq}", "count": 1, "stake": stake, "paid": paid, "refunded": refunded,
               "drop": stake - refunded, "win": stake - paid, "cause": seq - 1}
    return Entry(seq, "2026-12-05T10:00:00.000Z", rid, inputs.REMOTE_SETTLED, "table", payload)


def test_each_rounds_latest_remote_totals_count_once() -> None:
    ledger = Ledger()
    assert ledger.apply(remote(2, "r1", 1000, 0))
    assert ledger.apply(remote(4, "r2", 500, 500, refunded=500))
    assert ledger.apply(remote(6, "r1", 1000, 1800))  # re-settled after a correction: replaces, not adds
    totals = ledger.totals
    assert (totals.remote_rounds, totals.remote_stake_total, totals.remote_paid_total,
            totals.remote_refunded_total) == (2, 1500, 2300, 500)
    message = totals.message("rl", "2026-12-05T10:00:01.000Z")
    assert message["remote_stake_total"] == 1500 and message["stake_total"] == 0
    again = Ledger.from_state(ledger.state())
    again.apply(remote(8, "r2", 500, 0))
    assert (again.totals.remote_rounds, again.totals.remote_paid_total, again.totals.remote_refunded_total) == (2, 1800, 0)


def test_a_table_without_remote_bets_publishes_the_ledger_as_before() -> None:
    assert not any(k.startswith("remote") for k in Ledger().totals.message("bj", "2026-12-05T10:00:00.000Z"))


def test_totals_that_are_no_money_are_not_counted() -> None:
    ledger = Ledger()
    bad = remote(2, "r1", 1000, 0)
    bad.payload["paid"] = 1.5
    assert not ledger.apply(bad) and ledger.rejected == 1
