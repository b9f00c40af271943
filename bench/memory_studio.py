"""The ``studio`` part of ``bench/memory.py``: one real ``croupier studio serve`` process (a
throwaway PostgreSQL, a real mosquitto, the house wallet) through ``rounds`` rounds of the
contract's stand-in table, with ``players`` remote players on WebSockets, each betting every
round; every ``TURNOVER`` rounds ``LEAVING`` of them leave and as many new players (new ids, new
launch tokens) join, so what the studio keeps per connection and per player is turned over as
through a day. The studio process's RSS is sampled every ``every`` rounds.

With ``trace`` the same studio (its config, its port, its database) runs in a thread of this
process instead, so that tracemalloc sees it (the players and the stand-in are this process's
too: their lines are filtered out of the growth shown).
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

from bench.memory import Checkpoints, rss_mb
from bench.studio import SECRET, HouseWalletFunding, Instance, TimedTable
from bench.studio_baseline import rss_kb
from bench.studio_players import BenchPlayer, Times, connect_all, wait_for
from controller.backoffice.cluster import Cluster
from controller.studio.migrate import migrate
from tests.fixtures.mosquitto import MosquittoBroker

#: every this many rounds, ``LEAVING`` players leave and as many new ones join
TURNOVER = 50
LEAVING = 2
#: the betting time of a round (short: a day's rounds in minutes; every bet still goes through the book)
BETTING_S = 0.12
#: the players bet within this first part of it (most requests accepted on a loaded machine)
BET_WITHIN = 0.3


class InThread:
    """The instance's studio in a thread of this process (``trace``): tracemalloc sees its allocations."""

    def __init__(self, instance: Instance, database: str) -> None:
        from controller.studio.config import load
        from controller.studio.server import StudioServer

        instance.stop()  # its process only wrote the config; the same studio runs here
        self.config_path = instance.log.with_suffix(".toml")
        self.server = StudioServer(load(self.config_path), database)
        self.loop = asyncio.new_event_loop()
        self.stopping = asyncio.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._serve(),), daemon=True)
        self.thread.start()
        if not self.ready.wait(60):
            raise RuntimeError("the studio in a thread did not start")

    async def _serve(self) -> None:
        async with self.server:
            self.ready.set()
            await self.stopping.wait()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(30)


class Turnover:
    """The players at the table, and the next new ids (funded beforehand)."""

    def __init__(self, url: str, players: int, rounds: int, times: Times, seed: int = 1) -> None:
        self.url, self.times, self.seed = url, times, seed
        self.names = players + (rounds // TURNOVER + 1) * LEAVING
        self.next = 0
        self.joined = 0
        self.seated: list[BenchPlayer] = []

    def player(self) -> BenchPlayer:
        p = BenchPlayer(self.next, [self.url], SECRET, self.times, self.seed, BETTING_S * BET_WITHIN)
        self.next += 1
        return p

    async def join(self, n: int) -> None:
        fresh = [self.player() for _ in range(n)]
        await connect_all(fresh)
        self.seated.extend(fresh)
        self.joined += n

    async def turn_over(self) -> None:
        """The longest seated leave (their connections closed), new players join."""
        gone, self.seated = self.seated[:LEAVING], self.seated[LEAVING:]
        for p in gone:
            await p.close()
        await self.join(LEAVING)


@contextlib.contextmanager
def _services() -> Iterator[tuple[Path, Cluster, MosquittoBroker]]:
    with tempfile.TemporaryDirectory(prefix="bench-memory-studio-") as tmp, Cluster() as pg, \
            MosquittoBroker(spots=0) as broker:
        yield Path(tmp), pg, broker


def _forget(times: Times, round_id: str) -> None:
    """The bench's own per-round figures of a round done: this process keeps no day either."""
    for per_round in (times.published, times.result_at, times.settled_at, times.betting, times.answered,
                      times.accepted, times.credited):
        per_round.pop(round_id, None)


async def studio_part(rounds: int, every: int, players: int, trace: bool) -> dict[str, Any]:
    with _services() as (workdir, pg, broker):
        secret = workdir / "operator.secret"
        secret.write_text(SECRET)
        secret.chmod(0o600)
        with psycopg.connect(pg.url(), autocommit=True) as conn:
            conn.execute('CREATE DATABASE "studio"')
        database = pg.url("studio")
        migrate(database)
        times = Times()
        instance = Instance(0, workdir, broker, database, players + LEAVING, HouseWalletFunding.config)
        seats = Turnover(instance.url, players, rounds, times)
        HouseWalletFunding(database).fund([f"bench-{n}" for n in range(seats.names)])
        assert await wait_for(instance.listening, 60, 0.05), "the studio did not listen"
        threaded = InThread(instance, database) if trace else None
        pid = instance.process.pid
        marks = Checkpoints(every, trace, rss=rss_mb if threaded is not None else lambda: rss_kb(pid) / 1024,
                            foreign=("*/bench/*", "*/controller/studio/standin.py"))
        accepted = unsettled = 0
        try:
            await seats.join(players)
            marks.at(0)
            started = time.perf_counter()
            async with TimedTable(broker.tcp_url(), times) as table:
                for r in range(1, rounds + 1):
                    round_id = f"rl-eu-mem-{r:06d}"
                    await table.play(round_id, BETTING_S, grace_s=3.0)  # each player bets once it opens
                    await wait_for(lambda r=round_id: times.answered.get(r, 0) >= times.betting.get(r, 0), 60)  # type: ignore[misc]
                    bettors = times.accepted.get(round_id, 0)
                    accepted += bettors
                    if not await wait_for(lambda r=round_id, n=bettors: times.credited.get(r, 0) >= n, 60):  # type: ignore[misc]
                        unsettled += 1
                    _forget(times, round_id)
                    table.seals.pop(round_id, None)
                    table.settled.pop(round_id, None)
                    if r % TURNOVER == 0:
                        await seats.turn_over()
                    if marks.due(r):
                        marks.at(r)
            for p in seats.seated:
                await p.close()
        finally:
            if threaded is not None:
                threaded.stop()
            else:
                instance.stop()
    return {**marks.result(started), "rounds": rounds, "players": players, "players_joined": seats.joined,
            "bets_accepted": accepted, "refused": times.refused, "rounds_not_all_credited": unsettled,
            "betting_s": BETTING_S, "in_thread": trace}
