"""The shoe games' tables in the test's event loop, on the blackjack tables' harness: config
file, journal on disk, the simulated shoe on its real transport behind the CSP/1 driver.

``restack`` loads the next stacked deck after ``new_shoe`` (the simulated shoe shuffles a
fresh one on the host's SHOE command, as a real one-deck shuffler would).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from controller.shoe import Shoe
from tests.integration.table.conftest import Harness, harnesses
from tests.support.configs import simulated_shoe, write_table_config


def write_config(tmp_path: Path, *, game: str, stacked: list[str], limits: str, preset: str = "standard",
                 rules: str = "", port: str = "serial", cut_after: int | None = None, table_id: str = "g1") -> Path:
    shoe = simulated_shoe(port=port, stacked=stacked, cut_after=cut_after)
    return write_table_config(tmp_path, game, table_id=table_id, preset=preset, rules=rules, limits=limits,
                              devices={"shoe": shoe})


@pytest.fixture
async def game_table(tmp_path: Path) -> AsyncIterator[Any]:
    async for make in harnesses(tmp_path, write_config):
        yield make


def restack(t: Harness, cards: list[str]) -> None:
    """The shoe now holds exactly ``cards`` (of one deck per the table's rules), in order."""
    decks = t.core.adapter.decks(t.core.rules)
    t.firmware.shoe = Shoe(decks, random.Random(0), stacked=cards)


async def open_with_bets(t: Harness, *bets: tuple[int, str, int, str]) -> None:
    """Open a round, place (box, kind, amount, player) bets, close betting."""
    await t.cmd("open_round")
    for box, kind, amount, player in bets:
        await t.cmd("bet", box=box, kind=kind, amount=amount, player=player)
    await t.cmd("close_betting")


def hold_alerts(t: Harness) -> list[dict[str, Any]]:
    return [a for a in t.alerts() if a["hold"]]
