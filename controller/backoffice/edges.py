"""Each bet kind's house edge for a table's game and rule preset, for theoretical win (stake
times edge). From this project's own analysis, computed once per (game, preset) in a process:
the pit dashboard's figures (roulette and baccarat exactly, blackjack's main bet by its
basic-strategy expected value) and blackjack's side bets from their paytables. A kind
without a known edge (insurance, a game without a cheap exact figure) contributes no theo;
reports show its stake as ``theo_unknown_drop`` so nothing is silently counted as zero.
"""

from __future__ import annotations

import functools
import logging

from controller.floor.edges import edges_for
from controller.table import registry

log = logging.getLogger(__name__)


def kind_of(kind: str) -> str:
    """A bet kind up to its ``:`` (``straight:17`` -> ``straight``)."""
    return kind.partition(":")[0]


@functools.lru_cache(maxsize=64)
def _side_bets(game: str, preset: str) -> dict[str, float]:
    """The side bets' edges the game declares (``Game.side_edges``); {} for a game without."""
    found = registry.find(game)
    if found is None or found.side_edges is None:
        return {}
    try:
        return dict(found.side_edges(preset))
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("no side-bet edges for %s/%s: %s", game, preset, exc)
        return {}


def bet_edges(game: str, preset: str | None) -> dict[str, float]:
    """Edge by bet kind (fractions of the stake) for this game and preset; {} when unknown."""
    if preset is None:
        return {}
    found = edges_for(game, preset)
    edges = dict(found.bets) if found is not None else {}
    return {**_side_bets(game, preset), **edges}
