"""One table process as one object: it owns the parts (journal, core, loop, devices, feed, spots,
console, metrics, printer, the demo's broker), wires them to the loop in one place, starts them
in order, stops them in reverse, and describes them in one diagnostics dump
(``croupier diagnose``, docs/deployment.md).

Order on start: the journal is replayed first (the round left open is rebuilt, missing
outputs written), a ``table_started`` entry records the restart, then the devices are opened
(a simulated shoe where the journal left it) and the shoe gate set to what the table needs,
and only then are new inputs taken. The journal itself is opened (and its writer lock taken) by
the caller, who closes it after ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from controller.config import TableConfig
from controller.heap import frozen_heap
from controller.journal import Journal
from controller.metrics import table_metrics
from controller.people.strategy_cache import warm as warm_strategy
from controller.protection.live import watch_table
from controller.protection.mismatch import watch_mismatches
from controller.protection.pace_live import watch_pace
from controller.protection.wheel_live import watch_wheel
from controller.runtime import diagnostics
from controller.runtime.devices import FEED_LINK, TableDevices, link_alarm, open_devices
from controller.runtime.loop import Listener, TableLoop
from controller.runtime.recovery import Replay, device_sync, replay
from controller.runtime.snapshot import Snapshots
from controller.sd_notify import Notifier
from controller.table import inputs
from controller.table.betting import BettingTime
from controller.table.core import TableCore
from controller.table.registry import adapter_for
from controller.terminal.printer import Printer


def build_core(config: TableConfig) -> TableCore:
    adapter = adapter_for(config.table.game)
    return TableCore(config.table.id, adapter, config.game_rules(), config.table.preset,
                     config.table.burn_on_new_shoe, config.table.currency, config.table.currency_digits)


def betting_time(config: TableConfig) -> BettingTime:
    """The table's betting time and remote bets (``[table] betting_s``, ``remote``, ``seal_grace_s``,
    ``decision_s``, ``decision_policy``)."""
    table = config.table
    return BettingTime(table.betting_s, table.seal_grace_s, table.remote, table.decision_s, table.decision_policy)


class FeedListener:
    """Keeps the pit feed's retained ``prompt``, ``state`` and ``betting`` current and wakes it per entry."""

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

    def on_outcome(self, outcome: dict[str, Any]) -> None:
        """What became of an input, on the feed's ``outcome`` (docs/protocols.md)."""
        self.feed.put_outcome(outcome)


class TableRuntime:
    """The parts of one table process; ``recover``, ``start``, then ``stop`` (see the module)."""

    def __init__(self, config: TableConfig, journal: Journal, *, out: TextIO = sys.stdout, as_json: bool = False,
                 prompts: bool = True) -> None:
        self.config = config
        self.journal = journal
        self.out = out
        self.metrics = table_metrics(config, journal)  # before replay: what replay writes is counted too
        self.core = build_core(config)
        self.loop = TableLoop(self.core, journal)
        self.printer = Printer(out, as_json, prompts, currency=config.table.currency,
                               digits=config.table.currency_digits)
        self.devices = TableDevices([])
        self.feed: Any = None  # controller.feed.Feed, when [mqtt] names a broker
        self.broker: str | None = None  # the feed's broker URL (with its secret: never shown)
        self.spots: Any = None  # controller.runtime.spots.TableSpots, when [devices.spots] is on
        self.console: Any = None  # controller.console.ConsoleServer, when [console] is on
        self.replayed: Replay | None = None
        #: the table task, the watchdog, the simulated people: cancelled first on stop
        self.tasks: list[asyncio.Task[Any]] = []
        #: the unix socket the live diagnostics are served on (None: not served)
        self.diagnostics_path: Path | None = None
        self._stack = contextlib.AsyncExitStack()
        self._wire()

    def _wire(self) -> None:
        """Every part that follows the loop, registered in this one place."""
        config, loop, journal = self.config, self.loop, self.journal
        self.snapshots = Snapshots(journal)
        loop.applied_hooks.append(self.snapshots.applied)
        if self.metrics is not None:
            loop.applied_hooks.append(self.metrics.applied)
        watchers: list[Listener | None] = [
            self.printer,
            watch_table(loop, journal, config),  # a blackjack table's flags to the pit (docs/protection.md)
            watch_wheel(loop, journal, config),  # a roulette table's wheel alerts to the pit
            watch_pace(loop, journal, config),  # the pace against its target, and its alert
            watch_mismatches(loop, journal, config),  # two-source mismatch rates
        ]
        loop.listeners.extend(w for w in watchers if w is not None)

    # -- start and stop ---------------------------------------------------------------------------
    def recover(self, *, simulating: bool = False) -> Replay:
        """Replay the journal into the core and journal the restart (before any device opens).
        ``simulating``: simulated people will play (their strategy is warmed first)."""
        config, core = self.config, self.core
        if simulating:
            warm_strategy(core.rules, config.journal_path.parent)  # from its cache after the first start
            core.adapter.prepare_simulation(core.rules)  # before any device or broker is waiting on this loop
        result = self.replayed = replay(self.journal, core)
        self.snapshots.carry(result.unsnapshotted)  # the next snapshot counts the inputs just replayed
        self.journal.append(
            inputs.TABLE_STARTED,
            {"replayed": result.inputs, "written": result.written, "resumed_round": result.round_id,
             "game": config.table.game, "preset": config.table.preset,
             "rules": config.game_rules().model_dump(mode="json"),
             "burn_on_new_shoe": config.table.burn_on_new_shoe, "hold_open_round": True,
             "betting": betting_time(config).dump()},
            source="table", round_id=core.round_id,
        )
        core.restarted()  # as replay will do at this entry next time
        core.pace_goal = (config.protection.pace_target, config.protection.pace_window_s)  # None: the game's default
        core.set_burn(config.table.burn_on_new_shoe)
        core.betting.set_time(betting_time(config))  # as replay will do at this entry next time
        return result

    async def start(self, *, console_simulator: bool = True) -> None:
        """Devices, then the feed (and the demo's broker), the spots, the console, the shoe
        gate; then the table task takes inputs. ``console_simulator``: the console shows the
        simulated shoe's panel (not while simulated people deal)."""
        config, loop = self.config, self.loop
        self.devices = await open_devices(config, self.core, loop.device_event)  # the game's and every other one
        loop.devices.update(self.devices.opened)
        await self._start_feed()
        await self._start_spots()
        if config.console.enabled:  # the dealer's touch console (docs/console.md)
            from controller.console import serve_console

            panel = self.devices.simulator_panel() if console_simulator else None
            self.console = await serve_console(config, loop, self._stack, self.out, simulator=panel)
        self.diagnostics_path = await self._stack.enter_async_context(
            diagnostics.serving(diagnostics.diagnostics_socket(config), self.diagnostics))
        await loop.carry_out(list(device_sync(self.core)))
        self._stack.enter_context(frozen_heap())  # what the start made stays out of full collections
        table = asyncio.create_task(loop.run(), name="table")
        self.tasks.append(table)
        notifier = Notifier.from_env()  # under systemd (Type=notify): ready now, and the watchdog
        if notifier is not None:
            self._stack.callback(notifier.close)
            self._stack.callback(notifier.send, "STOPPING=1")
            notifier.send("READY=1", f"STATUS=table {config.table.id} takes inputs")
            self.tasks.append(asyncio.create_task(notifier.watchdog(progressing(loop, table)), name="watchdog"))

    async def stop(self) -> None:
        """In reverse: the tasks, then what ``start`` entered (console, spots, feed, broker),
        the devices, the metrics endpoint. The journal stays open for its owner to close."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()
        try:
            await self._stack.aclose()
        finally:
            await self.devices.close()
            if self.metrics is not None:
                self.metrics.close()

    async def _start_feed(self) -> None:
        """The pit feed on the ``[mqtt]`` broker (the embedded one started first in the demo)."""
        broker = self.config.mqtt.connect_url()  # with its secret (docs/security.md)
        if broker == "none":
            return
        from controller.feed import Feed, PitCommand

        if broker == "embedded":
            from simulators.broker import EmbeddedBroker

            embedded = await self._stack.enter_async_context(EmbeddedBroker())
            broker = embedded.url
        loop = self.loop

        def on_command(command: PitCommand) -> None:
            loop.submit(inputs.PIT_COMMAND, command, f"pit:{command.sender}")

        feed = Feed.connect(broker, self.journal, self.config.table.id, on_command)
        feed.admission = loop.admission  # pit commands rate-limited, refusals counted (admission.py)
        feed.link.on_alarm.append(link_alarm(loop, FEED_LINK))  # a dead broker or a taken session is loud
        studio = self._studio_inbox(feed)
        await self._stack.enter_async_context(feed)
        if studio is not None:
            await self._stack.enter_async_context(studio)
        listener = FeedListener(feed)
        loop.listeners.append(listener)
        loop.outcome_listeners.append(listener)
        listener.on_state(loop.core)  # the betting leaf at the feed's start
        if studio is not None:  # a seat taken at an idle table changes no prompt: the studio reads it in the leaf
            loop.applied_hooks.append(lambda core, entry: listener.betting.seats_moved(core))
        self.feed, self.broker = feed, broker
        if self.metrics is not None:
            self.metrics.watch_feed_lag(lambda: feed.stats.lag)

    def _studio_inbox(self, feed: Any) -> Any:
        """A remote table reads the studio's seal and totals (``croupier/<table>/studio``) on the feed's link."""
        if not self.config.table.remote:
            return None
        from controller.feed.studio import StudioInbox

        loop = self.loop

        def on_message(message: Any) -> None:
            try:
                loop.submit(inputs.STUDIO, message, "studio")
            except inputs.InputRefused as refused:  # the disk is full: the studio sends again or the grace closes
                loop.admission.refused("studio", refused.code, refused.message)

        return StudioInbox(feed, self.journal, on_message, loop.admission)

    async def _start_spots(self) -> None:
        """The bet spots, when ``[devices.spots]`` is enabled (watermarks restored from the journal)."""
        spots = self.config.devices.spots
        if not spots.enabled:
            return
        broker = self.config.mqtt.connect_url(spots.broker) if spots.broker else self.broker
        if broker is None:
            raise RuntimeError("devices.spots needs a broker: set devices.spots.broker or mqtt.broker")
        from controller.runtime.spots import TableSpots

        self.spots = await self._stack.enter_async_context(
            TableSpots(self.loop, self.journal, broker, self.config.table.id, spots.spots))

    # -- diagnostics ------------------------------------------------------------------------------
    def diagnostics(self) -> dict[str, Any]:
        """Everything an operator asks first, JSON-able and without a secret."""
        core = self.core
        hold = core.hold
        return {
            "source": "live", "pid": os.getpid(),
            "config": diagnostics.config_summary(self.config),
            "journal": diagnostics.journal_summary(self.journal),
            "devices": diagnostics.devices_report(self.loop.devices),
            "feed": self._feed_report(),
            "console": None if self.console is None else {"url": self.console.url,
                                                          "clients": len(self.console.hub.pages)},
            "table": {"round": core.round_id, "hold": None if hold is None else hold.view(),
                      "outage": None if core.outage is None else core.outage.view(),
                      "alerts_open": len(core.alerts_open), "inputs_waiting": self.loop.pending,
                      "steps": self.loop.steps},
        }

    def _feed_report(self) -> dict[str, Any] | None:
        feed = self.feed
        if feed is None:
            return None
        return {"broker": feed.link.url.redacted(), **feed.link.runner.diagnostics(),
                "outbox": feed.link.pending, "backlog": feed.stats.lag, "cursor": feed.stats.cursor}


def progressing(loop: TableLoop, table: asyncio.Task[Any]) -> Callable[[], bool]:
    """For the watchdog: the table task runs, and is idle or has stepped since the last look
    (inputs waiting while no step ends for a whole interval is a hung loop)."""
    last = -1

    def alive() -> bool:
        nonlocal last
        previous, last = last, loop.steps
        return not table.done() and ((loop.pending == 0 and not loop.busy) or last != previous)

    return alive
