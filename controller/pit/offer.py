"""Which of a table's limits the pit shows (docs/pit.md, "The floor"): only those of bets the
table offers. A rule set names limits for every bet of its game (side bets a preset does not
deal, a second ball's bets on a one-ball wheel); the game's own view says which it takes: the
kinds its bet form offers, or, for a game keyed on its own layout, the bet types of the cells
that layout offers. No game is named here."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from controller.table import registry


@functools.lru_cache(maxsize=64)
def offered_kinds(game: str, preset: str | None) -> frozenset[str] | None:
    """The bet kinds a table of ``game`` and ``preset`` offers; None when the pit cannot tell
    (an unknown game or preset: then every limit is shown)."""
    found = registry.find(game)
    if found is None:
        return None
    adapter = found.adapter
    try:
        rules = adapter.rules(preset, {}, {})
        kinds = adapter.view.bet_kinds(rules, adapter.bet_kind)
        if kinds:
            return frozenset(kinds)
        spin = adapter.view.spin(adapter.new_round(rules))
    except Exception:  # noqa: BLE001  # a preset this dashboard does not know: show what the table says
        return None
    layout = spin.get("layout") if isinstance(spin, Mapping) else None
    cells = layout.get("cells") if isinstance(layout, Mapping) else None
    if not isinstance(cells, list):
        return None
    return frozenset(str(c.get("type")) for c in cells if isinstance(c, Mapping) and c.get("type"))


def offered_limits(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state's limits of the bets its table offers, in the state's order."""
    limits = state.get("limits")
    if not isinstance(limits, Mapping):
        return {}
    game, preset = state.get("game"), state.get("preset")
    kinds = offered_kinds(game, preset if isinstance(preset, str) else None) if isinstance(game, str) else None
    return {k: v for k, v in limits.items() if kinds is None or k in kinds or k.split(":", 1)[0] in kinds}
