"""``croupier studio simulate``: R rounds of a table with N simulated remote players through the
real service: the real table (the table process's ``run_table``, its devices simulated on their
real transports, batch mode's simulated dealer and seated players; ``simulation/table.py``), the
studio's WebSocket API, its book in PostgreSQL and the broker. Some players are late, some
disconnect and come back, some send a request twice (``simulation/players.py``). The run prints
one JSON object: what the studio took, sealed and settled (its book), what the table journaled
(the seals and the studio's totals), and how many bets the studio paid otherwise than an
independent reading of the table's journal owes them (``simulation/check.py``)."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from controller.config import TableConfig
from controller.studio.config import StudioConfig
from controller.studio.server import StudioServer
from controller.studio.simulation import check, seated, table
from controller.studio.simulation.players import START_BALANCE, Tally


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return round(values[0], 2)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1], 2)


def _operator(config: StudioConfig) -> tuple[str, tuple[str, str, str]]:
    """The first HS256 operator: its name, and (issuer, audience, secret) to sign the players' tokens."""
    for (name, key), op in zip(config.keys().items(), config.studio.operators.values()):
        if op.algorithm == "HS256":
            return name, (op.issuer, op.audience, key)
    raise ValueError("simulate signs its players' tokens: the config needs an HS256 operator")


async def simulate(config: StudioConfig, database: str, broker: str, *, players: int, rounds: int, seed: int,
                   betting_s: int = 1, grace_s: int = 3, directory: Path | None = None,
                   table_broker: str | None = None) -> dict[str, Any]:
    """Play the config's first table; the run's table journal goes to ``directory`` (a temporary one
    when None). The studio meets the broker as ``broker``, the table as ``table_broker`` (its own
    account; the same URL when None)."""
    with tempfile.TemporaryDirectory(prefix="croupier-simulate-") as scratch:
        table_id, section = next(iter(config.studio.tables.items()))
        table_config = table.table_config(table_id, section, directory or Path(scratch), table_broker or broker,
                                          betting_s=betting_s, grace_s=grace_s, seed=seed)
        return await _simulate(config, database, broker, table_config, players, rounds, seed)


async def _simulate(config: StudioConfig, database: str, broker: str, table_config: TableConfig, players: int,
                    rounds: int, seed: int) -> dict[str, Any]:
    table_id, section = next(iter(config.studio.tables.items()))
    operator, signing = _operator(config)
    served = table.studio_section(table_config)
    run_config = config.model_copy(update={
        "studio": config.studio.model_copy(update={
            "host": "127.0.0.1", "port": 0, "tables": {table_id: served},
            "per_client": max(config.studio.per_client, players + 16),
            "max_connections": max(config.studio.max_connections, players + 16)}),
        "mqtt": config.mqtt.model_copy(update={"broker": broker, "insecure": True})})
    rng = random.Random(seed)
    tally = Tally()
    async with StudioServer(run_config, database) as server:
        assert server.link is not None
        await asyncio.wait_for(server.link.connected.wait(), 30)
        if await _rows(server, "SELECT 1 FROM studio_rounds WHERE table_id = %s LIMIT 1", table_id):
            raise ValueError(f"the studio's database already has rounds of {table_id}: simulate needs a fresh one")
        cast = seated.cast(served.game, served.game_rules(), lambda kind, n, own, **role: kind(
            n, server.url, signing, table_id, section.game, own, tally, **role))
        sims = [cast(n, random.Random(rng.random())) for n in range(1, players + 1)]
        for sim in sims:
            await server.wallet.fund(operator, sim.player, "EUR", START_BALANCE)
        await asyncio.gather(*(s.connect() for s in sims))
        betting = [asyncio.create_task(s.run(), name=s.player) for s in sims]
        try:
            await table.play(table_config, rounds)
        finally:
            for task in betting:
                task.cancel()
            await asyncio.gather(*betting, return_exceptions=True)
            await asyncio.gather(*(s.stop() for s in sims), return_exceptions=True)
        books = await _books(server, table_id)
        bets = await _rows(server, "SELECT round, kind, amount, payout, operator || '/' || player FROM studio_bets "
                                   "WHERE table_id = %s AND status IN ('settled', 'refunded') ORDER BY id", table_id)
        kept = {str(r[0]) for r in await _rows(server, "SELECT id FROM studio_bets WHERE table_id = %s", table_id)}
    reading = check.read_journal(table_config.journal_path)
    rules = served.game_rules()
    differences = check.differences(served.game, rules, reading, [(r[0], r[1], int(r[2]), r[3], r[4]) for r in bets])
    return {
        "rounds": len(reading.records), "void": reading.voids, "players": players, "bets_accepted": tally.accepted_bets,
        "bets_refused": dict(sorted(tally.refused.items())), "settled": books["settled"], "refunded": books["refunded"],
        "seals_journaled": reading.seals, "drop": books["drop"], "paid": books["paid"],
        "table_drop": reading.drop, "table_paid": reading.paid,
        "accept_ms": {"p50": _percentile(tally.accept_ms, 50), "p99": _percentile(tally.accept_ms, 99)},
        "decisions": reading.decisions, "differences": differences + len(tally.accepted_ids - kept),
    }


async def _rows(server: StudioServer, sql: str, *args: Any) -> list[Any]:
    async with server.pool.connection() as conn:
        cur = await conn.execute(sql, args)
        return list(await cur.fetchall())


async def _books(server: StudioServer, table_id: str) -> dict[str, int]:
    settled, refunded, drop, paid = (await _rows(
        server, "SELECT count(*) FILTER (WHERE status = 'settled'), count(*) FILTER (WHERE status = 'refunded'), "
                "coalesce(sum(amount) FILTER (WHERE status = 'settled'), 0) + (SELECT coalesce(sum(amount), 0) FROM "
                "studio_payments WHERE table_id = %s AND kind = 'debit' AND tx LIKE 'added:%%'), "
                "coalesce(sum(payout) FILTER (WHERE status = 'settled'), 0) FROM studio_bets WHERE table_id = %s",
        table_id, table_id))[0]
    return {"settled": int(settled), "refunded": int(refunded), "drop": int(drop), "paid": int(paid)}
