"""Catch a Wave (docs/rules.md §3): rule set, the round engine and the published seed strategy."""

from controller.games.catch_a_wave.round import MAIN, CatchAWaveRound, Phase
from controller.games.catch_a_wave.rules import HIGHER, LOWER, PRESETS, STAND, CatchAWaveRules, catch_a_wave_rules
from controller.games.catch_a_wave.strategy import SEED_TABLE, SeedStrategy, parse_range

__all__ = [
    "HIGHER",
    "LOWER",
    "MAIN",
    "PRESETS",
    "SEED_TABLE",
    "STAND",
    "CatchAWaveRound",
    "CatchAWaveRules",
    "Phase",
    "SeedStrategy",
    "catch_a_wave_rules",
    "parse_range",
]
