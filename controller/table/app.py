"""One table process: config -> journal replay -> devices -> the table task (-> pit feed).

Order on start: the journal is replayed first (the round left open is rebuilt, missing
outputs written), a ``table_started`` entry records the restart, then the devices are opened
(a simulated shoe where the journal left it) and the shoe gate set to what the table needs,
and only then are new inputs taken.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any, TextIO

from controller.config import TableConfig
from controller.journal import Journal
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.devices import open_shoe
from controller.table.games import adapter_for
from controller.table.keyboard import read_commands
from controller.table.loop import TableLoop
from controller.table.players import SimulatedTable, default_players
from controller.table.printer import Printer
from controller.table.recovery import device_sync, replay


def build_core(config: TableConfig) -> TableCore:
    adapter = adapter_for(config.table.game)
    return TableCore(config.table.id, adapter, config.game_rules(), config.table.preset)


class FeedListener:
    """Keeps the pit feed's retained ``prompt`` and ``state`` current and wakes it per entry."""

    def __init__(self, feed: Any) -> None:
        self.feed = feed

    def on_entry(self, entry: Any) -> None:
        self.feed.notify()

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        self.feed.set_prompt({"text": prompt, "round": core.round_id})
        self.feed.set_state(core.state())


async def run_table(
    config: TableConfig,
    rounds: int | None = None,
    *,
    pace: float = 0.0,
    out: TextIO = sys.stdout,
    as_json: bool = False,
    prompts: bool = True,
) -> int:
    """Run until cancelled, or with ``rounds`` until simulated people played that many rounds."""
    journal = Journal(config.journal_path)
    core = build_core(config)
    result = replay(journal, core)
    journal.append(
        inputs.TABLE_STARTED,
        {"replayed": result.inputs, "written": result.written, "resumed_round": result.round_id,
         "game": config.table.game, "preset": config.table.preset, "rules": config.game_rules().model_dump(mode="json")},
        source="table", round_id=core.round_id,
    )
    core.restarted()  # as replay will do at this entry next time
    loop = TableLoop(core, journal)
    printer = Printer(out, as_json, prompts)
    loop.listeners.append(printer)
    if result.round_id is not None and not as_json:
        out.write(f"resumed round {result.round_id} from the journal ({result.inputs} inputs replayed)\n")
    devices = await open_shoe(config, core, loop.device_event)
    loop.shoe = devices.session
    tasks: list[asyncio.Task[Any]] = [asyncio.create_task(devices.session.run(), name="shoe-session")]
    stack = contextlib.AsyncExitStack()
    try:
        await _start_feed(config, journal, loop, stack)
        await loop.carry_out(list(device_sync(core)))
        tasks.append(asyncio.create_task(loop.run(), name="table"))
        if rounds is None:
            await read_commands(loop)
            await asyncio.Event().wait()  # stdin closed: the devices still play, until stopped
            return 0
        firmware = devices.firmware
        if firmware is None:
            raise RuntimeError("--rounds needs a simulated shoe (devices.shoe.transport = \"simulated\")")
        limits = core.rules.limits.get("main")
        sim = SimulatedTable(loop, firmware, default_players(limits.min if limits else 100), rounds, pace)
        tasks.append(asyncio.create_task(sim.run(), name="simulated-people"))
        await sim.done.wait()
        await loop.settled()
        return 0
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await stack.aclose()
        await devices.stop()
        journal.close()


async def _start_feed(config: TableConfig, journal: Journal, loop: TableLoop, stack: contextlib.AsyncExitStack) -> None:
    broker = config.mqtt.broker
    if broker == "none":
        return
    from controller.feed import Feed, PitCommand

    if broker == "embedded":
        from simulators.broker import EmbeddedBroker

        embedded = await stack.enter_async_context(EmbeddedBroker())
        broker = embedded.url

    def on_command(command: PitCommand) -> None:
        loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    feed = await stack.enter_async_context(Feed.connect(broker, journal, config.table.id, on_command))
    loop.listeners.append(FeedListener(feed))
