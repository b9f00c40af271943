"""One table process: config -> journal -> the table's runtime (``controller.table_runtime``:
replay, devices, feed, console, the table task) -> the dealer's keyboard or simulated people.

The journal is opened here (its writer lock taken first) and closed last; everything between is
the ``TableRuntime``'s, which starts its parts in order and stops them in reverse.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from controller.config import TableConfig
from controller.journal import Journal
from controller.people.batch import simulated_people
from controller.people.players import SeatedPlayer, default_players
from controller.protection.seating import TableCount, seat
from controller.runtime.loop import TableLoop
from controller.table_runtime import FeedListener, TableRuntime, build_core
from controller.table_runtime import progressing as _progressing
from controller.terminal.keyboard import read_commands

__all__ = ["FeedListener", "TableRuntime", "_progressing", "build_core", "run_table"]


async def run_table(
    config: TableConfig,
    rounds: int | None = None,
    *,
    pace: float = 0.0,
    out: TextIO = sys.stdout,
    as_json: bool = False,
    prompts: bool = True,
    on_ready: Callable[[TableLoop, Any], Awaitable[None]] | None = None,
    keyboard: bool = True,
    stop_when_closed: bool = True,
    seated: list[SeatedPlayer] | None = None,
    after: Callable[[TableLoop], Awaitable[None]] | None = None,
) -> int:
    """Run until cancelled, or with ``rounds`` until simulated people played that many rounds.
    ``on_ready(loop, devices)`` runs once the table takes inputs (``croupier demo`` starts each
    table's console there); ``keyboard=False`` reads no dealer commands from stdin;
    ``stop_when_closed=False``: the simulated people wait while the pit has the table closed,
    and play on when it is reopened (the demo), instead of ending the run; ``seated`` replaces
    the default simulated players of a ``rounds`` run; ``after(loop)`` is awaited once they are
    played, before the table stops (``croupier studio simulate`` waits there for the studio's
    totals of the last round)."""
    # JournalInUse: another process has it; JournalKeyError: a keyed journal and no key configured
    journal = Journal(config.journal_path, exclusive=True, key=config.journal_key())
    runtime = TableRuntime(config, journal, out=out, as_json=as_json, prompts=prompts)
    try:
        result = runtime.recover(simulating=rounds is not None)
        if result.round_id is not None and not as_json:
            out.write(f"resumed round {result.round_id} from the journal ({result.inputs} inputs replayed)\n")
        await runtime.start(console_simulator=rounds is None)
        loop, devices, core = runtime.loop, runtime.devices, runtime.core
        if on_ready is not None:
            await on_ready(loop, devices)
        if rounds is None:
            if keyboard:
                await read_commands(loop)
            await asyncio.Event().wait()  # stdin closed: the devices still play, until stopped
            return 0
        limits = core.rules.limits.get(core.adapter.bet_kind)
        unit = limits.min if limits else 100
        players = seated or _styled_players(config, loop, unit) or default_players(unit)
        sim = simulated_people(config, loop, devices, players, rounds, pace, result.rounds_closed)
        sim.stop_when_closed = stop_when_closed
        runtime.tasks.append(asyncio.create_task(sim.run(), name="simulated-people"))
        await _until(sim.done, runtime.tasks)
        await loop.settled()
        if after is not None:
            await after(loop)
        return 0
    finally:
        await runtime.stop()
        journal.close()


def _styled_players(config: TableConfig, loop: TableLoop, unit: int) -> list[SeatedPlayer]:
    """``[simulated_players]``: a player per box in its style, counting the cards the table journals."""
    if not config.simulated_players:
        return []
    count = TableCount(getattr(config.game_rules(), "decks", 6))
    loop.listeners.append(count)
    return seat(config.simulated_players, unit, count.count, config.table.id)


async def _until(done: asyncio.Event, tasks: list[asyncio.Task[Any]]) -> None:
    """Wait for ``done``; a task that ends before it (crashed, or gave up) ends the run with its
    error instead of leaving the process waiting forever."""
    waiter = asyncio.create_task(done.wait())
    try:
        finished, _ = await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    if done.is_set():
        return
    for task in finished:
        task.result()  # re-raises what ended it
        raise RuntimeError(f"{task.get_name()} stopped before the rounds were played")
