"""The chips of the console's bet form, cut from the table's limits (docs/console.md, "Key a
bet"); the kinds it offers are each game's (``GameView.bet_kinds``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: chip values in whole currency units, as a casino's chip sets run
CHIP_SERIES = (1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000)
MOST_CHIPS = 6


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
