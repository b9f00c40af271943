"""The configured rule set's theoretical house edge, shown beside the actual hold (docs/pit.md).

Computed by this project's own analysis (``croupier house-edge``), from the game and rule
preset a table's ``state`` names: exact enumeration for roulette and baccarat (about 0.1 s),
the basic-strategy expected value by finite-shoe recursion for blackjack's main bet (about
2 s, once per preset). House ``[rules]`` overrides are not in the feed's ``state``, so the
figure is the preset's. Other games have no cheap exact figure and show none.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Edges:
    """``edge``: the rule set's headline figure; ``bets``: per bet type (a round record's
    ``kind`` up to its ``:``), for the hold expected from the bets actually placed."""

    edge: float
    bets: dict[str, float]
    source: str


@functools.lru_cache(maxsize=64)
def edges_for(game: str, preset: str) -> Edges | None:
    """None for a game or preset without a cheap exact figure (never raises)."""
    try:
        return _compute(game, preset)
    except (ValueError, KeyError, TypeError) as exc:  # an unknown preset from a newer table: no figure
        log.warning("no house edge for %s/%s: %s", game, preset, exc)
        return None


def _compute(game: str, preset: str) -> Edges | None:
    from controller.analysis import HouseEdgeOptions

    if game in ("roulette", "baccarat"):
        from controller.analysis import baccarat, roulette

        module = roulette if game == "roulette" else baccarat
        result = module.house_edge(HouseEdgeOptions(preset=preset, progress=False))
        bets = {str(k): float(v) for k, v in result["bets"].items()}
        return Edges(float(result["house_edge"]), bets, f"exact enumeration, preset {preset}")
    if game == "blackjack":
        from controller.games.blackjack.rules import blackjack_rules
        from controller.games.blackjack.strategy import BasicStrategy

        edge = float(BasicStrategy.for_rules(blackjack_rules(preset)).theoretical_edge)
        return Edges(edge, {"main": edge}, f"basic strategy, finite-shoe EV, preset {preset}")
    return None
