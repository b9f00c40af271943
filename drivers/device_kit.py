"""What every ``Device`` implementation shares: named commands checked against their signature,
and the event stream read from a session's queue (``docs/devices.md``)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from drivers.errors import UnsupportedCommand
from drivers.events import DeviceEvent

Command = Callable[..., Awaitable[Any]]
#: where a device delivers events when the caller gives one: called synchronously, before the
#: device acknowledges what it received (the table journals there, so a card is durable first)
EventSink = Callable[[DeviceEvent], None]


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel a device's session task and wait until it has ended (``None``: nothing to stop)."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def dispatch(device: str, commands: Mapping[str, Command], name: str, arguments: Mapping[str, Any]) -> None:
    """Run ``commands[name](**arguments)``; ``UnsupportedCommand`` naming the known commands or
    the expected arguments when the call does not fit (checked before anything is sent)."""
    command = commands.get(name)
    if command is None:
        raise UnsupportedCommand(f"{device} has no command {name!r}; it takes: {', '.join(sorted(commands))}")
    try:
        inspect.signature(command).bind(**arguments)
    except TypeError as exc:
        raise UnsupportedCommand(f"{device} command {name}: {exc}") from None
    await command(**arguments)


async def queued_events(queue: asyncio.Queue[DeviceEvent], closed: asyncio.Event, sink: EventSink | None,
                        device: str) -> AsyncIterator[DeviceEvent]:
    """A session's queued events until the device is closed (not with a sink: they went there)."""
    if sink is not None:
        raise RuntimeError(f"{device} delivers its events to the sink it was built with")
    while not closed.is_set():
        getter = asyncio.ensure_future(queue.get())
        closer = asyncio.ensure_future(closed.wait())
        try:
            await asyncio.wait({getter, closer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closer.cancel()
            if not getter.done():
                getter.cancel()
        if getter.done() and not getter.cancelled():
            yield getter.result()
