"""The back office's edge by bet kind (theoretical win) takes a game's side bets from what the
game declares (``Game.side_edges``), not from a line naming the game."""

from __future__ import annotations

import pytest

from controller.backoffice import edges
from controller.table import registry


def test_blackjack_declares_its_side_bets_beside_its_main_bet() -> None:
    found = edges.bet_edges("blackjack", "am8")
    assert {"main", "perfect_pairs", "21+3"} <= set(found)
    assert 0 < found["perfect_pairs"] < 0.2


def test_a_game_without_side_bets_has_only_its_own_figures() -> None:
    assert set(edges.bet_edges("baccarat", "standard")) == {"banker", "player", "tie"}


def test_side_bets_come_from_the_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registry whose blackjack declares no side bets gives the back office none."""
    declared = registry.GAMES["blackjack"]
    plain = type(declared)(declared.name, declared.engine, declared.rules_model, declared.adapter, declared.house_edge)
    monkeypatch.setattr(registry, "GAMES", {**registry.GAMES, "blackjack": plain})
    edges._side_bets.cache_clear()
    try:
        assert "perfect_pairs" not in edges.bet_edges("blackjack", "am8")
    finally:
        edges._side_bets.cache_clear()


def test_an_unknown_preset_gives_no_side_bet_edge() -> None:
    assert edges._side_bets("blackjack", "no-such-preset") == {}
