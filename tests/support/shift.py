"""A shift before the pictures: the demo's three tables (blackjack ru6, European roulette,
baccarat, from the shipped configs in ``config/``) played fast by the simulated players and
dealer of batch mode (``controller/people``) through the real table, journal, simulated devices
on their real transports and the console server, so a test looks at a console with history.

``await shift_table("roulette", directory, rounds=60)`` starts one table with its console and
plays ``rounds`` rounds at no pace (the wheel at 100x its protocol speed), then leaves it idle
with the people gone: the test takes it from there (``ShiftTable.play`` plays more rounds). A
blackjack shift then plays on until the shoe is near its cut card. Used by the console's browser
suite; the pit's tests can start the same shift.
"""

from __future__ import annotations

import asyncio
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.auth import Accounts
from controller.config import TableConfig
from controller.console import ConsoleServer, start_console
from controller.people.batch import WheelTable
from controller.people.players import SeatedPlayer, SimulatedTable, default_players
from drivers.clock import ScaledClock
from simulators.wheel import Timings
from tests.integration.table.conftest import Harness
from tests.integration.table_roulette.conftest import WheelHarness
from tests.support.configs import relocated_example

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config"
#: the demo's tables (controller/demo.py), by the game the test asks for
CONFIGS = {"blackjack": "blackjack-ru6.toml", "roulette": "roulette-european.toml", "baccarat": "baccarat.toml"}
#: a wheel spinning 100x faster than the protocol's time with short game timings: a spin in ~0.1 s
WHEEL_SPEED = 100.0
#: protocol seconds of the betting window: a marker the clock replaces (``BettingClock``)
WINDOW = 10_000.0
BETS_OPEN = 3.0
FAST_WHEEL = Timings(before_game=0.5, place_bets=WINDOW, ball_in_rim=2.0, no_more_bets=2.0, result=0.5,
                     fault_shutdown=10.0)


class BettingClock(ScaledClock):
    """Protocol time ``WHEEL_SPEED`` times faster. The betting window lasts ``BETS_OPEN``
    protocol seconds, or, once ``hold_bets()`` was called, until ``no_more_bets()``: a test
    looks at an open layout for as long as it needs, however loaded the machine."""

    def __init__(self) -> None:
        super().__init__(WHEEL_SPEED)
        self.holding = False
        self.gate = asyncio.Event()

    def hold_bets(self) -> None:
        self.holding = True

    def no_more_bets(self) -> None:
        self.holding = False
        self.gate.set()

    async def sleep(self, seconds: float) -> None:
        if seconds >= WINDOW:
            if self.holding:
                await self.gate.wait()
                self.gate.clear()
                return
            seconds = BETS_OPEN
        await super().sleep(seconds)


def shift_config(game: str, directory: Path) -> TableConfig:
    """The demo's config of ``game`` with its journal in ``directory`` and no broker."""
    source = CONFIG_DIR / CONFIGS[game]
    raw = relocated_example(tomllib.loads(source.read_text()), directory)
    raw["mqtt"] = {"broker": "none"}
    return TableConfig.model_validate({**raw, "base": source.parent})


class FastWheelHarness(WheelHarness):
    """The roulette tests' harness with the simulated wheel at ``WHEEL_SPEED``, its betting window on a ``BettingClock``."""

    clock: BettingClock

    async def start_wheel(self, timings: Timings) -> None:
        self.clock = BettingClock()
        await self.start(timings, clock=self.clock)


@dataclass
class ShiftTable:
    game: str
    harness: Any
    server: ConsoleServer

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def core(self) -> Any:
        return self.harness.core

    @property
    def loop(self) -> Any:
        return self.harness.loop

    def players(self) -> list[SeatedPlayer]:
        limits = self.harness.config.limits
        smallest = min(limit.min for limit in limits.values()) if limits else 100
        return default_players(5 * smallest)

    async def play(self, rounds: int, *, within: float = 120.0) -> None:
        """The simulated players and dealer play ``rounds`` more rounds, then leave the table idle."""
        loop = self.harness.loop
        if self.game == "roulette":
            people: SimulatedTable = WheelTable(loop, self.players(), rounds)
        else:
            people = SimulatedTable(loop, self.harness.firmware, self.players(), rounds)
        try:
            await asyncio.wait_for(people.run(), within)
        finally:
            loop.quiet_hooks.remove(people._wake.set)
        await loop.settled()

    async def step_until(self, reached: Callable[[Any], bool], *, within: float = 30.0) -> None:
        """The simulated dealer and players take the table one step at a time until
        ``reached(core)`` holds (checked before each step: a test stops the play where it looks)."""
        loop = self.harness.loop
        people = SimulatedTable(loop, self.harness.firmware if self.game != "roulette" else None,
                                self.players(), rounds=10**6)
        loop.quiet_hooks.remove(people._wake.set)  # driven here, not by its own run()
        for _ in range(500):
            await loop.settled(within)
            core = loop.core
            if reached(core):
                return
            before = core.serial
            people._act()
            await loop.until(lambda c, was=before: c.serial != was, within)
        raise AssertionError("the table never reached the state asked for")

    async def stop(self) -> None:
        await self.server.close()
        await self.harness.stop()


async def shift_table(game: str, directory: Path, accounts: Accounts, *, rounds: int = 60) -> ShiftTable:
    """The demo's ``game`` table with its console, after a shift of ``rounds`` rounds."""
    from tests.integration.browser.conftest import started

    directory.mkdir(parents=True, exist_ok=True)
    config = shift_config(game, directory)
    harness: Any
    if game == "roulette":
        harness = FastWheelHarness(config)
        await harness.start_wheel(FAST_WHEEL)
    else:
        harness = Harness(config)
        started(harness)
        await harness.start()
        await harness.loop.until(lambda core: core.devices.get("shoe", {}).get("online", False), timeout=10)
    server = await start_console(harness.loop, config, accounts, host="127.0.0.1", port=0)
    table = ShiftTable(game, harness, server)
    try:
        await table.play(rounds)
        if game == "blackjack":
            await near_the_cut(table)
    except BaseException:
        await table.stop()
        raise
    return table


async def near_the_cut(table: ShiftTable, *, cards: int = 45) -> None:
    """Play on, a round at a time, until the shoe has at most ``cards`` cards to its cut card."""
    shoe = table.harness.firmware.shoe
    for _ in range(200):
        if 0 < shoe.cut_after - shoe.dealt <= cards:
            return
        await table.play(1)
    raise AssertionError(f"the shoe never came near its cut card ({shoe.dealt} of {shoe.cut_after})")
