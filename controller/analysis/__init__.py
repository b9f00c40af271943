"""House-edge analysis per game: exact enumeration where it is cheap, Monte Carlo through the
same engines the table uses where it is not. ``HOUSE_EDGE`` maps the CLI's game names to modules
exposing ``house_edge(options: HouseEdgeOptions) -> dict``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HOUSE_EDGE: dict[str, str] = {
    "blackjack": "controller.analysis.blackjack",
    "three-card-blackjack": "controller.analysis.three_card_blackjack",
    "catch-a-wave": "controller.analysis.catch_a_wave",
    "roulette": "controller.analysis.roulette",
    "russian-poker": "controller.analysis.russian_poker",
    "baccarat": "controller.analysis.baccarat",
}


@dataclass(frozen=True)
class HouseEdgeOptions:
    preset: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    rounds: int | None = None  # None: the game's default
    seed: int = 1
    method: str | None = None  # "exact" | "monte-carlo" | None: the game's default
    strategy: str | None = None
    progress: bool = True
