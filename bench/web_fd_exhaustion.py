"""Descriptor exhaustion against a table's console: rounds/s of a whole blackjack table (journal
on disk, simulated shoe on its pty behind the real driver, simulated people, its console in the
same process) under ``RLIMIT_NOFILE`` 1024 (systemd's default), with a flood holding idle TCP
connections to its console, beside the same run without them, in one process run.

The flood is a child process (its own descriptor limit raised) that opens ``--idle`` connections
from 127.0.0.2, sends nothing, and every half second reopens each one the console closed. While
it runs, a probe from 127.0.0.1 fetches the console's page once a second (another client keeps
its own share of connections): its answers and their worst latency are shown too, and the CPU
time the table's process spent per round (the flood's own CPU is not in it: on a two-core
machine the flood competes with the table for the cores, which a flood from another machine
does not). A short
warm-up run comes first (the process's first imports and caches), and is not shown.

A third run has a burst of wrong sign-ins instead: ``--signins`` threads of a child process
posting wrong passwords for made-up users from as many addresses (127.0.0.10 and up), as fast
as they are answered. Each costs an argon2 check unless refused first (lockout or busy).

    python bench/web_fd_exhaustion.py [--rounds 150] [--idle 2000] [--signins 8] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from the repo root or bench/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.console_latency import CONFIG as LATENCY_CONFIG
from controller.auth import Account, Accounts, hash_password
from controller.config import load
from controller.console import start_console
from controller.process import run_table
from controller.runtime.loop import TableLoop

NOFILE = 1024
CONFIG = LATENCY_CONFIG.replace('id = "bench"', 'id = "fd-bench"')  # the same table as the latency bench
FLOOD = textwrap.dedent("""
    import resource, selectors, socket, sys, time
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port, want = int(sys.argv[1]), int(sys.argv[2])
    sel = selectors.DefaultSelector()
    held, opened = set(), 0
    def top_up():
        global opened
        while len(held) < want:
            s = socket.socket()
            s.setblocking(False)
            try:
                s.bind(("127.0.0.2", 0))
            except OSError:
                pass
            s.connect_ex(("127.0.0.1", port))
            sel.register(s, selectors.EVENT_READ)
            held.add(s)
            opened += 1
    top_up()
    print("ready", flush=True)
    sel.register(sys.stdin, selectors.EVENT_READ)
    next_top_up = time.monotonic() + 0.5
    while True:
        for key, _ in sel.select(0.1):
            if key.fileobj is sys.stdin:
                print(opened, flush=True)
                sys.exit(0)
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                held.discard(s)
        if time.monotonic() >= next_top_up:
            top_up()
            next_top_up = time.monotonic() + 0.5
""")


SIGNINS = textwrap.dedent("""
    import http.client, json, sys, threading
    port, threads = int(sys.argv[1]), int(sys.argv[2])
    counts, stop = {}, threading.Event()
    lock = threading.Lock()
    def burst(k):
        n = 0
        while not stop.is_set():
            n += 1
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(f"127.0.0.{10 + k}", 0))
                body = json.dumps({"user": f"u{k}-{n}", "password": "wrong"})
                conn.request("POST", "/api/login", body, {"Content-Type": "application/json"})
                status = conn.getresponse().status
                conn.close()
            except OSError:
                status = 0
            with lock:
                counts[status] = counts.get(status, 0) + 1
    workers = [threading.Thread(target=burst, args=(k,), daemon=True) for k in range(threads)]
    for w in workers:
        w.start()
    print("ready", flush=True)
    sys.stdin.readline()
    stop.set()
    print(json.dumps(counts), flush=True)
""")


async def probe(url: str, stop: asyncio.Event, answers: list[float]) -> None:
    """GET the page once a second from 127.0.0.1; the seconds each answer took (inf: none)."""
    import httpx

    async with httpx.AsyncClient(timeout=5.0) as client:
        while not stop.is_set():
            began = time.perf_counter()
            try:
                ok = (await client.get(url)).status_code == 200
            except httpx.HTTPError:
                ok = False
            answers.append(time.perf_counter() - began if ok else float("inf"))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)


async def one_run(rounds: int, idle: int, signins: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG)
        config = load(path)
        accounts = Accounts({"bench": Account("bench", "dealer", hash_password("bench"))})
        state: dict[str, Any] = {}
        stop = asyncio.Event()
        answers: list[float] = []

        async def on_ready(loop: TableLoop, devices: Any) -> None:
            server = await start_console(loop, config, accounts, host="127.0.0.1", port=0)
            state["server"] = server
            port = int(server.url.rsplit(":", 1)[1].strip("/"))
            if idle or signins:
                script, size = (FLOOD, idle) if idle else (SIGNINS, signins)
                flood = subprocess.Popen([sys.executable, "-c", script, str(port), str(size)], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
                state["flood"] = flood
                assert flood.stdout is not None
                line = await asyncio.to_thread(flood.stdout.readline)
                assert line.strip() == "ready", line
                await asyncio.sleep(1.0)  # the console has accepted (and refused) what it will
            state["probe"] = asyncio.create_task(probe(server.url, stop, answers))
            state["began"] = time.perf_counter()
            state["cpu"] = time.process_time()

        await run_table(config, rounds, out=io.StringIO(), prompts=False, on_ready=on_ready, keyboard=False)
        spent = time.perf_counter() - state["began"]
        cpu = time.process_time() - state["cpu"]
        server = state["server"]
        held = server._server.connections.open
        refused = server._server.connections.refused
        stop.set()
        await state["probe"]
        opened: Any = 0
        flood = state.get("flood")
        if flood is not None:
            out, _ = await asyncio.to_thread(flood.communicate, "stop\n", 30)
            opened = json.loads(out.strip().splitlines()[-1])
        await server.close()
    served = [a for a in answers if a != float("inf")]
    return {"idle": idle, "signins": opened if signins else {},
            "rounds": rounds, "cpu_ms_per_round": round(cpu * 1000 / rounds, 1),
            "seconds": round(spent, 2), "rounds_per_s": round(rounds / spent, 2),
            "flood_connects": 0 if signins else opened, "console_refused": refused, "console_open_at_end": held,
            "probe_answered": f"{len(served)}/{len(answers)}",
            "probe_worst_ms": round(max(served) * 1000, 1) if served else None}


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=150)
    ap.add_argument("--idle", type=int, default=2000)
    ap.add_argument("--signins", type=int, default=8, help="sign-in threads of the third run (0: none)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(NOFILE, hard), hard))
    await one_run(min(args.rounds, 50), 0)  # warm-up, not shown: first imports and caches of the process
    baseline = await one_run(args.rounds, 0)
    flooded = await one_run(args.rounds, args.idle)
    burst = await one_run(args.rounds, 0, args.signins) if args.signins else None
    if args.json:
        print(json.dumps({"nofile": NOFILE, "baseline": baseline, "flooded": flooded, "signins": burst}))
        return
    print(f"blackjack ru6, 7 boxes, {args.rounds} rounds, RLIMIT_NOFILE {NOFILE}, console in the table's process")
    for name, row in (("no idle connections", baseline), (f"{args.idle} idle connections", flooded)):
        print(f"  {name:24} {row['rounds_per_s']:8.2f} rounds/s  ({row['seconds']} s, table process CPU "
              f"{row['cpu_ms_per_round']} ms/round)  flood connects "
              f"{row['flood_connects']}, refused at accept {row['console_refused']}, open at end "
              f"{row['console_open_at_end']}; probe answered {row['probe_answered']}, worst {row['probe_worst_ms']} ms")
    print(f"  ratio {flooded['rounds_per_s'] / baseline['rounds_per_s']:.2f}")
    if burst is not None:
        print(f"  {args.signins} sign-in threads        {burst['rounds_per_s']:8.2f} rounds/s  ({burst['seconds']} s, "
              f"table process CPU {burst['cpu_ms_per_round']} ms/round)  "
              f"answers by status {burst['signins']}; ratio {burst['rounds_per_s'] / baseline['rounds_per_s']:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
