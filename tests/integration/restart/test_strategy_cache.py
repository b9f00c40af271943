"""The simulated players' strategy is read back from its cache: same decisions, no 2 s at start."""

from __future__ import annotations

from controller.config import load
from controller.games.blackjack import strategy as strategy_module
from controller.games.blackjack.strategy import BasicStrategy
from controller.people import strategy_cache

from .conftest import CONFIG


def test_cached_strategy_decides_as_the_computed_one_and_a_bad_file_is_recomputed(tmp_path):
    rules = load(CONFIG).game_rules()
    strategy_module._CACHE.clear()
    assert strategy_cache.warm(rules, tmp_path) is False  # computed, and saved
    computed = BasicStrategy.for_rules(rules)
    strategy_module._CACHE.clear()
    assert strategy_cache.warm(rules, tmp_path) is True
    cached = BasicStrategy.for_rules(rules)
    assert cached is not computed and cached.decision_table() == computed.decision_table()
    for cards, up, options in [(["TS", "6H"], "TD", ("hit", "stand", "surrender")), (["8S", "8H"], "6D",
                               ("hit", "stand", "double", "split")), (["AS", "7H"], "9C", ("hit", "stand", "double"))]:
        assert cached.decide(cards, up, options) == computed.decide(cards, up, options)
    path = strategy_cache.cache_path(rules, tmp_path)
    path.write_text("[[1, 2]]")
    strategy_module._CACHE.clear()
    assert strategy_cache.warm(rules, tmp_path) is False
    assert strategy_cache.warm(rules, tmp_path) is True
