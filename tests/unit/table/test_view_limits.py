"""The pit's ``state`` shows the limits of the rules the table runs under now, each state its own copy."""

from __future__ import annotations

from controller.games.blackjack.rules import blackjack_rules
from controller.table.core import TableCore
from controller.table.registry import adapter_for


def test_the_state_shows_the_limits_of_the_rules_started_with_and_each_state_owns_its_copy() -> None:
    core = TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6")
    assert core.state()["limits"]["main"] == {"min": 100, "max": 500_000}
    first = core.state()
    first["limits"]["main"]["max"] = 1  # a reader changing its copy changes no other state
    assert core.state()["limits"]["main"] == {"min": 100, "max": 500_000}
    core.started_with(blackjack_rules("ru6", {"limits": {"main": {"min": 500, "max": 20_000}}}))
    assert core.state()["limits"]["main"] == {"min": 500, "max": 20_000}
