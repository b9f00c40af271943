"""The engine actions the table builds for bets and decisions are frozen values taken once per
distinct value (a table places and decides the same few round after round): the same arguments
give the very action, and arguments Python holds equal but of another type give their own."""

from __future__ import annotations

import dataclasses

import pytest

from controller.games.base import Decide, PlaceBet, decide, place_bet


def test_a_bet_and_a_decision_are_one_value_per_distinct_value() -> None:
    bet = place_bet(3, "main", 1000, "P3")
    assert bet == PlaceBet(3, "main", 1000, "P3") and place_bet(3, "main", 1000, "P3") is bet
    assert decide(2, "stand", 1, "", None) is decide(2, "stand", 1, "", None) == Decide(2, "stand")
    assert type(place_bet(True, "main", 1000, "P3").box) is bool  # never the box-1 bet read before
    assert type(place_bet(1, "main", 1000, "P3").box) is int
    with pytest.raises(dataclasses.FrozenInstanceError):  # shared, so it must not change
        bet.amount = 1  # type: ignore[misc]
