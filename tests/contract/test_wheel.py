"""The wheel's ``Device`` contract, on a pty against the simulated Cammegh SS2 (protocol time
sped up, shared by the simulator and the driver), and on a rig's real wheel
(``CROUPIER_RIG_WHEEL``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from drivers.clock import ScaledClock
from drivers.device import Device
from drivers.errors import UnsupportedCommand
from simulators.wheel import Timings
from tests.contract.conftest import RIG, Events, online_device, rig_url, simulator_of

FACTOR = 4.0
FAST = Timings(before_game=0.5, place_bets=1.0, ball_in_rim=2.0, no_more_bets=2.0, result=0.5, reply_delay=0.02,
               power_up=0.2, spin_down=1.0, self_test=1.0)
WHEELS = {"pty": "sim+pty://wheel?pockets=37&seed=2", RIG: None}


@pytest.fixture(params=list(WHEELS))
async def wheel(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Device, Events]]:
    extras = {"clock": ScaledClock(FACTOR), "timings": FAST} if request.param != RIG else {}
    async with online_device(WHEELS[request.param] or rig_url("wheel"), "wheel", **extras) as opened:
        yield opened


async def test_is_a_device_online_with_its_identity(wheel: tuple[Device, Events]) -> None:
    device, _ = wheel
    assert isinstance(device, Device)
    assert device.name == "wheel"
    await device.command("poll")
    health = device.health()
    assert health.online and health.fault is None
    assert health.identity  # the *V banner, asked on connect


async def test_a_game_from_start_to_result(wheel: tuple[Device, Events]) -> None:
    device, events = wheel
    simulator_of(device, "choosing the result").queue_results("17")
    await events.until(lambda: bool(events.of("place_bets") or events.of("before_game")))
    await device.command("start_game")
    await events.until(lambda: bool(events.of("winning_number")), "a winning number", within=30)
    assert events.of("winning_number")[0].number == "17"
    kinds = [e.type for e in events.seen]
    assert kinds.index("no_more_bets") < kinds.index("winning_number")


async def test_a_command_that_does_not_fit_is_refused(wheel: tuple[Device, Events]) -> None:
    device, _ = wheel
    with pytest.raises(UnsupportedCommand, match="has no command 'spin'.*start_game"):
        await device.command("spin")
    with pytest.raises(UnsupportedCommand, match="set_mode"):
        await device.command("set_mode")
    with pytest.raises(UnsupportedCommand):
        await device.command("poll", now=True)
