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
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from controller.config import TableConfig
from controller.journal import Journal
from controller.metrics import table_metrics
from controller.people.batch import simulated_people
from controller.people.players import SeatedPlayer, default_players
from controller.people.strategy_cache import warm as warm_strategy
from controller.protection.live import watch_table
from controller.protection.mismatch import watch_mismatches
from controller.protection.pace_live import watch_pace
from controller.protection.seating import TableCount, seat
from controller.protection.wheel_live import watch_wheel
from controller.runtime.devices import FEED_LINK, link_alarm, open_devices
from controller.runtime.loop import TableLoop
from controller.runtime.recovery import device_sync, replay
from controller.runtime.snapshot import Snapshots
from controller.sd_notify import Notifier
from controller.table import inputs
from controller.table.betting import BettingTime
from controller.table.core import TableCore
from controller.table.registry import adapter_for
from controller.terminal.keyboard import read_commands
from controller.terminal.printer import Printer


def build_core(config: TableConfig) -> TableCore:
    adapter = adapter_for(config.table.game)
    return TableCore(config.table.id, adapter, config.game_rules(), config.table.preset,
                     config.table.burn_on_new_shoe, config.table.currency, config.table.currency_digits)


def betting_time(config: TableConfig) -> BettingTime:
    """The table's betting time and remote bets (``[table] betting_s``, ``remote``, ``seal_grace_s``)."""
    return BettingTime(config.table.betting_s, config.table.seal_grace_s, config.table.remote)


class FeedListener:
    """Keeps the pit feed's retained ``prompt`` and ``state`` current and wakes it per entry."""

    def __init__(self, feed: Any) -> None:
        from controller.feed.studio import BettingLeaf

        self.feed = feed
        self.betting = BettingLeaf(feed)  # the studio's retained ``betting`` (docs/studio.md)

    def on_entry(self, entry: Any) -> None:
        self.feed.notify()

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        self.feed.set_prompt({"text": prompt, "round": core.round_id})
        self.feed.set_state(core.state)  # built when sent: most are replaced before
        self.betting.update(core)

    def on_state(self, core: TableCore) -> None:
        """The prompt is the same but the pit's view changed (open alerts, corrections)."""
        self.feed.set_state(core.state)
        self.betting.update(core)


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
) -> int:
    """Run until cancelled, or with ``rounds`` until simulated people played that many rounds.
    ``on_ready(loop, devices)`` runs once the table takes inputs (``croupier demo`` starts each
    table's console there); ``keyboard=False`` reads no dealer commands from stdin;
    ``stop_when_closed=False``: the simulated people wait while the pit has the table closed,
    and play on when it is reopened (the demo), instead of ending the run; ``seated`` replaces
    the default simulated players of a ``rounds`` run."""
    # JournalInUse: another process has it; JournalKeyError: a keyed journal and no key configured
    journal = Journal(config.journal_path, exclusive=True, key=config.journal_key())
    metrics = table_metrics(config, journal)  # before replay: what replay writes is counted too
    core = build_core(config)
    if rounds is not None:
        warm_strategy(core.rules, config.journal_path.parent)  # from its cache after the first start
        core.adapter.prepare_simulation(core.rules)  # before any device or broker is waiting on this loop
    result = replay(journal, core)
    journal.append(
        inputs.TABLE_STARTED,
        {"replayed": result.inputs, "written": result.written, "resumed_round": result.round_id,
         "game": config.table.game, "preset": config.table.preset, "rules": config.game_rules().model_dump(mode="json"),
         "burn_on_new_shoe": config.table.burn_on_new_shoe, "hold_open_round": True,
         "betting": betting_time(config).dump()},
        source="table", round_id=core.round_id,
    )
    core.restarted()  # as replay will do at this entry next time
    core.pace_goal = (config.protection.pace_target, config.protection.pace_window_s)  # None: the game's default target
    core.set_burn(config.table.burn_on_new_shoe)
    core.betting.set_time(betting_time(config))  # as replay will do at this entry next time
    loop = TableLoop(core, journal)
    loop.applied_hooks.append(Snapshots(journal).applied)
    if metrics is not None:
        loop.applied_hooks.append(metrics.applied)
    printer = Printer(out, as_json, prompts, currency=config.table.currency, digits=config.table.currency_digits)
    loop.listeners.append(printer)
    advantage_watch = watch_table(loop, journal, config)  # a blackjack table's flags to the pit (docs/protection.md)
    if advantage_watch is not None:
        loop.listeners.append(advantage_watch)
    wheel_watch = watch_wheel(loop, journal, config)  # a roulette table's wheel alerts to the pit
    if wheel_watch is not None:
        loop.listeners.append(wheel_watch)
    loop.listeners.append(watch_pace(loop, journal, config))  # the pace against its target, and its alert
    loop.listeners.append(watch_mismatches(loop, journal, config))  # two-source mismatch rates
    if result.round_id is not None and not as_json:
        out.write(f"resumed round {result.round_id} from the journal ({result.inputs} inputs replayed)\n")
    devices = await open_devices(config, core, loop.device_event)  # the game's and every other configured one
    loop.devices.update(devices.opened)
    tasks: list[asyncio.Task[Any]] = []  # an open device runs itself until closed
    stack = contextlib.AsyncExitStack()
    try:
        broker = await _start_feed(config, journal, loop, stack)
        feeds = [listener.feed for listener in loop.listeners if isinstance(listener, FeedListener)]
        if metrics is not None and feeds:
            metrics.watch_feed_lag(lambda: feeds[0].stats.lag)
        await _start_spots(config, journal, loop, stack, broker)
        if config.console.enabled:  # the dealer's touch console (docs/console.md)
            from controller.console import serve_console

            await serve_console(config, loop, stack, out,
                                simulator=devices.simulator_panel() if rounds is None else None)
        await loop.carry_out(list(device_sync(core)))
        tasks.append(asyncio.create_task(loop.run(), name="table"))
        notifier = Notifier.from_env()  # under systemd (Type=notify): ready now, and the watchdog
        if notifier is not None:
            stack.callback(notifier.close)
            stack.callback(notifier.send, "STOPPING=1")
            notifier.send("READY=1", f"STATUS=table {config.table.id} takes inputs")
            tasks.append(asyncio.create_task(notifier.watchdog(_progressing(loop, tasks[0])), name="watchdog"))
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
        tasks.append(asyncio.create_task(sim.run(), name="simulated-people"))
        await _until(sim.done, tasks)
        await loop.settled()
        return 0
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await stack.aclose()
        await devices.close()
        if metrics is not None:
            metrics.close()
        journal.close()


def _progressing(loop: TableLoop, table: asyncio.Task[Any]) -> Callable[[], bool]:
    """For the watchdog: the table task runs, and is idle or has stepped since the last look
    (inputs waiting while no step ends for a whole interval is a hung loop)."""
    last = -1

    def alive() -> bool:
        nonlocal last
        previous, last = last, loop.steps
        return not table.done() and ((loop.pending == 0 and not loop.busy) or last != previous)

    return alive


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


async def _start_feed(config: TableConfig, journal: Journal, loop: TableLoop,
                      stack: contextlib.AsyncExitStack) -> str | None:
    """The pit feed on the ``[mqtt]`` broker; that broker's URL (the embedded one's once started)."""
    broker = config.mqtt.connect_url()  # with its secret (docs/security.md)
    if broker == "none":
        return None
    from controller.feed import Feed, PitCommand

    if broker == "embedded":
        from simulators.broker import EmbeddedBroker

        embedded = await stack.enter_async_context(EmbeddedBroker())
        broker = embedded.url

    def on_command(command: PitCommand) -> None:
        loop.submit(inputs.PIT_COMMAND, command, f"pit:{command.sender}")

    feed = Feed.connect(broker, journal, config.table.id, on_command)
    feed.admission = loop.admission  # pit commands rate-limited, refusals counted (admission.py)
    feed.link.on_alarm.append(link_alarm(loop, FEED_LINK))  # a dead broker or a taken session is loud
    studio = _studio_inbox(config, journal, loop, feed)
    await stack.enter_async_context(feed)
    if studio is not None:
        await stack.enter_async_context(studio)
    listener = FeedListener(feed)
    loop.listeners.append(listener)
    listener.on_state(loop.core)  # the betting leaf at the feed's start
    return broker


def _studio_inbox(config: TableConfig, journal: Journal, loop: TableLoop, feed: Any) -> Any:
    """A remote table reads the studio's seal and totals (``croupier/<table>/studio``) on the feed's link."""
    if not config.table.remote:
        return None
    from controller.feed.studio import StudioInbox

    def on_message(message: Any) -> None:
        try:
            loop.submit(inputs.STUDIO, message, "studio")
        except inputs.InputRefused as refused:  # the disk is full: the studio sends again or the grace closes
            loop.admission.refused("studio", refused.code, refused.message)

    return StudioInbox(feed, journal, on_message, loop.admission)


async def _start_spots(config: TableConfig, journal: Journal, loop: TableLoop, stack: contextlib.AsyncExitStack,
                       feed_broker: str | None) -> None:
    """The bet spots, when ``[devices.spots]`` is enabled (watermarks restored from the journal)."""
    spots = config.devices.spots
    if not spots.enabled:
        return
    broker = config.mqtt.connect_url(spots.broker) if spots.broker else feed_broker
    if broker is None:
        raise RuntimeError("devices.spots needs a broker: set devices.spots.broker or mqtt.broker")
    from controller.runtime.spots import TableSpots

    await stack.enter_async_context(TableSpots(loop, journal, broker, config.table.id, spots.spots))
