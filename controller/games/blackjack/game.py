"""Blackjack: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from controller.games.blackjack.adapter import BlackjackAdapter
from controller.games.blackjack.analysis import house_edge
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules
from controller.table.game import Game

GAME = Game("blackjack", BlackjackRound, BlackjackRules, BlackjackAdapter(), house_edge)

