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
from fractions import Fraction

from controller.floor.edges import edges_for

log = logging.getLogger(__name__)


def kind_of(kind: str) -> str:
    """A bet kind up to its ``:`` (``straight:17`` -> ``straight``)."""
    return kind.partition(":")[0]


@functools.lru_cache(maxsize=64)
def _side_bets(preset: str) -> dict[str, float]:
    try:
        from controller.analysis.side_bets import side_bet_edges
        from controller.games.blackjack.rules import blackjack_rules

        return {k: float(Fraction(v["house_edge_exact"])) for k, v in side_bet_edges(blackjack_rules(preset)).items()}
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("no side-bet edges for blackjack/%s: %s", preset, exc)
        return {}


def bet_edges(game: str, preset: str | None) -> dict[str, float]:
    """Edge by bet kind (fractions of the stake) for this game and preset; {} when unknown."""
    if preset is None:
        return {}
    found = edges_for(game, preset)
    edges = dict(found.bets) if found is not None else {}
    if game == "blackjack":
        edges = {**_side_bets(preset), **edges}
    return edges
