"""The pace target a table's state carries, read from the feed (the contract's ``pace``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.backoffice.records import TableRow, parse


def state(**extra: Any) -> bytes:
    return json.dumps({"v": 1, "table": "bj1", "round": None, "ts": "2026-12-01T10:00:00.000Z", "game": "blackjack",
                       "preset": "ru6", **extra}).encode()


@pytest.mark.parametrize(("pace", "target"), [
    ({"rounds_per_hour": 52.0, "target": 60, "window_s": 900}, 60),
    ({"rounds_per_hour": None, "target": None, "window_s": 900}, None),
    ({"target": "60"}, None), ({"target": True}, None), ({"target": 0}, None), ("fast", None), (None, None),
])
def test_a_states_pace_target_is_kept_only_when_it_is_a_positive_integer(pace: Any, target: int | None) -> None:
    [row] = parse("croupier/bj1/state", state(pace=pace))
    assert isinstance(row, TableRow) and row.pace_target == target and row.game == "blackjack"
