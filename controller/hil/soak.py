"""``croupier hil soak``: one table played for N rounds under seeded faults, then judged.

The controller is a child process (``croupier run --rounds``); its shoe or wheel is the soak's
rig on a pty; its broker is the soak's mosquitto; its journal sits on a small tmpfs that can be
filled. The main loop follows the journal, deals when the round asks for a card, and restarts
the controller whenever it is gone; the fault tasks inject the schedule, one task per part of
the rig (the table, the broker, the device), each in order and one fault at a time, each fault at
its point of the run (docs/hil.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.config import load
from controller.hil import faults as fault_kit
from controller.hil.broker import SoakBroker
from controller.hil.checker import check
from controller.hil.controller import ControllerProcess
from controller.hil.dealer import Dealer
from controller.hil.disk import SoakDisk
from controller.hil.mqtt import EMPTY_BOXES, PitWatcher, Presser, publish
from controller.hil.replay import CardTruth, SpinTruth
from controller.hil.report import SoakReport
from controller.hil.rig import ShoeRig, WheelRig
from controller.hil.schedule import Planned, kinds_for, lanes, plan
from controller.hil.table_config import soak_config
from controller.hil.tail import JournalTail, LiveTable
from controller.table import registry

STALL_TIMEOUT = 120.0  # no round closed for this long: the soak gives up and says so
MAX_CRASHES = 20
#: ``croupier run``'s exit status for a device it cannot open: one clear line, no traceback
REFUSED_TO_START = 2
#: rows a blackjack round or a spin journals, about: a fault at ``12.5`` waits for half as many
#: rows of the 13th round (or its end), so it lands at the same point of the game on any machine
ROUND_ROWS = 20
#: the most a fault waits for that point, per round: the table may hold mid-round
MOMENT_S = 0.3


@dataclass
class SoakOptions:
    config: Path
    rounds: int
    seed: int = 1
    faults: str = "all"
    rate: float = 0.1
    directory: Path | None = None
    nice: int = 0


class Soak:
    def __init__(self, options: SoakOptions) -> None:
        self.o = options
        source = load(options.config)  # a bad config fails here, naming the key
        self.game = source.table.game
        self.declared = registry.game(self.game)
        self.adapter = self.declared.adapter
        if not self.adapter.uses_shoe and self.declared.device_options is None:
            raise ValueError(f"the soak's rig deals a shoe or runs the game's own device; {self.game!r} has neither")
        self.table = source.table.id
        self.rules = source.game_rules()
        self.uses_shoe = self.adapter.uses_shoe
        self.kinds = kinds_for(options.faults, self.uses_shoe)
        self.work = options.directory or Path(tempfile.mkdtemp(prefix="hil-soak-"))
        self.work.mkdir(parents=True, exist_ok=True)
        (self.work / "logs").mkdir(exist_ok=True)
        self.rng = random.Random(options.seed)
        self.report = SoakReport(self.game, self.table, options.seed, options.rounds, work_dir=str(self.work))
        self.disk = SoakDisk(self.work / "disk")
        self.broker = SoakBroker()
        self.shoe: ShoeRig | None = None
        self.wheel: WheelRig | None = None
        self.restarting = False
        self.start_mark = 0
        self.presser = Presser(self.table)
        #: each lane's next fault (its point in closed rounds) still to come or under way
        self.pending: dict[str, float | None] = {}

    def new_engine(self) -> Any:
        return self.adapter.new_round(self.rules)

    # ------------------------------------------------------------------ the run
    async def run(self) -> SoakReport:
        """The whole soak; SIGTERM or Ctrl-C ends it early, still undoing everything it set up."""
        began = time.monotonic()
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        stopping: list[bool] = []

        def stop() -> None:  # the first signal stops the run; the teardown is not interrupted
            if not stopping:
                stopping.append(True)
                task.cancel()

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop)
        try:
            await self._run()
        except asyncio.CancelledError:
            self.report.errors.append("interrupted: the soak was stopped before its rounds were played")
        finally:
            stopping.append(True)
            await self._teardown()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
            self.report.elapsed_s = round(time.monotonic() - began, 1)
        return self.report

    async def _run(self) -> None:
        self.disk.mount()
        if not self.disk.available and "disk_full" in self.kinds:
            self.report.faults_not_injected["disk_full"] = self.disk.why_not
            self.kinds = tuple(k for k in self.kinds if k != "disk_full")
        journal = (self.disk.mountpoint if self.disk.available else self.work) / "table.journal"
        self.journal = journal
        self.broker.start()
        link = self.work / ("shoe" if self.uses_shoe else "wheel")
        if self.uses_shoe:
            self.shoe = ShoeRig(link, self.o.seed, int(getattr(self.rules, "decks", 6)))
            await self.shoe.start()
            truth: CardTruth | SpinTruth = CardTruth(self.shoe.drawn)
        else:
            options = self.declared.device_options(self.rules) if self.declared.device_options else {}
            self.wheel = WheelRig(link, self.o.seed, pockets=options.get("pockets", WheelRig.pockets))
            await self.wheel.start()
            truth = SpinTruth(self.wheel.spins)
        config = soak_config(self.o.config, self.work, journal, link=link, broker=self.broker.url)
        load(config)
        self.config = config
        self.pit = PitWatcher(self.broker.port, self.table)
        await self.pit.start()
        await publish(self.broker.port, [(f"croupier/{self.table}/spot/{n}/online", b"1") for n in EMPTY_BOXES])
        self.live = LiveTable(journal, self.new_engine, truth if self.uses_shoe else None)
        self.dealer = Dealer(self.shoe, self.live) if self.shoe is not None else None
        self.controller = ControllerProcess(config, self.work / "logs", self.o.nice)
        schedule = plan(self.kinds, self.o.rounds, self.o.rate, self.rng)
        self.report.faults = dict.fromkeys(self.kinds, 0)
        self.start_controller()
        injector = asyncio.create_task(self._inject(schedule), name="faults")
        try:
            await self._play()
        finally:
            injector.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await injector
            await fault_kit.undo_all(self)
        await self._finish()

    def start_controller(self) -> None:
        """Start the controller again; the one before is gone, so what it journaled is read to the end first."""
        self.live.poll()
        if self.dealer is not None:
            self.dealer.controller_gone()
        self.start_mark = self.live.tail.seq
        self.controller.start(self.o.rounds - self.live.closed)

    async def _play(self) -> None:
        last_progress, closed = time.monotonic(), -1
        while True:
            self.live.poll()
            if self.dealer is not None:
                self.dealer.ready = (self.controller.running and self.live.last_started_seq > self.start_mark
                                     and not self.fault_overdue())
                self.dealer.step()
            if self.live.closed != closed:
                closed, last_progress = self.live.closed, time.monotonic()
            if not self.controller.running and not self.restarting:
                rc = self.controller.returncode()
                if rc == REFUSED_TO_START:  # by design: a device it cannot open (the shoe unplugged)
                    self.report.starts_refused += 1
                    await asyncio.sleep(0.5)  # as systemd's RestartSec would
                elif rc not in (0, None, -9):
                    self.report.controller_crashes += 1
                    self.report.errors.append(f"controller exited {rc} (log {self.controller.log}): "
                                              f"{self.controller.tail(400)!r}")
                    if self.report.controller_crashes >= MAX_CRASHES:
                        raise RuntimeError("the controller keeps crashing")
                if self.live.closed >= self.o.rounds:
                    return
                self.start_controller()
            if time.monotonic() - last_progress > STALL_TIMEOUT:
                self.report.errors.append(f"no round closed for {STALL_TIMEOUT:.0f} s at {closed} rounds "
                                          f"(log {self.controller.log}); {self.stall_state()}")
                return
            await asyncio.sleep(0.01)

    @property
    def next_fault(self) -> float | None:
        """The point of the next fault any lane has still to inject."""
        return min((at for at in self.pending.values() if at is not None), default=None)

    async def _inject(self, schedule: list[Planned]) -> None:
        """One task per part of the rig (``schedule.LANES``): faults on the same part come one at a
        time, in order; parts do not wait for each other."""
        by_lane = lanes(schedule)
        self.pending = {name: planned[0].at for name, planned in by_lane.items()}
        await asyncio.gather(*(self._lane(name, planned) for name, planned in by_lane.items()))

    async def _lane(self, name: str, schedule: list[Planned]) -> None:
        rng = random.Random(f"{self.o.seed}:{name}")  # the lane's durations: the same for the same seed
        for i, planned in enumerate(schedule):
            self.pending[name] = planned.at
            await self._reach(planned.at)
            self.pending[name] = schedule[i + 1].at if i + 1 < len(schedule) else None
            if await fault_kit.inject(self, planned.kind, rng):
                self.report.faults[planned.kind] += 1

    async def _reach(self, at: float) -> None:
        """Until the run is at ``at``: ``int(at)`` rounds closed, then that fraction into the next
        round by the rows it journaled (or it closed, or ``MOMENT_S`` of it went by)."""
        whole = int(at)
        while self.live.closed < whole:
            await asyncio.sleep(0.01)
        rows, deadline = (at - whole) * ROUND_ROWS, time.monotonic() + (at - whole) * MOMENT_S
        while self.live.closed == whole and self.live.round_rows < rows and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    def stall_state(self) -> str:
        """What the soak's side looked like when the table stopped closing rounds."""
        r = self.live.round
        state = (f"round {r.round_id if r else None}: engine expects {r.engine.expects().kind.value if r else None}, "
                 f"holding {r.holding if r else None}; next fault at {self.next_fault}; controller running "
                 f"{self.controller.running}")
        if self.shoe is not None and self.dealer is not None:
            fw = self.shoe.firmware
            state += (f"; shoe {fw.state}, plugged {self.shoe.plugged}, journaled online {self.live.shoe_online}, "
                      f"{fw.pending} frame(s) unacknowledged, "
                      f"dealer ready {self.dealer.ready}, waiting for n={self.dealer.waiting.n if self.dealer.waiting else None}")
        return state

    def fault_overdue(self) -> bool:
        """A whole round has closed past the next fault's point while the one before still runs:
        the dealer waits for it, so a fast table cannot outrun its schedule."""
        return self.next_fault is not None and self.live.closed > int(self.next_fault)

    async def _finish(self) -> None:
        """The last controller drains its feed at exit; what it left, a feed from the journal's cursor
        sends (as the table's next start would); then the pit is asked, the chain walked, the rounds judged."""
        deadline = time.monotonic() + 60
        while self.controller.running and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        self.controller.stop()
        await fault_kit.catch_up_feed(self)
        rows = JournalTail(self.journal).read()
        last = rows[-1].seq if rows else 0
        closed = {r.round_id for r in rows if r.kind == "round_closed"}
        wait_until = time.monotonic() + 60
        while time.monotonic() < wait_until and (self.pit.complete() < last or not closed <= set(self.pit.rounds)):
            await asyncio.sleep(0.05)
        ledger_until = time.monotonic() + 5
        while time.monotonic() < ledger_until and not self._ledger_counts(len(closed)):  # the one after the last round
            await asyncio.sleep(0.05)
        verify = subprocess.run([sys.executable, "-m", "controller.cli", "verify-journal", "--config", str(self.config)],
                                capture_output=True, text=True)
        self.report.journal_verified = verify.returncode == 0
        if verify.returncode != 0:
            self.report.errors.append(f"verify-journal: {(verify.stdout + verify.stderr).strip()[-500:]}")
        truth: CardTruth | SpinTruth = CardTruth(self.shoe.drawn) if self.shoe else \
            SpinTruth(self.wheel.spins if self.wheel else [])
        verdict = check(rows, self.new_engine, truth, self.pit)
        r = self.report
        r.rounds_settled, r.rounds_void = verdict.rounds_settled, verdict.rounds_void
        r.lost_bets, r.double_settled = verdict.lost_bets, verdict.double_settled
        r.payout_mismatches, r.card_mismatches = verdict.payout_mismatches, verdict.card_mismatches
        r.ledger_balanced, r.feed_complete = verdict.ledger_balanced, verdict.feed_complete
        r.stake_total, r.payout_total = verdict.stake_total, verdict.payout_total
        r.disk_full_holds, r.journal_entries = verdict.disk_full_holds, last
        r.examples = verdict.examples
        if self.dealer is not None:
            r.cards_dealt, r.cards_unread = self.dealer.dealt, len(self.dealer.lost)

    def _ledger_counts(self, rounds: int) -> bool:
        """The pit's last ledger counts ``rounds`` closed rounds (the checker then compares its sums)."""
        ledger = self.pit.ledger or {}
        settled, void = ledger.get("rounds_settled"), ledger.get("rounds_void")
        return isinstance(settled, int) and isinstance(void, int) and settled + void >= rounds

    async def _teardown(self) -> None:
        """Every process and mount the soak made goes, whatever happened before."""
        if hasattr(self, "controller"):
            self.report.controller_starts = self.controller.starts
        steps: list[Any] = [lambda: self.controller.stop()]
        if hasattr(self, "pit"):
            steps.append(self.pit.stop)
        if self.shoe is not None:
            steps.append(self.shoe.stop)
        if self.wheel is not None:
            steps.append(self.wheel.stop)
        steps.append(self.broker.close)
        if self.disk.available:
            files = [self.journal, Path(f"{self.journal}-wal"), Path(f"{self.journal}-shm"),
                     Path(f"{self.journal}.key")]  # its key too: the copy verifies with it
            steps += [lambda: self.disk.copy_out(files, self.work), self.disk.unmount]
        for step in steps:
            try:
                done = step()
                if asyncio.iscoroutine(done):
                    await done
            except Exception as exc:  # noqa: BLE001 - the rest must still be undone
                self.report.errors.append(f"teardown: {exc!r}")
