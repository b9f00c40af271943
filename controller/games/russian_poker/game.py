"""Russian poker: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from controller.games.russian_poker import RussianPokerRound, RussianPokerRules
from controller.games.russian_poker.adapter import RussianPokerAdapter
from controller.games.russian_poker.analysis import house_edge
from controller.table.game import Game

GAME = Game("russian-poker", RussianPokerRound, RussianPokerRules, RussianPokerAdapter(), house_edge)

