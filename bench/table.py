"""Full-stack table figures for a 7-box blackjack table (ru6), side by side with the bare core.

Full stack: the simulated CSP/1 shoe on a pty behind the real shoe driver, the journal on disk
(SQLite WAL, synchronous FULL: an fsync per input and per output), the table task, simulated
players on all seven boxes and a simulated dealer, and the pit feed on a real mosquitto started
here (as tests/fixtures/mosquitto.py does), all in this one process.

1. Throughput: rounds/s of the whole stack with nobody pausing (``pace`` 0).
2. Latency: from the last byte of a CARD frame written into the shoe's pty to (a) the table
   handing the new prompt to the pit feed (``set_prompt``, in process) and (b) a pit client on
   the broker receiving that ``prompt`` message. The dealer here pauses between actions so one
   card is in flight at a time (the feed coalesces retained prompts under load). Only cards that
   change the prompt count (a dealer's second draw leaves "Dealer: draw" as it was).
3. Baseline: the very same inputs (the throughput run's journal) stepped through a fresh
   ``TableCore`` alone, no I/O: rounds/s, and the step time of each card; and for scale, one
   durable journal append on the same disk.

    python bench/table.py [rounds] [latency_rounds] [--json]
"""

from __future__ import annotations

import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from the repo root or bench/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiomqtt

from controller.config import TableConfig, load
from controller.feed import Feed
from controller.games.blackjack.strategy import BasicStrategy
from controller.journal import Journal
from controller.people.players import SeatedPlayer, SimulatedTable
from controller.process import FeedListener, build_core
from controller.runtime.devices import open_shoe
from controller.runtime.loop import TableLoop
from controller.runtime.recovery import device_sync
from controller.table import inputs
from controller.table.core import TableCore
from drivers.mqtt.link import TCP_NODELAY
from tests.fixtures.mosquitto import MosquittoBroker

TABLE = "bench7"
BOXES = 7


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _config(directory: Path, broker: str) -> TableConfig:
    path = directory / "table.toml"
    path.write_text(f"""
[table]
id = "{TABLE}"
game = "blackjack"
preset = "ru6"
journal = "table.journal"

[limits]
main = {{ min = 100, max = 100000 }}

[devices.shoe]
transport = "simulated"
port = "serial"

[devices.shoe.simulated]
seed = 11

[mqtt]
broker = "{broker}"
insecure = true   # plaintext mosquitto on loopback, password in the URL
""")
    return load(path)


class PromptClock:
    """Times each card's prompt: card frame out (the shoe's tap) -> set_prompt -> pit receipt."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.card_out: dict[int, float] = {}
        self.handed: list[tuple[str, int | None, float]] = []  # (prompt, card n or None, card out at)
        self._last_n = 0
        self.to_feed: list[float] = []
        self.to_pit: list[float] = []

    def tap(self, data: bytes) -> None:
        if b";CARD;" in data and data.endswith(b"\r\n"):
            n = int(data.split(b";")[3].split(b"*")[0])
            if n > self.core.shoe.last_n:  # not a resend of a card the table already has
                self.card_out.setdefault(n, time.perf_counter())

    # loop listener (after the FeedListener, so this is the moment set_prompt was called)
    def on_entry(self, entry: Any) -> None:
        pass

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        now = time.perf_counter()
        n = core.shoe.last_n
        caused = n if n != self._last_n and n in self.card_out else None
        self._last_n = n
        self.handed.append((prompt, caused, self.card_out[caused] if caused is not None else 0.0))
        if caused is not None:
            self.to_feed.append(now - self.card_out[caused])
        for done in [k for k in self.card_out if k <= n]:  # applied: n restarts with the next shoe
            del self.card_out[done]

    def received(self, text: str, at: float) -> None:
        while self.handed:
            prompt, n, card_out = self.handed.pop(0)
            if prompt == text:
                if n is not None:
                    self.to_pit.append(at - card_out)
                return


async def _pit(broker: MosquittoBroker, clock: PromptClock, ready: asyncio.Event) -> None:
    import json

    async with aiomqtt.Client("127.0.0.1", broker.port, username=broker.pit.username, password=broker.pit.password,
                              identifier="bench-pit", socket_options=TCP_NODELAY) as client:
        await client.subscribe(f"croupier/{TABLE}/prompt", qos=1)
        ready.set()
        async for message in client.messages:
            at = time.perf_counter()
            body = json.loads(message.payload if isinstance(message.payload, bytes) else str(message.payload))
            if not message.retain:
                clock.received(body.get("text", ""), at)


async def full_stack(directory: Path, broker: MosquittoBroker, rounds: int, pace: float) -> dict[str, Any]:
    directory.mkdir()
    config = _config(directory, broker.tcp_url())
    journal = Journal(config.journal_path, exclusive=True)  # as the table opens it (app.py)
    core = build_core(config)
    BasicStrategy.for_rules(config.game_rules())  # computed once per process: not part of a round
    loop = TableLoop(core, journal)
    clock = PromptClock(core)
    devices: Any = await open_shoe(config, core, loop.device_event)  # simulated: it has ``firmware``
    assert devices.firmware is not None
    devices.firmware.tap = clock.tap
    loop.devices["shoe"] = devices
    ready = asyncio.Event()
    tasks = [asyncio.create_task(_pit(broker, clock, ready))]
    await asyncio.wait_for(ready.wait(), 5)
    players = [SeatedPlayer(f"P{b}", b, 100 * b) for b in range(1, BOXES + 1)]
    async with Feed.connect(broker.tcp_url(), journal, TABLE) as feed:
        loop.listeners += [FeedListener(feed), clock]
        await loop.carry_out(list(device_sync(core)))
        while not devices.health().online:
            await asyncio.sleep(0.01)
        sim = SimulatedTable(loop, devices.firmware, players, rounds, pace)
        began = time.perf_counter()
        tasks += [asyncio.create_task(loop.run()), asyncio.create_task(sim.run())]
        await sim.done.wait()
        await loop.settled()
        elapsed = time.perf_counter() - began
        await asyncio.wait_for(feed.wait_caught_up(), 30)
        await asyncio.sleep(0.2)  # the last prompts reach the pit
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await devices.close()
    entries = journal.last_seq()
    journal.close()
    return {"rounds": core.closed_rounds, "elapsed": elapsed, "entries": entries,
            "clock": clock, "journal": config.journal_path, "config": config}


def core_alone(journal_path: Path, config: TableConfig) -> dict[str, Any]:
    """The throughput run's inputs through a fresh core: no journal, no devices, no feed."""
    with Journal(journal_path) as journal:
        entries = [e for e in journal.entries() if e.kind in inputs.INPUT_KINDS]
    core = build_core(config)
    card_steps: list[float] = []
    began = time.perf_counter()
    for entry in entries:
        t0 = time.perf_counter()
        core.step(entry)
        if entry.kind == inputs.DEVICE and entry.payload.get("type") == "card":
            card_steps.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - began
    return {"rounds": core.closed_rounds, "elapsed": elapsed, "inputs": len(entries), "card_steps": card_steps}


def journal_alone(directory: Path, samples: int = 500) -> list[float]:
    """One durable append (WAL, synchronous FULL) of a card-sized input, on the same disk."""
    times: list[float] = []
    with Journal(directory / "alone.journal") as journal:
        for n in range(samples):
            t0 = time.perf_counter()
            journal.append(inputs.DEVICE, {"type": "card", "device": "shoe", "card": "QH", "n": n}, source="shoe")
            times.append(time.perf_counter() - t0)
    return times


def figures(fast: dict[str, Any], clock: PromptClock, base: dict[str, Any], appends: list[float]) -> dict[str, Any]:
    """The figures printed, as one JSON-ready object (microseconds, rounds per second)."""
    us = 1e6
    steps = base["card_steps"]
    return {
        "rounds": fast["rounds"], "full_stack_rounds_per_s": round(fast["rounds"] / fast["elapsed"], 1),
        "cards_per_s": round(len(steps) / fast["elapsed"]), "journal_entries_per_s": round(fast["entries"] / fast["elapsed"]),
        "core_alone_rounds_per_s": round(base["rounds"] / base["elapsed"]),
        "card_to_prompt_samples": len(clock.to_feed),
        "card_to_prompt_p50_us": round(statistics.median(clock.to_feed) * us),
        "card_to_prompt_p99_us": round(_pct(clock.to_feed, 0.99) * us),
        "card_to_pit_samples": len(clock.to_pit),
        "card_to_pit_p50_us": round(statistics.median(clock.to_pit) * us),
        "card_to_pit_p99_us": round(_pct(clock.to_pit, 0.99) * us),
        "core_card_step_p50_us": round(statistics.median(steps) * us, 1),
        "core_card_step_p99_us": round(_pct(steps, 0.99) * us, 1),
        "journal_append_p50_us": round(statistics.median(appends) * us, 1),
        "journal_append_p99_us": round(_pct(appends, 0.99) * us, 1),
    }


async def main_async(rounds: int, latency_rounds: int, as_json: bool = False) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-table-"))
    try:
        with MosquittoBroker() as broker:
            fast = await full_stack(work / "throughput", broker, rounds, 0.0)
            slow = await full_stack(work / "latency", broker, latency_rounds, 0.01)
        base = core_alone(fast["journal"], fast["config"])
        appends = journal_alone(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    clock: PromptClock = slow["clock"]
    if as_json:
        print(json.dumps({**figures(fast, clock, base, appends), "latency_rounds": latency_rounds}))
        return
    us = 1e6
    print("Table, 7-box blackjack (ru6), simulated shoe on a pty, journal fsync, pit feed on mosquitto")
    print(f"  full stack : {fast['rounds']} rounds in {fast['elapsed']:.2f} s = {fast['rounds'] / fast['elapsed']:.1f} "
          f"rounds/s ({len(base['card_steps']) / fast['elapsed']:.0f} cards/s, {fast['entries'] / fast['elapsed']:.0f} "
          f"journal entries/s)")
    print(f"  core alone : the same {base['rounds']} rounds ({base['inputs']} inputs) in {base['elapsed']:.3f} s = "
          f"{base['rounds'] / base['elapsed']:.0f} rounds/s")
    print(f"  card -> prompt ({len(clock.to_feed)} cards that changed the prompt, {latency_rounds} paced rounds):")
    print(f"    last byte on the shoe pty -> set_prompt (in process): p50 {statistics.median(clock.to_feed) * us:7.0f} us"
          f"  p99 {_pct(clock.to_feed, 0.99) * us:7.0f} us")
    print(f"    last byte on the shoe pty -> prompt received from mosquitto: p50 {statistics.median(clock.to_pit) * us:7.0f}"
          f" us  p99 {_pct(clock.to_pit, 0.99) * us:7.0f} us  ({len(clock.to_pit)} matched)")
    steps = base["card_steps"]
    print(f"    baseline, TableCore.step of a card alone: p50 {statistics.median(steps) * us:7.1f} us  "
          f"p99 {_pct(steps, 0.99) * us:7.1f} us")
    print(f"    for scale, one journal append (fsync) alone:  p50 {statistics.median(appends) * us:7.1f} us  "
          f"p99 {_pct(appends, 0.99) * us:7.1f} us")


def main() -> None:
    positional = [a for a in sys.argv[1:] if a != "--json"]
    rounds = int(positional[0]) if len(positional) > 0 else 200
    latency_rounds = int(positional[1]) if len(positional) > 1 else 30
    asyncio.run(main_async(rounds, latency_rounds, as_json="--json" in sys.argv[1:]))


if __name__ == "__main__":
    main()
