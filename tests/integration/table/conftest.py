"""A whole table in the test's event loop: config file, journal on disk, the simulated shoe on
its real transport (a pty, or the pyusb backend) behind the real CSP/1 driver, the table task.

The test plays the dealer and the players: ``cmd`` gives a command, ``draw`` pulls the next
card of the stacked shoe through the gate and waits until the table has taken it in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TextIO

import pytest

from controller.config import TableConfig, load
from controller.journal import Entry, Journal
from controller.process import build_core
from controller.runtime.devices import open_shoe
from controller.runtime.loop import TableLoop
from controller.runtime.recovery import device_sync, replay
from controller.table import inputs
from tests.support.configs import section, simulated_shoe, write_table_config


def write_config(tmp_path: Path, *, stacked: list[str] | None, port: str = "serial", rules: str = "",
                 preset: str = "ru6", extra_shoe: str = "", table_id: str = "t1", **options: Any) -> Path:
    """A ru6 blackjack table with the simulated shoe on ``port``; ``extra_shoe``: more keys of
    ``[devices.shoe.simulated]``, ``options``: more of ``table_config``'s sections."""
    shoe = simulated_shoe(port=port, stacked=stacked, **section(extra_shoe))
    return write_table_config(tmp_path, "blackjack", table_id=table_id, preset=preset, rules=rules,
                              limits={"main": {"min": 100, "max": 100000}}, devices={"shoe": shoe}, **options)


@contextlib.asynccontextmanager
async def running_table(config: TableConfig, out: TextIO, within: float = 30.0) -> AsyncIterator[Any]:
    """``run_table`` (the real start path, no keyboard) as a task; its loop once it takes inputs,
    the task cancelled (the table stopped) on leaving."""
    from controller.process import run_table

    ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    async def on_ready(loop: Any, devices: Any) -> None:
        ready.set_result(loop)

    table = asyncio.create_task(run_table(config, None, out=out, on_ready=on_ready, keyboard=False))
    try:
        yield await asyncio.wait_for(ready, within)
    finally:
        table.cancel()
        await asyncio.gather(table, return_exceptions=True)


class Harness:
    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.journal = Journal(config.journal_path)
        self.core = build_core(config)
        self.replayed = replay(self.journal, self.core)
        self.loop = TableLoop(self.core, self.journal)
        self.prompts: list[str] = []
        self.entries: list[Entry] = []
        self.loop.listeners.append(self)
        self.devices: Any = None  # the opened shoe Device (simulated: it has ``firmware``)
        self._tasks: list[asyncio.Task[Any]] = []

    # listener
    def on_entry(self, entry: Entry) -> None:
        self.entries.append(entry)

    def on_prompt(self, prompt: str, core: Any) -> None:
        self.prompts.append(prompt)

    async def start(self) -> None:
        self.devices = await open_shoe(self.config, self.core, self.loop.device_event)
        self.loop.devices["shoe"] = self.devices
        await self.loop.carry_out(list(device_sync(self.core)))
        self._tasks.append(asyncio.create_task(self.loop.run()))

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.devices is not None:
            await self.devices.close()
        self.journal.close()

    @property
    def firmware(self) -> Any:
        assert self.devices is not None and self.devices.firmware is not None
        return self.devices.firmware

    @property
    def prompt(self) -> str:
        return self.core.prompt()

    async def cmd(self, name: str, **args: Any) -> None:
        self.loop.command(name, "test-dealer", **args)
        await self.loop.settled()

    async def draw(self, expect: str | None = None) -> str:
        """Pull the next card through the gate; wait until the table has applied it."""
        n = self.core.shoe.last_n + 1
        card = self.firmware.draw()
        assert card is not None, f"no card left the shoe ({self.firmware.state})"
        if expect is not None:
            assert card == expect, f"stacked shoe out of step: {card} drawn, {expect} meant"
        await self.loop.until(lambda core: core.shoe.last_n >= n, timeout=10)
        await self.loop.settled()
        return card

    async def deal(self, *cards: str) -> None:
        for c in cards:
            await self.draw(c)

    def of_kind(self, kind: str) -> list[Entry]:
        return [e for e in self.journal.entries() if e.kind == kind]

    def rounds(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.of_kind(inputs.ROUND_CLOSED)]

    def alerts(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.of_kind(inputs.ALERT)]

    async def play(self, *boxes_and_bets: tuple[int, int, str]) -> None:
        """Open a round and place main bets (box, amount, player), then close betting."""
        await self.cmd("open_round")
        for box, amount, player in boxes_and_bets:
            await self.cmd("bet", box=box, amount=amount, player=player)
        await self.cmd("close_betting")


async def harnesses(tmp_path: Path, writer: Callable[..., Path]) -> AsyncIterator[Any]:
    """A factory of started tables, each from ``writer(tmp_path, **options)``; all stopped after."""
    made: list[Harness] = []

    async def make(**kwargs: Any) -> Harness:
        h = Harness(load(writer(tmp_path, **kwargs)))
        await h.start()
        made.append(h)
        return h

    yield make
    for h in made:
        await h.stop()


@pytest.fixture
async def table_factory(tmp_path: Path) -> AsyncIterator[Any]:
    async for make in harnesses(tmp_path, write_config):
        yield make


def bets(record: dict[str, Any]) -> list[tuple[int, int, str, str, int, int]]:
    """A round record's bets as (box, hand, kind, player, stake, payout) tuples, in order."""
    return [(b["box"], b["hand"], b["kind"], b["player"], b["stake"], b["payout"]) for b in record["bets"]]
