"""The studio's messages at the table's edge: read into their model or refused with a sentence,
never a traceback; bounded before the parser; fields the studio adds are left out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.commands.studio import MAX_PAYLOAD, Seal, Settled, parse_studio, read_studio
from controller.jsonbound import InputRefused

SEAL = {"v": 1, "id": "0b6c", "type": "seal", "round": "rl-000001", "count": 2, "stake": 1500,
        "kinds": {"red": 1000, "straight:17": 500}, "players": 2, "digest": "ab" * 32}
SETTLED = {"v": 1, "id": "9f1e", "type": "settled", "round": "rl-000001", "count": 2, "stake": 1500, "paid": 2000,
           "refunded": 0}


def test_the_contracts_messages_are_read_and_added_fields_left_out() -> None:
    seal = read_studio(json.dumps({**SEAL, "studio_build": "2.1"}).encode())
    assert isinstance(seal, Seal) and seal.kinds["straight:17"] == 500
    assert "studio_build" not in seal.journal_form() and parse_studio(seal.journal_form()) == seal
    settled = read_studio(json.dumps(SETTLED).encode())
    assert isinstance(settled, Settled) and (settled.drop, settled.win) == (1500, -500)


@pytest.mark.parametrize(("change", "said"), [
    ({"type": "bet"}, "unknown type"),
    ({"stake": 15.0}, "stake"),
    ({"count": True}, "count"),
    ({"digest": "AB" * 32}, "digest"),
    ({"round": ""}, "round"),
    ({"v": 2}, "v"),
    ({"kinds": {"red": -5}}, "kinds"),
])
def test_a_wrong_message_is_refused_saying_what(change: dict[str, Any], said: str) -> None:
    with pytest.raises(InputRefused, match=said):
        read_studio(json.dumps({**SEAL, **change}).encode())


def test_a_seal_of_side_bets_on_boxes_is_read() -> None:
    """A card game's remote bets are side bets on a box (``21+3@3``): the table takes their seal."""
    seal = read_studio(json.dumps({**SEAL, "kinds": {"21+3@3": 500, "ace_plus@1": 500}}).encode())
    assert isinstance(seal, Seal) and seal.kinds == {"21+3@3": 500, "ace_plus@1": 500}


def test_totals_that_return_more_than_was_staked_are_refused() -> None:
    with pytest.raises(InputRefused, match="more than the stake"):
        read_studio(json.dumps({**SETTLED, "refunded": 1501}).encode())


def test_size_and_depth_are_bounded_before_the_parser() -> None:
    with pytest.raises(InputRefused):
        read_studio(b'{"x": "' + b"a" * MAX_PAYLOAD + b'"}')
    with pytest.raises(InputRefused):
        read_studio(json.dumps({**SEAL, "kinds": {"red": {"deep": {"deeper": 1}}}}).encode())


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(max_size=200), JSON.map(lambda v: json.dumps(v).encode()),
                      st.dictionaries(st.sampled_from(sorted({*SEAL, *SETTLED})), JSON, max_size=10)
                      .map(lambda d: json.dumps({**d, "type": d.get("type", "seal")}).encode())))
def test_anything_is_a_model_or_a_refusal(data: bytes) -> None:
    try:
        message = read_studio(data)
    except InputRefused as refused:
        assert refused.message
        return
    assert parse_studio(message.journal_form()) == message  # what is journaled always replays
