"""Roulette: what the game brings to the house, declared once for the registry
(controller/table/registry.py; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from controller.boards import Boards
from controller.games.base import GameRules
from controller.games.roulette import RouletteRules
from controller.games.roulette.adapter import RouletteAdapter, RouletteTableRules, TableRouletteRound
from controller.games.roulette.analysis import house_edge
from controller.games.roulette.board import from_records
from controller.games.roulette.layout import wheel
from controller.table.game import Assets, Game


def wheel_options(rules: GameRules) -> dict[str, int]:
    """The simulated wheel of ``rules``: its pockets (37 single zero, 38 double)."""
    return {"pockets": len(wheel(cast(RouletteRules, rules).wheel).pockets)}


GAME = Game("roulette", TableRouletteRound, RouletteTableRules, RouletteAdapter(), house_edge,
            boards=Boards(from_records),
            assets=Assets(Path(__file__).with_name("static"), scripts=("felt.js", "roulette.js"),
                          styles=("felt.css", "roulette.css"),
                          boards=("boards.js",)),
            device_options=wheel_options)

