"""Three Card Blackjack: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from controller.games.three_card_blackjack import ThreeCardBlackjackRound, ThreeCardBlackjackRules
from controller.games.three_card_blackjack.adapter import ThreeCardBlackjackAdapter
from controller.games.three_card_blackjack.analysis import house_edge
from controller.table.game import Game

GAME = Game("three-card-blackjack", ThreeCardBlackjackRound, ThreeCardBlackjackRules, ThreeCardBlackjackAdapter(),
            house_edge)

