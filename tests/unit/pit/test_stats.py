"""Pit statistics worked by hand, and the chi-square approximation against printed tables."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.pit.stats import chi_square_critical, chi_square_p, expected_hold, shifts, summary, wheel_bias


def record(n: int, *, dealer: str | None = "ann", status: str = "settled", stake: int = 1000, payout: int = 0,
           minute: int | None = None, numbers: list[str] | None = None, kind: str = "main") -> dict[str, Any]:
    m = n if minute is None else minute
    rec: dict[str, Any] = {
        "round": f"t-{n:06d}", "status": status, "dealer": dealer,
        "opened": f"2026-12-01T10:{m:02d}:00.000Z", "closed": f"2026-12-01T10:{m:02d}:50.000Z",
        "stake_total": stake, "payout_total": payout,
        "bets": [{"box": 1, "hand": 1, "kind": kind, "player": "P", "stake": stake, "payout": payout}],
    }
    if numbers is not None:
        rec["outcome"] = {"wheel": "european", "numbers": numbers}
    return rec


def test_summary_drop_win_hold_and_pace_by_hand() -> None:
    # 3 settled rounds: stakes 1000+2000+1000, paid 0+3000+1000; a void round counts in neither.
    records = [record(0, stake=1000, payout=0), record(1, stake=2000, payout=3000),
               record(2, status="void", stake=500, payout=500), record(3, stake=1000, payout=1000)]
    s = summary(records)
    assert (s["rounds"], s["settled"], s["void"]) == (4, 3, 1)
    assert s["drop"] == 4000
    assert s["win"] == 0
    assert s["hold"] == 0.0
    # 4 rounds from 10:00:00 to 10:03:50 = 230 s -> 4 * 3600 / 230
    assert s["rounds_per_hour"] == pytest.approx(4 * 3600 / 230)


def test_summary_of_nothing_has_no_hold() -> None:
    s = summary([])
    assert s["hold"] is None and s["rounds_per_hour"] is None and s["drop"] == 0


def test_shifts_split_on_dealer_change_and_on_a_long_break() -> None:
    records = [record(0, dealer="ann"), record(1, dealer="ann"), record(2, dealer="bob"),
               record(50, dealer="bob", minute=50)]  # 47 minutes after bob's first round closed
    got = shifts(records)
    assert [(s["dealer"], s["rounds"]) for s in got] == [("ann", 2), ("bob", 1), ("bob", 1)]


def test_expected_hold_weights_each_stake_by_its_bet_edge() -> None:
    records = [record(0, stake=1000, kind="straight:17"), record(1, stake=3000, kind="red"),
               record(2, stake=5000, kind="unknown")]
    edges = {"straight": 0.027, "red": 0.0135}
    assert expected_hold(records, edges) == pytest.approx((1000 * 0.027 + 3000 * 0.0135) / 4000)


@pytest.mark.parametrize(("df", "alpha", "printed"), [(36, 0.01, 58.619), (36, 0.05, 50.998), (37, 0.01, 59.893),
                                                      (37, 0.05, 52.192), (10, 0.01, 23.209)])
def test_chi_square_critical_values_match_the_printed_table(df: int, alpha: float, printed: float) -> None:
    assert chi_square_critical(df, alpha) == pytest.approx(printed, rel=0.005)


@given(st.floats(min_value=0.0, max_value=400.0), st.floats(min_value=0.0, max_value=400.0))
def test_chi_square_tail_falls_as_the_statistic_grows(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert 0.0 <= chi_square_p(hi, 36) <= chi_square_p(lo, 36) <= 1.0


def test_a_fair_looking_wheel_is_not_flagged() -> None:
    numbers = [str(n) for n in range(37)] * 6  # 222 spins, every pocket 6 times: chi-square 0
    bias = wheel_bias([record(i, numbers=[n]) for i, n in enumerate(numbers)])
    assert bias is not None
    assert bias["balls"] == 222 and bias["chi_square"] == 0.0 and bias["enough"] and not bias["biased"]


def test_a_wheel_that_loves_17_is_flagged() -> None:
    # 222 spins: 17 comes up 40 times, the others share 182 (5 each, 2 pockets get one extra...)
    numbers = ["17"] * 40 + [str(n) for n in range(37) if n != 17] * 5 + ["1", "2"]
    bias = wheel_bias([record(i, numbers=[n]) for i, n in enumerate(numbers)])
    assert bias is not None and bias["balls"] == 222
    expected = 222 / 37  # 6.0
    # by hand: 17 -> (40-6)^2/6 = 192.67; 34 pockets at 5 -> 34 * 1/6; "1","2" at 6 -> 0
    assert bias["chi_square"] == pytest.approx((34**2) / expected + 34 * 1 / expected)
    assert bias["biased"]


def test_too_few_spins_never_flag() -> None:
    bias = wheel_bias([record(i, numbers=["17"]) for i in range(50)])
    assert bias is not None and not bias["enough"] and not bias["biased"]


def test_no_wheel_no_bias_section() -> None:
    assert wheel_bias([record(0)]) is None
