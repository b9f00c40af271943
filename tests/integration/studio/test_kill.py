"""``croupier studio serve`` as its own process, killed with SIGKILL while players bet: after a
restart every bet a player was told was accepted is in the seal, and no money is lost."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import websockets

from controller.studio.seal import BookBet, digest
from tests.integration.studio.conftest import Client, StudioBroker, Table, operator_secret, token
from tests.support.waiting import wait_until

ROUND = "rl-eu-000001"
ROOT = Path(__file__).resolve().parents[3]


def write_config(tmp_path: Path, broker: StudioBroker, database: str, port: int,
                 client_id: str = "croupier-studio") -> Path:
    operator_secret(tmp_path)
    config = tmp_path / f"{client_id}.toml"
    config.write_text(f"""
[studio]
database = "{database}"
client_id = "{client_id}"
host = "127.0.0.1"
port = {port}
[studio.tables.rl-eu]
game = "roulette"
preset = "european"
[studio.operators.casino-a]
algorithm = "HS256"
secret_file = "casino-a.secret"
issuer = "casino-a"
[mqtt]
broker = "{broker.tcp_url(broker.studio)}"
insecure = true
""")
    return config


def start(config: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "controller.cli", "studio", "serve", "--config", str(config)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)


def listening(log: Path) -> bool:
    return "studio: ws://" in log.read_text(errors="replace")


def bound_port(log: Path) -> int:
    """The port the studio bound (it was started on port 0: a port picked beforehand may be taken
    by another process before the studio binds it)."""
    line = next(x for x in log.read_text(errors="replace").splitlines() if x.startswith("studio: ws://"))
    return int(line.split("studio: ws://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])


async def test_a_killed_studio_loses_no_accepted_bet(tmp_path: Path, broker: StudioBroker, database: str) -> None:
    config = write_config(tmp_path, broker, database, 0)
    log = tmp_path / "studio.log"
    process = start(config, log)
    try:
        wait_until(lambda: listening(log), "the studio listening", process=process, describe=log.read_text)
        port = bound_port(log)
        url = f"ws://127.0.0.1:{port}/v1/play"
        write_config(tmp_path, broker, database, port)  # the restart listens where the players reconnect
        with psycopg.connect(database, autocommit=True) as conn:
            for n in range(1, 21):
                conn.execute("INSERT INTO studio_wallet VALUES ('casino-a', %s, 'EUR', 10000)", (f"p{n}",))
        accepted: dict[str, list[dict[str, object]]] = {}
        async with Table(broker) as table:
            await table.betting("open", ROUND, deadline_s=300)
            clients = [Client(url) for _ in range(20)]
            for n, c in enumerate(clients, start=1):
                await c.__aenter__()
                await c.join(token(f"p{n}"))
                await c.next("betting", status="open")

            async def bet(n: int, c: Client) -> None:
                try:
                    answer = await c.bet(f"q{n}", ROUND, ("red", 500), ("straight:3", 100))
                except (websockets.ConnectionClosed, OSError, TimeoutError):
                    return
                if answer["type"] == "accepted":
                    accepted[f"p{n}"] = answer["bets"]  # type: ignore[assignment]

            betting = [asyncio.create_task(bet(n, c)) for n, c in enumerate(clients, start=1)]
            while len(accepted) < 3:
                await asyncio.sleep(0.005)
            process.send_signal(signal.SIGKILL)  # mid-betting
            process.wait()
            await asyncio.gather(*betting)
            for c in clients:
                await c.__aexit__(None, None, None)
            told = dict(accepted)

            with log.open("a") as out:
                out.write("---- restarted\n")
            process = start(config, log)
            wait_until(lambda: log.read_text(errors="replace").split("---- restarted")[-1].count("studio: ws://") > 0,
                       "the studio listening again", process=process, describe=log.read_text)
            await table.betting("sealing", ROUND, seq=2)
            seal = await table.wait_for("seal", ROUND)
        with psycopg.connect(database) as conn:
            rows = conn.execute("SELECT id, player, kind, amount FROM studio_bets WHERE round = %s",
                                (ROUND,)).fetchall()
            balances = dict(conn.execute("SELECT player, balance FROM studio_wallet").fetchall())
            pending = conn.execute("SELECT count(*) FROM studio_requests WHERE status = 'pending'").fetchone()
        in_book = {r[0] for r in rows}
        for player, bets in told.items():
            assert {b["id"] for b in bets} <= in_book, player  # type: ignore[index]
        assert seal["count"] == len(rows) and seal["digest"] == digest([BookBet(*r) for r in rows])
        with_bets = {r[1] for r in rows}
        assert pending == (0,)
        for n in range(1, 21):
            assert balances[f"p{n}"] == (10000 - 600 if f"p{n}" in with_bets else 10000), n
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)
