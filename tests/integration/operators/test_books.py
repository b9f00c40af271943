"""Reconciliation and disputes: the same rows from ``reconcile`` (CSV, JSON) and from the
operator's signed HTTP endpoint, a round's detail, a table's snapshot; unsigned or foreign
requests refused. The operator-sim command served as a real process."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from psycopg_pool import AsyncConnectionPool
from typer.testing import CliRunner

from controller.studio.operators import outbox, signing
from controller.studio.operators.api import operator_api
from controller.studio.operators.cli import operators_app
from controller.studio.operators.interface import WalletTx
from controller.studio.operators.publisher import FeedPublisher, queue_name
from controller.studio.operators.retry import RetryPolicy
from controller.studio.operators.settings import Operator
from controller.studio.operators.wallets import OperatorWallets
from tests.fixtures.rabbitmq import RabbitServer, free_port
from tests.support.waiting import wait_until

from .conftest import Sim, make_operator, serve


def config_file(tmp_path: Path, database: str, op: Operator, amqp: str = "amqp://127.0.0.1:9/") -> Path:
    path = tmp_path / "operators.toml"
    path.write_text(f'database = "{database}"\namqp = "{amqp}"\n\n[operators.{op.id}]\nwallet_url = "{op.settings.wallet_url}"\n'
                    f'wallet_secret_file = "{op.settings.wallet_secret_file}"\n'
                    f'feed_secret_file = "{op.settings.feed_secret_file}"\ntables = ["rl-eu"]\n')
    return path


async def play_a_round(sim: Sim, pool: AsyncConnectionPool[Any]) -> None:
    sim.store.fund("p1", "EUR", 1_000)
    wallets = OperatorWallets({"casino-a": sim.operator}, pool, policy=RetryPolicy())
    try:
        wallet = wallets["casino-a"]
        await wallet.debit(WalletTx("d1", "d1", "casino-a", "p1", "EUR", 500, round="rl-eu-000001"))
        await wallet.debit(WalletTx("d2", "d2", "casino-a", "p1", "EUR", 900, round="rl-eu-000001"))
        await wallet.credit(WalletTx("c1", "d1", "casino-a", "p1", "EUR", 1_000, round="rl-eu-000001"))
    finally:
        await wallets.close()
    async with pool.connection() as conn, conn.transaction():
        await outbox.append(conn, "rl-eu", "roulette", "result", {"number": 17}, round="rl-eu-000001",
                            state={"round": "rl-eu-000001", "status": "closed", "number": 17})
        await outbox.append(conn, "bac-2", "baccarat", "result", {"winner": "banker"}, round="bac-2-000001")


def get(base: str, op: Operator, target: str, secret: bytes | None = None) -> httpx.Response:
    headers = signing.signed_headers(secret or op.wallet_secret, op.id, int(time.time() * 1000),
                                     secrets.token_hex(8), target.encode())
    return httpx.get(base + target, headers=headers)


async def test_reconcile_rows_are_the_same_from_the_command_and_the_endpoint(
        sim: Sim, pool: AsyncConnectionPool[Any], database: str, tmp_path: Path) -> None:
    await play_a_round(sim, pool)
    path = config_file(tmp_path, database, sim.operator)
    since = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    until = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    runner = CliRunner()
    as_json = await asyncio.to_thread(runner.invoke, operators_app, ["reconcile", "--config", str(path), "--operator", "casino-a",
                                            "--from", since, "--to", until, "--json"])
    as_csv = await asyncio.to_thread(runner.invoke, operators_app, ["reconcile", "--config", str(path), "--operator", "casino-a",
                                           "--from", since, "--to", until, "--csv"])
    assert as_json.exit_code == 0 and as_csv.exit_code == 0, as_json.output + as_csv.output
    rows = json.loads(as_json.stdout)["rows"]
    assert [(r["tx"], r["kind"], r["state"], r["result"], r["balance"]) for r in rows] == [
        ("d1", "debit", "answered", "ok", 500), ("d2", "debit", "answered", "insufficient_funds", 500),
        ("c1", "credit", "answered", "ok", 1_500)]
    assert [r["tx"] for r in csv.DictReader(io.StringIO(as_csv.stdout))] == ["d1", "d2", "c1"]

    only_rl = replace(sim.operator, settings=sim.operator.settings.model_copy(update={"tables": ["rl-eu"]}))
    async with serve(operator_api(pool, {"casino-a": only_rl})) as base:
        query = f"/v1/reconcile?from={since.replace('+00:00', 'Z')}&to={until.replace('+00:00', 'Z')}"
        answer = await asyncio.to_thread(get, base, sim.operator, query)
        assert answer.status_code == 200 and answer.json()["rows"] == rows
        forged = await asyncio.to_thread(get, base, sim.operator, query, b"x" * 64)
        assert forged.status_code == 401 and forged.json() == {"error": "bad signature"}
        detail = (await asyncio.to_thread(get, base, sim.operator, "/v1/rounds/rl-eu-000001")).json()
        assert [t["tx"] for t in detail["transactions"]] == ["d1", "d2", "c1"]
        assert [(e["table"], e["seq"], e["data"]) for e in detail["events"]] == [("rl-eu", 1, {"number": 17})]
        foreign = await asyncio.to_thread(get, base, sim.operator, "/v1/rounds/bac-2-000001")
        assert foreign.status_code == 404  # a table this operator does not take
        snap = (await asyncio.to_thread(get, base, sim.operator, "/v1/tables/rl-eu/snapshot")).json()
        assert snap == {"v": 1, "table": "rl-eu", "seq": 1, "game": "roulette",
                        "state": {"round": "rl-eu-000001", "status": "closed", "number": 17}}
        refused = await asyncio.to_thread(get, base, sim.operator, "/v1/tables/bac-2/snapshot")
        assert refused.status_code == 403


def test_reconcile_refuses_bad_input_with_a_sentence(tmp_path: Path) -> None:
    missing = CliRunner().invoke(operators_app, ["reconcile", "--config", str(tmp_path / "none.toml"), "--operator", "x",
                                                 "--from", "2026-12-05T00:00:00Z", "--to", "2026-12-06T00:00:00Z"])
    assert missing.exit_code == 2 and "none.toml" in missing.output and "Traceback" not in missing.output
    typo = tmp_path / "typo.toml"
    typo.write_text('database = "postgresql://x@127.0.0.1/x"\napi_prot = 1\n')
    wrong = CliRunner().invoke(operators_app, ["operators-migrate", "--config", str(typo)])
    assert wrong.exit_code == 2 and "did you mean api_port" in wrong.output


def test_operator_sim_command_serves_the_signed_wallet_contract(tmp_path: Path) -> None:
    secret = tmp_path / "wallet.secret"
    secret.write_text(secrets.token_hex(32))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.studio.operators.cli", "operator-sim", "--secret-file", str(secret),
         "--port", str(port), "--store", str(tmp_path / "sim.sqlite"), "--fund", "p1:EUR:700", "--stake-limit", "600"],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"

        def answering() -> bool:
            try:
                return httpx.get(f"{base}/_sim/balance/p1", timeout=0.5).json()["balance"] == 700
            except httpx.HTTPError:
                return False

        wait_until(answering, "operator-sim answering", within=60, process=process)
        body = json.dumps({"v": 1, "tx": "t1", "ref": "t1", "round": "r", "player": "p1", "amount": 650,
                           "currency": "EUR"}).encode()
        headers = signing.signed_headers(secret.read_bytes().strip(), "casino-a", int(time.time() * 1000), "t1", body)
        limited = httpx.post(f"{base}/wallet/debit", content=body, headers=headers)
        assert limited.json() == {"v": 1, "tx": "t1", "status": "operator_limit", "balance": 700}
        assert signing.check(secret.read_bytes().strip(), limited.headers, limited.content, int(time.time() * 1000)) is None
        unsigned = httpx.post(f"{base}/wallet/debit", content=body, headers={"Content-Type": "application/json"})
        assert unsigned.status_code == 401
    finally:
        process.terminate()
        process.wait(timeout=10)


async def test_operator_sim_process_consumes_its_queue_and_replay_command_resends(
        pool: AsyncConnectionPool[Any], database: str, rabbitmq: RabbitServer, tmp_path: Path) -> None:
    op = make_operator(tmp_path, "casino-q", "http://127.0.0.1:9/wallet")
    path = config_file(tmp_path, database, op, amqp=rabbitmq.url)
    async with pool.connection() as conn, conn.transaction():
        for n in range(5):
            await outbox.append(conn, "rl-eu", "roulette", "result", {"number": n}, round=f"rl-eu-{n:06d}")
    publisher = FeedPublisher(pool, rabbitmq.url, {op.id: op}, poll_s=0.05)
    publisher.start()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.studio.operators.cli", "operator-sim", "--secret-file",
         str(op.settings.wallet_secret_file), "--port", str(port), "--store", str(tmp_path / "sim.sqlite"),
         "--amqp", rabbitmq.url, "--queue", queue_name(op, "roulette"),
         "--feed-secret-file", str(op.settings.feed_secret_file), "--duplicate"],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        def feed() -> dict[str, Any]:
            try:
                return dict(httpx.get(f"http://127.0.0.1:{port}/_sim/feed", timeout=0.5).json())
            except httpx.HTTPError:
                return {}

        def seen(last: int, duplicates: int) -> Callable[[], bool]:
            return lambda: feed().get("last") == {"rl-eu": last} and feed().get("duplicates") == duplicates

        await asyncio.to_thread(wait_until, seen(5, 5), "the sim holding 5 events, each delivered twice",
                                within=60, process=process, describe=lambda: str(feed()))
        replayed = await asyncio.to_thread(CliRunner().invoke, operators_app, [
            "replay", "--config", str(path), "--operator", op.id, "--table", "rl-eu", "--from", "4"])
        assert replayed.exit_code == 0, replayed.output
        assert json.loads(replayed.stdout) == {"operator": "casino-q", "table": "rl-eu", "published": 2}
        await asyncio.to_thread(wait_until, seen(5, 9), "the replayed two (each twice) dropped as held", within=30,
                                process=process, describe=lambda: str(feed()))
        assert feed()["gaps"] == [] and feed()["bad_mac"] == 0
    finally:
        await publisher.stop()
        process.terminate()
        process.wait(timeout=10)
