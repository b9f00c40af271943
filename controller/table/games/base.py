"""What the generic table needs from a game: the seam a new game plugs into.

The table core drives any engine through ``apply()`` / ``expects()`` / ``settlements`` /
``outcome()`` (controller/games/base.py). The few things that differ per game live in a
``GameAdapter``: building the rule set and a round, what the shoe holds, the wording of the
dealer prompt, what a void refunds, and how a simulated player answers a decision. Shoe games
(blackjack, three-card blackjack, Catch a Wave, baccarat, poker) set ``uses_shoe``; a wheel
game (roulette) will take ``WheelResult`` inputs through the same core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from controller.games.base import Decide, Expect, GameRules, Limit, Settlement


class Engine(Protocol):
    """The engine API of controller/games/base.py, as the table uses it."""

    settlements: list[Settlement]

    def apply(self, action: Any) -> None: ...

    def expects(self) -> Expect: ...

    def outcome(self) -> dict[str, Any]: ...


class GameAdapter(Protocol):
    game: str
    uses_shoe: bool

    def rules(self, preset: str | None, overrides: Mapping[str, Any], limits: Mapping[str, Limit]) -> GameRules:
        """The validated rule set (RulesConfigError naming the key)."""

    def rules_from_dump(self, data: Mapping[str, Any]) -> GameRules:
        """A rule set as journaled (``model_dump(mode="json")``) when the table started."""

    def new_round(self, rules: GameRules) -> Engine: ...

    def decks(self, rules: GameRules) -> int: ...

    def removed_ranks(self, rules: GameRules) -> str: ...

    def prompt(self, engine: Engine, expect: Expect) -> str:
        """The dealer's instruction for what the engine expects next."""

    def done_prompt(self, engine: Engine) -> str:
        """What the dealer is told once the engine settled everything (before closing)."""

    def open_bets(self, engine: Engine) -> list[Settlement]:
        """Every bet still on the layout, unsettled, as refunds (stake = payout) for a void."""

    def simulated_decision(self, engine: Engine, expect: Expect, rules: GameRules) -> Decide:
        """A simulated player's answer to a decision prompt (batch mode)."""
