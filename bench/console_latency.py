"""Dealer console latency: a card frame's last byte on the shoe line -> the console's DOM showing
that card, in Chromium, p50 and p99 over N cards; beside it, in the same run, the same frame ->
the table's ``on_entry`` (journaled, about to be stepped) as the baseline.

A whole blackjack table as ``croupier run`` starts it (``run_table``: journal, simulated shoe on
its pty behind the CSP/1 driver, the table task), its console (``start_console``), and a signed-in
page at 1280x800. Seven boxes bet and stand; each card is pulled through the gate by the bench,
which notes the time of the frame's write into the pty (the firmware's ``tap``, i.e. its last
byte), then waits until the page's MutationObserver reports the card shown (through a binding: the
page's real CSP applies, no ``unsafe-eval`` is needed). Browser times are
``performance.timeOrigin + performance.now()``, bench times ``time.time()``: one system clock.

Each card's way is also timed stage by stage (``STAGES``): the driver's read of the frame (its
transport's ``read`` returning), its journal commit's start and end (the journal's observer:
the row and the time the durable write took), the table task's ``on_entry``, the snapshot handed
to the page's socket, written into it, its arrival in the page, the DOM; each stage's p50 and
p99, and its mean over the slowest 1 % to the DOM, say where a p99 comes from. Then the CPU the
table's process and the browser's processes spent per card (less swayed by the machine's load
than the times are), and the messages the page was sent per card.

    python bench/console_latency.py [cards] [--json]       (default 200)
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from the repo root or bench/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from starlette.websockets import WebSocket

from controller.auth import Account, Accounts, hash_password
from controller.config import load
from controller.console import start_console
from controller.console.hub import ConsoleHub
from controller.games.base import ExpectKind
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.table.core import IDLE, SETTLING

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CONFIG = """
[table]
id = "bench"
game = "blackjack"
preset = "ru6"
journal = "bench.journal"

[limits]
main = { min = 100, max = 100000 }

[devices.shoe]
transport = "simulated"
port = "serial"

[devices.shoe.simulated]
seed = 11

[mqtt]
broker = "none"
"""
#: installed through the DevTools protocol (not a page script, so the page's CSP, which refuses
#: ``unsafe-eval``, does not apply to it); it reports each card's appearance to the bench through a
#: binding (``expose_binding``), which the CSP allows too. The time is the browser's, on the
#: system clock, taken in the observer's callback: the binding's own delivery is not counted.
OBSERVER = """() => {
  const counts = new Map();
  new MutationObserver(() => {
    const t = performance.timeOrigin + performance.now();
    const now = new Map();
    for (const e of document.querySelectorAll('#felt [data-card]')) now.set(e.dataset.card, (now.get(e.dataset.card) || 0) + 1);
    for (const [card, n] of now) if (n > (counts.get(card) || 0)) window.benchSeen(card, t);
    counts.clear(); for (const [c, n] of now) counts.set(c, n);
  }).observe(document.body, { childList: true, subtree: true });
}"""


#: before the page's own scripts (DevTools' init script, outside the CSP too): the browser time of
#: each WebSocket message's arrival, to split the hop from the page's redraw
RECEIPTS = """(() => {
  const Native = window.WebSocket;
  window.__receipts = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => window.__receipts.push(performance.timeOrigin + performance.now()));
    }
  };
})();"""


class Seen:
    """The cards the page reported (card, browser time in ms), and a wake-up for each report."""

    def __init__(self) -> None:
        self.cards: list[tuple[str, float]] = []
        self.changed = asyncio.Condition()

    async def report(self, source: Any, card: str, at_ms: float) -> None:
        async with self.changed:
            self.cards.append((card, at_ms))
            self.changed.notify_all()

    async def first(self, card: str, since_ms: float, timeout: float = 10.0) -> float:
        """The browser time (s) ``card`` was first shown at or after ``since_ms``."""
        def hit() -> float | None:
            return next((t for c, t in self.cards if c == card and t >= since_ms), None)

        async with self.changed:
            found = await asyncio.wait_for(self.changed.wait_for(hit), timeout)
        assert found is not None
        return found / 1000.0


def card_numbers(data: bytes) -> list[int]:
    """The counts (n) of the CARD frames in a piece of the line."""
    return [int(part.split(b";")[1].split(b"*")[0]) for part in data.split(b";CARD;")[1:]] if b";CARD;" in data \
        else []


class Stamps:
    """Times of each card frame's write into the pty, its read by the driver, its journal commit
    (start and end), its ``card`` entry at the table, and the snapshots handed to the page."""

    def __init__(self) -> None:
        self.wire: dict[int, float] = {}
        self.read: dict[int, float] = {}
        self.committing: dict[int, float] = {}
        self.committed: dict[int, float] = {}
        self.entry: dict[int, float] = {}
        self.snapshots: list[float] = []  # times the console handed a snapshot to its pages

    def new_shoe(self) -> None:
        """A new shoe counts from 1 again: forget the last one's cards."""
        for times in (self.wire, self.read, self.committing, self.committed, self.entry):
            times.clear()

    def snapshot_after(self, since: float) -> float:
        return next(t for t in self.snapshots if t >= since)

    def tap(self, data: bytes) -> None:
        for n in card_numbers(data):
            self.wire[n] = time.time()

    def on_read(self, data: bytes) -> None:
        for n in card_numbers(data):
            self.read.setdefault(n, time.time())

    def on_commit(self, entry: Any, took: float) -> None:
        if entry.kind == "device" and entry.payload.get("type") == "card":
            now = time.time()
            self.committing.setdefault(int(entry.payload["n"]), now - took)
            self.committed.setdefault(int(entry.payload["n"]), now)

    def on_entry(self, entry: Any) -> None:
        if entry.kind == "device" and entry.payload.get("type") == "card":
            self.entry.setdefault(int(entry.payload["n"]), time.time())

    def on_prompt(self, prompt: str, core: Any) -> None:
        pass


#: a card's way, stage by stage: the time (s) it reached each (``play``; "socket" is filled in
#: from the page's receipts afterwards)
STAGES = ("wire", "read", "committing", "committed", "entry", "sent", "written", "socket", "shown")
#: what the time from the stage before each one is spent on
SPENT = {"read": "pty -> driver's read", "committing": "decode, driver, submit", "committed": "journal commit",
         "entry": "queue -> table task", "sent": "step, effects, snapshot", "written": "to the socket's write",
         "socket": "socket -> page's message",
         "shown": "page's redraw"}


async def play(loop: TableLoop, firmware: Any, seen: Seen, stamps: Stamps, cards: int) -> list[dict[str, float]]:
    """For each of ``cards`` cards: the times (s) it reached each of ``STAGES`` but "socket"."""
    core = loop.core
    out: list[dict[str, float]] = []
    while len(out) < cards:
        await loop.settled()
        if core.phase == IDLE:
            if core.shoe.needs_new:
                stamps.new_shoe()
            loop.command("new_shoe" if core.shoe.needs_new else "open_round", "bench")
            await loop.settled()
            if core.engine is not None:
                for box in range(1, 8):
                    loop.command("bet", "bench", box=box, amount=100, player=f"P{box}")
                loop.command("close_betting", "bench")
            continue
        if core.phase == SETTLING:
            loop.command("settle", "bench")
            continue
        assert core.engine is not None and core.hold is None, core.prompt()
        expect = core.engine.expects()
        if expect.kind is ExpectKind.DECISION:
            loop.command("decide", "bench", box=expect.box, hand=expect.hand or 1,
                         action="stand" if "stand" in expect.options else expect.options[-1])
            continue
        n = core.shoe.last_n + 1
        card = firmware.draw()
        assert card is not None, firmware.state
        wire_ms = stamps.wire[n] * 1000
        shown = await seen.first(card, wire_ms)
        def dealt(c: Any, n: int = n) -> bool:
            return bool(c.shoe.last_n >= n)

        await loop.until(dealt)
        out.append({"wire": stamps.wire[n], "read": stamps.read[n], "committing": stamps.committing[n],
                    "committed": stamps.committed[n], "entry": stamps.entry[n],
                    "sent": stamps.snapshot_after(stamps.entry[n]), "shown": shown})
    return out


def browser_processes(root: int) -> list[int]:
    """Chromium's processes: under ``root``, through Playwright's driver (which is not counted)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parents[int(name)] = int(Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[1])
    found, todo = [], [root]
    while todo:
        above = todo.pop()
        children = [pid for pid, parent in parents.items() if parent == above]
        found += children
        todo += children
    return [pid for pid in found if "chrom" in Path(f"/proc/{pid}/comm").read_text()]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of ``pids`` so far (those still running)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(cards: int, as_json: bool = False) -> None:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG)
        config = load(path)
        accounts = Accounts({"bench": Account("bench", "dealer", hash_password("bench"))})
        result: list[dict[str, float]] = []
        receipts: list[float] = []
        written: list[tuple[float, int]] = []  # (time, characters) of each text written to a page's socket
        cpu: dict[str, float] = {}
        done = asyncio.Event()
        send_text = WebSocket.send_text

        async def stamped_send(self: WebSocket, data: str) -> None:  # the write itself is not awaited on
            written.append((time.time(), len(data)))
            await send_text(self, data)

        async def on_ready(loop: TableLoop, devices: Any) -> None:
            stamps = Stamps()
            loop.listeners.append(stamps)
            firmware = devices.firmware
            firmware.tap = stamps.tap
            loop.journal.observers.append(stamps.on_commit)
            transport = devices.opened["shoe"].driver.session.transport
            read = transport.read

            async def stamped_read() -> bytes:
                data: bytes = await read()
                stamps.on_read(data)
                return data

            transport.read = stamped_read
            server = await start_console(loop, config, accounts, host="127.0.0.1", port=0)
            hub = next(listener for listener in loop.listeners if isinstance(listener, ConsoleHub))
            deliver = hub._deliver

            def stamped(message: dict[str, Any], pages: list[Any]) -> None:
                deliver(message, pages)
                stamps.snapshots.append(time.time())

            hub._deliver = stamped  # type: ignore[method-assign]
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                seen = Seen()
                await page.expose_binding("benchSeen", seen.report)
                await page.add_init_script(RECEIPTS)
                await page.goto(server.url)
                await page.fill("#user", "bench")
                await page.fill("#password", "bench")
                await page.click("#login-btn")
                await page.locator("#link", has_text="live").wait_for()
                await page.evaluate(OBSERVER)
                await loop.until(lambda c: c.devices.get("shoe", {}).get("online", False))
                browser_pids = browser_processes(os.getpid())
                table_cpu, browser_cpu, messages = own_cpu(), cpu_seconds(browser_pids), len(written)
                result.extend(await play(loop, firmware, seen, stamps, cards))
                cpu["table"], cpu["browser"] = own_cpu() - table_cpu, cpu_seconds(browser_pids) - browser_cpu
                cpu["messages"] = len(written) - messages
                cpu["characters"] = sum(n for _, n in written[messages:])
                receipts.extend(sorted(t / 1000.0 for t in await page.evaluate("() => window.__receipts")))
                await browser.close()
            await server.close()
            done.set()

        WebSocket.send_text = stamped_send  # type: ignore[method-assign,assignment]
        table = asyncio.create_task(run_table(config, out=io.StringIO(), prompts=False, on_ready=on_ready,
                                              keyboard=False))
        waiter = asyncio.create_task(done.wait())
        await asyncio.wait([table, waiter], return_when=asyncio.FIRST_COMPLETED)
        table.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await table
        WebSocket.send_text = send_text  # type: ignore[method-assign]
        if not done.is_set():
            raise SystemExit("the table stopped before the bench ran")
    for card in result:  # its snapshot reaches the page with the first message after it was handed over
        card["written"] = next((t for t, _ in written if t >= card["sent"]), card["shown"])
        card["socket"] = next((t for t in receipts if t >= card["written"]), card["shown"])
    report(result, cpu, as_json)


def report(result: list[dict[str, float]], cpu: dict[str, float], as_json: bool) -> None:
    """Card to each stage (p50, p99), then each stage's own share: over all cards, and averaged
    over the slowest 1 % to the DOM (where a p99's time went)."""
    since = {stage: [(card[stage] - card["wire"]) * 1000 for card in result] for stage in STAGES[1:]}
    step = {stage: [(card[stage] - card[before]) * 1000 for card in result]
            for before, stage in itertools.pairwise(STAGES)}
    tail = sorted(range(len(result)), key=lambda i: since["shown"][i])[-max(1, len(result) // 100):]
    if as_json:
        figures: dict[str, Any] = {"cards": len(result)}
        for name, stage in (("entry", "entry"), ("dom", "shown"), ("snapshot", "sent"), ("written", "written"),
                            ("received", "socket")):
            figures[f"{name}_p50_ms"] = round(statistics.median(since[stage]), 2)
            figures[f"{name}_p99_ms"] = round(pct(since[stage], 0.99), 2)
        gap = [dom - entry for dom, entry in zip(since["shown"], since["entry"], strict=True)]
        figures["entry_to_dom_p50_ms"], figures["entry_to_dom_p99_ms"] = round(statistics.median(gap), 2), \
            round(pct(gap, 0.99), 2)
        figures.update({f"{k}_per_card": round(v / len(result) * (1000 if k in ("table", "browser") else 1), 3)
                        for k, v in cpu.items()})
        figures["stages_ms"] = {stage: {"p50": round(statistics.median(v), 3), "p99": round(pct(v, 0.99), 3),
                                        "tail_mean": round(statistics.fmean(v[i] for i in tail), 3)}
                                for stage, v in step.items()}
        print(json.dumps(figures))
        return
    print(f"console latency over {len(result)} cards (blackjack, 7 boxes, pty shoe, Chromium 1280x800)")
    for label, stage in (("table on_entry", "entry"), ("snapshot sent", "sent"), ("socket written", "written"),
                         ("page's message", "socket"), ("console DOM", "shown")):
        values = since[stage]
        print(f"  card frame last byte -> {label:16} p50 {statistics.median(values):6.2f} ms   "
              f"p99 {pct(values, 0.99):6.2f} ms")
    print(f"  stage by stage{'':26} p50        p99        slowest {len(tail)} to the DOM (mean)")
    for stage, values in step.items():
        print(f"    {SPENT[stage]:36} {statistics.median(values):6.2f} ms  {pct(values, 0.99):6.2f} ms  "
              f"{statistics.fmean(values[i] for i in tail):6.2f} ms")
    gap = [dom - entry for dom, entry in zip(since["shown"], since["entry"], strict=True)]
    print(f"  table on_entry -> console DOM{'':11} {statistics.median(gap):6.2f} ms  {pct(gap, 0.99):6.2f} ms")
    n = len(result)
    print(f"  per card: table process CPU {cpu['table'] / n * 1000:.2f} ms, browser CPU {cpu['browser'] / n * 1000:.2f} ms, "
          f"{cpu['messages'] / n:.2f} messages to the page ({cpu['characters'] / max(1, cpu['messages']):.0f} characters each)")


if __name__ == "__main__":
    positional = [a for a in sys.argv[1:] if a != "--json"]
    asyncio.run(main(int(positional[0]) if positional else 200, as_json="--json" in sys.argv[1:]))
