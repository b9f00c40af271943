"""The pace target a table's state carries, read from the feed (the contract's ``pace``): a state
whose pace breaks the contract is kept as rejected, with why."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.backoffice.records import Rejected, TableRow, parse
from tests.unit.pit import feed_messages


def state(**extra: Any) -> bytes:
    return json.dumps(feed_messages.state("bj1", game="blackjack", preset="ru6", **extra)).encode()


@pytest.mark.parametrize(("pace", "target"), [
    ({"rounds_per_hour": 52.0, "target": 60, "window_s": 900}, 60),
    ({"rounds_per_hour": None, "target": None, "window_s": 900}, None), (None, None),
])
def test_a_states_pace_target_is_kept(pace: Any, target: int | None) -> None:
    [row] = parse("croupier/bj1/state", state(pace=pace))
    assert isinstance(row, TableRow) and row.pace_target == target and row.game == "blackjack"


@pytest.mark.parametrize("pace", [{"target": "60", "rounds_per_hour": None, "window_s": 900},
                                  {"target": True, "rounds_per_hour": None, "window_s": 900},
                                  {"target": 0, "rounds_per_hour": None, "window_s": 900}, "fast"])
def test_a_state_whose_pace_breaks_the_contract_is_rejected(pace: Any) -> None:
    [row] = parse("croupier/bj1/state", state(pace=pace))
    assert isinstance(row, Rejected) and "pace" in row.reason
