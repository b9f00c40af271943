"""The back office under a busy floor (docs/backoffice.md): many tables' feeds through one real
mosquitto into a real PostgreSQL by ``croupier backoffice run`` in its own process.

Each table publishes, QoS 1, a round every ``--round-every`` seconds on average (exponential
gaps), each round preceded by ``--events`` journal ``event`` messages (which the back office
reads and acknowledges but does not keep) and followed by its journal ``head``. Tables are spread
over ``--procs`` publisher processes (one connection each). Every message carries its publish
time in ``ts``, so lag is measured on one clock:

* back office: publish -> the row's transaction (``rounds.received``, the transaction's start:
  its commit follows within that batch's write);
* baseline: a bare ``COPY`` of the same rows into a table of the same shape, in the same run,
  as rows/s against the consumer's.

With ``--outage S`` the database is stopped for S seconds a third of the way in (the broker holds
the messages; its queue is raised to 1,000,000 for this), and the catch-up time from the
database's restart to the last held round committed is printed.

Run: ``.venv/bin/python bench/backoffice_lag.py [--tables 1000] [--round-every 30] [--events 10]
[--seconds 30] [--procs 2] [--outage 0]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paho.mqtt.client as paho
import psycopg

from controller.backoffice.cluster import Cluster
from controller.backoffice.migrate import migrate
from tests.fixtures.mosquitto import MosquittoBroker


class DeepQueueBroker(MosquittoBroker):
    """The test broker with room for a long outage's messages, and the in-flight window that
    ``broker-config`` writes (the back office's batch)."""

    def _write_config(self) -> None:
        super()._write_config()
        conf = self.dir / "mosquitto.conf"
        conf.write_text(conf.read_text().replace("max_queued_messages 10000",
                                                 "max_queued_messages 1000000\nmax_inflight_messages 200"))


def stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def publisher(port: int, user: str, password: str, tables: list[str], args: argparse.Namespace, until: float,
              counts: Any, unconfirmed: Any) -> None:
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"bench-pub-{os.getpid()}")
    client.username_pw_set(user, password)
    client.max_inflight_messages_set(1000)
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    rng = random.Random(os.getpid())
    due = {t: time.time() + rng.expovariate(1 / args.round_every) for t in tables}
    seq = dict.fromkeys(tables, 0)
    rounds = 0
    infos = []
    while time.time() < until:
        table, when = min(due.items(), key=lambda item: item[1])
        if when > until:
            break
        delay = when - time.time()
        if delay > 0:
            time.sleep(delay)
        n = seq[table] // (args.events + 2) + 1
        for _ in range(args.events):
            seq[table] += 1
            client.publish(f"croupier/{table}/event", json.dumps(
                {"v": 1, "table": table, "round": f"{table}-{n:06d}", "ts": stamp(), "seq": seq[table], "kind": "device",
                 "source": "shoe", "payload": {"type": "card", "card": "AS"}}), qos=1)
        seq[table] += 1
        now = stamp()
        record = {"v": 1, "table": table, "round": f"{table}-{n:06d}", "ts": now, "seq": seq[table], "game": "blackjack",
                  "opened": now, "closed": now, "status": "settled", "dealer": "d1", "shoe": "S-1", "shoe_round": n,
                  "outcome": {"dealer": ["TS", "7H"], "boxes": {"1": [["AS", "KD"]]}},
                  "bets": [{"box": b, "hand": 1, "kind": "main", "player": f"p{b}", "stake": 1000, "payout": 2000 * (b % 2)}
                           for b in (1, 2, 3)],
                  "stake_total": 3000, "payout_total": 4000, "corrections": []}
        infos.append(client.publish(f"croupier/{table}/round", json.dumps(record), qos=1))
        seq[table] += 1
        client.publish(f"croupier/{table}/head", json.dumps(
            {"v": 1, "table": table, "seq": seq[table], "hash": f"{seq[table]:064x}", "ts": stamp()}), qos=1)
        rounds += 1
        due[table] = time.time() + rng.expovariate(1 / args.round_every)
    for info in infos:
        info.wait_for_publish(timeout=300)
    confirmed = sum(1 for info in infos if info.is_published())  # the broker acknowledged it (PUBACK)
    client.loop_stop()
    client.disconnect()
    with counts.get_lock():
        counts.value += confirmed
    with unconfirmed.get_lock():
        unconfirmed.value += rounds - confirmed


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--round-every", type=float, default=30.0, help="seconds between a table's rounds, on average")
    parser.add_argument("--events", type=int, default=10, help="event messages per round")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--outage", type=float, default=0.0, help="seconds the database is down mid-run")
    parser.add_argument("--json", action="store_true", help="(the figures are printed as JSON anyway)")
    args = parser.parse_args()
    if args.outage and args.seconds / 3 + args.outage > args.seconds * 0.8:
        parser.error("--outage must end well before the run does (seconds/3 + outage <= 0.8 * seconds)")
    tables = [f"t{i:04d}" for i in range(args.tables)]
    with Cluster() as pg, DeepQueueBroker(spots=0) as broker:
        with psycopg.connect(pg.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
        url = pg.url("bench")
        migrate(url)
        log = Path(tempfile.mkdtemp(prefix="bench-bo-")) / "office.log"
        office = subprocess.Popen([sys.executable, "-m", "controller.cli", "backoffice", "run", "--database", url,
                                   "--broker", broker.tcp_url(broker.pit), "--insecure"],
                                  stdout=log.open("wb"), stderr=subprocess.STDOUT)
        time.sleep(2.0)  # the consumer's first connection (a bench, not a test: timing is the point)
        try:
            run(args, tables, pg, broker, url, office)
        finally:
            if office.poll() is None:
                office.send_signal(signal.SIGTERM)
                office.wait(timeout=30)


def run(args: argparse.Namespace, tables: list[str], pg: Cluster, broker: MosquittoBroker, url: str,
        office: subprocess.Popen[bytes]) -> None:
    counts = multiprocessing.Value("i", 0)
    unconfirmed = multiprocessing.Value("i", 0)
    start = time.time()
    until = start + args.seconds
    procs = [multiprocessing.Process(target=publisher, args=(broker.port, broker.controller.username,
                                                             broker.controller.password, tables[i::args.procs], args,
                                                             until, counts, unconfirmed)) for i in range(args.procs)]
    for p in procs:
        p.start()
    catch_up = None
    if args.outage > 0:
        time.sleep(args.seconds / 3)
        pg.stop("immediate")
        time.sleep(args.outage)
        pg.start()
        back = time.time()
        with psycopg.connect(url) as conn:  # until what was published before the restart is stored
            held_until = datetime.fromtimestamp(back, UTC)
            while time.time() - back < 600:
                late = conn.execute("SELECT max(record->>'ts') FROM rounds").fetchone()[0]
                conn.commit()
                if late is not None and datetime.fromisoformat(late.replace("Z", "+00:00")) >= held_until:
                    break
                time.sleep(0.05)
        catch_up = time.time() - back
    for p in procs:
        p.join()
    published = counts.value
    drain_start = time.time()
    with psycopg.connect(url) as conn:
        while conn.execute("SELECT count(*) FROM rounds").fetchone()[0] < published and time.time() - drain_start < 120:
            time.sleep(0.1)
        lags = [float(r[0]) for r in conn.execute(
            "SELECT extract(epoch FROM received - (record->>'ts')::timestamptz) FROM rounds")]
        stored, bets = conn.execute("SELECT count(*), (SELECT count(*) FROM bets) FROM rounds").fetchone()
        rejected = conn.execute("SELECT count(*) FROM rejected").fetchone()[0]
        conn.execute("CREATE TABLE copy_rounds (LIKE rounds INCLUDING ALL)")
        conn.execute("CREATE TABLE copy_bets (LIKE bets INCLUDING ALL)")
        dumped = {}
        with conn.cursor() as cur:
            for name in ("rounds", "bets"):
                with cur.copy(f"COPY {name} TO STDOUT") as copy:
                    dumped[name] = b"".join(bytes(block) for block in copy)
        conn.commit()
        t0 = time.perf_counter()
        with conn.cursor() as cur:
            for name in ("rounds", "bets"):
                with cur.copy(f"COPY copy_{name} FROM STDIN") as copy:
                    copy.write(dumped[name])
        conn.commit()
        copy_s = time.perf_counter() - t0
    span = max(1e-9, args.seconds)
    print(json.dumps({
        "tables": args.tables, "seconds": args.seconds, "rounds_published": published, "rounds_stored": stored,
        "rounds_never_acknowledged_by_the_broker": unconfirmed.value, "rejected": rejected,
        "bets_stored": bets, "messages_published": published * (args.events + 2),
        "messages_per_s": round(published * (args.events + 2) / span, 1),
        "lag_p50_ms": round(1000 * pct(lags, 0.5), 1), "lag_p99_ms": round(1000 * pct(lags, 0.99), 1),
        "lag_max_ms": round(1000 * max(lags), 1) if lags else None,
        "consumer_rounds_per_s": round(stored / span, 1),
        "baseline_copy_rounds_and_bets_s": round(copy_s, 3),
        "baseline_copy_rounds_per_s": round(stored / copy_s, 1) if copy_s else None,
        "outage_s": args.outage, "catch_up_s": round(catch_up, 2) if catch_up is not None else None,
    }, indent=1))


if __name__ == "__main__":
    main()
