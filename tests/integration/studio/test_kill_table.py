"""The studio and the real table, each its own process, killed with SIGKILL mid-round while remote
players bet (and retry): after the restarts no bet a player was told was accepted is lost, none is
paid twice, and every one is settled on the table's journaled record, or returned when its round
closed without the studio's seal (docs/studio.md: the grace's close returns every remote bet)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import psycopg
import websockets

from controller.studio.config import TableSection
from controller.studio.seal import BookBet, digest
from controller.studio.simulation import check
from controller.studio.simulation.table import table_config, table_raw
from tests.integration.studio.conftest import Client, StudioBroker, operator_secret, token
from tests.integration.studio.test_kill import bound_port
from tests.support.configs import dumps
from tests.support.waiting import until

ROOT = Path(__file__).resolve().parents[3]
PLAYERS, ROUNDS, START = 10, 5, 100_000
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def studio_toml(tmp_path: Path, broker: StudioBroker, database: str, port: int, served: dict[str, object]) -> Path:
    operator_secret(tmp_path)
    config = tmp_path / "studio.toml"
    config.write_text(dumps({
        "studio": {"database": database, "host": "127.0.0.1", "port": port, "tables": {"t1": served},
                   "operators": {"casino-a": {"algorithm": "HS256", "secret_file": "casino-a.secret",
                                              "issuer": "casino-a"}}},
        "mqtt": {"broker": broker.tcp_url(broker.studio), "insecure": True}}))
    return config


class Process:
    """A croupier process of the test's, its output in a log; killed and started again by its PID."""

    def __init__(self, log: Path, *args: str) -> None:
        self.log, self.args = log, args
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self, *more: str) -> None:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen([sys.executable, "-m", "controller.cli", *self.args, *more],
                                          stdout=out, stderr=subprocess.STDOUT, env=ENV)

    def kill(self) -> None:
        assert self.popen is not None
        os.kill(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            self.popen.wait(timeout=20)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


async def player(n: int, url: str, told: dict[str, list[str]]) -> None:
    """Bets on every round it hears open; when the studio goes away it comes back with a new token
    and sends the same request again (the retry is safe: the request id is its own)."""
    seen: set[str] = set()
    unanswered: tuple[str, str] | None = None
    while True:
        try:
            async with Client(url) as client:
                if (await client.join(token(f"p{n}"), table="t1"))["type"] != "joined":
                    await asyncio.sleep(0.2)
                    continue
                while True:
                    if unanswered is None:
                        push = await client.next("betting", within=300.0, status="open")
                        if str(push["round"]) in seen:
                            continue
                        seen.add(str(push["round"]))
                        unanswered = (f"p{n}-{push['round']}", str(push["round"]))
                    answer = await client.bet(*unanswered, ("banker", 500), ("tie", 100))
                    if answer["type"] == "accepted":
                        told[unanswered[1]] = [*told.get(unanswered[1], []), *(str(b["id"]) for b in answer["bets"])]  # type: ignore[attr-defined]
                    if answer.get("reason") not in ("unavailable", "in_progress"):
                        unanswered = None
        except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus, AssertionError, TimeoutError):
            await asyncio.sleep(0.2)  # the studio is away: back in a moment


def rows(database: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    with psycopg.connect(database) as conn:
        return conn.execute(sql, args).fetchall()  # type: ignore[arg-type]


async def test_killing_the_studio_and_the_table_mid_round_loses_and_pays_twice_no_bet(
        tmp_path: Path, broker: StudioBroker, database: str) -> None:
    section = TableSection(game="baccarat", preset="standard")
    kw = {"betting_s": 3, "grace_s": 3, "seed": 5}
    table_config("t1", section, tmp_path, broker.tcp_url(broker.controller), **kw)  # its journal's key
    _, raw = table_raw("t1", section, tmp_path, broker.tcp_url(broker.controller), **kw)
    (tmp_path / "table.toml").write_text(dumps(raw))
    served = {"game": "baccarat", "preset": "standard", "rules": raw["rules"], "limits": raw["limits"]}
    studio = Process(tmp_path / "studio.log", "studio", "serve", "--config",
                     str(studio_toml(tmp_path, broker, database, 0, served)))
    table = Process(tmp_path / "table.log", "run", "--config", str(tmp_path / "table.toml"), "--quiet")
    told: dict[str, list[str]] = {}
    players: list[asyncio.Task[None]] = []

    def book(round_id: str) -> int:
        return len(rows(database, "SELECT 1 FROM studio_bets WHERE round = %s", round_id))

    def betting(known: set[object]) -> list[str]:
        """A round open for bets holding 6 remote bets or more, not one of ``known``."""
        return [str(r[0]) for r in rows(database, "SELECT r.round FROM studio_rounds r JOIN studio_bets b USING "
                                                  "(table_id, round) WHERE r.status = 'open' GROUP BY r.round "
                                                  "HAVING count(*) >= 6") if r[0] not in known]

    try:
        studio.start()
        await until(lambda: "studio: ws://" in studio.text(), "the studio listening", within=60, describe=studio.text)
        port = bound_port(studio.log)
        studio_toml(tmp_path, broker, database, port, served)  # the restart listens where the players reconnect
        with psycopg.connect(database, autocommit=True) as conn:
            for n in range(1, PLAYERS + 1):
                conn.execute("INSERT INTO studio_wallet VALUES ('casino-a', %s, 'EUR', %s)", (f"p{n}", START))
        url = f"ws://127.0.0.1:{port}/v1/play"
        players = [asyncio.create_task(player(n, url, told)) for n in range(1, PLAYERS + 1)]
        table.start("--new-journal", "--rounds", str(ROUNDS))
        await until(lambda: book("t1-000001") >= 6, "bets on round 1", within=90, describe=table.text)
        studio.kill()  # mid-betting, and away until the table closes the round without its seal
        await until(lambda: "studio.seal_missing" in table.text(), "round 1 closed without the seal", within=60,
                    describe=table.text)
        known = {r[0] for r in rows(database, "SELECT round FROM studio_rounds")}
        studio.start()
        await until(lambda: bool(betting(known)), "bets on a round after the studio's restart", within=90,
                    describe=studio.text)
        (killed,) = betting(known)
        table.kill()  # mid-betting
        closed = len(check.read_journal(tmp_path / "t1.journal").records)
        table.start("--rounds", str(ROUNDS - closed))  # the resumed round counts
        assert table.popen is not None
        await until(lambda: table.popen is not None and table.popen.poll() is not None, "the table's rounds",
                    within=180, describe=table.text)
        assert table.popen.returncode == 0, table.text()
        await until(lambda: not rows(database, "SELECT 1 FROM studio_rounds WHERE status IN ('open', 'sealed')"),
                    "every round settled or returned", within=60, describe=studio.text)
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        table.stop()
        studio.stop()

    bets = rows(database, "SELECT round, id, player, kind, amount, status, payout FROM studio_bets ORDER BY id")
    assert {i for ids in told.values() for i in ids} <= {b[1] for b in bets}  # no accepted bet lost
    assert {b[5] for b in bets} <= {"settled", "refunded"}
    reading = check.read_journal(tmp_path / "t1.journal")
    assert len(reading.records) == ROUNDS and {b[0] for b in bets} <= set(reading.records)
    assert reading.records["t1-000001"]["remote"]["sealed"] is False  # the studio was away past the grace
    assert reading.records[killed]["remote"]["sealed"] is True  # the table came back and took the seal
    for round_id, record in reading.records.items():
        mine = [b for b in bets if b[0] == round_id]
        if record["remote"]["sealed"]:
            assert record["remote"]["seal"]["digest"] == digest([BookBet(*b[1:5]) for b in mine])  # type: ignore[arg-type]
            assert {b[5] for b in mine} <= {"settled"}
        else:  # closed without the seal: every remote bet of the round returned
            assert {b[5] for b in mine} <= {"refunded"}
    rules = section.game_rules()
    assert check.differences("baccarat", rules, reading, [(str(b[0]), str(b[3]), int(b[4]), b[6]) for b in bets]) == 0  # type: ignore[call-overload]
    # none paid twice: each balance is the start, less what stayed staked, plus what was paid once
    owed: dict[str, int] = defaultdict(lambda: START)
    for _, _, who, _, amount, status, payout in bets:
        if status == "settled":
            owed[str(who)] += int(payout) - int(amount)  # type: ignore[call-overload]
    balances = dict(rows(database, "SELECT player, balance FROM studio_wallet"))
    assert all(balances[f"p{n}"] == owed[f"p{n}"] for n in range(1, PLAYERS + 1)), (balances, dict(owed))
    assert not rows(database, "SELECT tx FROM studio_payments WHERE NOT done")
