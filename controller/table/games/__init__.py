"""Per-game adapters of the table core, by the ``game`` name of a table config."""

from __future__ import annotations

from controller.table.games.base import Engine, GameAdapter
from controller.table.games.blackjack import BlackjackAdapter

ADAPTERS: dict[str, GameAdapter] = {"blackjack": BlackjackAdapter()}


def adapter_for(game: str) -> GameAdapter:
    try:
        return ADAPTERS[game]
    except KeyError:
        raise ValueError(f"no table adapter for game {game!r}; known: {', '.join(ADAPTERS)}") from None


__all__ = ["ADAPTERS", "Engine", "GameAdapter", "adapter_for"]
