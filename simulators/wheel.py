"""Cammegh SS2 wheel firmware in software, on a real pseudo-terminal.

Physics-free but faithful in what the host can see: the state cycle (1 ->) 2 -> 3 -> 4 -> (bare
number line) 5 -> 2 with its timings, statuses every 500 ms on a fixed grid when the mode has
bit 128 (else only in answer to ``*X``), the spin counter (1..256, then 1 again), 37 or 38
pockets, chosen or random results, every documented command answered as the studio wheel
answers it (``*o BUSY``/``*F BUSY`` during a game, ``*P NO`` when already in that state,
``*<c> NO`` for what it does not know), and every fault of the protocol on demand. It shares the
codec with the driver and nothing else; all waiting goes through the injected ``Clock``.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.wheel import codec
from simulators.pty_port import PtyPort, point_link
from simulators.wheel_line import WheelLine
from simulators.wheel_timings import Timings as Timings

DEFAULT_TIMINGS = Timings()

FaultKind = Literal["launch_fail", "miss_spin", "ball_not_sensed", "sensor_fault", "state_6"]


@dataclass(frozen=True)
class WheelFault:
    """One injected fault, used up by the first game that reaches ``state``.

    ``at``: seconds into that state. ``duration``: for ``launch_fail`` and ``ball_not_sensed``,
    how long the flag lasts before the wheel recovers (None: it never does). ``launch_fail`` in
    state 2 is the misfire the studio wheel shows (it stays in state 2 with flag 8, then
    launches); in state 3 the flag shows in the rim. ``sensor_fault`` sets flag 4 and shuts down
    to state 6 after ``Timings.fault_shutdown``; ``state_6`` drops to state 6 at once.
    ``recur``: the sensor fault comes back 2 s after the next ``*P 1``.
    """

    kind: FaultKind
    state: int = 0
    at: float = 0.0
    duration: float | None = None
    recur: bool = False

    def where(self) -> int:
        return self.state or {"launch_fail": 3, "miss_spin": 3, "ball_not_sensed": 4, "sensor_fault": 4, "state_6": 4}[
            self.kind
        ]


class _Stopped(Exception):
    """The game ended in state 6 (fault or self-stop): wait for ``*P 1``."""


class _Respin(Exception):
    """``*R`` after a miss-spin: the same game again from state 2."""


class WheelSimulator(WheelLine):
    """The firmware's game cycle, powering and injected faults (its line: ``WheelLine``)."""

    def __init__(
        self,
        *,
        clock: Clock = SYSTEM_CLOCK,
        rng: random.Random | None = None,
        pockets: int = 37,
        mode: int = 1159,
        results: Iterable[str | int] = (),
        timings: Timings = DEFAULT_TIMINGS,
        powered: bool = True,
        spin: int = 1,
        version: str = "V2.50",
        banner: str = "Cammegh SS2 Slingshot II",
        wall: Callable[[], datetime] = datetime.now,
        rpm: float = 16.5,
        link: str | os.PathLike[str] | None = None,
    ) -> None:
        if pockets not in (37, 38):
            raise ValueError("pockets is 37 or 38")
        self.clock = clock
        self.rng = rng or random.Random()
        self.pockets = pockets
        self.mode = mode
        self.timings = timings
        self.version = version
        self.banner = banner
        #: False: a silent impostor that never answers ``*V`` (the driver must not trust it)
        self.answers_banner = True
        self.wall = wall
        self.rpm = rpm
        #: a stable symlink to the current pty (like /dev/serial/by-id), kept across ``replug``
        self.link = Path(link) if link is not None else None
        self.results: deque[str] = deque()
        self.queue_results(*results)
        self.state = 1 if powered else 6
        self.spin = spin
        self.win: str | None = None
        self.flags = 0
        self.speed = 0
        self.direction = 0
        self.settings: dict[str, str] = {"d": "15", "h": "60", "z": str(pockets)}
        self.self_test_codes: list[int] = []
        """Codes the next ``*F`` reports (empty: ``*F 0``)."""
        self.received: list[str] = []
        self.history: list[tuple[float, int, int]] = []
        """(clock time, state, flags) at every change: what the tests time the driver against."""
        self.port: PtyPort | None = None
        self._powered_at_start = powered
        self._faults: list[WheelFault] = []
        self._recurring: WheelFault | None = None
        self._start = asyncio.Event()
        self._restart = asyncio.Event()
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._run: asyncio.Task[None] | None = None
        self._framer = codec.LineFramer()

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def path(self) -> str:
        """What the driver opens: the stable ``link`` if any, else the pty's own path."""
        if self.link is not None:
            return str(self.link)
        assert self.port is not None, "start() first"
        return self.port.path

    async def start(self) -> None:
        await self.replug()
        self._spawn(self._auto_status())
        if self._powered_at_start:
            self._power_on(delay=0.0)
        self._mark()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.unplug()

    async def __aenter__(self) -> WheelSimulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def unplug(self) -> None:
        """The cable is pulled: the pty goes away (the driver sees EOF / I/O errors)."""
        if self.link is not None:
            self.link.unlink(missing_ok=True)
        if self.port is not None:
            self.port.close()

    async def replug(self) -> None:
        """A cable in: a new pty (the ``link``, if any, now points at it)."""
        port = PtyPort()
        await port.open()
        self.port = port
        self._framer = codec.LineFramer()
        if self.link is not None:
            point_link(self.link, port.path)
        self._spawn(self._serve())

    # -- test controls --------------------------------------------------------------------------

    def queue_results(self, *numbers: str | int) -> None:
        for n in numbers:
            number = str(n)
            if number not in self._pocket_names():
                raise ValueError(f"{number!r} is not a pocket of a {self.pockets}-pocket wheel")
            self.results.append(number)

    def inject(self, fault: WheelFault) -> None:
        self._faults.append(fault)

    async def wait_state(self, state: int, timeout: float = 60.0) -> None:
        """Until the wheel is in ``state`` (protocol time ``timeout``, via the clock)."""
        deadline = self.clock.monotonic() + timeout
        while self.state != state:
            if self.clock.monotonic() > deadline:
                raise TimeoutError(f"wheel never reached state {state} (now {self.state})")
            self._changed.clear()
            waiter = asyncio.ensure_future(self._changed.wait())
            sleeper = asyncio.ensure_future(self.clock.sleep(0.5))
            await asyncio.wait({waiter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            sleeper.cancel()

    # -- firmware -------------------------------------------------------------------------------

    def _pocket_names(self) -> list[str]:
        return [str(n) for n in range(37)] + (["00"] if self.pockets == 38 else [])

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _mark(self) -> None:
        self.history.append((self.clock.monotonic(), self.state, self.flags))
        self._changed.set()

    def _set(self, state: int | None = None, flags: int | None = None) -> None:
        if state is not None:
            self.state = state
        if flags is not None:
            self.flags = flags
        self._mark()

    def _power_on(self, delay: float) -> None:
        if self._run is not None:
            self._run.cancel()
        self._run = self._spawn(self._powered(delay))

    async def _powered(self, delay: float) -> None:
        await self.clock.sleep(delay)
        self.speed = round(self.rpm * 10)
        self._set(1, flags=0)
        if self._recurring is not None:
            fault, self._recurring = self._recurring, None
            await self.clock.sleep(2.0)
            await self._sensor_fault(fault)
            return
        await self.clock.sleep(self.timings.before_game)
        try:
            while True:
                started = False
                while True:
                    try:
                        await self._game(started)
                        break
                    except _Respin:
                        started = True
                self.spin = self.spin % 256 + 1
                if self.mode & 1:
                    self.direction ^= 1
                if self.mode & 1024:
                    self._set(1)
                    await self.clock.sleep(self.timings.before_game)
        except _Stopped:
            pass

    async def _game(self, started: bool) -> None:
        t = self.timings
        self._restart.clear()
        self._set(2, flags=self.flags & 4)
        if self.mode & 2 and not started:
            await self._start.wait()
            self._start.clear()
        await self._dwell(2, t.place_bets)
        misfire = self._take("launch_fail", 2)
        if misfire is not None:
            self._set(flags=self.flags | 8)
            await self._hold(misfire.duration)
            self._set(flags=self.flags & ~8)
        self._set(3)
        await self._dwell(3, t.ball_in_rim)
        self._set(4)
        await self._dwell(4, t.no_more_bets)
        number = self.results.popleft() if self.results else self.rng.choice(self._pocket_names())
        self.win = number
        if not self.mode & 16:
            self._write(codec.WinningNumber(number))
        self._set(5)
        await self._dwell(5, t.result)

    async def _dwell(self, state: int, duration: float) -> None:
        """Stay ``duration`` in ``state``, living through the fault injected for it, if any."""
        fault = next((f for f in self._faults if f.where() == state and not (f.kind == "launch_fail" and state == 2)), None)
        if fault is None:
            await self.clock.sleep(duration)
            return
        self._faults.remove(fault)
        begun = self.clock.monotonic()
        await self.clock.sleep(fault.at)
        if fault.kind == "launch_fail":
            self._set(flags=self.flags | 8)
            await self._hold(fault.duration)
            self._set(flags=self.flags & ~8)
        elif fault.kind == "miss_spin":
            self._set(flags=self.flags | 2)
            await self._restart.wait()
            self._set(flags=self.flags & ~2)
            raise _Respin
        elif fault.kind == "ball_not_sensed":
            self._set(flags=self.flags | 1)
            if fault.duration is None:
                await self.clock.sleep(self.timings.ball_lost_stop)
                self.speed = 0
                self._set(6, flags=0)
                raise _Stopped
            await self.clock.sleep(fault.duration)
            self._set(flags=self.flags & ~1)
        elif fault.kind == "sensor_fault":
            await self._sensor_fault(fault)
            raise _Stopped
        elif fault.kind == "state_6":
            self.speed = 0
            self._set(6, flags=0)
            raise _Stopped
        await self.clock.sleep(max(duration - (self.clock.monotonic() - begun), 0.0))

    async def _sensor_fault(self, fault: WheelFault) -> None:
        self._set(flags=self.flags | 4)
        if fault.recur:
            self._recurring = WheelFault("sensor_fault")
        await self.clock.sleep(self.timings.fault_shutdown)
        self.speed = 0
        self._set(6)

    async def _hold(self, duration: float | None) -> None:
        if duration is None:
            await asyncio.Event().wait()  # until power-off cancels the run
        else:
            await self.clock.sleep(duration)

    def _take(self, kind: str, state: int) -> WheelFault | None:
        for fault in self._faults:
            if fault.kind == kind and fault.where() == state:
                self._faults.remove(fault)
                return fault
        return None

    async def _spin_down(self) -> None:
        steps = 8
        start = self.speed
        for i in range(1, steps + 1):
            await self.clock.sleep(self.timings.spin_down / steps)
            self.speed = round(start * (steps - i) / steps)
        self._set(6, flags=self.flags & 4)
