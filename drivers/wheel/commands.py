"""The SS2's command set (``docs/devices.md``), each sent on the session's line and its reply
awaited within a timeout; a command that gets no answer is a ``command_timeout`` warning.

Split from ``WheelSession``, which owns the line (reading, ticking, polling, identity): this owns
what a caller asks the wheel and how a reply is matched to the asking.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar, cast

from drivers.clock import Clock
from drivers.errors import DeviceDisconnected, DeviceTimeout
from drivers.events import DeviceEvent
from drivers.wheel import codec
from drivers.wheel.core import WheelCore
from drivers.wheel.events import SelfTestResult, WheelWarning

M = TypeVar("M")
MIN_POLL_INTERVAL = 0.1


class WheelNotConnected(DeviceDisconnected):
    """A command was issued while the port is closed (or it closed before the reply)."""


class WheelTimeout(DeviceTimeout):
    """The wheel did not answer a command in time."""


class WheelCommands:
    """What a caller asks the wheel, on a session that provides the line (``_send``), the clock, the
    core and the waiters it matches replies and events against."""

    device: str
    url: str
    clock: Clock
    core: WheelCore
    mode: int | None
    reply_timeout: float
    _lock: asyncio.Lock
    _replies: list[tuple[Callable[[codec.WheelMessage], bool], asyncio.Future[codec.WheelMessage]]]
    _event_waiters: list[tuple[Callable[[DeviceEvent], bool], asyncio.Future[DeviceEvent]]]

    def _send(self, command: codec.Command) -> None:
        raise NotImplementedError

    def _emit(self, event: DeviceEvent) -> None:
        raise NotImplementedError

    async def _race(self, *aws: Awaitable[Any]) -> None:
        tasks = [asyncio.ensure_future(a) for a in aws]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()

    async def _within(self, future: asyncio.Future[M], seconds: float, what: str, warn: bool = True) -> M:
        await self._race(future, self.clock.sleep(seconds))
        if future.done() and not future.cancelled():
            return future.result()
        if warn:
            self._emit(WheelWarning(device=self.device, code="command_timeout", detail=what))
        raise WheelTimeout(f"{self.device}: no answer to {what} within {seconds:g} s")

    async def _request(
        self, command: codec.Command, kind: type[M], accept: Callable[[M], bool] = lambda m: True, timeout: float | None = None,
        warn: bool = True,
    ) -> M:
        async with self._lock:
            future: asyncio.Future[codec.WheelMessage] = asyncio.get_running_loop().create_future()
            waiter = (lambda m: isinstance(m, kind) and accept(m), future)
            self._replies.append(waiter)
            try:
                self._send(command)
                reply = await self._within(future, timeout or self.reply_timeout, command.line(), warn)
                return cast(M, reply)
            finally:
                if waiter in self._replies:
                    self._replies.remove(waiter)

    async def power(self, on: bool) -> bool:
        """``*P 1``/``*P 0``: True on ``*P OK``, False on ``*P NO`` (already in that state)."""
        return (await self._request(codec.Power(on), codec.PowerReply)).ok

    async def repower(self, spin_down: float = 60.0) -> None:
        """Re-power the wheel as its guide asks after a fault (``*P 0``, state 6 once it has spun
        down, ``*P 1``) for a fault this process did not see: one journaled before a restart. A
        healthy state 1 or 2 after ``*P OK`` is then reported as ``recovered``."""
        self.core.arm_recovery()
        await self.power(False)  # *P NO: it is already in state 6
        deadline = self.clock.monotonic() + spin_down
        while self.core.status is None or self.core.status.state != 6:
            if self.clock.monotonic() > deadline:
                self._emit(WheelWarning(device=self.device, code="command_timeout",
                                        detail=f"*P 0: no state 6 within {spin_down:g} s"))
                return
            await self.clock.sleep(MIN_POLL_INTERVAL)
        await self.power(True)

    async def start_game(self) -> None:
        """``*u 1``: start the next game (modes with bit 2 wait for it)."""
        await self._request(codec.StartGame(), codec.StartAck)

    async def restart(self) -> None:
        """``*R``: restart / acknowledge a void."""
        await self._request(codec.Restart(), codec.RestartAck)

    async def poll(self) -> codec.Status:
        return await self._request(codec.Poll(), codec.Status)

    async def set_mode(self, mode: int) -> bool:
        """``*o <mode>``: True when echoed, False on ``*o BUSY`` (a game is running)."""
        reply = await self._request(codec.SetMode(mode), codec.ModeReply)
        if reply.mode is not None:
            self.mode = reply.mode
        return reply.mode is not None

    async def get_mode(self) -> int | None:
        return (await self._request(codec.SetMode(None), codec.ModeReply)).mode

    async def operating(self) -> codec.Operating:
        return await self._request(codec.GetOperating(), codec.Operating)

    async def wheel_clock(self) -> datetime:
        return (await self._request(codec.GetClock(), codec.WheelClock)).at

    async def version(self) -> str:
        return (await self._request(codec.GetVersion(), codec.Version)).version

    async def banner(self) -> str:
        return (await self._request(codec.GetBanner(), codec.Banner)).text

    async def setting(self, key: str) -> tuple[str, ...]:
        """``*T <KEY>`` read-back, e.g. ``setting("z")`` -> ("37",)."""
        reply = await self._request(codec.SetSetting(key), codec.Setting, lambda m: m.key == key.lower())
        return reply.values

    async def set_setting(self, key: str, value: str) -> None:
        """``*T <key> <value>``, e.g. ``set_setting("z", "37")``; answered ``*T OK``."""
        await self._request(codec.SetSetting(key, value), codec.SettingAck)

    async def self_test(self, timeout: float = 150.0) -> SelfTestResult:
        """``*F`` (idle only): the collected result, also emitted as a ``self_test`` event."""
        async with self._lock:
            future: asyncio.Future[DeviceEvent] = asyncio.get_running_loop().create_future()
            waiter = (lambda e: isinstance(e, SelfTestResult), future)
            self._event_waiters.append(waiter)
            try:
                self._send(codec.RunSelfTest())
                return cast(SelfTestResult, await self._within(future, timeout, "*F"))
            finally:
                if waiter in self._event_waiters:
                    self._event_waiters.remove(waiter)
