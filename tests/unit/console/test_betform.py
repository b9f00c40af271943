"""The bet form offers the rules' bet kinds only (each game's view says which), and chips cut
from the table's limits."""

from __future__ import annotations

from controller.console.betform import MOST_CHIPS, chips
from controller.games.baccarat import BaccaratRules
from controller.games.base import Limit
from controller.games.blackjack.rules import BlackjackRules
from controller.games.roulette.rules import RouletteRules
from controller.table.registry import adapter_for


def offered_kinds(rules: object, game: str) -> list[str]:
    adapter = adapter_for(game)
    return adapter.view.bet_kinds(rules, adapter.bet_kind)


def test_blackjack_offers_its_side_bets_only_not_every_kind_in_the_limits() -> None:
    plain = BlackjackRules()
    assert "perfect_pairs" in plain.limits  # the default limits name every side bet...
    assert offered_kinds(plain, "blackjack") == ["main"]  # ...which a table without side bets does not offer
    offered = BlackjackRules(side_bets=("21+3", "perfect_pairs"), bet_behind=True)
    assert offered_kinds(offered, "blackjack") == ["main", "behind", "behind_stay", "21+3", "perfect_pairs"]


def test_a_game_without_a_side_bet_list_offers_its_limits_kinds_first_kind_first() -> None:
    kinds = offered_kinds(BaccaratRules(), "baccarat")
    assert kinds[0] == "banker" and set(kinds) == set(BaccaratRules().limits)


def test_roulette_offers_no_bet_form_its_layout_keys_the_bets() -> None:
    assert offered_kinds(RouletteRules(), "roulette") == []


def test_chips_come_from_the_limits() -> None:
    limits = {"main": Limit(min=500, max=500_000), "perfect_pairs": Limit(min=100, max=50_000)}
    main = chips(limits, ["main"], 2)
    assert main[0] == 500 and main[-1] <= 500_000 and len(main) == MOST_CHIPS
    assert main == sorted(set(main))
    assert chips(limits, ["main", "perfect_pairs"], 2)[0] == 100  # the side bet's 1.00 is a chip
    assert chips({"main": Limit(min=300, max=2000)}, ["main"], 2) == [300, 500, 1000]  # an odd minimum
    assert chips({}, ["main"], 0)[0] == 1 and chips({}, ["main"], 0)[-1] == 500  # no limit: 1 to 500 units
