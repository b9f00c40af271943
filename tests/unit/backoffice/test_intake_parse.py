"""The back office's parser at its edge: bounded nesting, JSON's own numbers only, amounts no
larger than a table can produce, and nothing but rows out of it whatever comes in."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.backoffice.records import LEAVES, Rejected, RoundRow, parse
from controller.records.limits import MAX_AMOUNT, MAX_BETS, MAX_BOX
from tests.fuzz.parsers import BACKOFFICE_FEED_SEEDS

ROUND = json.loads(BACKOFFICE_FEED_SEEDS[0])


def round_with(stake: int, payout: int, bets: int = 1) -> bytes:
    one = ROUND["bets"][0]
    body = {**ROUND, "bets": [{**one, "box": 1 + n % MAX_BOX, "stake": stake, "payout": payout} for n in range(bets)],
            "stake_total": stake * bets, "payout_total": payout * bets}
    return json.dumps(body).encode()


def test_nesting_past_the_bound_is_rejected_before_the_parser_sees_it() -> None:
    [row] = parse("croupier/bj1/round", b'{"outcome":' + b"[" * 200_000 + b"]" * 200_000 + b"}")
    assert isinstance(row, Rejected) and "nested 200001 deep" in row.reason


def test_nan_and_infinity_are_no_json_numbers() -> None:
    for text in (b'{"x": NaN}', b'{"x": [1e999]}', b'{"x": -Infinity}'):
        [row] = parse("croupier/bj1/round", text)
        assert isinstance(row, Rejected) and "NaN and Infinity" in row.reason


def test_a_bet_may_carry_the_command_models_cap_and_not_a_unit_more() -> None:
    [kept] = parse("croupier/bj1/round", round_with(MAX_AMOUNT, MAX_AMOUNT, bets=3))
    assert isinstance(kept, RoundRow) and kept.record.stake_total == 3 * MAX_AMOUNT
    for stake, payout in ((MAX_AMOUNT + 1, 0), (1, MAX_AMOUNT + 1), (10**15, 10**15)):
        [row] = parse("croupier/bj1/round", round_with(stake, payout))
        assert isinstance(row, Rejected) and "less than or equal to 1000000000000" in row.reason


def test_a_round_has_a_bounded_number_of_bets() -> None:
    [row] = parse("croupier/bj1/round", round_with(1, 0, bets=MAX_BETS + 1))
    assert isinstance(row, Rejected) and "bets" in row.reason


def test_correction_amounts_are_bounded_too() -> None:
    corrected = json.loads(BACKOFFICE_FEED_SEEDS[1])
    body = {**corrected, "corrections": [{**corrected["corrections"][0], "payout_total_after": 10**20}]}
    [row] = parse("croupier/bj1/round", json.dumps(body).encode())
    assert isinstance(row, Rejected) and "corrections.0.payout_total_after" in row.reason


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(seed=st.sampled_from(BACKOFFICE_FEED_SEEDS), key=st.text(max_size=12), value=JSON,
       leaf=st.sampled_from(LEAVES))
def test_any_json_value_in_any_field_gives_rows_and_never_raises(seed: bytes, key: str, value: Any, leaf: str) -> None:
    body = json.loads(seed)
    for field in [*list(body), key]:
        rows = parse(f"croupier/bj1/{leaf}", json.dumps({**body, field: value}).encode())
        assert isinstance(rows, list)
