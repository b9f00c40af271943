"""Where one mosquitto stops: QoS 1 pit-feed-sized messages pushed as fast as paho's C-free
client can, from ``--procs`` publisher processes (``--conns`` connections each, spread over
table topics), through one real mosquitto to one subscriber (the dashboard's fan-out of one).
Prints messages/s acknowledged and mosquitto's CPU; the publishers, not the broker, are the
limit when mosquitto stays well under one core (docs/pit.md, "Floor scale").

Run: ``.venv/bin/python bench/broker_ceiling.py [--messages 100000] [--procs 2] [--conns 25]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fixtures.mosquitto import MosquittoBroker

PAYLOAD = json.dumps({"v": 1, "table": "t001", "round": "t001-000001", "ts": "2026-12-01T15:00:00.000000+00:00",
                      "seq": 1, "kind": "command", "source": "dealer", "payload": {"name": "bet", "box": 1}}).encode()


def client(port: int, user: str, password: str, ident: str) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=ident)
    c.username_pw_set(user, password)
    c.max_inflight_messages_set(100)
    c.max_queued_messages_set(0)
    c.connect("127.0.0.1", port)
    return c


def publish(port: int, user: str, password: str, first: int, conns: int, count: int) -> None:
    clients = [client(port, user, password, f"ceiling-{first + k}") for k in range(conns)]
    for c in clients:
        c.loop_start()
    done = threading.Semaphore(0)
    for c in clients:
        c.on_publish = lambda *_: done.release()
    for n in range(count):
        k = n % conns
        clients[k].publish(f"croupier/t{first + k:03d}/event", PAYLOAD, qos=1)
    for _ in range(count):
        done.acquire()
    for c in clients:
        c.disconnect()
        c.loop_stop()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(messages: int, procs: int, conns: int) -> dict[str, Any]:
    with MosquittoBroker(spots=0) as broker:
        got = threading.Event()
        received = [0]

        def on_message(*_: Any) -> None:
            received[0] += 1
            if received[0] >= messages:
                got.set()

        sub = client(broker.port, broker.pit.username, broker.pit.password, "ceiling-sub")
        sub.on_message = on_message
        sub.subscribe("croupier/+/event", qos=1)
        sub.loop_start()
        time.sleep(0.3)
        pid = broker._process.pid if broker._process else 0
        c0, t0 = cpu_seconds(pid), time.time()
        per = messages // procs
        workers = [multiprocessing.Process(target=publish, args=(broker.port, broker.controller.username,
                                                                 broker.controller.password, i * conns, conns, per))
                   for i in range(procs)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=300)
        t1, c1 = time.time(), cpu_seconds(pid)  # every message acknowledged by the broker
        got.wait(timeout=5)  # the subscriber drains what the broker still queues for it
        sub.loop_stop()
        wall = t1 - t0
        return {"messages": per * procs, "seconds": wall, "published_per_s": per * procs / wall,
                "delivered": received[0], "mosquitto_cpu_pct": 100 * (c1 - c0) / wall,
                "connections": procs * conns + 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--conns", type=int, default=25)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    result = run(args.messages, args.procs, args.conns)
    if args.json:
        print(json.dumps(result))
        return
    print(f"broker ceiling: {result['messages']:,} QoS 1 messages over {result['connections']} connections in "
          f"{result['seconds']:.1f} s: {result['published_per_s']:,.0f} msg/s acknowledged, mosquitto "
          f"{result['mosquitto_cpu_pct']:.0f} % of one core; one subscriber got {result['delivered']:,} "
          f"(a pure-Python subscriber is slower than the broker: mosquitto drops beyond its queue limit)")


if __name__ == "__main__":
    main()
