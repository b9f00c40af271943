"""``boards_for``: the boards of a table's records, picked by their game."""

from __future__ import annotations

import json
from typing import Any

from controller.boards import boards_for
from controller.games.baccarat import BaccaratHand, BaccaratOutcome
from controller.table.registry import boards_of


def coup(winner: str, shoe: str) -> dict[str, Any]:
    hand = BaccaratHand(cards=("2S", "3H"), total=5)
    outcome = BaccaratOutcome(player=hand, banker=hand, winner=winner, natural=False, void=None)
    return {"game": "baccarat", "status": "settled", "shoe": shoe, "outcome": outcome.record()}


def spin(number: str) -> dict[str, Any]:
    return {"game": "roulette", "status": "settled",
            "outcome": {"wheel": "european", "numbers": [number], "colours": ["red"], "multipliers": {}, "voids": []}}


def nulls(value: Any) -> bool:
    if isinstance(value, dict):
        return any(nulls(v) for v in value.values())
    if isinstance(value, list):
        return any(nulls(v) for v in value)
    return value is None


def test_baccarat_boards_read_the_newest_shoe_only():
    records = [coup("banker", "s1"), coup("banker", "s1"), coup("player", "s2"), coup("tie", "s2")]
    data = boards_for(records, boards_of)
    assert data["game"] == "baccarat"
    assert data["counts"]["hands"] == 2
    assert [c["winner"] for c in data["big_road"]["cells"]] == ["player"]
    assert data["big_road"]["cells"][0]["ties"] == 1
    assert json.loads(json.dumps(data)) == data and not nulls(data)


def test_roulette_boards_read_every_spin_of_the_game():
    data = boards_for([spin("5"), coup("banker", "s1"), spin("32"), spin("5")], boards_of)
    assert data["game"] == "roulette"
    assert [s["balls"][0]["number"] for s in data["last"]] == ["5", "32", "5"]
    assert not nulls(data)


def test_no_records_or_a_game_with_no_board_give_nothing():
    assert boards_for([], boards_of) == {}
    assert boards_for([{"game": "blackjack", "status": "settled", "outcome": {}}], boards_of) == {}
    assert boards_for([{"status": "settled"}], boards_of) == {}

