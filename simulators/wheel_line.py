"""How the simulated SS2 talks on its line: automatic statuses, and the answer to every host
command as the studio wheel gives it (``*o BUSY``/``*F BUSY`` during a game, ``*P NO`` when
already in that state, ``*<c> NO`` for what it does not know).

Split from ``WheelSimulator`` (``simulators.wheel``), which runs the firmware's game cycle and
faults; this is its serial side, sharing the codec with the driver and nothing else.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any

from drivers.clock import Clock
from drivers.wheel import codec
from simulators.pty_port import PtyPort
from simulators.wheel_timings import Timings

IDLE = (1, 6)
"""States in which the wheel accepts ``*o <mode>`` and ``*F``."""


class WheelLine:
    """The wheel's side of the serial line, on a simulator that provides its state and power."""

    clock: Clock
    rng: random.Random
    port: PtyPort | None
    timings: Timings
    state: int
    spin: int
    win: str | None
    flags: int
    speed: int
    direction: int
    mode: int
    pockets: int
    version: str
    banner: str
    answers_banner: bool
    wall: Callable[[], datetime]
    settings: dict[str, str]
    self_test_codes: list[int]
    received: list[str]
    _framer: codec.LineFramer
    _start: asyncio.Event
    _restart: asyncio.Event
    _run: asyncio.Task[None] | None

    def status(self) -> codec.Status:
        return codec.Status(self.state, self.spin, self.win, self.flags, self.speed, self.direction)

    def noise(self, data: bytes) -> None:
        """Raw bytes on the line now: fragments, garbage, a line without its end."""
        self._write_raw(data)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        raise NotImplementedError

    def _power_on(self, delay: float) -> None:
        raise NotImplementedError

    async def _spin_down(self) -> None:
        raise NotImplementedError

    def _write(self, message: codec.Reply) -> None:
        self._write_raw(codec.encode(message))

    def _write_raw(self, data: bytes) -> None:
        try:
            if self.port is not None:
                self.port.write(data)
        except (ConnectionError, OSError):
            pass  # unplugged: the wheel talks to nobody

    async def _auto_status(self) -> None:
        period = self.timings.status_period
        next_at = self.clock.monotonic() + period
        while True:
            await self.clock.sleep(max(next_at - self.clock.monotonic(), 0.0))
            next_at += period
            if self.mode & 128:
                self._write(self.status())

    async def _serve(self) -> None:
        assert self.port is not None and self.port.reader is not None
        try:
            await self._serve_lines(self.port.reader)
        except (ConnectionError, OSError):
            pass  # unplugged

    async def _serve_lines(self, reader: asyncio.StreamReader) -> None:
        while data := await reader.read(256):
            for line in self._framer.feed(data):
                text = line.decode("latin-1")
                self.received.append(text)
                reply = self._command(codec.parse_command(line), text)
                if reply is not None:
                    await self.clock.sleep(self.timings.reply_delay)
                    self._write_raw(reply.encode("latin-1") + b"\r\n")

    def _command(self, cmd: codec.Command | codec.Unknown, text: str) -> str | None:
        """The wheel's answer to one host line (None: it stays silent)."""
        match cmd:
            case codec.Poll():
                return self.status().line()
            case codec.Power(on=on):
                return self._power(on)
            case codec.StartGame():
                self._start.set()
                return "*u OK"
            case codec.Restart():
                self._restart.set()
                return "*R OK"
            case codec.GetVersion():
                return codec.Version(self.version).line()
            case codec.GetBanner():
                return codec.Banner(self.banner).line() if self.answers_banner else None
            case codec.SetMode(mode=None):
                return codec.ModeReply(self.mode).line()
            case codec.SetMode(mode=int() as mode):
                return self._set_mode(mode)
            case codec.GetOperating():
                return codec.Operating(self.state, True, int(self.settings.get("h", "60")), self.mode).line()
            case codec.RunSelfTest():
                if self.state not in IDLE:
                    return codec.SelfTest(None).line()
                self._spawn(self._self_test())
                return None
            case codec.GetClock():
                return codec.WheelClock(self.wall().replace(microsecond=0)).line()
            case codec.SetSetting(key=key, value=value):
                return self._setting(key, value)
        if text.startswith("*"):
            return f"*{text[1:2] or ' '} NO"
        return None

    def _power(self, on: bool) -> str:
        """``*P 1`` powers a wheel that is off; ``*P 0`` spins a running one down."""
        if on == (self.state != 6):
            return "*P NO"
        if on:
            self._power_on(self.timings.power_up)
        elif self._run is not None and not self._run.done():
            self._run.cancel()
            self._run = self._spawn(self._spin_down())
        return "*P OK"

    def _set_mode(self, mode: int) -> str:
        if self.state not in IDLE:
            return codec.ModeReply(None).line()
        self.mode = mode
        return codec.ModeReply(mode).line()

    def _setting(self, key: str, value: str | None) -> str:
        """A setting read back (``value`` None) or written; the pocket count only while idle."""
        if value is None:
            return codec.Setting(key, tuple(self.settings[key].split(" "))).line() if key in self.settings else "*T NO"
        if key == "z":
            if value not in ("37", "38") or self.state not in IDLE:
                return "*T NO"
            self.pockets = int(value)
        self.settings[key] = value
        return "*T OK"

    async def _self_test(self) -> None:
        await self.clock.sleep(self.timings.self_test)
        for code in self.self_test_codes or [0]:
            self._write(codec.SelfTest(code))
