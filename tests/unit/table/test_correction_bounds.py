"""What a bet can return at a table, as each game's own rules say: the bound of a corrected
payout (``GameAdapter.most_returned``), worked by hand per bet kind."""

from __future__ import annotations

import pytest

from controller.games.baccarat import baccarat_rules
from controller.games.blackjack.rules import blackjack_rules
from controller.games.catch_a_wave.rules import catch_a_wave_rules
from controller.games.roulette.rules import roulette_rules
from controller.games.russian_poker.rules import russian_poker_rules
from controller.games.three_card_blackjack.rules import three_card_blackjack_rules
from controller.table.registry import adapter_for

ROULETTE = adapter_for("roulette")
BLACKJACK = adapter_for("blackjack")


@pytest.mark.parametrize(("kind", "stake", "most"), [
    ("straight:17", 500, 500 * 36),  # 35:1: stake and 35 times it
    ("red", 500, 1000),  # 1:1
    ("dozen:2", 300, 900),  # 2:1
    ("corner:1-2-4-5", 100, 900),  # 8:1
])
def test_roulette_european(kind: str, stake: int, most: int) -> None:
    assert ROULETTE.most_returned(roulette_rules("european"), kind, stake) == most


def test_a_lightning_straight_is_bounded_by_the_highest_multiplier() -> None:
    # lightning: a straight pays 29:1, or a drawn multiplier up to 500x: 100 returns at most 100 + 500 * 100
    assert ROULETTE.most_returned(roulette_rules("lightning"), "straight:17", 100) == 100 + 500 * 100
    assert ROULETTE.most_returned(roulette_rules("lightning"), "red", 100) == 200


def test_a_kind_the_layout_does_not_know_has_no_bound() -> None:
    assert ROULETTE.most_returned(roulette_rules("european"), "straight:00", 100) is None
    assert BLACKJACK.most_returned(blackjack_rules("ru6"), "behind_share", 0) is None


@pytest.mark.parametrize(("preset", "overrides", "kind", "stake", "most"), [
    ("ru6", {}, "main", 1000, 2500),  # a blackjack 3:2: 1000 + 1500
    ("ru6", {}, "main", 2000, 5000),  # a doubled hand's stake is 2000: the bound is on it
    ("ru6", {"blackjack_pays": "6:5"}, "main", 1000, 2200),
    ("ru6", {}, "insurance", 500, 1500),  # 2:1
    ("am8", {}, "21+3", 100, 100 + 100 * 100),  # suited trips 100:1, the top line
    ("am8", {"twenty_one_plus_three": {"straight": "10:1", "flush": "5:1"}}, "21+3", 100, 1100),
    ("am8", {}, "behind", 300, 750),
])
def test_blackjack(preset: str, overrides: dict[str, object], kind: str, stake: int, most: int) -> None:
    assert BLACKJACK.most_returned(blackjack_rules(preset, overrides), kind, stake) == most


@pytest.mark.parametrize(("game", "rules", "kind", "stake", "most"), [
    ("baccarat", baccarat_rules(), "player", 1000, 2000),  # 1:1
    ("baccarat", baccarat_rules(), "banker", 1000, 1950),  # 1:1 less 5 %
    ("baccarat", baccarat_rules(), "tie", 1000, 9000),  # 8:1
    ("catch-a-wave", catch_a_wave_rules(), "main", 1000, 7000),  # a caught wave, 6:1
    ("catch-a-wave", catch_a_wave_rules("standard", {"wave_calls": 10}), "main", 1000, 10_000),  # standing 9 calls ahead
    ("three-card-blackjack", three_card_blackjack_rules(), "ante", 1000, 2000),
    ("three-card-blackjack", three_card_blackjack_rules(), "play", 1000, 2000),
    ("three-card-blackjack", three_card_blackjack_rules(), "ace_plus", 100, 100 + 100 * 100),  # A-A-A 100:1
    ("russian-poker", russian_poker_rules(), "ante", 1000, 2000),
    ("russian-poker", russian_poker_rules(), "raise", 2000, 2000 + 2000 * 100),  # royal flush 100:1
    ("russian-poker", russian_poker_rules(), "bonus", 100, 100 + 100 * 1000),  # royal flush 1000:1
    ("russian-poker", russian_poker_rules(), "exchange", 1000, 0),  # the fee is the house's
])
def test_the_other_games(game: str, rules: object, kind: str, stake: int, most: int) -> None:
    assert adapter_for(game).most_returned(rules, kind, stake) == most  # type: ignore[arg-type]
    assert adapter_for(game).most_returned(rules, "no_such_bet", stake) is None  # type: ignore[arg-type]
