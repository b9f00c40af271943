"""The simulator's bytes on the pty, without the driver: hand-typed expectations, so a mistake
shared by the simulator and the driver's codec still fails here."""

from __future__ import annotations

import asyncio
import itertools
import random
import re

import pytest

from drivers.clock import ScaledClock
from drivers.serial_link import open_serial
from simulators.wheel import WheelSimulator

from .conftest import FACTOR, FAST

pytestmark = pytest.mark.timeout(60)


async def test_simulator_answers_in_the_wheels_own_bytes() -> None:
    clock = ScaledClock(FACTOR)
    async with WheelSimulator(clock=clock, rng=random.Random(1), mode=0, results=["27"], timings=FAST) as sim:
        reader, writer = await open_serial(sim.path, 9600)

        async def ask(line: bytes) -> bytes:
            writer.write(line)
            return await asyncio.wait_for(reader.readuntil(b"\r\n"), 5)

        try:
            assert await ask(b"*P 1\r\n") == b"*P NO\r\n"  # already on
            assert await ask(b"*S\r\n") == b"*S V2.50\r\n"
            assert await ask(b"*T Z\n") == b"*T z 37\r\n"  # LF alone accepted
            assert await ask(b"*)\r") == b"*) NO\r\n"  # CR alone accepted; unknown command
            assert await ask(b"* u1\r\n") == b"*  NO\r\n"
            assert await ask(b"*u 1\r\n") == b"*u OK\r\n"
            assert re.fullmatch(rb"\*X;[12];001;  ;0;165;0\r\n", await ask(b"*X\r\n"))
            await sim.wait_state(2)
            assert await ask(b"*o 1158\r\n") == b"*o BUSY\r\n"
            assert await ask(b"*F\r\n") == b"*F BUSY\r\n"
            assert await ask(b"*O\r\n") == b"*O 2 1 60 0\r\n"
            await sim.wait_state(4)
            assert await asyncio.wait_for(reader.readuntil(b"\r\n"), 10) == b"27\r\n"
            assert await ask(b"*X\r\n") == b"*X;5;001;27;0;165;0\r\n"
            assert await ask(b"*P 0\r\n") == b"*P OK\r\n"
            await sim.wait_state(6)
            assert await ask(b"*P 0\r\n") == b"*P NO\r\n"
            assert await ask(b"*o 1159\r\n") == b"*o 1159\r\n"
            assert await ask(b"*X\r\n") == b"*X;6;001;27;0;000;0\r\n"  # powered off in state 5: same game
        finally:
            writer.close()


async def test_automatic_status_every_500_ms_on_a_grid() -> None:
    clock = ScaledClock(FACTOR)
    async with WheelSimulator(clock=clock, rng=random.Random(1), mode=128, timings=FAST) as sim:
        reader, writer = await open_serial(sim.path, 9600)
        try:
            stamps = []
            for _ in range(6):
                line = await asyncio.wait_for(reader.readuntil(b"\r\n"), 5)
                assert line.startswith(b"*X;")
                stamps.append(clock.monotonic())
            gaps = [b - a for a, b in itertools.pairwise(stamps)]
            assert sum(gaps) / len(gaps) == pytest.approx(0.5, abs=0.08)
        finally:
            writer.close()
