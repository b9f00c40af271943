"""Hypothesis fuzzing of every parser that reads outside input: SS2 wheel lines, CSP/1 shoe
frames, spot presses, pit commands, console requests (the command schema) and dealer lines.
Each may refuse an input only with its own error type; nothing else may escape."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.parsers import PARSERS, Parser, mutate

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(parser: Parser, raw: bytes) -> None:
    try:
        parser.parse(raw)
    except parser.allowed:
        pass


@pytest.mark.parametrize("parser", PARSERS, ids=lambda p: p.name)
@FUZZ
@given(raw=st.binary(max_size=600))
def test_random_bytes_never_escape(parser: Parser, raw: bytes) -> None:
    check(parser, raw)


@pytest.mark.parametrize("parser", PARSERS, ids=lambda p: p.name)
@FUZZ
@given(data=st.data(), rng_seed=st.integers(0, 2**32 - 1))
def test_mutated_valid_inputs_never_escape(parser: Parser, data: st.DataObject, rng_seed: int) -> None:
    seed = data.draw(st.sampled_from(parser.seeds))
    check(parser, mutate(random.Random(rng_seed), seed))


@FUZZ
@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                      max_size=4), max_leaves=20),
       name=st.sampled_from(["bet", "decide", "correct", "misdeal", "key_result", "sign_in", "exchange", "x"]))
def test_any_json_value_as_any_command_argument_is_refused_cleanly(value: object, name: str) -> None:
    """The command schema (console requests and dealer lines alike) over arbitrary JSON values."""
    from controller.commands.parse import parse_order
    from controller.table.inputs import InputRefused

    for key in ("box", "amount", "kind", "player", "action", "hand", "changes", "target", "number", "dealer", "card"):
        try:
            checked = parse_order({"command": name, "box": 1, key: value}).journal_form()
        except InputRefused:
            continue
        assert all(not isinstance(v, float) for v in checked.values())
