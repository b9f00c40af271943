"""Russian five-card poker (docs/rules.md §5): the rule set (``rules``) and the round engine (``round``)."""

from controller.games.russian_poker.round import DeclareMisdeal, Exchange, Phase, RussianPokerRound, Status
from controller.games.russian_poker.rules import PRESETS, RussianPokerRules, russian_poker_rules

__all__ = [
    "PRESETS",
    "DeclareMisdeal",
    "Exchange",
    "Phase",
    "RussianPokerRound",
    "RussianPokerRules",
    "Status",
    "russian_poker_rules",
]
