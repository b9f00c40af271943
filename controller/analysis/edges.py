"""A rule set's theoretical house edge as the pit shows it beside the actual hold (docs/pit.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Edges:
    """``edge``: the rule set's headline figure; ``bets``: per bet type (a round record's
    ``kind`` up to its ``:``), for the hold expected from the bets actually placed."""

    edge: float
    bets: dict[str, float]
    source: str
