"""Catch a Wave: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from controller.games.catch_a_wave import CatchAWaveRound, CatchAWaveRules
from controller.games.catch_a_wave.adapter import CatchAWaveAdapter
from controller.games.catch_a_wave.analysis import house_edge
from controller.table.game import Game

GAME = Game("catch-a-wave", CatchAWaveRound, CatchAWaveRules, CatchAWaveAdapter(), house_edge)

