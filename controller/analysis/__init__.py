"""House-edge analysis per game: exact enumeration where it is cheap, Monte Carlo through the
same engines the table uses where it is not. Each game's module exposes ``house_edge(options:
HouseEdgeOptions) -> dict``; the game registry (controller/table/registry.py) names it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: ``croupier house-edge`` reports that are not a table game: name -> module with
#: ``house_edge(options) -> dict`` and ``format_text(result) -> list[str]``
REPORTS: dict[str, str] = {"side-bets": "controller.analysis.side_bets"}


@dataclass(frozen=True)
class HouseEdgeOptions:
    preset: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    rounds: int | None = None  # None: the game's default
    seed: int = 1
    method: str | None = None  # "exact" | "monte-carlo" | None: the game's default
    strategy: str | None = None
    progress: bool = True
    decks: int | None = None  # None: the preset's
