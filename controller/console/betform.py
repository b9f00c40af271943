"""What the console's bet form offers: the bet kinds the table's rules offer (and no other),
the boxes, and chips cut from the table's limits (docs/console.md, "Key a bet")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.games.base import GameRules

#: chip values in whole currency units, as a casino's chip sets run
CHIP_SERIES = (1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000)
MOST_CHIPS = 6


def offered_kinds(rules: GameRules, first: str) -> list[str]:
    """The bet kinds a dealer may key: for a game whose rules list their side bets (blackjack),
    its main bet, Bet Behind when the table offers it, and exactly those side bets; otherwise
    every kind the table's limits name. The game's first bet kind comes first."""
    side_bets = getattr(rules, "side_bets", None)
    if side_bets is not None:
        behind = ["behind", "behind_stay"] if getattr(rules, "bet_behind", False) else []
        kinds = [first, *behind, *side_bets]
    else:
        kinds = sorted(rules.limits) or [first]
    return sorted(dict.fromkeys(kinds), key=lambda k: (k != first, kinds.index(k)))


def chips(limits: Mapping[str, Any], kinds: Iterable[str], digits: int) -> list[int]:
    """Up to ``MOST_CHIPS`` chip values in minor units, from the smallest minimum of the offered
    kinds' limits up to the largest maximum (no limit: 1 to 500 whole units)."""
    unit = 10**digits
    rows = [limits[k] for k in kinds if k in limits]
    low = min((_minor(r, "min") for r in rows), default=unit)
    high = max((_minor(r, "max") for r in rows), default=500 * unit)
    values = [v * unit for v in CHIP_SERIES if low <= v * unit <= high]
    if low not in values and low <= high:
        values.insert(0, low)  # an odd table minimum is a chip of its own
    if len(values) <= MOST_CHIPS:
        return values
    step = (len(values) - 1) / (MOST_CHIPS - 1)
    return [values[round(i * step)] for i in range(MOST_CHIPS)]


def _minor(limit: Any, key: str) -> int:
    value = limit[key] if isinstance(limit, Mapping) else getattr(limit, key)
    return int(value)
