"""Baccarat: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from pathlib import Path

from controller.boards import Boards
from controller.games.baccarat import BaccaratRound, BaccaratRules
from controller.games.baccarat.adapter import BaccaratAdapter
from controller.games.baccarat.analysis import house_edge
from controller.games.baccarat.board import from_records
from controller.table.game import Assets, Game

GAME = Game("baccarat", BaccaratRound, BaccaratRules, BaccaratAdapter(), house_edge,
            boards=Boards(from_records, per_shoe=True),
            assets=Assets(Path(__file__).with_name("static"), boards=("boards.js",)))

