"""Running a long-lived command until it is stopped: SIGTERM (``systemctl stop``, ``kill``)
is handled exactly like Ctrl-C.

``asyncio.run`` turns SIGINT into a cancellation of the main task, so every ``finally`` and
``async with`` on the way out runs: the round is left for resume-or-void, the feed publishes
``online = 0`` and flushes, the journal is closed. Without a handler SIGTERM kills the process
on the spot, skipping all of that. ``run`` gives SIGTERM the same path; a second signal while
stopping is ignored (systemd's ``TimeoutStopSec`` is the backstop).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def _until_terminated(main: Coroutine[Any, Any, T]) -> T | None:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    stopping = False

    def stop() -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            task.cancel()

    loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        return await main
    except asyncio.CancelledError:
        if not stopping:
            raise
        return None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def run(main: Coroutine[Any, Any, T]) -> T | None:
    """``asyncio.run(main)`` until it ends, Ctrl-C or SIGTERM: None when stopped by either."""
    result: T | None = None
    with contextlib.suppress(KeyboardInterrupt):
        result = asyncio.run(_until_terminated(main))
    return result
