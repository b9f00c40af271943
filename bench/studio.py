"""The studio under N remote players at one table (docs/studio.md, "Scaling").

``--instances`` ``croupier studio serve`` processes share one throwaway PostgreSQL and a real
mosquitto; the contract's stand-in table (``controller/studio/standin.py``) plays ``--rounds``
rounds of ``--betting-s`` seconds; ``--players`` WebSockets (spread over the instances) join and
each sends one bet request a round at a random moment of the first 80 % of the betting time,
through the studio's wallet (``--wallet house``: the house wallet in the same PostgreSQL).

Figures: ``accept_ms`` (bet sent to ``accepted``), ``settle_all_s`` (the table publishes its round
record to the last player's ``settled`` with its balance: every bet settled and credited),
``card_to_page_ms`` (the round record published to each player's ``result``), and
``rss_per_player_kb`` (the studios' RSS grown per joined player), ``studio_cpu_ms_per_bet`` (the
studios' CPU over the rounds per accepted bet), and ``console_card_to_dom_ms`` (a dealer's console,
``bench/console_latency.py`` with ``--console-cards``, run after the rounds with the players still
connected). Beside them, measured in the same run: a bare WebSocket echo server with the same
connections and message sizes (its CPU per bet too), and a bare PostgreSQL insert of the same rows
(``bench/studio_baseline.py``).

The players (``bench/studio_players.py``) are lean WebSocket clients, spread over
``--client-procs`` processes of their own (1 by default; 0: in this process, beside the stand-in
table), so that the stand-in table's timing is not held up by them and the figures are the
studio's: the bare echo's figures, with the same clients, show what they and the machine add,
and ``clients_cpu_ms_per_bet`` what the players' side spent. On a 2-core machine they still share
the cores with the studio and PostgreSQL: the latencies are then the machine's as much as the
studio's, the CPU per bet is the studio's alone.

Run: ``.venv/bin/python bench/studio.py --players 2000 --rounds 20 [--instances 2] [--json]``;
``--players 5 --rounds 2 --betting-s 0.5`` finishes in seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from bench import studio_baseline as baseline
from bench.broker_ceiling import cpu_seconds
from bench.studio_players import Clients, Times, wait_for
from controller.backoffice.cluster import Cluster
from controller.studio.config import TableSection
from controller.studio.migrate import migrate
from controller.studio.rules import TableRules
from controller.studio.standin import StandInTable
from tests.fixtures.mosquitto import MosquittoBroker, free_port

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-operator-secret-" + "x" * 32
START_BALANCE = 10_000_000
LIMITS = {"red": [100, 100_000], "black": [100, 100_000], "even": [100, 100_000], "odd": [100, 100_000]}


#: ``--profile``: the studio under cProfile timed by its CPU (wall time on a loaded machine counts
#: the waits for the other processes as the studio's cost)
CPU_PROFILED = """import cProfile, runpy, sys, time
out = sys.argv.pop(1)
sys.argv[0] = "croupier"
profile = cProfile.Profile(time.process_time)
try:
    profile.runcall(runpy.run_module, "controller.cli", run_name="__main__")
finally:
    profile.dump_stats(out)
"""


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p99": 0.0}
    if len(values) == 1:
        return {"p50": round(values[0], 2), "p99": round(values[0], 2)}
    q = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(q[49], 2), "p99": round(q[98], 2)}


class HouseWalletFunding:
    """``--wallet house``: balances in the studio's own PostgreSQL (``studio_wallet``)."""

    config = ""

    def __init__(self, database: str) -> None:
        self.database = database

    def fund(self, players: list[str]) -> None:
        with psycopg.connect(self.database) as conn, conn.cursor() as cur, \
                cur.copy("COPY studio_wallet (operator, player, currency, balance) FROM STDIN") as copy:
            for p in players:
                copy.write_row(("casino-a", p, "EUR", START_BALANCE))

    def close(self) -> None:
        pass


def wallet_for(kind: str, database: str) -> HouseWalletFunding:
    """The wallet the studios move money through. ``operator`` (the reference operator's HTTP wallet,
    ``croupier studio operator-sim``) starts it with ``--fund`` per player and adds its
    ``wallet_url`` to the studios' config once ``croupier studio serve`` takes one."""
    if kind == "house":
        return HouseWalletFunding(database)
    raise SystemExit("--wallet operator: croupier studio serve does not take an operator's HTTP wallet yet "
                     "(controller/studio/operators/wallets.py is not wired into the studio's server)")


class Instance:
    """One ``croupier studio serve`` process."""

    def __init__(self, n: int, workdir: Path, broker: MosquittoBroker, database: str, players: int,
                 wallet: str, profile: Path | None = None) -> None:
        self.port = free_port()
        self.log = workdir / f"studio-{n}.log"
        config = workdir / f"studio-{n}.toml"
        config.write_text(f"""
[studio]
database = "{database}"
client_id = "bench-studio-{n}"
host = "127.0.0.1"
port = {self.port}
max_connections = {players + 64}
per_client = {players + 64}
join_s = 120
idle_s = 600
rate = 50.0
burst = 100.0
[studio.tables.rl-eu]
game = "roulette"
preset = "european"
[studio.operators.casino-a]
algorithm = "HS256"
secret_file = "operator.secret"
issuer = "casino-a"
{wallet}
[mqtt]
broker = "{broker.tcp_url()}"
insecure = true
""")
        command = ["studio", "serve", "--config", str(config), "--log-level", "warning"]
        start = [sys.executable, "-c", CPU_PROFILED, str(profile / f"studio-{n}.prof"), *command] if profile \
            else [sys.executable, "-m", "controller.cli", *command]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                start, stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=workdir)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/v1/play"

    def listening(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"the studio exited: {self.log.read_text(errors='replace')[-2000:]}")
        return "studio: ws://" in self.log.read_text(errors="replace")

    def rss_kb(self) -> int:
        return baseline.rss_kb(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()  # a clean stop (a profile is written)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class TimedTable(StandInTable):
    """The stand-in, noting when it published each round record (the card's moment)."""

    def __init__(self, broker: str, times: Times) -> None:
        super().__init__(broker, "rl-eu", TableRules(TableSection(game="roulette", preset="european")), LIMITS, seed=7)
        self.times = times

    async def publish_record(self, round_id: str, outcome: dict[str, Any], *, status: str = "settled",
                             sealed: bool = True, corrections: int = 0) -> None:
        self.times.published[round_id] = time.monotonic()
        await super().publish_record(round_id, outcome, status=status, sealed=sealed, corrections=corrections)


async def start_console(cards: int) -> asyncio.subprocess.Process | None:
    """``bench/console_latency.py`` (a dealer's console in Chromium, its card frame to the DOM),
    run after the rounds while the players are still connected: the same machine and run, not
    during the rounds (its Chromium and table would take the studio's CPU and skew its figures)."""
    if cards <= 0:
        return None
    return await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "bench" / "console_latency.py"), str(cards), "--json",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})


async def console_figures(console: asyncio.subprocess.Process | None) -> dict[str, float] | None:
    """The console's card-to-DOM p50 and p99 (None: not run, or it failed: its error is printed)."""
    if console is None:
        return None
    try:
        out, err = await asyncio.wait_for(console.communicate(), 600)
    except TimeoutError:
        console.kill()
        await console.wait()
        print("console latency: no answer in 600 s", file=sys.stderr)
        return None
    lines = out.decode(errors="replace").strip().splitlines()
    if console.returncode != 0 or not lines:
        print(f"console latency failed: {err.decode(errors='replace')[-2000:]}", file=sys.stderr)
        return None
    figures = json.loads(lines[-1])
    return {"p50": figures["dom_p50_ms"], "p99": figures["dom_p99_ms"]}


def clients_cpu(clients: Clients) -> float:
    """The CPU seconds of the players' side: this process (the stand-in table, and the players
    when they are here) and the client processes."""
    return time.process_time() + sum(cpu_seconds(c.pid) for c in clients.children)


async def play(args: argparse.Namespace, broker: MosquittoBroker, database: str, workdir: Path) -> dict[str, Any]:
    wallet = wallet_for(args.wallet, database)
    migrate(database)
    names = [f"bench-{n}" for n in range(args.players)]
    wallet.fund(names)
    instances = [Instance(n, workdir, broker, database, args.players, wallet.config, args.profile)
                 for n in range(args.instances)]
    times = Times()
    clients = Clients(args.players, [s.url for s in instances], SECRET, times, args.seed, args.betting_s * 0.8,
                      args.client_procs)
    console: asyncio.subprocess.Process | None = None
    try:
        for s in instances:
            assert await wait_for(s.listening, 60, 0.05), f"studio {s.port} did not listen"
        rss_before = sum(s.rss_kb() for s in instances)
        started = time.monotonic()
        await clients.connect()
        connect_s = time.monotonic() - started
        rss_joined = [s.rss_kb() for s in instances]
        cpu_before = sum(cpu_seconds(s.process.pid) for s in instances)
        own_before = clients_cpu(clients)
        unsettled = 0
        async with TimedTable(broker.tcp_url(), times) as table:
            for r in range(1, args.rounds + 1):
                round_id = f"rl-eu-bench-{r:06d}"
                await table.play(round_id, args.betting_s, grace_s=3.0)
                # every bet sent answered, then every accepted one credited
                await wait_for(lambda r=round_id: times.answered.get(r, 0) >= times.betting.get(r, 0), 60)  # type: ignore[misc]
                bettors = times.accepted.get(round_id, 0)
                if not await wait_for(lambda r=round_id, n=bettors: times.credited.get(r, 0) >= n, 60):  # type: ignore[misc]
                    unsettled += 1
        rss_after = sum(s.rss_kb() for s in instances)
        cpu_rounds = sum(cpu_seconds(s.process.pid) for s in instances) - cpu_before
        own_rounds = clients_cpu(clients) - own_before
        console = await start_console(args.console_cards)
        console_dom = await console_figures(console)
        await clients.close()
    finally:
        clients.kill()
        if console is not None and console.returncode is None:
            console.kill()
            await console.wait()
        for s in instances:
            s.stop()
        wallet.close()
    page = [(t - times.published[r]) * 1000 for r, seen in times.result_at.items() for t in seen]
    settle = [max(seen) - times.published[r] for r, seen in times.settled_at.items() if r in times.published]
    return {
        "players": args.players, "instances": args.instances, "rounds": args.rounds, "betting_s": args.betting_s,
        "accepted": len(times.accept_ms), "refused": times.refused, "rounds_not_all_credited": unsettled,
        "connect_s": round(connect_s, 2),
        "accept_ms": percentiles(times.accept_ms),
        "settle_all_s": round(max(settle), 3) if settle else None,
        "settle_all_s_p50": round(statistics.median(settle), 3) if settle else None,
        "card_to_page_ms": percentiles(page),
        "console_card_to_dom_ms": console_dom,
        "rss_per_player_kb": round((sum(rss_joined) - rss_before) / args.players, 1),
        "rss_per_player_kb_after_rounds": round((rss_after - rss_before) / args.players, 1),
        "players_per_instance": args.players // args.instances,
        # the studios' CPU per accepted bet over the rounds (accept, seal, settle, push): the
        # machine's load stretches the latencies, not this
        "studio_cpu_ms_per_bet": round(cpu_rounds * 1000 / max(1, len(times.accept_ms)), 3),
        # the players' side (this process, the stand-in table with it) over the same rounds
        "clients_cpu_ms_per_bet": round(own_rounds * 1000 / max(1, len(times.accept_ms)), 3),
    }


async def measure_baseline(args: argparse.Namespace, database: str, workdir: Path) -> dict[str, Any]:
    echo = await baseline.echo(args.players, args.betting_s, str(workdir / "echo.port"))
    rows = await baseline.postgres(database, args.players, args.betting_s)
    return {"ws_echo": {"accept_ms": percentiles(echo["accept_ms"]),
                        "card_to_page_ms": percentiles(echo["card_to_page_ms"]),
                        "push_all_s": round(echo["push_all_s"], 3),
                        "rss_per_player_kb": echo["rss_per_player_kb"], "cpu_ms_per_bet": echo["cpu_ms_per_bet"]},
            "pg_insert": {"insert_ms": percentiles(rows["insert_ms"]), "settle_rows_s": rows["settle_rows_s"]}}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-studio-") as tmp, Cluster() as pg, \
            MosquittoBroker(spots=0) as broker:
        workdir = Path(tmp)
        secret = workdir / "operator.secret"
        secret.write_text(SECRET)
        secret.chmod(0o600)
        with psycopg.connect(pg.url(), autocommit=True) as conn:
            conn.execute('CREATE DATABASE "studio"')
            conn.execute('CREATE DATABASE "bare"')
        result = await play(args, broker, pg.url("studio"), workdir)
        result["baseline"] = await measure_baseline(args, pg.url("bare"), workdir)
        return result


def _pair(figures: dict[str, float] | None) -> str:
    return "not measured" if figures is None else f"p50 {figures['p50']} p99 {figures['p99']}"


def show(result: dict[str, Any]) -> str:
    b = result["baseline"]
    lines = [f"studio: {result['players']} players on {result['instances']} instance(s), {result['rounds']} rounds of "
             f"{result['betting_s']} s; accepted {result['accepted']}, refused {result['refused']}, rounds not all "
             f"credited {result['rounds_not_all_credited']}, connect {result['connect_s']} s",
             f"  accept_ms         p50 {result['accept_ms']['p50']:>9} p99 {result['accept_ms']['p99']:>9}   "
             f"(goal p99 <= 50)   bare ws p50 {b['ws_echo']['accept_ms']['p50']} p99 {b['ws_echo']['accept_ms']['p99']}, "
             f"bare pg insert p50 {b['pg_insert']['insert_ms']['p50']} p99 {b['pg_insert']['insert_ms']['p99']}",
             f"  settle_all_s      {result['settle_all_s']} (worst round; median {result['settle_all_s_p50']})  "
             f"(goal <= 2)   bare ws push to all {b['ws_echo']['push_all_s']} s, bare pg batch "
             f"{b['pg_insert']['settle_rows_s']} s",
             f"  card_to_page_ms   p50 {result['card_to_page_ms']['p50']:>9} p99 {result['card_to_page_ms']['p99']:>9}   "
             f"bare ws p50 {b['ws_echo']['card_to_page_ms']['p50']} p99 {b['ws_echo']['card_to_page_ms']['p99']}",
             f"  studio CPU per accepted bet {result['studio_cpu_ms_per_bet']} ms   bare ws "
             f"{b['ws_echo']['cpu_ms_per_bet']} ms   (the players' side {result['clients_cpu_ms_per_bet']} ms)",
             f"  console_card_to_dom_ms (the dealer's console meanwhile) {_pair(result['console_card_to_dom_ms'])}",
             f"  rss_per_player_kb {result['rss_per_player_kb']} (after the rounds "
             f"{result['rss_per_player_kb_after_rounds']})   bare ws {b['ws_echo']['rss_per_player_kb']}"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--betting-s", type=float, default=15.0, help="the betting time of each round")
    parser.add_argument("--instances", type=int, default=1, help="croupier studio serve processes sharing the book")
    parser.add_argument("--wallet", choices=("house", "operator"), default="house")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--client-procs", type=int, default=1,
                        help="processes the players are spread over (their own, beside the bench's table); "
                             "0: in the bench's process")
    parser.add_argument("--console-cards", type=int, default=50,
                        help="cards dealt meanwhile on a dealer's console (bench/console_latency.py); 0: none")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--profile", type=Path, help="run the studios under cProfile, writing DIR/studio-N.prof")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result) if args.json else show(result))


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
