"""A command payload read once is not validated again: the same payload (same names, values
and value types) gives the very model it gave, and any other payload, even one Python holds
equal (``1``, ``1.0`` and ``True`` are equal and hash alike), is read on its own, so every
payload gets the answer a first reading gives it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.commands.models import DEALER, MODELS, PIT
from controller.commands.parse import _read, parse_order
from controller.jsonbound import InputRefused

FIELDS = sorted({name for model in MODELS for name in model.model_fields if name != "command"})
#: values Python holds equal to one another across types, and a few others
VALUES = st.sampled_from([1, 1.0, True, 0, 0.0, False, 3, 3.0, 1000, 1000.0, None, "stand", "P1", "QH", "",
                          [1], {"a": 1}])
NAMES = st.sampled_from(["bet", "decide", "clear_bets", "key_card", "key_result", "void_round", "settle",
                         "release_hold", "close_after_round", "nothing"])


def answer(payload: dict[str, Any], giver: str, read: Any) -> Any:
    try:
        return read(payload, giver)
    except InputRefused as refused:
        return ("refused", refused.code, refused.message)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, giver=st.sampled_from([DEALER, PIT]),
       args=st.lists(st.tuples(st.sampled_from(FIELDS), VALUES, VALUES), max_size=4))
def test_a_payload_gets_the_answer_of_a_first_reading_whatever_was_read_before(
        name: str, giver: str, args: list[tuple[str, Any, Any]]) -> None:
    before = {"command": name, **{k: a for k, a, _ in args}}
    now = {"command": name, **{k: b for k, _, b in args}}
    answer(before, giver, parse_order)  # read first: an equal payload of other types must not answer for it
    assert answer(now, giver, parse_order) == answer(now, giver, _read)
    assert answer(now, giver, parse_order) == answer(now, giver, _read)  # read again


def test_a_payload_read_before_gives_the_same_model() -> None:
    payload = {"command": "decide", "box": 3, "action": "stand", "player": "P3"}
    first = parse_order(payload)
    assert parse_order(dict(payload)) is first
    with pytest.raises(InputRefused):  # equal to the box read before, but no int: the strict model refuses it
        parse_order({**payload, "box": 3.0})
