"""Floor scale: light tables (200 by default) publishing their pit feed to one real mosquitto while the pit
dashboard watches (docs/pit.md, "Floor scale").

Each table is one MQTT connection (as a controller's feed is) publishing, QoS 1, a retained
``prompt`` and ``state`` and a stream of ``event`` messages, plus a ``round`` now and then, at
``--rate`` messages per second; tables are spread over ``--procs`` publisher processes, each
driving its tables' paho clients on one selector loop (cheap enough to deliver the rate). Every
message carries the publish time in ``ts`` (microseconds), so lag is measured on one clock:

* dashboard: publish -> folded into the dashboard's model (its own ``/api/stats``);
* page: publish -> the tile carrying it arrives on the dashboard's WebSocket (what a page gets;
  includes the dashboard's 0.1 s coalescing tick);
* baseline: publish -> a bare aiomqtt subscriber in its own process, in the same run.

Also: messages/s through the broker, the CPU of mosquitto and of the dashboard, the CPU per
message of the dashboard and of the bare subscriber (what a loaded machine moves least), and the
machine's 1-minute load average at the window's start and end (the tails are the machine's
when other work shares it). The
publishers run at nice +10: on a floor the tables are other machines, here they must not take
the CPU from the processes measured.
Run: ``.venv/bin/python bench/pit_floor.py [--tables 200] [--rate 5] [--seconds 20] [--procs 4]``.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import multiprocessing
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiomqtt
import httpx
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.auth import hash_password
from drivers.mqtt.link import TCP_NODELAY
from tests.fixtures.mosquitto import MosquittoBroker, free_port
from tests.support import outcomes
from tests.unit.pit import feed_messages as feed

PASSWORD = "bench-pass"
PUBLISHER_NICE = 10
ROOT = Path(__file__).resolve().parent.parent


def iso_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# -- publishers --------------------------------------------------------------------------------
#: stand-ins for a message's changing fields in its encoded template (``template``)
TS, ROUND, SEQ, PROMPT = "\x01ts", "\x01round", 4_000_000_001, "\x01prompt"


def template(body: dict[str, Any]) -> str:
    """``body`` as JSON text with its changing fields as ``str.format`` fields: a message's fixed
    parts are encoded once per table, not once per message."""
    text = json.dumps(body).replace("{", "{{").replace("}", "}}")
    for sentinel, name in ((TS, "ts"), (ROUND, "round"), (PROMPT, "prompt")):
        text = text.replace(json.dumps(sentinel), f'"{{{name}}}"')
    return text.replace(str(SEQ), "{seq}")


class Table:
    """One table's feed: its own paho client (one MQTT connection publishing QoS 1, as a
    controller's feed), driven by its process's selector loop (``publisher``)."""

    def __init__(self, port: int, user: str, password: str, table: str) -> None:
        self.table, self.rng = table, random.Random(table)
        self.seq = self.sent = self.acked = 0
        self.online_mid = -1
        self.topics = {leaf: f"croupier/{table}/{leaf}" for leaf in ("state", "prompt", "round", "event")}
        self.templates = {
            "state": template(feed.state(table, round=ROUND, ts=TS, devices={"wheel": {"online": True, "fault": None}})),
            "prompt": template(feed.prompt(table, PROMPT, ts=TS, round=ROUND)),
            "event": template({**feed.envelope(table, ROUND, TS), "seq": SEQ, "kind": "command", "source": "dealer",
                               "payload": {"name": "bet"}}),
        }
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{table}")
        self.client.username_pw_set(user, password)
        self.client.will_set(self.topics["state"].replace("state", "online"), b"0", 1, True)
        self.client.on_connect = self._connected
        self.client.on_publish = self._acknowledged
        self.connected = False
        self.client.connect("127.0.0.1", port, keepalive=30)
        sock = self.client.socket()
        assert isinstance(sock, socket.socket)
        sock.setsockopt(*TCP_NODELAY[0])

    def _connected(self, client: mqtt.Client, *_: Any) -> None:
        self.connected = True
        self.online_mid = client.publish(f"croupier/{self.table}/online", b"1", qos=1, retain=True).mid

    def _acknowledged(self, client: mqtt.Client, userdata: Any, mid: int, *_: Any) -> None:
        if mid != self.online_mid:  # the feed's messages are counted, not the presence
            self.acked += 1

    def publish(self) -> None:
        """The table's next feed message: every tenth a retained ``state``, three a retained
        ``prompt`` (carrying its publish time for the page lag), one in forty a ``round``, the
        rest ``event`` messages; each with its publish time in ``ts``."""
        self.seq = seq = self.seq + 1
        ts = iso_now()
        round_id = f"{self.table}-{seq // 20:06d}"
        fields = {"ts": ts, "round": round_id, "seq": seq}
        pick = seq % 10
        if pick == 0:
            leaf, retain, body = "state", True, self.templates["state"].format(**fields)
        elif pick in (1, 2, 3):
            leaf, retain = "prompt", True
            body = self.templates["prompt"].format(prompt=f"t={time.time():.6f}", **fields)
        elif seq % 40 == 9:
            leaf, retain = "round", False
            body = json.dumps(feed.round_record(self.table, round_id, seq, ts=ts, opened=ts, closed=ts,
                                                outcome=outcomes.roulette(str(self.rng.randrange(37))),
                                                bets=[feed.bet(500, 0, kind="red")]))
        else:
            leaf, retain, body = "event", False, self.templates["event"].format(**fields)
        self.client.publish(self.topics[leaf], body.encode(), qos=1, retain=retain)
        self.sent += 1


def publisher(port: int, user: str, password: str, tables: list[str], rate: float, begin: float, until: float,
              out: Any) -> None:
    """This process's tables on one selector loop: paho's client with its own network calls
    (``loop_read``/``loop_write``/``loop_misc``), no event loop or future per publish. A table
    publishes at exponential gaps of mean ``1/rate`` until ``until``; the count is of messages
    the broker acknowledged (from ``begin``: the connections are made before it)."""
    os.nice(PUBLISHER_NICE)  # the tables are other machines on a floor: they yield the CPU to the measured
    feeds = [Table(port, user, password, t) for t in tables]
    selector = selectors.DefaultSelector()
    for f in feeds:
        selector.register(f.client.socket(), selectors.EVENT_READ, f)  # type: ignore[arg-type]
    due = [(max(begin, time.time()) + f.rng.random() / rate, n) for n, f in enumerate(feeds)]
    heapq.heapify(due)
    kept_alive = time.time()
    backlog: set[Table] = set()  # what a full socket buffer held back (publish() writes at once)
    while True:
        now = time.time()
        while due and due[0][0] <= now < until:
            _, n = heapq.heappop(due)
            f = feeds[n]
            if f.connected:
                f.publish()
                if f.client.want_write():
                    backlog.add(f)
            heapq.heappush(due, (now + f.rng.expovariate(rate), n))
        if now >= until and (now >= until + 5.0 or all(f.acked >= f.sent for f in feeds)):
            break
        wait = min(0.05, max(0.0, due[0][0] - now)) if due and now < until else 0.05
        for key, _ in selector.select(timeout=wait):
            key.data.client.loop_read()
        if now - kept_alive >= 1.0:
            kept_alive = now
            for f in feeds:
                f.client.loop_misc()
        for f in list(backlog):
            f.client.loop_write()
            if not f.client.want_write():
                backlog.discard(f)
    for f in feeds:
        f.client.disconnect()
    out.put(sum(f.acked for f in feeds))


# -- the bare subscriber (baseline) -------------------------------------------------------------
def baseline(port: int, user: str, password: str, start: float, until: float, out: Any) -> None:
    lags: list[float] = []
    cpu: list[float] = []  # process CPU at the window's start and end

    async def main() -> None:
        async with aiomqtt.Client("127.0.0.1", port, username=user, password=password, identifier="bench-baseline",
                                  socket_options=TCP_NODELAY) as client:
            await client.subscribe([(f"croupier/+/{leaf}", 1) for leaf in ("state", "prompt", "round", "alert", "ledger")])
            async for m in client.messages:
                now = time.time()
                if now > until:
                    break
                try:
                    ts = json.loads(m.payload)["ts"]
                except (ValueError, TypeError, KeyError):
                    continue
                if now >= start:
                    if not cpu:
                        cpu.append(time.process_time())
                    lags.append(now - datetime.fromisoformat(ts).timestamp())

    try:
        asyncio.run(asyncio.wait_for(main(), until - time.time() + 5))
    except TimeoutError:
        pass
    out.put({"lags": lags, "cpu_s": time.process_time() - cpu[0] if cpu else float("nan")})


# -- helpers ---------------------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def page_lags(url: str, cookie: str, start: float, until: float) -> list[float]:
    import websockets

    lags: list[float] = []
    shown: dict[str, str] = {}  # a tile is re-sent when anything changed: count each prompt once
    async with websockets.connect(url, additional_headers={"Cookie": f"pit_session={cookie}"}, max_size=2**24) as ws:
        while time.time() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.time()))
            except TimeoutError:
                break
            now = time.time()
            message = json.loads(raw)
            tiles = message.get("tiles") or message.get("tables") or []
            if message.get("type") != "tiles" or now < start:  # the floor on connect: prompts already shown
                shown.update({t["table"]: t.get("prompt") or "" for t in tiles})
                continue
            for tile in tiles:
                prompt = tile.get("prompt") or ""
                if prompt.startswith("t=") and shown.get(tile["table"]) != prompt:
                    shown[tile["table"]] = prompt
                    lags.append(now - float(prompt[2:]))
    return lags


def run(tables: int, rate: float, seconds: float, procs: int, warmup: float) -> dict[str, Any]:
    with MosquittoBroker(spots=0) as broker, tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "pit.toml"
        config.write_text(f'[pit]\nclient_id = "bench-pit"\n\n[accounts.bench]\nrole = "pit_boss"\n'
                          f'password_hash = "{hash_password(PASSWORD)}"\n')
        port = free_port()
        pit = subprocess.Popen([sys.executable, "-m", "controller.cli", "pit", "--broker", broker.tcp_url(broker.pit),
                                "--config", str(config), "--port", str(port), "--insecure"], stdout=subprocess.PIPE, cwd=ROOT)
        try:
            assert pit.stdout is not None
            pit.stdout.readline()  # "pit: URL" once it listens
            base = f"http://127.0.0.1:{port}"
            client = httpx.Client(base_url=base, timeout=30.0)
            client.post("/api/login", json={"user": "bench", "password": PASSWORD}).raise_for_status()
            cookie = client.cookies["pit_session"]
            begin = time.time() + 1.0
            start, until = begin + warmup, begin + warmup + seconds
            names = [f"t{n:03d}" for n in range(tables)]
            queue: Any = multiprocessing.Queue()
            workers = [multiprocessing.Process(target=publisher, args=(broker.port, broker.controller.username,
                                                                       broker.controller.password, names[i::procs],
                                                                       rate, begin, until, queue)) for i in range(procs)]
            bare = multiprocessing.Process(target=baseline, args=(broker.port, broker.pit.username, broker.pit.password,
                                                                   start, until, queue))
            bare.start()
            for w in workers:
                w.start()
            mosquitto_pid = broker._process.pid if broker._process else 0
            time.sleep(max(0.0, start - time.time()))
            client.get("/api/stats", params={"reset": "1"})
            load0 = os.getloadavg()[0]
            cpu0 = (cpu_seconds(mosquitto_pid), cpu_seconds(pit.pid), time.time())
            page = asyncio.run(page_lags(f"ws://127.0.0.1:{port}/ws", cookie, start, until))
            cpu1 = (cpu_seconds(mosquitto_pid), cpu_seconds(pit.pid), time.time())
            load1 = os.getloadavg()[0]
            stats = client.get("/api/stats").json()
            results = [queue.get(timeout=60) for _ in range(procs + 1)]
            for w in [*workers, bare]:
                w.join(timeout=30)
        finally:
            pit.terminate()
            pit.wait(timeout=10)
        published = sum(r for r in results if isinstance(r, int))
        bare_result = next(r for r in results if isinstance(r, dict))
        bare_lags = bare_result["lags"]
        wall = cpu1[2] - cpu0[2]
        total_s = until - begin
        return {
            "tables": tables, "rate_per_table": rate, "seconds": seconds,
            "published_per_s": published / total_s,
            "dashboard_tables_seen": stats["tables"],
            "dashboard_lag_p50_ms": 1000 * (stats["lag"]["p50"] or float("nan")),
            "dashboard_lag_p99_ms": 1000 * (stats["lag"]["p99"] or float("nan")),
            "dashboard_samples": stats["lag"]["samples"],
            "dashboard_refused": stats["dropped"],
            "page_lag_p50_ms": 1000 * pct(page, 0.5), "page_lag_p99_ms": 1000 * pct(page, 0.99), "page_samples": len(page),
            "baseline_lag_p50_ms": 1000 * pct(bare_lags, 0.5), "baseline_lag_p99_ms": 1000 * pct(bare_lags, 0.99),
            "baseline_samples": len(bare_lags),
            "dashboard_cpu_us_per_message": 1e6 * (cpu1[1] - cpu0[1]) / max(1, stats["lag"]["samples"]),
            "baseline_cpu_us_per_message": 1e6 * bare_result["cpu_s"] / max(1, len(bare_lags)),
            "mosquitto_cpu_pct": 100 * (cpu1[0] - cpu0[0]) / wall,
            "dashboard_cpu_pct": 100 * (cpu1[1] - cpu0[1]) / wall,
            "machine_cpus": os.cpu_count(),
            "load_average_start": load0, "load_average_end": load1,
            "mean_lag_check_ms": 1000 * statistics.fmean(bare_lags) if bare_lags else float("nan"),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=5.0, help="messages per second per table")
    parser.add_argument("--seconds", type=float, default=20.0, help="measurement window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--procs", type=int, default=4, help="publisher processes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.tables, args.rate, args.seconds, args.procs, args.warmup)
    if result["dashboard_refused"]:  # the bench's own messages broke the contract: its figures mean nothing
        sys.exit(f"the dashboard refused {result['dashboard_refused']} of the bench's messages (see its log)")
    if args.json:
        print(json.dumps(result))
        return
    print(f"pit floor: {args.tables} tables x {args.rate:g} msg/s, {args.seconds:g} s window, one mosquitto, "
          f"{result['machine_cpus']} CPUs")
    for key, value in result.items():
        print(f"  {key:>24}: {value:,.2f}" if isinstance(value, float) else f"  {key:>24}: {value}")


if __name__ == "__main__":
    socket.setdefaulttimeout(30)
    main()
