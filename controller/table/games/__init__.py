"""Per-game adapters of the table core, by the ``game`` name of a table config."""

from __future__ import annotations

from controller.table.games.baccarat import BaccaratAdapter
from controller.table.games.base import Engine, GameAdapter
from controller.table.games.blackjack import BlackjackAdapter
from controller.table.games.catch_a_wave import CatchAWaveAdapter
from controller.table.games.roulette import RouletteAdapter
from controller.table.games.russian_poker import RussianPokerAdapter
from controller.table.games.three_card_blackjack import ThreeCardBlackjackAdapter

ADAPTERS: dict[str, GameAdapter] = {
    adapter.game: adapter
    for adapter in (BlackjackAdapter(), RouletteAdapter(), ThreeCardBlackjackAdapter(), CatchAWaveAdapter(),
                    BaccaratAdapter(), RussianPokerAdapter())
}


def adapter_for(game: str) -> GameAdapter:
    try:
        return ADAPTERS[game]
    except KeyError:
        raise ValueError(f"no table adapter for game {game!r}; known: {', '.join(ADAPTERS)}") from None


__all__ = ["ADAPTERS", "Engine", "GameAdapter", "adapter_for"]
