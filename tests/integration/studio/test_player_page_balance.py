"""The player's page (docs/studio.md, "A slow operator's balance") in Chromium on a phone with touch,
against the real studio (PostgreSQL, mosquitto, the table's stand-in) and the reference operator
``croupier studio operator-sim`` served as its own process, made slow with its ``delay_s`` fault:
the round's ``settled`` comes without the balance, so the page says what was paid and that the
casino is confirming the balance, then shows the balance its ``balance`` push gives. A push for
an older round (the player has bet on the next one since) fills in that round's history row and
leaves the newer balance shown. Never "null", "undefined" or a blank amount on screen."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from controller.studio.config import StudioConfig
from controller.studio.operators.retry import RetryPolicy
from controller.studio.server import StudioServer
from tests.fixtures.mosquitto import free_port
from tests.integration.browser.conftest import chromium, until_js
from tests.integration.studio.conftest import StudioBroker, Table, operator_secret, token
from tests.integration.studio.test_player_page import player_page, record, screen_is_clean, text
from tests.support.waiting import wait_until

__all__ = ["chromium"]  # the fixture, used by name

FUNDS = 10_000
CONFIRMING = "Your casino is confirming your balance…"
#: the retry worker asks the slow wallet again this long after settlement gave up on it: the page
#: bets on the next round before the older round's balance comes
RETRY = RetryPolicy(base=timedelta(seconds=6), cap=timedelta(seconds=6), poll_s=0.2)


def secret_file(directory: Path, name: str) -> Path:
    path = directory / name
    path.write_text(secrets.token_hex(32))
    path.chmod(0o600)
    return path


@contextlib.contextmanager
def operator_sim(tmp_path: Path, wallet_secret: Path) -> Iterator[str]:
    """``croupier studio operator-sim`` as its own process, p1 funded; yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "studio", "operator-sim", "--secret-file", str(wallet_secret),
         "--port", str(port), "--store", str(tmp_path / "sim.sqlite"), "--fund", f"p1:EUR:{FUNDS}"],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"

    def answering() -> bool:
        try:
            return httpx.get(f"{base}/_sim/balance/p1", timeout=0.5).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(answering, "operator-sim answering", within=60, process=process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


async def slow(base: str, delay_s: float) -> None:
    """The operator's ``delay_s`` fault: its answers this late (the studio waits 1 s)."""
    async with httpx.AsyncClient() as http:
        assert (await http.post(f"{base}/_sim/faults", json={"delay_s": delay_s})).status_code == 200


def config(tmp_path: Path, broker: StudioBroker, wallet: str) -> StudioConfig:
    wallet_secret, feed_secret = tmp_path / "wallet.secret", secret_file(tmp_path, "feed.secret")
    return StudioConfig.model_validate({
        "studio": {"host": "127.0.0.1", "port": 0, "tables": {"rl-eu": {"game": "roulette", "preset": "european"}},
                   "operators": {"casino-a": {"algorithm": "HS256", "secret_file": str(operator_secret(tmp_path)),
                                              "issuer": "casino-a", "wallet_url": f"{wallet}/wallet",
                                              "wallet_secret_file": str(wallet_secret),
                                              "feed_secret_file": str(feed_secret), "timeout_s": 1.0}}},
        "mqtt": {"broker": broker.tcp_url(broker.studio), "insecure": True}, "base": tmp_path})


async def bet_red(page: Any, table: Table, round_id: str) -> None:
    """The round opened, 5.00 EUR on red from the page, accepted."""
    await table.betting("open", round_id, deadline_s=60)
    await until_js(page, "document.getElementById('phase').dataset.status === 'open'")
    await page.locator("#chips button[aria-label='chip 5.00 EUR']").tap()
    await page.locator("#roulette-grid button[aria-label='red']").tap()
    await page.locator("#place").tap()
    await until_js(page, "document.getElementById('notice').dataset.kind === 'ok'")


async def close(table: Table, round_id: str) -> None:
    await table.betting("sealing", round_id)
    await table.wait_for("seal", round_id)
    await table.betting("closed", round_id, sealed=True)


def row(round_id: str) -> str:
    return f"[...document.querySelectorAll('#history-list li')].find((li) => li.textContent.includes('{round_id}'))"


async def test_a_slow_operators_balance_comes_after_the_paid_amounts(chromium: Any, tmp_path: Path,
                                                                     broker: StudioBroker, database: str) -> None:
    wallet_secret = secret_file(tmp_path, "wallet.secret")
    with operator_sim(tmp_path, wallet_secret) as sim:
        async with StudioServer(config(tmp_path, broker, sim), database, retry=RETRY) as studio, \
                Table(broker) as table:
            page = await player_page(chromium, f"http://127.0.0.1:{studio.port}/play/rl-eu#token={token('p1')}",
                                     "390x844")
            await until_js(page, "document.getElementById('link').textContent === 'live'")
            first, second, third = "rl-eu-000001", "rl-eu-000002", "rl-eu-000003"

            # the slow wallet's credit answered late: the paid amounts now, the balance when it comes
            await bet_red(page, table, first)
            assert await text(page, "#balance") == "Balance 95.00 EUR"
            await close(table, first)
            await slow(sim, 3.0)
            await table.publish_record(first, record("1"))
            await until_js(page, "document.getElementById('outcome-paid').textContent.includes('confirming')")
            assert await text(page, "#outcome-paid") == f"You won: 10.00 EUR paid on a stake of 5.00 EUR. {CONFIRMING}"
            assert await text(page, "#balance") == "Balance: confirming…"
            await until_js(page, f"{row(first)} !== undefined")
            assert "balance pending" in await page.evaluate(f"() => {row(first)}.textContent")
            await screen_is_clean(page, "390x844 balance pending")
            await slow(sim, 0)
            await until_js(page, "document.getElementById('balance').textContent === 'Balance 105.00 EUR'")
            assert await text(page, "#outcome-paid") == ("You won: 10.00 EUR paid on a stake of 5.00 EUR. "
                                                         "Balance: 105.00 EUR.")
            assert "balance after 105.00 EUR" in await page.evaluate(f"() => {row(first)}.textContent")
            await screen_is_clean(page, "390x844 balance come")

            # again slow; the player bets on the next round before that balance comes: it is an older
            # round's, its history row takes it and the newer balance stays shown
            await bet_red(page, table, second)
            await close(table, second)
            await slow(sim, 3.0)
            await table.publish_record(second, record("1"))
            await until_js(page, "document.getElementById('outcome-paid').textContent.includes('confirming')")
            await slow(sim, 0)
            await bet_red(page, table, third)  # the wallet's debit: 110.00 less 5.00
            assert await text(page, "#balance") == "Balance 105.00 EUR"
            await until_js(page, f"{row(second)}.textContent.includes('balance after 110.00 EUR')")
            assert await text(page, "#balance") == "Balance 105.00 EUR"
            assert await text(page, "#notice") == "Your bets are in: 5.00 EUR on this round."
            await screen_is_clean(page, "390x844 older balance")
