"""A table without devices: real config, real journal (SQLite on disk), the real table loop.

The shoe's presence is given as the device input the driver would submit, so commands can be
tried on every game without a pty; restarting is replaying the same journal into a new core.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from controller.config import load
from controller.journal import Journal
from controller.process import build_core
from controller.runtime.loop import TableLoop
from controller.runtime.recovery import replay
from controller.table import inputs
from tests.support.configs import write_table_config

MAIN = {"three-card-blackjack": "ante", "catch-a-wave": "main", "russian-poker": "ante", "baccarat": "player",
        "blackjack": "main"}


def table_config(tmp_path: Path, game: str) -> Path:
    return write_table_config(tmp_path, game, name=f"{game}.toml", table_id="v1", journal=f"{game}.journal")


class Table:
    """One process's life of a table: ``restart`` closes it and replays the journal anew."""

    def __init__(self, config_path: Path) -> None:
        self.config = load(config_path)
        self.journal = Journal(self.config.journal_path)
        self.core = build_core(self.config)
        replay(self.journal, self.core)
        self.core.restarted()
        self.loop = TableLoop(self.core, self.journal)
        self.task = asyncio.create_task(self.loop.run())
        self.loop.submit(inputs.DEVICE, {"type": "online", "device": "shoe"}, "shoe")

    async def settled(self) -> None:
        await self.loop.settled()

    def rows(self) -> int:
        return len(list(self.journal.entries()))

    def alerts(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.journal.entries() if e.kind == inputs.ALERT]

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        self.journal.close()


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Callable[[str], Table]]:
    made: list[Table] = []

    def make(game: str) -> Table:
        t = Table(table_config(tmp_path, game))
        made.append(t)
        return t

    yield make
    for t in made:
        if not t.task.done():
            await t.close()
