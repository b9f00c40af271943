"""What the player's page is told to draw at a table (``GET /play/<table>/table.json``,
controller/studio/page/): the roulette layout the console draws, baccarat's spots, a blackjack
table's side bets and a seated box's own bets, chips from the table's limits."""

from __future__ import annotations

from controller.games.base import Limit, chip_tray
from controller.games.roulette.view import layout_offer
from controller.studio.config import TableSection
from controller.studio.page import describe
from controller.studio.rules import TableRules


def rules(game: str, preset: str, **limits: dict[str, int]) -> TableRules:
    return TableRules(TableSection.model_validate({"game": game, "preset": preset, "limits": limits}))


def test_roulette_is_the_consoles_layout_offer() -> None:
    table = rules("roulette", "european")
    described = describe("rl-eu", table)
    assert described["layout"] == layout_offer(table.rules)  # type: ignore[arg-type]
    assert described["chips"] == [100, 500, 1000, 2500, 10000, 50000]
    assert "spots" not in described and "side_bets" not in described


def test_baccarat_has_its_three_spots() -> None:
    described = describe("bc-1", rules("baccarat", "standard"))
    assert described["spots"] == ["player", "banker", "tie"]
    assert described["game"] == "baccarat" and described["chips"][0] == 100


def test_blackjack_has_the_deal_side_bets_and_a_seated_boxs_own() -> None:
    described = describe("bj-1", rules("blackjack", "ru6"))
    assert set(described["side_bets"]) <= {"perfect_pairs", "21+3", "suit_em_up", "lucky_lucky", "hot_3"}
    assert described["side_bets"] and "main" in described["seat_bets"]
    assert not any(k.startswith("behind") or k in described["side_bets"] for k in described["seat_bets"])
    assert described["boxes"] == 7


def test_chips_are_steps_of_the_smallest_minimum_within_the_largest_maximum() -> None:
    assert chip_tray({"red": Limit(min=500, max=20000), "straight": Limit(min=200, max=5000)}) == [200, 1000, 2000, 5000, 20000]
    assert chip_tray({}) == [100, 500, 1000, 2500, 10000, 50000]
