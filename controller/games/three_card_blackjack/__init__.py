"""Three Card Blackjack (docs/rules.md §2): rule set, hand values, and the round engine."""

from controller.games.three_card_blackjack.hand import BLACKJACK, ace_plus_line, hand_value, resolve
from controller.games.three_card_blackjack.round import Phase, ThreeCardBlackjackRound
from controller.games.three_card_blackjack.rules import (
    ACE_PLUS_LINES,
    PRESETS,
    ThreeCardBlackjackRules,
    three_card_blackjack_rules,
)

__all__ = [
    "ACE_PLUS_LINES",
    "BLACKJACK",
    "PRESETS",
    "Phase",
    "ThreeCardBlackjackRound",
    "ThreeCardBlackjackRules",
    "ace_plus_line",
    "hand_value",
    "resolve",
    "three_card_blackjack_rules",
]
