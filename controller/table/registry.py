"""Every game the house runs, registered once (docs/architecture.md, "adding a game").

A ``Game`` names what a game is made of: its engine (the round class, controller/games), the
config model of its ``[rules]`` keys, its table adapter (controller/table/games), its house-edge
analysis (controller/analysis). The config's ``game`` key, ``croupier house-edge`` and the
table all read this registry, so a new game is one entry here plus its own modules. The
registry imports no runtime (batch mode's simulated people are the table's own business), so
the config can read it without an import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.analysis import baccarat as baccarat_analysis
from controller.analysis import blackjack as blackjack_analysis
from controller.analysis import catch_a_wave as catch_a_wave_analysis
from controller.analysis import roulette as roulette_analysis
from controller.analysis import russian_poker as russian_poker_analysis
from controller.analysis import three_card_blackjack as three_card_blackjack_analysis
from controller.games.baccarat import BaccaratRound, BaccaratRules
from controller.games.base import GameRules
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules
from controller.games.catch_a_wave import CatchAWaveRound, CatchAWaveRules
from controller.games.russian_poker import RussianPokerRound, RussianPokerRules
from controller.games.three_card_blackjack import ThreeCardBlackjackRound, ThreeCardBlackjackRules
from controller.table.games.baccarat import BaccaratAdapter
from controller.table.games.base import GameAdapter
from controller.table.games.blackjack import BlackjackAdapter
from controller.table.games.catch_a_wave import CatchAWaveAdapter
from controller.table.games.roulette import RouletteAdapter, RouletteTableRules, TableRouletteRound
from controller.table.games.russian_poker import RussianPokerAdapter
from controller.table.games.three_card_blackjack import ThreeCardBlackjackAdapter


@dataclass(frozen=True, slots=True)
class Game:
    name: str
    #: the engine's round class (pure: controller/games)
    engine: type[Any]
    #: the config model of the game's ``[rules]`` and ``[limits]``
    rules_model: type[GameRules]
    #: the table's adapter of the game (prompts, hooks)
    adapter: GameAdapter
    #: ``croupier house-edge <name>``: the analysis through the same engine
    house_edge: Callable[[HouseEdgeOptions], dict[str, Any]]


GAMES: dict[str, Game] = {game.name: game for game in (
    Game("blackjack", BlackjackRound, BlackjackRules, BlackjackAdapter(), blackjack_analysis.house_edge),
    Game("roulette", TableRouletteRound, RouletteTableRules, RouletteAdapter(), roulette_analysis.house_edge),
    Game("three-card-blackjack", ThreeCardBlackjackRound, ThreeCardBlackjackRules, ThreeCardBlackjackAdapter(),
         three_card_blackjack_analysis.house_edge),
    Game("catch-a-wave", CatchAWaveRound, CatchAWaveRules, CatchAWaveAdapter(), catch_a_wave_analysis.house_edge),
    Game("baccarat", BaccaratRound, BaccaratRules, BaccaratAdapter(), baccarat_analysis.house_edge),
    Game("russian-poker", RussianPokerRound, RussianPokerRules, RussianPokerAdapter(),
         russian_poker_analysis.house_edge),
)}
#: the table adapters by game name
ADAPTERS: dict[str, GameAdapter] = {name: game.adapter for name, game in GAMES.items()}


def game(name: str) -> Game:
    """The registered game ``name`` (ValueError naming the known games)."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"no game {name!r}; known: {', '.join(GAMES)}") from None


def adapter_for(name: str) -> GameAdapter:
    return game(name).adapter
