"""Adjustments after a correction, the retry backoff, the refusal reasons, the sim's faults and
the consumer's dedup and gap detection."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.studio.operators.adjust import adjustments
from controller.studio.operators.interface import WalletResult, WalletStatus
from controller.studio.operators.retry import RetryPolicy
from controller.studio.operators.sim.consumer import FeedTally
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.simulation.operator import FAULTS, parse_faults

keys = st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["p1", "p2", "p3"]), st.just("EUR"))
payouts = st.dictionaries(keys, st.integers(0, 10**9), max_size=6)


@given(payouts, payouts)
def test_adjustments_turn_what_was_paid_into_what_is_owed(before: dict, after: dict) -> None:  # type: ignore[type-arg]
    made = adjustments("r-1", 2, before, after)
    assert sum(a.amount for a in made) == sum(after.values()) - sum(before.values())
    assert all(a.amount != 0 for a in made)
    assert len({a.tx for a in made}) == len(made)  # one per player
    for a in made:
        assert a.amount == after.get((a.operator, a.player, a.currency), 0) - before.get((a.operator, a.player, a.currency), 0)
    assert [a.tx for a in adjustments("r-1", 2, before, after)] == [a.tx for a in made]  # asked again: the same ids


@given(st.integers(0, 10_000))
def test_backoff_doubles_up_to_its_cap(attempts: int) -> None:
    policy = RetryPolicy(base=timedelta(seconds=2), cap=timedelta(minutes=5))
    wait = policy.backoff(attempts)
    assert timedelta(seconds=2) <= wait <= timedelta(minutes=5)
    assert policy.backoff(attempts + 1) >= wait


def test_refusals_carry_the_players_reason() -> None:
    assert [WalletResult(s).refusal for s in WalletStatus] == [None, "funds", "operator_limit", "token_refused",
                                                                "wallet_unavailable"]


def test_an_unknown_fault_is_named() -> None:
    faults = Faults()
    faults.update({"delay_s": "1.5", "fail_500": 2, "away_s": 60, "contradict": "1"})
    assert (faults.delay_s, faults.fail_500, faults.away, faults.contradict) == (1.5, 2, True, True)
    faults.update({"contradict": "0"})
    assert faults.contradict is False
    with pytest.raises(ValueError, match="unknown fault 'slow'"):
        faults.update({"slow": 1})


def test_the_consumer_drops_repeats_and_reports_gaps() -> None:
    tally = FeedTally()
    tally.from_snapshot({"table": "t", "seq": 3})
    for seq in (2, 4, 5, 5, 7, 8):
        tally.take({"table": "t", "seq": seq})
    assert tally.taken == {"t": [4, 5, 7, 8]} and tally.duplicates == 2 and tally.gaps == [("t", 6, 7)]


def test_the_reference_operator_moves_nothing_for_a_debit_after_its_cancel() -> None:
    from controller.studio.operators.sim.store import SimStore

    store = SimStore()
    store.fund("p1", "EUR", 1_000)
    req = {"tx": "d1", "ref": "d1", "player": "p1", "currency": "EUR", "amount": 400}
    assert store.apply("cancel", {**req, "tx": "d1:cancel"})["balance"] == 1_000  # the debit never reached it
    assert store.apply("debit", req) == {"v": 1, "tx": "d1", "status": "retry", "balance": 1_000}
    assert store.balance("p1", "EUR") == 1_000


def move(store: SimStore, kind: str, tx: str, amount: int, ref: str | None = None) -> None:
    store.apply(kind, {"tx": tx, "ref": ref or tx, "player": "p1", "currency": "EUR", "amount": amount})


def test_the_operators_books_tell_a_debit_returned_twice_or_left_open() -> None:
    store = SimStore()
    store.fund("p1", "EUR", 10_000)
    move(store, "debit", "debit:a", 500)
    move(store, "debit", "debit:b", 500)
    move(store, "debit", "debit:c", 20_000)  # insufficient funds: nothing taken, nothing to return
    assert (store.open_debits(), store.returned_twice()) == (2, 0)
    move(store, "credit", "credit:r1:p1", 1000, ref="debit:a")
    move(store, "credit", "credit:r1:p1", 1000, ref="debit:a")  # asked again: applied once
    move(store, "cancel", "debit:b:cancel", 500, ref="debit:b")
    move(store, "cancel", "debit:c:cancel", 20_000, ref="debit:c")  # moves nothing
    assert (store.open_debits(), store.returned_twice()) == (0, 0)
    assert store.balance("p1", "EUR") == 10_500
    move(store, "credit", "credit:r1:p1:again", 1000, ref="debit:a")  # a second credit of the same debit
    move(store, "credit", "credit:r2:p1", 0, ref="debit:b")  # a cancelled debit credited too
    assert store.returned_twice() == 2


def test_the_simulations_operator_faults_are_named() -> None:
    assert parse_faults("all") == FAULTS and parse_faults("none") == ()
    assert parse_faults("slow, away,slow") == ("slow", "away")
    with pytest.raises(ValueError, match="unknown late"):
        parse_faults("slow,late")
