"""The configured rule set's theoretical house edge: the pit shows it beside the actual hold
(docs/pit.md), the back office takes each bet kind's for theoretical win (docs/backoffice.md).

Computed by this project's own analysis (``croupier house-edge``), from the game and rule
preset a table's ``state`` names, by the game's own adapter (``GameAdapter.house_edges``):
exact enumeration for roulette and baccarat (about 0.1 s), the basic-strategy expected value by
finite-shoe recursion for blackjack's main bet (about 2 s, once per preset). House ``[rules]``
overrides are not in the feed's ``state``, so the figure is the preset's. Games without a cheap
exact figure show none.
"""

from __future__ import annotations

import functools
import logging

from controller.analysis.edges import Edges

__all__ = ["Edges", "edges_for"]

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=64)
def edges_for(game: str, preset: str) -> Edges | None:
    """None for a game or preset without a cheap exact figure (never raises)."""
    from controller.table import registry  # the games and their analyses: loaded when first asked

    found = registry.find(game)
    if found is None:
        return None
    try:
        return found.edges(preset)
    except (ValueError, KeyError, TypeError) as exc:  # an unknown preset from a newer table: no figure
        log.warning("no house edge for %s/%s: %s", game, preset, exc)
        return None
