"""Batch mode's simulated people, on the game's own device: at a shoe table they draw from the
simulated shoe (``SimulatedTable``), at a wheel table the wheel closes betting and gives the
result (``WheelTable``). Which people sit at which device is one line in ``PEOPLE``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from controller.config import TableConfig
from controller.games.base import Expect, ExpectKind
from controller.people.players import DEALER, SeatedPlayer, SimulatedTable
from controller.runtime.devices import TableDevices
from controller.runtime.loop import TableLoop
from controller.runtime.wheel import DEVICE as WHEEL
from controller.table.phases import IDLE

People = Callable[[TableConfig, TableLoop, TableDevices, list[SeatedPlayer], int, float, int], SimulatedTable]


class WheelTable(SimulatedTable):
    """Simulated people at a wheel table: players place the adapter's assorted legal bets, the
    wheel closes betting and gives the result; the dealer keys what the wheel cannot report
    (double ball's second ball, from a seeded RNG) and settles."""

    def __init__(self, loop: TableLoop, players: list[SeatedPlayer], rounds: int, pace: float = 0.0,
                 rng: random.Random | None = None, closed_by_replay: int = 0) -> None:
        super().__init__(loop, None, players, rounds, pace, closed_by_replay)
        self.rng = rng or random.Random(1)

    def _act(self) -> None:
        core = self.loop.core
        if core.phase == IDLE and core.hold is None and not core.devices.get(WHEEL, {}).get("online"):
            return  # the wheel has not reported yet: nothing to open a round on
        super()._act()

    def _playing(self, expect: Expect) -> None:
        core = self.loop.core
        engine: Any = core.engine
        keys = core.adapter.view.result_keys(engine) if expect.kind is ExpectKind.RESULT else None
        if keys:  # a ball the dealer keys (the wheel gives the first): one of the numbers the view offers
            number = self.rng.choice(sorted(keys["numbers"]))
            self.loop.command("key_result", DEALER, number=number)


def wheel_people(config: TableConfig, loop: TableLoop, devices: TableDevices, players: list[SeatedPlayer],
                 rounds: int, pace: float, closed_by_replay: int) -> SimulatedTable:
    if devices.simulated(WHEEL) is None and config.devices.wheel.transport != "serial":
        raise RuntimeError("--rounds needs a simulated wheel (devices.wheel.transport = \"simulated\")")
    return WheelTable(loop, players, rounds, pace, random.Random(config.devices.wheel.simulated.seed),
                      closed_by_replay)


def shoe_people(config: TableConfig, loop: TableLoop, devices: TableDevices, players: list[SeatedPlayer],
                rounds: int, pace: float, closed_by_replay: int) -> SimulatedTable:
    firmware = devices.simulator_panel()
    if firmware is None and config.devices.shoe.transport != "serial":  # serial: a rig deals (docs/hil.md)
        raise RuntimeError("--rounds needs a simulated shoe (devices.shoe.transport = \"simulated\")")
    return SimulatedTable(loop, firmware, players, rounds, pace, closed_by_replay)


#: a game device's name -> batch mode's simulated people on it
PEOPLE: dict[str, People] = {"shoe": shoe_people, WHEEL: wheel_people}


def simulated_people(config: TableConfig, loop: TableLoop, devices: TableDevices, players: list[SeatedPlayer],
                     rounds: int, pace: float, closed_by_replay: int) -> SimulatedTable:
    """Batch mode's simulated people, on the game's first device (``PEOPLE``)."""
    return PEOPLE[devices.game[0]](config, loop, devices, players, rounds, pace, closed_by_replay)
