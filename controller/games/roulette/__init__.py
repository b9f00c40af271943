"""Roulette (docs/rules.md §4): layout, bets, race track, rules and the spin engine."""

from controller.games.roulette.engine import Phase, ResultRefused, RouletteRound, SetMultipliers
from controller.games.roulette.rules import PRESETS, RouletteRules, roulette_rules

__all__ = [
    "PRESETS",
    "Phase",
    "ResultRefused",
    "RouletteRound",
    "RouletteRules",
    "SetMultipliers",
    "roulette_rules",
]
