"""Memory through a gaming day: a process's resident memory (RSS) every ``--every`` rounds, the
growth per 1,000 rounds over the run's second half beside the first 1,000 rounds' (the
baseline: imports, caches and the first day's structures filling up). A process that keeps only
what it must (the day it shows, a bounded history) grows in the first rounds and then stays
flat; one that keeps something per round for its lifetime grows at the same rate to the end.

* ``table``: one table process (core + journal on disk + runtime: the table loop, the simulated
  shoe on its pty, simulated players on ``--boxes`` boxes and dealer), no feed;
* ``pit``: the pit dashboard's floor model fed ``--rounds`` rounds of each of ``--tables``
  tables (state, prompts, ledger, the round record, an alert every tenth round) with a
  broadcast tick (tiles, alerts, totals) every ten rounds of the floor, as the dashboard does;
* ``studio``: a real ``croupier studio serve`` process (a throwaway PostgreSQL, mosquitto, the
  house wallet) through ``--studio-rounds`` rounds of the stand-in table with ``--players``
  WebSocket players each betting every round, two of them leaving and two new ones joining every
  50 rounds (``bench/memory_studio.py``); the studio process's RSS is the one sampled.

Each part runs in a fresh process. ``--trace`` adds tracemalloc's top growing lines between the
first checkpoint and the end (slower: for finding what grows, not for the figures; the studio
then runs in a thread of the bench's process, the players' and the stand-in's lines left out).

    python bench/memory.py [--rounds 10000] [--pit-rounds N] [--studio-rounds N] [--every 1000] [--tables 8]
                           [--boxes 7] [--players 20] [--only table,pit,studio] [--trace] [--json]

The smoke (a few seconds): ``--rounds 40 --every 20 --tables 2 --boxes 1 --studio-rounds 3 --players 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from the repo root or bench/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.console_latency import CONFIG as LATENCY_CONFIG

if __package__ in (None, ""):  # run as a script from the repo root or bench/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PAGE = os.sysconf("SC_PAGE_SIZE")
#: the latency bench's table (one blackjack ru6 table, a simulated shoe, no broker)
TABLE_CONFIG = LATENCY_CONFIG.replace('id = "bench"', 'id = "memory"')


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE / 2**20


class Checkpoints:
    """RSS at each multiple of ``every`` rounds; with ``trace``, tracemalloc's growth from the
    first checkpoint to the last."""

    def __init__(self, every: int, trace: bool, rss: Callable[[], float] = rss_mb,
                 foreign: tuple[str, ...] = ()) -> None:
        self.every = every
        self.trace = trace
        #: the measured process's RSS in MB (this one's by default)
        self.rss = rss
        #: file patterns of what runs here but is not measured (left out of the growth shown)
        self.foreign = foreign
        self.rows: list[tuple[int, float]] = []
        self._first: tracemalloc.Snapshot | None = None
        if trace:
            tracemalloc.start(10 if foreign else 5)

    def at(self, rounds: int) -> None:
        self.rows.append((rounds, round(self.rss(), 2)))
        if self.trace and self._first is None and rounds > 0:
            self._first = tracemalloc.take_snapshot()

    def due(self, rounds: int) -> bool:
        return rounds >= (len(self.rows)) * self.every

    def result(self, started: float) -> dict[str, Any]:
        out: dict[str, Any] = {"rss_mb": self.rows, "seconds": round(time.perf_counter() - started, 1)}
        if self._first is not None:
            leave_out = [tracemalloc.Filter(False, pattern, all_frames=True) for pattern in self.foreign]
            stats = tracemalloc.take_snapshot().filter_traces(leave_out).compare_to(
                self._first.filter_traces(leave_out), "lineno")
            out["top_growth"] = [f"{s.size_diff / 1024:+.0f} KiB {s.count_diff:+d} blocks "
                                 f"{s.traceback[0].filename.split('/croupier/')[-1]}:{s.traceback[0].lineno}"
                                 for s in stats[:8]]
        return out


# -- a table process ---------------------------------------------------------------------------------
async def table_part(rounds: int, every: int, boxes: int, trace: bool) -> dict[str, Any]:
    from controller.config import load
    from controller.games.blackjack.strategy import BasicStrategy
    from controller.journal import Journal
    from controller.people.players import SeatedPlayer, SimulatedTable
    from controller.process import build_core
    from controller.runtime.devices import open_shoe
    from controller.runtime.loop import TableLoop
    from controller.runtime.recovery import device_sync

    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        path = Path(tmp) / "table.toml"
        path.write_text(TABLE_CONFIG)
        config = load(path)
        journal = Journal(config.journal_path, exclusive=True)
        core = build_core(config)
        BasicStrategy.for_rules(config.game_rules())
        loop = TableLoop(core, journal)
        devices: Any = await open_shoe(config, core, loop.device_event)
        loop.devices["shoe"] = devices
        await loop.carry_out(list(device_sync(core)))
        while not devices.health().online:
            await asyncio.sleep(0.01)
        players = [SeatedPlayer(f"P{b}", b, 100 * b) for b in range(1, boxes + 1)]
        sim = SimulatedTable(loop, devices.firmware, players, rounds, 0.0)
        marks = Checkpoints(every, trace)
        marks.at(0)
        started = time.perf_counter()
        tasks = [asyncio.create_task(loop.run()), asyncio.create_task(sim.run())]
        while not sim.done.is_set():
            if marks.due(sim.played):
                marks.at(sim.played)
            await asyncio.sleep(0.02)
        if marks.due(sim.played):
            marks.at(sim.played)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await devices.close()
        entries = journal.last_seq()
        journal.close()
    return {**marks.result(started), "rounds": sim.played, "journal_entries": entries, "boxes": boxes}


# -- the pit dashboard's model ----------------------------------------------------------------------
def pit_part(rounds: int, every: int, tables: int, trace: bool) -> dict[str, Any]:
    from controller.pit.alert_groups import group_alerts
    from controller.pit.floor import RoundsLastHour, floor_totals
    from controller.pit.model import FloorModel
    from tests.unit.pit import feed_messages as feed

    model = FloorModel()
    last_hour = RoundsLastHour()
    names = [f"t{n:03d}" for n in range(tables)]
    marks = Checkpoints(every, trace)
    marks.at(0)
    started = time.perf_counter()
    day = datetime(2026, 12, 1, 8, 0, tzinfo=UTC).timestamp()
    ticks = 0
    for n in range(1, rounds + 1):
        now = day + 60.0 * n  # a round a minute at every table
        ts = datetime.fromtimestamp(now, UTC).isoformat(timespec="microseconds")
        for table in names:
            round_id = f"{table}-{n:06d}"

            def put(leaf: str, body: dict[str, Any], table: str = table, now: float = now) -> None:
                model.apply(f"croupier/{table}/{leaf}", json.dumps(body).encode(), now)

            put("state", feed.state(table, round=round_id, ts=ts))
            for text in ("Open betting", "Close betting", "Spin"):
                put("prompt", feed.prompt(table, text, ts=ts))
            put("round", feed.round_record(table, round_id, 2 * n, ts=ts, opened=ts, closed=ts))
            put("ledger", feed.ledger(table, ts=ts, rounds_settled=n, stake_total=1000 * n, seq=2 * n))
            if n % 10 == 0:
                put("alert", feed.alert(table, 2 * n + 1, "warning", "shoe.slow", ts=ts))
        if n % 10 == 0:  # the broadcast tick
            ticks += 1
            changed = sorted(model.take_changed())
            json.dumps({"tiles": [model.tile(t) for t in changed], "alerts": group_alerts(model.alerts()),
                        "totals": floor_totals(model.tables.values(), {}, now, ("EUR", 2), last_hour)})
        if marks.due(n):
            marks.at(n)
    kept = sum(len(t.rounds) for t in model.tables.values())
    return {**marks.result(started), "rounds": rounds, "tables": tables, "rounds_kept": kept, "ticks": ticks}


# -- running and figures -----------------------------------------------------------------------------
def _child(part: str, args: argparse.Namespace, out: Any) -> None:
    if part == "table":
        out.put(asyncio.run(table_part(args.rounds, args.every, args.boxes, args.trace)))
    elif part == "studio":
        from bench.memory_studio import studio_part

        out.put(asyncio.run(studio_part(args.studio_rounds or args.rounds, args.every, args.players, args.trace)))
    else:
        out.put(pit_part(args.pit_rounds or args.rounds, args.every, args.tables, args.trace))


def growth(rows: list[tuple[int, float]]) -> dict[str, float]:
    """MB over the first ``every`` rounds, and per 1,000 rounds over the second half of the run."""
    (r0, m0), (r1, m1) = rows[0], rows[min(1, len(rows) - 1)]
    half = rows[len(rows) // 2]
    last = rows[-1]
    span = max(1, last[0] - half[0])
    return {"start_mb": m0, "first_mb": round(m1 - m0, 2), "first_rounds": r1 - r0,
            "per_1000_second_half_mb": round((last[1] - half[1]) * 1000 / span, 2), "end_mb": last[1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--pit-rounds", type=int, default=None, help="rounds fed to the pit's model (default: --rounds)")
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=8, help="tables fed to the pit's model")
    parser.add_argument("--boxes", type=int, default=7, help="players at the table process's table")
    parser.add_argument("--studio-rounds", type=int, default=None,
                        help="rounds the studio part plays (default: --rounds)")
    parser.add_argument("--players", type=int, default=20, help="remote players at the studio's table")
    parser.add_argument("--only", default="table,pit,studio")
    parser.add_argument("--trace", action="store_true", help="tracemalloc's top growing lines (slower)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    spawn = multiprocessing.get_context("spawn")
    result: dict[str, Any] = {"rounds": args.rounds, "every": args.every}
    for part in args.only.split(","):
        queue = spawn.Queue()
        child = spawn.Process(target=_child, args=(part, args, queue))
        child.start()
        data = queue.get(timeout=24 * 3600)
        child.join()
        result[part] = {**data, **growth(data["rss_mb"])}
    if args.json:
        print(json.dumps(result))
        return
    for part in args.only.split(","):
        r = result[part]
        print(f"{part}: {r['rounds']:,} rounds in {r['seconds']} s; RSS {r['start_mb']:.1f} MB at start, "
              f"{r['first_mb']:+.1f} MB over the first {r['first_rounds']:,} rounds, "
              f"{r['per_1000_second_half_mb']:+.2f} MB per 1,000 rounds over the second half, {r['end_mb']:.1f} MB at end")
        for line in r.get("top_growth", []):
            print(f"    {line}")


if __name__ == "__main__":
    main()
