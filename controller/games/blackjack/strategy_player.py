"""A player who follows basic strategy: reads what the engine expects, answers with a Decide.

Shared by the house-edge runner, the benchmark and the table's simulated players, so every
strategy-driven round goes through the same few lines.
"""

from __future__ import annotations

from typing import Protocol

from controller.games.base import Decide, Expect
from controller.games.blackjack.rules import BlackjackRules
from controller.games.blackjack.strategy import BasicStrategy


class RoundView(Protocol):
    """What the player needs to see of a round: its own cards and the dealer's up card."""

    def hand_cards(self, box: int, hand: int) -> list[str] | tuple[str, ...]: ...

    def dealer_cards(self) -> list[str] | tuple[str, ...]: ...


class StrategyPlayer:
    """Answers decision prompts with the basic-strategy choice among the offered options."""

    __slots__ = ("player", "strategy")

    def __init__(self, strategy: BasicStrategy, player: str = "") -> None:
        self.strategy = strategy
        self.player = player

    @classmethod
    def for_rules(cls, rules: BlackjackRules, player: str = "") -> StrategyPlayer:
        return cls(BasicStrategy.for_rules(rules), player)

    def decision(self, round_: RoundView, expect: Expect) -> Decide:
        """The decision to make for a DECISION prompt ``expect`` of ``round_``."""
        box = expect.box if expect.box is not None else 1
        hand = expect.hand if expect.hand is not None else 1
        return Decide(box=box, action=self.action(round_, expect), hand=hand, player=self.player)

    def action(self, round_: RoundView, expect: Expect) -> str:
        """The action ``decision`` would take, without building the Decide (the house-edge
        runner passes it straight to ``BlackjackRound.decide``)."""
        box = expect.box if expect.box is not None else 1
        hand = expect.hand if expect.hand is not None else 1
        return self.strategy.decide(round_.hand_cards(box, hand), round_.dealer_cards()[0], expect.options)
