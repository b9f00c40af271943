"""A round record's outcome in words, by its game's own view: for lists of rounds (the pit's,
the console's recall), where the reader has a record and no table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.table import registry
from controller.table.games.views import fallback_lines


def outcome_lines(record: Mapping[str, Any]) -> list[str]:
    """The record's outcome as text lines (cards with suits); a game this code does not know, or a
    record that does not fit its game's outcome, is told generically."""
    outcome = record.get("outcome")
    if not isinstance(outcome, Mapping):
        return []
    game = registry.find(record.get("game"))
    return game.view.record_lines(outcome) if game is not None else fallback_lines(outcome)


def outcome_summary(record: Mapping[str, Any]) -> str:
    """The record's outcome on one line."""
    outcome = record.get("outcome")
    if not isinstance(outcome, Mapping):
        return ""
    game = registry.find(record.get("game"))
    return game.view.record_summary(outcome) if game is not None else "; ".join(fallback_lines(outcome))
